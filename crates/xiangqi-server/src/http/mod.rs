//! The HTTP side: the JSON API under `/api`, the WebSocket at `/ws`, the
//! PGN export, and the embedded web client for every other page path;
//! every request passes `guard` (the `Origin` check, security headers).

pub mod account;
pub mod assets;
pub mod auth;
pub mod bot;
pub mod explorer;
pub mod extract;
pub mod games;
pub mod guard;
pub mod players;
pub mod puzzles;
pub mod review;
pub mod social;

use axum::extract::DefaultBodyLimit;
use axum::middleware;
use axum::routing::{any, delete, get, post, put};
use axum::Router;

use crate::error::ApiError;
use crate::state::AppState;

/// Request bodies are small JSON objects.
const MAX_BODY_BYTES: usize = 16 * 1024;

async fn unknown_endpoint() -> ApiError {
    ApiError::NotFound("such API endpoint".into())
}

/// Every route of the server.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/me", get(auth::me))
        .route("/register", post(auth::register))
        .route("/login", post(auth::login))
        .route("/logout", post(auth::logout))
        .route("/settings", put(auth::settings))
        .route("/account/password", post(account::change_password))
        .route("/account/delete", post(account::delete_account))
        .route("/reports", post(social::report))
        .route("/games/{id}/chat", get(social::chat))
        .route("/players/{name}", get(players::player))
        .route("/games/{id}", get(games::game))
        .route("/games/{id}/viewer", get(review::viewer))
        .route("/games/{id}/annotate", post(review::annotate))
        .route("/explorer", get(explorer::explorer))
        .route("/puzzles", get(puzzles::overview))
        .route("/puzzles/next", post(puzzles::next))
        .route("/puzzles/attempts/{id}/move", post(puzzles::play))
        .route("/puzzles/attempts/{id}/solution", post(puzzles::solution))
        .route(
            "/account/tokens",
            get(bot::list_tokens).post(bot::create_token),
        )
        .route("/account/tokens/{id}", delete(bot::revoke_token))
        .route("/bot/account/upgrade", post(bot::upgrade))
        .route("/bots/online", get(bot::online))
        .route("/stream/event", get(bot::event_stream))
        .route("/challenge/{name}", post(bot::challenge))
        .route("/challenge/{id}/accept", post(bot::accept))
        .route("/challenge/{id}/decline", post(bot::decline))
        .route("/challenge/{id}/cancel", post(bot::cancel))
        .route("/bot/game/stream/{id}", get(bot::game_stream))
        .route("/bot/game/{id}/move/{mv}", post(bot::play))
        .route("/bot/game/{id}/resign", post(bot::resign))
        .route("/bot/game/{id}/abort", post(bot::abort))
        .route("/bot/game/{id}/draw/offer", post(bot::offer_draw))
        .route("/bot/game/{id}/draw/accept", post(bot::accept_draw))
        .route("/bot/game/{id}/draw/decline", post(bot::decline_draw))
        .route("/bot/game/{id}/takeback/offer", post(bot::offer_takeback))
        .route("/bot/game/{id}/takeback/accept", post(bot::accept_takeback))
        .route(
            "/bot/game/{id}/takeback/decline",
            post(bot::decline_takeback),
        )
        .route("/bot/game/{id}/chat", post(bot::chat))
        .fallback(any(unknown_endpoint))
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed });
    Router::new()
        .nest("/api", api)
        // The nest leaves `/api` and `/api/` themselves to the page fallback.
        .route("/api", any(unknown_endpoint))
        .route("/api/", any(unknown_endpoint))
        .route("/ws", get(crate::ws::upgrade))
        .route("/games/{file}", get(games::page_or_pgn))
        .route("/static/{*file}", get(assets::asset))
        .fallback(get(assets::index))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            guard::check_origin,
        ))
        .layer(middleware::from_fn(guard::security_headers))
        .with_state(state)
}

//! The socket's `analyse` and `stop_analysis`: the request checked by the
//! rules core (`analysis::position`), then handed to the player's one
//! analysis (`analysis::Analyses`), which reports to this socket.

use crate::analysis::position::check;
use crate::state::AppState;
use crate::ws::connection::{error_frame_with_args, Session};
use crate::ws::dispatch::{refuse, Replies};
use crate::ws::protocol::{AnalyseRequest, MAX_MULTI_PV};

/// `analyse`: starts the analysis (replacing the player's running one).
pub fn analyse(state: &AppState, session: &Session, request: AnalyseRequest) -> Replies {
    if !(1..=MAX_MULTI_PV).contains(&request.multipv) {
        return refuse(
            "bad_multipv",
            format!("multipv is a number from 1 to {MAX_MULTI_PV}"),
            None,
        );
    }
    let checked = match check(&request.fen, &request.moves) {
        Ok(checked) => checked,
        Err(refusal) => {
            return vec![error_frame_with_args(
                refusal.code,
                &refusal.message,
                None,
                refusal.args,
            )]
        }
    };
    state.analyses.start(
        &session.player.id,
        session.conn,
        session.out.clone(),
        checked,
        request.multipv as usize,
    );
    Vec::new()
}

/// `stop_analysis`: stops the player's analysis, `id` or whichever runs.
pub fn stop(state: &AppState, session: &Session, id: Option<String>) -> Replies {
    match state.analyses.stop(&session.player.id, id.as_deref()) {
        Ok(()) => Vec::new(),
        Err(e) => refuse("unknown_analysis", e.to_string(), None),
    }
}

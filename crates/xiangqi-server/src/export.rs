//! A stored game as PGN: the players, the time control, the result and its
//! reason, whether it counted for the ratings, and after every move the
//! mover's clock as `[%clk]`, rebuilt by
//! replaying the stored events (so the export of a finished game is the
//! same bytes every time).

use xiangqi_adjudication::{ClockEvent, TimeControl};
use xiangqi_core::Position;
use xiangqi_gamefile::pgn::{clock_comment, write_game, WriteOptions};
use xiangqi_gamefile::{Game, GameResult, Node};
use xiangqi_notation::Notation;
use xiangqi_rating::online::rated_score;

use crate::game::view::Seat;
use crate::store::{PlayerRow, StoreError, StoredGame};
use crate::time_control::parse_time_control;

fn stored_time_control(stored: &StoredGame) -> Result<TimeControl, StoreError> {
    parse_time_control(&stored.game.time_control)
        .map_err(|e| StoreError::Invalid(format!("game {}: {e}", stored.game.id)))
}

/// The display name of a stored side (`engine-N` or a player row).
fn side_name(id: &str, player: Option<&PlayerRow>) -> String {
    match (Seat::engine_level(id), player) {
        (Some(level), _) => Seat::engine_name(level),
        (None, Some(p)) => p.name.clone(),
        (None, None) => id.to_string(),
    }
}

/// `YYYY.MM.DD` of unix milliseconds (UTC), by the civil-from-days rule.
fn pgn_date(unix_ms: i64) -> String {
    let days = unix_ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The PGN text of `stored` (see [`export_game`]).
pub fn game_pgn(
    stored: &StoredGame,
    red: Option<&PlayerRow>,
    black: Option<&PlayerRow>,
    ratings: Option<(i32, i32)>,
) -> Result<String, StoreError> {
    let game = export_game(stored, red, black, ratings)?;
    write_game(&game, &WriteOptions::new(Notation::Iccs))
        .map_err(|e| StoreError::Invalid(format!("game {}: {e}", stored.game.id)))
}

/// `stored` as a game record, the same the PGN export writes: `red` and
/// `black` are the sides' player rows (`None` for the engine), `ratings`
/// Red's and Black's ratings before the game when it was rated.
pub fn export_game(
    stored: &StoredGame,
    red: Option<&PlayerRow>,
    black: Option<&PlayerRow>,
    ratings: Option<(i32, i32)>,
) -> Result<Game, StoreError> {
    let row = &stored.game;
    let mut game = Game::from_moves([]);
    let mut plies = 0;
    let online = stored.replay_each(|online, timed| {
        if online.game().ply() < plies {
            // An agreed takeback: the record holds the moves as finally played.
            plies = online.game().ply();
            game.mainline.moves.truncate(plies as usize);
        }
        if matches!(timed.event, ClockEvent::Move { .. }) && online.game().ply() > plies {
            plies = online.game().ply();
            if let Some(&mv) = online.game().moves().last() {
                // The mover is the side not to move now; its clock shows
                // what it had left after the move (with the increment).
                let mover = online.game().position().side_to_move().opposite();
                let mut node = Node::new(mv);
                node.comments_mut()
                    .push(clock_comment(online.clocks()[mover.index()]));
                game.mainline.moves.push(node);
            }
        }
    })?;
    let start = online.game().start();
    let tc = stored_time_control(stored)?;
    let result = match stored.ending.as_ref().map(|e| e.result.as_str()) {
        Some("1-0") => GameResult::RedWins,
        Some("0-1") => GameResult::BlackWins,
        Some("1/2-1/2") => GameResult::Draw,
        _ => GameResult::Unknown,
    };
    let tags = [
        ("Event", "xiangqi online".to_string()),
        ("Site", "xiangqi serve".to_string()),
        ("Date", pgn_date(row.started_at)),
        ("Round", "-".to_string()),
        ("Red", side_name(&row.red, red)),
        ("Black", side_name(&row.black, black)),
        ("Result", result.to_string()),
    ];
    for (name, value) in tags {
        game.set_tag(name, &value);
    }
    if *start != Position::startpos() {
        game.set_tag("FEN", &row.start_fen);
    }
    game.set_tag("GameId", &row.id);
    game.set_tag(
        "TimeControl",
        &format!("{}+{}", tc.base_ms / 1_000, tc.increment_ms / 1_000),
    );
    // A game set up as rated says "yes" while it is played; once over,
    // only if it counted (not cancelled, aborted or decided before both
    // sides moved: `rated_score`, the rule the rating update applies).
    let counted = !online.game().is_over() || rated_score(&online).is_some();
    game.set_tag("Rated", if row.rated && counted { "yes" } else { "no" });
    if let Some((red_rating, black_rating)) = ratings {
        game.set_tag("RedElo", &red_rating.to_string());
        game.set_tag("BlackElo", &black_rating.to_string());
    }
    // A bot's side is marked, as chess servers mark theirs.
    for (tag, player) in [("RedType", red), ("BlackType", black)] {
        if player.is_some_and(|p| p.bot) {
            game.set_tag(tag, "bot");
        }
    }
    if let Some(ending) = &stored.ending {
        game.set_tag("Termination", &ending.reason);
    }
    game.result = Some(result);
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_calendar_days() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pgn_date(1_796_342_400_000), "2026.12.04");
    }
}

//! Rows to the store's types. Integers are read as i64 (what both databases
//! hand back through the `Any` driver) and narrowed with a check.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{Ending, EventRow, GameRow, PlayerRow, RatingChangeRow, StoreError, StoredGame};

fn get<'r, T>(row: &'r AnyRow, column: usize) -> Result<T, StoreError>
where
    T: sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any>,
{
    row.try_get(column)
        .map_err(|e| StoreError::Invalid(format!("column {column}: {e}")))
}

fn narrow(value: i64, what: &str) -> Result<i32, StoreError> {
    i32::try_from(value).map_err(|_| StoreError::Invalid(format!("{what} {value} is out of range")))
}

fn flag(value: i64, what: &str) -> Result<bool, StoreError> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(StoreError::Invalid(format!(
            "{what} is {value}, not 0 or 1"
        ))),
    }
}

/// A row of `PLAYER_COLUMNS`.
pub(super) fn player(row: &AnyRow) -> Result<PlayerRow, StoreError> {
    Ok(PlayerRow {
        id: get(row, 0)?,
        name: get(row, 1)?,
        guest: flag(get(row, 2)?, "guest")?,
        password_hash: get(row, 3)?,
        rating: get::<Option<i64>>(row, 4)?
            .map(|r| narrow(r, "rating"))
            .transpose()?,
        notation: get(row, 5)?,
        created_at: get(row, 6)?,
        language: get(row, 7)?,
        pieces: get(row, 8)?,
        bot: flag(get(row, 9)?, "bot")?,
        bot_rating: get::<Option<i64>>(row, 10)?
            .map(|r| narrow(r, "bot rating"))
            .transpose()?,
    })
}

/// A row of `GAME_COLUMNS`, without its events yet.
pub(super) fn game_with_ending(row: &AnyRow) -> Result<StoredGame, StoreError> {
    let game = GameRow {
        id: get(row, 0)?,
        red: get(row, 1)?,
        black: get(row, 2)?,
        time_control: get(row, 3)?,
        rated: flag(get(row, 4)?, "rated")?,
        rules: get(row, 5)?,
        start_fen: get(row, 6)?,
        started_at: get(row, 7)?,
    };
    let ending = match get::<Option<String>>(row, 8)? {
        None => None,
        Some(status) => Some(Ending {
            status,
            result: get(row, 9)?,
            reason: get(row, 10)?,
            ply: narrow(get(row, 11)?, "ply")?,
            red_clock: get(row, 12)?,
            black_clock: get(row, 13)?,
            ended_at: get(row, 14)?,
            ecco: get::<Option<String>>(row, 15)?.filter(|code| !code.is_empty()),
        }),
    };
    Ok(StoredGame {
        game,
        events: Vec::new(),
        ending,
    })
}

/// A row of `game, seq, kind, side, mv, at_ms`.
pub(super) fn event(row: &AnyRow) -> Result<(String, EventRow), StoreError> {
    Ok((
        get(row, 0)?,
        EventRow {
            seq: get(row, 1)?,
            kind: get(row, 2)?,
            side: get(row, 3)?,
            mv: get(row, 4)?,
            at: get(row, 5)?,
        },
    ))
}

/// A row of `player, game, rating_before, rating_after, at_ms`.
pub(super) fn rating_change(row: &AnyRow) -> Result<RatingChangeRow, StoreError> {
    Ok(RatingChangeRow {
        player: get(row, 0)?,
        game: get(row, 1)?,
        before: narrow(get(row, 2)?, "rating")?,
        after: narrow(get(row, 3)?, "rating")?,
        at: get(row, 4)?,
    })
}

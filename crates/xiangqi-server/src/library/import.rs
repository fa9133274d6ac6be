//! One import: the file read on a blocking thread within the room the
//! player's library has left, its games stored together under one batch id.

use crate::ids::new_id;
use crate::library::read::{read_file, ReadFile};
use crate::library::{MAX_GAMES_PER_IMPORT, MAX_LIBRARY_GAMES};
use crate::store::{LibraryGameRow, Store, StoreError};

/// An import done: what the file held and the ids the stored games got
/// (in the order of `file.games`).
#[derive(Debug)]
pub struct Imported {
    pub batch: String,
    pub file: ReadFile,
    pub ids: Vec<String>,
    /// Whether games past the room were refused because the library is
    /// full (rather than by the per-import cap).
    pub library_full: bool,
}

/// Reads `bytes` (the file `name`) into `owner`'s library at `now` (unix
/// ms). Two imports of one player racing may each see the same room: the
/// library may then exceed its cap by one import at most, which the rate
/// of imports bounds.
pub async fn import(
    store: &Store,
    owner: &str,
    name: &str,
    bytes: Vec<u8>,
    now: i64,
) -> Result<Imported, StoreError> {
    let stored = store.library_count(owner).await?;
    let library_room = MAX_LIBRARY_GAMES.saturating_sub(stored);
    let room = library_room.min(MAX_GAMES_PER_IMPORT);
    let file_name = name.to_owned();
    let file = tokio::task::spawn_blocking(move || read_file(&bytes, &file_name, room))
        .await
        .map_err(|e| StoreError::Database(format!("the import stopped: {e}")))?;
    let batch = new_id("b");
    let rows: Vec<LibraryGameRow> = file
        .games
        .iter()
        .map(|game| LibraryGameRow {
            id: new_id("l"),
            owner: owner.to_owned(),
            batch: batch.clone(),
            source_name: name.to_owned(),
            source_format: file.format.clone(),
            source_index: game.index as i64,
            red: game.red.clone(),
            black: game.black.clone(),
            event: game.event.clone(),
            date: game.date.clone(),
            result: game.result.clone(),
            ecco: game.ecco.as_ref().map(|e| e.0.clone()),
            opening: game.ecco.as_ref().map(|e| e.1.clone()),
            plies: game.plies as i64,
            pgn: game.pgn.clone(),
            created_at: now,
        })
        .collect();
    store.add_library_games(&rows).await?;
    Ok(Imported {
        batch,
        ids: rows.into_iter().map(|r| r.id).collect(),
        library_full: library_room < MAX_GAMES_PER_IMPORT,
        file,
    })
}

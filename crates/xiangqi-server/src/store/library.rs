//! Each player's library of imported games (migration 0009): stored a whole
//! import at a time within the library's cap, listed a page at a time with
//! filters, read, reviewed and deleted by their owner only (every query
//! here takes the owner, so another player's id finds nothing).

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{database, Store, StoreError};

/// An imported game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibraryGameRow {
    pub id: String,
    pub owner: String,
    /// The import it came in.
    pub batch: String,
    /// The uploaded file's name (`pasted` for pasted text).
    pub source_name: String,
    /// The format read (`pgn`, `xqf`, …).
    pub source_format: String,
    /// Its number in the file, from 1.
    pub source_index: i64,
    pub red: String,
    pub black: String,
    pub event: String,
    /// The `Date` tag as written in the file.
    pub date: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The ECCO code and its name, for a game from the initial position.
    pub ecco: Option<String>,
    pub opening: Option<String>,
    pub plies: i64,
    /// The game as PGN text our writer made.
    pub pgn: String,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// The engine's review of an imported game: the annotated PGN, or why it
/// failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibraryReview {
    pub pgn: Option<String>,
    pub error: Option<String>,
}

/// What a library list is filtered by; `None`: everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LibraryFilter {
    /// Part of a player's name (either side), any case.
    pub player: Option<String>,
    /// One import.
    pub batch: Option<String>,
}

const COLUMNS: &str = "id, owner, batch, source_name, source_format, source_index, red, black, \
     event, game_date, result, ecco, opening, plies, pgn, created_at";

fn library_row(row: &AnyRow) -> Result<LibraryGameRow, sqlx::Error> {
    Ok(LibraryGameRow {
        id: row.try_get(0)?,
        owner: row.try_get(1)?,
        batch: row.try_get(2)?,
        source_name: row.try_get(3)?,
        source_format: row.try_get(4)?,
        source_index: row.try_get(5)?,
        red: row.try_get(6)?,
        black: row.try_get(7)?,
        event: row.try_get(8)?,
        date: row.try_get(9)?,
        result: row.try_get(10)?,
        ecco: row.try_get(11)?,
        opening: row.try_get(12)?,
        plies: row.try_get(13)?,
        pgn: row.try_get(14)?,
        created_at: row.try_get(15)?,
    })
}

/// Both players' names in lower case (Unicode's, which SQLite's `LOWER`
/// lacks), one per line: what the player filter matches.
fn player_key(game: &LibraryGameRow) -> String {
    format!("{}\n{}", game.red.to_lowercase(), game.black.to_lowercase())
}

/// `text` as a LIKE pattern matching it anywhere, its wildcards escaped.
fn contains_pattern(text: &str) -> String {
    let mut pattern = String::from("%");
    for c in text.to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

impl Store {
    /// The games in `owner`'s library.
    pub async fn library_count(&self, owner: &str) -> Result<usize, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) FROM library_games WHERE owner = $1")
            .bind(owner)
            .fetch_one(&self.reader)
            .await
            .map_err(database)?;
        let count: i64 = row.try_get(0).map_err(database)?;
        Ok(count.max(0) as usize)
    }

    /// Stores `games` (one import, all of one owner) in one transaction.
    pub async fn add_library_games(&self, games: &[LibraryGameRow]) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await.map_err(database)?;
        for game in games {
            sqlx::query(&format!(
                "INSERT INTO library_games ({COLUMNS}, player_key) VALUES \
                 ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)"
            ))
            .bind(&game.id)
            .bind(&game.owner)
            .bind(&game.batch)
            .bind(&game.source_name)
            .bind(&game.source_format)
            .bind(game.source_index)
            .bind(&game.red)
            .bind(&game.black)
            .bind(&game.event)
            .bind(&game.date)
            .bind(&game.result)
            .bind(&game.ecco)
            .bind(&game.opening)
            .bind(game.plies)
            .bind(&game.pgn)
            .bind(game.created_at)
            .bind(player_key(game))
            .execute(&mut *tx)
            .await
            .map_err(database)?;
        }
        tx.commit().await.map_err(database)
    }

    /// `owner`'s games matching `filter`, newest import first and in file
    /// order within one: the total that match, and at most `limit` from
    /// the `offset`-th.
    pub async fn library_page(
        &self,
        owner: &str,
        filter: &LibraryFilter,
        limit: i64,
        offset: i64,
    ) -> Result<(usize, Vec<LibraryGameRow>), StoreError> {
        let mut conditions = vec!["owner = $1".to_string()];
        let mut texts = Vec::new();
        if let Some(player) = &filter.player {
            texts.push(contains_pattern(player));
            let place = texts.len() + 1;
            conditions.push(format!("player_key LIKE ${place} ESCAPE '\\'"));
        }
        if let Some(batch) = &filter.batch {
            texts.push(batch.clone());
            conditions.push(format!("batch = ${}", texts.len() + 1));
        }
        let condition = conditions.join(" AND ");
        let count_sql = format!("SELECT COUNT(*) FROM library_games WHERE {condition}");
        let mut count = sqlx::query(&count_sql).bind(owner);
        for text in &texts {
            count = count.bind(text);
        }
        let total: i64 = count
            .fetch_one(&self.reader)
            .await
            .and_then(|row| row.try_get(0))
            .map_err(database)?;
        let (limit_place, offset_place) = (texts.len() + 2, texts.len() + 3);
        let sql = format!(
            "SELECT {COLUMNS} FROM library_games WHERE {condition} \
             ORDER BY created_at DESC, batch DESC, source_index ASC, id ASC \
             LIMIT ${limit_place} OFFSET ${offset_place}"
        );
        let mut query = sqlx::query(&sql).bind(owner);
        for text in &texts {
            query = query.bind(text);
        }
        let rows = query
            .bind(limit.max(0))
            .bind(offset.max(0))
            .fetch_all(&self.reader)
            .await
            .map_err(database)?;
        let games = rows
            .iter()
            .map(library_row)
            .collect::<Result<_, _>>()
            .map_err(database)?;
        Ok((total.max(0) as usize, games))
    }

    /// `owner`'s game `id` with its review, if there is one.
    pub async fn library_game(
        &self,
        owner: &str,
        id: &str,
    ) -> Result<Option<(LibraryGameRow, Option<LibraryReview>)>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS}, review_pgn, review_error, reviewed_at FROM library_games \
             WHERE id = $1 AND owner = $2"
        ))
        .bind(id)
        .bind(owner)
        .fetch_optional(&self.reader)
        .await
        .map_err(database)?;
        let Some(row) = row else {
            return Ok(None);
        };
        let game = library_row(&row).map_err(database)?;
        let reviewed_at: Option<i64> = row.try_get(18).map_err(database)?;
        let review = match reviewed_at {
            Some(_) => Some(LibraryReview {
                pgn: row.try_get(16).map_err(database)?,
                error: row.try_get(17).map_err(database)?,
            }),
            None => None,
        };
        Ok(Some((game, review)))
    }

    /// Stores the review of imported game `id` finished at `at` (unix ms),
    /// replacing an earlier one; nothing when the game was deleted meanwhile.
    pub async fn save_library_review(
        &self,
        id: &str,
        review: &LibraryReview,
        at: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE library_games SET review_pgn = $2, review_error = $3, reviewed_at = $4 \
             WHERE id = $1",
        )
        .bind(id)
        .bind(&review.pgn)
        .bind(&review.error)
        .bind(at)
        .execute(&self.writer)
        .await
        .map_err(database)?;
        Ok(())
    }

    /// Deletes `owner`'s game `id`; false when they have none by that id.
    pub async fn delete_library_game(&self, owner: &str, id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM library_games WHERE id = $1 AND owner = $2")
            .bind(id)
            .bind(owner)
            .execute(&self.writer)
            .await
            .map_err(database)?;
        Ok(done.rows_affected() > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filter_text_matches_itself_only() {
        assert_eq!(contains_pattern("Hu"), "%hu%");
        assert_eq!(contains_pattern("50%_a\\"), "%50\\%\\_a\\\\%");
        assert_eq!(contains_pattern("胡榮華"), "%胡榮華%");
    }
}

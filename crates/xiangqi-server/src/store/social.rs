//! The store's side of chat and reports: messages kept with their game,
//! read back per channel, and players' reports for a moderator.

use serde::{Deserialize, Serialize};
use sqlx::Row;

use super::{database, Store, StoreError};

/// A chat message as stored, with its author's name as it is now (a
/// deleted account's placeholder once it is deleted).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ChatRow {
    pub id: String,
    pub game: String,
    /// "players" or "spectators".
    pub channel: String,
    /// The author's player id.
    pub author: String,
    /// The author's name (read from `players` on every read).
    pub author_name: String,
    pub body: String,
    /// Unix ms.
    pub at: i64,
}

/// A report as a moderator reads it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ReportRow {
    pub id: String,
    pub reporter: String,
    pub reporter_name: String,
    pub reported: String,
    pub reported_name: String,
    pub game: String,
    /// The chat message reported, `None` for a report about the opponent.
    pub message: Option<String>,
    /// The message's text, when a message was reported.
    pub message_body: Option<String>,
    pub reason: String,
    pub note: String,
    /// Unix ms.
    pub created_at: i64,
}

/// A report to store; who is reported and in which game the caller has
/// taken from the message or the game, not from the request.
#[derive(Debug, Clone, PartialEq)]
pub struct NewReport<'a> {
    pub id: &'a str,
    pub reporter: &'a str,
    pub reported: &'a str,
    pub game: &'a str,
    pub message: Option<&'a str>,
    pub reason: &'a str,
    pub note: &'a str,
    pub at: i64,
}

const CHAT_COLUMNS: &str =
    "c.id, c.game, c.channel, c.author, p.name, c.body, c.at_ms FROM chat_messages c \
     JOIN players p ON p.id = c.author";

fn chat_row(row: &sqlx::any::AnyRow) -> Result<ChatRow, StoreError> {
    Ok(ChatRow {
        id: row.try_get(0).map_err(database)?,
        game: row.try_get(1).map_err(database)?,
        channel: row.try_get(2).map_err(database)?,
        author: row.try_get(3).map_err(database)?,
        author_name: row.try_get(4).map_err(database)?,
        body: row.try_get(5).map_err(database)?,
        at: row.try_get(6).map_err(database)?,
    })
}

impl Store {
    /// Stores a chat message unless its game already holds `cap` messages
    /// in that channel (checked in the same statement); whether it was
    /// stored.
    pub async fn insert_chat(&self, message: &ChatRow, cap: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO chat_messages (id, game, channel, author, body, at_ms) \
             SELECT $1, $2, $3, $4, $5, $6 WHERE (SELECT COUNT(*) FROM chat_messages \
             WHERE game = $2 AND channel = $3) < $7",
        )
        .bind(&message.id)
        .bind(&message.game)
        .bind(&message.channel)
        .bind(&message.author)
        .bind(&message.body)
        .bind(message.at)
        .bind(cap)
        .execute(&self.writer)
        .await
        .map_err(database)?;
        Ok(done.rows_affected() == 1)
    }

    /// A game's messages in `channels`, oldest first.
    pub async fn chat_of(&self, game: &str, channels: &[&str]) -> Result<Vec<ChatRow>, StoreError> {
        let mut messages = Vec::new();
        for channel in channels {
            let rows = sqlx::query(&format!(
                "SELECT {CHAT_COLUMNS} WHERE c.game = $1 AND c.channel = $2 ORDER BY c.at_ms, c.id"
            ))
            .bind(game)
            .bind(*channel)
            .fetch_all(&self.reader)
            .await
            .map_err(database)?;
            for row in rows {
                messages.push(chat_row(&row)?);
            }
        }
        messages.sort_by(|a, b| (a.at, &a.id).cmp(&(b.at, &b.id)));
        Ok(messages)
    }

    /// One chat message.
    pub async fn chat_message(&self, id: &str) -> Result<Option<ChatRow>, StoreError> {
        sqlx::query(&format!("SELECT {CHAT_COLUMNS} WHERE c.id = $1"))
            .bind(id)
            .fetch_optional(&self.reader)
            .await
            .map_err(database)?
            .map(|row| chat_row(&row))
            .transpose()
    }

    /// Stores a report; false when this reporter already reported this
    /// message.
    pub async fn insert_report(&self, report: &NewReport<'_>) -> Result<bool, StoreError> {
        let result = sqlx::query(
            "INSERT INTO reports (id, reporter, reported, game, message, reason, note, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(report.id)
        .bind(report.reporter)
        .bind(report.reported)
        .bind(report.game)
        .bind(report.message)
        .bind(report.reason)
        .bind(report.note)
        .bind(report.at)
        .execute(&self.writer)
        .await;
        match result {
            Ok(_) => Ok(true),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
            Err(e) => Err(database(e)),
        }
    }

    /// Reports, newest first: at most `limit`, from `offset`.
    pub async fn reports(&self, limit: i64, offset: i64) -> Result<Vec<ReportRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT r.id, r.reporter, a.name, r.reported, b.name, r.game, r.message, c.body, \
             r.reason, r.note, r.created_at FROM reports r \
             JOIN players a ON a.id = r.reporter JOIN players b ON b.id = r.reported \
             LEFT JOIN chat_messages c ON c.id = r.message \
             ORDER BY r.created_at DESC, r.id DESC LIMIT $1 OFFSET $2",
        )
        .bind(limit.max(0))
        .bind(offset.max(0))
        .fetch_all(&self.reader)
        .await
        .map_err(database)?;
        rows.iter()
            .map(|row| {
                Ok(ReportRow {
                    id: row.try_get(0).map_err(database)?,
                    reporter: row.try_get(1).map_err(database)?,
                    reporter_name: row.try_get(2).map_err(database)?,
                    reported: row.try_get(3).map_err(database)?,
                    reported_name: row.try_get(4).map_err(database)?,
                    game: row.try_get(5).map_err(database)?,
                    message: row.try_get(6).map_err(database)?,
                    message_body: row.try_get(7).map_err(database)?,
                    reason: row.try_get(8).map_err(database)?,
                    note: row.try_get(9).map_err(database)?,
                    created_at: row.try_get(10).map_err(database)?,
                })
            })
            .collect()
    }
}

/// Who plays a game and whether it is over: what chat and reports check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSides {
    /// Red's player id (or `engine-N`).
    pub red: String,
    /// Black's.
    pub black: String,
    /// Whether the game has ended.
    pub over: bool,
}

impl GameSides {
    /// Whether player `id` plays this game.
    pub fn plays(&self, id: &str) -> bool {
        self.red == id || self.black == id
    }

    /// The other side's id, for a player of the game.
    pub fn opponent_of(&self, id: &str) -> Option<&str> {
        if self.red == id {
            Some(&self.black)
        } else if self.black == id {
            Some(&self.red)
        } else {
            None
        }
    }
}

impl Store {
    /// The sides of game `id`, `None` for an unknown game.
    pub async fn game_sides(&self, id: &str) -> Result<Option<GameSides>, StoreError> {
        let row = sqlx::query(
            "SELECT g.red, g.black, e.game FROM games g LEFT JOIN endings e ON e.game = g.id \
             WHERE g.id = $1",
        )
        .bind(id)
        .fetch_optional(&self.reader)
        .await
        .map_err(database)?;
        let Some(row) = row else {
            return Ok(None);
        };
        let ended: Option<String> = row.try_get(2).map_err(database)?;
        Ok(Some(GameSides {
            red: row.try_get(0).map_err(database)?,
            black: row.try_get(1).map_err(database)?,
            over: ended.is_some(),
        }))
    }
}

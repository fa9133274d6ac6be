//! An NDJSON stream read line by line from an HTTP answer: keep-alive
//! (empty) lines skipped, every wait bounded, lines bounded in length.

use std::time::Duration;

use serde::de::DeserializeOwned;

use crate::error::{quote, BotError};

/// The longest line accepted (a `game_full` of a 500-ply game is ~4 KB).
pub const MAX_LINE_BYTES: usize = 256 * 1024;

/// The lines of one streaming answer.
pub struct LineStream {
    response: reqwest::Response,
    what: String,
    idle: Duration,
    buffer: Vec<u8>,
    line_number: u64,
    ended: bool,
}

impl LineStream {
    /// Reads `response` as NDJSON; `idle` is the longest silence accepted
    /// (the server writes a keep-alive line every 5 s).
    pub fn new(response: reqwest::Response, what: String, idle: Duration) -> LineStream {
        LineStream {
            response,
            what,
            idle,
            buffer: Vec::new(),
            line_number: 0,
            ended: false,
        }
    }

    /// The next non-empty line, or `None` when the server ended the stream
    /// (a last line without its newline, cut in transit, is dropped).
    pub async fn next_line(&mut self) -> Result<Option<(u64, String)>, BotError> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let raw: Vec<u8> = self.buffer.drain(..=end).collect();
                self.line_number += 1;
                let text = String::from_utf8_lossy(&raw[..end]);
                let text = text.trim();
                if text.is_empty() {
                    continue;
                }
                return Ok(Some((self.line_number, text.to_string())));
            }
            if self.buffer.len() > MAX_LINE_BYTES {
                return Err(BotError::LineTooLong {
                    what: self.what.clone(),
                    max: MAX_LINE_BYTES,
                });
            }
            if self.ended {
                return Ok(None);
            }
            match tokio::time::timeout(self.idle, self.response.chunk()).await {
                Err(_) => {
                    return Err(BotError::Stalled {
                        what: self.what.clone(),
                        after: self.idle,
                    })
                }
                Ok(Err(e)) => {
                    return Err(BotError::Network {
                        what: self.what.clone(),
                        message: crate::api::with_causes(&e),
                    })
                }
                Ok(Ok(None)) => self.ended = true,
                Ok(Ok(Some(bytes))) => self.buffer.extend_from_slice(&bytes),
            }
        }
    }

    /// What this stream is, for messages.
    pub fn what(&self) -> &str {
        &self.what
    }
}

/// One line read as `T`, or a [`BotError::BadLine`] that quotes it.
pub fn parse_line<T: DeserializeOwned>(
    what: &str,
    line_number: u64,
    text: &str,
    expected: &'static str,
) -> Result<T, BotError> {
    serde_json::from_str(text).map_err(|e| BotError::BadLine {
        what: what.to_string(),
        line_number,
        expected,
        problem: e.to_string().chars().take(200).collect(),
        text: quote(text),
    })
}

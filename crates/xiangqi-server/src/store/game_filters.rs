//! A player's games as the player page lists them: filtered by result
//! (from the player's side), rated or casual, opponent and ECCO code, a
//! page at a time, newest first. The filters are SQL, on the indexes of
//! migration 0007 (a pair of players by time) and 0001 (a player by time).

use super::{database, CodePrefix, Store, StoreError, StoredGame, GAME_COLUMNS};

/// A result from the player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultFilter {
    /// Games the player won.
    Win,
    /// Games the player lost.
    Loss,
    /// Drawn games.
    Draw,
    /// Games still being played.
    Playing,
}

impl ResultFilter {
    /// `win`, `loss`, `draw` or `playing`; `None` for anything else.
    pub fn parse(text: &str) -> Option<ResultFilter> {
        match text {
            "win" => Some(ResultFilter::Win),
            "loss" => Some(ResultFilter::Loss),
            "draw" => Some(ResultFilter::Draw),
            "playing" => Some(ResultFilter::Playing),
            _ => None,
        }
    }

    /// The protocol's word.
    pub fn as_str(self) -> &'static str {
        match self {
            ResultFilter::Win => "win",
            ResultFilter::Loss => "loss",
            ResultFilter::Draw => "draw",
            ResultFilter::Playing => "playing",
        }
    }

    /// The condition on `g` (the game) and `e` (its ending) for player `$1`.
    fn condition(self) -> &'static str {
        match self {
            ResultFilter::Win => {
                "((g.red = $1 AND e.result = '1-0') OR (g.black = $1 AND e.result = '0-1'))"
            }
            ResultFilter::Loss => {
                "((g.red = $1 AND e.result = '0-1') OR (g.black = $1 AND e.result = '1-0'))"
            }
            ResultFilter::Draw => "e.result = '1/2-1/2'",
            ResultFilter::Playing => "e.game IS NULL",
        }
    }
}

/// What a player's games are filtered by; all `None`: every game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameFilter {
    pub result: Option<ResultFilter>,
    pub rated: Option<bool>,
    /// The opponent's player id (or `engine-N`).
    pub opponent: Option<String>,
    pub ecco: Option<CodePrefix>,
}

impl Store {
    /// A player's games matching `filter`, newest first: at most `limit`
    /// from the `offset`-th. With an ECCO prefix, a game in progress
    /// matches by the code of its moves so far (checked here, after the
    /// query: a player has few games in progress), so such a page may hold
    /// fewer than `limit` games.
    pub async fn games_filtered(
        &self,
        player: &str,
        filter: &GameFilter,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<StoredGame>, StoreError> {
        let mut conditions = vec!["(g.red = $1 OR g.black = $1)".to_string()];
        // Parameters $1 (player), $2 (limit), $3 (offset), then texts.
        let mut texts: Vec<String> = Vec::new();
        fn next_text(value: String, texts: &mut Vec<String>) -> String {
            texts.push(value);
            format!("${}", texts.len() + 3)
        }
        if let Some(result) = filter.result {
            conditions.push(result.condition().to_string());
        }
        if let Some(rated) = filter.rated {
            conditions.push(format!("g.rated = {}", i32::from(rated)));
        }
        if let Some(opponent) = &filter.opponent {
            let place = next_text(opponent.clone(), &mut texts);
            conditions.push(format!(
                "((g.red = $1 AND g.black = {place}) OR (g.black = $1 AND g.red = {place}))"
            ));
        }
        if let Some(prefix) = &filter.ecco {
            // A letter and digits: no LIKE wildcard inside.
            let place = next_text(format!("{}%", prefix.as_str()), &mut texts);
            conditions.push(format!("(e.ecco LIKE {place} OR e.game IS NULL)"));
        }
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games g LEFT JOIN endings e ON e.game = g.id \
             WHERE {} ORDER BY g.started_at DESC, g.id DESC LIMIT $2 OFFSET $3",
            conditions.join(" AND ")
        );
        let mut query = sqlx::query(&sql)
            .bind(player)
            .bind(limit.max(0))
            .bind(offset.max(0));
        for text in &texts {
            query = query.bind(text);
        }
        let rows = query.fetch_all(&self.reader).await.map_err(database)?;
        let mut games = self.with_events(rows).await?;
        if let Some(prefix) = &filter.ecco {
            games
                .retain(|g| g.ending.is_some() || g.ecco_code().is_some_and(|c| prefix.matches(c)));
        }
        Ok(games)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_words_read_back() {
        for word in ["win", "loss", "draw", "playing"] {
            assert_eq!(ResultFilter::parse(word).unwrap().as_str(), word);
        }
        assert_eq!(ResultFilter::parse("1-0"), None);
        assert_eq!(ResultFilter::parse("Win"), None);
    }
}

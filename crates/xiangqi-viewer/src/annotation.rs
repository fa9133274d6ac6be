//! The commands a comment may hold (`[%eval 0.35,12]`, `[%clk 0:04:59]`),
//! read into the viewer's fields and taken out of the comment's text.

use serde::Serialize;
use xiangqi_core::Score;

/// An evaluation from an `[%eval …]` command, always from Red's view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Eval {
    /// As written: `0.35`, `-1.20`, `#3`, `#-2`, `#+0`.
    pub text: String,
    /// Red's chance of winning, 0.0 to 1.0 (the core's logistic curve of
    /// the score), which the evaluation curve draws.
    pub red_chance: f64,
    /// The search depth, when the command gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
}

/// What the commands of a node's comments said, and the comments without them.
#[derive(Debug, Default, PartialEq)]
pub struct Commands {
    pub eval: Option<Eval>,
    pub clock: Option<String>,
    /// The comments' remaining text; comments left empty are dropped.
    pub comments: Vec<String>,
}

/// Reads the commands out of `comments`: the first `[%eval]` and `[%clk]`
/// count, every `[%…]` command is taken out of the text.
pub fn read_commands(comments: &[String]) -> Commands {
    let mut found = Commands::default();
    for comment in comments {
        let mut text = String::new();
        let mut rest = comment.as_str();
        while let Some(start) = rest.find("[%") {
            let Some(length) = rest[start..].find(']') else {
                break; // no command: the rest is text
            };
            let command = &rest[start + 2..start + length];
            text.push_str(&rest[..start]);
            let (name, value) = command.split_once(' ').unwrap_or((command, ""));
            match name {
                "eval" if found.eval.is_none() => found.eval = parse_eval(value.trim()),
                "clk" if found.clock.is_none() => found.clock = Some(value.trim().to_owned()),
                _ => {}
            }
            rest = &rest[start + length + 1..];
        }
        text.push_str(rest);
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if !text.is_empty() {
            found.comments.push(text);
        }
    }
    found
}

/// `0.35`, `-1.20,12`, `#3`, `#-2,20`, `#+0`, `#-0` (the annotator's forms,
/// docs/engine-client.md); `None` for anything else.
pub fn parse_eval(value: &str) -> Option<Eval> {
    let (score_text, depth) = match value.split_once(',') {
        Some((score, depth)) => (score.trim(), Some(depth.trim().parse().ok()?)),
        None => (value, None),
    };
    let red_chance = match score_text.strip_prefix('#') {
        // `#+0` / `#-0`: the game is over, won by the sign's side.
        Some("+0") => 1.0,
        Some("-0") => 0.0,
        Some(mate) => Score::Mate(mate.parse().ok()?).winning_chance(),
        None => {
            let pawns: f64 = score_text.parse().ok()?;
            if !pawns.is_finite() {
                return None;
            }
            // The annotator writes pawns with two decimals: back to centipawns.
            let centipawns = (pawns * 100.0).round().clamp(-1e6, 1e6) as i32;
            Score::Cp(centipawns).winning_chance()
        }
    };
    Some(Eval {
        text: score_text.to_owned(),
        red_chance,
        depth,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn eval_and_clock_are_read_and_taken_out_of_the_text() {
        let found = read_commands(&strings(&[
            "[%eval -1.20,12] a blunder [%clk 0:04:59]",
            "[%eval 3.00]",
        ]));
        let eval = found.eval.unwrap();
        assert_eq!((eval.text.as_str(), eval.depth), ("-1.20", Some(12)));
        assert!(eval.red_chance < 0.5);
        assert_eq!(found.clock.as_deref(), Some("0:04:59"));
        assert_eq!(found.comments, ["a blunder"]);
    }

    #[test]
    fn mates_and_game_ends_are_certain() {
        assert_eq!(parse_eval("#3").unwrap().red_chance, 1.0);
        assert_eq!(parse_eval("#-2,20").unwrap().red_chance, 0.0);
        assert_eq!(parse_eval("#+0").unwrap().red_chance, 1.0);
        assert_eq!(parse_eval("#-0").unwrap().red_chance, 0.0);
        assert_eq!(parse_eval("0.00").unwrap().red_chance, 0.5);
        assert!(parse_eval("good").is_none());
        assert!(parse_eval("NaN").is_none());
        assert!(parse_eval("0.3,deep").is_none());
    }

    #[test]
    fn an_unclosed_command_stays_text() {
        let found = read_commands(&strings(&["see [%eval 0.3"]));
        assert_eq!(found.eval, None);
        assert_eq!(found.comments, ["see [%eval 0.3"]);
    }
}

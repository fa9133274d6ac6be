//! Reading UCI and UCCI `info` lines into [`RawInfo`].

use std::time::Duration;

use crate::protocol::RawInfo;
use crate::score::{Bound, Evaluation, Score};

/// Reads an `info …` line (`words[0] == "info"`); `None` when it carries no
/// score (currmove, hashfull, strings…). Unknown or malformed fields are skipped.
pub fn read_info(words: &[&str]) -> Option<RawInfo> {
    let mut info = RawInfo {
        multipv: 1,
        ..RawInfo::default()
    };
    let mut score = None;
    let mut bound = Bound::Exact;
    let number = |i: usize| words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => info.depth = number(i).and_then(|d| u32::try_from(d).ok()),
            "seldepth" => info.seldepth = number(i).and_then(|d| u32::try_from(d).ok()),
            "multipv" => {
                info.multipv = number(i)
                    .and_then(|d| u32::try_from(d).ok())
                    .filter(|&k| k >= 1)
                    .unwrap_or(1)
            }
            "nodes" => info.nodes = number(i),
            "nps" => info.nps = number(i),
            "time" => info.time = number(i).map(Duration::from_millis),
            "score" => {
                let value = |w: Option<&&str>| w.and_then(|v| v.parse::<i32>().ok());
                match words.get(i + 1) {
                    Some(&"cp") => score = value(words.get(i + 2)).map(Score::Cp),
                    Some(&"mate") => score = value(words.get(i + 2)).map(Score::Mate),
                    // UCCI: `score N`.
                    v => score = value(v).map(Score::Cp),
                }
            }
            "lowerbound" => bound = Bound::Lower,
            "upperbound" => bound = Bound::Upper,
            "pv" => {
                info.pv = words[i + 1..].iter().map(|w| w.to_string()).collect();
                break;
            }
            // The rest of the line is text.
            "string" => break,
            _ => {}
        }
        i += 1;
    }
    info.evaluation = Some(Evaluation {
        score: score?,
        bound,
    });
    Some(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Option<RawInfo> {
        read_info(&line.split_whitespace().collect::<Vec<_>>())
    }

    #[test]
    fn info_lines() {
        let i = read("info depth 7 seldepth 9 multipv 2 score cp -35 lowerbound nodes 100 nps 5000 time 20 pv h2e2 h9g7").unwrap();
        assert_eq!(i.depth, Some(7));
        assert_eq!(i.seldepth, Some(9));
        assert_eq!(i.multipv, 2);
        assert_eq!(
            i.evaluation,
            Some(Evaluation {
                score: Score::Cp(-35),
                bound: Bound::Lower
            })
        );
        assert_eq!((i.nodes, i.nps), (Some(100), Some(5000)));
        assert_eq!(i.time, Some(Duration::from_millis(20)));
        assert_eq!(i.pv, ["h2e2", "h9g7"]);
        let i = read("info depth 3 score 120 pv h2e2").unwrap();
        assert_eq!(i.evaluation.unwrap().score, Score::Cp(120));
        assert_eq!(
            read("info depth 3 score mate -2")
                .unwrap()
                .evaluation
                .unwrap()
                .score,
            Score::Mate(-2)
        );
        assert_eq!(read("info currmove h2e2 currmovenumber 1"), None);
        assert_eq!(read("info string score cp 5"), None);
        assert_eq!(read("info depth x score cp y"), None);
        assert_eq!(read("info score"), None);
    }
}

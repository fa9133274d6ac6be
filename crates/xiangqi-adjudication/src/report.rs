//! Turning repetition judgements into verdicts with explanations a person can check.

use xiangqi_core::{Color, PieceKind, Position, SquareSet};

use crate::repetition::{Repetition, SideConduct};
use crate::verdict::{Conduct, Outcome, PlacedPiece, Reason, RepetitionInfo, SideReport, Verdict};

/// The pieces on `squares` of `pos`.
pub(crate) fn placed(pos: &Position, squares: SquareSet) -> Vec<PlacedPiece> {
    squares
        .iter()
        .filter_map(|s| pos.piece_at(s).map(|p| PlacedPiece::new(p, s)))
        .collect()
}

/// "red chariot on i9 and red horse on c6".
pub(crate) fn describe_pieces(pos: &Position, squares: SquareSet) -> String {
    join(placed(pos, squares).iter().map(|p| p.to_string()).collect())
}

fn join(items: Vec<String>) -> String {
    match items.len() {
        0 => "no piece".to_string(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

fn side_report(rep: &Repetition, pos: &Position, side: Color, c: &SideConduct) -> SideReport {
    let pieces = placed(pos, rep.ids.squares(c.pieces));
    let targets = if c.perpetual_check {
        let g = pos.general(!side);
        vec![PlacedPiece::new(
            xiangqi_core::Piece::new(!side, PieceKind::General),
            g,
        )]
    } else {
        placed(pos, rep.ids.squares(c.targets))
    };
    SideReport {
        side,
        conduct: if c.perpetual_check {
            Conduct::PerpetualCheck
        } else if c.perpetual_chase {
            Conduct::PerpetualChase
        } else {
            Conduct::None
        },
        plies: c.plies,
        checks: c.checks,
        chases: c.chases,
        pieces,
        targets,
        chased: placed(pos, rep.ids.squares(c.chased)),
    }
}

fn list(pieces: &[PlacedPiece]) -> String {
    join(pieces.iter().map(|p| p.to_string()).collect())
}

fn offence(r: &SideReport) -> String {
    match r.conduct {
        Conduct::PerpetualCheck => format!(
            "{} checked on every one of its {} moves (with the {})",
            r.side,
            r.plies,
            list(&r.pieces)
        ),
        Conduct::PerpetualChase => format!(
            "{} chased the {} on every one of its {} moves (with the {})",
            r.side,
            list(&r.targets),
            r.plies,
            list(&r.pieces)
        ),
        Conduct::None if r.chases == 0 => format!(
            "{} made {} checks and no chase in {} moves",
            r.side, r.checks, r.plies
        ),
        Conduct::None if r.checks == 0 && r.chases == r.plies => format!(
            "{} chased on every one of its {} moves, but not one piece throughout (the {} in turn)",
            r.side,
            r.plies,
            list(&r.chased)
        ),
        Conduct::None => format!(
            "{} made {} checks and {} chases (of the {}) in {} moves",
            r.side,
            r.checks,
            r.chases,
            list(&r.chased),
            r.plies
        ),
    }
}

/// The verdict for a third occurrence at `ply` (`pos` is the position reached).
pub(crate) fn repetition_verdict(rep: &Repetition, pos: &Position, ply: u32) -> Verdict {
    let j = &rep.judgement;
    let red = side_report(rep, pos, Color::Red, &j.sides[0]);
    let black = side_report(rep, pos, Color::Black, &j.sides[1]);
    let first = rep.occurrences[0];
    let position = if first == 0 {
        "the start position".to_string()
    } else {
        format!("the position after ply {first}")
    };
    let span = format!(
        "{position} occurred for the third time at ply {ply} (span: plies {}-{ply})",
        first + 1
    );
    let outcome = j.loser.map_or(Outcome::Draw, |l| Outcome::win_for(!l));
    let detail = match (j.reason, j.loser) {
        (Reason::PerpetualCheck, Some(l)) => {
            let r = if l == Color::Red { &red } else { &black };
            format!(
                "{span}; {}: {} wins by perpetual check (R-REP-PERP-CHECK)",
                offence(r),
                !l
            )
        }
        (Reason::PerpetualChase, Some(l)) => {
            let r = if l == Color::Red { &red } else { &black };
            let never = if r.checks == 0 {
                " and never checked"
            } else {
                ""
            };
            format!(
                "{span}; {}{never}: {} wins by perpetual chase (R-REP-PERP-CHASE)",
                offence(r),
                !l
            )
        }
        (Reason::MutualPerpetualCheck, _) | (Reason::MutualPerpetualChase, _) => format!(
            "{span}; {}; {}: both sides offend, draw (R-REP-VERDICT)",
            offence(&red),
            offence(&black)
        ),
        _ => format!(
            "{span}; {}; {}: no perpetual offence counts, draw (R-REP-VERDICT)",
            offence(&red),
            offence(&black)
        ),
    };
    Verdict {
        outcome,
        reason: Some(j.reason),
        ply,
        detail,
        repetition: Some(RepetitionInfo {
            occurrences: rep.occurrences.clone(),
            red,
            black,
        }),
    }
}

use super::*;
use xiangqi_core::Position;

const TEMPO_BONUS: i32 = DEFAULT_WEIGHTS[TEMPO];

#[test]
fn symmetric_positions_score_only_tempo() {
    let a =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
            .unwrap();
    let b =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1")
            .unwrap();
    assert_eq!(evaluate(&a), TEMPO_BONUS);
    assert_eq!(evaluate(&b), TEMPO_BONUS);
}

#[test]
fn colour_flip_negates() {
    // The same structure with colours swapped and ranks mirrored.
    let red = Position::from_fen("3akab2/9/4b4/9/2P6/9/9/3C5/4A4/3AK4 w - - 0 1").unwrap();
    let black = Position::from_fen("3ak4/4a4/3c5/9/9/2p6/9/4B4/9/3AKAB2 b - - 0 1").unwrap();
    assert_eq!(evaluate(&red), evaluate(&black));
}

#[test]
fn extra_chariot_is_winning() {
    let pos = Position::from_fen("3akab2/9/4b4/9/9/9/9/4B4/4A4/R2AK1B2 w - - 0 1").unwrap();
    assert!(evaluate(&pos) > 700);
}

#[test]
fn attackers_on_the_palace_count_together() {
    let mut values = Weights::default().values().to_vec();
    values[KING_ATTACK + ATTACK_CAP] = 0;
    for kind in 0..KINDS {
        values[MISSING_ADVISOR + kind] = 0;
        values[MISSING_ELEPHANT + kind] = 0;
    }
    let no_safety = Weights::from_values(values).unwrap();
    let attack = |fen: &str| {
        let pos = Position::from_fen(fen).unwrap();
        evaluate(&pos) - evaluate_with(&pos, &no_safety)
    };
    // Chariot on d5 (hits d7, d8, d9) and horse on f6 (hits d7, e8): both
    // sides keep every defender, so only the attack term differs from 0.
    let near = attack("2bakab2/9/9/5N3/3R5/9/4P4/9/9/2BAKAB2 w - - 0 1");
    let far = attack("2bakab2/9/9/N8/R8/9/4P4/9/9/2BAKAB2 w - - 0 1");
    let lone = attack("2bakab2/9/9/9/3R5/9/4P4/9/9/2BAKAB2 w - - 0 1");
    assert_eq!(far, 0);
    assert_eq!(lone, 0, "a single attacker is not a mating attack");
    assert!(near > 50, "{near}");
}

#[test]
fn bare_defenders_cannot_win() {
    // Red has only advisors and elephants: its extra material is nearly worthless.
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/4B4/4A4/2BAK4 w - - 0 1").unwrap();
    assert!(evaluate(&pos) < 100);
}

/// The numbers of the `DEFAULT_WEIGHTS` array in the generated file's text.
fn weights_in_generated_file() -> Vec<i32> {
    let text = include_str!("default_weights.rs");
    let body = &text[text.find("= [").expect("the array") + 3..];
    let body = &body[..body.find("];").expect("the array's end")];
    body.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .flat_map(|l| l.split(','))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap_or_else(|_| panic!("not a number: {t:?}")))
        .collect()
}

#[test]
fn the_evaluation_reads_exactly_the_generated_weights() {
    let from_file = weights_in_generated_file();
    assert_eq!(from_file.len(), WEIGHT_COUNT);
    assert_eq!(Weights::default().values(), &from_file[..]);
    // And the evaluation uses that table: change one weight, the score moves by it.
    let pos = Position::startpos();
    let mut values = from_file.clone();
    values[TEMPO] += 7;
    let changed = Weights::from_values(values).unwrap();
    assert_eq!(evaluate_with(&pos, &changed), evaluate(&pos) + 7);
    // The writer reproduces the committed file from the same numbers, header aside.
    let text = weights_source(&Weights::default(), &[]);
    let body = |t: &str| t[t.find("use super").unwrap()..].to_string();
    assert_eq!(body(&text), body(include_str!("default_weights.rs")));
}

#[test]
fn the_trace_is_the_evaluation() {
    let w = Weights::default();
    for fen in [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        "2bakab2/9/9/5N3/3R5/9/4P4/9/9/2BAKAB2 w - - 0 1",
        "3akab2/r8/2n1b4/p1C1p3p/9/1R7/P1P1P1Pc1/4C1N2/7n1/1RBAKAB2 w - - 1 12",
        "4k4/9/9/9/9/9/9/4B4/4A4/2BAKR3 b - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let red = if pos.side_to_move() == Color::Red {
            1.0
        } else {
            -1.0
        };
        let traced = trace(&pos, &w).value(&w) * red;
        let real = f64::from(evaluate(&pos));
        assert!(
            (traced - real).abs() <= 1.5,
            "{fen}: traced {traced}, evaluated {real}"
        );
    }
}

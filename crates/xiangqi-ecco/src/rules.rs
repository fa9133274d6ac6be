//! The ECCO definitions: which moves make each code.
//!
//! Moves are WXF text with `.` for sideways, Red having opened on the right
//! (see [`Line`]). Rounds count from 0. A definition reads one side's moves
//! of rounds 1-9 in order and lets *waiting moves* (development that does
//! not change the opening: `H2+3`, `R1.2`, ...) pass until a move decides;
//! that and [`Line::reaches`] are how transposed move orders come to the
//! same code. docs/ecco.md says where the definitions come from.

use crate::line::Line;

type Code = &'static str;

/// The ECCO code of `line`.
pub(crate) fn classify(line: &Line) -> Code {
    match line.red(0) {
        "E3+5" => elephant(line),
        "H2+3" => {
            if line.black(0) == "P7+1" {
                match line.red(1) {
                    "P7+1" => "A45",
                    "C8.5" => "A44",
                    "C8.6" => "A43",
                    "C2.1" => "A42",
                    _ => "A41",
                }
            } else {
                "A40"
            }
        }
        "C2.4" => match line.black(0) {
            "C2.5" if two_horses(line, "R9.8") => "A53",
            "C2.5" => "A52",
            "P7+1" => "A54",
            "H8+7" => "A51",
            _ => "A50",
        },
        "C2.5" => match line.black(0) {
            "C8.5" => same_direction_cannons(line),
            "H8+7" => central_cannon_left_horse(line),
            "H2+3" => central_cannon_right_horse(line),
            "C2.5" => "D50",
            _ => "B00",
        },
        "C2.6" => match line.black(0) {
            "C8.5" => {
                if line.red(1) == "H2+3" && line.red(2) == "R1.2" {
                    let black = (line.black(1), line.black(2));
                    if black == ("H8+7", "R9+1") || black == ("R9+1", "H8+7") {
                        "A65"
                    } else {
                        "A64"
                    }
                } else {
                    "A63"
                }
            }
            "R9+1" => "A62",
            "H8+7" => "A61",
            _ => "A60",
        },
        "P3+1" => pawn_opening(line),
        "P1+1" => "A08",
        "C2.7" => "A07",
        "C2.3" => "A06",
        "C2+4" => "A05",
        "C2+2" => "A04",
        "C2.1" => "A03",
        "H2+1" => "A02",
        "A4+5" => "A01",
        _ => "A00",
    }
}

/// Red's rounds 1-9 bring out both horses (`H2+3` and `H8+7`) among
/// the waiting moves `R1.2` (or `alternative`), `P3+1` and `P7+1`.
fn two_horses(line: &Line, chariot: &str) -> bool {
    let (mut right, mut left) = (false, false);
    for round in 1..10 {
        match line.red(round) {
            "H2+3" if left => return true,
            "H2+3" => right = true,
            "H8+7" if right => return true,
            "H8+7" => left = true,
            m if m == chariot || m == "P3+1" || m == "P7+1" => {}
            _ => return false,
        }
    }
    false
}

/// A1x-A3x: Red opens with the elephant.
fn elephant(line: &Line) -> Code {
    match line.black(0) {
        "H2+3" => match line.red(1) {
            "P7+1" => "A16",
            "P3+1" => "A15",
            _ => "A14",
        },
        "C2.4" => match line.red(1) {
            "P7+1" => "A26",
            "P3+1" => "A25",
            "R9+1" => "A24",
            "H8+9" => "A23",
            "H8+7" => "A22",
            _ => "A21",
        },
        "C8.4" => {
            if line.red(1) != "H2+3" {
                "A30"
            } else if line.continues(3, "H8+7R1.2P7+1") {
                match line.red(3) {
                    "P7+1" => "A34",
                    "C2.1" => "A33",
                    _ => "A32",
                }
            } else {
                "A31"
            }
        }
        "P7+1" => match line.red(1) {
            "P7+1" => "A38",
            "H8+7" => "A37",
            _ => "A36",
        },
        "C8.5" if two_horses(line, "R1.2") => "A28",
        "C8.5" => "A27",
        "P3+1" => "A39",
        "C2.6" => "A35",
        "C2.5" => "A29",
        "C8.6" => "A20",
        "H8+7" => "A13",
        "E3+5" => "A12",
        "E7+5" => "A11",
        _ => "A10",
    }
}

/// E: Red opens with the third pawn (仙人指路).
fn pawn_opening(line: &Line) -> Code {
    match line.black(0) {
        "C8.7" => cannon_behind_pawn(line),
        "H2+3" => match line.red(1) {
            "H2+3" if line.black(1) == "P3+1" => both_pawns_both_horses(line),
            "H2+3" => "E07",
            "P7+1" if line.black(1) == "C8.7" => "E09",
            "P7+1" => "E08",
            _ => "E06",
        },
        "P3+1" => match line.red(1) {
            "H2+3" if line.black(1) == "H2+3" => both_pawns_both_horses(line),
            "H2+3" => "E41",
            "C8.7" => match line.black(1) {
                "C8.5" => "E48",
                "C2.5" => "E47",
                _ => "E46",
            },
            _ => "E40",
        },
        "E7+5" | "E3+5" => {
            if line.red(1) == "H2+3" {
                "E02"
            } else {
                "E01"
            }
        }
        "C8.6" | "C8.4" | "C2.6" | "C2.4" => "E04",
        "C8.5" | "C2.5" => "E03",
        "C2.7" => "E05",
        _ => "E00",
    }
}

fn both_pawns_both_horses(line: &Line) -> Code {
    match line.red(2) {
        "E3+5" | "E7+5" => "E43",
        "C2.1" => "E45",
        "R1+1" => "E44",
        _ => "E42",
    }
}

/// E1x-E3x: the pawn opening met by the cannon behind the pawn (卒底炮).
fn cannon_behind_pawn(line: &Line) -> Code {
    match line.red(1) {
        "C8.5" => match line.black(1) {
            "E3+5" => {
                if line.red(2) == "H2+1" {
                    if line.black(2) == "H8+9" {
                        "E16"
                    } else {
                        "E15"
                    }
                } else {
                    "E14"
                }
            }
            "E7+5" => match line.red(2) {
                "H8+7" => match line.black(2) {
                    "R1+1" => {
                        if !line.continues(6, "R9.8R1.8H2+3H8+6") {
                            "E23"
                        } else if line.continues(10, "C2.1H2+1H3+4") {
                            match line.black(6) {
                                "P1+1" => "E27",
                                "R8+6" => "E26",
                                "A6+5" => "E25",
                                _ => "E24",
                            }
                        } else {
                            "E24"
                        }
                    }
                    "P7+1" => {
                        let developed =
                            line.continues(6, "H2+1P7+1") || line.continues(6, "R9.8P7+1");
                        if developed && matches!(line.red(4), "H2+1" | "R9.8") {
                            match line.black(4) {
                                "R1+1" => match line.red(5) {
                                    "R1.2" => "E36",
                                    "R8+4" => "E35",
                                    "A4+5" => "E34",
                                    _ => "E33",
                                },
                                "H8+6" => "E32",
                                _ => "E31",
                            }
                        } else if developed {
                            "E31"
                        } else {
                            "E30"
                        }
                    }
                    _ => "E22",
                },
                "C5+4" => "E38",
                "H2+1" => "E37",
                "A4+5" => "E21",
                _ => "E20",
            },
            "C2.5" => "E17",
            _ => "E13",
        },
        "E7+5" | "E3+5" => "E11",
        "C2.5" => "E12",
        _ => "E10",
    }
}

/// D0x-D2x: the same-direction cannons (顺炮).
fn same_direction_cannons(line: &Line) -> Code {
    match line.red(1) {
        "H2+3" => match line.black(1) {
            "H8+7" => match line.red(2) {
                "R1.2" if line.black(2) == "R9+1" => straight_vs_horizontal(line),
                "R1.2" => straight_vs_slow(line),
                "R1+1" if line.black(2) == "R9.8" => {
                    if line.black(3) == "R8+4" {
                        "D05"
                    } else {
                        "D04"
                    }
                }
                "R1+1" => "D03",
                _ => match line.black(2) {
                    "R9.8" => "D02",
                    "R9+1" => "D01",
                    _ => "D00",
                },
            },
            "R9+1" if line.continues(4, "R1.2H8+7") => straight_vs_horizontal(line),
            "R9+1" => "D01",
            _ => "D00",
        },
        "R1+1" => {
            if line.continues(3, "R9.8H8+7") {
                if line.black(2) == "R8+4" {
                    "D05"
                } else {
                    "D04"
                }
            } else {
                "D03"
            }
        }
        _ => "D00",
    }
}

/// D1x: straight chariot against Black's slow chariot.
fn straight_vs_slow(line: &Line) -> Code {
    for round in 2..10 {
        match line.black(round) {
            "H2+3" | "P7+1" | "P3+1" => {}
            "C2.1" => return "D15",
            "C2+4" => return "D14",
            "R9.8" => return "D13",
            "R1+1" => return "D12",
            "R9+1" => return "D11",
            _ => return "D10",
        }
    }
    "D10"
}

/// D2x: straight chariot against Black's horizontal chariot.
fn straight_vs_horizontal(line: &Line) -> Code {
    let (mut third, mut seventh) = (false, false);
    for round in 3..10 {
        match line.red(round) {
            "A4+5" | "A6+5" => return "D21",
            "H8+9" => return "D22",
            "R2+4" => return "D23",
            "R2+6" => return "D24",
            "C8.6" => return "D25",
            "P3+1" if seventh => return two_headed_snake_reply(line),
            "P3+1" => third = true,
            "P7+1" if third => return two_headed_snake_reply(line),
            "P7+1" => seventh = true,
            "H8+7" => {}
            _ if third => return "D26",
            _ if seventh => return "D27",
            _ => return "D20",
        }
    }
    "D20"
}

fn two_headed_snake_reply(line: &Line) -> Code {
    for round in 3..10 {
        match line.black(round) {
            "H2+3" | "R9.4" => {}
            "R1+1" => return "D29",
            _ => return "D28",
        }
    }
    "D28"
}

/// B0x-B5x and D3x-D5x: the central cannon met by Black's right horse.
fn central_cannon_right_horse(line: &Line) -> Code {
    match line.black(1) {
        "R9+1" => {
            if line.red(1) == "H2+3" && line.continues(4, "R1.2R9.4") {
                match line.red(3) {
                    "P7+1" => "B14",
                    "C8+2" => "B13",
                    _ => "B12",
                }
            } else {
                "B10"
            }
        }
        "C8.6" => match line.black(2) {
            "H8+9" | "R9+1" => "B11",
            _ => reverse_palace_horse(line),
        },
        "P3+1" | "P7+1" => match line.black(2) {
            "A6+5" | "A4+5" => "B02",
            "C8.6" => reverse_palace_horse(line),
            "H8+7" => screen_horses(line),
            "R9+2" => "B03",
            _ => "B01",
        },
        "H8+7" => screen_horses(line),
        "H8+9" => "B10",
        "C2.1" => "B04",
        _ => "B01",
    }
}

/// B3x-B5x: the reverse palace horse (反宫马).
fn reverse_palace_horse(line: &Line) -> Code {
    if line.continues(2, "P7+1C8.6H8+7") {
        return "B32";
    }
    for round in 1..10 {
        match line.black(round) {
            "H8+7" => return reverse_palace_horse_red(line),
            "E7+5" | "E3+5" | "C8.6" | "P7+1" | "P3+1" => {}
            _ => return "B30",
        }
    }
    "B30"
}

fn reverse_palace_horse_red(line: &Line) -> Code {
    let (mut horse_seven, mut horse_nine, mut cannon_six) = (false, false, false);
    for round in 1..10 {
        match line.red(round) {
            "H8+9" => horse_nine = true,
            "H8+7" => horse_seven = true,
            "C8.6" => cannon_six = true,
            "H2+3" | "R1.2" | "P3+1" | "P7+1" => {}
            "R1+1" if !cannon_six => return "B34",
            "R2+6" if !cannon_six => return "B33",
            "R1+1" | "R2+6" => {}
            "C8.7" => return five_seven_vs_reverse_palace(line),
            "C8+4" => return "B36",
            "C8+2" => return "B35",
            _ if cannon_six => {
                if !line.continues(2, "H2+3C8.6R1.2H8+7") {
                    return "B40";
                }
                if horse_seven {
                    if line.red(3) == "C8.6" && line.black(3) == "R1.2" {
                        if line.black(4) == "C2.1" {
                            if line.black(5) == "P7+1" {
                                return "B44";
                            }
                            return "B43";
                        }
                        return "B42";
                    }
                    return "B41";
                }
                if horse_nine {
                    return "B45";
                }
                return "B40";
            }
            _ => return "B31",
        }
    }
    "B30"
}

fn five_seven_vs_reverse_palace(line: &Line) -> Code {
    let both_third_pawns = (1..5).all(|r| matches!(line.red(r), "H2+3" | "H8+9" | "R1.2" | "P3+1"))
        && (1..4).all(|r| matches!(line.black(r), "H8+7" | "C8.6" | "P3+1"));
    if both_third_pawns {
        if line.continues(9, "E7+5C8.7R1.2R9.8C2+4") {
            if line.continues(14, "P7+1P3+1P3+1") {
                return "B56";
            }
            return "B55";
        }
        return "B54";
    }
    for round in 1..10 {
        match line.black(round) {
            "E7+5" | "E3+5" | "H8+7" | "C8.6" | "P7+1" | "P3+1" => {}
            "R1.2" => return "B53",
            "R9+1" => return "B52",
            "R9.8" => return "B51",
            _ => return "B50",
        }
    }
    "B50"
}

/// B05-B07, B2x, D3x-D5x, and the screen horses: the central cannon met
/// by Black's left horse.
fn central_cannon_left_horse(line: &Line) -> Code {
    match black_left_horse_plan(line) {
        LeftHorsePlan::CannonToEdge => {
            let (mut third, mut seventh) = (false, false);
            for round in 1..10 {
                match line.red(round) {
                    "E7+9" => {
                        return if line.black(round - 1) == "R8+5" {
                            "B21"
                        } else {
                            "B20"
                        };
                    }
                    "P3+1" if seventh => return "B25",
                    "P3+1" => third = true,
                    "P7+1" if third => return "B25",
                    "P7+1" => seventh = true,
                    "H2+3" | "H8+7" => {}
                    "C8+4" => return "B24",
                    "C8+2" => return "B23",
                    "R1+1" => return "B22",
                    _ => return "B20",
                }
            }
            "B20"
        }
        LeftHorsePlan::BlockadeThenCentre => {
            if line.continues(2, "H2+3R9.8R1.2C8+4P3+1C2.5") {
                match line.red(4) {
                    "P7+1" => "D36",
                    "C8+5" => "D35",
                    "H8+9" => "D34",
                    "H8+7" => "D33",
                    "H3+4" => "D32",
                    _ => "D31",
                }
            } else {
                "D30"
            }
        }
        LeftHorsePlan::EdgeThenCentre => {
            let (mut third, mut seventh) = (false, false);
            for round in 1..10 {
                match line.red(round) {
                    "P5+1" => {
                        return if line.black(round - 1) == "R8+5" && line.black(round) == "C2.5" {
                            "D41"
                        } else {
                            "D40"
                        };
                    }
                    "P3+1" if seventh => return "D43",
                    "P3+1" => third = true,
                    "P7+1" if third => return "D43",
                    "P7+1" => seventh = true,
                    "H2+3" | "H8+7" => {}
                    "R9.8" => return "D42",
                    _ => return "D40",
                }
            }
            "D40"
        }
        LeftHorsePlan::LateCentre => {
            let (mut right, mut left) = (false, false);
            for round in 1..10 {
                match line.red(round) {
                    "R2+6" => return "D53",
                    "H2+3" | "H8+7" | "P3+1" | "P7+1" => {}
                    "R1.2" if left => return "D55",
                    "R1.2" => right = true,
                    "R9.8" if right => return "D55",
                    "R9.8" => left = true,
                    _ if right => return "D52",
                    _ if left => return "D54",
                    _ => return "D51",
                }
            }
            "D50"
        }
        LeftHorsePlan::RightHorse => screen_horses(line),
        LeftHorsePlan::RightChariot => "B06",
        LeftHorsePlan::Blockade => "B07",
        LeftHorsePlan::Other => "B05",
    }
}

/// What Black does after `H8+7` against the central cannon, read over
/// Black's rounds 1-9 past the waiting moves `R9.8`, `R8+5`, `P7+1`, `P3+1`.
enum LeftHorsePlan {
    /// `C8.9`: the left three-step tiger (B2x).
    CannonToEdge,
    /// `C8+4` then `C2.5`: the blockading cannon turned into opposite cannons.
    BlockadeThenCentre,
    /// `C8.9` then `C2.5`: the tiger turned into opposite cannons.
    EdgeThenCentre,
    /// `C2.5` at once: opposite cannons played late (D5x).
    LateCentre,
    /// `H2+3`: the screen horses (C codes, B3x with the palace cannon).
    RightHorse,
    /// `R9+1` first.
    RightChariot,
    /// `C8+4` then anything else.
    Blockade,
    /// Anything else.
    Other,
}

fn black_left_horse_plan(line: &Line) -> LeftHorsePlan {
    #[derive(PartialEq)]
    enum Cannon {
        None,
        Edge,
        Blockade,
    }
    let mut cannon = Cannon::None;
    let settled = |cannon: &Cannon, fresh: LeftHorsePlan| match cannon {
        Cannon::None => fresh,
        Cannon::Edge => LeftHorsePlan::CannonToEdge,
        Cannon::Blockade => LeftHorsePlan::Blockade,
    };
    for round in 1..10 {
        match line.black(round) {
            "R9.8" | "R8+5" | "P7+1" | "P3+1" => {}
            "H2+3" => return settled(&cannon, LeftHorsePlan::RightHorse),
            "R9+1" => return settled(&cannon, LeftHorsePlan::RightChariot),
            "C8+4" => cannon = Cannon::Blockade,
            "C8.9" => cannon = Cannon::Edge,
            "C2.5" => {
                return match cannon {
                    Cannon::None => LeftHorsePlan::LateCentre,
                    Cannon::Edge => LeftHorsePlan::EdgeThenCentre,
                    Cannon::Blockade => LeftHorsePlan::BlockadeThenCentre,
                }
            }
            _ => return settled(&cannon, LeftHorsePlan::Other),
        }
    }
    // Nine waiting moves: nothing was decided.
    LeftHorsePlan::Other
}

/// C0x-C9x: the central cannon against the screen horses (屏风马).
fn screen_horses(line: &Line) -> Code {
    if line.reaches("C2.5H8+7H2+3R9.8R1.2P7+1R2+6H2+3H8+7P3+1") {
        return crossing_chariot_two_headed_snake(line);
    }
    if line.reaches("C2.5H8+7H2+3R9.8R1.2P7+1R2+6H2+3P7+1") {
        return crossing_chariot_both_seventh_pawns(line);
    }
    if line.reaches("C2.5H8+7H2+3R9.8R1.2P7+1H8+9H2+3C8.7") {
        return match line.black(4) {
            "R1.2" if line.red(5) == "R9.8" => match line.black(5) {
                "C2+4" => "C66",
                "C2+2" => "C65",
                "C8+4" => "C64",
                _ => "C63",
            },
            "R1.2" => "C62",
            "C2+2" => "C67",
            _ => "C61",
        };
    }
    if line.reaches("C2.5H8+7H2+3R9.8R1.2H2+3P3+1P3+1H8+9P1+1C8.7H3+2") {
        return if line.red(6) == "R9+1" {
            match line.black(6) {
                "E7+5" => match line.red(7) {
                    "R2+4" => "C76",
                    "H3+4" => "C75",
                    _ => "C74",
                },
                "P1+1" => "C78",
                "E3+5" => "C77",
                _ => "C73",
            }
        } else {
            "C72"
        };
    }
    screen_horses_by_red_plan(line)
}

fn crossing_chariot_two_headed_snake(line: &Line) -> Code {
    if line.red(5) != "R9+1" {
        return "C20";
    }
    if !line.continues(11, "C2+1R2-2E3+5") {
        return "C21";
    }
    match (line.red(7), line.red(8)) {
        ("P3+1" | "P7+1", "P7+1") => "C25",
        ("P3+1", _) => "C23",
        ("P7+1", _) => "C24",
        _ => "C22",
    }
}

fn crossing_chariot_both_seventh_pawns(line: &Line) -> Code {
    match line.black(4) {
        "H7+6" => {
            if line.red(5) != "H8+7" {
                "C35"
            } else if line.black(5) != "E3+5" {
                "C36"
            } else {
                match line.red(6) {
                    "C8.9" => "C39",
                    "C8+1" => "C38",
                    _ => "C37",
                }
            }
        }
        "C8.9" => {
            if !line.continues(10, "R2.3C9-1") {
                return "C40";
            }
            match line.red(6) {
                "H8+7" if line.black(6) == "A4+5" => match line.red(7) {
                    "C8.9" if line.black(7) == "R1.2" || line.black(8) == "R1.2" => "C46",
                    "C8.9" => "C45",
                    "H7+6" => "C44",
                    _ => "C43",
                },
                "H8+7" => "C42",
                "P5+1" => "C49",
                "C8.6" => "C48",
                "H8+9" => "C47",
                _ => "C41",
            }
        }
        "E7+5" | "E3+5" => "C32",
        "A6+5" | "A4+5" => "C31",
        "C2+4" => "C34",
        "R1+1" => "C33",
        _ => "C30",
    }
}

/// The screen-horse lines other than the four main ones, by Red's first
/// deciding move in rounds 1-8.
fn screen_horses_by_red_plan(line: &Line) -> Code {
    let (mut horse_seven, mut horse_nine, mut chariot_across) = (false, false, false);
    for round in 1..9 {
        match line.red(round) {
            "R2+4" => return river_chariot(line),
            "R1+1" => return right_horizontal_chariot(line),
            "C8.7" => {
                if let Some(code) = five_seven_cannons(line) {
                    return code;
                }
                // No decision in Black's rounds 1-9: nothing else is read.
                return "C00";
            }
            "H2+3" | "R1.2" | "P3+1" | "P7+1" => {}
            "H8+9" => horse_nine = true,
            "H8+7" => horse_seven = true,
            "R2+6" => chariot_across = true,
            "C8+4" => return five_eight_cannons(line),
            "C8+2" => return river_cannon(line),
            "C8.6" => return five_six_cannons(line),
            "C8.9" => return "C99",
            _ if chariot_across => return crossing_chariot(line),
            _ if horse_seven => return seventh_file_horse(line),
            _ if horse_nine => return edge_horse(line),
            _ => return "C00",
        }
    }
    "C00"
}

fn river_chariot(line: &Line) -> Code {
    for round in 1..10 {
        match line.red(round) {
            "H2+3" | "R1.2" | "R2+4" | "P3+1" | "P7+1" => {}
            "H8+7" | "H8+9" => return "C16",
            _ => return "C15",
        }
    }
    // Every one of Red's rounds 1-9 waited: read as the horizontal chariot.
    right_horizontal_chariot(line)
}

fn right_horizontal_chariot(line: &Line) -> Code {
    for round in 1..10 {
        match line.red(round) {
            "H2+3" | "H8+7" | "R1+1" | "R1.4" | "R1.6" | "P3+1" | "P7+1" => {}
            "P5+1" => return "C14",
            "C8.9" => return "C13",
            "C8+2" => return "C12",
            "H7+6" => return "C11",
            _ => return "C10",
        }
    }
    "C10"
}

/// C60, C68, C70, C71: the five-seven cannons decided by Black's pawn.
fn five_seven_cannons(line: &Line) -> Option<Code> {
    let mut third_pawn = false;
    for round in 1..10 {
        match line.black(round) {
            "P7+1" => {
                for red_round in 1..10 {
                    match line.red(red_round) {
                        "H2+3" | "H8+9" | "R1.2" | "R2+6" | "C8.7" => {}
                        "P7+1" => return Some("C68"),
                        _ => return Some("C60"),
                    }
                }
                return Some("C60");
            }
            "P3+1" => third_pawn = true,
            "H3+2" => return Some("C71"),
            "H2+3" | "H8+7" | "R9.8" => {}
            _ if third_pawn => return Some("C70"),
            _ => return Some("C60"),
        }
    }
    None
}

fn crossing_chariot(line: &Line) -> Code {
    for round in 1..10 {
        match line.red(round) {
            "H2+3" | "R1.2" | "R2+6" | "P3+1" | "P7+1" => {}
            "H8+9" => return "C19",
            "H8+7" => return "C18",
            _ => return "C17",
        }
    }
    "C17"
}

fn seventh_file_horse(line: &Line) -> Code {
    for round in 1..10 {
        match line.red(round) {
            "P5+1" => {
                let (mut left, mut right) = (false, false);
                for black_round in 1..10 {
                    match line.black(black_round) {
                        "H2+3" | "H8+7" | "R9.8" | "P7+1" | "P3+1" => {}
                        "C8+4" if right => return "C04",
                        "C8+4" => left = true,
                        "C2+4" if left => return "C04",
                        "C2+4" => right = true,
                        _ => return "C03",
                    }
                }
                return "C03";
            }
            "H2+3" | "H8+7" | "R1.2" | "P3+1" | "P7+1" => {}
            "H7+6" => return "C02",
            _ => return "C01",
        }
    }
    "C01"
}

fn edge_horse(line: &Line) -> Code {
    for round in 1..10 {
        match line.red(round) {
            "H2+3" | "H8+9" | "R1.2" | "P3+1" | "P7+1" => {}
            "R9+1" => return "C06",
            _ => return "C05",
        }
    }
    "C05"
}

/// C5x: the five-six cannons against the screen horses.
fn five_six_cannons(line: &Line) -> Code {
    let (mut edge_horse_line, mut crossing_line) = (true, true);
    for round in 1..5 {
        match line.red(round) {
            "H2+3" | "R1.2" | "C8.6" => {}
            "H8+9" => crossing_line = false,
            "R2+6" => edge_horse_line = false,
            _ => (edge_horse_line, crossing_line) = (false, false),
        }
    }
    if !(1..4).all(|r| matches!(line.black(r), "H2+3" | "H8+7" | "R9.8" | "P7+1")) {
        (edge_horse_line, crossing_line) = (false, false);
    }
    if edge_horse_line {
        if line.continues(9, "R1.2R9.8") {
            if line.black(5) == "C2+4" {
                return "C53";
            }
            return "C52";
        }
        return "C51";
    }
    if crossing_line {
        return match line.black(4) {
            "P3+1" => "C56",
            "R1.2" => "C55",
            _ => "C54",
        };
    }
    for round in 1..10 {
        match line.red(round) {
            "H2+3" | "R1.2" | "C8.6" | "P3+1" | "P7+1" => {}
            "R2+6" => return "C54",
            "H8+9" => return "C51",
            _ => return "C50",
        }
    }
    "C50"
}

/// C8x: the river cannon against the screen horses.
fn river_cannon(line: &Line) -> Code {
    let left_horse_line = (1..5).all(|r| matches!(line.red(r), "H2+3" | "H8+7" | "C8+2" | "P7+1"))
        && (1..4).all(|r| matches!(line.black(r), "H8+7" | "H2+3" | "R9.8" | "P7+1"));
    if left_horse_line && line.black(4) == "H7+8" {
        if line.red(5) == "H7+6" && line.red(6) == "R1+1" {
            return "C86";
        }
        return "C85";
    }
    let mut left_elephant = false;
    for round in 1..10 {
        match line.black(round) {
            "E7+5" => left_elephant = true,
            "E3+5" => return "C84",
            "P7+1" | "P3+1" | "H8+7" | "H2+3" | "R9.8" => {}
            "C8+2" if left_elephant => return "C83",
            "R1+1" if left_elephant => return "C82",
            _ if left_elephant => return "C81",
            _ => return "C80",
        }
    }
    "C80"
}

/// C9x: the five-eight cannons against the screen horses.
fn five_eight_cannons(line: &Line) -> Code {
    for round in 1..10 {
        match line.red(round) {
            "P3+1" => return five_eight_third_pawn(line),
            "H2+3" | "H8+7" | "H8+9" | "R1.2" | "R2+6" | "C8+4" => {}
            _ => return "C90",
        }
    }
    "C90"
}

fn five_eight_third_pawn(line: &Line) -> Code {
    for round in 1..10 {
        match line.black(round) {
            "P3+1" => return five_eight_both_third_pawns(line),
            "H8+7" | "H2+3" | "R9.8" => {}
            _ => return "C90",
        }
    }
    "C90"
}

fn five_eight_both_third_pawns(line: &Line) -> Code {
    for round in 1..10 {
        match line.red(round) {
            "H8+9" => {
                let reply = match line.black(4) {
                    "E7+5" | "E3+5" => line.black(5),
                    other => other,
                };
                return match reply {
                    "P1+1" if line.red(6) == "C8.7" => "C97",
                    "P1+1" => "C96",
                    "A6+5" | "A4+5" => "C94",
                    "P7+1" => "C95",
                    _ => "C93",
                };
            }
            "H2+3" | "R1.2" | "C8+4" | "P3+1" => {}
            "C8.7" => return "C98",
            "H8+7" => return "C92",
            _ => return "C91",
        }
    }
    "C91"
}

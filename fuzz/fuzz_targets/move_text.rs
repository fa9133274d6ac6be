//! Move text: a random legal position (a random playout chosen by the first
//! bytes), then the rest of the input read as a move in every notation and
//! with detection. Whatever parses must be a legal move of the position, and
//! writing that move back in any notation and style must read as the same
//! move. One legal move picked by the input is also written and read back in
//! every notation and style, so the writer is exercised on every position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi_core::{Move, Position};
use xiangqi_fuzz::{random_playout, Bytes};
use xiangqi_notation::{
    format, parse_text, parse_with, ChineseStyle, Notation, Script, SidewaysSign, Style,
    VietnameseStyle, WxfConvention, WxfStyle,
};

fn style_from(bits: u8) -> Style {
    Style {
        wxf: WxfStyle {
            convention: if bits & 1 == 0 {
                WxfConvention::Official
            } else {
                WxfConvention::Fsf
            },
            sideways: if bits & 2 == 0 {
                SidewaysSign::Equals
            } else {
                SidewaysSign::Dot
            },
            black_lowercase: bits & 4 != 0,
        },
        chinese: ChineseStyle {
            script: if bits & 8 == 0 {
                Script::Simplified
            } else {
                Script::Traditional
            },
            red_black_sets: bits & 16 != 0,
        },
        vietnamese: VietnameseStyle {
            diacritics: bits & 32 == 0,
            short: bits & 64 != 0,
        },
    }
}

/// `mv` written in every notation, in the default style, the FSF style and
/// the input's style, reads back as `mv`.
fn round_trip(pos: &Position, mv: Move, style_bits: u8) {
    for style in [Style::default(), style_from(1), style_from(style_bits)] {
        for notation in Notation::ALL {
            let text = format(pos, mv, notation, &style).unwrap_or_else(|e| {
                panic!(
                    "cannot write legal {mv} in {notation} ({style:?}) in {}: {e}",
                    pos.to_fen()
                )
            });
            let back = parse_with(pos, &text, notation, &style)
                .unwrap_or_else(|e| panic!("{text:?} ({notation}, {style:?}), written for {mv} in {}, does not read back: {e}", pos.to_fen()));
            assert_eq!(
                back,
                mv,
                "{text:?} ({notation}, {style:?}) in {}",
                pos.to_fen()
            );
            // Detection must not change the meaning of our own output (the
            // compact Vietnamese form is never detected: its letters are WXF's).
            let detectable = !(notation == Notation::Vietnamese && style.vietnamese.short);
            if let Some(Ok(detected)) = detectable.then(|| parse_with(pos, &text, None, &style)) {
                assert_eq!(
                    detected,
                    mv,
                    "{text:?} read with detection in {}",
                    pos.to_fen()
                );
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes::new(data);
    let plies = bytes.below(160);
    let pick = bytes.byte();
    let style_bits = bytes.byte();
    let (_, pos) = random_playout(&mut bytes, plies);
    let legal = pos.legal_move_vec();
    if let Some(&mv) = legal.get(pick as usize % legal.len().max(1)) {
        round_trip(&pos, mv, style_bits);
    }

    let text = String::from_utf8_lossy(bytes.rest());
    let style = style_from(style_bits);
    let notations = [
        None,
        Some(Notation::Iccs),
        Some(Notation::Wxf),
        Some(Notation::Chinese),
        Some(Notation::Vietnamese),
    ];
    for notation in notations {
        for convention in [WxfConvention::Official, WxfConvention::Fsf] {
            let style = Style {
                wxf: WxfStyle {
                    convention,
                    ..style.wxf
                },
                ..style
            };
            let parsed = parse_with(&pos, &text, notation, &style);
            // Syntax alone agrees with the full parse about malformed text.
            // `parse_text` reads the long forms only: the compact Vietnamese
            // form (N-VI-SHORT) is read only with its style, so it is skipped.
            let compact = notation == Some(Notation::Vietnamese) && style.vietnamese.short;
            let syntax = parse_text(&text, notation, convention);
            if compact {
                if let Ok(mv) = parsed {
                    assert!(
                        pos.is_legal(mv),
                        "{text:?} (compact Vietnamese) gave illegal {mv} in {}",
                        pos.to_fen()
                    );
                    round_trip(&pos, mv, style_bits);
                }
                continue;
            }
            if let Err(e) = &syntax {
                assert!(
                    parsed.is_err(),
                    "{text:?}: syntax error {e} but parse gave {parsed:?}"
                );
            }
            if let Ok(mv) = parsed {
                assert!(
                    pos.is_legal(mv),
                    "{text:?} ({notation:?}) gave illegal {mv} in {}",
                    pos.to_fen()
                );
                assert!(syntax.is_ok());
                round_trip(&pos, mv, style_bits);
            }
        }
    }
});

//! The rule set of a game on this server: the preset the players chose
//! (default `online`) for the board (repetition, chase, no-capture,
//! material), always with the online clock model, since every server game
//! has a clock, the 45 s abandonment and cancellation before a side's
//! first move. `online` is exactly the rules page's preset.

use xiangqi_adjudication::{ClockRules, Preset, RuleSet, UnknownPresetError};

pub use xiangqi_server_protocol::DEFAULT_RULES;

use xiangqi_server_protocol::echo::quoted;

/// A seek's `rules` that names no preset (quoted, cut short).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule set {0}: expected online, asian, pikafish, fairy or plain, without spaces")]
pub struct UnknownRulesError(String);

/// The preset a seek's `rules` names: a preset's name in any case, exactly,
/// without spaces around it (`" ASIAN "` is refused, not guessed at).
pub fn seek_preset(name: &str) -> Result<Preset, UnknownRulesError> {
    let refused = || UnknownRulesError(quoted(name));
    if name.trim() != name {
        return Err(refused());
    }
    name.parse().map_err(|_| refused())
}

/// The rules of a game whose seek named `name` (a preset name).
pub fn game_rules(name: &str) -> Result<RuleSet, UnknownPresetError> {
    let preset: Preset = name.parse()?;
    Ok(RuleSet {
        clock: Some(ClockRules::ONLINE),
        ..RuleSet::preset(preset)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_gets_the_online_clock() {
        assert_eq!(game_rules("online").unwrap(), RuleSet::default());
        for preset in Preset::ALL {
            let rules = game_rules(preset.name()).unwrap();
            assert_eq!(rules.clock, Some(ClockRules::ONLINE));
            assert_eq!(
                rules.no_capture_limit,
                RuleSet::preset(preset).no_capture_limit
            );
        }
        assert!(game_rules("blitz-chess").is_err());
    }

    #[test]
    fn a_seek_names_a_preset_exactly() {
        assert_eq!(seek_preset("asian"), Ok(Preset::Asian));
        assert_eq!(seek_preset("ASIAN"), Ok(Preset::Asian));
        for bad in [" ASIAN ", "asian\n", "\tonline", "", "blitz"] {
            assert!(seek_preset(bad).is_err(), "{bad:?}");
        }
    }
}

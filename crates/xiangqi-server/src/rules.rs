//! The rule set of a game on this server: the preset the players chose
//! (default `online`) for the board (repetition, chase, no-capture,
//! material), always with the online clock model, since every server game
//! has a clock, the 45 s abandonment and cancellation before a side's
//! first move. `online` is exactly the rules page's preset.

use xiangqi_adjudication::{ClockRules, Preset, RuleSet, UnknownPresetError};

pub use xiangqi_server_protocol::DEFAULT_RULES;

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
}

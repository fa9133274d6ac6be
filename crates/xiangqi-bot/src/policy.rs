//! Which challenges the bot takes and how it answers offers in a game:
//! plain settings, decided without the network so they are tested alone.

use xiangqi_server_protocol::bot::{Challenge, DeclineReason};
use xiangqi_server_protocol::time_control::parse_time_control;

/// The bot's answers, set by its owner.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    /// Take rated challenges.
    pub rated: bool,
    /// Take casual challenges.
    pub casual: bool,
    /// Take challenges from people.
    pub people: bool,
    /// Take challenges from other bots.
    pub bots: bool,
    /// The shortest base time taken, ms.
    pub min_base_ms: u64,
    /// The longest base time taken, ms.
    pub max_base_ms: u64,
    /// The smallest increment taken, ms.
    pub min_increment_ms: u64,
    /// The largest increment taken, ms.
    pub max_increment_ms: u64,
    /// The rule sets taken (preset names); empty: all.
    pub rules: Vec<String>,
    /// Games played at once; a challenge beyond is declined `later`.
    pub max_games: usize,
    /// The draw answer.
    pub draws: DrawPolicy,
    /// Agree to the opponent's takeback requests.
    pub takebacks: bool,
}

/// How the bot answers a draw offer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DrawPolicy {
    /// Always decline.
    Never,
    /// Accept when the engine's last evaluation, from the bot's side, is at
    /// or below this many centipawns (a lost or level position).
    AtOrBelow(i32),
}

impl Default for Policy {
    /// Rated and casual, people and bots, any time control and rule set,
    /// one game at a time, draws declined, takebacks refused.
    fn default() -> Policy {
        Policy {
            rated: true,
            casual: true,
            people: true,
            bots: true,
            min_base_ms: 0,
            max_base_ms: u64::MAX,
            min_increment_ms: 0,
            max_increment_ms: u64::MAX,
            rules: Vec::new(),
            max_games: 1,
            draws: DrawPolicy::Never,
            takebacks: false,
        }
    }
}

impl Policy {
    /// `Ok` to accept `challenge` while `games` are being played, else the
    /// reason to decline it with.
    pub fn judge(&self, challenge: &Challenge, games: usize) -> Result<(), DeclineReason> {
        if games >= self.max_games {
            return Err(DeclineReason::Later);
        }
        if challenge.rated && !self.rated {
            return Err(DeclineReason::Casual);
        }
        if !challenge.rated && !self.casual {
            return Err(DeclineReason::Rated);
        }
        if (challenge.challenger.bot && !self.bots) || (!challenge.challenger.bot && !self.people) {
            return Err(DeclineReason::Generic);
        }
        let Ok(tc) = parse_time_control(&challenge.tc) else {
            return Err(DeclineReason::Tc);
        };
        if !(self.min_base_ms..=self.max_base_ms).contains(&tc.base_ms)
            || !(self.min_increment_ms..=self.max_increment_ms).contains(&tc.increment_ms)
        {
            return Err(DeclineReason::Tc);
        }
        if !self.rules.is_empty() && !self.rules.contains(&challenge.rules) {
            return Err(DeclineReason::Rules);
        }
        Ok(())
    }

    /// Whether to accept a draw offer, given the engine's last evaluation
    /// in centipawns from the bot's side (`None`: none yet; mates count as
    /// ±100 000).
    pub fn accepts_draw(&self, evaluation_cp: Option<i32>) -> bool {
        match (self.draws, evaluation_cp) {
            (DrawPolicy::Never, _) | (_, None) => false,
            (DrawPolicy::AtOrBelow(limit), Some(cp)) => cp <= limit,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_server_protocol::bot::PlayerInfo;
    use xiangqi_server_protocol::ColorChoice;

    fn challenge(tc: &str, rated: bool, rules: &str, bot: bool) -> Challenge {
        let player = |name: &str, bot| PlayerInfo {
            name: name.into(),
            rating: Some(1500),
            bot,
        };
        Challenge {
            id: "c_1".into(),
            challenger: player("ana", bot),
            dest: player("engine", true),
            tc: tc.into(),
            rated,
            rules: rules.into(),
            color: ColorChoice::Random,
        }
    }

    #[test]
    fn declines_with_the_reason_that_applies() {
        let policy = Policy {
            rated: false,
            min_base_ms: 60_000,
            max_base_ms: 600_000,
            max_increment_ms: 5_000,
            rules: vec!["online".into()],
            max_games: 2,
            ..Policy::default()
        };
        assert_eq!(
            policy.judge(&challenge("5+3", false, "online", false), 0),
            Ok(())
        );
        assert_eq!(
            policy.judge(&challenge("5+3", false, "online", true), 1),
            Ok(())
        );
        let refusals = [
            (
                challenge("5+3", false, "online", false),
                2,
                DeclineReason::Later,
            ),
            (
                challenge("5+3", true, "online", false),
                0,
                DeclineReason::Casual,
            ),
            (
                challenge("0.5+0", false, "online", false),
                0,
                DeclineReason::Tc,
            ),
            (
                challenge("15+0", false, "online", false),
                0,
                DeclineReason::Tc,
            ),
            (
                challenge("5+10", false, "online", false),
                0,
                DeclineReason::Tc,
            ),
            (
                challenge("five", false, "online", false),
                0,
                DeclineReason::Tc,
            ),
            (
                challenge("5+3", false, "asian", false),
                0,
                DeclineReason::Rules,
            ),
        ];
        for (c, games, reason) in refusals {
            assert_eq!(policy.judge(&c, games), Err(reason), "{c:?}");
        }
        let casual_only = Policy {
            casual: false,
            ..Policy::default()
        };
        assert_eq!(
            casual_only.judge(&challenge("5+3", false, "online", false), 0),
            Err(DeclineReason::Rated)
        );
        let people_only = Policy {
            bots: false,
            ..Policy::default()
        };
        assert_eq!(
            people_only.judge(&challenge("5+3", false, "online", true), 0),
            Err(DeclineReason::Generic)
        );
    }

    #[test]
    fn draws_by_the_evaluation() {
        assert!(!Policy::default().accepts_draw(Some(-500)));
        let policy = Policy {
            draws: DrawPolicy::AtOrBelow(0),
            ..Policy::default()
        };
        assert!(policy.accepts_draw(Some(-30)) && policy.accepts_draw(Some(0)));
        assert!(!policy.accepts_draw(Some(40)) && !policy.accepts_draw(None));
    }
}

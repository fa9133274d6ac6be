//! [`RuleSet`]: every adjudication choice of the rules reference, individually
//! selectable, and the named presets of its section 11.

use std::fmt;
use std::str::FromStr;

/// What a side without a legal move that is not in check gets (R-END-STALEMATE).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum StalemateRule {
    /// The side to move loses (every xiangqi rule book; all presets).
    Loses,
    /// A draw, as in western chess (not a xiangqi rule; for experiments only).
    Draw,
}

/// How a third occurrence of a position is handled (R-REP-ENFORCE).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum RepetitionEnforcement {
    /// The game ends at the third occurrence with the verdict of R-REP-VERDICT.
    Adjudicate,
    /// A ply that would create a third occurrence and make its mover an offender
    /// is illegal; an offender without another legal move loses. Other third
    /// occurrences end the game as under `Adjudicate`.
    ForbidRepeat,
    /// Every third occurrence is a draw: no perpetual rules (casual play).
    DrawOnly,
}

/// Which threat test classifies the plies of a repetition (R-REP-CHASE, 5.3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ChaseDefinition {
    /// The mechanical test of section 5.3 exactly; a checking ply is a check only (5.9).
    Spec,
    /// Section 5.3 plus Fairy-Stockfish's habit of also recording the threats a
    /// checking ply creates (5.9, last point; 5.10). An approximation of that
    /// engine, documented in `docs/adjudication.md`.
    FairyStockfish,
}

/// How checks count towards the no-capture limit (R-DRAW-NOCAPTURE-CHECKS).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum NoCaptureChecks {
    /// Every ply counts ([S-TL], the default).
    CountAll,
    /// The Asian `check_cap`: a side's 11th and later checks in a stretch, and
    /// the replies to them, are void and do not advance the counter.
    CapTen,
    /// Fairy-Stockfish: the limit grows by 2 plies for each check over 10 of
    /// the side with more checks in the stretch, once 20 plies have been played.
    Fairy,
}

/// Which of R-END-ORDER's steps 2 and 3 is tested first when both apply.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum EndOrder {
    /// Repetition before the no-capture rule (Pikafish; the default).
    RepetitionFirst,
    /// The no-capture rule before repetition (Fairy-Stockfish).
    NoCaptureFirst,
}

/// Which positions are drawn for lack of material (section 7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum MaterialRule {
    /// Never adjudicate material.
    Off,
    /// R-DRAW-MATERIAL: no chariot, horse, cannon or soldier left (dead positions).
    Dead,
    /// R-DRAW-MATERIAL plus Pikafish's table R-DRAW-MATERIAL-EXT.
    Extended,
}

/// The online clock and connection model (section 8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ClockRules {
    /// A side away from the board for strictly longer than this loses
    /// (R-CLOCK-ABANDON; 45 000 ms in [S-TL]).
    pub abandon_after_ms: u64,
    /// Optional shorter limit for each side's first ply, with the effect of
    /// R-CLOCK-CANCEL (off in [S-TL]).
    pub first_move_deadline_ms: Option<u64>,
    /// R-DRAW-MATERIAL-TIMEOUT: a flag against a side left with only general,
    /// advisors and elephants is a draw instead of a loss (off by default).
    pub timeout_draw_on_bare_material: bool,
}

impl ClockRules {
    /// The rules of [S-TL]: 45 s abandonment, no first-move deadline, timeouts lose.
    pub const ONLINE: ClockRules = ClockRules {
        abandon_after_ms: 45_000,
        first_move_deadline_ms: None,
        timeout_draw_on_bare_material: false,
    };
}

/// Every adjudication choice. Build one from a [`Preset`] and change single
/// fields as needed:
///
/// ```
/// use xiangqi_adjudication::{NoCaptureChecks, Preset, RuleSet};
/// let mut rules = RuleSet::preset(Preset::Online);
/// rules.no_capture_limit = Some(100);
/// rules.no_capture_checks = NoCaptureChecks::CapTen;
/// assert_eq!(RuleSet::default(), RuleSet::preset(Preset::Online));
/// assert_eq!("asian".parse::<Preset>().unwrap(), Preset::Asian);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RuleSet {
    /// R-END-STALEMATE.
    pub stalemate: StalemateRule,
    /// R-REP-ENFORCE.
    pub repetition: RepetitionEnforcement,
    /// The threat test behind perpetual chase (5.3).
    pub chase_definition: ChaseDefinition,
    /// Pikafish's rule (5.10 a): when nobody checks perpetually, any check in
    /// the span, by either side, makes the repetition a draw.
    pub any_check_in_span_draws: bool,
    /// R-REP-CHINESE: checks and chases together are "perpetual attacking".
    pub chinese: bool,
    /// R-DRAW-NOCAPTURE-LIMIT in plies; `None` switches the rule off.
    pub no_capture_limit: Option<u32>,
    /// R-DRAW-NOCAPTURE-CHECKS.
    pub no_capture_checks: NoCaptureChecks,
    /// R-END-ORDER steps 2 and 3.
    pub order: EndOrder,
    /// Section 7.
    pub material: MaterialRule,
    /// Section 8; `None` when the rule set has no clock model.
    pub clock: Option<ClockRules>,
}

/// The named bundles of section 11.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Preset {
    /// The online platform's rules [S-TL] (the default).
    Online,
    /// The written Asian/WXF rule book, without a clock.
    Asian,
    /// Pikafish's adjudication, for engine parity.
    Pikafish,
    /// Fairy-Stockfish / pyffish in UCI mode, for engine parity.
    Fairy,
    /// The default board rules without a clock.
    Plain,
}

impl Preset {
    /// All presets, default first.
    pub const ALL: [Preset; 5] = [
        Preset::Online,
        Preset::Asian,
        Preset::Pikafish,
        Preset::Fairy,
        Preset::Plain,
    ];

    /// The name used on the command line and in `docs/`.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Online => "online",
            Preset::Asian => "asian",
            Preset::Pikafish => "pikafish",
            Preset::Fairy => "fairy",
            Preset::Plain => "plain",
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A preset name that is not one of section 11's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule set {0:?} (expected online, asian, pikafish, fairy or plain)")]
pub struct UnknownPresetError(pub String);

impl FromStr for Preset {
    type Err = UnknownPresetError;
    fn from_str(s: &str) -> Result<Preset, UnknownPresetError> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownPresetError(s.to_string()))
    }
}

impl RuleSet {
    /// The bundle a preset names (section 11 table).
    pub fn preset(preset: Preset) -> RuleSet {
        let plain = RuleSet {
            stalemate: StalemateRule::Loses,
            repetition: RepetitionEnforcement::Adjudicate,
            chase_definition: ChaseDefinition::Spec,
            any_check_in_span_draws: false,
            chinese: false,
            no_capture_limit: Some(120),
            no_capture_checks: NoCaptureChecks::CountAll,
            order: EndOrder::RepetitionFirst,
            material: MaterialRule::Dead,
            clock: None,
        };
        match preset {
            Preset::Online => RuleSet {
                clock: Some(ClockRules::ONLINE),
                ..plain
            },
            Preset::Plain => plain,
            Preset::Asian => RuleSet {
                no_capture_checks: NoCaptureChecks::CapTen,
                ..plain
            },
            Preset::Pikafish => RuleSet {
                any_check_in_span_draws: true,
                no_capture_checks: NoCaptureChecks::CapTen,
                material: MaterialRule::Extended,
                ..plain
            },
            Preset::Fairy => RuleSet {
                chase_definition: ChaseDefinition::FairyStockfish,
                no_capture_limit: Some(100),
                no_capture_checks: NoCaptureChecks::Fairy,
                order: EndOrder::NoCaptureFirst,
                ..plain
            },
        }
    }

    /// The repetition-judging part of the rules, for [`crate::judge_cycle`].
    pub fn cycle_rules(&self) -> crate::CycleRules {
        crate::CycleRules {
            enforcement: self.repetition,
            chase_definition: self.chase_definition,
            any_check_in_span_draws: self.any_check_in_span_draws,
            chinese: self.chinese,
        }
    }
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::preset(Preset::Online)
    }
}

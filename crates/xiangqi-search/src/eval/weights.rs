//! The parameter table of the evaluation: every weight in one flat array,
//! grouped by term, read through typed accessors (by [`PieceKind`], phase
//! and square). The default values live in the generated file
//! `default_weights.rs` (written by `cargo xtask tune`).

use xiangqi_core::{PieceKind, Square};

use super::default_weights::DEFAULT_WEIGHTS;

/// Number of piece kinds (`PieceKind::index` is below this).
pub const KINDS: usize = 7;
const POINTS: usize = 90;

/// Game phase of a tapered weight.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// A full board (chariots, horses and cannons all present).
    Opening,
    /// No chariot, horse or cannon left.
    Endgame,
}

/// A named group of consecutive weights.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WeightGroup {
    /// Name of the term, as in the generated file and docs/engine.md.
    pub name: &'static str,
    /// Index of its first weight in [`Weights::values`].
    pub offset: usize,
    /// Number of weights.
    pub len: usize,
    /// False for weights a linear fit cannot move (they enter the score non-linearly).
    pub linear: bool,
}

macro_rules! groups {
    ($($konst:ident = $name:literal * $len:expr, $linear:literal;)*) => {
        groups!(@offsets 0usize; $($konst $len;)*);
        /// Every group, in table order.
        pub const GROUPS: &[WeightGroup] = &[
            $(WeightGroup { name: $name, offset: $konst, len: $len, linear: $linear },)*
        ];
    };
    (@offsets $at:expr; $konst:ident $len:expr; $($rest:tt)*) => {
        #[allow(missing_docs)]
        pub const $konst: usize = $at;
        groups!(@offsets $at + $len; $($rest)*);
    };
    (@offsets $at:expr;) => {
        /// Number of weights in the table.
        pub const WEIGHT_COUNT: usize = $at;
    };
}

groups! {
    MATERIAL_OPENING = "material_opening" * KINDS, true;
    MATERIAL_ENDGAME = "material_endgame" * KINDS, true;
    PST_OPENING = "pst_opening" * (KINDS * POINTS), true;
    PST_ENDGAME = "pst_endgame" * (KINDS * POINTS), true;
    MOBILITY = "mobility" * KINDS, true;
    CANNON_FILE = "cannon_file" * 2, true;
    MISSING_ADVISOR = "missing_advisor" * KINDS, true;
    MISSING_ELEPHANT = "missing_elephant" * KINDS, true;
    CONNECTED_SOLDIERS = "connected_soldiers" * 1, true;
    TEMPO = "tempo" * 1, true;
    ATTACK_UNITS = "attack_units" * KINDS, false;
    KING_ATTACK = "king_attack" * 2, false;
}

/// Cannon-file weights: `CANNON_FILE + EMPTY_HEAD` with no piece between the
/// cannon and the enemy general, `+ ONE_SCREEN` with one.
pub const EMPTY_HEAD: usize = 0;
/// See [`EMPTY_HEAD`].
pub const ONE_SCREEN: usize = 1;
/// King-attack weights: `KING_ATTACK + ATTACK_DIVISOR` divides the squared
/// attack units, `+ ATTACK_CAP` caps the result.
pub const ATTACK_DIVISOR: usize = 0;
/// See [`ATTACK_DIVISOR`].
pub const ATTACK_CAP: usize = 1;

/// The evaluation's weights, one flat table (see [`GROUPS`] for its layout).
///
/// ```
/// use xiangqi_core::PieceKind;
/// use xiangqi_search::{Phase, Weights};
/// let w = Weights::default();
/// assert!(w.material(Phase::Opening, PieceKind::Chariot) > w.material(Phase::Opening, PieceKind::Horse));
/// let mut v = w.values().to_vec();
/// v[xiangqi_search::weights::TEMPO] = 0;
/// assert!(Weights::from_values(v).is_ok());
/// assert!(Weights::from_values(vec![1, 2, 3]).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    values: Box<[i32; WEIGHT_COUNT]>,
}

/// A weight table of the wrong size.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a weight table has {WEIGHT_COUNT} values, got {got}")]
pub struct WeightCountError {
    /// How many values were given.
    pub got: usize,
}

impl Default for Weights {
    /// The committed weights (`default_weights.rs`).
    fn default() -> Weights {
        Weights {
            values: Box::new(DEFAULT_WEIGHTS),
        }
    }
}

impl Weights {
    /// A table from [`WEIGHT_COUNT`] values in [`GROUPS`] order.
    pub fn from_values(values: Vec<i32>) -> Result<Weights, WeightCountError> {
        let got = values.len();
        let values: Box<[i32; WEIGHT_COUNT]> = values
            .into_boxed_slice()
            .try_into()
            .map_err(|_| WeightCountError { got })?;
        Ok(Weights { values })
    }

    /// All values in [`GROUPS`] order.
    pub fn values(&self) -> &[i32] {
        &self.values[..]
    }

    /// The weight at a table index.
    #[inline(always)]
    pub fn get(&self, index: usize) -> i32 {
        self.values[index]
    }

    /// Material value of `kind`.
    pub fn material(&self, phase: Phase, kind: PieceKind) -> i32 {
        self.get(material_index(phase, kind))
    }

    /// Piece-square value of a Red piece of `kind` on `sq` (Black reads the rank-mirrored point).
    pub fn pst(&self, phase: Phase, kind: PieceKind, sq: Square) -> i32 {
        self.get(pst_index(phase, kind, sq))
    }
}

/// Table index of the material weight of `kind`.
#[inline(always)]
pub fn material_index(phase: Phase, kind: PieceKind) -> usize {
    let base = match phase {
        Phase::Opening => MATERIAL_OPENING,
        Phase::Endgame => MATERIAL_ENDGAME,
    };
    base + kind.index()
}

/// Table index of the piece-square weight of a Red piece of `kind` on `sq`.
#[inline(always)]
pub fn pst_index(phase: Phase, kind: PieceKind, sq: Square) -> usize {
    let base = match phase {
        Phase::Opening => PST_OPENING,
        Phase::Endgame => PST_ENDGAME,
    };
    base + kind.index() * POINTS + sq.index()
}

/// The group holding table index `index` and the position inside it.
pub fn group_of(index: usize) -> Option<(&'static WeightGroup, usize)> {
    GROUPS
        .iter()
        .find(|g| (g.offset..g.offset + g.len).contains(&index))
        .map(|g| (g, index - g.offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_table() {
        let mut at = 0;
        for g in GROUPS {
            assert_eq!(g.offset, at, "{}", g.name);
            at += g.len;
        }
        assert_eq!(at, WEIGHT_COUNT);
        assert_eq!(
            group_of(TEMPO).map(|(g, i)| (g.name, i)),
            Some(("tempo", 0))
        );
        assert!(group_of(WEIGHT_COUNT).is_none());
    }
}

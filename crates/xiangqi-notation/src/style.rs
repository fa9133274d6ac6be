//! Output options for each notation.

use std::fmt;
use std::str::FromStr;

/// A move notation (rules reference section 9).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Notation {
    /// Coordinates such as `h2e2` (N-ICCS).
    Iccs,
    /// World Xiangqi Federation letters such as `C2=5` (N-WXF).
    Wxf,
    /// Chinese characters such as `炮二平五` (N-CN).
    Chinese,
    /// Vietnamese words such as `Pháo 2 bình 5` (N-VI).
    Vietnamese,
}

impl Notation {
    /// All notations, in a fixed order.
    pub const ALL: [Notation; 4] = [
        Notation::Iccs,
        Notation::Wxf,
        Notation::Chinese,
        Notation::Vietnamese,
    ];

    /// The lower-case name used on the command line and in JSON (`iccs`, `wxf`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "iccs",
            Notation::Wxf => "wxf",
            Notation::Chinese => "chinese",
            Notation::Vietnamese => "vietnamese",
        }
    }

    /// The value of the PGN `[Format "…"]` tag for this notation (N-PGN).
    pub const fn pgn_format(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
            Notation::Vietnamese => "Vietnamese",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown notation name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown notation {0:?}: expected iccs, wxf, chinese or vietnamese")]
pub struct UnknownNotation(pub String);

impl FromStr for Notation {
    type Err = UnknownNotation;

    /// Accepts the names of [`Notation::name`] and the PGN `Format` values, any case,
    /// plus the short forms `cn`, `zh`, `vi`, `coord`.
    fn from_str(s: &str) -> Result<Notation, UnknownNotation> {
        match s.trim().to_ascii_lowercase().as_str() {
            "iccs" | "coord" | "coordinates" | "ucci" => Ok(Notation::Iccs),
            "wxf" => Ok(Notation::Wxf),
            "chinese" | "cn" | "zh" | "chn" => Ok(Notation::Chinese),
            "vietnamese" | "vi" | "vn" => Ok(Notation::Vietnamese),
            _ => Err(UnknownNotation(s.to_owned())),
        }
    }
}

/// Which conventions WXF text follows for tandem pieces.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum WxfConvention {
    /// The official WXF forms (N-WXF-TANDEM, N-WXF-PAWNS): `P+`, `P3`, `++`, `3+`, `33`.
    #[default]
    Official,
    /// Fairy-Stockfish / pyffish (N-WXF-FSF): rank order digits (`13=4`) and a
    /// front/rear marker only where the other piece could make the same displacement.
    Fsf,
}

impl WxfConvention {
    /// The name used in PGN's `[WXFStyle]` tag and WXF files' `WXFSTYLE` line.
    pub const fn name(self) -> &'static str {
        match self {
            WxfConvention::Official => "official",
            WxfConvention::Fsf => "fsf",
        }
    }
}

/// Error for an unknown WXF convention name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown WXF convention {0:?}: expected official or fsf")]
pub struct UnknownWxfConvention(pub String);

impl FromStr for WxfConvention {
    type Err = UnknownWxfConvention;

    /// `official` (also `wxf`) or `fsf` (also `fairy`, `pyffish`), any case.
    ///
    /// ```
    /// use xiangqi_notation::WxfConvention;
    /// assert_eq!("FSF".parse(), Ok(WxfConvention::Fsf));
    /// assert!("chess".parse::<WxfConvention>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<WxfConvention, UnknownWxfConvention> {
        match s.trim().to_ascii_lowercase().as_str() {
            "official" | "wxf" => Ok(WxfConvention::Official),
            "fsf" | "fairy" | "pyffish" => Ok(WxfConvention::Fsf),
            _ => Err(UnknownWxfConvention(s.to_owned())),
        }
    }
}

/// The sign WXF writes for a sideways move.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum SidewaysSign {
    /// `=` (the common form, default).
    #[default]
    Equals,
    /// `.` (the official WXF sign).
    Dot,
}

/// How WXF text is written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WxfStyle {
    /// Tandem-piece conventions; also decides how the parser reads `11`/`33`,
    /// the only texts whose meaning differs between the two conventions.
    pub convention: WxfConvention,
    /// Sign for sideways moves.
    pub sideways: SidewaysSign,
    /// Write Black's piece letters in lower case (the WXF game-file habit).
    pub black_lowercase: bool,
}

impl WxfStyle {
    /// The Fairy-Stockfish/pyffish style (N-WXF-FSF) with `=`.
    pub const fn fsf() -> WxfStyle {
        WxfStyle {
            convention: WxfConvention::Fsf,
            sideways: SidewaysSign::Equals,
            black_lowercase: false,
        }
    }
}

/// Chinese character set.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Script {
    /// Simplified characters: 车 马 进 后 (default, N-CN-PIECES).
    #[default]
    Simplified,
    /// Traditional characters: 俥/車 傌/馬 進 後.
    Traditional,
}

/// How Chinese text is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChineseStyle {
    /// Simplified or traditional characters.
    pub script: Script,
    /// Use the separate red/black piece characters of the traditional set
    /// (俥傌炮 for Red, 車馬砲 for Black). When false both sides use 車馬炮.
    /// Simplified text has one character for both sides (车马炮) either way.
    pub red_black_sets: bool,
}

impl Default for ChineseStyle {
    fn default() -> ChineseStyle {
        ChineseStyle {
            script: Script::Simplified,
            red_black_sets: true,
        }
    }
}

impl ChineseStyle {
    /// Traditional characters with the red/black sets: 傌二進三, 馬8進7.
    pub const fn traditional() -> ChineseStyle {
        ChineseStyle {
            script: Script::Traditional,
            red_black_sets: true,
        }
    }
}

/// How Vietnamese text is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VietnameseStyle {
    /// Write diacritics (`Pháo 2 bình 5`) or plain ASCII (`Phao 2 binh 5`).
    pub diacritics: bool,
    /// The compact scoresheet form (N-VI-SHORT): `P2-5`, `M2.3`, `Xt-4`
    /// (`diacritics` then does not matter). Its letters and signs collide
    /// with WXF (`P2-5` is also a WXF soldier move), so it is read only where
    /// this is set, and never detected.
    #[cfg_attr(feature = "serde", serde(default))]
    pub short: bool,
}

impl Default for VietnameseStyle {
    fn default() -> VietnameseStyle {
        VietnameseStyle {
            diacritics: true,
            short: false,
        }
    }
}

impl VietnameseStyle {
    /// The compact scoresheet form (N-VI-SHORT).
    pub const fn short() -> VietnameseStyle {
        VietnameseStyle {
            diacritics: false,
            short: true,
        }
    }
}

/// Output options for every notation at once; [`Style::default`] is the
/// documented default of each.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Style {
    /// WXF options.
    pub wxf: WxfStyle,
    /// Chinese options.
    pub chinese: ChineseStyle,
    /// Vietnamese options.
    pub vietnamese: VietnameseStyle,
}

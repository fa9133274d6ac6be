//! Notation and style options shared by `xiangqi convert` and `xiangqi pgn convert`.

use xiangqi_notation::{
    ChineseStyle, Notation, Script, Style, VietnameseStyle, WxfConvention, WxfStyle,
};

/// A notation to write.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NotationArg {
    /// Coordinates: h2e2.
    Iccs,
    /// WXF: C2=5.
    Wxf,
    /// Chinese characters: 炮二平五.
    Chinese,
    /// Vietnamese: Pháo 2 bình 5.
    Vietnamese,
    /// Coordinates with ranks 1-10 (Fairy-Stockfish, pyffish, pychess): h3e3
    /// is ICCS h2e2 (N-ICCS-RANKS10). PGN output gets `[Variant "xiangqi"]`.
    Iccs10,
}

impl From<NotationArg> for Notation {
    fn from(n: NotationArg) -> Notation {
        match n {
            // Ranks 1-10 are ICCS coordinates renumbered; callers renumber.
            NotationArg::Iccs | NotationArg::Iccs10 => Notation::Iccs,
            NotationArg::Wxf => Notation::Wxf,
            NotationArg::Chinese => Notation::Chinese,
            NotationArg::Vietnamese => Notation::Vietnamese,
        }
    }
}

/// WXF conventions for tandem pieces.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum WxfStyleArg {
    /// Official WXF forms (P+, P3, ++, 3+, 33).
    Official,
    /// Fairy-Stockfish/pyffish forms (13=4; markers only where the other piece could move alike).
    Fsf,
}

/// Output style options.
#[derive(Clone, Debug, clap::Args)]
pub struct StyleArgs {
    /// WXF tandem-piece conventions (also how WXF `11`/`33` are read).
    #[arg(long, value_enum, default_value = "official")]
    pub wxf_style: WxfStyleArg,
    /// Chinese in traditional characters (傌二進三); the default is simplified (马二进三).
    #[arg(long)]
    pub traditional: bool,
    /// Vietnamese without diacritics (Phao 2 binh 5).
    #[arg(long)]
    pub no_diacritics: bool,
    /// Vietnamese in the compact scoresheet form (P2-5, Xt-4); also how
    /// `--from vietnamese` reads (the form is never detected).
    #[arg(long)]
    pub vietnamese_short: bool,
}

impl StyleArgs {
    /// The library style these options select.
    pub fn style(&self) -> Style {
        let convention = match self.wxf_style {
            WxfStyleArg::Official => WxfConvention::Official,
            WxfStyleArg::Fsf => WxfConvention::Fsf,
        };
        Style {
            wxf: WxfStyle {
                convention,
                ..WxfStyle::default()
            },
            chinese: ChineseStyle {
                script: if self.traditional {
                    Script::Traditional
                } else {
                    Script::Simplified
                },
                red_black_sets: true,
            },
            vietnamese: VietnameseStyle {
                diacritics: !self.no_diacritics,
                short: self.vietnamese_short,
            },
        }
    }
}

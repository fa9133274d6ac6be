//! A player's notation setting, as the protocol names it, and the move text
//! it produces (through `xiangqi-notation`).

use xiangqi_core::{Move, Position};
use xiangqi_ecco::Opening;
use xiangqi_notation::{format, ChineseStyle, Notation, Style};
use xiangqi_server_protocol::server::OpeningName;

/// The five settings of the protocol.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum NotationSetting {
    /// ICCS coordinates, `h2e2` (the default).
    #[default]
    Coordinate,
    /// WXF, `C2=5`.
    Wxf,
    /// Simplified Chinese, `炮二平五`.
    Chinese,
    /// Traditional Chinese, `炮二平五` with traditional characters.
    ChineseTraditional,
    /// Vietnamese, `Pháo 2 bình 5`.
    Vietnamese,
}

impl NotationSetting {
    /// Every setting.
    pub const ALL: [NotationSetting; 5] = [
        NotationSetting::Coordinate,
        NotationSetting::Wxf,
        NotationSetting::Chinese,
        NotationSetting::ChineseTraditional,
        NotationSetting::Vietnamese,
    ];

    /// The protocol's name.
    pub fn name(self) -> &'static str {
        match self {
            NotationSetting::Coordinate => "coordinate",
            NotationSetting::Wxf => "wxf",
            NotationSetting::Chinese => "chinese",
            NotationSetting::ChineseTraditional => "chinese-traditional",
            NotationSetting::Vietnamese => "vietnamese",
        }
    }

    /// The setting a protocol name stands for.
    pub fn parse(name: &str) -> Option<NotationSetting> {
        NotationSetting::ALL.into_iter().find(|s| s.name() == name)
    }

    /// `mv`, played from `before`, in this notation (ICCS if the notation
    /// cannot describe it, which only an illegal move would cause).
    pub fn move_text(self, before: &Position, mv: Move) -> String {
        let mut style = Style::default();
        let notation = match self {
            NotationSetting::Coordinate => return mv.to_string(),
            NotationSetting::Wxf => Notation::Wxf,
            NotationSetting::Chinese => Notation::Chinese,
            NotationSetting::ChineseTraditional => {
                style.chinese = ChineseStyle::traditional();
                Notation::Chinese
            }
            NotationSetting::Vietnamese => Notation::Vietnamese,
        };
        format(before, mv, notation, &style).unwrap_or_else(|_| mv.to_string())
    }

    /// The name of `opening` for a reader of this notation: its Chinese
    /// name, simplified or traditional, beside Chinese moves, its English
    /// name beside the others (as the viewer names it).
    pub fn opening_name(self, opening: &Opening) -> &str {
        match self {
            NotationSetting::Chinese => opening.name,
            NotationSetting::ChineseTraditional => &opening.name_traditional,
            NotationSetting::Coordinate | NotationSetting::Wxf | NotationSetting::Vietnamese => {
                &opening.name_en
            }
        }
    }

    /// `opening` as the protocol names it for this reader.
    pub fn opening(self, opening: &Opening) -> OpeningName {
        OpeningName {
            code: opening.code.to_string(),
            name: self.opening_name(opening).to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_setting_writes_the_central_cannon() {
        let pos = Position::startpos();
        let mv = "h2e2".parse().unwrap();
        let texts: Vec<String> = NotationSetting::ALL
            .iter()
            .map(|s| s.move_text(&pos, mv))
            .collect();
        assert_eq!(texts[0], "h2e2");
        assert_eq!(texts[1], "C2=5");
        assert_eq!(texts[2], "炮二平五");
        assert_eq!(texts[4], "Pháo 2 bình 5");
        for s in NotationSetting::ALL {
            assert_eq!(NotationSetting::parse(s.name()), Some(s));
        }
    }

    #[test]
    fn each_setting_names_the_opening_in_its_readers_language() {
        let moves: Vec<Move> = ["h2e2", "h9g7"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let opening = xiangqi_ecco::classify_moves(&moves).unwrap().unwrap();
        let names: Vec<OpeningName> = NotationSetting::ALL
            .iter()
            .map(|s| s.opening(&opening))
            .collect();
        assert!(names.iter().all(|n| n.code == opening.code));
        assert_eq!(names[0].name, opening.name_en);
        assert_eq!(names[1].name, opening.name_en);
        assert_eq!(names[2].name, opening.name);
        assert_eq!(names[3].name, opening.name_traditional);
        assert_eq!(names[4].name, opening.name_en);
        assert_ne!(opening.name, opening.name_traditional);
    }
}

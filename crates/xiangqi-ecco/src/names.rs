//! An opening's name in traditional characters and in English.
//!
//! The published names are in simplified characters ([`crate::codes`]);
//! the traditional form changes the characters that differ, and the English
//! form translates the name phrase by phrase in the WXF's English terms
//! (docs/ecco.md lists the vocabulary).

/// The simplified characters of the names that traditional writing spells
/// otherwise.
const TRADITIONAL: &[(char, char)] = &[
    ('两', '兩'),
    ('兑', '兌'),
    ('单', '單'),
    ('压', '壓'),
    ('双', '雙'),
    ('后', '後'),
    ('头', '頭'),
    ('宫', '宮'),
    ('对', '對'),
    ('开', '開'),
    ('弃', '棄'),
    ('横', '橫'),
    ('盘', '盤'),
    ('红', '紅'),
    ('缓', '緩'),
    ('补', '補'),
    ('车', '車'),
    ('转', '轉'),
    ('边', '邊'),
    ('过', '過'),
    ('进', '進'),
    ('连', '連'),
    ('钩', '鉤'),
    ('顺', '順'),
    ('风', '風'),
    ('飞', '飛'),
    ('马', '馬'),
    ('骑', '騎'),
    ('鸯', '鴦'),
    ('鸳', '鴛'),
    ('龟', '龜'),
];

/// `name` in traditional characters.
pub(crate) fn traditional(name: &str) -> String {
    name.chars()
        .map(|c| {
            TRADITIONAL
                .iter()
                .find(|(simplified, _)| *simplified == c)
                .map_or(c, |(_, traditional)| *traditional)
        })
        .collect()
}

/// Phrases of the names and their English, matched longest first.
const PHRASES: &[(&str, &str)] = &[
    ("——", ","),
    ("其他开局", "Other Openings"),
    ("其他", "Others"),
    ("上仕局", "Advisor Opening"),
    ("边马局", "Edge Horse Opening"),
    ("边炮局", "Edge Cannon Opening"),
    ("巡河炮局", "River Cannon Opening"),
    ("过河炮局", "Crossing Cannon Opening"),
    ("兵底炮局", "Pawn-base Cannon Opening"),
    ("金钩炮局", "Golden Hook Cannon Opening"),
    ("边兵局", "Edge Pawn Opening"),
    ("飞相局", "Elephant Opening"),
    ("顺相局", "Same-side Elephants Opening"),
    ("列相局", "Opposite-side Elephants Opening"),
    ("飞相", "Elephant Opening"),
    ("起马局", "Horse Opening"),
    ("起马", "Horse Opening"),
    ("仕角炮局", "Palace Corner Cannon Opening"),
    ("过宫炮局", "Cross-palace Cannon Opening"),
    ("中炮局", "Central Cannon Opening"),
    ("仙人指路局", "Pawn Opening"),
    ("仙人指路", "Pawn Opening"),
    ("对兵局", "Mutual Pawns Opening"),
    ("对兵进右马局", "Mutual Pawns, Right Horse Opening"),
    ("对兵互进右马局", "Mutual Pawns, Both Right Horses Opening"),
    ("对兵转兵底炮", "Mutual Pawns into Pawn-base Cannon"),
    ("互进七兵局", "Both Pawns 7 Forward Opening"),
    ("互进右马局", "Both Right Horses Opening"),
    ("互进七兵", "Both Pawns 7 Forward"),
    ("互进三兵", "Both Pawns 3 Forward"),
    ("互进边马", "Both Edge Horses"),
    ("对", "vs"),
    ("转", "into"),
    ("或", "or"),
    ("红", "Red"),
    ("黑", "Black"),
    ("中炮", "Central Cannon"),
    ("左中炮", "Left Central Cannon"),
    ("右中炮", "Right Central Cannon"),
    ("五六炮", "Five-Six Cannons"),
    ("五七炮", "Five-Seven Cannons"),
    ("五八炮", "Five-Eight Cannons"),
    ("五九炮", "Five-Nine Cannons"),
    ("顺炮", "Same-direction Cannons"),
    ("列炮", "Opposite-direction Cannons"),
    ("后补列炮", "Late Opposite-direction Cannons"),
    ("士角炮", "Palace Corner Cannon"),
    ("仕角炮", "Palace Corner Cannon"),
    ("左士角炮", "Left Palace Corner Cannon"),
    ("右士角炮", "Right Palace Corner Cannon"),
    ("过宫炮", "Cross-palace Cannon"),
    ("左过宫炮", "Left Cross-palace Cannon"),
    ("右过宫炮", "Right Cross-palace Cannon"),
    ("卒底炮", "Pawn-file Cannon"),
    ("兵底炮", "Pawn-base Cannon"),
    ("金钩炮", "Golden Hook Cannon"),
    ("鸳鸯炮", "Mandarin Duck Cannons"),
    ("龟背炮", "Turtle-back Cannon"),
    ("左炮封车", "Left Cannon Blocking the Chariot"),
    ("巡河炮", "River Cannon"),
    ("过河炮", "Crossing Cannon"),
    ("边炮", "Edge Cannon"),
    ("左边炮", "Left Edge Cannon"),
    ("退边炮", "Edge Cannon Back"),
    ("高右炮", "Raised Right Cannon"),
    ("高左炮", "Raised Left Cannon"),
    ("右炮过河", "Right Cannon Crossing"),
    ("左炮过河", "Left Cannon Crossing"),
    ("双炮过河", "Both Cannons Crossing"),
    ("右炮巡河", "Right Cannon to the River"),
    ("左炮巡河", "Left Cannon to the River"),
    ("平炮兑车", "Cannon Across to Trade Chariots"),
    ("平炮压马", "Cannon Across onto the Horse"),
    ("进炮打马", "Cannon Forward at the Horse"),
    ("炮打中卒", "Cannon Takes the Central Pawn"),
    ("屏风马", "Screen Horses"),
    ("反宫马", "Reverse Palace Horses"),
    ("单提马", "Single Lifted Horse"),
    ("拐角马", "Corner Horse"),
    ("左三步虎", "Left Three-step Tiger"),
    ("右三步虎", "Right Three-step Tiger"),
    ("七路马", "Seventh-file Horse"),
    ("进左马", "Left Horse"),
    ("进右马", "Right Horse"),
    ("不进左马", "without the Left Horse"),
    ("急进左马", "Quick Left Horse"),
    ("后补左马", "Left Horse Later"),
    ("左正马", "Left Proper Horse"),
    ("左边马", "Left Edge Horse"),
    ("右边马", "Right Edge Horse"),
    ("左马盘河", "Left Horse to the River"),
    ("右马盘河", "Right Horse to the River"),
    ("左马外盘河", "Left Horse Outside to the River"),
    ("右马外盘河", "Right Horse Outside to the River"),
    ("直车", "Straight Chariot"),
    ("左直车", "Left Straight Chariot"),
    ("右直车", "Right Straight Chariot"),
    ("双直车", "Two Straight Chariots"),
    ("横车", "Horizontal Chariot"),
    ("左横车", "Left Horizontal Chariot"),
    ("右横车", "Right Horizontal Chariot"),
    ("双横车", "Two Horizontal Chariots"),
    ("缓开车", "Slow Chariot"),
    ("巡河车", "River Chariot"),
    ("骑河车", "River-riding Chariot"),
    ("过河车", "Crossing Chariot"),
    ("右车巡河", "Right Chariot to the River"),
    ("兑直车", "Trading Straight Chariots"),
    ("巡河", "to the River"),
    ("过河", "Crossing"),
    ("飞象", "Elephant"),
    ("飞左象", "Left Elephant"),
    ("飞右象", "Right Elephant"),
    ("边相", "Edge Elephant"),
    ("先上士", "Advisor First"),
    ("先上仕", "Advisor First"),
    ("上右士", "Right Advisor"),
    ("上士", "Advisor"),
    ("上仕", "Advisor"),
    ("进三兵", "Pawn 3 Forward"),
    ("进七兵", "Pawn 7 Forward"),
    ("不进三兵", "without Pawn 3 Forward"),
    ("进中兵", "Central Pawn Forward"),
    ("进７卒", "Pawn 7 Forward"),
    ("进３卒", "Pawn 3 Forward"),
    ("连进７卒", "Pawn 7 Forward Twice"),
    ("兑三兵", "Trading Pawn 3"),
    ("兑七兵", "Trading Pawn 7"),
    ("兑双兵", "Trading Both Pawns"),
    ("兑７卒", "Trading Pawn 7"),
    ("兑边卒", "Trading the Edge Pawn"),
    ("弃双兵", "Giving Up Both Pawns"),
    ("边卒", "Edge Pawn"),
    ("两头蛇", "Two-headed Snake"),
    ("局", "Opening"),
];

/// `name` in English, phrase by phrase.
pub(crate) fn english(name: &str) -> String {
    let mut out = String::with_capacity(name.len() * 2);
    let mut rest = name;
    while !rest.is_empty() {
        let phrase = PHRASES
            .iter()
            .filter(|(chinese, _)| rest.starts_with(chinese))
            .max_by_key(|(chinese, _)| chinese.len());
        let (taken, english) = match phrase {
            Some((chinese, english)) => (chinese.len(), *english),
            // A character no phrase knows stays as it is (tests keep the
            // table complete).
            None => {
                let len = rest.chars().next().map_or(1, char::len_utf8);
                (len, &rest[..len])
            }
        };
        if !out.is_empty() && english != "," {
            out.push(' ');
        }
        out.push_str(english);
        rest = &rest[taken..];
    }
    out
}

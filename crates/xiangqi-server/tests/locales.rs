//! The web client's message catalogues (`web/locales/<lang>.json`): every
//! language of `web/i18n.js` has one, with exactly the keys English has,
//! the same placeholders in each message, the plural forms its language
//! needs; and every key is used by the client, every key the client names
//! exists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

fn web_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("web")
}

/// The language codes `web/i18n.js` offers, in its order.
fn offered_languages() -> Vec<String> {
    let source = std::fs::read_to_string(web_dir().join("i18n.js")).expect("web/i18n.js");
    let start = source
        .find("export const LANGUAGES = [")
        .expect("i18n.js declares LANGUAGES");
    let block = &source[start..];
    let block = &block[..block.find("];").expect("the LANGUAGES list ends")];
    block
        .lines()
        .filter_map(|line| line.trim().strip_prefix("[\""))
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_string)
        .collect()
}

/// A catalogue: key → message, a plural message as its forms.
type Catalogue = BTreeMap<String, Message>;

#[derive(Debug)]
enum Message {
    Text(String),
    Plural(BTreeMap<String, String>),
}

impl Message {
    fn texts(&self) -> Vec<&str> {
        match self {
            Message::Text(text) => vec![text],
            Message::Plural(forms) => forms.values().map(String::as_str).collect(),
        }
    }
}

fn catalogue(language: &str) -> Catalogue {
    let path = web_dir().join("locales").join(format!("{language}.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{language}: cannot read {}: {e}", path.display()));
    let value: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{language}: {} is not JSON: {e}", path.display()));
    let Value::Object(entries) = value else {
        panic!("{language}: the catalogue is not a JSON object");
    };
    entries
        .into_iter()
        .map(|(key, value)| {
            let message = match value {
                Value::String(text) => Message::Text(text),
                Value::Object(forms) => Message::Plural(
                    forms
                        .into_iter()
                        .map(|(form, text)| match text {
                            Value::String(text) => (form, text),
                            other => panic!("{language}: {key}.{form} is not a string: {other}"),
                        })
                        .collect(),
                ),
                other => panic!("{language}: {key} is neither a string nor plural forms: {other}"),
            };
            (key, message)
        })
        .collect()
}

/// The `{name}` placeholders of a text.
fn placeholders(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close)
                if !after[..close].is_empty()
                    && after[..close]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                names.insert(after[..close].to_string());
                rest = &after[close + 1..];
            }
            _ => rest = after,
        }
    }
    names
}

/// The CLDR plural categories of whole numbers in each language (what
/// `Intl.PluralRules(lang).select(n)` can answer for an integer count).
fn plural_forms(language: &str) -> BTreeSet<&'static str> {
    let forms: &[&str] = match language {
        "en" | "tl" => &["one", "other"],
        "zh-Hans" | "zh-Hant" | "vi" => &["other"],
        "sk" | "cs" => &["one", "few", "other"],
        other => panic!("no plural forms known for {other}: add its CLDR categories here"),
    };
    forms.iter().copied().collect()
}

#[test]
fn every_language_has_every_english_key_with_the_same_placeholders() {
    let languages = offered_languages();
    assert_eq!(languages.first().map(String::as_str), Some("en"));
    for wanted in ["zh-Hans", "zh-Hant", "vi", "sk", "cs", "tl"] {
        assert!(
            languages.iter().any(|l| l == wanted),
            "the client offers {languages:?}, without {wanted}"
        );
    }
    let english = catalogue("en");
    let mut problems = Vec::new();
    for language in &languages {
        let other = catalogue(language);
        for key in english.keys() {
            if !other.contains_key(key) {
                problems.push(format!("{language}: missing {key}"));
            }
        }
        for (key, message) in &other {
            let Some(original) = english.get(key) else {
                problems.push(format!("{language}: {key} is not in English"));
                continue;
            };
            for text in message.texts() {
                if text.trim().is_empty() {
                    problems.push(format!("{language}: {key} is empty"));
                }
                // A plural form may leave the count out ("one game"), never add one.
                let mut expected = original
                    .texts()
                    .iter()
                    .flat_map(|t| placeholders(t))
                    .collect::<BTreeSet<_>>();
                let found = placeholders(text);
                if let Message::Plural(_) = message {
                    expected.insert("count".into());
                    if !found.is_subset(&expected) {
                        problems.push(format!(
                            "{language}: {key} has placeholders {found:?}, English {expected:?}"
                        ));
                    }
                } else if found != expected {
                    problems.push(format!(
                        "{language}: {key} has placeholders {found:?}, English {expected:?}"
                    ));
                }
            }
            match (original, message) {
                (Message::Plural(_), Message::Plural(forms)) => {
                    let have: BTreeSet<&str> = forms.keys().map(String::as_str).collect();
                    let need = plural_forms(language);
                    if have != need {
                        problems.push(format!(
                            "{language}: {key} has plural forms {have:?}, the language has {need:?}"
                        ));
                    }
                }
                (Message::Text(_), Message::Text(_)) => {}
                _ => problems.push(format!(
                    "{language}: {key} is plural in one catalogue and not in the other"
                )),
            }
        }
    }
    let files: BTreeSet<String> = std::fs::read_dir(web_dir().join("locales"))
        .expect("web/locales")
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".json").map(str::to_string)
        })
        .collect();
    let offered: BTreeSet<String> = languages.iter().cloned().collect();
    if files != offered {
        problems.push(format!(
            "catalogue files {files:?}, languages offered {offered:?}"
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The client's scripts, as text.
fn scripts() -> String {
    let mut text = String::new();
    for entry in std::fs::read_dir(web_dir()).expect("web/") {
        let path = entry.expect("a file of web/").path();
        if path.extension().and_then(|e| e.to_str()) == Some("js") {
            text.push_str(&std::fs::read_to_string(&path).expect("a script"));
            text.push('\n');
        }
    }
    text
}

/// The string literals that open `t(` or `tParts(` calls: keys the client asks for.
fn called_keys(scripts: &str) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for call in ["t(\"", "tParts(\""] {
        for (at, _) in scripts.match_indices(call) {
            // `t(` only as a whole name (not `sort(`, `split(`).
            let before = scripts[..at].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
                continue;
            }
            let rest = &scripts[at + call.len()..];
            if let Some(end) = rest.find('"') {
                keys.insert(rest[..end].to_string());
            }
        }
    }
    keys
}

/// The key families the scripts form from a server's code, `` `error.${code}` ``:
/// `error.` there.
fn dynamic_families(scripts: &str) -> BTreeSet<String> {
    scripts
        .match_indices(".${")
        .filter_map(|(at, _)| {
            let head = &scripts[..at];
            let start = head.rfind('`')?;
            let family = &head[start + 1..];
            (!family.is_empty()
                && family
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c == '.'))
            .then(|| format!("{family}."))
        })
        .collect()
}

#[test]
fn every_key_is_used_and_every_key_used_exists() {
    let english = catalogue("en");
    let scripts = scripts();
    let families = dynamic_families(&scripts);
    let unused: Vec<&String> = english
        .keys()
        .filter(|key| !scripts.contains(&format!("\"{key}\"")))
        .filter(|key| {
            !families
                .iter()
                .any(|family| key.starts_with(family.as_str()))
        })
        .collect();
    assert!(
        unused.is_empty(),
        "keys no script names (as a \"quoted\" string, or in a family a script forms as `family.${{code}}`): {unused:?}"
    );
    let missing: Vec<String> = called_keys(&scripts)
        .into_iter()
        .filter(|key| !english.contains_key(key))
        .collect();
    assert!(
        missing.is_empty(),
        "keys the scripts ask for that English lacks: {missing:?}"
    );
}

#[test]
fn placeholders_are_read_as_the_client_reads_them() {
    assert_eq!(
        placeholders("{loser} resigned: {winner} wins"),
        ["loser", "winner"].map(String::from).into()
    );
    assert!(placeholders("no { placeholder } here {}").is_empty());
}

/// The keys of a `export const NAME = { key: …, };` table of the shared
/// viewer's scripts.
fn word_table_keys(file: &str, name: &str) -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../xiangqi-viewer/web")
        .join(file);
    let source = std::fs::read_to_string(&path).expect("a viewer script");
    let start = source
        .find(&format!("export const {name} = {{"))
        .unwrap_or_else(|| panic!("{file} declares {name}"));
    let block = &source[start..];
    let block = &block[..block.find("\n};").expect("the table ends")];
    block
        .lines()
        .skip(1)
        .filter_map(|line| line.trim().split_once(':'))
        .map(|(key, _)| key.trim().to_string())
        .filter(|key| key.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .collect()
}

#[test]
fn the_viewers_words_are_all_in_the_catalogues() {
    let mut wanted = word_table_keys("viewer.js", "VIEWER_WORDS");
    wanted.extend(word_table_keys("explorer.js", "EXPLORER_WORDS"));
    assert!(wanted.contains("copy_fen") && wanted.contains("explorer_games"));
    let have: BTreeSet<String> = catalogue("en")
        .keys()
        .filter_map(|key| key.strip_prefix("viewer."))
        .map(str::to_string)
        .collect();
    assert_eq!(
        have, wanted,
        "the catalogues' viewer.* keys and the viewer's words differ"
    );
}

//! Move text options from Python: notation names and the `**style` keywords
//! shared by `Board.san`, `Board.parse_move`, `Board.variation_san` and
//! `Game.to_pgn`. The notation logic itself is `xiangqi-notation`'s.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use xiangqi_notation::{Notation, Script, SidewaysSign, Style};

use crate::errors::type_name;

/// Reads a notation name; `"auto"` (when allowed) means "detect it".
pub fn notation(name: &str, allow_auto: bool) -> PyResult<Option<Notation>> {
    if allow_auto && name.trim().eq_ignore_ascii_case("auto") {
        return Ok(None);
    }
    name.parse::<Notation>().map(Some).map_err(|e| {
        let hint = if allow_auto { " (or 'auto')" } else { "" };
        PyValueError::new_err(format!("{e}{hint}"))
    })
}

/// A notation name that must not be `"auto"`.
pub fn fixed_notation(name: &str) -> PyResult<Notation> {
    Ok(notation(name, false)?.expect("auto is refused"))
}

fn flag(key: &str, value: &Bound<'_, PyAny>) -> PyResult<bool> {
    value.extract::<bool>().map_err(|_| {
        PyTypeError::new_err(format!("{key} must be a bool, not {}", type_name(value)))
    })
}

fn word(key: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    value
        .extract::<String>()
        .map_err(|_| PyTypeError::new_err(format!("{key} must be a str, not {}", type_name(value))))
}

/// The keywords a notation style accepts (documented in docs/python.md).
pub const STYLE_KEYS: &[&str] = &[
    "simplified",
    "red_black_sets",
    "wxf_convention",
    "sideways",
    "black_lowercase",
    "diacritics",
    "vietnamese_short",
];

/// Builds a [`Style`] from `**style` keywords; unknown keys are an error.
pub fn style(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Style> {
    let mut style = Style::default();
    let Some(kwargs) = kwargs else {
        return Ok(style);
    };
    for (key, value) in kwargs.iter() {
        let key: String = key.extract()?;
        match key.as_str() {
            "simplified" => {
                style.chinese.script = if flag(&key, &value)? {
                    Script::Simplified
                } else {
                    Script::Traditional
                }
            }
            "red_black_sets" => style.chinese.red_black_sets = flag(&key, &value)?,
            "wxf_convention" => {
                let name = word(&key, &value)?;
                style.wxf.convention = name.parse().map_err(|_| {
                    PyValueError::new_err(format!(
                        "wxf_convention {name:?}: expected 'official' or 'fsf'"
                    ))
                })?
            }
            "sideways" => {
                style.wxf.sideways = match word(&key, &value)?.as_str() {
                    "=" => SidewaysSign::Equals,
                    "." => SidewaysSign::Dot,
                    other => {
                        return Err(PyValueError::new_err(format!(
                            "sideways {other:?}: expected '=' or '.'"
                        )))
                    }
                }
            }
            "black_lowercase" => style.wxf.black_lowercase = flag(&key, &value)?,
            "diacritics" => style.vietnamese.diacritics = flag(&key, &value)?,
            "vietnamese_short" => style.vietnamese.short = flag(&key, &value)?,
            other => {
                return Err(PyTypeError::new_err(format!(
                    "unknown style keyword {other:?}; known: {}",
                    STYLE_KEYS.join(", ")
                )))
            }
        }
    }
    Ok(style)
}

/// Which notation `text` looks like (`"iccs"`, `"wxf"`, `"chinese"`,
/// `"vietnamese"`), judged from its shape alone, or `None`.
#[pyfunction]
pub fn detect_notation(text: &str) -> Option<&'static str> {
    xiangqi_notation::detect(text).map(Notation::name)
}

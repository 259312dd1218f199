//! The compact notation shared by the positions of pile games: numbers separated by
//! commas (`3,4,5`), with the empty position written `-`.

use std::fmt;
use std::str::FromStr;

/// A position or move written in the compact notation could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotationError {
    /// What was being read, e.g. "nim position".
    pub what: &'static str,
    /// The text that was rejected.
    pub text: String,
    /// Why it was rejected.
    pub reason: String,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid {} {:?}: {}", self.what, self.text, self.reason)
    }
}

impl std::error::Error for NotationError {}

impl NotationError {
    /// Builds an error for `text` read as `what`.
    pub fn new(what: &'static str, text: &str, reason: impl Into<String>) -> Self {
        NotationError {
            what,
            text: text.to_string(),
            reason: reason.into(),
        }
    }
}

/// Reads a comma-separated list of numbers; `-` or an empty string is the empty list.
/// Spaces around the numbers are allowed.
pub fn parse_list<T: FromStr>(what: &'static str, text: &str) -> Result<Vec<T>, NotationError>
where
    T::Err: fmt::Display,
{
    let t = text.trim();
    if t.is_empty() || t == "-" {
        return Ok(Vec::new());
    }
    t.split(',')
        .map(|part| {
            part.trim()
                .parse::<T>()
                .map_err(|e| NotationError::new(what, text, format!("{:?}: {}", part.trim(), e)))
        })
        .collect()
}

/// Writes a list as `a,b,c`, or `-` when it is empty.
pub fn write_list<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    if items.is_empty() {
        return f.write_str("-");
    }
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{x}")?;
    }
    Ok(())
}

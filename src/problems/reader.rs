//! A strict whitespace-separated number reader that knows its line numbers, so that
//! every parse error names the line, the field and what was expected.

use std::fmt;

/// A malformed input: where, which field, what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// The field being read, e.g. "pile 3 of case 2".
    pub field: String,
    /// What was expected and what was found.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}: {}", self.line, self.field, self.message)
    }
}

impl std::error::Error for ParseError {}

/// At most a few dozen characters of a token, for messages: an error on a 50 MB token
/// does not print it.
pub(crate) fn quote(tok: &str) -> String {
    const KEEP: usize = 24;
    if tok.chars().count() <= KEEP {
        format!("{tok:?}")
    } else {
        let head: String = tok.chars().take(KEEP).collect();
        format!("{head:?}... ({} bytes)", tok.len())
    }
}

/// Reads numbers from an input, one token at a time.
pub struct Reader<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
    line: usize,
    /// Line of the last token read: where "found end of input" errors point.
    last_line: usize,
    lenient: bool,
}

impl<'a> Reader<'a> {
    /// A reader over `text`. With `lenient`, [`Reader::limited`] does not enforce
    /// limits.
    pub fn new(text: &'a str, lenient: bool) -> Self {
        Reader {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            line: 1,
            last_line: 1,
            lenient,
        }
    }

    /// Whether limits are lifted.
    pub fn lenient(&self) -> bool {
        self.lenient
    }

    /// The current line (1-based): of the next token after [`Reader::at_end`].
    pub fn line(&self) -> usize {
        self.line
    }

    fn skip_space(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            match b {
                b'\n' => self.line += 1,
                b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => {}
                _ => break,
            }
            self.pos += 1;
        }
    }

    /// True when only whitespace is left.
    pub fn at_end(&mut self) -> bool {
        self.skip_space();
        self.pos >= self.bytes.len()
    }

    /// The next token, or `None` at the end of input.
    pub fn token(&mut self) -> Option<&'a str> {
        self.skip_space();
        let start = self.pos;
        while let Some(&b) = self.bytes.get(self.pos) {
            if b.is_ascii_whitespace() {
                break;
            }
            self.pos += 1;
        }
        if start == self.pos {
            return None;
        }
        self.last_line = self.line;
        // Tokens end at ASCII whitespace, which never splits a UTF-8 character.
        self.text.get(start..self.pos)
    }

    /// An error at the current line.
    pub fn error(&self, field: impl Into<String>, message: impl Into<String>) -> ParseError {
        ParseError {
            line: self.line,
            field: field.into(),
            message: message.into(),
        }
    }

    /// Reads a non-negative integer that fits in a u64 and lies in `min..=max`; the
    /// range is part of the format and is enforced even when lenient.
    pub fn number(&mut self, field: &str, min: u64, max: u64) -> Result<u64, ParseError> {
        let tok = match self.token() {
            Some(t) => t,
            None => {
                return Err(ParseError {
                    line: self.last_line,
                    field: field.into(),
                    message: "expected a number, found end of input".into(),
                })
            }
        };
        let digits = !tok.is_empty() && tok.bytes().all(|b| b.is_ascii_digit());
        let v = if digits && tok.len() <= 19 {
            tok.bytes().fold(0u64, |a, b| a * 10 + (b - b'0') as u64)
        } else {
            tok.parse::<u64>().map_err(|_| {
                let what = if digits {
                    format!("out of range: the largest allowed is {max}")
                } else if tok.starts_with('-')
                    && tok.len() > 1
                    && tok[1..].bytes().all(|b| b.is_ascii_digit())
                {
                    "a negative number".to_string()
                } else if tok.contains('\u{FFFD}') {
                    "invalid UTF-8".to_string()
                } else {
                    "not a non-negative integer".to_string()
                };
                self.error(
                    field,
                    format!("expected a number, found {} ({what})", quote(tok)),
                )
            })?
        };
        if v < min || v > max {
            return Err(self.error(field, format!("expected {min}..={max}, found {v}")));
        }
        Ok(v)
    }

    /// Reads a number that must lie in `min..=max` by the problem's limits; when
    /// lenient, any u64 of at least `floor` is accepted instead.
    pub fn limited(
        &mut self,
        field: &str,
        min: u64,
        max: u64,
        floor: u64,
    ) -> Result<u64, ParseError> {
        if self.lenient {
            self.number(field, floor, u64::MAX)
        } else {
            self.number(field, min, max)
        }
    }

    /// Reads `n` numbers with [`Reader::limited`]. The field of an error is named by
    /// `field(i)` (i counting from 1), built only when there is an error: formatting a
    /// name for each of 10^6 numbers would cost more than reading them.
    pub fn limited_list(
        &mut self,
        n: u64,
        (min, max, floor): (u64, u64, u64),
        field: impl Fn(u64) -> String,
    ) -> Result<Vec<u64>, ParseError> {
        // Capacity is capped: a lenient n is only a promise until the numbers are read.
        let mut out = Vec::with_capacity(n.min(1 << 20) as usize);
        for i in 1..=n {
            let v = self.limited("", min, max, floor).map_err(|mut e| {
                e.field = field(i);
                e
            })?;
            out.push(v);
        }
        Ok(out)
    }

    /// Fails unless only whitespace is left.
    pub fn expect_end(&mut self, after: &str) -> Result<(), ParseError> {
        match self.token() {
            None => Ok(()),
            Some(t) => Err(self.error(
                "end of input",
                format!(
                    "unexpected {} after {after}; the input should end there",
                    quote(t)
                ),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_errors() {
        let mut r = Reader::new("1  2\n\n 3 x\n-4 99999999999999999999", false);
        assert_eq!(r.number("a", 0, 9), Ok(1));
        assert_eq!(r.number("b", 0, 9), Ok(2));
        assert_eq!(r.number("c", 0, 2).unwrap_err().line, 3);
        let e = r.number("d", 0, 9).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (3, "d"));
        assert!(e.message.contains("\"x\""), "{e}");
        let e = r.number("e", 0, 9).unwrap_err();
        assert!(e.message.contains("negative"), "{e}");
        assert_eq!(e.line, 4);
        assert!(r.number("f", 0, u64::MAX).is_err());
        let e = r.number("g", 0, 9).unwrap_err();
        assert!(e.message.contains("end of input"));
        assert_eq!(
            e.line, 4,
            "end of input is reported on the last line with a token"
        );
    }

    #[test]
    fn long_tokens_range_and_utf8() {
        let long = "9".repeat(1 << 20);
        let e = Reader::new(&long, false).number("n", 0, 10).unwrap_err();
        assert!(e.to_string().len() < 200, "{e}");
        assert!(e.message.contains("out of range"), "{e}");
        let e = Reader::new("18446744073709551616", false)
            .number("n", 0, u64::MAX)
            .unwrap_err();
        assert!(e.message.contains("out of range"), "{e}");
        let junk = "x".repeat(1 << 20);
        let e = Reader::new(&junk, false).number("n", 0, 10).unwrap_err();
        assert!(e.to_string().len() < 200, "{e}");
        let bad = String::from_utf8_lossy(b"1\n2 \xff3\n").into_owned();
        let mut r = Reader::new(&bad, false);
        r.number("a", 0, 9).unwrap();
        r.number("b", 0, 9).unwrap();
        let e = r.number("pile 1", 0, 9).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (2, "pile 1"));
        assert!(e.message.contains("invalid UTF-8"), "{e}");
        let e = Reader::new(&format!("1 {long}"), false)
            .expect_end("x")
            .unwrap_err();
        assert!(e.to_string().len() < 200, "{e}");
    }

    #[test]
    fn lenient_lifts_limits_only() {
        let mut r = Reader::new("5000 0", true);
        assert_eq!(r.limited("n", 1, 10, 1), Ok(5000));
        assert!(r.limited("m", 1, 10, 1).is_err());
    }
}

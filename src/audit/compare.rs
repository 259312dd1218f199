//! Comparing a program's output with the expected answers, case by case.
//!
//! The expected output of an input is the concatenation of each case's answer lines
//! ([`crate::problems::Problem::answer`]), so a difference can be traced to the case
//! whose answer it falls in. That is how a failing case is located inside a batch.

use serde::Serialize;

/// How outputs are compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CompareMode {
    /// Token by token: any run of whitespace (spaces, tabs, newlines, `\r`) separates
    /// tokens and is otherwise ignored, like most contest judges.
    #[default]
    Tokens,
    /// Byte for byte: each answer line followed by `\n`, nothing else.
    Exact,
}

/// The first place where an output departs from the expected one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// Index (from 0) of the case whose answer differs first.
    pub case: usize,
    /// 1-based line of the expected output where it differs (one past the last line
    /// when the program printed too much).
    pub expected_line: usize,
    /// 1-based line of the actual output where it differs.
    pub actual_line: usize,
    /// The expected token (line, with `--exact`); `None` where the output should end.
    pub expected: Option<String>,
    /// The token (line) printed instead; `None` where the output ended too early.
    pub actual: Option<String>,
}

impl Mismatch {
    /// One sentence: what was expected and what came.
    pub fn describe(&self) -> String {
        match (&self.expected, &self.actual) {
            (Some(e), Some(a)) => format!(
                "line {}: expected {e:?}, got {a:?} (answer of case {})",
                self.actual_line,
                self.case + 1
            ),
            (Some(e), None) => format!(
                "output ends at line {} where {e:?} was expected (answer of case {})",
                self.actual_line,
                self.case + 1
            ),
            (None, Some(a)) => format!(
                "line {}: extra output {a:?} after the last answer",
                self.actual_line
            ),
            (None, None) => "outputs differ".to_string(),
        }
    }
}

/// Splits bytes into whitespace-separated tokens with their 1-based line numbers.
struct Tokens<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> Tokens<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Tokens {
            bytes,
            pos: 0,
            line: 1,
        }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (&'a [u8], usize);
    fn next(&mut self) -> Option<Self::Item> {
        while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_whitespace() {
            if self.bytes[self.pos] == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
        if self.pos >= self.bytes.len() {
            return None;
        }
        let start = self.pos;
        while self.pos < self.bytes.len() && !self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        Some((&self.bytes[start..self.pos], self.line))
    }
}

fn lossy(b: &[u8]) -> String {
    const SHOW: usize = 200;
    let s = String::from_utf8_lossy(&b[..b.len().min(SHOW)]).into_owned();
    if b.len() > SHOW {
        s + "..."
    } else {
        s
    }
}

/// Compares `actual` with the answers `expected` (one entry per case, each the
/// answer's lines); `None` when they match under `mode`.
pub fn compare(expected: &[Vec<String>], actual: &[u8], mode: CompareMode) -> Option<Mismatch> {
    let last_case = expected.len().saturating_sub(1);
    match mode {
        CompareMode::Tokens => {
            let mut act = Tokens::new(actual);
            let mut line = 0;
            for (case, lines) in expected.iter().enumerate() {
                for l in lines {
                    line += 1;
                    for tok in l.split_ascii_whitespace() {
                        match act.next() {
                            Some((a, _)) if a == tok.as_bytes() => {}
                            Some((a, al)) => {
                                return Some(Mismatch {
                                    case,
                                    expected_line: line,
                                    actual_line: al,
                                    expected: Some(tok.to_string()),
                                    actual: Some(lossy(a)),
                                })
                            }
                            None => {
                                return Some(Mismatch {
                                    case,
                                    expected_line: line,
                                    actual_line: act.line,
                                    expected: Some(tok.to_string()),
                                    actual: None,
                                })
                            }
                        }
                    }
                }
            }
            act.next().map(|(a, al)| Mismatch {
                case: last_case,
                expected_line: line + 1,
                actual_line: al,
                expected: None,
                actual: Some(lossy(a)),
            })
        }
        CompareMode::Exact => {
            let mut act = actual.split(|&b| b == b'\n');
            let mut line = 0;
            for (case, lines) in expected.iter().enumerate() {
                for l in lines {
                    line += 1;
                    match act.next() {
                        Some(a) if a == l.as_bytes() => {}
                        a => {
                            return Some(Mismatch {
                                case,
                                expected_line: line,
                                actual_line: line,
                                expected: Some(l.clone()),
                                actual: a.map(lossy),
                            })
                        }
                    }
                }
            }
            // What is left must be exactly the empty piece after the final newline.
            let rest = act.next();
            let extra = act.next();
            match (rest, extra) {
                (Some(b""), None) => None,
                (None, _) => Some(Mismatch {
                    case: last_case,
                    expected_line: line,
                    actual_line: line,
                    expected: Some("(a final newline)".to_string()),
                    actual: None,
                }),
                (Some(r), _) => Some(Mismatch {
                    case: last_case,
                    expected_line: line + 1,
                    actual_line: line + 1,
                    expected: None,
                    actual: Some(lossy(r)),
                }),
            }
        }
    }
}

/// Shows an output with numbered lines, marking `mark` (1-based) with `>`; at most
/// `max_lines` lines (around the mark) and 200 characters per line.
pub fn render(text: &[u8], mark: Option<usize>, max_lines: usize) -> String {
    let lines: Vec<&[u8]> = if text.is_empty() {
        Vec::new()
    } else {
        let t = text.strip_suffix(b"\n").unwrap_or(text);
        t.split(|&b| b == b'\n').collect()
    };
    if lines.is_empty() {
        return "    (empty)\n".to_string();
    }
    let max_lines = max_lines.max(1);
    let center = mark.unwrap_or(1).saturating_sub(1).min(lines.len() - 1);
    let first = center.saturating_sub(max_lines / 2);
    let first = first.min(lines.len().saturating_sub(max_lines));
    let last = (first + max_lines).min(lines.len());
    let mut out = String::new();
    if first > 0 {
        out.push_str(&format!("    ... ({first} lines before)\n"));
    }
    for (i, l) in lines.iter().enumerate().take(last).skip(first) {
        let n = i + 1;
        let marker = if Some(n) == mark { '>' } else { ' ' };
        out.push_str(&format!("  {marker}{n:>4} | {}\n", lossy(l)));
    }
    if last < lines.len() {
        out.push_str(&format!("    ... ({} more lines)\n", lines.len() - last));
    }
    if let Some(m) = mark {
        if m > lines.len() {
            out.push_str(&format!("  >{m:>4} | (nothing)\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exp(cases: &[&[&str]]) -> Vec<Vec<String>> {
        cases
            .iter()
            .map(|c| c.iter().map(|s| s.to_string()).collect())
            .collect()
    }

    #[test]
    fn tokens_ignore_whitespace() {
        let e = exp(&[&["No"], &["Yes"]]);
        assert_eq!(compare(&e, b"No\nYes\n", CompareMode::Tokens), None);
        assert_eq!(compare(&e, b"  No   Yes", CompareMode::Tokens), None);
        assert_eq!(compare(&e, b"No\r\nYes\r\n", CompareMode::Tokens), None);
    }

    #[test]
    fn tokens_locate_the_case() {
        let e = exp(&[&["0 2 3", "1"], &["-1 -1 -1", "0"]]);
        let m = compare(&e, b"0 2 3\n1\n-1 -1 -1\n1\n", CompareMode::Tokens).unwrap();
        assert_eq!(m.case, 1);
        assert_eq!(m.expected_line, 4);
        assert_eq!(m.actual_line, 4);
        assert_eq!(m.expected.as_deref(), Some("0"));
        assert_eq!(m.actual.as_deref(), Some("1"));
        let m = compare(&e, b"0 2 3\n1\n", CompareMode::Tokens).unwrap();
        assert_eq!((m.case, m.actual), (1, None));
        let m = compare(&e, b"0 2 3 1 -1 -1 -1 0 9", CompareMode::Tokens).unwrap();
        assert_eq!(
            (m.case, m.expected, m.actual.as_deref()),
            (1, None, Some("9"))
        );
    }

    #[test]
    fn exact_is_strict() {
        let e = exp(&[&["No"], &["Yes"]]);
        assert_eq!(compare(&e, b"No\nYes\n", CompareMode::Exact), None);
        assert!(compare(&e, b"No\nYes", CompareMode::Exact).is_some());
        assert!(compare(&e, b"No\r\nYes\n", CompareMode::Exact).is_some());
        assert!(compare(&e, b"No\nYes\n\n", CompareMode::Exact).is_some());
        let m = compare(&e, b"No \nYes\n", CompareMode::Exact).unwrap();
        assert_eq!(m.case, 0);
    }

    #[test]
    fn render_marks_the_line() {
        let r = render(b"a\nb\nc\n", Some(2), 10);
        assert!(r.contains(">   2 | b"), "{r}");
        let r = render(b"a\n", Some(2), 10);
        assert!(r.contains("(nothing)"), "{r}");
        let long: Vec<u8> = (0..100)
            .flat_map(|i| format!("{i}\n").into_bytes())
            .collect();
        let r = render(&long, Some(50), 5);
        assert!(r.contains(">  50 | 49") && r.contains("more lines"), "{r}");
    }
}

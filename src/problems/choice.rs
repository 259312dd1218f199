//! Answers that are sets. An output line that prints `{any}` accepts any winning
//! move of the case, in the problem's notation: the expected answer then holds the
//! whole set, every winning move rendered, and a program's output matches when it
//! prints one of them. The set is written inside the answer line between marks that
//! no rendered text contains (control characters), so answers stay lines of text
//! everywhere they travel (comparison with the oracle's answer, shrinking, samples);
//! what prints them for a person or a program resolves each set: [`first`] (the
//! first winning move in the game's order, which `sgcheck solve` prints) or
//! [`shown`] (the set in a report).

use std::borrow::Cow;

/// Opens a set of accepted texts.
const OPEN: char = '\u{1}';
/// Separates two accepted texts.
const SEP: char = '\u{2}';
/// Closes a set.
const CLOSE: char = '\u{3}';

/// Most accepted texts a report shows of one set.
const SHOWN: usize = 6;

/// Appends the set of `texts` (at least two) to `out`, each written by `write`.
pub(crate) fn push_set<T>(
    out: &mut String,
    texts: impl IntoIterator<Item = T>,
    mut write: impl FnMut(T, &mut String),
) {
    out.push(OPEN);
    for (i, t) in texts.into_iter().enumerate() {
        if i > 0 {
            out.push(SEP);
        }
        write(t, out);
    }
    out.push(CLOSE);
}

/// Whether `line` holds a set.
pub fn has_set(line: &str) -> bool {
    line.contains(OPEN)
}

/// A piece of an answer line: text, or a set of accepted texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Text that must be printed as it is.
    Text(&'a str),
    /// Texts of which one must be printed.
    AnyOf(Vec<&'a str>),
}

/// The pieces of an answer line, in order.
pub fn pieces(line: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(open) = rest.find(OPEN) {
        if open > 0 {
            out.push(Piece::Text(&rest[..open]));
        }
        let body = &rest[open + OPEN.len_utf8()..];
        let close = body.find(CLOSE).unwrap_or(body.len());
        out.push(Piece::AnyOf(body[..close].split(SEP).collect()));
        rest = body.get(close + CLOSE.len_utf8()..).unwrap_or("");
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    out
}

/// `line` with each set replaced by its first text: what `sgcheck solve` prints.
pub fn first(line: &str) -> Cow<'_, str> {
    each_set(line, |alts| alts.first().copied().unwrap_or("").to_string())
}

/// `line` with each set written for a reader: `{any of: 1 3 | 2 5 | ... (9 in all)}`.
pub fn shown(line: &str) -> Cow<'_, str> {
    each_set(line, shown_set)
}

/// `line` with each set replaced by `text` of its texts.
fn each_set<'a>(line: &'a str, text: impl Fn(&[&str]) -> String) -> Cow<'a, str> {
    if !has_set(line) {
        return Cow::Borrowed(line);
    }
    let mut s = String::with_capacity(line.len());
    for p in pieces(line) {
        match p {
            Piece::Text(t) => s.push_str(t),
            Piece::AnyOf(alts) => s.push_str(&text(&alts)),
        }
    }
    Cow::Owned(s)
}

/// Answer lines joined by `sep`, each set written for a reader ([`shown`]).
pub fn shown_joined(lines: &[String], sep: &str) -> String {
    lines.iter().map(|l| shown(l)).collect::<Vec<_>>().join(sep)
}

/// One set written for a reader.
pub(crate) fn shown_set(alts: &[&str]) -> String {
    let mut s = String::from("{any of: ");
    s.push_str(&alts[..alts.len().min(SHOWN)].join(" | "));
    if alts.len() > SHOWN {
        s.push_str(&format!(" | ... ({} in all)", alts.len()));
    }
    s.push('}');
    s
}

/// Whether `actual` is `line` with one text of each set in its place (byte for
/// byte, as `--exact` compares).
pub fn line_matches(line: &str, actual: &str) -> bool {
    fn rest_matches(p: &[Piece<'_>], actual: &str) -> bool {
        match p.split_first() {
            None => actual.is_empty(),
            Some((Piece::Text(t), more)) => actual
                .strip_prefix(t)
                .is_some_and(|rest| rest_matches(more, rest)),
            Some((Piece::AnyOf(alts), more)) => alts.iter().any(|a| {
                actual
                    .strip_prefix(a)
                    .is_some_and(|rest| rest_matches(more, rest))
            }),
        }
    }
    rest_matches(&pieces(line), actual)
}

/// A token of an answer line as the token comparison reads it: a token, or a set of
/// accepted token sequences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// One token.
    One(&'a str),
    /// Token sequences of which one must come.
    AnyOf(Vec<Vec<&'a str>>),
}

/// The tokens of an answer line (whitespace-separated; a set is one entry, whose
/// texts stand apart from the text around them).
pub fn tokens(line: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    for p in pieces(line) {
        match p {
            Piece::Text(t) => out.extend(t.split_ascii_whitespace().map(Token::One)),
            Piece::AnyOf(alts) => out.push(Token::AnyOf(
                alts.iter()
                    .map(|a| a.split_ascii_whitespace().collect())
                    .collect(),
            )),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(texts: &[&str]) -> String {
        let mut s = String::new();
        push_set(&mut s, texts, |t, out| out.push_str(t));
        s
    }

    #[test]
    fn a_set_reads_back_resolves_and_shows() {
        let line = format!("First {}", set(&["1 3", "2 5", "3 1"]));
        assert!(has_set(&line));
        assert_eq!(
            pieces(&line),
            [
                Piece::Text("First "),
                Piece::AnyOf(vec!["1 3", "2 5", "3 1"])
            ]
        );
        assert_eq!(first(&line), "First 1 3");
        assert_eq!(shown(&line), "First {any of: 1 3 | 2 5 | 3 1}");
        assert_eq!(
            tokens(&line),
            [
                Token::One("First"),
                Token::AnyOf(vec![vec!["1", "3"], vec!["2", "5"], vec!["3", "1"]])
            ]
        );
        assert!(line_matches(&line, "First 2 5"));
        assert!(!line_matches(&line, "First 2 4"));
        assert!(!line_matches(&line, "First 2 5 "));
        assert_eq!(first("Second"), "Second");
        let many: Vec<String> = (0..9).map(|i| i.to_string()).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(
            shown(&set(&many)),
            "{any of: 0 | 1 | 2 | 3 | 4 | 5 | ... (9 in all)}"
        );
    }
}

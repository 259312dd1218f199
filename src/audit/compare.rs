//! Comparing a program's output with the expected answers, case by case.
//!
//! The expected output of an input is the concatenation of each case's answer lines
//! ([`crate::problems::Problem::answer`]), so a difference can be traced to the case
//! whose answer it falls in. That is how a failing case is located inside a batch.

use crate::problems::choice;
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
#[derive(Clone)]
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
                    if choice::has_set(l) {
                        if let Some(m) = compare_sets(l, &mut act, case, line) {
                            return Some(m);
                        }
                        continue;
                    }
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
                        Some(a)
                            if choice::has_set(l)
                                && std::str::from_utf8(a)
                                    .is_ok_and(|a| choice::line_matches(l, a)) => {}
                        a => {
                            return Some(Mismatch {
                                case,
                                expected_line: line,
                                actual_line: line,
                                expected: Some(choice::shown(l).into_owned()),
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

/// Compares the tokens of an answer line that holds a set ([`choice`]) with the
/// output read by `act`: a set matches when the next tokens are one of its texts
/// (the first that does is taken).
fn compare_sets(l: &str, act: &mut Tokens<'_>, case: usize, line: usize) -> Option<Mismatch> {
    for want in choice::tokens(l) {
        match want {
            choice::Token::One(tok) => match act.next() {
                Some((a, _)) if a == tok.as_bytes() => {}
                got => {
                    return Some(Mismatch {
                        case,
                        expected_line: line,
                        actual_line: got.map_or(act.line, |(_, al)| al),
                        expected: Some(tok.to_string()),
                        actual: got.map(|(a, _)| lossy(a)),
                    })
                }
            },
            choice::Token::AnyOf(alts) => {
                let found = alts.iter().find_map(|alt| {
                    let mut try_act = act.clone();
                    alt.iter()
                        .all(|t| try_act.next().is_some_and(|(a, _)| a == t.as_bytes()))
                        .then_some(try_act)
                });
                match found {
                    Some(rest) => *act = rest,
                    None => {
                        // What came instead: as many tokens as the first text has.
                        let width = alts.first().map_or(1, Vec::len).max(1);
                        let start = act.clone().next();
                        let got: Vec<String> =
                            act.clone().take(width).map(|(a, _)| lossy(a)).collect();
                        let texts: Vec<String> = alts.iter().map(|a| a.join(" ")).collect();
                        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
                        return Some(Mismatch {
                            case,
                            expected_line: line,
                            actual_line: start.map_or(act.line, |(_, al)| al),
                            expected: Some(choice::shown_set(&texts)),
                            actual: (!got.is_empty()).then(|| got.join(" ")),
                        });
                    }
                }
            }
        }
    }
    None
}

/// The bytes of a token or line kept for a report: [`lossy`] shows 200 of them and
/// `...` when there are more, so 201 tell it all.
const SHOWN: usize = 201;

/// [`compare`] fed in chunks as the output arrives: it holds the expected answers,
/// the token (line) being read up to `SHOWN` bytes and a few counters, never the
/// output. After the first mismatch the rest is ignored. `finish` gives exactly what
/// [`compare`] gives on the whole output, however the output was cut into chunks.
pub struct StreamCompare {
    mode: CompareMode,
    /// Tokens (`--exact`: lines) expected, in order, each with its case and its
    /// 1-based expected line.
    want: Vec<(usize, usize, String)>,
    last_case: usize,
    expected_lines: usize,
    /// Index in `want` of the next token (line) to match.
    next: usize,
    /// 1-based line of the output being read.
    line: usize,
    /// Inside a token (tokens mode); always inside a line (exact mode).
    in_piece: bool,
    /// The current piece still equals a prefix of `want[next]`.
    matching: bool,
    len: usize,
    piece_line: usize,
    shown: Vec<u8>,
    result: Option<Mismatch>,
}

impl StreamCompare {
    /// A comparison with the answers `expected` (one entry per case, each the
    /// answer's lines).
    pub fn new(expected: &[Vec<String>], mode: CompareMode) -> Self {
        let mut want = Vec::new();
        let mut line = 0;
        for (case, lines) in expected.iter().enumerate() {
            for l in lines {
                line += 1;
                match mode {
                    CompareMode::Tokens => {
                        for t in l.split_ascii_whitespace() {
                            want.push((case, line, t.to_string()));
                        }
                    }
                    CompareMode::Exact => want.push((case, line, l.clone())),
                }
            }
        }
        StreamCompare {
            mode,
            want,
            last_case: expected.len().saturating_sub(1),
            expected_lines: line,
            next: 0,
            line: 1,
            in_piece: mode == CompareMode::Exact,
            matching: true,
            len: 0,
            piece_line: 1,
            shown: Vec::new(),
            result: None,
        }
    }

    /// Whether a difference was already found (the rest of the output cannot undo it).
    pub fn differs(&self) -> bool {
        self.result.is_some()
    }

    /// The next bytes of the output.
    pub fn feed(&mut self, chunk: &[u8]) {
        for &b in chunk {
            if self.result.is_some() {
                return;
            }
            match self.mode {
                CompareMode::Tokens => {
                    if b.is_ascii_whitespace() {
                        if self.in_piece {
                            self.end_piece();
                        }
                        if b == b'\n' {
                            self.line += 1;
                        }
                    } else {
                        if !self.in_piece {
                            self.start_piece(self.line);
                        }
                        self.push(b);
                    }
                }
                CompareMode::Exact => {
                    if b == b'\n' {
                        self.end_piece();
                        self.line += 1;
                        self.start_piece(self.line);
                    } else {
                        self.push(b);
                    }
                }
            }
        }
    }

    /// The first mismatch of the whole output, or `None` when it matched.
    pub fn finish(mut self) -> Option<Mismatch> {
        if self.result.is_some() {
            return self.result;
        }
        match self.mode {
            CompareMode::Tokens => {
                if self.in_piece {
                    self.end_piece();
                }
                if self.result.is_none() {
                    if let Some((case, el, t)) = self.want.get(self.next) {
                        return Some(Mismatch {
                            case: *case,
                            expected_line: *el,
                            actual_line: self.line,
                            expected: Some(t.clone()),
                            actual: None,
                        });
                    }
                }
                self.result
            }
            CompareMode::Exact => {
                // The piece after the last newline (maybe empty).
                let n = self.want.len();
                if self.next < n {
                    if !(self.matching && self.len == self.want[self.next].2.len()) {
                        return Some(self.piece_mismatch());
                    }
                    self.next += 1;
                    return Some(match self.want.get(self.next) {
                        Some((case, el, l)) => Mismatch {
                            case: *case,
                            expected_line: *el,
                            actual_line: *el,
                            expected: Some(l.clone()),
                            actual: None,
                        },
                        None => Mismatch {
                            case: self.last_case,
                            expected_line: self.expected_lines,
                            actual_line: self.expected_lines,
                            expected: Some("(a final newline)".to_string()),
                            actual: None,
                        },
                    });
                }
                if self.len == 0 {
                    None
                } else {
                    Some(self.piece_mismatch())
                }
            }
        }
    }

    fn start_piece(&mut self, line: usize) {
        self.in_piece = true;
        self.matching = true;
        self.len = 0;
        self.piece_line = line;
        self.shown.clear();
    }

    fn push(&mut self, b: u8) {
        if self.shown.len() < SHOWN {
            self.shown.push(b);
        }
        if self.matching {
            self.matching = self
                .want
                .get(self.next)
                .is_some_and(|(_, _, w)| w.as_bytes().get(self.len) == Some(&b));
        }
        self.len += 1;
    }

    /// Ends the token (line) just read: it matches `want[next]`, or is the mismatch.
    fn end_piece(&mut self) {
        self.in_piece = false;
        match self.want.get(self.next) {
            Some((_, _, w)) if self.matching && self.len == w.len() => self.next += 1,
            _ => self.result = Some(self.piece_mismatch()),
        }
    }

    /// The token (line) just read, against `want[next]`, or past the last answer line
    /// (an extra token, or a whole extra line, even an empty one), placed at the line
    /// it is on (with `--exact`, every line before it matched, so that is also the
    /// expected line's number).
    fn piece_mismatch(&self) -> Mismatch {
        let (case, expected_line, expected) = match self.want.get(self.next) {
            Some((case, el, w)) => (*case, *el, Some(w.clone())),
            None => (self.last_case, self.expected_lines + 1, None),
        };
        Mismatch {
            case,
            expected_line,
            actual_line: self.piece_line,
            expected,
            actual: Some(lossy(&self.shown)),
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
    fn a_set_accepts_any_of_its_texts_and_nothing_else() {
        let mut line = String::from("First ");
        choice::push_set(&mut line, ["1 1", "2 2", "3 3"], |t, s| s.push_str(t));
        let e = vec![vec![line], vec!["Second".to_string()]];
        for ok in [
            "First 1 1\nSecond\n",
            "First 3 3\nSecond\n",
            "First  2\n2 Second",
        ] {
            assert_eq!(
                compare(&e, ok.as_bytes(), CompareMode::Tokens),
                None,
                "{ok}"
            );
        }
        assert_eq!(
            compare(&e, b"First 2 2\nSecond\n", CompareMode::Exact),
            None
        );
        // Another move, a move cut short, a word for a move: each differs.
        let m = compare(&e, b"First 2 3\nSecond\n", CompareMode::Tokens).unwrap();
        assert_eq!(m.expected.as_deref(), Some("{any of: 1 1 | 2 2 | 3 3}"));
        assert_eq!(m.actual.as_deref(), Some("2 3"));
        assert!(compare(&e, b"First 2\nSecond\n", CompareMode::Tokens).is_some());
        assert!(compare(&e, b"First Second\n", CompareMode::Tokens).is_some());
        let m = compare(&e, b"First 2 3\nSecond\n", CompareMode::Exact).unwrap();
        assert_eq!(
            m.expected.as_deref(),
            Some("First {any of: 1 1 | 2 2 | 3 3}")
        );
        assert!(compare(&e, b"First 2 2 \nSecond\n", CompareMode::Exact).is_some());
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

    /// Streams `actual` in the chunks cut at `cuts` (positions, in any order).
    fn streamed(
        e: &[Vec<String>],
        actual: &[u8],
        mode: CompareMode,
        cuts: &[usize],
    ) -> Option<Mismatch> {
        let mut cuts: Vec<usize> = cuts.iter().map(|&c| c % (actual.len() + 1)).collect();
        cuts.push(0);
        cuts.push(actual.len());
        cuts.sort_unstable();
        let mut s = StreamCompare::new(e, mode);
        for w in cuts.windows(2) {
            s.feed(&actual[w[0]..w[1]]);
        }
        s.finish()
    }

    #[test]
    fn streaming_equals_the_whole_comparison_on_chosen_outputs() {
        let e = exp(&[&["0 2 3", "1"], &["-1 -1 -1", "0"]]);
        let long = "7".repeat(500);
        let outputs: Vec<Vec<u8>> = vec![
            b"0 2 3\n1\n-1 -1 -1\n0\n".to_vec(),
            b"0 2 3\n1\n-1 -1 -1\n0".to_vec(),
            b"0 2 3\n1\n-1 -1 -1\n0\n\n".to_vec(),
            b"0 2 3\n1\n-1 -1 -1\n1\n".to_vec(),
            b"0 2 3\n1\n".to_vec(),
            b"0 2 3 1 -1 -1 -1 0 9".to_vec(),
            b"0 2 3 \n1\n-1 -1 -1\n0\n".to_vec(),
            b"0 2 3\r\n1\r\n-1 -1 -1\r\n0\r\n".to_vec(),
            b"".to_vec(),
            b"\n".to_vec(),
            b"0 2 33\n".to_vec(),
            b"0 2\n".to_vec(),
            format!("0 2 3\n1\n{long}\n").into_bytes(),
            format!("0 2 3\n1\n-1 -1 -1\n0\n{long}").into_bytes(),
        ];
        for out in &outputs {
            for mode in [CompareMode::Tokens, CompareMode::Exact] {
                let whole = compare(&e, out, mode);
                for cuts in [
                    &[][..],
                    &[1],
                    &[3, 7],
                    &[5, 6, 7, 8, 9, 10, 11],
                    &[200, 300],
                ] {
                    assert_eq!(
                        streamed(&e, out, mode, cuts),
                        whole,
                        "{mode:?} {:?} cut at {cuts:?}",
                        String::from_utf8_lossy(out)
                    );
                }
            }
        }
    }

    quickcheck::quickcheck! {
        fn streaming_equals_the_whole_comparison(
            answers: Vec<Vec<u8>>,
            noise: Vec<u8>,
            cuts: Vec<usize>,
            exact: bool
        ) -> bool {
            // Answers of small tokens; the output is those answers with edits drawn
            // from `noise` (some outputs match, most differ somewhere).
            let alphabet = [b'0', b'1', b' ', b'\n', b'\r', b'\t'];
            let e: Vec<Vec<String>> = answers
                .iter()
                .take(6)
                .map(|a| {
                    let toks: Vec<String> = a.iter().take(4).map(|b| (b % 3).to_string()).collect();
                    vec![toks.join(" ")]
                })
                .collect();
            let mut out: Vec<u8> = e.iter().flat_map(|c| c.iter().flat_map(|l| format!("{l}\n").into_bytes())).collect();
            for pair in noise.chunks(2) {
                if let [at, what] = *pair {
                    let at = at as usize % (out.len() + 1);
                    match what % 4 {
                        0 => out.insert(at, alphabet[what as usize % alphabet.len()]),
                        1 if at < out.len() => { out.remove(at); }
                        2 if at < out.len() => out[at] = alphabet[what as usize % alphabet.len()],
                        _ => {}
                    }
                }
            }
            let mode = if exact { CompareMode::Exact } else { CompareMode::Tokens };
            streamed(&e, &out, mode, &cuts) == compare(&e, &out, mode)
        }
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

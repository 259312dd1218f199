//! Contest problems: one module per problem of SPEC.md, each with the same skeleton:
//! parse the exact input format (strictly, naming the line and field of any error),
//! validate the limits, answer with the fast solver or the oracle, print the exact
//! output, and generate and shrink valid inputs for the audit.

use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::SearchError;
use std::fmt;

pub mod bzoj1188;
pub mod followingnim;
pub mod hdu1846;
pub mod hdu1848;
pub mod hdu2897;
pub mod hdu3032;
pub mod p2148;
pub mod p2197;
mod reader;
pub mod uva1378;

pub use reader::{ParseError, Reader};

/// What `sgcheck list` prints about a problem.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Info {
    /// Problem id (`p2197`, ...).
    pub id: &'static str,
    /// Other ids that name the same problem.
    pub aliases: &'static [&'static str],
    /// The game id it is an instance of.
    pub game: &'static str,
    /// One line: the original name and where it comes from.
    pub title: &'static str,
    /// The input format.
    pub input: &'static str,
    /// The output format.
    pub output: &'static str,
    /// The limits the parser enforces (lifted by `--lenient`).
    pub limits: &'static str,
}

/// Which kind of case a generator should aim for. Random positions of most games are
/// nearly all first-player wins; asking for losing positions on purpose keeps both
/// answers in good proportion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Whatever comes out of the random draw.
    Any,
    /// A position the player to move loses.
    Losing,
    /// A winning position with several winning moves, where the game allows it.
    ManyWinning,
}

/// One contest problem.
pub trait Problem: Sync + Send {
    /// One test case of the problem (a position, maybe with parameters).
    type Case: Clone + fmt::Debug + PartialEq + Send + Sync;

    /// The id, title, formats and limits.
    fn info(&self) -> Info;

    /// Parses a whole input. With `lenient`, limits are not enforced, but the format is.
    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<Self::Case>, ParseError>;

    /// Writes cases as one input in the problem's format (with the case count or the
    /// terminator line the format needs).
    fn write_input(&self, cases: &[Self::Case]) -> String;

    /// The fast solver's answer to case number `index` (from 0), as output lines.
    fn answer(&self, case: &Self::Case, index: usize) -> Vec<String>;

    /// The same answer computed through the exhaustive oracle.
    fn oracle_answer(
        &self,
        case: &Self::Case,
        index: usize,
        budget: usize,
    ) -> Result<Vec<String>, SearchError>;

    /// Most cases one input may hold within the limits (formats read until end of
    /// input have no official limit; they return a practical one).
    fn max_cases(&self) -> usize;

    /// Whether a case respects the limits, and if not, why.
    fn check_limits(&self, case: &Self::Case) -> Result<(), String>;

    /// Every valid case of total size `size` in a fixed order (for smallest-first
    /// enumeration); empty when there are none of that size.
    fn small_cases(&self, size: u32) -> Vec<Self::Case>;

    /// A random valid case. `scale` in 0..=1 grows the case from tiny (0) to the
    /// limits (1): number of piles and largest values.
    fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> Self::Case;

    /// Valid cases strictly smaller than `case` (fewer piles, smaller numbers), most
    /// promising first; used to shrink a failing case to a minimal one.
    fn shrink(&self, case: &Self::Case) -> Vec<Self::Case>;

    /// A few valid cases of about half the size of a large `case` (each half of its
    /// piles, say), for cases too large for [`Problem::shrink`], whose candidates are
    /// whole copies of the case: the audit cuts such a case down with these until
    /// `shrink` can take over. None by default (the audit then looks for a smaller
    /// random case that fails the same way).
    fn halves(&self, _case: &Self::Case) -> Vec<Self::Case> {
        Vec::new()
    }

    /// The case's lists of numbers, as the audit's shrinker sees them: it removes
    /// chunks of values (delta debugging) and lowers values towards their lower bound,
    /// then asks [`Problem::rebuild`] for the case. Scalars (`n m`) are a list of fixed
    /// length. Empty by default: the shrinker then uses [`Problem::shrink`] alone.
    fn parts(&self, _case: &Self::Case) -> Vec<Part> {
        Vec::new()
    }

    /// `case` with the values of its [`Problem::parts`] replaced by `values` (one list
    /// per part, in the same order), or `None` when no case has those values. The
    /// result is also checked with [`Problem::check_limits`], so this need not repeat
    /// the limits.
    fn rebuild(&self, _case: &Self::Case, _values: Vec<Vec<u64>>) -> Option<Self::Case> {
        None
    }
}

/// One list of numbers in a case (its piles, its specials, its scalars), with what the
/// shrinker may do to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The values, in input order.
    pub values: Vec<u64>,
    /// The smallest value allowed for each (0 or 1 in most formats).
    pub min_value: u64,
    /// The fewest values the list may hold.
    pub min_len: usize,
    /// Values are removed in groups of this many (2 for lists of pairs); 0 when the
    /// length is fixed.
    pub unit: usize,
}

impl Part {
    /// A list whose values may be removed one at a time, down to `min_len` of them.
    pub fn list(values: Vec<u64>, min_value: u64, min_len: usize) -> Self {
        Part {
            values,
            min_value,
            min_len,
            unit: 1,
        }
    }

    /// Values that are all there is (scalars `n m p`): only lowered, never removed.
    pub fn fixed(values: Vec<u64>, min_value: u64) -> Self {
        Part {
            min_len: values.len(),
            values,
            min_value,
            unit: 0,
        }
    }
}

/// Appends one list as most formats write it: its length on one line, the values
/// separated by spaces on the next.
pub fn write_counted(s: &mut String, values: &[u64]) {
    push_number(s, values.len() as u64);
    s.push('\n');
    // About 11 bytes a value at the limits; one reservation instead of doublings.
    s.reserve(values.len() * 11);
    for (i, &v) in values.iter().enumerate() {
        push_number(s, v);
        s.push(if i + 1 == values.len() { '\n' } else { ' ' });
    }
    if values.is_empty() {
        s.push('\n');
    }
}

/// Appends `v` in decimal (without `fmt`: inputs of 10^6 numbers are written for
/// every shrink candidate).
fn push_number(s: &mut String, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    s.push_str(std::str::from_utf8(&buf[i..]).unwrap_or_default());
}

/// Writes cases in the "T, then per case n and n values" layout.
pub fn write_counted_cases(cases: &[Vec<u64>]) -> String {
    let mut s = format!("{}\n", cases.len());
    for c in cases {
        write_counted(&mut s, c);
    }
    s
}

/// Answers a whole input with the fast solver: the output text, one line per answer.
pub fn solve_fast<P: Problem>(p: &P, cases: &[P::Case]) -> String {
    let mut out = String::new();
    for (i, c) in cases.iter().enumerate() {
        for line in p.answer(c, i) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// Answers a whole input through the oracle; fails when any case is too large.
pub fn solve_oracle<P: Problem>(
    p: &P,
    cases: &[P::Case],
    budget: usize,
) -> Result<String, (usize, SearchError)> {
    let mut out = String::new();
    for (i, c) in cases.iter().enumerate() {
        for line in p.oracle_answer(c, i, budget).map_err(|e| (i, e))? {
            out.push_str(&line);
            out.push('\n');
        }
    }
    Ok(out)
}

/// Lists of at most this many piles get every single-pile candidate; longer lists get
/// a bounded number of chunk removals, so one shrink round stays cheap at 10^4 piles.
const FINE_SHRINK_LEN: usize = 64;

/// Shrink candidates for a list of piles, most aggressive first: remove chunks of
/// piles (halves, quarters, ..., down to single piles; keeping at least `min_len`),
/// then lower one pile to 0, to half, and by one. Long lists get at most about
/// 2 * `FINE_SHRINK_LEN` chunk removals and the "halve every pile" candidate instead
/// of per-pile ones; the shrinker's repeated rounds get them short soon enough. Every
/// candidate differs from the input and from the other candidates.
pub fn shrink_piles(piles: &[u64], min_len: usize) -> Vec<Vec<u64>> {
    let n = piles.len();
    let mut out: Vec<Vec<u64>> = Vec::new();
    // Chunk removals, delta-debugging style: chunk sizes n/2, n/4, ..., 1.
    let finest = if n <= FINE_SHRINK_LEN {
        1
    } else {
        n.div_ceil(FINE_SHRINK_LEN)
    };
    let mut chunk = n / 2;
    while chunk >= finest && chunk >= 1 && n - chunk >= min_len {
        let mut start = 0;
        while start < n {
            let end = (start + chunk).min(n);
            // Removing a chunk equal to the one before it gives the same list.
            let same_as_previous =
                start >= chunk && piles[start - chunk..start] == piles[start..end];
            if !same_as_previous && n - (end - start) >= min_len {
                let mut v = Vec::with_capacity(n - (end - start));
                v.extend_from_slice(&piles[..start]);
                v.extend_from_slice(&piles[end..]);
                out.push(v);
            }
            start = end;
        }
        if chunk == 1 {
            break;
        }
        chunk /= 2;
    }
    if n > FINE_SHRINK_LEN {
        // Chunks stop at n/64 piles here, so also offer dropping one pile at either
        // end: a failure that needs "more than 1000 piles" then shrinks to exactly 1001.
        if n > min_len {
            out.push(piles[1..].to_vec());
            out.push(piles[..n - 1].to_vec());
        }
        if piles.iter().any(|&p| p > 0) {
            out.push(piles.iter().map(|&p| p / 2).collect());
        }
        return out;
    }
    for (i, &p) in piles.iter().enumerate() {
        let mut seen = [u64::MAX; 3];
        for (slot, smaller) in [0, p / 2, p.saturating_sub(1)].into_iter().enumerate() {
            if smaller < p && !seen.contains(&smaller) {
                seen[slot] = smaller;
                let mut v = piles.to_vec();
                v[i] = smaller;
                out.push(v);
            }
        }
    }
    out
}

/// Something that wants to run with one concrete problem type.
pub trait Visitor {
    /// What the visit returns.
    type Output;
    /// Called with the problem.
    fn visit<P: Problem>(self, problem: &P) -> Self::Output;
}

/// Every problem id, in SPEC.md's order.
pub const PROBLEM_IDS: &[&str] = &[
    "p2197",
    "hdu1846",
    "hdu2897",
    "hdu3032",
    "hdu1848",
    "p2148",
    "bzoj1188",
    "uva1378",
    "followingnim",
];

/// Calls `v` with the problem named `id` (or one of its aliases); `None` if unknown.
pub fn with_problem<V: Visitor>(id: &str, v: V) -> Option<V::Output> {
    Some(match id {
        "p2197" => v.visit(&p2197::P2197),
        "hdu1846" => v.visit(&hdu1846::Hdu1846),
        "hdu2897" => v.visit(&hdu2897::Hdu2897),
        "hdu3032" => v.visit(&hdu3032::Hdu3032),
        "hdu1848" => v.visit(&hdu1848::Hdu1848),
        "p2148" => v.visit(&p2148::P2148),
        "bzoj1188" | "p3185" => v.visit(&bzoj1188::Bzoj1188),
        "uva1378" => v.visit(&uva1378::Uva1378),
        "followingnim" => v.visit(&followingnim::FollowingNimProblem),
        _ => return None,
    })
}

/// The [`Info`] of every problem.
pub fn all_info() -> Vec<Info> {
    struct GetInfo;
    impl Visitor for GetInfo {
        type Output = Info;
        fn visit<P: Problem>(self, p: &P) -> Info {
            p.info()
        }
    }
    PROBLEM_IDS
        .iter()
        .filter_map(|id| with_problem(id, GetInfo))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shrink_piles_candidates_are_smaller_distinct_and_bounded() {
        let piles = vec![3, 0, 5, 5];
        let c = shrink_piles(&piles, 1);
        // Halves first, then single removals (the second 5 is skipped: same list).
        assert_eq!(c[0], vec![5, 5]);
        assert_eq!(c[1], vec![3, 0]);
        assert!(c.contains(&vec![3, 0, 5]));
        assert_eq!(c.iter().filter(|v| **v == vec![3, 0, 5]).count(), 1);
        assert!(c.contains(&vec![0, 0, 5, 5]) && c.contains(&vec![3, 0, 2, 5]));
        for v in &c {
            assert!(v.len() < piles.len() || v.iter().sum::<u64>() < piles.iter().sum());
        }
        let mut sorted = c.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), c.len(), "duplicate candidates");
        // min_len is respected.
        assert!(shrink_piles(&[1, 2], 2).iter().all(|v| v.len() == 2));
        // 10^4 piles: a bounded number of candidates.
        let big: Vec<u64> = (0..10_000).collect();
        let c = shrink_piles(&big, 1);
        assert!(c.len() <= 2 * FINE_SHRINK_LEN + 8, "{} candidates", c.len());
        assert!(c
            .iter()
            .all(|v| v.len() < big.len() || v.iter().sum::<u64>() < big.iter().sum()));
    }
}

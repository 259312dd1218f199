//! Contest problems as declarations.
//!
//! A contest problem is a game in an input format. Each one is declared in a TOML file
//! (`corpus/problems/<id>.toml` for the built-in ones, embedded in the binary; any file
//! with `--problem FILE`): which game, where the rules' parameters and the position come
//! from, the input layout with its bounds and constraints, and the answer printed. The
//! format engine ([`Declared`], one implementation of [`Problem`] for all of them)
//! derives parsing with line and field errors, writing, limit checks, smallest-first
//! enumeration, random and limit generation, shrinking and halving. The games' side
//! comes from [`crate::games::declared`].

use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::SearchError;
use std::fmt;
use std::sync::OnceLock;

/// Where the first invalid UTF-8 byte of `bytes` is: its byte offset and its line
/// (1-based), for error messages.
pub(crate) fn utf8_error_place(bytes: &[u8], e: std::str::Utf8Error) -> (usize, usize) {
    let at = e.valid_up_to();
    (at, 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count())
}

pub mod choice;
pub mod declaration;
mod engine;
pub mod fuzz;
mod game_table;
pub mod known;
mod reader;
#[cfg(test)]
mod tests_base;
#[cfg(test)]
mod tests_declared;
#[cfg(test)]
mod tests_formats;
#[cfg(test)]
mod tests_group;
mod tier3;

pub use declaration::{DeclarationError, FORMAT};
pub use engine::{shrink_list, Case, Declared};
pub use reader::{ParseError, Reader};
pub use tier3::{verify_declared_game, verify_problem, verify_problems_of, Numbers};

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
    /// Where the declaration comes from: `built-in corpus/problems/<id>.toml`, or the
    /// file given with `--problem`.
    pub source: &'static str,
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
    type Case: Clone + fmt::Debug + PartialEq + Send + Sync + 'static;

    /// The id, title, formats and limits.
    fn info(&self) -> Info;

    /// Parses a whole input. With `lenient`, limits are not enforced, but the format is.
    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<Self::Case>, ParseError>;

    /// Writes cases as one input in the problem's format (with the case count or the
    /// terminator line the format needs).
    fn write_input(&self, cases: &[Self::Case]) -> String;

    /// The fast solver's answer to case number `index` (from 0), as output lines; `Err`
    /// says why the problem could not answer the case (a declared script that threw
    /// or hit a limit). Such a case is unanswerable: it has no expected answer, so the
    /// audit, tier 3 and packages skip it and count it; it is never given a verdict.
    fn answer(&self, case: &Self::Case, index: usize) -> Result<Vec<String>, String>;

    /// The fast solver's answer to a whole input (`sgcheck solve`): every case's
    /// [`Problem::answer`], one line per output line. The default parses the whole
    /// input, then answers; a problem may answer each case as it is read instead, so
    /// that a large input is never held as cases. Nothing is answered when the input
    /// does not parse, or when a case cannot be answered.
    fn solve_text(&self, input: &str, lenient: bool) -> Result<String, SolveError>
    where
        Self: Sized,
    {
        let cases = self.parse(input, lenient).map_err(SolveError::Parse)?;
        solve_fast(self, &cases).map_err(|(case, why)| SolveError::Unanswerable { case, why })
    }

    /// The same answer computed through the exhaustive oracle.
    fn oracle_answer(
        &self,
        case: &Self::Case,
        index: usize,
        budget: usize,
    ) -> Result<Vec<String>, SearchError>;

    /// Why the rules of a case are invalid (parameters out of the game's domain), or
    /// `None` when they are valid (the default). Tier 3 counts a generated case with
    /// invalid rules as a failure of the generator, not as a skipped case.
    fn rules_error(&self, _case: &Self::Case) -> Option<String> {
        None
    }

    /// Checks, by a computation independent of it, each claim of the declaration that
    /// [`Problem::answer`] rests on for `case` (a declared closed form at states past
    /// those checked when the declaration was read), by `until` at the latest: `Ok`
    /// when there is none (the default: built-in solvers and declared games whose
    /// fast side computes from the rules) or each one checks out. The audit asks
    /// before it blames a program on an expected answer the oracle did not confirm.
    fn confirm_claims(
        &self,
        _case: &Self::Case,
        _until: std::time::Instant,
    ) -> Result<(), crate::games::declared::Claim> {
        Ok(())
    }

    /// Most cases one input may hold within the limits (formats read until end of
    /// input have no official limit; they return a practical one).
    fn max_cases(&self) -> usize;

    /// An upper bound on the numbers one case within the limits holds, when the
    /// format gives one (what `sgcheck solve` reads at most is derived from it); `None`
    /// (the default) when it does not.
    fn max_numbers_per_case(&self) -> Option<u64> {
        None
    }

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

    /// Inputs whose right output is known: the statement's samples (a declaration's
    /// `[[sample]]`s), and for a built-in problem the known answers of
    /// `corpus/samples/<id>.toml`. `verify` and `audit` check them before anything else.
    fn samples(&self) -> Vec<known::KnownCase> {
        Vec::new()
    }

    /// The corners of the problem's limits, in the order the audit tries them before
    /// its random cases: every value at its highest, the deepest case (values high,
    /// lists short with their smallest positive values, trees as paths), every value at
    /// its lowest, and mixes of these. The same for every seed; none by default.
    fn corner_cases(&self) -> Vec<Self::Case> {
        Vec::new()
    }

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

    /// The game's view of part `part` of a case ([`Problem::parts`]): the Grundy value
    /// of each unit of `values` (the part's values, or any others the part could
    /// hold), when the units are independent components of a sum of games (the
    /// verdict is whether their XOR is nonzero). `None` (the default) when the part is
    /// not such a list. The audit's shrinker uses these values to change a case
    /// without changing its true answer (see `docs/src/shrinking.md`).
    fn component_values(
        &self,
        _case: &Self::Case,
        _part: usize,
        _values: &[u64],
    ) -> Option<Vec<u64>> {
        None
    }

    /// The smallest unit of part `part` worth `value` (its numbers, `unit` of them),
    /// within the part's bounds; `None` when there is none or it is not known. Only
    /// asked where [`Problem::component_values`] answers.
    fn smallest_component(
        &self,
        _case: &Self::Case,
        _part: usize,
        _value: u64,
    ) -> Option<Vec<u64>> {
        None
    }

    /// The size of a case in the order of [`Problem::small_cases`] (how far its numbers
    /// and lengths are above their minimums), or `None` when the problem has no such
    /// order (the default).
    fn case_size(&self, _case: &Self::Case) -> Option<u64> {
        None
    }

    /// Every valid case of size `size` ([`Problem::case_size`]), with no cap on list
    /// lengths (unlike [`Problem::small_cases`]), or `None` when they are too many to
    /// hold (more than `cap`) or the problem cannot list them (the default). The
    /// audit's minimality check runs them to say that no smaller input fails.
    fn all_cases_of_size(&self, _size: u64, _cap: usize) -> Option<Vec<Self::Case>> {
        None
    }

    /// The Grundy value of the case's position, when the game knows it (the XOR of its
    /// components' values; a tree's value); `None` (the default) otherwise. The
    /// audit's shrinker keeps it while it changes a tree.
    fn position_value(&self, _case: &Self::Case) -> Option<u64> {
        None
    }

    /// Smaller cases that changing the parts' values one by one cannot reach: the
    /// vertices of a graph renumbered onto 1..=k, k the vertices in use. The audit's
    /// shrinker tries them after the parts; none by default.
    fn renumbered(&self, _case: &Self::Case) -> Vec<Self::Case> {
        Vec::new()
    }

    /// The case's position when it is one rooted tree: its edges `u v`, flat, on the
    /// vertices 1..=n with root 1 (see [`crate::tree`]); `None` (the default) for
    /// every other case. The audit's shrinker cuts such a tree along its shape (the
    /// deepest path, a depth or a size bisected) and keeps its value.
    fn tree(&self, _case: &Self::Case) -> Option<Vec<u64>> {
        None
    }

    /// `case` with its tree ([`Problem::tree`]) replaced by `flat`, or `None` when that
    /// is not a valid case (the result is also checked with
    /// [`Problem::check_limits`]).
    fn with_tree(&self, _case: &Self::Case, _flat: Vec<u64>) -> Option<Self::Case> {
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

/// Answers a whole input with the fast solver: the output text, one line per answer;
/// the first case it could not answer (its index from 0) and why, otherwise.
pub fn solve_fast<P: Problem + ?Sized>(
    p: &P,
    cases: &[P::Case],
) -> Result<String, (usize, String)> {
    let mut out = String::new();
    for (i, c) in cases.iter().enumerate() {
        for line in p.answer(c, i).map_err(|e| (i, e))? {
            // A set of accepted answers prints as its first one.
            out.push_str(&choice::first(&line));
            out.push('\n');
        }
    }
    Ok(out)
}

/// Why `sgcheck solve` printed no answer.
#[derive(Debug)]
pub enum SolveError {
    /// The input does not parse (or breaks a limit).
    Parse(ParseError),
    /// The problem could not answer a case (see [`Problem::answer`]).
    Unanswerable {
        /// The case, from 0.
        case: usize,
        /// Why.
        why: String,
    },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Parse(e) => write!(f, "{e}"),
            SolveError::Unanswerable { case, why } => write!(
                f,
                "case {}: the declaration could not answer it: {why}",
                case + 1
            ),
        }
    }
}

impl std::error::Error for SolveError {}

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

/// Shrink candidates for a list of piles (any value down to 0, at least `min_len`
/// piles): [`shrink_list`] with steps of one pile.
pub fn shrink_piles(piles: &[u64], min_len: usize) -> Vec<Vec<u64>> {
    shrink_list(piles, min_len, 1, 0)
}

/// Something that wants to run with one concrete problem type.
pub trait Visitor {
    /// What the visit returns.
    type Output;
    /// Called with the problem.
    fn visit<P: Problem>(self, problem: &P) -> Self::Output;
}

/// The built-in declarations, in the order `sgcheck list` shows them: (id, text).
pub const BUILTIN: &[(&str, &str)] = &[
    ("p2197", include_str!("../../corpus/problems/p2197.toml")),
    (
        "hdu1846",
        include_str!("../../corpus/problems/hdu1846.toml"),
    ),
    (
        "hdu2897",
        include_str!("../../corpus/problems/hdu2897.toml"),
    ),
    (
        "hdu3032",
        include_str!("../../corpus/problems/hdu3032.toml"),
    ),
    (
        "hdu1848",
        include_str!("../../corpus/problems/hdu1848.toml"),
    ),
    ("p2148", include_str!("../../corpus/problems/p2148.toml")),
    (
        "bzoj1188",
        include_str!("../../corpus/problems/bzoj1188.toml"),
    ),
    (
        "uva1378",
        include_str!("../../corpus/problems/uva1378.toml"),
    ),
    (
        "followingnim",
        include_str!("../../corpus/problems/followingnim.toml"),
    ),
    (
        "hdu3980",
        include_str!("../../corpus/problems/hdu3980.toml"),
    ),
    (
        "hdu5795",
        include_str!("../../corpus/problems/hdu5795.toml"),
    ),
    ("p4279", include_str!("../../corpus/problems/p4279.toml")),
    (
        "poj1704",
        include_str!("../../corpus/problems/poj1704.toml"),
    ),
    (
        "hdu1536",
        include_str!("../../corpus/problems/hdu1536.toml"),
    ),
    (
        "hdu1850",
        include_str!("../../corpus/problems/hdu1850.toml"),
    ),
    (
        "hdu2176",
        include_str!("../../corpus/problems/hdu2176.toml"),
    ),
    (
        "hdu1527",
        include_str!("../../corpus/problems/hdu1527.toml"),
    ),
    (
        "hdu2149",
        include_str!("../../corpus/problems/hdu2149.toml"),
    ),
    (
        "hdu3094",
        include_str!("../../corpus/problems/hdu3094.toml"),
    ),
];

/// Every built-in problem id, in the order of [`BUILTIN`].
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
    "hdu3980",
    "hdu5795",
    "p4279",
    "poj1704",
    "hdu1536",
    "hdu1850",
    "hdu2176",
    "hdu1527",
    "hdu2149",
    "hdu3094",
];

/// Aliases of the built-in problems (also declared in their files; a test keeps the
/// two in step), so that one problem is found without reading every declaration.
const BUILTIN_ALIASES: &[(&str, &str)] = &[
    ("p3185", "bzoj1188"),
    ("bzoj1022", "p4279"),
    ("poj2960", "hdu1536"),
];

/// The built-in problem number `i` of [`BUILTIN`], read from its declaration once.
///
/// Panics if a built-in declaration is malformed (a test reads them all).
fn builtin_at(i: usize) -> &'static Declared {
    static ALL: [OnceLock<Declared>; BUILTIN.len()] = [const { OnceLock::new() }; BUILTIN.len()];
    ALL[i].get_or_init(|| {
        let (id, text) = BUILTIN[i];
        Declared::from_toml(text, &format!("built-in corpus/problems/{id}.toml"))
            .unwrap_or_else(|e| panic!("built-in declaration: {e}"))
    })
}

/// The built-in problems, in the order of [`BUILTIN`].
pub fn builtins() -> Vec<&'static Declared> {
    (0..BUILTIN.len()).map(builtin_at).collect()
}

/// The built-in problem named `id` (or one of its aliases).
pub fn builtin(id: &str) -> Option<&'static Declared> {
    let id = BUILTIN_ALIASES
        .iter()
        .find(|(alias, _)| *alias == id)
        .map_or(id, |(_, to)| to);
    BUILTIN.iter().position(|(b, _)| *b == id).map(builtin_at)
}

/// Calls `v` with the problem named `id` (or one of its aliases); `None` if unknown.
pub fn with_problem<V: Visitor>(id: &str, v: V) -> Option<V::Output> {
    builtin(id).map(|p| v.visit(p))
}

/// The [`Info`] of every built-in problem.
pub fn all_info() -> Vec<Info> {
    builtins().into_iter().map(Problem::info).collect()
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
        assert!(c.len() <= 2 * 64 + 8, "{} candidates", c.len());
        assert!(c
            .iter()
            .all(|v| v.len() < big.len() || v.iter().sum::<u64>() < big.iter().sum()));
    }
}

/// Test helpers: p2197 with plain lists of piles as cases, for tests of the layers
/// above that build cases by hand.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// The built-in p2197, its cases as the list of piles.
    pub struct P2197;

    fn p() -> &'static Declared {
        builtin("p2197").expect("built-in")
    }

    fn case(piles: &[u64]) -> Case {
        p().case(vec![piles.to_vec()])
    }

    fn piles(c: Case) -> Vec<u64> {
        p().fields(&c).into_iter().next().unwrap_or_default()
    }

    /// p2197 whose rules count as invalid on the cases `invalid` picks: a planted
    /// generator failure for tier 3's tests.
    pub struct InvalidWhen(pub fn(&Vec<u64>) -> bool);

    impl Problem for InvalidWhen {
        type Case = Vec<u64>;
        fn info(&self) -> Info {
            P2197.info()
        }
        fn parse(&self, input: &str, lenient: bool) -> Result<Vec<Vec<u64>>, ParseError> {
            P2197.parse(input, lenient)
        }
        fn write_input(&self, cases: &[Vec<u64>]) -> String {
            P2197.write_input(cases)
        }
        fn answer(&self, c: &Vec<u64>, index: usize) -> Result<Vec<String>, String> {
            P2197.answer(c, index)
        }
        fn oracle_answer(
            &self,
            c: &Vec<u64>,
            index: usize,
            budget: usize,
        ) -> Result<Vec<String>, SearchError> {
            P2197.oracle_answer(c, index, budget)
        }
        fn rules_error(&self, c: &Vec<u64>) -> Option<String> {
            (self.0)(c).then(|| "planted: rules out of the game's domain".to_string())
        }
        fn max_cases(&self) -> usize {
            P2197.max_cases()
        }
        fn check_limits(&self, c: &Vec<u64>) -> Result<(), String> {
            P2197.check_limits(c)
        }
        fn small_cases(&self, size: u32) -> Vec<Vec<u64>> {
            P2197.small_cases(size)
        }
        fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> Vec<u64> {
            P2197.generate(rng, scale, shape)
        }
        fn shrink(&self, c: &Vec<u64>) -> Vec<Vec<u64>> {
            P2197.shrink(c)
        }
    }

    impl Problem for P2197 {
        type Case = Vec<u64>;
        fn info(&self) -> Info {
            p().info()
        }
        fn parse(&self, input: &str, lenient: bool) -> Result<Vec<Vec<u64>>, ParseError> {
            Ok(p().parse(input, lenient)?.into_iter().map(piles).collect())
        }
        fn write_input(&self, cases: &[Vec<u64>]) -> String {
            let cases: Vec<Case> = cases.iter().map(|c| case(c)).collect();
            p().write_input(&cases)
        }
        fn answer(&self, c: &Vec<u64>, index: usize) -> Result<Vec<String>, String> {
            p().answer(&case(c), index)
        }
        fn oracle_answer(
            &self,
            c: &Vec<u64>,
            index: usize,
            budget: usize,
        ) -> Result<Vec<String>, SearchError> {
            p().oracle_answer(&case(c), index, budget)
        }
        fn max_cases(&self) -> usize {
            p().max_cases()
        }
        fn check_limits(&self, c: &Vec<u64>) -> Result<(), String> {
            p().check_limits(&case(c))
        }
        fn small_cases(&self, size: u32) -> Vec<Vec<u64>> {
            p().small_cases(size).into_iter().map(piles).collect()
        }
        fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> Vec<u64> {
            piles(p().generate(rng, scale, shape))
        }
        fn shrink(&self, c: &Vec<u64>) -> Vec<Vec<u64>> {
            p().shrink(&case(c)).into_iter().map(piles).collect()
        }
        fn halves(&self, c: &Vec<u64>) -> Vec<Vec<u64>> {
            p().halves(&case(c)).into_iter().map(piles).collect()
        }
        fn parts(&self, c: &Vec<u64>) -> Vec<Part> {
            p().parts(&case(c))
        }
        fn rebuild(&self, c: &Vec<u64>, values: Vec<Vec<u64>>) -> Option<Vec<u64>> {
            p().rebuild(&case(c), values).map(piles)
        }
    }
}

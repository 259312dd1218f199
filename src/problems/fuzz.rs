//! The `<problem>_parse` fuzz targets, and the catalogue of every fuzz target.
//!
//! A parse target feeds arbitrary bytes to one problem's parser: they must give an
//! answer or a clean error, never a panic, and an accepted input must round-trip
//! (written out again and re-parsed, it gives the same cases and the same answer).
//! The catalogue ([`targets`], [`replay`]) lists the games' `<game>_agree` targets
//! from the registry, `bash_check_case` (a target written as a user writes one), and
//! the parse targets; `tests/fuzz_corpus.rs` replays every committed corpus file
//! through it.

use super::{solve_fast, with_problem, Problem, Visitor};
use crate::fuzzing::{check_case, decode, Checked};
use arbitrary::{Arbitrary, Unstructured};
use sgcheck_oracles::games::bash::Bash;
use std::fmt;

/// Asserts that parsing arbitrary bytes never panics and that accepted inputs
/// round-trip through `write_input`.
pub fn parse_round_trip<P: Problem>(p: &P, bytes: &[u8]) -> Checked {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Checked::Rejected;
    };
    let Ok(cases) = p.parse(text, false) else {
        return Checked::Kept;
    };
    let answer = solve_fast(p, &cases);
    let again = p.write_input(&cases);
    let reparsed = p.parse(&again, false).unwrap_or_else(|e| {
        panic!(
            "{}: written input does not parse ({e}):\n{again}",
            p.info().id
        )
    });
    assert_eq!(
        reparsed,
        cases,
        "{}: round trip changed the cases",
        p.info().id
    );
    assert_eq!(
        solve_fast(p, &reparsed),
        answer,
        "{}: round trip changed the answer",
        p.info().id
    );
    Checked::Kept
}

/// The input of a `<problem>_parse` target: raw bytes for one problem's parser.
/// `Debug` prints the command that feeds them to `sgcheck solve`.
pub trait ParseTarget {
    /// The problem id.
    const PROBLEM: &'static str;
    /// The bytes given to the parser.
    fn bytes(&self) -> &[u8];
}

/// Declares the input type of one `<problem>_parse` target.
macro_rules! parse_target {
    ($name:ident, $id:literal) => {
        #[doc = concat!("Raw input for the `", $id, "_parse` target.")]
        #[derive(Clone, PartialEq, Eq)]
        pub struct $name(pub Vec<u8>);

        impl ParseTarget for $name {
            const PROBLEM: &'static str = $id;
            fn bytes(&self) -> &[u8] {
                &self.0
            }
        }

        impl<'a> Arbitrary<'a> for $name {
            fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
                let len = u.arbitrary_len::<u8>()?;
                Ok($name(u.bytes(len)?.to_vec()))
            }
            fn arbitrary_take_rest(u: Unstructured<'a>) -> arbitrary::Result<Self> {
                Ok($name(u.take_rest().to_vec()))
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let text = String::from_utf8_lossy(&self.0);
                write!(
                    f,
                    "printf '%s' {} | sgcheck solve {}",
                    crate::shell::quote(&text),
                    $id
                )
            }
        }
    };
}

parse_target!(P2197Parse, "p2197");
parse_target!(Hdu1846Parse, "hdu1846");
parse_target!(Hdu2897Parse, "hdu2897");
parse_target!(Hdu3032Parse, "hdu3032");
parse_target!(Hdu1848Parse, "hdu1848");
parse_target!(P2148Parse, "p2148");
parse_target!(Bzoj1188Parse, "bzoj1188");
parse_target!(Uva1378Parse, "uva1378");
parse_target!(FollowingnimParse, "followingnim");
parse_target!(Hdu3980Parse, "hdu3980");
parse_target!(Hdu5795Parse, "hdu5795");
parse_target!(P4279Parse, "p4279");
parse_target!(Poj1704Parse, "poj1704");
parse_target!(Hdu1536Parse, "hdu1536");
parse_target!(Hdu1850Parse, "hdu1850");
parse_target!(Hdu2176Parse, "hdu2176");
parse_target!(Hdu1527Parse, "hdu1527");
parse_target!(Hdu2149Parse, "hdu2149");
parse_target!(Hdu3094Parse, "hdu3094");

/// The body of every `<problem>_parse` target.
pub fn check_parse<I: ParseTarget>(input: &I) -> Checked {
    struct Run<'a>(&'a [u8]);
    impl Visitor for Run<'_> {
        type Output = Checked;
        fn visit<P: Problem>(self, p: &P) -> Checked {
            parse_round_trip(p, self.0)
        }
    }
    with_problem(I::PROBLEM, Run(input.bytes())).expect("fuzz targets name known problems")
}

/// The parse targets, in the order of `fuzz/fuzz_targets`' listing in the README.
pub const PARSE_TARGETS: &[&str] = &[
    "p2197_parse",
    "hdu1846_parse",
    "hdu2897_parse",
    "hdu3032_parse",
    "hdu1848_parse",
    "p2148_parse",
    "bzoj1188_parse",
    "uva1378_parse",
    "followingnim_parse",
    "hdu3980_parse",
    "hdu5795_parse",
    "p4279_parse",
    "poj1704_parse",
    "hdu1536_parse",
    "hdu1850_parse",
    "hdu2176_parse",
    "hdu1527_parse",
    "hdu2149_parse",
    "hdu3094_parse",
];

/// The user-style target: `check_case` on `Case<Bash>` with sgcheck's own solver.
pub const CHECK_CASE_TARGET: &str = "bash_check_case";

/// The target that takes any declaration file: [`check_declared`].
pub const DECLARED_TARGET: &str = "declared_check";

/// The environment variable naming the declaration [`check_declared`] fuzzes
/// (`SGCHECK_FUZZ_DECLARATION=my.toml cargo fuzz run --sanitizer none -O
/// declared_check`); without it, `examples/problems/dawson.toml` (a game declared by
/// its rules).
pub const DECLARATION_ENV: &str = "SGCHECK_FUZZ_DECLARATION";

/// Oracle positions one input of [`check_declared`] may explore.
const DECLARED_BUDGET: usize = 200_000;

/// The most wall time the oracle may take on one input of [`check_declared`].
const DECLARED_QUERY_TIME: std::time::Duration = std::time::Duration::from_millis(250);

/// The declaration [`check_declared`] fuzzes, read once per process. Panics with the
/// reason when the file named by [`DECLARATION_ENV`] cannot be read or declared: the
/// target has nothing to check then.
fn fuzzed_declaration() -> &'static super::Declared {
    static DECL: std::sync::OnceLock<super::Declared> = std::sync::OnceLock::new();
    DECL.get_or_init(|| {
        let (text, name) = match std::env::var_os(DECLARATION_ENV).filter(|p| !p.is_empty()) {
            Some(path) => (
                std::fs::read_to_string(&path).unwrap_or_else(|e| {
                    panic!("{DECLARATION_ENV}={}: {e}", path.to_string_lossy())
                }),
                path.to_string_lossy().into_owned(),
            ),
            None => (
                include_str!("../../examples/problems/dawson.toml").to_string(),
                "examples/problems/dawson.toml".to_string(),
            ),
        };
        super::Declared::from_toml(&text, &name).unwrap_or_else(|e| panic!("{e}"))
    })
}

/// The body of the `declared_check` target: the fuzzer's bytes choose one small case of
/// the declared problem (a size from the first byte, then one of the cases of that size,
/// in the smallest-first enumeration of `verify`, from the next four); `solve`'s answer
/// to it (the fast side) must equal the answer computed through the oracle, as in tier
/// 3 of `verify --problem`. The sizes go up to [`DECLARED_MAX_SIZE`], and stop at the
/// first size with more than [`DECLARED_MAX_CASES`] cases (a graph's or a record's
/// cases multiply quickly). A case the oracle cannot finish within its budget (200,000
/// positions, 250 ms), or outside what the rules take, is rejected.
pub fn check_declared(data: &[u8]) -> Checked {
    // The declaration's cases by size, enumerated once per process.
    static CASES: [std::sync::OnceLock<Vec<super::Case>>; DECLARED_MAX_SIZE as usize + 1] =
        [const { std::sync::OnceLock::new() }; DECLARED_MAX_SIZE as usize + 1];
    static TOP: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let p = fuzzed_declaration();
    let cases_of = |size: u32| CASES[size as usize].get_or_init(|| p.small_cases(size));
    let top = *TOP.get_or_init(|| top_size(|size| cases_of(size).len()));
    check_declared_with(p, data, top, |size| cases_of(size).as_slice())
}

/// The largest case size [`check_declared`] draws from.
pub const DECLARED_MAX_SIZE: u32 = 20;

/// The most cases of one size [`check_declared`] enumerates: past it, larger sizes are
/// not drawn.
pub const DECLARED_MAX_CASES: usize = 20_000;

/// The largest size drawn: the first with more than [`DECLARED_MAX_CASES`] cases, or
/// [`DECLARED_MAX_SIZE`].
fn top_size(mut count_of: impl FnMut(u32) -> usize) -> u32 {
    (0..=DECLARED_MAX_SIZE)
        .find(|&size| count_of(size) > DECLARED_MAX_CASES)
        .unwrap_or(DECLARED_MAX_SIZE)
}

/// [`check_declared`] on the declared problem `p` (its cases enumerated afresh).
pub fn check_declared_case(p: &super::Declared, data: &[u8]) -> Checked {
    let top = top_size(|size| p.small_cases(size).len());
    let mut cases = Vec::new();
    check_declared_with(p, data, top, |size| {
        cases = p.small_cases(size);
        &cases
    })
}

fn check_declared_with<'a>(
    p: &super::Declared,
    data: &[u8],
    top: u32,
    cases_of: impl FnOnce(u32) -> &'a [super::Case],
) -> Checked {
    let size = u32::from(data.first().copied().unwrap_or(0)) % (top + 1);
    let mut index = [0u8; 4];
    for (i, b) in index.iter_mut().zip(data.iter().skip(1)) {
        *i = *b;
    }
    let index = u32::from_le_bytes(index) as usize;
    let cases = cases_of(size);
    if cases.is_empty() {
        return Checked::Rejected;
    }
    let case = &cases[index % cases.len()];
    if p.rules_error(case).is_some() {
        return Checked::Rejected;
    }
    // An oracle query past DECLARED_QUERY_TIME rejects the input: a game whose moves
    // leave many components (Ruler) explores its budget slowly, and a fuzzer wants
    // many short runs.
    let deadline = std::time::Instant::now() + DECLARED_QUERY_TIME;
    match super::tier3::compare_case(p, case, DECLARED_BUDGET, Some(deadline)) {
        Err(_) => Checked::Rejected,
        Ok(None) => Checked::Kept,
        Ok(Some(mut d)) => {
            // The declaration is a file: the command names it, not the problem's id.
            let input = p.write_input(std::slice::from_ref(case));
            d.reproduce = format!(
                "printf '%s' {} | {} solve --problem DECLARATION --engine oracle",
                crate::shell::quote(&input),
                crate::shell::program()
            );
            panic!("{}: {d}", p.info().id)
        }
    }
}

/// Every fuzz target's name: the games' agree targets (registry order), the
/// user-style target, the target of any declaration, then the parse targets.
pub fn targets() -> Vec<String> {
    crate::registry::GAMES
        .iter()
        .filter_map(|g| g.fuzz_target())
        .chain(std::iter::once(CHECK_CASE_TARGET.to_string()))
        .chain(std::iter::once(DECLARED_TARGET.to_string()))
        .chain(PARSE_TARGETS.iter().map(|t| t.to_string()))
        .collect()
}

/// Decodes `data` for the target `name` and runs its check; `None` for an unknown
/// target or an input that does not decode.
pub fn replay(name: &str, data: &[u8]) -> Option<Checked> {
    if let Some(g) = crate::registry::GAMES
        .iter()
        .find(|g| g.fuzz_target().as_deref() == Some(name))
    {
        return g.fuzz(data);
    }
    Some(match name {
        DECLARED_TARGET => check_declared(data),
        CHECK_CASE_TARGET => check_case(
            &decode::<crate::Case<Bash>>(data)?,
            crate::games::bash::analyze,
        ),
        "p2197_parse" => check_parse(&decode::<P2197Parse>(data)?),
        "hdu1846_parse" => check_parse(&decode::<Hdu1846Parse>(data)?),
        "hdu2897_parse" => check_parse(&decode::<Hdu2897Parse>(data)?),
        "hdu3032_parse" => check_parse(&decode::<Hdu3032Parse>(data)?),
        "hdu1848_parse" => check_parse(&decode::<Hdu1848Parse>(data)?),
        "p2148_parse" => check_parse(&decode::<P2148Parse>(data)?),
        "bzoj1188_parse" => check_parse(&decode::<Bzoj1188Parse>(data)?),
        "uva1378_parse" => check_parse(&decode::<Uva1378Parse>(data)?),
        "followingnim_parse" => check_parse(&decode::<FollowingnimParse>(data)?),
        "hdu3980_parse" => check_parse(&decode::<Hdu3980Parse>(data)?),
        "hdu5795_parse" => check_parse(&decode::<Hdu5795Parse>(data)?),
        "p4279_parse" => check_parse(&decode::<P4279Parse>(data)?),
        "poj1704_parse" => check_parse(&decode::<Poj1704Parse>(data)?),
        "hdu1536_parse" => check_parse(&decode::<Hdu1536Parse>(data)?),
        "hdu1850_parse" => check_parse(&decode::<Hdu1850Parse>(data)?),
        "hdu2176_parse" => check_parse(&decode::<Hdu2176Parse>(data)?),
        "hdu1527_parse" => check_parse(&decode::<Hdu1527Parse>(data)?),
        "hdu2149_parse" => check_parse(&decode::<Hdu2149Parse>(data)?),
        "hdu3094_parse" => check_parse(&decode::<Hdu3094Parse>(data)?),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Take 1 or 2 from a heap, scripted; `planted` gives a closed form that is right
    /// on the box it is checked on (heaps 0..=3) and wrong beyond it.
    fn take12(planted: bool) -> super::super::Declared {
        let value = if planted {
            "if n <= 3 { n % 3 } else { (n + 1) % 3 }"
        } else {
            "n % 3"
        };
        let text = format!(
            r#"format = 2
id = "take12"
title = "Take 1 or 2"
position = ["heaps"]

[game]
script = """
fn moves(s) {{ let n = s[0]; let out = []; for k in 1..=2 {{ if k <= n {{ out.push([[n - k]]); }} }} out }}
fn value(s) {{ let n = s[0]; {value} }}
"""
check_states = [[0], [3]]

[input]
cases = "count"
count = {{ what = "T", min = 1, max = 10 }}

[[field]]
name = "heaps"
min = 0
max = 40
inline = true
length = {{ what = "n", min = 1, max = 3 }}

[output]
lines = ["{{verdict}}"]
win = "First"
lose = "Second"
"#
        );
        super::super::Declared::from_toml(&text, "take12.toml").unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_declared_target_catches_a_wrong_closed_form() {
        let right = take12(false);
        let wrong = take12(true);
        let seeds: Vec<Vec<u8>> = (0u8..=255)
            .map(|i| vec![i, i.wrapping_mul(7), 0, 0, 0])
            .collect();
        let mut kept = 0;
        for d in &seeds {
            if check_declared_case(&right, d) == Checked::Kept {
                kept += 1;
            }
        }
        assert!(kept > 200, "only {kept} of {} inputs checked", seeds.len());
        let caught = seeds
            .iter()
            .any(|d| crate::guard::catch_quiet(|| check_declared_case(&wrong, d)).is_err());
        assert!(caught, "the wrong closed form went unnoticed");
    }

    #[test]
    fn the_default_declaration_is_read() {
        assert_eq!(fuzzed_declaration().info().id, "dawson");
    }
}

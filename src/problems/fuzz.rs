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

/// Every fuzz target's name: the games' agree targets (registry order), the
/// user-style target, then the parse targets.
pub fn targets() -> Vec<String> {
    crate::registry::GAMES
        .iter()
        .filter_map(|g| g.fuzz_target())
        .chain(std::iter::once(CHECK_CASE_TARGET.to_string()))
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

//! HDU 1848, Fibonacci again and again: three piles, a move takes a Fibonacci number
//! of stones from one pile.
//!
//! Input: lines `m n p` (three piles); the line `0 0 0` ends the input. Output per
//! case: `Fibo` when the first player wins, else `Nacci`. Limits: 1 <= m, n, p <= 1000.
//! The terminator is required, and nothing may follow it. A line with some zeros but
//! not three is a case outside the limits (an error naming the zero), since only
//! `0 0 0` ends the input. `--lenient` accepts piles of 0 (in a case that is not all
//! zeros) and piles up to [`LENIENT_MAX`]. Numbers may be separated by any whitespace.
//! Sample (SPEC.md): `1 1 1 / 1 4 1 / 0 0 0` => `Fibo / Nacci`.
//!
//! The game is the subtraction game of the Fibonacci numbers 1, 2, 3, 5, 8, ...
//! (SPEC.md; the oracle's [`Subtraction::fibonacci`]). For piles up to L only the
//! Fibonacci numbers up to L matter, so `fibonacci(1000)` is the whole game at the
//! limits; its Grundy values come from [`SubtractionSolver`] (period 612 from 3072).
//! Lenient piles beyond 1000 use a plain table of `fibonacci(LENIENT_MAX)`, built once
//! when first needed.

use crate::games::subtraction::{analyze_by, table, SubtractionSolver};
use crate::problems::{Info, ParseError, Part, Problem, Reader, Shape};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::nim::Piles;
use sgcheck_oracles::games::subtraction::Subtraction;
use sgcheck_oracles::{SearchError, Solver};
use std::sync::OnceLock;

const MAX_PILE: u64 = 1000;
/// Largest pile `--lenient` accepts: the answer then needs a table of the Fibonacci
/// game this long (30 Fibonacci numbers up to it; a few tens of milliseconds, once).
pub const LENIENT_MAX: u64 = 1_000_000;
const PRACTICAL_MAX_CASES: usize = 10_000;

/// The problem HDU 1848.
pub struct Hdu1848;

/// The Grundy values of the Fibonacci game at the contest limits.
fn solver() -> &'static SubtractionSolver {
    static S: OnceLock<SubtractionSolver> = OnceLock::new();
    S.get_or_init(|| {
        let set = Subtraction::fibonacci(MAX_PILE).expect("limit >= 1");
        SubtractionSolver::new(&set).expect("the Fibonacci set up to 987 has period 612")
    })
}

/// The Grundy value of one pile of the (infinite) Fibonacci game, for n <= LENIENT_MAX.
fn grundy(n: u64) -> u64 {
    static BIG: OnceLock<Vec<u64>> = OnceLock::new();
    if n <= MAX_PILE {
        return solver().grundy(n);
    }
    let t = BIG.get_or_init(|| {
        let set = Subtraction::fibonacci(LENIENT_MAX).expect("limit >= 1");
        table(set.set(), LENIENT_MAX as usize + 1)
    });
    t[n as usize]
}

/// Whether the first player wins the piles (any number of them, each <= LENIENT_MAX).
pub fn first_wins(piles: &[u64]) -> bool {
    piles.iter().fold(0, |x, &n| x ^ grundy(n)) != 0
}

/// The number of winning first moves of a case (for the generator's `ManyWinning`).
fn winning_moves(piles: &[u64]) -> usize {
    let limit = piles.iter().copied().max().unwrap_or(1).max(1);
    let set = Subtraction::fibonacci(limit).expect("limit >= 1");
    analyze_by(set.set(), grundy, &Piles(piles.to_vec())).count()
}

fn verdict(first_wins: bool) -> Vec<String> {
    vec![if first_wins { "Fibo" } else { "Nacci" }.to_string()]
}

impl Problem for Hdu1848 {
    type Case = [u64; 3];

    fn info(&self) -> Info {
        Info {
            id: "hdu1848",
            aliases: &[],
            game: "subtraction",
            title: "HDU 1848, Fibonacci again and again",
            input: "lines `m n p`; the line `0 0 0` ends the input",
            output: "per case `Fibo` if the first player wins, else `Nacci`",
            limits: "1 <= m, n, p <= 1000",
        }
    }

    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<[u64; 3]>, ParseError> {
        let mut r = Reader::new(input, lenient);
        let mut cases = Vec::new();
        loop {
            let c = cases.len() + 1;
            let mut piles = [0u64; 3];
            let mut lines = [0usize; 3];
            for (k, name) in ["m", "n", "p"].into_iter().enumerate() {
                // The field is named only on error: formatting three names for each of
                // 10^5 lines would cost more than reading the numbers.
                piles[k] = r.number(name, 0, u64::MAX).map_err(|mut e| {
                    e.field = if k == 0 {
                        // At the end of input this names the last line: the
                        // terminator is missing.
                        format!("m of case {c} (or the terminator line `0 0 0`)")
                    } else {
                        format!("{name} of case {c}")
                    };
                    e
                })?;
                lines[k] = r.line();
            }
            if piles == [0, 0, 0] {
                r.expect_end("the terminator line `0 0 0`")?;
                return Ok(cases);
            }
            let (min, max) = if lenient {
                (0, LENIENT_MAX)
            } else {
                (1, MAX_PILE)
            };
            for (k, name) in ["m", "n", "p"].into_iter().enumerate() {
                if !(min..=max).contains(&piles[k]) {
                    let why = if piles[k] == 0 {
                        " (only the line `0 0 0` may hold zeros: it ends the input)"
                    } else {
                        ""
                    };
                    return Err(ParseError {
                        line: lines[k],
                        field: format!("{name} of case {c}"),
                        message: format!("expected {min}..={max}, found {}{why}", piles[k]),
                    });
                }
            }
            cases.push(piles);
        }
    }

    fn write_input(&self, cases: &[[u64; 3]]) -> String {
        let mut s: String = cases
            .iter()
            .map(|c| format!("{} {} {}\n", c[0], c[1], c[2]))
            .collect();
        s.push_str("0 0 0\n");
        s
    }

    fn answer(&self, case: &[u64; 3], _index: usize) -> Vec<String> {
        verdict(first_wins(case))
    }

    fn oracle_answer(
        &self,
        case: &[u64; 3],
        _index: usize,
        budget: usize,
    ) -> Result<Vec<String>, SearchError> {
        // Fibonacci numbers up to the largest pile: the whole game for these piles.
        let limit = case.iter().copied().max().unwrap_or(1).max(1);
        let set = Subtraction::fibonacci(limit).expect("limit >= 1");
        let o = Solver::verdict_only(set)
            .with_budget(budget)
            .outcome(&Piles(case.to_vec()))?;
        Ok(verdict(o.win))
    }

    fn max_cases(&self) -> usize {
        PRACTICAL_MAX_CASES
    }

    fn check_limits(&self, case: &[u64; 3]) -> Result<(), String> {
        match case.iter().find(|&&v| !(1..=MAX_PILE).contains(&v)) {
            Some(v) => Err(format!("pile {v} is outside 1..={MAX_PILE}")),
            None => Ok(()),
        }
    }

    /// Size = m + n + p - 3: size 0 is the single case `1 1 1`.
    fn small_cases(&self, size: u32) -> Vec<[u64; 3]> {
        crate::verify::compositions(size as u64, 3)
            .into_iter()
            .filter(|c| c.len() == 3)
            .map(|c| [c[0] + 1, c[1] + 1, c[2] + 1])
            .filter(|c| self.check_limits(c).is_ok())
            .collect()
    }

    /// `Losing` sets the third pile to a value of Grundy value g(m) xor g(n) (every
    /// value 0..=5 occurs among the piles 1..=9, the Fibonacci game's values; value 0
    /// at 4). `ManyWinning` draws until a case has at least two winning moves.
    fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> [u64; 3] {
        let max = 1 + ((MAX_PILE - 1) as f64 * scale) as u64;
        let draw = |rng: &mut ChaCha8Rng| {
            [
                rng.gen_range(1..=max),
                rng.gen_range(1..=max),
                rng.gen_range(1..=max),
            ]
        };
        match shape {
            Shape::Any => draw(rng),
            Shape::Losing => {
                for _ in 0..1000 {
                    let mut c = draw(rng);
                    let need = grundy(c[0]) ^ grundy(c[1]);
                    // Piles in 1..=max with value `need`, picked at random among them.
                    let fits: Vec<u64> = (1..=max).filter(|&v| grundy(v) == need).collect();
                    if fits.is_empty() {
                        continue;
                    }
                    c[2] = fits[rng.gen_range(0..fits.len())];
                    return c;
                }
                // Only at max = 1, where `1 1 1` (a win) is the one valid case.
                [1, 1, 1]
            }
            Shape::ManyWinning => {
                let mut best = draw(rng);
                for _ in 0..200 {
                    if winning_moves(&best) >= 2 {
                        break;
                    }
                    best = draw(rng);
                }
                best
            }
        }
    }

    fn parts(&self, case: &[u64; 3]) -> Vec<Part> {
        vec![Part::fixed(case.to_vec(), 1)]
    }

    fn rebuild(&self, _case: &[u64; 3], values: Vec<Vec<u64>>) -> Option<[u64; 3]> {
        values.first()?.as_slice().try_into().ok()
    }

    fn shrink(&self, case: &[u64; 3]) -> Vec<[u64; 3]> {
        let mut out: Vec<[u64; 3]> = Vec::new();
        for i in 0..3 {
            let v = case[i];
            for smaller in [1, v / 2, v.saturating_sub(1)] {
                if smaller >= 1 && smaller < v {
                    let mut c = *case;
                    c[i] = smaller;
                    if !out.contains(&c) {
                        out.push(c);
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::{solve_fast, solve_oracle};
    use rand::SeedableRng;

    #[test]
    fn sample() {
        // SPEC.md hdu1848 sample.
        let cases = Hdu1848.parse("1 1 1\n1 4 1\n0 0 0\n", false).unwrap();
        assert_eq!(cases, vec![[1, 1, 1], [1, 4, 1]]);
        assert_eq!(solve_fast(&Hdu1848, &cases), "Fibo\nNacci\n");
        assert_eq!(
            solve_oracle(&Hdu1848, &cases, 100_000).unwrap(),
            "Fibo\nNacci\n"
        );
    }

    #[test]
    fn terminator_rules() {
        // Only the terminator: zero cases.
        assert_eq!(Hdu1848.parse("0 0 0\n", false), Ok(vec![]));
        // Missing terminator: named on the last line.
        let e = Hdu1848.parse("1 1 1\n2 2 2\n", false).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.field.contains("terminator"), "{e}");
        // Trailing garbage after it.
        let e = Hdu1848.parse("1 1 1\n0 0 0\n5\n", false).unwrap_err();
        assert_eq!(e.line, 3);
        // Some zeros but not three: the zero is named; lenient reads a pile of 0.
        let e = Hdu1848.parse("1 0 2\n0 0 0\n", false).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (1, "n of case 1"));
        assert_eq!(Hdu1848.parse("1 0 2\n0 0 0\n", true), Ok(vec![[1, 0, 2]]));
        // The field is named on its own line when a case spans lines.
        let e = Hdu1848.parse("1 2\n1001\n0 0 0\n", false).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (2, "p of case 1"));
        assert!(Hdu1848.parse("1 2\n1001\n0 0 0\n", true).is_ok());
    }

    #[test]
    fn lenient_big_piles_use_the_whole_fibonacci_set() {
        // Beyond 1000 the set needs 1597, 2584, ...: the big table agrees with a
        // solver for that larger set, and with the contest table below 1000.
        let set = Subtraction::fibonacci(5000).unwrap();
        let s = SubtractionSolver::new(&set).unwrap();
        for n in [999, 1000, 1001, 1597, 2000, 2584, 4999] {
            assert_eq!(grundy(n), s.grundy(n), "n={n}");
        }
    }

    #[test]
    fn generators_respect_shape_and_limits() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for i in 0..200 {
            let scale = (i % 11) as f64 / 10.0;
            let c = Hdu1848.generate(&mut rng, scale, Shape::Losing);
            assert!(Hdu1848.check_limits(&c).is_ok(), "{c:?}");
            // At scale 0 only `1 1 1` exists, a win.
            if scale > 0.0 {
                assert!(!first_wins(&c), "{c:?}");
            }
            let c = Hdu1848.generate(&mut rng, scale, Shape::ManyWinning);
            assert!(Hdu1848.check_limits(&c).is_ok(), "{c:?}");
            if scale >= 0.1 {
                assert!(winning_moves(&c) >= 2, "{c:?}");
            }
        }
    }

    #[test]
    fn small_cases_and_shrink() {
        assert_eq!(Hdu1848.small_cases(0), vec![[1, 1, 1]]);
        assert_eq!(Hdu1848.small_cases(1).len(), 3);
        let s = Hdu1848.shrink(&[10, 1, 3]);
        assert!(s.iter().all(|c| Hdu1848.check_limits(c).is_ok()));
        assert!(s.iter().all(|c| c.iter().sum::<u64>() < 14));
        assert!(Hdu1848.shrink(&[1, 1, 1]).is_empty());
        let text = Hdu1848.write_input(&s);
        assert_eq!(Hdu1848.parse(&text, false).unwrap(), s);
    }
}

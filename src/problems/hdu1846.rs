//! HDU 1846, Brave Game: Bash's game with one pile.
//!
//! Input: C; then C lines `n m` (a pile of n stones, take 1 to m per move). Output per
//! case: `first` when the first player wins, else `second`. Limits: C <= 100,
//! 1 <= n, m <= 1000 (`--lenient` also accepts C = 0, n = 0, and values beyond 1000;
//! m >= 1 always, since a game where no move takes anything is not Bash's game).
//! Numbers may be separated by any whitespace; the line structure is not enforced.
//! Sample (SPEC.md): `2 / 23 2 / 4 3` => `first / second`.
//!
//! The answer is [`bash::first_wins`]: the first player loses exactly when n is a
//! multiple of m + 1.

use crate::games::bash;
use crate::problems::{Info, ParseError, Part, Problem, Reader, Shape};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::bash::Bash;
use sgcheck_oracles::games::nim::Piles;
use sgcheck_oracles::{SearchError, Solver};

const MAX_C: u64 = 100;
const MAX_N: u64 = 1000;
const MAX_M: u64 = 1000;

/// The problem HDU 1846.
pub struct Hdu1846;

/// One game of Brave Game: a pile of `n` stones, a move takes 1 to `m`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BraveCase {
    /// Stones in the pile.
    pub n: u64,
    /// Most stones one move may take.
    pub m: u64,
}

fn verdict(first_wins: bool) -> Vec<String> {
    vec![if first_wins { "first" } else { "second" }.to_string()]
}

impl Problem for Hdu1846 {
    type Case = BraveCase;

    fn info(&self) -> Info {
        Info {
            id: "hdu1846",
            aliases: &[],
            game: "bash",
            title: "HDU 1846, Brave Game",
            input: "C; then C lines `n m`",
            output: "per case `first` if the first player wins, else `second`",
            limits: "1 <= C <= 100, 1 <= n, m <= 1000",
        }
    }

    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<BraveCase>, ParseError> {
        let mut r = Reader::new(input, lenient);
        let c = r.limited("case count C", 1, MAX_C, 0)?;
        let mut cases = Vec::with_capacity(c.min(MAX_C) as usize);
        for i in 1..=c {
            let n = r.limited(&format!("n of case {i}"), 1, MAX_N, 0)?;
            let m = r.limited(&format!("m of case {i}"), 1, MAX_M, 1)?;
            cases.push(BraveCase { n, m });
        }
        r.expect_end(&format!("the {c} case(s) announced on line 1"))?;
        Ok(cases)
    }

    fn write_input(&self, cases: &[BraveCase]) -> String {
        let mut s = format!("{}\n", cases.len());
        for c in cases {
            s.push_str(&format!("{} {}\n", c.n, c.m));
        }
        s
    }

    fn answer(&self, case: &BraveCase, _index: usize) -> Vec<String> {
        verdict(bash::first_wins(case.n, case.m))
    }

    fn oracle_answer(
        &self,
        case: &BraveCase,
        _index: usize,
        budget: usize,
    ) -> Result<Vec<String>, SearchError> {
        let o = Solver::verdict_only(Bash { m: case.m })
            .with_budget(budget)
            .outcome(&Piles(vec![case.n]))?;
        Ok(verdict(o.win))
    }

    fn max_cases(&self) -> usize {
        MAX_C as usize
    }

    fn check_limits(&self, case: &BraveCase) -> Result<(), String> {
        if !(1..=MAX_N).contains(&case.n) {
            return Err(format!("n = {} is outside 1..={MAX_N}", case.n));
        }
        if !(1..=MAX_M).contains(&case.m) {
            return Err(format!("m = {} is outside 1..={MAX_M}", case.m));
        }
        Ok(())
    }

    /// Size = (n - 1) + (m - 1): size 0 is the single case `1 1`.
    fn small_cases(&self, size: u32) -> Vec<BraveCase> {
        let s = size as u64;
        (0..=s)
            .map(|i| BraveCase {
                n: 1 + i,
                m: 1 + s - i,
            })
            .filter(|c| self.check_limits(c).is_ok())
            .collect()
    }

    /// `Losing` makes n a multiple of m + 1. A winning Bash pile always has exactly
    /// one winning move (n mod (m+1) stones), so `ManyWinning` gives a winning pile.
    fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> BraveCase {
        let max_n = 1 + ((MAX_N - 1) as f64 * scale) as u64;
        let max_m = 1 + ((MAX_M - 1) as f64 * scale) as u64;
        match shape {
            Shape::Any => BraveCase {
                n: rng.gen_range(1..=max_n),
                m: rng.gen_range(1..=max_m),
            },
            Shape::Losing => {
                // Some multiple k(m+1) <= max_n, k >= 1, needs m + 1 <= max_n.
                if max_n < 2 {
                    // Only n = 1 is allowed, and a pile of 1 is always won.
                    return BraveCase { n: 1, m: 1 };
                }
                let m = rng.gen_range(1..=max_m.min(max_n - 1));
                let k = rng.gen_range(1..=max_n / (m + 1));
                BraveCase { n: k * (m + 1), m }
            }
            Shape::ManyWinning => loop {
                let c = BraveCase {
                    n: rng.gen_range(1..=max_n),
                    m: rng.gen_range(1..=max_m),
                };
                if bash::first_wins(c.n, c.m) {
                    return c;
                }
            },
        }
    }

    fn parts(&self, case: &BraveCase) -> Vec<Part> {
        vec![Part::fixed(vec![case.n, case.m], 1)]
    }

    fn rebuild(&self, _case: &BraveCase, values: Vec<Vec<u64>>) -> Option<BraveCase> {
        match values.first()?.as_slice() {
            &[n, m] => Some(BraveCase { n, m }),
            _ => None,
        }
    }

    fn shrink(&self, case: &BraveCase) -> Vec<BraveCase> {
        let mut out: Vec<BraveCase> = Vec::new();
        let BraveCase { n, m } = *case;
        for n2 in [1, n / 2, n.saturating_sub(1)] {
            for m2 in [m, 1, m / 2, m.saturating_sub(1)] {
                let c = BraveCase { n: n2, m: m2 };
                if (n2 < n || m2 < m) && n2 >= 1 && m2 >= 1 && !out.contains(&c) {
                    out.push(c);
                }
            }
        }
        for m2 in [1, m / 2, m.saturating_sub(1)] {
            let c = BraveCase { n, m: m2 };
            if m2 < m && m2 >= 1 && !out.contains(&c) {
                out.push(c);
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
        // SPEC.md hdu1846 sample.
        let cases = Hdu1846.parse("2\n23 2\n4 3\n", false).unwrap();
        assert_eq!(solve_fast(&Hdu1846, &cases), "first\nsecond\n");
        assert_eq!(
            solve_oracle(&Hdu1846, &cases, 100_000).unwrap(),
            "first\nsecond\n"
        );
    }

    #[test]
    fn errors_name_line_and_field() {
        let e = Hdu1846.parse("2\n23 2\n4\n", false).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.field.contains("m of case 2"), "{e}");
        let e = Hdu1846.parse("1\n1001 2\n", false).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (2, "n of case 1"));
        assert!(Hdu1846.parse("1\n1001 2\n", true).is_ok());
        // m = 0 is no Bash game, lenient or not.
        assert!(Hdu1846.parse("1\n5 0\n", true).is_err());
        let e = Hdu1846.parse("1\n5 2\n7\n", false).unwrap_err();
        assert_eq!(e.line, 3);
    }

    #[test]
    fn generators_respect_shape_and_limits() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for i in 0..300 {
            let scale = (i % 11) as f64 / 10.0;
            let c = Hdu1846.generate(&mut rng, scale, Shape::Losing);
            assert!(Hdu1846.check_limits(&c).is_ok(), "{c:?}");
            // At scale 0 only `1 1` exists, a win; otherwise the case is a loss.
            if scale > 0.01 {
                assert!(!bash::first_wins(c.n, c.m), "{c:?}");
            }
            let c = Hdu1846.generate(&mut rng, scale, Shape::ManyWinning);
            assert!(bash::first_wins(c.n, c.m));
            assert!(Hdu1846.check_limits(&c).is_ok());
        }
        let c = Hdu1846.generate(&mut rng, 1.0, Shape::Any);
        assert!(Hdu1846.check_limits(&c).is_ok());
    }

    #[test]
    fn small_cases_and_shrink() {
        assert_eq!(Hdu1846.small_cases(0), vec![BraveCase { n: 1, m: 1 }]);
        assert_eq!(Hdu1846.small_cases(3).len(), 4);
        let c = BraveCase { n: 40, m: 7 };
        let s = Hdu1846.shrink(&c);
        assert!(!s.is_empty());
        assert!(s
            .iter()
            .all(|x| (x.n < c.n || x.m < c.m) && x.n <= c.n && x.m <= c.m));
        assert!(s.iter().all(|x| Hdu1846.check_limits(x).is_ok()));
        assert!(Hdu1846.shrink(&BraveCase { n: 1, m: 1 }).is_empty());
    }
}

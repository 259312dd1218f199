//! HDU 3980, "Paint Chain": paint m consecutive beads of a circle of n.
//!
//! Input: T; then T lines `n m`. Output per case: `Case #x: aekdycoin` when the first
//! player wins, else `Case #x: abcdxyzk` (x counts from 1). Limits (ours; the statement
//! gives none we could confirm): 1 <= T <= 100, 1 <= n, m <= 1000. `--lenient` lifts
//! the upper limits (n, m >= 1 always: a circle without beads or a move painting
//! nothing is not this game).
//! Sample (no official one found; checked by exhaustive search): `2 / 3 1 / 4 2` =>
//! `Case #1: aekdycoin / Case #2: abcdxyzk`.
//!
//! The answer: with n < m the first player has no move and loses. Otherwise every
//! first move is the same up to rotation: it leaves a row of n - m beads, on which
//! painting m consecutive beads of a row of L leaves rows of i and L - m - i, the octal
//! game whose only digit is d_m = 7 ([`Octal::single`]). The second player moves first
//! there, so the first player wins iff g_m(n - m) = 0, computed by
//! [`crate::games::octal::OctalSolver`] for this m (a table per m: reusing one m's
//! table for another is a classic mistake, as is not handling n < m).
//!
//! The oracle plays the circle itself ([`PaintChain`]): which beads are painted, moves
//! around the circle, no reduction to a row.

use crate::games::octal::OctalSolver;
use crate::problems::{Info, ParseError, Problem, Reader, Shape};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::octal::Octal;
use sgcheck_oracles::games::paint_chain::{Circle, PaintChain, MAX_BEADS};
use sgcheck_oracles::{SearchError, Solver};

const MAX_T: u64 = 100;
const MAX_N: u64 = 1000;
const MAX_M: u64 = 1000;
/// Largest m the fast side accepts even when lenient (the code needs m digits).
const LENIENT_MAX_M: u64 = sgcheck_oracles::games::octal::MAX_DIGITS as u64;
/// Largest n the fast side accepts when lenient (a table of n - m values).
const LENIENT_MAX_N: u64 = 1 << 20;

/// The problem HDU 3980.
pub struct Hdu3980;

/// One game: a circle of `n` unpainted beads, a move paints `m` consecutive ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainCase {
    /// Beads on the circle.
    pub n: u64,
    /// Beads painted per move.
    pub m: u64,
}

fn verdict(first_wins: bool, index: usize) -> Vec<String> {
    let who = if first_wins { "aekdycoin" } else { "abcdxyzk" };
    vec![format!("Case #{}: {who}", index + 1)]
}

/// Whether the first player wins on a fresh circle of `n` beads painting `m` per move.
pub fn first_wins(n: u64, m: u64) -> bool {
    if n < m || m == 0 {
        return false;
    }
    let code = Octal::single(m as usize).expect("1 <= m <= the most digits a code has");
    let rest = n - m;
    OctalSolver::with_len(&code, rest as usize + 1).grundy(rest) == Some(0)
}

impl Problem for Hdu3980 {
    type Case = ChainCase;

    fn info(&self) -> Info {
        Info {
            id: "hdu3980",
            aliases: &[],
            game: "octal",
            title: "HDU 3980, Paint Chain (octal game 0.0...07 after the first move on a circle)",
            input: "T; then T lines `n m`",
            output:
                "per case `Case #x: aekdycoin` if the first player wins, else `Case #x: abcdxyzk`",
            limits: "1 <= T <= 100, 1 <= n, m <= 1000",
        }
    }

    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<ChainCase>, ParseError> {
        let mut r = Reader::new(input, lenient);
        let t = r.limited("case count T", 1, MAX_T, 0)?;
        let mut cases = Vec::new();
        for i in 1..=t {
            let n = r.limited(&format!("n of case {i}"), 1, MAX_N, 1)?;
            let m = r.limited(&format!("m of case {i}"), 1, MAX_M, 1)?;
            // Even lenient, the fast side needs a table of n - m values and a code of
            // m digits.
            if n > LENIENT_MAX_N {
                return Err(r.error(
                    format!("n of case {i}"),
                    format!("at most {LENIENT_MAX_N} beads even with --lenient, found {n}"),
                ));
            }
            if m > LENIENT_MAX_M {
                return Err(r.error(
                    format!("m of case {i}"),
                    format!("at most {LENIENT_MAX_M} even with --lenient, found {m}"),
                ));
            }
            cases.push(ChainCase { n, m });
        }
        r.expect_end(&format!("the {t} case(s) announced on line 1"))?;
        Ok(cases)
    }

    fn write_input(&self, cases: &[ChainCase]) -> String {
        let mut s = format!("{}\n", cases.len());
        for c in cases {
            s.push_str(&format!("{} {}\n", c.n, c.m));
        }
        s
    }

    fn answer(&self, case: &ChainCase, index: usize) -> Vec<String> {
        verdict(first_wins(case.n, case.m), index)
    }

    fn oracle_answer(
        &self,
        case: &ChainCase,
        index: usize,
        budget: usize,
    ) -> Result<Vec<String>, SearchError> {
        if case.n > MAX_BEADS as u64 {
            return Err(SearchError::Budget { budget });
        }
        let o = Solver::verdict_only(PaintChain { m: case.m as usize })
            .with_budget(budget)
            .outcome(&Circle::fresh(case.n as usize))?;
        Ok(verdict(o.win, index))
    }

    fn max_cases(&self) -> usize {
        MAX_T as usize
    }

    fn check_limits(&self, case: &ChainCase) -> Result<(), String> {
        if !(1..=MAX_N).contains(&case.n) {
            return Err(format!("n = {} is outside 1..={MAX_N}", case.n));
        }
        if !(1..=MAX_M).contains(&case.m) {
            return Err(format!("m = {} is outside 1..={MAX_M}", case.m));
        }
        Ok(())
    }

    /// Size = (n - 1) + (m - 1): size 0 is the single case `1 1`.
    fn small_cases(&self, size: u32) -> Vec<ChainCase> {
        let s = u64::from(size);
        (0..=s)
            .map(|i| ChainCase {
                n: 1 + i,
                m: 1 + s - i,
            })
            .filter(|c| self.check_limits(c).is_ok())
            .collect()
    }

    /// `Losing`: n < m, or n - m a row of non-zero value; `ManyWinning`: a win (every
    /// first move is the same up to rotation, so a win has n winning moves, or one when
    /// n = m).
    fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> ChainCase {
        let max_n = 1 + ((MAX_N - 1) as f64 * scale) as u64;
        let max_m = 1 + ((MAX_M - 1) as f64 * scale) as u64;
        // Small m half of the time: the interesting tables are those of small m (with
        // m near n the game is over after one or two moves).
        let draw = |rng: &mut ChaCha8Rng| {
            let m = if rng.gen_bool(0.5) {
                rng.gen_range(1..=max_m.min(6))
            } else {
                rng.gen_range(1..=max_m)
            };
            let n = match rng.gen_range(0..8) {
                // n < m: no first move.
                0 if m > 1 => rng.gen_range(1..m),
                _ => rng.gen_range(1..=max_n),
            };
            ChainCase { n, m }
        };
        let want = match shape {
            Shape::Any => return draw(rng),
            Shape::Losing => false,
            Shape::ManyWinning => true,
        };
        for _ in 0..200 {
            let c = draw(rng);
            if first_wins(c.n, c.m) == want {
                return c;
            }
        }
        // Rarely needed: n = m wins at once; n = 2 with m = 1 loses (two single moves).
        if want {
            let m = rng.gen_range(1..=max_m.min(max_n));
            ChainCase { n: m, m }
        } else if max_n >= 2 {
            ChainCase { n: 2, m: 1 }
        } else {
            // Only n = 1 allowed: with m = 1 it wins; m = 2 needs max_m >= 2.
            ChainCase {
                n: 1,
                m: 2.min(max_m),
            }
        }
    }

    fn shrink(&self, case: &ChainCase) -> Vec<ChainCase> {
        let mut out: Vec<ChainCase> = Vec::new();
        let ChainCase { n, m } = *case;
        let mut push = |c: ChainCase| {
            if (c.n < n || c.m < m) && c.n >= 1 && c.m >= 1 && !out.contains(&c) {
                out.push(c);
            }
        };
        for n2 in [1, n / 2, n.saturating_sub(1)] {
            for m2 in [m, 1, m / 2, m.saturating_sub(1)] {
                push(ChainCase { n: n2, m: m2 });
            }
        }
        for m2 in [1, m / 2, m.saturating_sub(1)] {
            push(ChainCase { n, m: m2 });
        }
        // Both down by the same amount keeps n - m (the row after the first move).
        for d in [n.min(m) - 1, (n.min(m) - 1) / 2, 1] {
            if d >= 1 && d < n.min(m) {
                push(ChainCase { n: n - d, m: m - d });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::take_break::{plain_table, Breaks};
    use crate::problems::{solve_fast, solve_oracle};
    use rand::SeedableRng;

    #[test]
    fn sample_checked_by_search() {
        let input = "2\n3 1\n4 2\n";
        let cases = Hdu3980.parse(input, false).unwrap();
        let want = "Case #1: aekdycoin\nCase #2: abcdxyzk\n";
        assert_eq!(solve_fast(&Hdu3980, &cases), want);
        assert_eq!(solve_oracle(&Hdu3980, &cases, 100_000).unwrap(), want);
    }

    #[test]
    fn fast_agrees_with_the_circle_oracle() {
        // Every n <= 16 and m <= n + 1, through the circle game itself.
        let mut checked = 0;
        for n in 1..=16 {
            for m in 1..=n + 1 {
                let c = ChainCase { n, m };
                let o = Hdu3980.oracle_answer(&c, 0, 400_000).unwrap();
                assert_eq!(Hdu3980.answer(&c, 0), o, "{c:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, (1..=16).map(|n| n + 1).sum::<u64>());
    }

    #[test]
    fn n_below_m_loses_and_tables_are_per_m() {
        assert!(!first_wins(2, 3));
        assert!(first_wins(3, 3));
        // m = 1: the game lasts n moves: the first player wins iff n is odd.
        for n in 1..50 {
            assert_eq!(first_wins(n, 1), n % 2 == 1, "n={n}");
        }
        // The row tables differ between m: g_2 and g_3 of the rows 0..12.
        let g2 = plain_table(&Breaks::Octal(vec![0, 7]), 12);
        let g3 = plain_table(&Breaks::Octal(vec![0, 0, 7]), 12);
        assert_ne!(g2, g3);
        // n = 1000, m = 1000: paint it all.
        assert!(first_wins(1000, 1000));
        assert!(!first_wins(999, 1000));
    }

    #[test]
    fn errors_name_line_and_field() {
        let e = Hdu3980.parse("2\n3 1\n4\n", false).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (3, "m of case 2"));
        let e = Hdu3980.parse("1\n1001 2\n", false).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (2, "n of case 1"));
        assert!(Hdu3980.parse("1\n1001 2\n", true).is_ok());
        assert!(Hdu3980.parse("1\n5 0\n", true).is_err());
        assert!(Hdu3980.parse("1\n0 1\n", true).is_err());
        assert!(Hdu3980.parse("1\n5 5000\n", true).is_err());
        assert!(Hdu3980.parse("0\n", false).is_err());
        assert!(Hdu3980.parse("1\n5 2 7\n", false).is_err());
    }

    #[test]
    fn generators_respect_shape_and_limits() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for i in 0..300 {
            let scale = (i % 11) as f64 / 10.0;
            let c = Hdu3980.generate(&mut rng, scale, Shape::Losing);
            assert!(Hdu3980.check_limits(&c).is_ok(), "{c:?}");
            if scale > 0.01 {
                assert!(!first_wins(c.n, c.m), "{c:?}");
            }
            let c = Hdu3980.generate(&mut rng, scale, Shape::ManyWinning);
            assert!(Hdu3980.check_limits(&c).is_ok(), "{c:?}");
            assert!(first_wins(c.n, c.m), "{c:?}");
            let c = Hdu3980.generate(&mut rng, scale, Shape::Any);
            assert!(Hdu3980.check_limits(&c).is_ok(), "{c:?}");
        }
    }

    #[test]
    fn small_cases_shrink_round_trip() {
        assert_eq!(Hdu3980.small_cases(0), vec![ChainCase { n: 1, m: 1 }]);
        let c = ChainCase { n: 40, m: 7 };
        let s = Hdu3980.shrink(&c);
        assert!(s.contains(&ChainCase { n: 34, m: 1 }));
        assert!(s
            .iter()
            .all(|x| (x.n < c.n || x.m < c.m) && x.n <= c.n && x.m <= c.m));
        assert!(Hdu3980.shrink(&ChainCase { n: 1, m: 1 }).is_empty());
        let cases = vec![ChainCase { n: 3, m: 1 }, ChainCase { n: 1000, m: 17 }];
        let text = Hdu3980.write_input(&cases);
        assert_eq!(Hdu3980.parse(&text, false).unwrap(), cases);
    }
}

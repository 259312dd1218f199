//! HDU 2897, 邂逅明下: take-range, whoever takes the last coin loses.
//!
//! Input: lines `n p q` until end of input (n coins; a move takes p to q coins, all of
//! them when fewer than p remain). Output per case: `WIN` when the first player wins,
//! else `LOST`. Limits (ours; the original page gives none): 1 <= p <= q,
//! 1 <= n, p, q <= 65535. `--lenient` lifts the upper bounds and accepts n = 0 (the
//! engines read it as already won: the opponent took the last coin); p >= 1 and
//! p <= q hold always, since the rules need them.
//!
//! An empty input has zero cases and an empty output, the way a judge's
//! `while (scanf(...) == 3)` loop reads it; a case cut short (`7 2` at the end) is an
//! error naming its line. The format has no official case count, so [`max_cases`]
//! is a practical 10000.
//! Samples (SPEC.md): `7 2 4` => `LOST`; `6 2 4` => `WIN`.
//!
//! The answer is [`take_range::first_wins`]: lost exactly when 1 <= n mod (p+q) <= p.
//!
//! [`max_cases`]: Problem::max_cases

use crate::games::take_range;
use crate::problems::{Info, ParseError, Part, Problem, Reader, Shape};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::take_range::{Coins, TakeRange};
use sgcheck_oracles::{SearchError, Solver};

const MAX_VALUE: u64 = 65_535;
const PRACTICAL_MAX_CASES: usize = 10_000;

/// The problem HDU 2897.
pub struct Hdu2897;

/// One game: `n` coins, a move takes `p..=q`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RangeCase {
    /// Coins in the pile.
    pub n: u64,
    /// Fewest coins a move takes (while that many remain).
    pub p: u64,
    /// Most coins a move takes.
    pub q: u64,
}

fn verdict(first_wins: bool) -> Vec<String> {
    vec![if first_wins { "WIN" } else { "LOST" }.to_string()]
}

impl Problem for Hdu2897 {
    type Case = RangeCase;

    fn info(&self) -> Info {
        Info {
            id: "hdu2897",
            aliases: &[],
            game: "take-range",
            title: "HDU 2897, 邂逅明下",
            input: "lines `n p q` until end of input",
            output: "per case `WIN` if the first player wins, else `LOST`",
            limits: "1 <= p <= q; 1 <= n, p, q <= 65535 (ours: the original gives none)",
        }
    }

    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<RangeCase>, ParseError> {
        let mut r = Reader::new(input, lenient);
        let mut cases = Vec::new();
        while !r.at_end() {
            let i = cases.len() + 1;
            // Fields are named only on error: formatting three names for each of 10^5
            // lines would cost more than reading the numbers.
            let named = |name: &'static str| {
                move |mut e: ParseError| {
                    e.field = format!("{name} of case {i}");
                    e
                }
            };
            let n = r.limited("n", 1, MAX_VALUE, 0).map_err(named("n"))?;
            let p = r.limited("p", 1, MAX_VALUE, 1).map_err(named("p"))?;
            let q = r.limited("q", 1, MAX_VALUE, 1).map_err(named("q"))?;
            if p > q {
                return Err(r.error(
                    format!("q of case {i}"),
                    format!("expected q >= p = {p}, found {q}"),
                ));
            }
            cases.push(RangeCase { n, p, q });
        }
        Ok(cases)
    }

    fn write_input(&self, cases: &[RangeCase]) -> String {
        cases
            .iter()
            .map(|c| format!("{} {} {}\n", c.n, c.p, c.q))
            .collect()
    }

    fn answer(&self, case: &RangeCase, _index: usize) -> Vec<String> {
        verdict(take_range::first_wins(case.p, case.q, case.n))
    }

    fn oracle_answer(
        &self,
        case: &RangeCase,
        _index: usize,
        budget: usize,
    ) -> Result<Vec<String>, SearchError> {
        let o = Solver::verdict_only(TakeRange {
            p: case.p,
            q: case.q,
        })
        .with_budget(budget)
        .outcome(&Coins(case.n))?;
        Ok(verdict(o.win))
    }

    fn max_cases(&self) -> usize {
        PRACTICAL_MAX_CASES
    }

    fn check_limits(&self, case: &RangeCase) -> Result<(), String> {
        let RangeCase { n, p, q } = *case;
        for (name, v) in [("n", n), ("p", p), ("q", q)] {
            if !(1..=MAX_VALUE).contains(&v) {
                return Err(format!("{name} = {v} is outside 1..={MAX_VALUE}"));
            }
        }
        if p > q {
            return Err(format!("p = {p} exceeds q = {q}"));
        }
        Ok(())
    }

    /// Size = (n - 1) + (q - 1), every p in 1..=q: size 0 is the single case `1 1 1`.
    fn small_cases(&self, size: u32) -> Vec<RangeCase> {
        let s = size as u64;
        let mut out = Vec::new();
        for q in 1..=s + 1 {
            for p in 1..=q {
                out.push(RangeCase { n: s + 2 - q, p, q });
            }
        }
        out
    }

    /// `Losing` puts n at residue 1..=p of p+q. `ManyWinning` aims at p winning
    /// amounts: with q >= 2p - 1, n = k(p+q) + 2p leaves every target residue 1..=p
    /// reachable (taking p..=2p-1 coins); when the scale allows no such rules it
    /// returns any winning case.
    fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> RangeCase {
        let max = 1 + ((MAX_VALUE - 1) as f64 * scale) as u64;
        let rules = |rng: &mut ChaCha8Rng| {
            let q = rng.gen_range(1..=max);
            let p = if rng.gen_bool(0.2) {
                1
            } else {
                rng.gen_range(1..=q)
            };
            (p, q)
        };
        match shape {
            Shape::Any => {
                let (p, q) = rules(rng);
                RangeCase {
                    n: rng.gen_range(1..=max),
                    p,
                    q,
                }
            }
            Shape::Losing => {
                let (p, q) = rules(rng);
                let l = p + q;
                let r = rng.gen_range(1..=p.min(max));
                let k = rng.gen_range(0..=(max - r) / l);
                RangeCase { n: k * l + r, p, q }
            }
            Shape::ManyWinning => {
                if max >= 5 {
                    // p >= 2 and q in 2p-1..=max, n = k(p+q) + 2p <= max.
                    let p = rng.gen_range(2..=max.div_ceil(2));
                    let q = rng.gen_range(2 * p - 1..=max);
                    let l = p + q;
                    if 2 * p <= max {
                        let k = rng.gen_range(0..=(max - 2 * p) / l);
                        return RangeCase {
                            n: k * l + 2 * p,
                            p,
                            q,
                        };
                    }
                }
                loop {
                    let (p, q) = rules(rng);
                    let n = rng.gen_range(1..=max);
                    if take_range::first_wins(p, q, n) {
                        return RangeCase { n, p, q };
                    }
                    if max == 1 {
                        // Only `1 1 1` exists, and it is lost.
                        return RangeCase { n, p, q };
                    }
                }
            }
        }
    }

    fn parts(&self, case: &RangeCase) -> Vec<Part> {
        vec![Part::fixed(vec![case.n, case.p, case.q], 1)]
    }

    fn rebuild(&self, _case: &RangeCase, values: Vec<Vec<u64>>) -> Option<RangeCase> {
        match values.first()?.as_slice() {
            &[n, p, q] => Some(RangeCase { n, p, q }),
            _ => None,
        }
    }

    fn shrink(&self, case: &RangeCase) -> Vec<RangeCase> {
        let RangeCase { n, p, q } = *case;
        let mut out: Vec<RangeCase> = Vec::new();
        let mut push = |c: RangeCase| {
            let smaller = c.n <= n && c.p <= p && c.q <= q && c != *case;
            if smaller && c.n >= 1 && c.p >= 1 && c.p <= c.q && !out.contains(&c) {
                out.push(c);
            }
        };
        for n2 in [1, n / 2, n.saturating_sub(1)] {
            push(RangeCase { n: n2, p, q });
        }
        for q2 in [p, q / 2, q.saturating_sub(1)] {
            push(RangeCase { n, p, q: q2 });
            // Keep the case valid when q drops below p.
            push(RangeCase {
                n,
                p: p.min(q2),
                q: q2,
            });
        }
        for p2 in [1, p / 2, p.saturating_sub(1)] {
            push(RangeCase { n, p: p2, q });
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
    fn samples() {
        // SPEC.md hdu2897 samples, as one input.
        let cases = Hdu2897.parse("7 2 4\n6 2 4\n", false).unwrap();
        assert_eq!(solve_fast(&Hdu2897, &cases), "LOST\nWIN\n");
        assert_eq!(
            solve_oracle(&Hdu2897, &cases, 100_000).unwrap(),
            "LOST\nWIN\n"
        );
    }

    #[test]
    fn empty_and_partial_inputs() {
        assert_eq!(Hdu2897.parse("", false), Ok(vec![]));
        assert_eq!(Hdu2897.parse(" \n\n", false), Ok(vec![]));
        let e = Hdu2897.parse("6 2 4\n7 2\n", false).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (2, "q of case 2"));
        let e = Hdu2897.parse("6 4 2\n", false).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (1, "q of case 1"));
        assert!(Hdu2897.parse("6 4 2\n", true).is_err());
        let e = Hdu2897.parse("6 2 65536\n", false).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(Hdu2897.parse("6 2 65536\n", true).is_ok());
    }

    #[test]
    fn generators_respect_shape_and_limits() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut many = 0;
        for i in 0..400 {
            let scale = (i % 11) as f64 / 10.0;
            let c = Hdu2897.generate(&mut rng, scale, Shape::Losing);
            assert!(Hdu2897.check_limits(&c).is_ok(), "{c:?}");
            assert!(!take_range::first_wins(c.p, c.q, c.n), "{c:?}");
            let c = Hdu2897.generate(&mut rng, scale, Shape::ManyWinning);
            assert!(Hdu2897.check_limits(&c).is_ok(), "{c:?}");
            let s = take_range::summary(c.p, c.q, c.n);
            if scale > 0.0 {
                assert!(s.win, "{c:?}");
            }
            if s.count >= 2 {
                many += 1;
            }
            let c = Hdu2897.generate(&mut rng, scale, Shape::Any);
            assert!(Hdu2897.check_limits(&c).is_ok(), "{c:?}");
        }
        // Every scale above 0 gives rules with p >= 2 and so p >= 2 winning moves.
        assert!(many >= 300, "{many}");
    }

    #[test]
    fn small_cases_and_shrink() {
        assert_eq!(Hdu2897.small_cases(0), vec![RangeCase { n: 1, p: 1, q: 1 }]);
        // Size 1: n = 2 with q = 1, and n = 1 with q = 2 (p = 1, 2).
        assert_eq!(Hdu2897.small_cases(1).len(), 3);
        let c = RangeCase { n: 30, p: 5, q: 9 };
        let s = Hdu2897.shrink(&c);
        assert!(!s.is_empty());
        assert!(s.iter().all(|x| Hdu2897.check_limits(x).is_ok() && x != &c));
        assert!(Hdu2897.shrink(&RangeCase { n: 1, p: 1, q: 1 }).is_empty());
        let text = Hdu2897.write_input(&s);
        assert_eq!(Hdu2897.parse(&text, false).unwrap(), s);
    }
}

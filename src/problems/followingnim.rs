//! TopCoder FollowingNim: how many first moves win a game of Following Nim.
//!
//! Input: T; then per case a line `n p1 .. pn` (the piles) and a line `m s1 .. sm`
//! (the special amounts). Output per case: the number of winning first moves, a move
//! being a pair (pile, amount), so equal piles count separately. Limits (ours; no
//! public statement was found): T <= 100, 1 <= n <= 50, 0 <= p <= 100, 1 <= m <= 100,
//! specials distinct in 1..=100. Numbers may be separated by any whitespace (SPEC.md),
//! so the two "lines" of a case are read as tokens. A repeated special amount is an
//! error naming its line even with `--lenient`, which otherwise accepts T, n, m of 0,
//! piles up to [`LENIENT_MAX_PILE`] and any positive special amount.
//! Samples (SPEC.md): piles `7`, specials `7` => 1; piles `1 1`, specials `1` => 2.
//!
//! The answer is the count of winning moves of the free position, from the two tables
//! of [`crate::games::following_nim`] (whose module doc proves them).

use crate::games::following_nim::Tables;
use crate::problems::{Info, ParseError, Part, Problem, Reader, Shape};
use rand::seq::index::sample;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::following_nim::{FnPosition, FollowingNim};
use sgcheck_oracles::{SearchError, Solver};

const MAX_T: u64 = 100;
const MAX_N: u64 = 50;
const MAX_PILE: u64 = 100;
const MAX_M: u64 = 100;
const MAX_SPECIAL: u64 = 100;
/// Largest pile `--lenient` accepts: the tables take O(P^2) time per case, a few
/// milliseconds at this size.
pub const LENIENT_MAX_PILE: u64 = 2000;

/// The problem FollowingNim.
pub struct FollowingNimProblem;

/// One case: the piles and the special amounts, in input order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnCase {
    /// The pile sizes.
    pub piles: Vec<u64>,
    /// The special amounts, distinct, in input order.
    pub specials: Vec<u64>,
}

impl FnCase {
    fn rules(&self) -> FollowingNim {
        FollowingNim::new(self.specials.clone()).expect("special amounts are positive")
    }

    fn position(&self) -> FnPosition {
        FnPosition {
            piles: self.piles.clone(),
            forced: None,
        }
    }

    fn tables(&self) -> Tables {
        Tables::new(
            &self.specials,
            self.piles.iter().copied().max().unwrap_or(0),
        )
    }
}

/// The number of winning first moves (pile, amount) of a case.
pub fn winning_moves(case: &FnCase) -> usize {
    case.tables().analyze(&case.position()).count()
}

fn line_of(v: usize) -> Vec<String> {
    vec![v.to_string()]
}

impl Problem for FollowingNimProblem {
    type Case = FnCase;

    fn info(&self) -> Info {
        Info {
            id: "followingnim",
            aliases: &[],
            game: "following-nim",
            title: "TopCoder FollowingNim",
            input: "T; then per case a line `n p1 .. pn` and a line `m s1 .. sm` (special amounts)",
            output: "per case the number of winning first moves (pile, amount)",
            limits: "T <= 100, 1 <= n <= 50, 0 <= p <= 100, 1 <= m <= 100, specials distinct \
                     in 1..=100 (ours)",
        }
    }

    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<FnCase>, ParseError> {
        let mut r = Reader::new(input, lenient);
        let t = r.limited("case count T", 1, MAX_T, 0)?;
        let (max_pile, max_special) = if lenient {
            (LENIENT_MAX_PILE, u64::MAX)
        } else {
            (MAX_PILE, MAX_SPECIAL)
        };
        let mut cases = Vec::new();
        for c in 1..=t {
            let n = r.limited(&format!("pile count n of case {c}"), 1, MAX_N, 0)?;
            let mut piles = Vec::with_capacity(n.min(1 << 16) as usize);
            // Fields are named only on error: formatting a name for each of the
            // 15,000 numbers of a large input costs more than reading them.
            for i in 1..=n {
                let pile = r.number("pile", 0, max_pile).map_err(|mut e| {
                    e.field = format!("pile {i} of case {c}");
                    e
                })?;
                piles.push(pile);
            }
            let m = r.limited(&format!("special count m of case {c}"), 1, MAX_M, 0)?;
            let mut specials: Vec<u64> = Vec::with_capacity(m.min(1 << 16) as usize);
            for j in 1..=m {
                let field = || format!("special {j} of case {c}");
                let s = r.number("special", 1, max_special).map_err(|mut e| {
                    e.field = field();
                    e
                })?;
                if let Some(k) = specials.iter().position(|&x| x == s) {
                    return Err(r.error(
                        field(),
                        format!("{s} repeats special {} (specials are distinct)", k + 1),
                    ));
                }
                specials.push(s);
            }
            cases.push(FnCase { piles, specials });
        }
        r.expect_end(&format!("the {t} case(s) announced on line 1"))?;
        Ok(cases)
    }

    fn write_input(&self, cases: &[FnCase]) -> String {
        let row = |v: &[u64]| {
            let mut s = v.len().to_string();
            for x in v {
                s.push(' ');
                s.push_str(&x.to_string());
            }
            s.push('\n');
            s
        };
        let mut s = format!("{}\n", cases.len());
        for c in cases {
            s.push_str(&row(&c.piles));
            s.push_str(&row(&c.specials));
        }
        s
    }

    fn answer(&self, case: &FnCase, _index: usize) -> Vec<String> {
        line_of(winning_moves(case))
    }

    fn oracle_answer(
        &self,
        case: &FnCase,
        _index: usize,
        budget: usize,
    ) -> Result<Vec<String>, SearchError> {
        let a = Solver::verdict_only(case.rules())
            .with_budget(budget)
            .analyze(&case.position())?;
        Ok(line_of(a.count()))
    }

    fn max_cases(&self) -> usize {
        MAX_T as usize
    }

    fn check_limits(&self, case: &FnCase) -> Result<(), String> {
        let (n, m) = (case.piles.len() as u64, case.specials.len() as u64);
        if !(1..=MAX_N).contains(&n) {
            return Err(format!("n = {n} is outside 1..={MAX_N}"));
        }
        if let Some(p) = case.piles.iter().find(|&&p| p > MAX_PILE) {
            return Err(format!("pile {p} is above {MAX_PILE}"));
        }
        if !(1..=MAX_M).contains(&m) {
            return Err(format!("m = {m} is outside 1..={MAX_M}"));
        }
        if let Some(s) = case
            .specials
            .iter()
            .find(|&&s| !(1..=MAX_SPECIAL).contains(&s))
        {
            return Err(format!("special {s} is outside 1..={MAX_SPECIAL}"));
        }
        for (i, s) in case.specials.iter().enumerate() {
            if case.specials[..i].contains(s) {
                return Err(format!("special {s} repeats"));
            }
        }
        Ok(())
    }

    /// Size = the sum of the piles plus the sum of the specials, minus 1: size 0 is the
    /// single case of one empty pile with special 1. Specials come as increasing sets,
    /// piles as every sequence of 1 to 3 piles.
    fn small_cases(&self, size: u32) -> Vec<FnCase> {
        let total = u64::from(size) + 1;
        let mut out = Vec::new();
        for special_sum in 1..=total {
            let sets = distinct_parts(special_sum);
            let piles = crate::verify::compositions(total - special_sum, 3);
            for s in &sets {
                for p in &piles {
                    let c = FnCase {
                        piles: p.clone(),
                        specials: s.clone(),
                    };
                    if self.check_limits(&c).is_ok() {
                        out.push(c);
                    }
                }
            }
        }
        out
    }

    /// At `scale` 1, up to 50 piles of up to 100 and up to 100 specials in 1..=100
    /// (each count and value hits its limit with fair odds). `Losing` builds a lost
    /// position on purpose: cold piles (table 1) whose values (table 2) XOR to 0, or
    /// failing that pairs of equal cold piles; `ManyWinning` keeps the best of several
    /// draws by number of winning moves.
    fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> FnCase {
        let scale = scale.clamp(0.0, 1.0);
        let max_n = 1 + ((MAX_N - 1) as f64 * scale).round() as u64;
        let max_pile = (MAX_PILE as f64 * scale).round() as u64;
        let max_m = 1 + ((MAX_M - 1) as f64 * scale).round() as u64;
        let max_special = (1 + ((MAX_SPECIAL - 1) as f64 * scale).round() as u64).max(max_m);
        let pick = |rng: &mut ChaCha8Rng, top: u64, low: u64| {
            if rng.gen_bool(0.3) {
                top
            } else {
                rng.gen_range(low..=top)
            }
        };
        let draw = |rng: &mut ChaCha8Rng| {
            let n = pick(rng, max_n, 1);
            let piles: Vec<u64> = (0..n).map(|_| pick(rng, max_pile, 0)).collect();
            // Few specials half of the time: many of them make most moves special.
            let m = if rng.gen_bool(0.5) {
                rng.gen_range(1..=max_m.min(5))
            } else {
                pick(rng, max_m, 1)
            };
            let specials: Vec<u64> = sample(rng, max_special as usize, m as usize)
                .into_iter()
                .map(|i| i as u64 + 1)
                .collect();
            FnCase { piles, specials }
        };
        match shape {
            Shape::Any => draw(rng),
            Shape::Losing => {
                let mut c = draw(rng);
                let t = Tables::new(&c.specials, max_pile);
                let cold: Vec<u64> = (0..=max_pile).filter(|&x| !t.is_hot(x)).collect();
                let n = c.piles.len();
                for p in c.piles.iter_mut() {
                    *p = cold[rng.gen_range(0..cold.len())];
                }
                let value = |x: u64| t.value(x).expect("cold");
                let need = c.piles[..n - 1].iter().fold(0, |a, &p| a ^ value(p));
                let fits: Vec<u64> = cold.iter().copied().filter(|&x| value(x) == need).collect();
                if fits.is_empty() {
                    // Pairs of equal cold piles XOR to 0; 0 is always cold.
                    for i in (1..n).step_by(2) {
                        c.piles[i] = c.piles[i - 1];
                    }
                    if n % 2 == 1 {
                        c.piles[n - 1] = 0;
                    }
                } else {
                    c.piles[n - 1] = fits[rng.gen_range(0..fits.len())];
                }
                c
            }
            Shape::ManyWinning => {
                let mut best = draw(rng);
                let mut best_count = winning_moves(&best);
                for _ in 0..15 {
                    let c = draw(rng);
                    let k = winning_moves(&c);
                    if k > best_count {
                        (best, best_count) = (c, k);
                    }
                }
                best
            }
        }
    }

    fn parts(&self, case: &FnCase) -> Vec<Part> {
        vec![
            Part::list(case.piles.clone(), 0, 1),
            Part::list(case.specials.clone(), 1, 1),
        ]
    }

    fn rebuild(&self, _case: &FnCase, values: Vec<Vec<u64>>) -> Option<FnCase> {
        let mut it = values.into_iter();
        Some(FnCase {
            piles: it.next()?,
            specials: it.next()?,
        })
    }

    /// Drop a pile or a special (keeping one of each), lower a pile (to 0, half, minus
    /// one) or a special (to 1, half, minus one, while it stays distinct).
    fn shrink(&self, case: &FnCase) -> Vec<FnCase> {
        let mut out: Vec<FnCase> = crate::problems::shrink_piles(&case.piles, 1)
            .into_iter()
            .map(|piles| FnCase {
                piles,
                specials: case.specials.clone(),
            })
            .collect();
        let s = &case.specials;
        if s.len() > 1 {
            for i in 0..s.len() {
                let mut v = s.clone();
                v.remove(i);
                out.push(FnCase {
                    piles: case.piles.clone(),
                    specials: v,
                });
            }
        }
        for i in 0..s.len() {
            for smaller in [1, s[i] / 2, s[i] - 1] {
                if smaller >= 1 && smaller < s[i] && !s.contains(&smaller) {
                    let mut v = s.clone();
                    v[i] = smaller;
                    let c = FnCase {
                        piles: case.piles.clone(),
                        specials: v,
                    };
                    if !out.contains(&c) {
                        out.push(c);
                    }
                }
            }
        }
        out
    }
}

/// Every set of distinct positive integers summing to `total`, each as an increasing
/// list (the partitions of `total` into distinct parts).
fn distinct_parts(total: u64) -> Vec<Vec<u64>> {
    fn rec(left: u64, min: u64, cur: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
        if left == 0 {
            out.push(cur.clone());
            return;
        }
        for part in min..=left {
            cur.push(part);
            rec(left - part, part + 1, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    rec(total, 1, &mut Vec::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::{solve_fast, solve_oracle};
    use rand::SeedableRng;

    const P: FollowingNimProblem = FollowingNimProblem;

    fn case(piles: &[u64], specials: &[u64]) -> FnCase {
        FnCase {
            piles: piles.to_vec(),
            specials: specials.to_vec(),
        }
    }

    #[test]
    fn samples() {
        // SPEC.md followingnim samples: piles `7`, specials `7` => 1; piles `1 1`,
        // specials `1` => 2.
        let input = "2\n1 7\n1 7\n2 1 1\n1 1\n";
        let cases = P.parse(input, false).unwrap();
        assert_eq!(cases, vec![case(&[7], &[7]), case(&[1, 1], &[1])]);
        assert_eq!(solve_fast(&P, &cases), "1\n2\n");
        assert_eq!(solve_oracle(&P, &cases, 100_000).unwrap(), "1\n2\n");
        assert_eq!(P.write_input(&cases), input);
    }

    #[test]
    fn errors_name_the_line_and_field() {
        // A repeated special, on its line, with or without --lenient.
        for lenient in [false, true] {
            let e = P.parse("1\n2 3 4\n3 1 2\n1\n", lenient).unwrap_err();
            assert_eq!(e.line, 4);
            assert_eq!(e.field, "special 3 of case 1");
            assert!(e.message.contains("repeats special 1"), "{e}");
        }
        // Limits: pile 101, special 101, 51 piles; lifted by --lenient.
        let e = P.parse("1\n1 101\n1 1\n", false).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (2, "pile 1 of case 1"));
        assert!(P.parse("1\n1 101\n1 1\n", true).is_ok());
        let e = P.parse("1\n1 5\n1 101\n", false).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (3, "special 1 of case 1"));
        assert!(P.parse("1\n1 5\n1 101\n", true).is_ok());
        // Special 0 is never a move, even lenient.
        let e = P.parse("1\n1 5\n1 0\n", true).unwrap_err();
        assert_eq!(e.line, 3);
        // The lenient pile ceiling.
        let e = P.parse("1\n1 2001\n1 1\n", true).unwrap_err();
        assert_eq!(e.line, 2);
        // Missing special line at the end: named on the last line read.
        let e = P.parse("1\n2 3 4\n", false).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (2, "special count m of case 1"));
    }

    #[test]
    fn lenient_zero_counts() {
        // n = 0 (no piles: no move, 0 winning moves) and m = 0 (plain Nim).
        let cases = P.parse("2\n0\n1 1\n2 3 5\n0\n", true).unwrap();
        assert_eq!(cases, vec![case(&[], &[1]), case(&[3, 5], &[])]);
        // Plain Nim 3,5: XOR 6; only 5 -> 3 (take 2) wins.
        assert_eq!(solve_fast(&P, &cases), "0\n1\n");
        assert!(P.parse("2\n0\n1 1\n2 3 5\n0\n", false).is_err());
    }

    #[test]
    fn answers_agree_with_oracle_on_small_cases() {
        // Tier 3 in miniature: every small case through both engines.
        for size in 0..8 {
            let cases = P.small_cases(size);
            assert!(!cases.is_empty());
            for c in &cases {
                let fast = P.answer(c, 0);
                let oracle = P.oracle_answer(c, 0, 100_000).unwrap();
                assert_eq!(fast, oracle, "{c:?}");
            }
        }
    }

    #[test]
    fn small_cases_by_size() {
        // Size 0 (piles and specials summing to 1): special 1 and 1 to 3 empty piles.
        // Size 1 (summing to 2): special 1 with one stone somewhere, or special 2.
        assert_eq!(
            P.small_cases(0),
            vec![
                case(&[0], &[1]),
                case(&[0, 0], &[1]),
                case(&[0, 0, 0], &[1])
            ]
        );
        assert!(P.small_cases(1).contains(&case(&[1], &[1])));
        assert!(P.small_cases(1).contains(&case(&[0], &[2])));
        assert_eq!(
            distinct_parts(6),
            vec![vec![1, 2, 3], vec![1, 5], vec![2, 4], vec![6]]
        );
        for size in 0..6 {
            for c in P.small_cases(size) {
                let total: u64 = c.piles.iter().sum::<u64>() + c.specials.iter().sum::<u64>();
                assert_eq!(total, u64::from(size) + 1);
            }
        }
    }

    #[test]
    fn generators_respect_shape_and_limits() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut many = 0;
        for i in 0..300 {
            let scale = (i % 11) as f64 / 10.0;
            for shape in [Shape::Any, Shape::Losing, Shape::ManyWinning] {
                let c = P.generate(&mut rng, scale, shape);
                assert!(P.check_limits(&c).is_ok(), "{c:?}");
                match shape {
                    Shape::Losing => assert_eq!(winning_moves(&c), 0, "{c:?}"),
                    Shape::ManyWinning => many += usize::from(winning_moves(&c) >= 2),
                    Shape::Any => {}
                }
            }
        }
        assert!(many > 200, "{many}");
        // Scale 1 reaches the limits.
        let big: Vec<FnCase> = (0..50)
            .map(|_| P.generate(&mut rng, 1.0, Shape::Any))
            .collect();
        assert!(big.iter().any(|c| c.piles.len() == 50));
        assert!(big.iter().any(|c| c.piles.contains(&100)));
        assert!(big.iter().any(|c| c.specials.len() == 100));
    }

    #[test]
    fn shrink_gives_smaller_valid_cases() {
        let c = case(&[7, 3], &[2, 5]);
        let s = P.shrink(&c);
        assert!(!s.is_empty());
        let weight = |c: &FnCase| {
            c.piles.len() as u64
                + c.specials.len() as u64
                + c.piles.iter().sum::<u64>()
                + c.specials.iter().sum::<u64>()
        };
        for d in &s {
            assert!(P.check_limits(d).is_ok(), "{d:?}");
            assert!(weight(d) < weight(&c), "{d:?}");
        }
        assert!(P.shrink(&case(&[0], &[1])).is_empty());
    }

    #[test]
    fn contest_limits_are_fast() {
        // 100 cases of 50 piles of 100 with 100 specials: the largest valid input.
        let c = case(&[100; 50], &(1..=100).collect::<Vec<_>>());
        let cases = vec![c; 100];
        let text = P.write_input(&cases);
        let parsed = P.parse(&text, false).unwrap();
        let out = solve_fast(&P, &parsed);
        assert_eq!(out.lines().count(), 100);
        // With every amount special and 50 equal hot piles, the winning moves are the
        // special moves into cold sizes: 100 -> 0 only (the chain of {1..=100} is
        // lost at 0 alone), once per pile.
        assert_eq!(out.lines().next(), Some("50"));
    }
}

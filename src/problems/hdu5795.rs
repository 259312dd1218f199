//! HDU 5795, "A Simple Nim": take from a heap, or split a heap into three.
//!
//! Input: T; then per case: n, then n heap sizes. Output per case:
//! `First player wins.` when the first player wins, else `Second player wins.` (both
//! with the period). Limits: T <= 100, 1 <= n <= 10^6, 1 <= s <= 10^9.
//! `--lenient` lifts the limits (n = 0 and empty heaps included); the format stays
//! strict.
//! Sample (statement): `2 / 2 / 4 4 / 3 / 1 2 4` => `Second player wins. /
//! First player wins.`
//!
//! The answer is the xor of the heap values of [`crate::games::simple_nim`] (g(8k) =
//! 8k - 1, g(8k + 7) = 8k + 8, otherwise g(x) = x): O(n). The classic wrong answer
//! reuses Lasker's Nim's period-4 table (that game splits in two, where a heap of 3 is
//! worth 4): the smallest input it gets wrong is the heaps `1 2 3`, values 1, 2, 3 here
//! (xor 0: the second player wins), 1, 2, 4 there.

use crate::games::simple_nim;
use crate::problems::hdu3032::geometric;
use crate::problems::{Info, ParseError, Problem, Reader, Shape};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::nim::Piles;
use sgcheck_oracles::games::simple_nim::SimpleNim;
use sgcheck_oracles::{SearchError, Solver};

const MAX_T: u64 = 100;
const MAX_N: u64 = 1_000_000;
const MAX_S: u64 = 1_000_000_000;

/// The problem HDU 3032.
pub struct Hdu5795;

fn verdict(win: bool) -> Vec<String> {
    vec![if win {
        "First player wins."
    } else {
        "Second player wins."
    }
    .to_string()]
}

/// A random heap in 1..=max, now and then one of the largest allowed or one of the
/// smallest.
fn pile(rng: &mut ChaCha8Rng, max: u64) -> u64 {
    match rng.gen_range(0..16) {
        0 => max - rng.gen_range(0..=3).min(max - 1),
        1 => rng.gen_range(1..=4).min(max),
        _ => rng.gen_range(1..=max),
    }
}

/// Turns `piles` (at least 2) into a losing position, keeping it inside 1..=max: the
/// last pile becomes the one size whose value is the XOR of the others' values (the
/// closed form is an involution, so that size is SG(x)); when that is 0 or too large,
/// one other pile is redrawn; after a few tries the second half mirrors the first.
fn make_losing(rng: &mut ChaCha8Rng, piles: &mut Vec<u64>, max: u64) {
    let n = piles.len();
    debug_assert!(n >= 2);
    let mut x = piles[..n - 1]
        .iter()
        .fold(0, |a, &p| a ^ simple_nim::heap_value(p));
    for _ in 0..64 {
        if x != 0 {
            let last = simple_nim::heap_value(x);
            if last <= max {
                piles[n - 1] = last;
                return;
            }
        }
        let i = rng.gen_range(0..n - 1);
        let new = pile(rng, max);
        x ^= simple_nim::heap_value(piles[i]) ^ simple_nim::heap_value(new);
        piles[i] = new;
    }
    // Equal piles cancel: an even number of piles, the second half a copy.
    if !n.is_multiple_of(2) {
        piles.pop();
    }
    let half = piles.len() / 2;
    for i in 0..half {
        piles[half + i] = piles[i];
    }
}

impl Problem for Hdu5795 {
    type Case = Vec<u64>;

    fn info(&self) -> Info {
        Info {
            id: "hdu5795",
            aliases: &[],
            game: "simple-nim",
            title: "HDU 5795, A Simple Nim (take, or split a heap in three)",
            input: "T; then per case: n, then n heap sizes",
            output: "per case `First player wins.` or `Second player wins.`",
            limits: "T <= 100, 1 <= n <= 10^6, 1 <= s <= 10^9",
        }
    }

    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<Vec<u64>>, ParseError> {
        let mut r = Reader::new(input, lenient);
        let t = r.limited("case count T", 1, MAX_T, 0)?;
        let mut cases = Vec::new();
        for c in 1..=t {
            let n = r.limited(&format!("heap count n of case {c}"), 1, MAX_N, 0)?;
            let piles = r.limited_list(n, (1, MAX_S, 0), |i| format!("heap {i} of case {c}"))?;
            cases.push(piles);
        }
        r.expect_end(&format!("the {t} case(s) announced on line 1"))?;
        Ok(cases)
    }

    fn write_input(&self, cases: &[Vec<u64>]) -> String {
        crate::problems::write_counted_cases(cases)
    }

    fn answer(&self, case: &Vec<u64>, _index: usize) -> Vec<String> {
        verdict(simple_nim::first_wins(case))
    }

    fn oracle_answer(
        &self,
        case: &Vec<u64>,
        _index: usize,
        budget: usize,
    ) -> Result<Vec<String>, SearchError> {
        let o = Solver::verdict_only(SimpleNim)
            .with_budget(budget)
            .outcome(&Piles(case.clone()))?;
        Ok(verdict(o.win))
    }

    fn max_cases(&self) -> usize {
        MAX_T as usize
    }

    fn check_limits(&self, case: &Vec<u64>) -> Result<(), String> {
        if case.is_empty() || case.len() as u64 > MAX_N {
            return Err(format!("n = {} is outside 1..={MAX_N}", case.len()));
        }
        match case.iter().find(|&&p| !(1..=MAX_S).contains(&p)) {
            Some(p) => Err(format!("heap {p} is outside 1..={MAX_S}")),
            None => Ok(()),
        }
    }

    fn small_cases(&self, size: u32) -> Vec<Vec<u64>> {
        // Size is the excess over all-ones piles, sum of (s - 1): size 0 is 1 to 4
        // piles of one stone, then every case of up to 4 piles in turn.
        crate::verify::compositions(u64::from(size), 4)
            .into_iter()
            .map(|c| c.into_iter().map(|x| x + 1).collect())
            .collect()
    }

    fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> Vec<u64> {
        // Counts and sizes grow geometrically with the scale: 1.0 reaches n = 10^6 and
        // heaps of 10^9, 0.1 stays near 4 heaps of at most 8.
        let max_n = geometric(MAX_N, scale);
        let max_s = geometric(MAX_S, scale);
        // Half the time the count is log-uniform in 1..=max_n instead of uniform: the
        // largest sizes then come with a few heaps too,
        // cheap to run and to shrink, not only inside inputs of half a million piles.
        let mut n = if rng.gen_bool(0.5) {
            rng.gen_range(1..=max_n)
        } else {
            geometric(max_n, rng.gen::<f64>())
        } as usize;
        if shape != Shape::Any {
            // One pile always wins (its value is its size or more, never 0).
            n = n.max(2);
        }
        let mut piles: Vec<u64> = (0..n).map(|_| pile(rng, max_s)).collect();
        match shape {
            Shape::Any => {}
            Shape::Losing => make_losing(rng, &mut piles, max_s),
            Shape::ManyWinning => {
                // A losing position with one pile changed is won; a large new pile
                // makes the XOR's top bit high, so many piles carry it and offer a
                // winning take, and the changed heap itself has many splits.
                make_losing(rng, &mut piles, max_s);
                let i = rng.gen_range(0..piles.len());
                let old = piles[i];
                let mut new = pile(rng, max_s);
                if new == old {
                    new = if old < max_s { old + 1 } else { old - 1 };
                }
                if new == 0 {
                    // max_s = 1: only ones, an even number of them; one fewer wins.
                    piles.pop();
                } else {
                    piles[i] = new;
                }
            }
        }
        piles
    }

    fn shrink(&self, case: &Vec<u64>) -> Vec<Vec<u64>> {
        // Piles hold at least one stone: candidates that empty a pile are dropped.
        crate::problems::shrink_piles(case, 1)
            .into_iter()
            .filter(|c| !c.is_empty() && c.iter().all(|&p| p >= 1))
            .collect()
    }

    fn halves(&self, case: &Vec<u64>) -> Vec<Vec<u64>> {
        // Each half of the piles: N reaches 10^6, far too many for `shrink`'s copies.
        if case.len() < 2 {
            return Vec::new();
        }
        let (a, b) = case.split_at(case.len() / 2);
        vec![a.to_vec(), b.to_vec()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::solve_fast;
    use rand::SeedableRng;

    #[test]
    fn sample() {
        // Sample of the HDU 5795 statement.
        let cases = Hdu5795.parse("2\n2\n4 4\n3\n1 2 4\n", false).unwrap();
        assert_eq!(
            solve_fast(&Hdu5795, &cases),
            "Second player wins.\nFirst player wins.\n"
        );
    }

    #[test]
    fn three_way_splits_matter() {
        // 1 2 3: values 1, 2, 3, xor 0 (Lasker's values 1, 2, 4 would say the first
        // player wins). 7 and 8 swap: 7 next to 8 is 8 xor 7, not 0; 7 next to 7 is 0.
        let cases = Hdu5795
            .parse("4\n3\n1 2 3\n2\n7 8\n2\n7 7\n1\n1000000000\n", false)
            .unwrap();
        assert_eq!(
            solve_fast(&Hdu5795, &cases),
            "Second player wins.\nFirst player wins.\nSecond player wins.\nFirst player wins.\n"
        );
        assert_eq!(
            Hdu5795.oracle_answer(&vec![1, 2, 3], 0, 100_000).unwrap(),
            ["Second player wins."]
        );
    }

    #[test]
    fn errors_name_line_and_field() {
        let e = Hdu5795.parse("1\n3\n1 2\n", false).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (3, "heap 3 of case 1"));
        let e = Hdu5795.parse("1\n1\n1000000001\n", false).unwrap_err();
        assert_eq!(e.line, 3);
        let e = Hdu5795.parse("1\n0\n", false).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(Hdu5795.parse("101\n", false).is_err());
        // Lenient: no heaps at all is lost for the player to move.
        let cases = Hdu5795.parse("1\n0\n", true).unwrap();
        assert_eq!(solve_fast(&Hdu5795, &cases), "Second player wins.\n");
    }

    #[test]
    fn generated_cases_are_valid_and_shaped() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for scale in [0.0, 0.05, 0.2, 0.5] {
            for _ in 0..200 {
                let c = Hdu5795.generate(&mut rng, scale, Shape::Losing);
                assert_eq!(Hdu5795.check_limits(&c), Ok(()), "{c:?}");
                assert!(!simple_nim::first_wins(&c), "{c:?} should lose");
                let c = Hdu5795.generate(&mut rng, scale, Shape::ManyWinning);
                assert_eq!(Hdu5795.check_limits(&c), Ok(()), "{c:?}");
                assert!(simple_nim::first_wins(&c), "{c:?} should win");
                let c = Hdu5795.generate(&mut rng, scale, Shape::Any);
                assert_eq!(Hdu5795.check_limits(&c), Ok(()), "{c:?}");
            }
        }
        let c = Hdu5795.generate(&mut rng, 1.0, Shape::Losing);
        assert_eq!(Hdu5795.check_limits(&c), Ok(()));
        assert!(!simple_nim::first_wins(&c));
    }

    #[test]
    fn losing_cases_agree_with_the_oracle() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut checked = 0;
        for _ in 0..60 {
            let c = Hdu5795.generate(&mut rng, 0.08, Shape::Losing);
            if let Ok(o) = Hdu5795.oracle_answer(&c, 0, 200_000) {
                assert_eq!(o, ["Second player wins."], "{c:?}");
                checked += 1;
            }
        }
        assert!(checked >= 30, "only {checked} cases fit the oracle");
    }

    #[test]
    fn small_cases_shrink_and_round_trip() {
        for size in 0..5 {
            for c in Hdu5795.small_cases(size) {
                assert_eq!(Hdu5795.check_limits(&c), Ok(()));
            }
        }
        let c = vec![5, 1, 2];
        for s in Hdu5795.shrink(&c) {
            assert_eq!(Hdu5795.check_limits(&s), Ok(()));
        }
        let cases = vec![vec![1, 2, 3], vec![1_000_000_000]];
        let text = Hdu5795.write_input(&cases);
        assert_eq!(text, "2\n3\n1 2 3\n1\n1000000000\n");
        assert_eq!(Hdu5795.parse(&text, false).unwrap(), cases);
    }
}

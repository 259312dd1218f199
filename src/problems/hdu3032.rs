//! HDU 3032, "Nim or not Nim?": Lasker's Nim.
//!
//! Input: T; then per case: N, then N pile sizes. Output per case: `Alice` when the
//! first player wins, else `Bob`. Limits (SPEC.md): T <= 100, 1 <= N <= 10^6,
//! 1 <= s <= 2^31 - 1. `--lenient` lifts the limits (any u64 count and pile, N = 0 and
//! empty piles included); the format stays strict.
//! Sample (SPEC.md): `2 / 3 / 2 2 3 / 2 / 3 3` => `Alice / Bob`.
//!
//! The answer is the XOR of the pile values of [`crate::games::lasker`]: O(N), exact
//! for every pile (a pile of 2^31 - 1 has the value 2^31, past a signed 32-bit int:
//! the classic wrong answer). Inputs reach 10^8 numbers at the limits, so parsing
//! reads bytes and names a field only when it reports an error.

use crate::games::lasker;
use crate::problems::{Info, ParseError, Part, Problem, Reader, Shape};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::lasker::Lasker;
use sgcheck_oracles::games::nim::Piles;
use sgcheck_oracles::{SearchError, Solver};

const MAX_T: u64 = 100;
const MAX_N: u64 = 1_000_000;
const MAX_S: u64 = (1 << 31) - 1;

/// The problem HDU 3032.
pub struct Hdu3032;

fn verdict(win: bool) -> Vec<String> {
    vec![if win { "Alice" } else { "Bob" }.to_string()]
}

/// `max^scale`, rounded, at least 1: the generator's sizes grow geometrically with the
/// scale, so small scales give cases the oracle can check and 1.0 gives the limit.
pub(crate) fn geometric(max: u64, scale: f64) -> u64 {
    let v = (max as f64).powf(scale.clamp(0.0, 1.0)).round();
    (v as u64).clamp(1, max)
}

/// A random pile in 1..=max, now and then one of the largest allowed (where 32-bit
/// overflow bites) or one of the smallest.
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
        .fold(0, |a, &p| a ^ lasker::pile_value(p));
    for _ in 0..64 {
        if x != 0 {
            let last = lasker::pile_value(x);
            if last <= max {
                piles[n - 1] = last;
                return;
            }
        }
        let i = rng.gen_range(0..n - 1);
        let new = pile(rng, max);
        x ^= lasker::pile_value(piles[i]) ^ lasker::pile_value(new);
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

impl Problem for Hdu3032 {
    type Case = Vec<u64>;

    fn info(&self) -> Info {
        Info {
            id: "hdu3032",
            aliases: &[],
            game: "lasker",
            title: "HDU 3032, Nim or not Nim? (Lasker's Nim)",
            input: "T; then per case: N, then N pile sizes",
            output: "per case `Alice` if the first player wins, else `Bob`",
            limits: "T <= 100, 1 <= N <= 10^6, 1 <= s <= 2^31-1",
        }
    }

    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<Vec<u64>>, ParseError> {
        let mut r = Reader::new(input, lenient);
        let t = r.limited("case count T", 1, MAX_T, 0)?;
        let mut cases = Vec::new();
        for c in 1..=t {
            let n = r.limited(&format!("pile count N of case {c}"), 1, MAX_N, 0)?;
            let piles = r.limited_list(n, (1, MAX_S, 0), |i| format!("pile {i} of case {c}"))?;
            cases.push(piles);
        }
        r.expect_end(&format!("the {t} case(s) announced on line 1"))?;
        Ok(cases)
    }

    fn write_input(&self, cases: &[Vec<u64>]) -> String {
        crate::problems::write_counted_cases(cases)
    }

    fn answer(&self, case: &Vec<u64>, _index: usize) -> Vec<String> {
        verdict(lasker::first_wins(case))
    }

    fn oracle_answer(
        &self,
        case: &Vec<u64>,
        _index: usize,
        budget: usize,
    ) -> Result<Vec<String>, SearchError> {
        let o = Solver::verdict_only(Lasker)
            .with_budget(budget)
            .outcome(&Piles(case.clone()))?;
        Ok(verdict(o.win))
    }

    fn max_cases(&self) -> usize {
        MAX_T as usize
    }

    fn check_limits(&self, case: &Vec<u64>) -> Result<(), String> {
        if case.is_empty() || case.len() as u64 > MAX_N {
            return Err(format!("N = {} is outside 1..={MAX_N}", case.len()));
        }
        match case.iter().find(|&&p| !(1..=MAX_S).contains(&p)) {
            Some(p) => Err(format!("pile {p} is outside 1..={MAX_S}")),
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
        // Counts and sizes grow geometrically with the scale: 1.0 reaches N = 10^6 and
        // piles of 2^31 - 1, 0.1 stays near 4 piles of at most 9 stones.
        let max_n = geometric(MAX_N, scale);
        let max_s = geometric(MAX_S, scale);
        // Half the time the count is log-uniform in 1..=max_n instead of uniform: the
        // largest sizes (where 32-bit overflow bites) then come with a few piles too,
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
                // winning take, and the changed pile itself has many splits.
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

    fn parts(&self, case: &Vec<u64>) -> Vec<Part> {
        vec![Part {
            values: case.clone(),
            min_value: 1,
            min_len: 1,
            unit: 1,
        }]
    }

    fn rebuild(&self, _case: &Vec<u64>, values: Vec<Vec<u64>>) -> Option<Vec<u64>> {
        values.into_iter().next()
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
        // SPEC.md hdu3032 sample.
        let cases = Hdu3032.parse("2\n3\n2 2 3\n2\n3 3\n", false).unwrap();
        assert_eq!(solve_fast(&Hdu3032, &cases), "Alice\nBob\n");
    }

    #[test]
    fn largest_pile_is_not_an_i32() {
        // SPEC.md known answer: a pile of 2^31-1 has SG 2^31. One such pile wins (a
        // 32-bit program that tests `xor > 0` sees a negative number and says Bob); two
        // equal piles lose; next to 2^31 - 2 (= 4k+2, its own value) the XOR is
        // 2^31 xor (2^31 - 2) = 2^32 - 2, which does not even fit 32 bits: Alice.
        let cases = Hdu3032
            .parse(
                "3\n1\n2147483647\n2\n2147483647 2147483647\n2\n2147483647 2147483646\n",
                false,
            )
            .unwrap();
        assert_eq!(solve_fast(&Hdu3032, &cases), "Alice\nBob\nAlice\n");
        assert!(Hdu3032.parse("1\n1\n2147483648\n", false).is_err());
        assert!(Hdu3032.parse("1\n1\n2147483648\n", true).is_ok());
    }

    #[test]
    fn errors_name_line_and_field() {
        let e = Hdu3032.parse("1\n3\n1 2\n", false).unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(e.field, "pile 3 of case 1");
        let e = Hdu3032.parse("1\n2\n1 0\n", false).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (3, "pile 2 of case 1"));
        let e = Hdu3032.parse("101\n", false).unwrap_err();
        assert_eq!(e.line, 1);
        let e = Hdu3032.parse("1\n0\n", false).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (2, "pile count N of case 1"));
        // Lenient: N = 0 is an empty position, lost for the player to move.
        let cases = Hdu3032.parse("1\n0\n", true).unwrap();
        assert_eq!(solve_fast(&Hdu3032, &cases), "Bob\n");
    }

    #[test]
    fn million_piles_parse_fast_enough() {
        // The limit case N = 10^6 with the largest piles: the verdict must be exact and
        // the parse linear. 10^6 copies of 2^31-1 cancel in pairs (even count): Bob.
        let mut input = String::from("1\n1000000\n");
        for _ in 0..1_000_000 {
            input.push_str("2147483647 ");
        }
        let t = std::time::Instant::now();
        let cases = Hdu3032.parse(&input, false).unwrap();
        assert_eq!(solve_fast(&Hdu3032, &cases), "Bob\n");
        // Generous even for a debug build; release takes a few tens of milliseconds.
        assert!(t.elapsed().as_secs() < 10, "{:?}", t.elapsed());
    }

    #[test]
    fn generated_cases_are_valid_and_shaped() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for scale in [0.0, 0.05, 0.2, 0.5] {
            for _ in 0..200 {
                let c = Hdu3032.generate(&mut rng, scale, Shape::Losing);
                assert_eq!(Hdu3032.check_limits(&c), Ok(()), "{c:?}");
                assert!(!lasker::first_wins(&c), "{c:?} should lose");
                let c = Hdu3032.generate(&mut rng, scale, Shape::ManyWinning);
                assert_eq!(Hdu3032.check_limits(&c), Ok(()), "{c:?}");
                assert!(lasker::first_wins(&c), "{c:?} should win");
                let c = Hdu3032.generate(&mut rng, scale, Shape::Any);
                assert_eq!(Hdu3032.check_limits(&c), Ok(()), "{c:?}");
            }
        }
        // At scale 1 the limits themselves are reachable.
        let c = Hdu3032.generate(&mut rng, 1.0, Shape::Losing);
        assert_eq!(Hdu3032.check_limits(&c), Ok(()));
        assert!(!lasker::first_wins(&c));
        assert_eq!(geometric(MAX_S, 1.0), MAX_S);
        assert_eq!(geometric(MAX_N, 1.0), MAX_N);
    }

    #[test]
    fn losing_cases_agree_with_the_oracle() {
        // Losing positions built from the theory are lost by plain minimax too (cases
        // too large for the oracle are skipped, but most fit at this scale).
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut checked = 0;
        for _ in 0..100 {
            let c = Hdu3032.generate(&mut rng, 0.1, Shape::Losing);
            if let Ok(o) = Hdu3032.oracle_answer(&c, 0, 400_000) {
                assert_eq!(o, ["Bob"], "{c:?}");
                checked += 1;
            }
        }
        assert!(checked >= 80, "only {checked} cases fit the oracle");
    }

    #[test]
    fn small_cases_and_shrink_stay_valid() {
        assert_eq!(Hdu3032.small_cases(0).len(), 4);
        for size in 0..6 {
            for c in Hdu3032.small_cases(size) {
                assert_eq!(Hdu3032.check_limits(&c), Ok(()));
                assert_eq!(c.iter().map(|p| p - 1).sum::<u64>(), u64::from(size));
            }
        }
        let c = vec![5, 1, 2];
        for s in Hdu3032.shrink(&c) {
            assert_eq!(Hdu3032.check_limits(&s), Ok(()));
            assert!(s.len() < c.len() || s.iter().sum::<u64>() < c.iter().sum::<u64>());
        }
        assert!(Hdu3032.shrink(&vec![1]).is_empty());
        assert_eq!(Hdu3032.halves(&c), vec![vec![5], vec![1, 2]]);
        assert!(Hdu3032.halves(&vec![1]).is_empty());
    }

    #[test]
    fn write_then_parse_round_trips() {
        let cases = vec![vec![1, 2, 3], vec![2147483647]];
        let text = Hdu3032.write_input(&cases);
        assert_eq!(text, "2\n3\n1 2 3\n1\n2147483647\n");
        assert_eq!(Hdu3032.parse(&text, false).unwrap(), cases);
    }
}

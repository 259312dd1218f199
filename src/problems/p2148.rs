//! Luogu P2148, SDOI2009 "E&D".
//!
//! Input: T; then per case: N (even), then N pile sizes; piles 2i-1 and 2i form a
//! pair. Output per case: `YES` when the first player wins, else `NO`. Limits
//! (SPEC.md): T <= 20, 2 <= N <= 2*10^4, 1 <= S <= 2*10^9. `--lenient` lifts the
//! limits (N = 0, any u64 count and pile), but an odd N stays a format error (the piles
//! could not be paired) and so does an empty pile (the game has none).
//! Sample (SPEC.md): `2 / 4 / 1 2 3 1 / 6 / 1 1 1 1 1 1` => `YES / NO`.
//!
//! The answer is the XOR of the pair values of [`crate::games::ed`]: O(N).

use crate::games::ed;
use crate::problems::hdu3032::geometric;
use crate::problems::{Info, ParseError, Part, Problem, Reader, Shape};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::ed::{Ed, EdPiles};
use sgcheck_oracles::{SearchError, Solver};

const MAX_T: u64 = 20;
const MAX_N: u64 = 20_000;
const MAX_S: u64 = 2_000_000_000;
/// Cases of at most this many pairs get every single-pair and single-pile shrink
/// candidate; longer ones a bounded number of chunk removals.
const FINE_SHRINK_PAIRS: usize = 32;

/// The problem P2148.
pub struct P2148;

fn verdict(win: bool) -> Vec<String> {
    vec![if win { "YES" } else { "NO" }.to_string()]
}

/// A random pile in 1..=max, now and then an edge: 1, the largest, or a power of two
/// or one past it (where the low bits of s - 1 are all ones or all zeros).
fn pile(rng: &mut ChaCha8Rng, max: u64) -> u64 {
    match rng.gen_range(0..16) {
        0 => 1,
        1 => max,
        2 => {
            let top = 63 - max.leading_zeros();
            let p = 1u64 << rng.gen_range(0..=top);
            (p + rng.gen_range(0..=1)).min(max)
        }
        _ => rng.gen_range(1..=max),
    }
}

/// A random pair (a, b), both in 1..=max, whose value is `x`: (a-1) | (b-1) must have
/// its low x bits set and bit x clear. The low bits are dealt to a-1, b-1 or both, the
/// bits above x drawn at random under the bound. `None` when 2^x exceeds `max`.
fn pair_with_value(rng: &mut ChaCha8Rng, x: u64, max: u64) -> Option<(u64, u64)> {
    let low = 1u64.checked_shl(x as u32)? - 1;
    if low >= max {
        return None;
    }
    let to_a: u64 = rng.gen::<u64>() & low;
    let to_b = (low & !to_a) | (rng.gen::<u64>() & low);
    let high = |rng: &mut ChaCha8Rng, part: u64| -> u64 {
        // part + high <= max - 1, high a multiple of 2^(x+1) (bit x stays clear).
        let room = (max - 1 - part).checked_shr(x as u32 + 1).unwrap_or(0);
        let h = if rng.gen_bool(0.5) {
            0
        } else {
            rng.gen_range(0..=room)
        };
        h.checked_shl(x as u32 + 1).unwrap_or(0)
    };
    let a = (high(rng, to_a) | to_a) + 1;
    let b = (high(rng, to_b) | to_b) + 1;
    debug_assert_eq!(ed::pair_value(a, b), x);
    Some((a, b))
}

/// Turns `piles` (an even number, at least 2) into a losing position inside 1..=max:
/// the last pair becomes a pair whose value is the XOR of the others' values; when that
/// value needs piles above `max`, one other pair is redrawn; after a few tries every
/// pair is made odd-odd (value 0: (a-1) | (b-1) even).
fn make_losing(rng: &mut ChaCha8Rng, piles: &mut [u64], max: u64) {
    let n = piles.len();
    let value = |p: &[u64], i: usize| ed::pair_value(p[2 * i], p[2 * i + 1]);
    let mut x = (0..n / 2 - 1).fold(0, |a, i| a ^ value(piles, i));
    for _ in 0..64 {
        if let Some((a, b)) = pair_with_value(rng, x, max) {
            piles[n - 2] = a;
            piles[n - 1] = b;
            return;
        }
        if n == 2 {
            break;
        }
        let i = rng.gen_range(0..n / 2 - 1);
        x ^= value(piles, i);
        piles[2 * i] = pile(rng, max);
        piles[2 * i + 1] = pile(rng, max);
        x ^= value(piles, i);
    }
    for p in piles.iter_mut() {
        if p.is_multiple_of(2) {
            *p -= 1;
        }
    }
}

impl Problem for P2148 {
    type Case = Vec<u64>;

    fn info(&self) -> Info {
        Info {
            id: "p2148",
            aliases: &[],
            game: "ed",
            title: "Luogu P2148, SDOI2009 E&D",
            input: "T; then per case: N (even), then N pile sizes, in pairs",
            output: "per case `YES` if the first player wins, else `NO`",
            limits: "T <= 20, 2 <= N <= 2*10^4 (N even), 1 <= S <= 2*10^9",
        }
    }

    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<Vec<u64>>, ParseError> {
        let mut r = Reader::new(input, lenient);
        let t = r.limited("case count T", 1, MAX_T, 0)?;
        let mut cases = Vec::new();
        for c in 1..=t {
            let field = format!("pile count N of case {c}");
            let n = r.limited(&field, 2, MAX_N, 0)?;
            if !n.is_multiple_of(2) {
                // Part of the format, not a limit: the piles come in pairs.
                return Err(r.error(
                    field,
                    format!("N must be even (piles come in pairs), found {n}"),
                ));
            }
            let piles = r.limited_list(n, (1, MAX_S, 1), |i| format!("pile {i} of case {c}"))?;
            cases.push(piles);
        }
        r.expect_end(&format!("the {t} case(s) announced on line 1"))?;
        Ok(cases)
    }

    fn write_input(&self, cases: &[Vec<u64>]) -> String {
        crate::problems::write_counted_cases(cases)
    }

    fn answer(&self, case: &Vec<u64>, _index: usize) -> Vec<String> {
        verdict(ed::first_wins(case))
    }

    fn oracle_answer(
        &self,
        case: &Vec<u64>,
        _index: usize,
        budget: usize,
    ) -> Result<Vec<String>, SearchError> {
        let o = Solver::verdict_only(Ed)
            .with_budget(budget)
            .outcome(&EdPiles(case.clone()))?;
        Ok(verdict(o.win))
    }

    fn max_cases(&self) -> usize {
        MAX_T as usize
    }

    fn check_limits(&self, case: &Vec<u64>) -> Result<(), String> {
        let n = case.len() as u64;
        if !(2..=MAX_N).contains(&n) || !n.is_multiple_of(2) {
            return Err(format!("N = {n} is not an even number in 2..={MAX_N}"));
        }
        match case.iter().find(|&&p| !(1..=MAX_S).contains(&p)) {
            Some(p) => Err(format!("pile {p} is outside 1..={MAX_S}")),
            None => Ok(()),
        }
    }

    fn small_cases(&self, size: u32) -> Vec<Vec<u64>> {
        // Size is the excess over all-ones piles, sum of (S - 1), over 1 to 3 pairs:
        // size 0 is the all-ones cases (no move: NO), then one pair before two, two
        // before three.
        let mut out = Vec::new();
        for len in [2, 4, 6] {
            for c in crate::verify::compositions(u64::from(size), len) {
                if c.len() == len {
                    out.push(c.into_iter().map(|x| x + 1).collect());
                }
            }
        }
        out
    }

    fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> Vec<u64> {
        // Counts and sizes grow geometrically with the scale: 1.0 reaches N = 2*10^4
        // and piles of 2*10^9; small scales stay in the oracle's reach.
        let max_pairs = geometric(MAX_N / 2, scale);
        let max_s = geometric(MAX_S, scale);
        let pairs = rng.gen_range(1..=max_pairs) as usize;
        let mut piles: Vec<u64> = (0..2 * pairs).map(|_| pile(rng, max_s)).collect();
        match shape {
            Shape::Any => {}
            Shape::Losing => make_losing(rng, &mut piles, max_s),
            Shape::ManyWinning => {
                // A losing position with one pair changed to another value is won; the
                // pair's new value is drawn high, so the XOR's top bit is in many pairs.
                make_losing(rng, &mut piles, max_s);
                let i = rng.gen_range(0..pairs);
                let old = ed::pair_value(piles[2 * i], piles[2 * i + 1]);
                let top = u64::from(63 - max_s.leading_zeros());
                for _ in 0..64 {
                    let x = rng.gen_range(0..=top);
                    if x == old {
                        continue;
                    }
                    if let Some((a, b)) = pair_with_value(rng, x, max_s) {
                        piles[2 * i] = a;
                        piles[2 * i + 1] = b;
                        break;
                    }
                }
            }
        }
        piles
    }

    fn parts(&self, case: &Vec<u64>) -> Vec<Part> {
        // Piles come in pairs: remove them two at a time.
        vec![Part {
            values: case.clone(),
            min_value: 1,
            min_len: 2,
            unit: 2,
        }]
    }

    fn rebuild(&self, _case: &Vec<u64>, values: Vec<Vec<u64>>) -> Option<Vec<u64>> {
        values.into_iter().next()
    }

    /// Remove chunks of pairs (halves, quarters, ..., single pairs; keeping one pair),
    /// then lower one pile to 1, to half, by one. Long cases (more than
    /// `FINE_SHRINK_PAIRS` pairs) get chunks down to 1/`FINE_SHRINK_PAIRS` of the
    /// pairs, the first and the last pair alone (so a threshold on N is reached
    /// exactly), and "halve every pile" instead of per-pile candidates: at most about
    /// 2 * `FINE_SHRINK_PAIRS` + 3 copies of the case, which keeps a shrink round
    /// cheap at 10^4 pairs.
    fn shrink(&self, case: &Vec<u64>) -> Vec<Vec<u64>> {
        let pairs = case.len() / 2;
        let without = |a: usize, b: usize| [&case[..2 * a], &case[2 * b..]].concat();
        let mut out = Vec::new();
        let finest = pairs.div_ceil(FINE_SHRINK_PAIRS).max(1);
        let mut chunk = pairs / 2;
        while chunk >= finest {
            let mut start = 0;
            while start < pairs {
                let end = (start + chunk).min(pairs);
                out.push(without(start, end));
                start = end;
            }
            chunk /= 2;
        }
        if pairs > FINE_SHRINK_PAIRS {
            out.push(without(0, 1));
            out.push(without(pairs - 1, pairs));
            if case.iter().any(|&s| s > 1) {
                out.push(case.iter().map(|&s| (s / 2).max(1)).collect());
            }
            return out;
        }
        for (i, &s) in case.iter().enumerate() {
            let mut tried = Vec::with_capacity(3);
            for smaller in [1, s / 2, s.saturating_sub(1)] {
                if smaller >= 1 && smaller < s && !tried.contains(&smaller) {
                    tried.push(smaller);
                    let mut v = case.clone();
                    v[i] = smaller;
                    out.push(v);
                }
            }
        }
        out
    }

    fn halves(&self, case: &Vec<u64>) -> Vec<Vec<u64>> {
        // Each half of the pairs.
        let pairs = case.len() / 2;
        if pairs < 2 {
            return Vec::new();
        }
        let (a, b) = case.split_at(2 * (pairs / 2));
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
        // SPEC.md p2148 sample.
        let cases = P2148
            .parse("2\n4\n1 2 3 1\n6\n1 1 1 1 1 1\n", false)
            .unwrap();
        assert_eq!(solve_fast(&P2148, &cases), "YES\nNO\n");
    }

    #[test]
    fn odd_n_is_a_format_error_even_when_lenient() {
        for lenient in [false, true] {
            let e = P2148.parse("1\n3\n1 2 3\n", lenient).unwrap_err();
            assert_eq!((e.line, e.field.as_str()), (2, "pile count N of case 1"));
            assert!(e.message.contains("even"), "{e}");
        }
        // An empty pile too; N = 0 only when lenient (an empty game: NO).
        assert!(P2148.parse("1\n2\n0 1\n", true).is_err());
        assert!(P2148.parse("1\n0\n", false).is_err());
        assert_eq!(
            solve_fast(&P2148, &P2148.parse("1\n0\n", true).unwrap()),
            "NO\n"
        );
    }

    #[test]
    fn errors_name_line_and_field() {
        let e = P2148.parse("1\n4\n1 2\n3\n", false).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (4, "pile 4 of case 1"));
        let e = P2148.parse("1\n2\n1 2000000001\n", false).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (3, "pile 2 of case 1"));
        assert!(P2148.parse("1\n2\n1 2000000001\n", true).is_ok());
        let e = P2148.parse("21\n", false).unwrap_err();
        assert_eq!(e.line, 1);
    }

    #[test]
    fn largest_piles() {
        // (2*10^9, 2*10^9): 2*10^9 - 1 has its lowest zero bit at 10 (see
        // games::ed::tests::largest_piles): value 10, a win; (2*10^9, 1) has the same
        // (a-1) | (b-1), so the two pairs cancel.
        let cases = P2148
            .parse(
                "2\n2\n2000000000 2000000000\n4\n2000000000 2000000000 2000000000 1\n",
                false,
            )
            .unwrap();
        assert_eq!(solve_fast(&P2148, &cases), "YES\nNO\n");
    }

    #[test]
    fn generated_cases_are_valid_and_shaped() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for scale in [0.0, 0.05, 0.2, 0.5, 1.0] {
            for _ in 0..200 {
                let c = P2148.generate(&mut rng, scale, Shape::Losing);
                assert_eq!(P2148.check_limits(&c), Ok(()), "{c:?}");
                assert!(!ed::first_wins(&c), "{c:?} should lose");
                let c = P2148.generate(&mut rng, scale, Shape::ManyWinning);
                assert_eq!(P2148.check_limits(&c), Ok(()), "{c:?}");
                let c = P2148.generate(&mut rng, scale, Shape::Any);
                assert_eq!(P2148.check_limits(&c), Ok(()), "{c:?}");
            }
        }
        // Where values 1..=3 are available (piles up to 8), ManyWinning is a win.
        for _ in 0..200 {
            let c = P2148.generate(&mut rng, 0.3, Shape::ManyWinning);
            assert!(ed::first_wins(&c), "{c:?} should win");
        }
    }

    #[test]
    fn pair_with_value_hits_every_value() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for x in 0..=30 {
            for _ in 0..50 {
                let (a, b) = pair_with_value(&mut rng, x, MAX_S).unwrap();
                assert!((1..=MAX_S).contains(&a) && (1..=MAX_S).contains(&b));
                assert_eq!(ed::pair_value(a, b), x);
            }
        }
        // 2^31 > 2*10^9: value 31 needs a pile of 2^31.
        assert_eq!(pair_with_value(&mut rng, 31, MAX_S), None);
    }

    #[test]
    fn losing_cases_agree_with_the_oracle() {
        // Losing positions built from the theory are lost by plain minimax too (cases
        // too large for the oracle are skipped, but most fit at this scale).
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut checked = 0;
        for _ in 0..100 {
            let c = P2148.generate(&mut rng, 0.12, Shape::Losing);
            if let Ok(o) = P2148.oracle_answer(&c, 0, 400_000) {
                assert_eq!(o, ["NO"], "{c:?}");
                checked += 1;
            }
        }
        assert!(checked >= 80, "only {checked} cases fit the oracle");
    }

    #[test]
    fn small_cases_and_shrink_stay_valid() {
        assert_eq!(
            P2148.small_cases(0),
            vec![vec![1; 2], vec![1; 4], vec![1; 6]]
        );
        for size in 0..6 {
            for c in P2148.small_cases(size) {
                assert_eq!(P2148.check_limits(&c), Ok(()));
            }
        }
        let c = vec![5, 1, 2, 2];
        for s in P2148.shrink(&c) {
            assert_eq!(P2148.check_limits(&s), Ok(()));
            assert!(s.len() < c.len() || s.iter().sum::<u64>() < c.iter().sum::<u64>());
        }
        assert!(P2148.shrink(&vec![1, 1]).is_empty());
        // 10^4 pairs: a bounded number of candidates, among them the case without its
        // last pair; halves keep the pairs.
        let big: Vec<u64> = (1..=20_000).collect();
        let s = P2148.shrink(&big);
        assert!(
            s.len() <= 2 * FINE_SHRINK_PAIRS + 3,
            "{} candidates",
            s.len()
        );
        assert!(s.contains(&big[..19_998].to_vec()));
        for s in s.iter().chain(&P2148.halves(&big)) {
            assert_eq!(P2148.check_limits(s), Ok(()));
            assert!(s.len() < big.len() || s.iter().sum::<u64>() < big.iter().sum::<u64>());
        }
        assert_eq!(P2148.halves(&big)[1][0], 10_001);
        assert!(P2148.halves(&vec![1, 2]).is_empty());
    }

    #[test]
    fn write_then_parse_round_trips() {
        let cases = vec![vec![1, 2, 3, 1], vec![2000000000, 7]];
        let text = P2148.write_input(&cases);
        assert_eq!(text, "2\n4\n1 2 3 1\n2\n2000000000 7\n");
        assert_eq!(P2148.parse(&text, false).unwrap(), cases);
    }
}

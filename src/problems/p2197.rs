//! Luogu P2197, Nim.
//!
//! Input: T; then per case: n, then n pile sizes. Output per case: `Yes` when the
//! first player wins, else `No`. Limits: T <= 10, n <= 10^4, piles < 10^4 (n >= 1
//! is our reading; `--lenient` also accepts n = 0).
//! Sample (SPEC.md): `2 / 2 / 1 1 / 2 / 1 0` => `No / Yes`.

use crate::games::nim;
use crate::problems::{Info, ParseError, Part, Problem, Reader, Shape};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::nim::{Nim, Piles};
use sgcheck_oracles::{SearchError, Solver};

const MAX_T: u64 = 10;
const MAX_N: u64 = 10_000;
const MAX_PILE: u64 = 9_999;

/// The problem P2197.
pub struct P2197;

fn verdict(win: bool) -> Vec<String> {
    vec![if win { "Yes" } else { "No" }.to_string()]
}

impl Problem for P2197 {
    type Case = Vec<u64>;

    fn info(&self) -> Info {
        Info {
            id: "p2197",
            aliases: &[],
            game: "nim",
            title: "Luogu P2197, Nim",
            input: "T; then per case: n, then n pile sizes",
            output: "per case `Yes` if the first player wins, else `No`",
            limits: "T <= 10, 1 <= n <= 10^4, 0 <= pile < 10^4",
        }
    }

    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<Vec<u64>>, ParseError> {
        let mut r = Reader::new(input, lenient);
        let t = r.limited("case count T", 1, MAX_T, 0)?;
        let mut cases = Vec::new();
        for c in 1..=t {
            let n = r.limited(&format!("pile count n of case {c}"), 1, MAX_N, 0)?;
            let piles = r.limited_list(n, (0, MAX_PILE, 0), |i| format!("pile {i} of case {c}"))?;
            cases.push(piles);
        }
        r.expect_end(&format!("the {t} case(s) announced on line 1"))?;
        Ok(cases)
    }

    fn write_input(&self, cases: &[Vec<u64>]) -> String {
        crate::problems::write_counted_cases(cases)
    }

    fn answer(&self, case: &Vec<u64>, _index: usize) -> Vec<String> {
        verdict(nim::first_wins(case))
    }

    fn oracle_answer(
        &self,
        case: &Vec<u64>,
        _index: usize,
        budget: usize,
    ) -> Result<Vec<String>, SearchError> {
        let o = Solver::verdict_only(Nim)
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
        match case.iter().find(|&&p| p > MAX_PILE) {
            Some(p) => Err(format!("pile {p} is above {MAX_PILE}")),
            None => Ok(()),
        }
    }

    fn small_cases(&self, size: u32) -> Vec<Vec<u64>> {
        crate::verify::compositions(size as u64, 4)
    }

    fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> Vec<u64> {
        let max_n = 1 + ((MAX_N - 1) as f64 * scale * scale) as u64;
        let max_pile = 1 + ((MAX_PILE - 1) as f64 * scale) as u64;
        loop {
            // Losing and many-winning shapes need two piles at least (one pile is
            // always a win with exactly one winning move, or a loss when empty).
            let min_n = if shape == Shape::Any { 1 } else { 2 };
            let n = rng.gen_range(min_n..=max_n.max(min_n)) as usize;
            let mut piles: Vec<u64> = (0..n).map(|_| rng.gen_range(0..=max_pile)).collect();
            if shape == Shape::Any {
                return piles;
            }
            // The last pile set to the XOR of the others makes the XOR zero (losing);
            // then raising one pile makes every pile holding the top bit of the new
            // XOR a winning move.
            let x = piles[..n - 1].iter().fold(0, |a, &p| a ^ p);
            if x > MAX_PILE {
                continue;
            }
            piles[n - 1] = x;
            if shape == Shape::ManyWinning {
                let i = rng.gen_range(0..n);
                piles[i] = rng.gen_range(0..=max_pile);
            }
            return piles;
        }
    }

    fn parts(&self, case: &Vec<u64>) -> Vec<Part> {
        vec![Part {
            values: case.clone(),
            min_value: 0,
            min_len: 1,
            unit: 1,
        }]
    }

    fn rebuild(&self, _case: &Vec<u64>, values: Vec<Vec<u64>>) -> Option<Vec<u64>> {
        values.into_iter().next()
    }

    fn shrink(&self, case: &Vec<u64>) -> Vec<Vec<u64>> {
        crate::problems::shrink_piles(case, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::solve_fast;

    #[test]
    fn sample() {
        // SPEC.md p2197 sample.
        let cases = P2197.parse("2\n2\n1 1\n2\n1 0\n", false).unwrap();
        assert_eq!(solve_fast(&P2197, &cases), "No\nYes\n");
    }

    #[test]
    fn errors_name_the_line() {
        let e = P2197.parse("1\n2\n1", false).unwrap_err();
        assert!(e.to_string().contains("pile 2 of case 1"), "{e}");
        let e = P2197.parse("1\n1\n10000\n", false).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(P2197.parse("1\n1\n10000\n", true).is_ok());
        let e = P2197.parse("1\n1\n1\n7", false).unwrap_err();
        assert_eq!(e.line, 4);
    }
}

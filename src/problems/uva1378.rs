//! UVa 1378, A Funny Stone Game: the bean-splitting game of HNOI2007 in another
//! format, with the best move only.
//!
//! Input: cases until a line `0`: n, then n counts S_0 .. S_{n-1}. Output per case:
//! `Game t: i j k` (t from 1) with the lexicographically smallest winning move, or
//! `Game t: -1 -1 -1` when the first player loses; no count line. Limits:
//! 1 <= n <= 23, 0 <= S <= 1000. The terminating `0` is required and nothing may
//! follow it. `--lenient` accepts any count and 1 <= n <=
//! [`LENIENT_MAX_N`](crate::problems::bzoj1188::LENIENT_MAX_N). Numbers may be
//! separated by any whitespace; errors name bottles from 0, as the moves do.
//! Sample (SPEC.md): `4 / 1 0 1 100 / 3 / 1 0 5 / 2 / 2 1 / 0` =>
//! `Game 1: 0 2 3 / Game 2: 0 1 1 / Game 3: -1 -1 -1`.
//!
//! The game is `split` (see [`crate::games::split`]); parsing helpers, the generator
//! and the oracle call are shared with [`crate::problems::bzoj1188`].

use crate::games::split::analyze_counts;
use crate::problems::bzoj1188::{
    generate_row, move_text, oracle_analysis, read_counts, read_n, row_limits, small_rows,
};
use crate::problems::{Info, ParseError, Part, Problem, Reader, Shape};
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::SearchError;

const MIN_N: usize = 1;
const MAX_N: usize = 23;
const MAX_S: u64 = 1000;
/// The format ends with a terminator line and states no limit on the number of
/// cases; this is the practical limit the generators keep to.
const PRACTICAL_MAX_CASES: usize = 1000;

/// The problem UVa 1378.
pub struct Uva1378;

fn game_line(index: usize, best: String) -> Vec<String> {
    vec![format!("Game {}: {best}", index + 1)]
}

impl Problem for Uva1378 {
    type Case = Vec<u64>;

    fn info(&self) -> Info {
        Info {
            id: "uva1378",
            aliases: &[],
            game: "split",
            title: "UVa 1378, A Funny Stone Game (bean splitting)",
            input: "cases until a line `0`: n, then n counts",
            output: "per case `Game t: i j k` (t from 1), the lexicographically smallest \
                     winning move, or `Game t: -1 -1 -1`",
            limits: "1 <= n <= 23, 0 <= S <= 1000",
        }
    }

    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<Vec<u64>>, ParseError> {
        let mut r = Reader::new(input, lenient);
        let mut cases = Vec::new();
        loop {
            let c = cases.len() + 1;
            // At the end of input this names the last line: the terminator is missing.
            let field = format!("bottle count n of game {c} (or the terminating 0)");
            let n = read_n(&mut r, &field, 0, MAX_N as u64, 0)?;
            if n == 0 {
                r.expect_end("the terminating 0")?;
                return Ok(cases);
            }
            cases.push(read_counts(&mut r, n, MAX_S, &format!("game {c}"))?);
        }
    }

    fn write_input(&self, cases: &[Vec<u64>]) -> String {
        let mut s = String::new();
        for c in cases {
            crate::problems::write_counted(&mut s, c);
        }
        s.push_str("0\n");
        s
    }

    fn answer(&self, case: &Vec<u64>, index: usize) -> Vec<String> {
        game_line(index, move_text(analyze_counts(case).best()))
    }

    fn oracle_answer(
        &self,
        case: &Vec<u64>,
        index: usize,
        budget: usize,
    ) -> Result<Vec<String>, SearchError> {
        let a = oracle_analysis(case, budget)?;
        Ok(game_line(index, move_text(a.best())))
    }

    fn max_cases(&self) -> usize {
        PRACTICAL_MAX_CASES
    }

    fn check_limits(&self, case: &Vec<u64>) -> Result<(), String> {
        row_limits(case, (MIN_N, MAX_N), MAX_S)
    }

    fn small_cases(&self, size: u32) -> Vec<Vec<u64>> {
        small_rows(size, (MIN_N, MAX_N), MAX_S)
    }

    fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> Vec<u64> {
        generate_row(rng, scale, shape, (MIN_N, MAX_N), MAX_S)
    }

    fn parts(&self, case: &Vec<u64>) -> Vec<Part> {
        vec![Part {
            values: case.clone(),
            min_value: 0,
            min_len: MIN_N,
            unit: 1,
        }]
    }

    fn rebuild(&self, _case: &Vec<u64>, values: Vec<Vec<u64>>) -> Option<Vec<u64>> {
        values.into_iter().next()
    }

    fn shrink(&self, case: &Vec<u64>) -> Vec<Vec<u64>> {
        crate::problems::shrink_piles(case, MIN_N)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::{solve_fast, solve_oracle};
    use rand::SeedableRng;

    const SAMPLE: &str = "4\n1 0 1 100\n3\n1 0 5\n2\n2 1\n0\n";

    #[test]
    fn sample() {
        // SPEC.md uva1378 sample.
        let cases = Uva1378.parse(SAMPLE, false).unwrap();
        let want = "Game 1: 0 2 3\nGame 2: 0 1 1\nGame 3: -1 -1 -1\n";
        assert_eq!(solve_fast(&Uva1378, &cases), want);
        assert_eq!(solve_oracle(&Uva1378, &cases, 1_000_000).unwrap(), want);
        assert_eq!(Uva1378.write_input(&cases), SAMPLE);
    }

    #[test]
    fn index_numbers_the_game() {
        // `answer(case, index)` prints game index + 1.
        assert_eq!(Uva1378.answer(&vec![1, 0], 6), ["Game 7: 0 1 1"]);
        assert_eq!(Uva1378.answer(&vec![9], 0), ["Game 1: -1 -1 -1"]);
    }

    #[test]
    fn terminator_is_required() {
        let e = Uva1378.parse("2\n1 0\n", false).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.field.contains("terminating 0"), "{e}");
        let e = Uva1378.parse("2\n1 0\n0\n3\n", false).unwrap_err();
        assert_eq!(e.line, 4);
        assert_eq!(Uva1378.parse("0\n", false).unwrap(), Vec::<Vec<u64>>::new());
    }

    #[test]
    fn limits() {
        let e = Uva1378.parse("24\n", false).unwrap_err();
        assert_eq!(e.line, 1);
        let e = Uva1378.parse("2\n1 1001\n0\n", false).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.field.contains("bottle 1 of game 1"), "{e}");
        assert!(Uva1378.parse("2\n1 1001\n0\n", true).is_ok());
    }

    #[test]
    fn generator_and_small_cases() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for k in 0..200 {
            let scale = (k % 11) as f64 / 10.0;
            for shape in [Shape::Any, Shape::Losing, Shape::ManyWinning] {
                let c = Uva1378.generate(&mut rng, scale, shape);
                Uva1378.check_limits(&c).unwrap();
                if shape == Shape::Losing {
                    assert!(!analyze_counts(&c).win, "{c:?}");
                }
            }
        }
        assert_eq!(Uva1378.small_cases(0), vec![vec![0]]);
        for size in 0..10 {
            assert!(!Uva1378.small_cases(size).is_empty());
        }
    }
}

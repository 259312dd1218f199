//! HNOI2007 "分裂游戏" (bzoj1188; the same problem is Luogu P3185, alias `p3185`).
//!
//! Input: t; then per case: n, then n bean counts p_0 .. p_{n-1}. Output per case: two
//! lines, the lexicographically smallest winning move `i j k` (or `-1 -1 -1` when the
//! first player loses), then the number of winning moves. Limits: t <= 10,
//! 2 <= n <= 21, 0 <= p <= 10^4 (t >= 1 is our reading). `--lenient` accepts any t and
//! counts, and 0 <= n <= [`LENIENT_MAX_N`] (the analysis is quadratic in n).
//! Numbers may be separated by any whitespace. Errors name bottles from 0, as the
//! moves do.
//! Sample (SPEC.md): `2 / 4 / 1 0 1 5000 / 3 / 0 0 1` => `0 2 3 / 1 / -1 -1 -1 / 0`.
//!
//! The game is `split` (see [`crate::games::split`] for why the answer is the XOR of
//! odious numbers over the bottles with an odd count). The helpers here are shared with
//! [`crate::problems::uva1378`], the same game in another format.

use crate::games::split::{analyze_counts, make_losing, rows_of_size};
use crate::problems::{Info, ParseError, Part, Problem, Reader, Shape};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::split::{Bottles, SplitGame, SplitMove};
use sgcheck_oracles::{Analysis, SearchError, Solver};

const MAX_T: u64 = 10;
const MIN_N: u64 = 2;
const MAX_N: u64 = 21;
const MAX_P: u64 = 10_000;
/// Most bottles `--lenient` accepts: the fast analysis costs O(n^2) (10^8 steps here).
pub const LENIENT_MAX_N: u64 = 10_000;

/// The problem bzoj1188 / Luogu P3185.
pub struct Bzoj1188;

/// A move as both problems print it: `i j k`, or `-1 -1 -1` when there is none.
pub(crate) fn move_text(m: Option<&SplitMove>) -> String {
    match m {
        Some(m) => format!("{} {} {}", m.i, m.j, m.k),
        None => "-1 -1 -1".to_string(),
    }
}

/// The oracle's analysis of a row (no Sprague–Grundy theory: plain minimax over whole
/// positions). A count beyond [`Bottles::MAX_COUNT`] (possible only with `--lenient`)
/// cannot be represented in the oracle's positions and counts as too large.
pub(crate) fn oracle_analysis(
    counts: &[u64],
    budget: usize,
) -> Result<Analysis<SplitMove>, SearchError> {
    let too_large = SearchError::Budget { budget };
    let row = counts
        .iter()
        .map(|&c| {
            u32::try_from(c)
                .ok()
                .filter(|&c| c <= Bottles::MAX_COUNT)
                .ok_or_else(|| too_large.clone())
        })
        .collect::<Result<Vec<u32>, _>>()?;
    Solver::verdict_only(SplitGame)
        .with_budget(budget)
        .analyze(&Bottles(row))
}

/// Reads the bottle count n of a case: `min..=max` by the limits, or
/// `floor..=LENIENT_MAX_N` when lenient.
pub(crate) fn read_n(
    r: &mut Reader<'_>,
    field: &str,
    min: u64,
    max: u64,
    floor: u64,
) -> Result<u64, ParseError> {
    if r.lenient() {
        r.number(field, floor, LENIENT_MAX_N)
    } else {
        r.number(field, min, max)
    }
}

/// Reads the n counts of a case after its n (see [`read_n`]).
pub(crate) fn read_counts(
    r: &mut Reader<'_>,
    n: u64,
    max_count: u64,
    what: &str,
) -> Result<Vec<u64>, ParseError> {
    // Bottles are numbered from 0, as the moves print them.
    r.limited_list(n, (0, max_count, 0), |i| {
        format!("count of bottle {} of {what}", i - 1)
    })
}

/// A random row for the generators of both problems.
///
/// `scale` grows the row from `min_n` bottles holding at most one bean (0) to up to
/// `max_n` bottles holding up to `max_count` each (1); some bottles are left empty on
/// purpose (moves from empty bottles are the classic bug), and some are filled to the
/// top. `Shape::Losing` flips parities until the value is 0 ([`make_losing`]);
/// `Shape::ManyWinning` keeps the draw with the most winning moves among a few (rows
/// made losing and then changed in one bottle are among them: their value is a single
/// bean's, which many triples match). Counts never exceed the scaled top.
pub(crate) fn generate_row(
    rng: &mut ChaCha8Rng,
    scale: f64,
    shape: Shape,
    (min_n, max_n): (usize, usize),
    max_count: u64,
) -> Vec<u64> {
    let scale = if scale.is_nan() {
        0.0
    } else {
        scale.clamp(0.0, 1.0)
    };
    let top_n = (min_n + ((max_n - min_n) as f64 * scale).ceil() as usize).min(max_n);
    let top_c = ((max_count as f64 * scale * scale).round() as u64).clamp(1, max_count);
    let draw = |rng: &mut ChaCha8Rng| -> Vec<u64> {
        let n = rng.gen_range(min_n..=top_n);
        (0..n)
            .map(|_| match rng.gen_range(0..8) {
                0 | 1 => 0,
                2 => rng.gen_range(0..=top_c.min(3)),
                3 => top_c,
                _ => rng.gen_range(0..=top_c),
            })
            .collect()
    };
    match shape {
        Shape::Any => draw(rng),
        Shape::Losing => {
            let mut row = draw(rng);
            make_losing(&mut row, top_c);
            row
        }
        Shape::ManyWinning => {
            let mut best: Option<(usize, Vec<u64>)> = None;
            for attempt in 0..24 {
                let mut row = draw(rng);
                if attempt % 2 == 1 && row.len() >= 2 {
                    make_losing(&mut row, top_c);
                    let i = rng.gen_range(0..row.len() - 1);
                    row[i] = if row[i] < top_c {
                        row[i] + 1
                    } else {
                        row[i] - 1
                    };
                }
                let count = analyze_counts(&row).count();
                if best.as_ref().is_none_or(|b| count > b.0) {
                    best = Some((count, row));
                }
                if count >= 3 {
                    break;
                }
            }
            best.expect("at least one attempt").1
        }
    }
}

/// Limits of a row: `n` in `min_n..=max_n`, every count at most `max_count`.
pub(crate) fn row_limits(
    counts: &[u64],
    (min_n, max_n): (usize, usize),
    max_count: u64,
) -> Result<(), String> {
    if !(min_n..=max_n).contains(&counts.len()) {
        return Err(format!("n = {} is outside {min_n}..={max_n}", counts.len()));
    }
    match counts.iter().position(|&c| c > max_count) {
        Some(i) => Err(format!(
            "bottle {i} holds {} beans, above {max_count}",
            counts[i]
        )),
        None => Ok(()),
    }
}

/// Every row with `min_n..=max_n` bottles of size `size` (see
/// [`rows_of_size`]) within the count limit.
pub(crate) fn small_rows(
    size: u32,
    (min_n, max_n): (usize, usize),
    max_count: u64,
) -> Vec<Vec<u64>> {
    rows_of_size(size as u64, min_n..=max_n)
        .into_iter()
        .filter(|row| row.iter().all(|&c| c <= max_count))
        .collect()
}

impl Problem for Bzoj1188 {
    type Case = Vec<u64>;

    fn info(&self) -> Info {
        Info {
            id: "bzoj1188",
            aliases: &["p3185"],
            game: "split",
            title: "bzoj1188 / Luogu P3185, HNOI2007 分裂游戏 (bean splitting)",
            input: "t; then per case: n, then n bean counts",
            output: "per case two lines: the lexicographically smallest winning move \
                     `i j k` (or `-1 -1 -1`), then the number of winning moves",
            limits: "1 <= t <= 10, 2 <= n <= 21, 0 <= p <= 10^4",
        }
    }

    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<Vec<u64>>, ParseError> {
        let mut r = Reader::new(input, lenient);
        let t = r.limited("case count t", 1, MAX_T, 0)?;
        let mut cases = Vec::new();
        for c in 1..=t {
            let n = read_n(
                &mut r,
                &format!("bottle count n of case {c}"),
                MIN_N,
                MAX_N,
                0,
            )?;
            cases.push(read_counts(&mut r, n, MAX_P, &format!("case {c}"))?);
        }
        r.expect_end(&format!("the {t} case(s) announced on line 1"))?;
        Ok(cases)
    }

    fn write_input(&self, cases: &[Vec<u64>]) -> String {
        crate::problems::write_counted_cases(cases)
    }

    fn answer(&self, case: &Vec<u64>, _index: usize) -> Vec<String> {
        let a = analyze_counts(case);
        vec![move_text(a.best()), a.count().to_string()]
    }

    fn oracle_answer(
        &self,
        case: &Vec<u64>,
        _index: usize,
        budget: usize,
    ) -> Result<Vec<String>, SearchError> {
        let a = oracle_analysis(case, budget)?;
        Ok(vec![move_text(a.best()), a.count().to_string()])
    }

    fn max_cases(&self) -> usize {
        MAX_T as usize
    }

    fn check_limits(&self, case: &Vec<u64>) -> Result<(), String> {
        row_limits(case, (MIN_N as usize, MAX_N as usize), MAX_P)
    }

    fn small_cases(&self, size: u32) -> Vec<Vec<u64>> {
        small_rows(size, (MIN_N as usize, MAX_N as usize), MAX_P)
    }

    fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> Vec<u64> {
        generate_row(rng, scale, shape, (MIN_N as usize, MAX_N as usize), MAX_P)
    }

    fn parts(&self, case: &Vec<u64>) -> Vec<Part> {
        vec![Part {
            values: case.clone(),
            min_value: 0,
            min_len: MIN_N as usize,
            unit: 1,
        }]
    }

    fn rebuild(&self, _case: &Vec<u64>, values: Vec<Vec<u64>>) -> Option<Vec<u64>> {
        values.into_iter().next()
    }

    fn shrink(&self, case: &Vec<u64>) -> Vec<Vec<u64>> {
        crate::problems::shrink_piles(case, MIN_N as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::{solve_fast, solve_oracle};
    use rand::SeedableRng;

    #[test]
    fn sample() {
        // SPEC.md bzoj1188 sample.
        let cases = Bzoj1188
            .parse("2\n4\n1 0 1 5000\n3\n0 0 1\n", false)
            .unwrap();
        let want = "0 2 3\n1\n-1 -1 -1\n0\n";
        assert_eq!(solve_fast(&Bzoj1188, &cases), want);
        assert_eq!(solve_oracle(&Bzoj1188, &cases, 1_000_000).unwrap(), want);
    }

    #[test]
    fn known_answers() {
        // SPEC.md, "Known answers worth keeping as tests (checked)".
        let one_to_21: Vec<u64> = (1..=21).collect();
        for (case, want) in [
            (vec![0, 0, 0, 1, 0], ["3 4 4", "1"]),
            (vec![1, 0, 5], ["0 1 1", "2"]),
            (vec![2, 1], ["-1 -1 -1", "0"]),
            (vec![3, 2, 1, 0, 4, 5], ["0 2 5", "1"]),
            (one_to_21, ["0 2 20", "10"]),
        ] {
            assert_eq!(Bzoj1188.answer(&case, 0), want, "{case:?}");
        }
    }

    #[test]
    fn errors_name_the_line_and_field() {
        let e = Bzoj1188.parse("1\n3\n1 x 0\n", false).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.field.contains("bottle 1 of case 1"), "{e}");
        let e = Bzoj1188.parse("1\n22\n", false).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (2, "bottle count n of case 1"));
        let e = Bzoj1188.parse("1\n2\n10001 0\n", false).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(Bzoj1188.parse("1\n2\n10001 0\n", true).is_ok());
        assert!(Bzoj1188.parse("1\n1\n5\n", false).is_err());
        assert_eq!(Bzoj1188.parse("1\n1\n5\n", true).unwrap(), vec![vec![5]]);
        let e = Bzoj1188.parse("1\n2\n1 0\n7\n", false).unwrap_err();
        assert_eq!(e.line, 4);
    }

    #[test]
    fn alias_is_known() {
        struct Id;
        impl crate::problems::Visitor for Id {
            type Output = &'static str;
            fn visit<P: Problem>(self, p: &P) -> &'static str {
                p.info().id
            }
        }
        assert_eq!(crate::problems::with_problem("p3185", Id), Some("bzoj1188"));
        assert!(Bzoj1188.info().aliases.contains(&"p3185"));
    }

    #[test]
    fn lenient_counts_beyond_u32() {
        // Only parity and emptiness matter; the oracle cannot hold such a count.
        let cases = Bzoj1188.parse("1\n2\n99999999999 7\n", true).unwrap();
        assert_eq!(Bzoj1188.answer(&cases[0], 0), ["0 1 1", "1"]);
        assert!(Bzoj1188.oracle_answer(&cases[0], 0, 1000).is_err());
    }

    #[test]
    fn generator_shapes_and_limits() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for k in 0..300 {
            let scale = (k % 11) as f64 / 10.0;
            for shape in [Shape::Any, Shape::Losing, Shape::ManyWinning] {
                let c = Bzoj1188.generate(&mut rng, scale, shape);
                Bzoj1188.check_limits(&c).unwrap();
                let a = analyze_counts(&c);
                match shape {
                    Shape::Losing => assert!(!a.win, "{c:?}"),
                    Shape::ManyWinning if scale >= 0.5 => assert!(a.count() >= 2, "{c:?}"),
                    _ => {}
                }
            }
        }
        // Scale 1 reaches the limits: 21 bottles, full bottles.
        let big: Vec<Vec<u64>> = (0..50)
            .map(|_| Bzoj1188.generate(&mut rng, 1.0, Shape::Any))
            .collect();
        assert!(big.iter().any(|c| c.len() == 21));
        assert!(big.iter().any(|c| c.contains(&MAX_P)));
    }

    #[test]
    fn small_cases_and_shrink() {
        assert_eq!(Bzoj1188.small_cases(0), vec![vec![0, 0]]);
        for size in 0..10 {
            for c in Bzoj1188.small_cases(size) {
                Bzoj1188.check_limits(&c).unwrap();
            }
        }
        // `0 0 0 1 0`, the smallest case for moves from empty bottles, has size 4.
        assert!(Bzoj1188.small_cases(4).contains(&vec![0, 0, 0, 1, 0]));
        let case = vec![3, 0, 7];
        for s in Bzoj1188.shrink(&case) {
            Bzoj1188.check_limits(&s).unwrap();
            assert!(s.len() < case.len() || s.iter().zip(&case).all(|(a, b)| a <= b));
            assert_ne!(s, case);
        }
    }
}

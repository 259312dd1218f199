//! Cases aimed at the boundaries real bugs have, for the search's limit batches: list
//! lengths just past powers of two and common array sizes, values where an `int`
//! Grundy value or XOR overflows, components of large Grundy values, and many
//! components whose values XOR to 0.
//!
//! Each is built from a random case at the limits through the problem's shrink parts
//! ([`Problem::parts`], [`Problem::rebuild`]) and, where the problem knows them, its
//! components' values ([`Problem::component_values`], [`Problem::smallest_component`]),
//! so it works for every declared problem without naming a game; a candidate outside
//! the limits is dropped ([`Problem::check_limits`]).

use crate::problems::{Problem, Shape};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// List lengths (in components) tried by the boundary batches, most likely first:
/// one past common array sizes and powers of two (an array one too small), then the
/// sizes themselves.
pub const BOUNDARY_LENGTHS: &[usize] = &[
    65_537, 100_001, 10_001, 1_001, 1_000_001, 32_769, 131_073, 16_385, 1_025, 4_097, 257, 65_536,
    100_000, 10_000, 1_000, 1_000_000, 32_768, 131_072, 16_384, 1_024, 4_096, 256,
];

/// Values where 32- and 64-bit arithmetic overflows (an `int` Grundy value, a sum,
/// a square), with their neighbours; values above a part's limit are dropped.
pub const BOUNDARY_VALUES: &[u64] = &[
    (1 << 15) - 1,
    1 << 15,
    (1 << 16) - 1,
    1 << 16,
    46_340,
    46_341,
    1_000_000_000,
    (1 << 31) - 1,
    1 << 31,
    (1 << 32) - 1,
    1 << 32,
    3_037_000_499,
    3_037_000_500,
    1_000_000_000_000_000_000,
    (1 << 62) - 1,
    1 << 62,
    (1 << 63) - 1,
    1 << 63,
    u64::MAX,
];

/// Distinct large values drawn for [`large_values`]'s components.
const LARGE_CHOICES: usize = 16;

/// The cases of boundary batch number `k`: one kind per batch, in turn.
pub fn boundary_cases<P: Problem>(p: &P, rng: &mut ChaCha8Rng, k: u64) -> Vec<P::Case> {
    let base = p.generate(rng, 1.0, Shape::Losing);
    let cases = match k % 3 {
        0 => lengths(p, &base, rng, (k / 3) as usize),
        1 => overflow_values(p, &base, rng),
        _ => large_values(p, &base, rng),
    };
    cases
        .into_iter()
        .filter(|c| p.check_limits(c).is_ok())
        .collect()
}

/// The part of a case with the most values among those that are lists (units of one
/// or more numbers), with its index.
fn main_list<P: Problem>(p: &P, case: &P::Case) -> Option<(usize, crate::problems::Part)> {
    p.parts(case)
        .into_iter()
        .enumerate()
        .filter(|(_, q)| q.unit > 0)
        .max_by_key(|(_, q)| q.values.len())
}

/// `case` with part `pi` holding `values`.
fn with_part<P: Problem>(p: &P, case: &P::Case, pi: usize, values: Vec<u64>) -> Option<P::Case> {
    let mut all: Vec<Vec<u64>> = p.parts(case).into_iter().map(|q| q.values).collect();
    *all.get_mut(pi)? = values;
    p.rebuild(case, all)
}

/// Makes the components of part `pi` XOR to 0 (where the problem knows their values)
/// by changing the last one to the smallest component of the XOR of the others.
fn cancel<P: Problem>(p: &P, case: &P::Case, pi: usize, values: &mut [u64], unit: usize) {
    let n = values.len() / unit.max(1);
    if n < 2 {
        return;
    }
    let Some(g) = p.component_values(case, pi, values) else {
        return;
    };
    let x = g[..n - 1].iter().fold(0, |a, &b| a ^ b);
    if let Some(c) = p.smallest_component(case, pi, x) {
        if c.len() == unit {
            values[(n - 1) * unit..].copy_from_slice(&c);
        }
    }
}

/// The main list of `base` at every boundary length that fits, from the
/// `2 * turn`-th on (so batches that hold only the first few cover all in turn): its
/// values repeated, the last component cancelling the rest (losing) or not, at
/// random.
fn lengths<P: Problem>(p: &P, base: &P::Case, rng: &mut ChaCha8Rng, turn: usize) -> Vec<P::Case> {
    let Some((pi, q)) = main_list(p, base) else {
        return Vec::new();
    };
    let unit = q.unit.max(1);
    if q.values.len() < unit {
        return Vec::new();
    }
    let mut out = Vec::new();
    let k = BOUNDARY_LENGTHS.len();
    for i in 0..k {
        let len = BOUNDARY_LENGTHS[(i + 2 * turn) % k];
        let n = len * unit;
        if n < q.min_len {
            continue;
        }
        let mut values: Vec<u64> = q.values.iter().copied().cycle().take(n).collect();
        let Some(probe) = with_part(p, base, pi, values.clone()) else {
            continue;
        };
        if p.check_limits(&probe).is_err() {
            continue;
        }
        if rng.gen_bool(0.5) {
            cancel(p, &probe, pi, &mut values, unit);
        }
        out.extend(with_part(p, base, pi, values));
    }
    out
}

/// Values of `base`'s main list set to the overflow boundaries (each value at random
/// one of them that fits), the last component cancelling the rest.
fn overflow_values<P: Problem>(p: &P, base: &P::Case, rng: &mut ChaCha8Rng) -> Vec<P::Case> {
    let Some((pi, q)) = main_list(p, base) else {
        return Vec::new();
    };
    // The boundaries within the part's limit: found by trying each alone.
    let fits: Vec<u64> = BOUNDARY_VALUES
        .iter()
        .copied()
        .filter(|&v| v >= q.min_value)
        .filter(|&v| {
            let one = vec![v; q.values.len()];
            with_part(p, base, pi, one).is_some_and(|c| p.check_limits(&c).is_ok())
        })
        .collect();
    if fits.is_empty() {
        return Vec::new();
    }
    let unit = q.unit.max(1);
    let mut out = Vec::new();
    // All at the largest boundary that fits (a sum or XOR of many), then a mix.
    let top = *fits.last().unwrap_or(&q.min_value);
    let mut all_top = vec![top; q.values.len()];
    cancel(p, base, pi, &mut all_top, unit);
    out.extend(with_part(p, base, pi, all_top));
    let mut mixed: Vec<u64> = q
        .values
        .iter()
        .map(|&v| {
            if rng.gen_bool(0.5) {
                fits[rng.gen_range(0..fits.len())]
            } else {
                v
            }
        })
        .collect();
    cancel(p, base, pi, &mut mixed, unit);
    out.extend(with_part(p, base, pi, mixed));
    out
}

/// Components of large Grundy values (the smallest component of each, where the
/// problem knows them), many of them, XORing to 0.
fn large_values<P: Problem>(p: &P, base: &P::Case, rng: &mut ChaCha8Rng) -> Vec<P::Case> {
    let Some((pi, q)) = main_list(p, base) else {
        return Vec::new();
    };
    let unit = q.unit.max(1);
    let n = q.values.len() / unit;
    if n < 2 || p.component_values(base, pi, &q.values).is_none() {
        return Vec::new();
    }
    // The largest power of two that is the value of a component within the limits,
    // by doubling.
    let mut top = 0u64;
    for bit in 0..63 {
        if p.smallest_component(base, pi, 1 << bit).is_some() {
            top = 1 << bit;
        } else {
            break;
        }
    }
    if top == 0 {
        return Vec::new();
    }
    // A few distinct large values (finding a component may scan), drawn in turn.
    let choices: Vec<Vec<u64>> = (0..LARGE_CHOICES)
        .filter_map(|_| {
            let want = rng.gen_range(top / 2..=top);
            p.smallest_component(base, pi, want)
                .filter(|c| c.len() == unit)
        })
        .collect();
    if choices.is_empty() {
        return Vec::new();
    }
    let mut values = Vec::with_capacity(n * unit);
    for _ in 0..n {
        values.extend_from_slice(&choices[rng.gen_range(0..choices.len())]);
    }
    cancel(p, base, pi, &mut values, unit);
    with_part(p, base, pi, values).into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn longest<P: Problem>(p: &P, c: &P::Case) -> Vec<u64> {
        main_list(p, c).map(|(_, q)| q.values).unwrap_or_default()
    }

    #[test]
    fn lengths_values_and_large_components_stay_valid() {
        let p = crate::problems::builtin("hdu3032").expect("hdu3032");
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        // Lengths: every case valid, 65,537 piles among them first.
        let lengths = boundary_cases(p, &mut rng, 0);
        assert!(lengths.iter().all(|c| p.check_limits(c).is_ok()));
        assert_eq!(longest(p, &lengths[0]).len(), 65_537);
        let all: Vec<usize> = lengths.iter().map(|c| longest(p, c).len()).collect();
        for n in [1_001, 10_001, 100_001, 1_000_000] {
            assert!(all.contains(&n), "{n} not in {all:?}");
        }
        // Overflow values: the largest allowed (2^31 - 1) everywhere but the last.
        let values = boundary_cases(p, &mut rng, 1);
        assert!(!values.is_empty());
        let piles = longest(p, &values[0]);
        let top = (1u64 << 31) - 1;
        assert!(
            piles[..piles.len() - 1].iter().all(|&v| v == top),
            "{piles:?}"
        );
        // Large values: Lasker's values near the largest, XORing to 0.
        let large = boundary_cases(p, &mut rng, 2);
        let c = &large[0];
        let piles = longest(p, c);
        let (pi, _) = main_list(p, c).unwrap();
        let g = p.component_values(c, pi, &piles).expect("Lasker's values");
        assert_eq!(g.iter().fold(0, |a, &b| a ^ b), 0);
        assert!(g.iter().filter(|&&v| v >= 1 << 29).count() >= g.len() - 1);
    }

    #[test]
    fn ed_pairs_stay_pairs() {
        let p = crate::problems::builtin("p2148").expect("p2148");
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for k in 0..3 {
            for c in boundary_cases(p, &mut rng, k) {
                assert_eq!(p.check_limits(&c), Ok(()));
                assert_eq!(longest(p, &c).len() % 2, 0);
            }
        }
    }
}

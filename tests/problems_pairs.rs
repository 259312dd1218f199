//! Problem-level checks of hdu1527 and hdu2149 beyond their samples: the hdu1527
//! generators reach the double-precision traps on purpose, and the hdu2149 answers
//! list whole winning-bid sets.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sgcheck::games::wythoff;
use sgcheck::problems::{builtin, solve_fast, Problem, Shape};

#[test]
fn hdu1527_generators_play_the_double_precision_traps() {
    let p = builtin("hdu1527").unwrap();
    let traps = wythoff::double_trap_positions(1_000_000_000);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let n = 400;
    let hits = (0..n)
        .filter(|_| {
            let c = p.generate(&mut rng, 1.0, Shape::Any);
            let f = p.fields(&c);
            traps.contains(&(f[0][0], f[1][0]))
        })
        .count();
    // One random case in four is a trap (each within the limits); uniform pairs up
    // to 10^9 would essentially never be one.
    assert!((60..=140).contains(&hits), "{hits} of {n}");
    // At small scales the bounds hold no trap: no case is replaced.
    let small = (0..n)
        .filter(|_| {
            let c = p.generate(&mut rng, 0.01, Shape::Any);
            let f = p.fields(&c);
            traps.contains(&(f[0][0], f[1][0]))
        })
        .count();
    assert_eq!(small, 0);
}

#[test]
fn hdu2149_answers_are_whole_bid_sets() {
    let p = builtin("hdu2149").unwrap();
    let cases = p.parse("1 1099\n1099 1\n", false).unwrap();
    let out = solve_fast(p, &cases).unwrap();
    let first = out.lines().next().unwrap();
    let bids: Vec<u64> = first.split(' ').map(|b| b.parse().unwrap()).collect();
    assert_eq!(bids, (1..=1099).collect::<Vec<u64>>());
    assert_eq!(out.lines().nth(1), Some("1"));
    // The oracle's answer is the same, through the whole search.
    let oracle = sgcheck::problems::solve_oracle(p, &cases, 2_000_000).unwrap();
    assert_eq!(oracle, out);
}

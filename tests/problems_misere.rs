//! Problem-level tests of p4279 (misère Nim) and poj1704 (the staircase game): the
//! generators' losing cases under misère play, order independence of the cells, and
//! repeated cells rejected on both of the engine's paths for distinct values.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sgcheck::problems::{builtin, Problem, Shape};

/// Losing cases come from the game's own ending: under misère play the small positions
/// (every pile <= 1) are lost with an odd number of 1-piles, not with XOR 0, and the
/// generator makes those too. (At scale 0 every pile is 0, and no case within those
/// bounds is lost: the scales here let piles reach 1, 5 and 1500.)
#[test]
fn p4279_losing_cases_are_lost_under_misere_play() {
    let p = builtin("p4279").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(4279);
    let (mut lost, mut small_lost) = (0, 0);
    for i in 0..400 {
        let scale = [0.0002, 0.001, 0.3][i % 3];
        let c = p.generate(&mut rng, scale, Shape::Losing);
        if p.answer(&c, 0).unwrap() == ["Brother"] {
            lost += 1;
            let piles = &p.fields(&c)[0];
            if piles.iter().all(|&x| x <= 1) {
                small_lost += 1;
                let ones = piles.iter().filter(|&&x| x == 1).count();
                assert_eq!(ones % 2, 1, "{piles:?}");
            }
        }
    }
    assert!(lost >= 380, "only {lost} of 400 losing cases are lost");
    assert!(small_lost > 0, "no small losing case was generated");
}

/// The statement's traps answered through both engines.
#[test]
fn p4279_empty_piles() {
    let p = builtin("bzoj1022").unwrap();
    let cases = p.parse("3\n2\n0 1\n1\n0\n3\n0 0 1\n", false).unwrap();
    for (c, want) in cases.iter().zip(["Brother", "John", "Brother"]) {
        assert_eq!(p.answer(c, 0).unwrap(), [want]);
        assert_eq!(p.oracle_answer(c, 0, 10_000).unwrap(), [want]);
    }
}

/// The answer of a poj1704 case does not depend on the order of its cells.
#[test]
fn poj1704_order_does_not_matter() {
    let p = builtin("poj1704").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1704);
    for i in 0..300 {
        let shape = [Shape::Any, Shape::Losing, Shape::ManyWinning][i % 3];
        let c = p.generate(&mut rng, 0.2, shape);
        let want = p.answer(&c, 0).unwrap();
        let mut f = p.fields(&c);
        f[0].shuffle(&mut rng);
        assert_eq!(p.answer(&p.case(f.clone()), 0).unwrap(), want, "{f:?}");
        f[0].sort_unstable();
        assert_eq!(p.answer(&p.case(f.clone()), 0).unwrap(), want, "{f:?}");
    }
}

/// A repeated cell names both places: through the table indexed by value (the strict
/// range 1..=10000) and through the hash map (`--lenient` lifts the upper bound).
#[test]
fn poj1704_repeated_cells_on_both_paths() {
    let p = builtin("poj1704").unwrap();
    let e = p.parse("1\n3\n5 2 5\n", false).unwrap_err();
    assert_eq!(e.line, 3);
    assert!(e.to_string().contains("5 repeats cell 1"), "{e}");
    let e = p
        .parse("1\n3\n99999999999 2 99999999999\n", true)
        .unwrap_err();
    assert_eq!(e.line, 3);
    assert!(e.to_string().contains("repeats cell 1"), "{e}");
    let ok = p.parse("1\n3\n99999999999 2 7\n", true).unwrap();
    assert_eq!(p.answer(&ok[0], 0).unwrap(), ["Georgia will win"]);
}

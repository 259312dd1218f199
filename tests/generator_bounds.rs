//! A game's `make_losing` that leaves a number outside the bounds it was given (a bug
//! of the game, planted here in a game registered from outside) never makes the
//! generators draw an input the statement excludes: every generated case stays within
//! the declaration's limits and reads back as written, so no audit can blame a program
//! on an input it was promised it would not get.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sgcheck::games::declared::{self, Declare};
use sgcheck::oracles::games::nim::{Nim, Piles, Take};
use sgcheck::oracles::{Analysis, SearchError};
use sgcheck::problems::{Declared, Problem, Shape};
use sgcheck::registry::{self, Entry};

/// Nim, whose `make_losing` sets the last pile one past its bound.
struct Overshoot;

impl Declare for Overshoot {
    type Oracle = Nim;
    type Fast = ();
    const ID: &'static str = "nim-overshoot";
    const POSITION: &'static str = "pile sizes";
    const MOVE_FIELDS: &'static [&'static str] = &["pile", "amount"];

    fn build(_: &[declared::ParamValue<'_>]) -> Result<(), String> {
        Ok(())
    }
    fn first_wins(_: &(), position: &[u64]) -> Result<bool, String> {
        Ok(position.iter().fold(0, |x, &n| x ^ n) != 0)
    }
    fn analyze(_: &(), position: &[u64]) -> Result<Analysis<Take>, String> {
        Ok(sgcheck::games::nim::analyze(&Piles(position.to_vec())))
    }
    fn move_fields(m: &Take, _: &[u64]) -> [u64; 4] {
        [m.pile as u64, m.amount, 0, 0]
    }
    fn oracle(_: &(), position: &[u64], _: usize) -> Result<(Nim, Piles), SearchError> {
        Ok((Nim, Piles(position.to_vec())))
    }
    fn make_losing(_: &(), p: &mut [u64], b: &[(u64, u64)], _: &mut ChaCha8Rng) -> bool {
        // The planted bug: the last pile one past its bound.
        let last = p.len() - 1;
        p[last] = b[last].1 + 1;
        true
    }
}

const DECLARATION: &str = r#"
format = 1
id = "overshoot"
title = "Nim with a generator bug"
game = "nim-overshoot"
position = ["piles"]

[input]
cases = "count"
count = { what = "case count T", min = 1, max = 20 }

[[field]]
name = "piles"
what = "pile {i} of case {case}"
min = 0
max = 50
inline = true
length = { what = "n of case {case}", min = 1, max = 6 }

[output]
lines = ["{verdict}"]
win = "First"
lose = "Second"
"#;

#[test]
fn a_make_losing_past_the_bounds_draws_no_excluded_input() {
    registry::register(Entry::declarable_only::<Overshoot>()).unwrap();
    let p = Declared::from_toml(DECLARATION, "overshoot.toml").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for k in 0..400 {
        let scale = (k % 11) as f64 / 10.0;
        let shape = [Shape::Losing, Shape::ManyWinning, Shape::Any][k % 3];
        let c = p.generate(&mut rng, scale, shape);
        p.check_limits(&c)
            .unwrap_or_else(|e| panic!("case {k} ({shape:?}) breaks the limits: {e}"));
        let text = p.write_input(std::slice::from_ref(&c));
        let back = p
            .parse(&text, false)
            .unwrap_or_else(|e| panic!("case {k} ({shape:?}) does not read back: {e}\n{text}"));
        assert_eq!(back, vec![c.clone()]);
    }
}

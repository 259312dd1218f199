//! The oracle of a scripted game against the built-in oracle of the same game, in
//! positions answered per second, measured side by side in one run: Kayles declared
//! as a script (`tests/data/scripts/kayles.toml`) against the built-in octal game
//! `0.77`. Each position of a fixed family (three rows of 0..=11 pins) is solved by a
//! fresh search (verdict only), both sides on the same positions, with their verdicts
//! compared. The scripted side is measured twice:
//!
//! - **scripted, cached moves**: one compiled script whose cache of moves is kept
//!   across positions (as `verify` and `audit` keep their rules): a query lists the
//!   reachable component states from the cache, then searches;
//! - **scripted, cold**: the rules compiled afresh for every pass over the family, so
//!   the script runs once for every component state reached in that pass.
//!
//! Run with `cargo bench --bench scripted_oracle` (about 10 s).

use sgcheck::games::scripted::ScriptRules;
use sgcheck_oracles::games::nim::Piles;
use sgcheck_oracles::games::octal::Octal;
use sgcheck_oracles::Solver;
use std::time::{Duration, Instant};

const MEASURE: Duration = Duration::from_millis(2000);

fn script() -> String {
    let decl = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/scripts/kayles.toml"
    ))
    .expect("the Kayles declaration");
    decl.split("script = \"\"\"")
        .nth(1)
        .and_then(|s| s.split("\"\"\"").next())
        .expect("a script")
        .to_string()
}

/// Passes over `family` until `MEASURE` is spent: positions per second, and the
/// verdicts of the last pass.
fn rate(family: &[Vec<u64>], mut pass: impl FnMut(&[Vec<u64>]) -> Vec<bool>) -> (f64, Vec<bool>) {
    let start = Instant::now();
    let mut n = 0usize;
    let mut last = Vec::new();
    while start.elapsed() < MEASURE {
        last = pass(family);
        n += family.len();
    }
    (n as f64 / start.elapsed().as_secs_f64(), last)
}

fn main() {
    let text = script();
    let mut family = Vec::new();
    for a in 0..=11u64 {
        for b in a..=11 {
            for c in b..=11 {
                family.push(vec![a, b, c]);
            }
        }
    }
    let octal: Octal = "0.77".parse().expect("Kayles");
    let built_in = |f: &[Vec<u64>]| -> Vec<bool> {
        f.iter()
            .map(|p| {
                Solver::verdict_only(octal.clone())
                    .outcome(&Piles(p.clone()))
                    .expect("within the budget")
                    .win
            })
            .collect()
    };
    let scripted_pass = |rules: &ScriptRules, f: &[Vec<u64>]| -> Vec<bool> {
        f.iter()
            .map(|p| {
                let (o, pos) = rules.oracle(p, 1 << 20).expect("the table");
                Solver::verdict_only(o)
                    .outcome(&pos)
                    .expect("within the budget")
                    .win
            })
            .collect()
    };
    let cached = ScriptRules::new(&text, false, None).expect("the script compiles");
    println!(
        "scripted oracle (Kayles as a script) against octal 0.77, {} positions (three rows of 0..=11)",
        family.len()
    );
    // Alternate the sides twice, so that a change of machine load hits both.
    let mut rows: Vec<(&str, f64)> = Vec::new();
    let mut want = None;
    for round in 0..2 {
        let (b, vb) = rate(&family, built_in);
        let (s, vs) = rate(&family, |f| scripted_pass(&cached, f));
        let (c, vc) = rate(&family, |f| {
            let fresh = ScriptRules::new(&text, false, None).expect("the script compiles");
            scripted_pass(&fresh, f)
        });
        assert_eq!(vb, vs, "the scripted oracle disagrees with octal 0.77");
        assert_eq!(vb, vc, "the scripted oracle disagrees with octal 0.77");
        want.get_or_insert(vb);
        if round == 1 {
            rows = vec![
                ("built-in octal 0.77", b),
                ("scripted, cached moves", s),
                ("scripted, cold", c),
            ];
        }
    }
    let base = rows[0].1;
    println!(
        "{:<26} {:>16} {:>10}",
        "oracle", "positions/s", "vs built-in"
    );
    for (name, r) in rows {
        println!("{name:<26} {r:>16.0} {:>9.2}x", base / r);
    }
}

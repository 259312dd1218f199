//! Tier 3 of `verify`: each problem's formatted answer (`solve`) against the same
//! answer computed through the oracle, on the problem's smallest cases first, then
//! random small ones. It drives the engine's sweep settings ([`Sweep`]) and reports
//! ([`TierReport`]) over problems; the engine itself never names a problem.

use super::{all_info, with_problem, Problem, Shape, Visitor};
use crate::verify::{per_second, Disagreement, Sweep, Tally, TierReport};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use sgcheck_oracles::SearchError;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One case's formatted answer (`solve`, a panic shown as its message) against the
/// same answer computed through the oracle within `budget` positions: `None` when they
/// agree, the disagreement otherwise (reproduced by `sgcheck solve <id> --engine
/// oracle`).
pub fn compare_case<P: Problem>(
    p: &P,
    case: &P::Case,
    budget: usize,
) -> Result<Option<Disagreement>, SearchError> {
    let oracle = p.oracle_answer(case, 0, budget)?;
    let fast = match crate::guard::catch_quiet(|| p.answer(case, 0)) {
        Ok(fast) => fast,
        Err(panic) => vec![format!("panicked: {}", panic.message)],
    };
    if fast == oracle {
        return Ok(None);
    }
    let input = p.write_input(std::slice::from_ref(case));
    Ok(Some(Disagreement {
        rules: "-".into(),
        position: input.trim_end().replace('\n', " / "),
        fast: fast.join(" / "),
        oracle: oracle.join(" / "),
        reproduce: format!(
            "printf '%s' {} | sgcheck solve {} --engine oracle",
            crate::shell::quote(&input),
            p.info().id
        ),
    }))
}

/// Tier 3: each problem's formatted answer (`solve`) against the same answer computed
/// through the oracle, on the problem's smallest cases first, then random small ones.
pub fn verify_problem<P: Problem>(p: &P, sweep: &Sweep) -> TierReport {
    let start = Instant::now();
    let enumerate_until = start + sweep.time.mul_f64(sweep.enumerate_share);
    let until = start + sweep.time;
    let id = p.info().id;
    let watch = sweep.watch.clone().unwrap_or_default();
    let check = |case: &P::Case| compare_case(p, case, sweep.budget);
    let run = |cases: Vec<P::Case>, order: u64, stop_at: Instant| -> Tally {
        let cases = Arc::new(cases);
        let described = Arc::clone(&cases);
        watch.enter_tier(
            3,
            Some(Arc::new(move |key| {
                let case = described.get(key.saturating_sub(order) as usize);
                (
                    format!("problem {id}"),
                    case.map_or(format!("case {key}"), |c| format!("{c:?}")),
                )
            })),
        );
        cases
            .par_iter()
            .enumerate()
            .map(|(i, c)| {
                let mut t = Tally::default();
                if !sweep.shard.owns(order + i as u64) {
                    return t;
                }
                // The phase's time is a wall-time budget: no check starts after it.
                if Instant::now() >= stop_at {
                    t.cut = true;
                    return t;
                }
                if let Some(e) = p.rules_error(c) {
                    t.invalid = 1;
                    t.first_invalid = Some(format!("{c:?}: {e}"));
                    return t;
                }
                watch.begin(order + i as u64);
                let result = check(c);
                watch.end();
                match result {
                    Ok(None) => t.checked = 1,
                    Ok(Some(d)) => {
                        t.checked = 1;
                        t.disagreements = 1;
                        t.first = Some((order + i as u64, d));
                    }
                    Err(_) => t.skipped = 1,
                }
                t
            })
            .reduce(Tally::default, Tally::merge)
    };
    let mut tally = Tally::default();
    let mut order = 0u64;
    let mut size = 0u32;
    while Instant::now() < enumerate_until
        && tally.disagreements == 0
        && size < 64
        && sweep.max_size.is_none_or(|m| size <= m)
    {
        let cases = p.small_cases(size);
        size += 1;
        if cases.is_empty() {
            continue;
        }
        let n = cases.len() as u64;
        tally = tally.merge(run(cases, order, enumerate_until));
        order += n;
    }
    let mut round = 0u64;
    while Instant::now() < until
        && tally.disagreements == 0
        && sweep.random_batches.is_none_or(|m| round < m)
    {
        let mut rng = ChaCha8Rng::seed_from_u64(
            sweep.seed ^ 0x5EED ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        let cases: Vec<P::Case> = (0..256)
            .map(|i| {
                let shape = [Shape::Any, Shape::Losing, Shape::ManyWinning][i % 3];
                // Tiny cases: tier 3 is about the format and the answer lines; the
                // oracle must finish (the ones it cannot are counted as skipped).
                let scale = rng.gen_range(0.0..0.001);
                p.generate(&mut rng, scale, shape)
            })
            .collect();
        let n = cases.len() as u64;
        tally = tally.merge(run(cases, order, until));
        order += n;
        round += 1;
    }
    TierReport {
        tier: 3,
        checked: tally.checked,
        agreements: tally.checked - tally.disagreements,
        disagreements: tally.disagreements,
        skipped: tally.skipped,
        seconds: start.elapsed().as_secs_f64(),
        per_second: per_second(tally.checked, start.elapsed()),
        first_disagreement: tally.first.map(|(_, d)| d),
        exhaustive_size: None,
        enumerated_size: None,
        enumerated_skipped: 0,
        note: tally.first_invalid.map(|c| {
            format!(
                "{} generated cases of {id} had invalid rules (a generator failure), the \
                 first: {c}",
                tally.invalid
            )
        }),
        generator_failures: tally.invalid,
    }
}

/// Tier 3 for every problem of the game `game`, merged into one report (`None` when no
/// problem is an instance of that game).
pub fn verify_problems_of(game: &str, sweep: &Sweep) -> Option<TierReport> {
    struct Run<'a>(&'a Sweep);
    impl Visitor for Run<'_> {
        type Output = TierReport;
        fn visit<P: Problem>(self, p: &P) -> TierReport {
            verify_problem(p, self.0)
        }
    }
    let ids: Vec<&str> = all_info()
        .iter()
        .filter(|i| i.game == game)
        .map(|i| i.id)
        .collect();
    if ids.is_empty() {
        return None;
    }
    let share = Sweep {
        time: sweep.time.div_f64(ids.len() as f64),
        ..sweep.clone()
    };
    let mut merged: Option<TierReport> = None;
    for id in ids {
        let r = with_problem(id, Run(&share)).expect("listed problem exists");
        merged = Some(match merged {
            None => r,
            Some(m) => {
                let secs = m.seconds + r.seconds;
                TierReport {
                    tier: 3,
                    checked: m.checked + r.checked,
                    agreements: m.agreements + r.agreements,
                    disagreements: m.disagreements + r.disagreements,
                    skipped: m.skipped + r.skipped,
                    seconds: secs,
                    per_second: per_second(m.checked + r.checked, Duration::from_secs_f64(secs)),
                    first_disagreement: m.first_disagreement.or(r.first_disagreement),
                    exhaustive_size: None,
                    enumerated_size: None,
                    enumerated_skipped: 0,
                    note: match (m.note, r.note) {
                        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
                        (a, b) => a.or(b),
                    },
                    generator_failures: m.generator_failures + r.generator_failures,
                }
            }
        });
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::testing::{InvalidWhen, P2197};
    use crate::verify::{report_of_game, GameReport};

    #[test]
    fn invalid_rules_in_tier3_are_a_generator_failure_not_a_skip() {
        let sweep = Sweep {
            time: Duration::from_secs(2),
            max_size: Some(4),
            random_batches: Some(0),
            ..Sweep::default()
        };
        let clean = verify_problem(&P2197, &sweep);
        let t = verify_problem(&InvalidWhen(|c| c.len() == 2), &sweep);
        assert!(t.generator_failures > 0);
        assert_eq!(t.skipped, clean.skipped, "invalid rules are not skips");
        assert_eq!(t.checked + t.generator_failures, clean.checked);
        assert!(t.note.as_deref().unwrap().contains("generator failure"));
        let game = GameReport {
            game: "nim".into(),
            tiers: vec![t],
            seconds: 0.0,
        };
        let (_, text, code) = report_of_game(game, 0);
        assert_eq!(code, 1, "{text}");
        assert!(!text.contains("all agree"), "{text}");
    }
}

//! The engine's own tests, on a Nim subject written here.

use super::*;
use sgcheck_oracles::games::nim::{Nim, Piles, Take};

/// Nim as the engine's tests drive it, with Bouton's solution written here: the
/// engine's tests use no game of sgcheck's.
#[derive(Default)]
struct NimSubject;

/// Bouton's solution as the engine's tests use it.
mod nim {
    pub(crate) use crate::verify::tests::bouton as analyze;
}

/// Bouton's solution of Nim, written here (the engine's tests use no game of
/// sgcheck's); the harness's tests use it too.
pub(crate) fn bouton(pos: &Piles) -> Analysis<Take> {
    let x = pos.0.iter().fold(0, |a, &p| a ^ p);
    let winning = pos
        .0
        .iter()
        .enumerate()
        .filter(|&(_, &p)| p ^ x < p)
        .map(|(pile, &p)| Take {
            pile,
            amount: p - (p ^ x),
        })
        .collect();
    Analysis {
        win: x != 0,
        winning,
        remoteness: None,
    }
}

impl Subject for NimSubject {
    type Rules = Nim;
    fn id(&self) -> &'static str {
        "nim"
    }
    /// Pile values (n) against a mex table of single piles.
    fn tier1(&self) -> Tier1Report {
        let mut r = Tier1Report::default();
        let mut g: Vec<u64> = Vec::new();
        for n in 0..256u64 {
            let mut seen: Vec<u64> = g.clone();
            seen.sort_unstable();
            let mex = seen
                .iter()
                .enumerate()
                .find(|&(i, &v)| i as u64 != v)
                .map_or(seen.len() as u64, |(i, _)| i as u64);
            g.push(mex);
            r.compare(format_args!("pile {n}"), n, mex);
        }
        r
    }
    fn instances(&self, size: u32) -> Vec<(Nim, Piles)> {
        compositions(size as u64, 4)
            .into_iter()
            .map(|p| (Nim, Piles(p)))
            .collect()
    }
    fn fast(&self, _: &Nim, pos: &Piles) -> Analysis<Take> {
        nim::analyze(pos)
    }
}

fn quick() -> Sweep {
    Sweep {
        time: Duration::from_secs(3),
        max_size: Some(6),
        random_batches: Some(0),
        hang_after: Duration::from_millis(400),
        ..Sweep::default()
    }
}

/// A Nim solver that panics on any position with a pile of 3.
fn panics_on_3(_: &Nim, pos: &Piles) -> Analysis<Take> {
    assert!(!pos.0.contains(&3), "pile of 3 not supported");
    nim::analyze(pos)
}

/// A Nim solver that never returns on a position with a pile of 3.
fn loops_on_3(_: &Nim, pos: &Piles) -> Analysis<Take> {
    while pos.0.contains(&3) {
        std::thread::sleep(Duration::from_millis(20));
    }
    nim::analyze(pos)
}

#[test]
fn a_panicking_fast_solver_is_a_disagreement_at_its_position() {
    let planted = Planted {
        subject: &NimSubject,
        fast: panics_on_3,
    };
    let (report, text, code) = report_of_game(verify_subject(&planted, &quick(), &()), 0);
    let d = report.games[0].tiers[1].first_disagreement.clone().unwrap();
    assert_eq!(d.position, "3", "{d:?}");
    assert!(
        d.fast.contains("panicked: pile of 3 not supported"),
        "{d:?}"
    );
    assert!(text.contains("DISAGREEMENT in nim tier 2:"), "{text}");
    assert_eq!(code, 1);
}

#[test]
fn a_looping_fast_solver_is_a_hang_at_its_position() {
    let started = Instant::now();
    let r = verify_guarded("nim", &quick(), "sgcheck verify --game nim".into(), |s| {
        verify_subject(
            &Planted {
                subject: &NimSubject,
                fast: loops_on_3,
            },
            &s,
            &(),
        )
    });
    assert!(started.elapsed() < Duration::from_secs(10));
    // Tier 1 (none for a planted subject) was kept, tier 2 is the hang.
    assert_eq!(r.tiers.len(), 2, "{r:?}");
    let d = r.tiers[1].first_disagreement.clone().unwrap();
    assert!(d.position.split(',').any(|p| p == "3"), "{d:?}");
    assert!(d.fast.contains("a hang"), "{d:?}");
    let (_, text, code) = report_of_game(r, 0);
    assert!(text.contains("DISAGREEMENT in nim tier 2:"), "{text}");
    assert_eq!(code, 1);
}

#[test]
fn a_panicking_tier1_is_a_disagreement_and_tier2_still_runs() {
    let tier1 = || {
        let mut r = Tier1Report::default();
        for n in 0..5000u64 {
            assert!(n != 2500, "table index {n} out of range");
            r.compare(format_args!("pile {n}"), n, n);
        }
        r
    };
    let planted = PlantedTier1 {
        subject: &NimSubject,
        tier1: &tier1,
    };
    let (report, text, code) = planted.run();
    let t1 = &report.games[0].tiers[0];
    let d = t1.first_disagreement.clone().unwrap();
    assert!(
        d.fast.contains("panicked: table index 2500 out of range"),
        "{d:?}"
    );
    // The last checkpoint before the panic (every 1024 comparisons).
    assert_eq!(d.position, "tier 1, after comparison 2048");
    assert!(report.games[0].tiers[1].checked > 0);
    assert_eq!(code, 1, "{text}");
}

#[test]
fn a_looping_tier1_is_a_hang() {
    let r = verify_guarded("nim", &quick(), "sgcheck verify --game nim".into(), |s| {
        let tier1 = || {
            let mut r = Tier1Report::default();
            r.compare("pile 0", 0, 0);
            loop {
                std::thread::sleep(Duration::from_millis(20));
            }
        };
        let planted = PlantedTier1 {
            subject: &NimSubject,
            tier1: &tier1,
        };
        verify_subject(
            &planted,
            &Sweep {
                time: Duration::from_secs(60),
                ..s
            },
            &(),
        )
    });
    assert_eq!(r.tiers.len(), 1, "{r:?}");
    let d = r.tiers[0].first_disagreement.clone().unwrap();
    assert_eq!(d.position, "tier 1, after comparison 0");
    assert!(d.fast.contains("a hang"), "{d:?}");
    assert_eq!(report_of_game(r, 0).2, 1);
}

#[test]
fn tier1_stops_at_the_time_budget_and_says_so() {
    let tier1 = || {
        let mut r = Tier1Report::default();
        for n in 0.. {
            r.compare(format_args!("pile {n}"), n, n);
        }
        r
    };
    let planted = PlantedTier1 {
        subject: &NimSubject,
        tier1: &tier1,
    };
    let sweep = Sweep {
        time: Duration::from_millis(300),
        max_size: Some(2),
        ..Sweep::default()
    };
    let r = verify_subject(&planted, &sweep, &());
    let note = r.tiers[0].note.clone().unwrap();
    assert!(note.starts_with("stopped at the time budget"), "{note}");
    assert!(r.tiers[0].checked > 0);
}

#[test]
fn a_run_with_skips_does_not_claim_to_be_exhaustive() {
    // An oracle budget of 30 positions a query: the larger Nim positions are too
    // large, and are skipped. The budget counts the positions a query adds to its
    // thread's table, so what is skipped depends on which thread's table already holds
    // a position's options: the sweep runs on a pool of its own, eight fresh threads
    // (on the shared pool, tables warmed by other tests, or one thread taking most of
    // the chunks on a busy machine, could leave nothing skipped). The time is ample:
    // the enumeration stops at size 30, not at the time.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(8)
        .build()
        .unwrap();
    let sweep = Sweep {
        budget: 30,
        max_size: Some(30),
        random_batches: Some(0),
        time: Duration::from_secs(120),
        ..Sweep::default()
    };
    let r = pool.install(|| verify_subject(&NimSubject, &sweep, &()));
    let t2 = &r.tiers[1];
    assert!(t2.skipped > 0);
    assert_eq!(t2.enumerated_size, Some(30));
    assert_eq!(t2.enumerated_skipped, t2.skipped);
    let exhaustive = t2.exhaustive_size.unwrap();
    assert!(exhaustive < 30, "{exhaustive}");
    assert_eq!(
        t2.exhaustive_label(),
        format!("size <= 30 ({} skipped)", t2.skipped)
    );
    // The label follows the skips of the sizes it names (the oracle's cached
    // tables, shared with tests running alongside, can make a rerun skip less).
    let again = pool.install(|| {
        verify_subject(
            &NimSubject,
            &Sweep {
                max_size: Some(exhaustive),
                ..sweep
            },
            &(),
        )
    });
    let t = &again.tiers[1];
    let want = match t.enumerated_skipped {
        0 => format!("size <= {exhaustive}"),
        k => format!("size <= {exhaustive} ({k} skipped)"),
    };
    assert_eq!(t.exhaustive_label(), want);
}

#[test]
fn a_tier_that_checked_nothing_is_not_checked_before_any_verdict() {
    let mut empty = TierReport::empty(2);
    empty.skipped = 12;
    let game = GameReport {
        game: "nim".into(),
        tiers: vec![TierReport::empty(1), empty],
        seconds: 0.0,
    };
    let (_, text, code) = report_of_game(game, 0);
    assert!(!text.contains("all agree"), "{text}");
    assert!(
        text.contains("NOT CHECKED: nothing was compared in nim tier 1, nim tier 2"),
        "{text}"
    );
    assert_eq!(code, 2);
}

#[test]
fn compositions_cover_each_sequence_once() {
    // Sequences of length 1..=3 summing to 2: [2]; [0,2],[1,1],[2,0]; 6 of length 3.
    let c = compositions(2, 3);
    assert_eq!(c.len(), 1 + 3 + 6);
    assert_eq!(c[0], vec![2]);
    assert!(c.iter().all(|v| v.iter().sum::<u64>() == 2));
}

/// One Nim heap as [`Positions`]: the fast side Bouton's, or a planted one wrong on
/// heaps of 7 (it says the player to move loses).
struct OneHeap {
    planted: bool,
}

impl Positions for OneHeap {
    type Position = u64;
    fn positions(&self, size: u32) -> Vec<u64> {
        if size <= 40 {
            vec![u64::from(size)]
        } else {
            Vec::new()
        }
    }
    fn random_position(&self, rng: &mut Rng) -> Option<u64> {
        use rand::Rng as _;
        Some(rng.gen_range(0..=40))
    }
    fn compare(&self, n: &u64, budget: usize) -> Result<Option<Disagreement>, SearchError> {
        let pos = Piles(vec![*n]);
        let oracle = Solver::new(Nim).with_budget(budget).analyze(&pos)?;
        let mut fast = bouton(&pos);
        if self.planted && *n == 7 {
            fast = Analysis {
                win: false,
                winning: Vec::new(),
                remoteness: None,
            };
        }
        Ok(
            (fast.win != oracle.win || fast.winning != oracle.winning).then(|| Disagreement {
                rules: "-".into(),
                position: n.to_string(),
                fast: describe(&fast),
                oracle: describe(&oracle),
                reproduce: format!("heap {n}"),
            }),
        )
    }
}

#[test]
fn positions_go_through_the_same_tiers_and_a_planted_bug_is_found_smallest_first() {
    let sweep = Sweep {
        max_size: Some(40),
        random_batches: Some(1),
        ..quick()
    };
    let r = verify_positions(
        "one-heap",
        &OneHeap { planted: false },
        || Err("no closed form".into()),
        "-",
        &sweep,
        &(),
    );
    assert_eq!(r.tiers[0].not_applicable.as_deref(), Some("no closed form"));
    let t2 = &r.tiers[1];
    assert!(t2.agreements > 40 && t2.disagreements == 0, "{t2:?}");
    let (_, text, code) = report_of_game(r, 1);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("not applicable: no closed form"), "{text}");
    assert!(text.contains("all agree"), "{text}");

    let r = verify_positions(
        "one-heap",
        &OneHeap { planted: true },
        || Ok(Tier1Report::default()),
        "-",
        &sweep,
        &(),
    );
    let t2 = &r.tiers[1];
    let d = t2
        .first_disagreement
        .as_ref()
        .expect("the planted bug is found");
    assert_eq!((d.position.as_str(), t2.exhaustive_size), ("7", Some(6)));
    // A tier 1 that compared nothing is not a tier that does not apply.
    let (_, text, code) = report_of_game(r, 1);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("NOT CHECKED"), "{text}");
}

#[test]
fn a_tier_that_does_not_apply_neither_passes_nor_fails() {
    let mut t2 = TierReport::empty(2);
    (t2.checked, t2.agreements) = (5, 5);
    let game = GameReport {
        game: "g".into(),
        tiers: vec![TierReport::not_applicable(1, "why"), t2.clone()],
        seconds: 0.0,
    };
    let (report, text, code) = report_of_game(game, 3);
    assert_eq!(code, 0, "{text}");
    assert!(not_checked(&report, Shard::ALL).is_empty());
    let only = GameReport {
        game: "g".into(),
        tiers: vec![TierReport::not_applicable(1, "why"), TierReport::empty(2)],
        seconds: 0.0,
    };
    let (_, text, code) = report_of_game(only, 3);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("nothing was compared in g tier 2"), "{text}");
}

/// A subject of a user's own, as `verify --game` runs a registered game: no tier 1.
struct NoTier1;

impl Subject for NoTier1 {
    type Rules = Nim;
    fn id(&self) -> &'static str {
        "users-nim"
    }
    fn instances(&self, size: u32) -> Vec<(Nim, Piles)> {
        NimSubject.instances(size)
    }
    fn fast(&self, _: &Nim, pos: &Piles) -> Analysis<Take> {
        nim::analyze(pos)
    }
}

#[test]
fn a_subject_without_a_tier_1_passes_on_tiers_2_and_3() {
    let r = verify_subject(&NoTier1, &quick(), &());
    let t1 = &r.tiers[0];
    assert!(
        t1.not_applicable
            .as_deref()
            .is_some_and(|w| w.contains("no tier 1")),
        "{t1:?}"
    );
    assert_eq!(t1.checked, 0);
    assert!(r.tiers[1].agreements > 100, "{:?}", r.tiers[1]);
    let (_, text, code) = report_of_game(r, 0);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("all agree"), "{text}");
}

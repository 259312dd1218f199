//! `verify --shard K/N`: the shards of a run partition every tier. Each instance is
//! checked by exactly one shard, and together they check what one run checks.

use indicatif::ProgressBar;
use sgcheck::games::lasker::{self, LaskerSubject};
use sgcheck::oracles::games::lasker::Lasker;
use sgcheck::oracles::games::nim::Piles;
use sgcheck::oracles::Analysis;
use sgcheck::verify::{verify_subject, Planted, Shard, Sweep};
use std::collections::BTreeMap;
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

/// Positions the fast side was asked about, with how often.
static SEEN: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn recording_fast(
    _rules: &Lasker,
    pos: &Piles,
) -> Analysis<sgcheck::oracles::games::lasker::LaskerMove> {
    SEEN.lock().unwrap().push(pos.to_string());
    lasker::analyze(pos)
}

fn sweep(shard: Shard) -> Sweep {
    Sweep {
        seed: 11,
        time: Duration::from_secs(600),
        shard,
        max_size: Some(7),
        random_batches: Some(2),
        ..Sweep::default()
    }
}

/// Runs the tier-2 sweep of Lasker's Nim (fast side recording) and returns how often
/// each position was compared, with the report's checked and skipped counts.
fn run(shard: Shard) -> (BTreeMap<String, usize>, u64, u64, Option<u32>) {
    SEEN.lock().unwrap().clear();
    let planted = Planted {
        subject: &LaskerSubject,
        fast: recording_fast,
    };
    let report = verify_subject(&planted, &sweep(shard), &ProgressBar::hidden());
    let t2 = &report.tiers[1];
    assert_eq!(t2.disagreements, 0);
    let mut counts = BTreeMap::new();
    for p in SEEN.lock().unwrap().drain(..) {
        *counts.entry(p).or_insert(0) += 1;
    }
    (counts, t2.checked, t2.skipped, t2.exhaustive_size)
}

#[test]
fn tier2_shards_partition_the_sweep() {
    let (whole, checked, skipped, exhaustive) = run(Shard::ALL);
    assert!(checked > 4000, "{checked}");
    assert_eq!(exhaustive, Some(7));
    for n in [2u64, 3] {
        let mut union: BTreeMap<String, usize> = BTreeMap::new();
        let (mut sum_checked, mut sum_skipped) = (0, 0);
        for k in 0..n {
            let (part, c, s, _) = run(Shard { index: k, count: n });
            assert!(c > 0, "shard {k}/{n} checked nothing");
            assert!(c < checked, "shard {k}/{n} checked everything");
            for (p, m) in part {
                *union.entry(p).or_insert(0) += m;
            }
            sum_checked += c;
            sum_skipped += s;
        }
        // Every comparison of the whole run happens in exactly one shard: the same
        // positions, each as often.
        assert_eq!(sum_checked, checked, "{n} shards");
        assert_eq!(sum_skipped, skipped, "{n} shards");
        assert_eq!(union, whole, "{n} shards");
    }
}

#[test]
fn shard_notation() {
    assert_eq!("1/4".parse::<Shard>(), Ok(Shard { index: 1, count: 4 }));
    for bad in ["4/4", "0/0", "1", "a/2", "-1/2", "1/-2"] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
    let s = Shard { index: 2, count: 3 };
    assert!(s.owns(5) && !s.owns(6));
}

/// `(game, tier) -> (checked, skipped)` of one `verify --json` run.
fn cli_counts(extra: &[&str]) -> BTreeMap<(String, u64), (u64, u64)> {
    let out = Command::new(env!("CARGO_BIN_EXE_sgcheck"))
        .args([
            "verify",
            "--game",
            "nim",
            "--game",
            "split",
            "--seed",
            "5",
            "--time",
            "600",
            "--max-size",
            "5",
            "--random-batches",
            "1",
            "--json",
            "--no-progress",
        ])
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut m = BTreeMap::new();
    for g in v["games"].as_array().unwrap() {
        for t in g["tiers"].as_array().unwrap() {
            m.insert(
                (
                    g["game"].as_str().unwrap().to_string(),
                    t["tier"].as_u64().unwrap(),
                ),
                (
                    t["checked"].as_u64().unwrap(),
                    t["skipped"].as_u64().unwrap(),
                ),
            );
        }
    }
    m
}

#[test]
fn cli_shards_add_up_to_one_run_in_every_tier() {
    let whole = cli_counts(&[]);
    assert_eq!(whole.len(), 6, "{whole:?}");
    let parts: Vec<_> = (0..3)
        .map(|k| cli_counts(&["--shard", &format!("{k}/3")]))
        .collect();
    for (key, &(checked, skipped)) in &whole {
        assert!(checked > 0, "{key:?} checked nothing");
        let c: u64 = parts.iter().map(|p| p[key].0).sum();
        let s: u64 = parts.iter().map(|p| p[key].1).sum();
        assert_eq!((c, s), (checked, skipped), "{key:?}");
    }
    // Tier 1 of a game runs whole in one shard.
    for game in ["nim", "split"] {
        let runs = parts
            .iter()
            .filter(|p| p[&(game.to_string(), 1)].0 > 0)
            .count();
        assert_eq!(runs, 1, "{game}");
    }
}

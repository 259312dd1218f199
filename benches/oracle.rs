//! Positions solved per second by the exhaustive oracle, per game, on a fixed family
//! of small positions. Each iteration starts from an empty table, so the figure is the
//! cost of answering the whole family from scratch (with remoteness, as `check` does).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sgcheck_oracles::games::{
    bash::Bash,
    ed::{Ed, EdPiles},
    following_nim::{FnPosition, FollowingNim},
    lasker::Lasker,
    nim::{Nim, Piles},
    split::{Bottles, SplitGame},
    subtraction::Subtraction,
    take_range::{Coins, TakeRange},
};
use sgcheck_oracles::{Rules, Solver};

/// Every vector of `len` values in `0..=max`.
fn grid(len: usize, max: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|v| {
                (0..=max).map(move |x| {
                    let mut w = v.clone();
                    w.push(x);
                    w
                })
            })
            .collect();
    }
    out
}

fn family<R: Rules + Clone>(c: &mut Criterion, game: &str, rules: R, positions: Vec<R::Position>) {
    let mut g = c.benchmark_group("oracle");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_with_input(
        BenchmarkId::new(game, positions.len()),
        &positions,
        |b, ps| {
            b.iter(|| {
                let mut s = Solver::new(rules.clone());
                for p in ps {
                    s.analyze(p).expect("family fits the default budget");
                }
            })
        },
    );
    g.finish();
}

fn oracle(c: &mut Criterion) {
    family(c, "nim", Nim, grid(3, 7).into_iter().map(Piles).collect());
    family(
        c,
        "bash",
        Bash { m: 3 },
        grid(2, 15).into_iter().map(Piles).collect(),
    );
    family(
        c,
        "take-range",
        TakeRange { p: 2, q: 4 },
        (1..=200).map(Coins).collect(),
    );
    family(
        c,
        "subtraction",
        Subtraction::fibonacci(1000).unwrap(),
        grid(3, 8).into_iter().map(Piles).collect(),
    );
    family(
        c,
        "lasker",
        Lasker,
        grid(2, 8).into_iter().map(Piles).collect(),
    );
    family(
        c,
        "ed",
        Ed,
        grid(2, 7)
            .into_iter()
            .map(|v| EdPiles(v.into_iter().map(|x| x + 1).collect()))
            .collect(),
    );
    family(
        c,
        "split",
        SplitGame,
        grid(4, 2)
            .into_iter()
            .map(|v| Bottles(v.into_iter().map(|x| x as u32).collect()))
            .collect(),
    );
    family(
        c,
        "following-nim",
        FollowingNim::new(vec![1, 3]).unwrap(),
        grid(2, 8)
            .into_iter()
            .map(|piles| FnPosition {
                piles,
                forced: None,
            })
            .collect(),
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3));
    targets = oracle
}
criterion_main!(benches);

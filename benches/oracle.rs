//! Positions answered per second by the exhaustive oracle, per game, on a fixed family
//! of small positions (with remoteness, as `check` does), in three ways measured side
//! by side in one run:
//!
//! - **plain, cold**: the plain search (`Speedups::NONE`), each pass over the family
//!   from an empty table (the figure this benchmark reported before the speed-ups);
//! - **fast, cold**: every speed-up, each pass from an empty table;
//! - **fast, warm**: every speed-up, the table kept across passes, as a fuzz process or
//!   a verify worker keeps it for the same rules (`with_cached_solver`): a query
//!   still generates the position's moves and looks up every child.
//!
//! Every answer of the fast passes is compared with the plain one. The last five
//! families are the games whose tier 2 in `verify` was thinnest (octal, Grundy's game,
//! Nim_k, the auction, Green Hackenbush); `benches/verify_depth.sh` measures that
//! tier 2 itself. Rates are per
//! second of the measuring thread's CPU time, so a machine busy with other work slows
//! the run down but not the figures much; the wall-time rate of the fast warm pass is
//! printed too. Run with `cargo bench --bench oracle` (about 30 s on an idle machine);
//! `-- <game>` runs the games named.

use sgcheck_oracles::games::{
    auction::{Auction, Missing},
    bash::Bash,
    ed::{Ed, EdPiles},
    following_nim::{FnPosition, FollowingNim},
    grundy::GrundyGame,
    hackenbush_tree::{HackenbushTree, Tree},
    lasker::Lasker,
    nim::{Nim, Piles},
    nim_k::NimK,
    octal::Octal,
    split::{Bottles, SplitGame},
    subtraction::Subtraction,
    take_range::{Coins, TakeRange},
};
use sgcheck_oracles::{Analysis, Rules, Solver, Speedups};
use std::time::{Duration, Instant};

const MEASURE: Duration = Duration::from_millis(1200);

/// CPU time of the calling thread.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

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

/// Family positions answered per CPU second (and per wall second): passes over the
/// family until MEASURE of CPU time is used.
fn rate<R: Rules + Clone>(
    rules: &R,
    positions: &[R::Position],
    sp: Speedups,
    warm: bool,
    want: &[Analysis<R::Move>],
) -> (f64, f64) {
    let mut solver = Solver::new(rules.clone()).with_speedups(sp);
    if warm {
        for p in positions {
            solver.analyze(p).expect("family fits the default budget");
        }
    }
    let start = Instant::now();
    let cpu = thread_cpu();
    let mut answered = 0u64;
    while thread_cpu() - cpu < MEASURE {
        if !warm {
            solver = Solver::new(rules.clone()).with_speedups(sp);
        }
        for (p, w) in positions.iter().zip(want) {
            let a = solver.analyze(p).expect("family fits the default budget");
            assert_eq!(&a, w, "speed-ups changed the answer at {p}");
            answered += 1;
        }
    }
    let per_cpu = answered as f64 / (thread_cpu() - cpu).as_secs_f64();
    (per_cpu, answered as f64 / start.elapsed().as_secs_f64())
}

fn human(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1} K", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

fn family<R: Rules + Clone>(
    filter: &[String],
    game: &str,
    what: &str,
    rules: R,
    ps: Vec<R::Position>,
) {
    if !filter.is_empty() && !filter.iter().any(|f| game.contains(f.as_str())) {
        return;
    }
    let want: Vec<_> = ps
        .iter()
        .map(|p| {
            Solver::new(rules.clone())
                .with_speedups(Speedups::NONE)
                .analyze(p)
                .expect("family fits the default budget")
        })
        .collect();
    let (plain, _) = rate(&rules, &ps, Speedups::NONE, false, &want);
    let (cold, _) = rate(&rules, &ps, Speedups::ALL, false, &want);
    let (warm, warm_wall) = rate(&rules, &ps, Speedups::ALL, true, &want);
    println!(
        "| {game} | {what} ({}) | {} | {} | {} | {:.1}x | {:.0}x | {} |",
        ps.len(),
        human(plain),
        human(cold),
        human(warm),
        cold / plain,
        warm / plain,
        human(warm_wall)
    );
}

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let f = &filter;
    println!("positions answered per CPU second (remoteness on), side by side:\n");
    println!("| game | family | plain, cold | fast, cold | fast, warm | cold speed-up | warm speed-up | fast, warm, per wall second |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    family(
        f,
        "nim",
        "3 piles of 0..=7",
        Nim,
        grid(3, 7).into_iter().map(Piles).collect(),
    );
    family(
        f,
        "bash",
        "m = 3, 2 piles of 0..=15",
        Bash { m: 3 },
        grid(2, 15).into_iter().map(Piles).collect(),
    );
    family(
        f,
        "take-range",
        "p = 2, q = 4, n = 1..=200",
        TakeRange { p: 2, q: 4 },
        (1..=200).map(Coins).collect(),
    );
    family(
        f,
        "subtraction",
        "Fibonacci set, 3 piles of 0..=8",
        Subtraction::fibonacci(1000).unwrap(),
        grid(3, 8).into_iter().map(Piles).collect(),
    );
    family(
        f,
        "lasker",
        "2 piles of 0..=8",
        Lasker,
        grid(2, 8).into_iter().map(Piles).collect(),
    );
    family(
        f,
        "ed",
        "one pair, piles 1..=8",
        Ed,
        grid(2, 7)
            .into_iter()
            .map(|v| EdPiles(v.into_iter().map(|x| x + 1).collect()))
            .collect(),
    );
    family(
        f,
        "split",
        "4 bottles of 0..=2 beans",
        SplitGame,
        grid(4, 2)
            .into_iter()
            .map(|v| Bottles(v.into_iter().map(|x| x as u32).collect()))
            .collect(),
    );
    family(
        f,
        "following-nim",
        "specials 1,3, free, 2 piles of 0..=8",
        FollowingNim::new(vec![1, 3]).unwrap(),
        grid(2, 8)
            .into_iter()
            .map(|piles| FnPosition {
                piles,
                forced: None,
            })
            .collect(),
    );
    // The games whose tier 2 in `verify` was thinnest.
    family(
        f,
        "octal",
        "Kayles 0.77, 3 heaps of 0..=7",
        "0.77".parse::<Octal>().unwrap(),
        grid(3, 7).into_iter().map(Piles).collect(),
    );
    family(
        f,
        "grundy",
        "4 heaps of 0..=9",
        GrundyGame,
        grid(4, 9).into_iter().map(Piles).collect(),
    );
    family(
        f,
        "nim-k",
        "k = 2, 3 heaps of 0..=5",
        NimK { k: 2 },
        grid(3, 5).into_iter().map(Piles).collect(),
    );
    family(
        f,
        "auction",
        "n = 7, r = 0..=300",
        Auction { n: 7 },
        (0..=300).map(Missing).collect(),
    );
    family(
        f,
        "hackenbush-tree",
        "every increasing tree of up to 6 vertices",
        HackenbushTree,
        small_trees(6),
    );
}

/// Every tree on vertices 1..=n (n up to `max`) whose labels increase away from the
/// root 1 (vertex k hangs from one of 1..k): (n - 1)! trees of n vertices.
fn small_trees(max: u32) -> Vec<Tree> {
    let mut out = vec![Tree::default()];
    let mut frontier: Vec<Vec<(u32, u32)>> = vec![Vec::new()];
    for k in 2..=max {
        let mut next = Vec::new();
        for edges in &frontier {
            for p in 1..k {
                let mut e = edges.clone();
                e.push((p, k));
                out.push(Tree::from_undirected(&e).unwrap());
                next.push(e);
            }
        }
        frontier = next;
    }
    out
}

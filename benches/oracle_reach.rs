//! How far the exhaustive oracle reaches within one second, per game: positions of a
//! growing family are solved (from an empty table, with remoteness) until one takes
//! longer than a second or exceeds the default budget; the last one under a second is
//! printed. Run with `cargo bench --bench oracle_reach`.

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
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(1);

/// Solves `make(1)`, `make(2)`, ... and reports the largest size answered within LIMIT.
fn reach<R: Rules + Clone>(
    game: &str,
    rules: R,
    describe: &str,
    make: impl Fn(u64) -> R::Position,
) {
    let mut best: Option<(u64, Duration, usize)> = None;
    let mut stop = "size limit of the family";
    for size in 1..=1_000_000u64 {
        let pos = make(size);
        let mut s = Solver::new(rules.clone());
        let start = Instant::now();
        let r = s.analyze(&pos);
        let t = start.elapsed();
        if r.is_err() {
            stop = "next size exceeds the default budget";
            break;
        }
        if t > LIMIT {
            stop = "next size takes over a second";
            break;
        }
        best = Some((size, t, s.table_len()));
    }
    match best {
        Some((size, t, table)) => println!(
            "| {game} | {} | {:.3} s | {table} | {stop} |",
            describe.replace("{}", &size.to_string()),
            t.as_secs_f64(),
        ),
        None => println!("| {game} | nothing within a second | | | {stop} |"),
    }
}

fn main() {
    println!("largest position answered within one second (from an empty table):\n");
    println!("| game | position | time | positions in table | what stops the next size |");
    println!("|---|---|---|---|---|");
    reach("nim", Nim, "4 piles of {} stones", |s| Piles(vec![s; 4]));
    reach("bash", Bash { m: 3 }, "4 piles of {} stones, m = 3", |s| {
        Piles(vec![s; 4])
    });
    reach(
        "take-range",
        TakeRange { p: 3, q: 10 },
        "one pile of {}*1000 coins, p=3 q=10",
        |s| Coins(s * 1000),
    );
    reach(
        "subtraction",
        Subtraction::fibonacci(1000).unwrap(),
        "3 piles of {}, Fibonacci set",
        |s| Piles(vec![s; 3]),
    );
    reach("lasker", Lasker, "3 piles of {} stones", |s| {
        Piles(vec![s; 3])
    });
    reach("ed", Ed, "2 pairs of piles of {}", |s| EdPiles(vec![s; 4]));
    reach(
        "split",
        SplitGame,
        "{} bottles, one bean in bottle 0",
        |s| {
            let mut b = vec![0u32; s as usize];
            b[0] = 1;
            Bottles(b)
        },
    );
    reach("split", SplitGame, "6 bottles of {} beans", |s| {
        Bottles(vec![s as u32; 6])
    });
    reach(
        "following-nim",
        FollowingNim::new(vec![1, 3]).unwrap(),
        "3 piles of {}, specials 1,3",
        |s| FnPosition {
            piles: vec![s; 3],
            forced: None,
        },
    );
}

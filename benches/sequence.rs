//! Long Grundy tables of take-and-break games: the plain mex table against the
//! rare/common (sparse space) method, side by side in one run, and the rare/common
//! method alone to n = 2^20.
//!
//! `cargo bench --bench sequence` prints one row per game: the time of each method on
//! the same prefix (and that both give the same values), then the time to 2^20 with the
//! period search of `sgcheck sequence` (which stops early once a period is proven).

use sgcheck::games::take_break::{compute, plain_table, Breaks, Method};
use std::time::Instant;

/// Prefix on which both methods run (the plain one is quadratic).
const PREFIX: usize = 1 << 15;
/// The long run.
const LONG: usize = 1 << 20;

fn octal(code: &str) -> Breaks {
    let digits = code.trim_start_matches("0.");
    Breaks::Octal(digits.bytes().map(|b| b - b'0').collect())
}

fn main() {
    let games: Vec<(&str, Breaks, bool)> = vec![
        ("0.16", octal("0.16"), true),
        ("0.454", octal("0.454"), true),
        ("0.106", octal("0.106"), false),
        ("grundy", Breaks::Grundy, false),
    ];
    println!(
        "{:<8} {:>14} {:>14} {:>8} {:>16} {:>24}",
        "game", "plain 2^15 s", "sparse 2^15 s", "ratio", "sparse 2^20 s", "period"
    );
    for (name, b, long) in games {
        let t = Instant::now();
        let plain = plain_table(&b, PREFIX);
        let plain_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let sparse = compute(&b, PREFIX, Method::Sparse, true);
        let sparse_s = t.elapsed().as_secs_f64();
        assert_eq!(sparse.values, plain, "{name}: the methods disagree");
        let (long_s, period) = if long {
            let t = Instant::now();
            let c = compute(&b, LONG, Method::Sparse, true);
            assert_eq!(c.values.len(), LONG);
            assert_eq!(
                &c.values[..PREFIX],
                &plain[..],
                "{name}: 2^20 run vs plain prefix"
            );
            let p = c.period.map_or("none".to_string(), |p| {
                format!("{} from {}", p.period, p.preperiod)
            });
            (format!("{:.2}", t.elapsed().as_secs_f64()), p)
        } else {
            ("-".to_string(), "-".to_string())
        };
        println!(
            "{:<8} {:>14.3} {:>14.3} {:>7.1}x {:>16} {:>24}",
            name,
            plain_s,
            sparse_s,
            plain_s / sparse_s,
            long_s,
            period
        );
    }
}

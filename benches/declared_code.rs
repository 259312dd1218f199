//! A heap game declared by its code against the built-in `octal` game: the same Grundy
//! values, computed both ways, side by side in one run.
//!
//! ```sh
//! cargo bench --bench declared_code            # every code and its lengths
//! cargo bench --bench declared_code -- 0.16    # only the codes named
//! ```
//!
//! For each code and length n, four ways to g(0..n), interleaved round by round, in
//! two pairs:
//!
//! - **sequences**: `sgcheck sequence octal --rules CODE --count n` against `sgcheck
//!   sequence heap-code --rules CODE --count n` (the function behind both,
//!   [`sgcheck::cli::sequence::sequence`], default method);
//! - **lookups**, the fast sides as `solve` and `verify` use them, g(x) asked for x =
//!   0, 1, ..., n - 1 one call at a time: the built-in game's
//!   [`OctalSolver::with_len`] (n values, or to the proven period) then
//!   [`OctalSolver::grundy`], against the declared game's [`HeapRules::parse`] then
//!   [`HeapRules::grundy`] (its table built lazily, doubling).
//!
//! Every way must give the same values (the bench panics otherwise). Each row shows the
//! median time of each way, Grundy values per second (n / time), the declared way's
//! ratio to the built-in one, and how many values were computed by mex (the rest follow
//! from a proven period). A length past what the declared game's lookups answer (the
//! bound sized from its rules, for a code without a proven period) is refused by them,
//! and its cells say "past bound" instead of a time.
//!
//! Run without `--bench` (as `cargo test --benches` does), one round at small n only
//! checks the values.

use sgcheck::cli::sequence::sequence;
use sgcheck::games::heap_code::HeapRules;
use sgcheck::games::octal::OctalSolver;
use sgcheck::games::take_break::Method;
use sgcheck_oracles::games::octal::Octal;
use std::time::{Duration, Instant};

/// The codes, each with its lengths: Kayles, Dawson's chess and Dawson's Kayles have
/// short periods (proven within 256 values: the rest is extrapolation, up to 2^20),
/// 0.16 and 0.106 no known period (the table is all mex: 2^12 is within the plain
/// prefix of the rare/common method, 2^14 and 2^15 past it).
const CODES: [(&str, &[usize]); 5] = [
    ("0.77", &PERIODIC),
    ("0.137", &PERIODIC),
    ("0.07", &PERIODIC),
    ("0.16", &MEX),
    ("0.106", &MEX),
];
const PERIODIC: [usize; 3] = [1 << 12, 1 << 15, 1 << 20];
const MEX: [usize; 3] = [1 << 12, 1 << 14, 1 << 15];

/// The four ways, timed once each: their values and times (and, for the sequences,
/// the values computed by mex).
struct Round {
    octal: (Vec<u64>, Duration, usize),
    sequence: Option<(Vec<u64>, Duration, usize)>,
    octal_lookups: (Vec<u64>, Duration),
    lookups: Option<(Vec<u64>, Duration)>,
}

fn octal(code: &str, n: usize) -> (Vec<u64>, Duration, usize) {
    let t = Instant::now();
    let r = sequence("octal", Some(code), n, Method::Sparse).expect("octal sequence");
    (r.values, t.elapsed(), r.by_mex)
}

fn heap_code_sequence(code: &str, n: usize) -> Option<(Vec<u64>, Duration, usize)> {
    let t = Instant::now();
    let r = sequence("heap-code", Some(code), n, Method::Sparse).ok()?;
    Some((r.values, t.elapsed(), r.by_mex))
}

fn octal_lookups(code: &str, n: usize) -> (Vec<u64>, Duration) {
    let t = Instant::now();
    let c: Octal = code.parse().expect("an octal code");
    let s = OctalSolver::with_len(&c, n);
    let mut values = Vec::with_capacity(n);
    for x in 0..n as u64 {
        values.push(s.grundy(x).expect("within the table or its period"));
    }
    (values, t.elapsed())
}

fn heap_code_lookups(code: &str, n: usize) -> Option<(Vec<u64>, Duration)> {
    let t = Instant::now();
    let r = HeapRules::parse(code).expect("a code");
    let mut values = Vec::with_capacity(n);
    for x in 0..n as u64 {
        values.push(r.grundy(x)?);
    }
    Some((values, t.elapsed()))
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Values per second, in millions.
fn rate(n: usize, d: Duration) -> String {
    format!("{:.1}", n as f64 / d.as_secs_f64() / 1e6)
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let timing = args.iter().any(|a| a == "--bench");
    let only: Vec<&str> = args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .map(String::as_str)
        .collect();
    let codes: Vec<(&str, &[usize])> = CODES
        .iter()
        .copied()
        .filter(|(c, _)| only.is_empty() || only.contains(c))
        .collect();
    assert!(!codes.is_empty(), "no code matches {only:?}");
    let started = Instant::now();
    let mut rows = Vec::new();
    for &(code, lengths) in &codes {
        let lengths: &[usize] = if timing { lengths } else { &[1 << 10] };
        for &n in lengths {
            // Fewer rounds where one round takes long.
            let rounds = if n >= 1 << 15 { 5 } else { 11 };
            let rounds = if timing { rounds } else { 1 };
            let mut all: Vec<Round> = Vec::new();
            for _ in 0..rounds {
                let o = octal(code, n);
                let s = heap_code_sequence(code, n);
                let ol = octal_lookups(code, n);
                let l = heap_code_lookups(code, n);
                for (way, v) in [
                    ("heap-code sequence", s.as_ref().map(|s| &s.0)),
                    ("octal lookups", Some(&ol.0)),
                    ("heap-code lookups", l.as_ref().map(|l| &l.0)),
                ] {
                    if let Some(v) = v {
                        if let Some(i) = (0..n).find(|&i| v[i] != o.0[i]) {
                            panic!(
                                "VALUES DIFFER: {code}, n = {n}, {way}: g({i}) = {}, octal {}",
                                v[i], o.0[i]
                            );
                        }
                        assert_eq!(v.len(), o.0.len(), "{code}: {way} length");
                    }
                }
                all.push(Round {
                    octal: o,
                    sequence: s,
                    octal_lookups: ol,
                    lookups: l,
                });
            }
            let o = median(all.iter().map(|r| r.octal.1).collect());
            let ol = median(all.iter().map(|r| r.octal_lookups.1).collect());
            let o_mex = all[0].octal.2;
            let cell = |d: Option<Duration>, base: Duration| match d {
                Some(d) => (
                    ms(d),
                    rate(n, d),
                    format!("{:.2}", d.as_secs_f64() / base.as_secs_f64()),
                ),
                None => ("past bound".into(), "-".into(), "-".into()),
            };
            let s = all[0]
                .sequence
                .as_ref()
                .map(|_| median(all.iter().map(|r| r.sequence.as_ref().unwrap().1).collect()));
            let s_mex = all[0].sequence.as_ref().map(|s| s.2);
            let l = all[0]
                .lookups
                .as_ref()
                .map(|_| median(all.iter().map(|r| r.lookups.as_ref().unwrap().1).collect()));
            let (s_ms, s_rate, s_ratio) = cell(s, o);
            let (l_ms, l_rate, l_ratio) = cell(l, ol);
            let row = format!(
                "| {code} | 2^{} | {} | {} | {} | {} | {s_ms} | {s_rate} | **{s_ratio}** | {} | {} | {l_ms} | {l_rate} | **{l_ratio}** |",
                n.trailing_zeros(),
                o_mex,
                s_mex.map_or("-".to_string(), |m| m.to_string()),
                ms(o),
                rate(n, o),
                ms(ol),
                rate(n, ol),
            );
            eprintln!("{row}");
            rows.push(row);
        }
    }
    if !timing {
        eprintln!("values checked; run `cargo bench --bench declared_code` for the timings");
        return;
    }
    println!();
    println!(
        "| code | n | by mex: octal | heap-code \
         | sequence octal ms | M values/s | sequence heap-code ms | M values/s | / octal \
         | lookups octal ms | M values/s | lookups heap-code ms | M values/s | / octal |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in &rows {
        println!("{r}");
    }
    println!();
    println!(
        "Median of 11 interleaved rounds (5 for n >= 2^15); every way gave the same \
         values. Bench took {:.0} s.",
        started.elapsed().as_secs_f64()
    );
}

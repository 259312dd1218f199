//! The programs and models of the game-aware shrinking tests, shared by
//! `tests/audit_game_shrink.rs` and `benches/shrink.rs` (which includes this file by
//! its path): C++ solutions with one planted mistake whose smallest failing input is
//! known, the models of the games that say which inputs fail, and the large failing
//! cases the shrinker starts from. Only `std`.
#![allow(dead_code)]

/// Lasker's Nim: the Grundy value of one pile.
pub fn lasker(s: u64) -> u64 {
    match s % 4 {
        0 if s == 0 => 0,
        0 => s - 1,
        3 => s + 1,
        _ => s,
    }
}

/// The Lasker pile that makes `rest` a losing position (the values form an
/// involution).
pub fn lasker_cancel(rest: &[u64]) -> u64 {
    lasker(rest.iter().fold(0, |a, &s| a ^ lasker(s)))
}

/// hdu3032 in C++: `sg` the body of the program's Grundy function of `s`, `read` the
/// loop that XORs the values of the piles `a[0..n]` into `x`.
pub fn hdu3032(sg: &str, read: &str) -> String {
    r#"#include <cstdio>
#include <vector>
long long sg(long long s) {
    SG
}
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        std::vector<long long> a(n);
        for (int i = 0; i < n; i++)
            if (scanf("%lld", &a[i]) != 1) return 1;
        long long x = 0;
        READ
        puts(x != 0 ? "Alice" : "Bob");
    }
}
"#
    .replace("SG", sg)
    .replace("READ", read)
}

/// Lasker's Nim's Grundy function, right.
pub const LASKER_SG: &str = "if (s % 4 == 0) return s - 1; if (s % 4 == 3) return s + 1; return s;";
/// Every pile's value XORed in.
pub const ALL_PILES: &str = "for (int i = 0; i < n; i++) x ^= sg(a[i]);";

/// Lasker's values capped at `cap`.
pub fn lasker_capped(cap: u64) -> String {
    format!(
        "long long v = s % 4 == 0 ? s - 1 : s % 4 == 3 ? s + 1 : s; return v < {cap} ? v : {cap};"
    )
}

/// Piles above `threshold` taken at face value.
pub fn lasker_above(threshold: u64) -> String {
    format!("if (s > {threshold}) return s; {LASKER_SG}")
}

/// A ring buffer of `ring` piles: the piles past it overwrite the first ones.
pub fn ring_read(ring: usize) -> String {
    format!(
        "static long long ring[{ring}];\n        \
         for (int i = 0; i < n; i++) ring[i % {ring}] = a[i];\n        \
         for (int i = 0; i < n && i < {ring}; i++) x ^= sg(ring[i]);"
    )
}

/// Bash's game with m = 7 (the period-8 table n % 8) with the entries 3 and 5 swapped.
pub const PERIOD8_SWAPPED: &str = r#"#include <cstdio>
int main() {
    const long long table[8] = {0, 1, 2, 5, 4, 3, 6, 7};
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        long long x = 0;
        for (int i = 0; i < n; i++) {
            long long s;
            if (scanf("%lld", &s) != 1) return 1;
            x ^= table[s % 8];
        }
        puts(x != 0 ? "First" : "Second");
    }
}
"#;

/// The table of [`PERIOD8_SWAPPED`].
pub const PERIOD8_TABLE: [u64; 8] = [0, 1, 2, 5, 4, 3, 6, 7];

/// A declared problem: Bash's game (take 1 to 7) on many piles.
pub const BASH7: &str = r#"format = 1
id = "bash7"
title = "Bash's game (take 1 to 7) on many piles"
game = "bash"
position = ["piles"]

[rules]
m = 7

[describe]
input = "T; then per case: N, then N pile sizes"
output = "per case `First` if the first player wins, else `Second`"
limits = "T <= 100, 1 <= N <= 10^5, 0 <= pile <= 10^9"

[input]
cases = "count"
count = { what = "case count T", min = 1, max = 100 }

[[field]]
name = "piles"
what = "pile {i} of case {case}"
min = 0
max = 1000000000
length = { what = "pile count N of case {case}", min = 1, max = 100000 }

[output]
lines = ["{verdict}"]
win = "First"
lose = "Second"
"#;

/// E&D: the Grundy value of the pair (a, b), the number of low one bits of
/// (a-1) | (b-1).
pub fn ed_pair(a: u64, b: u64) -> u64 {
    u64::from(((a - 1) | (b - 1)).trailing_ones())
}

/// p2148 (E&D) in C++ with the pair values capped at `cap`.
pub fn p2148_capped(cap: u32) -> String {
    r#"#include <cstdio>
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        long long x = 0;
        for (int i = 0; i < n / 2; i++) {
            long long a, b;
            if (scanf("%lld %lld", &a, &b) != 2) return 1;
            long long v = __builtin_ctzll(~((a - 1) | (b - 1)));
            x ^= v < CAP ? v : CAP;
        }
        puts(x != 0 ? "YES" : "NO");
    }
}
"#
    .replace("CAP", &cap.to_string())
}

/// Whether p2148 with values capped at `cap` is wrong on the piles `p`.
pub fn ed_cap_fails(p: &[u64], cap: u64) -> bool {
    let v: Vec<u64> = p.chunks(2).map(|c| ed_pair(c[0], c[1])).collect();
    let truth = v.iter().fold(0, |a, &x| a ^ x);
    let capped = v.iter().fold(0, |a, &x| a ^ x.min(cap));
    (truth != 0) != (capped != 0)
}

/// `pairs` E&D pairs of piles up to 2 * 10^9 on which the cap at 30 fails: one pair
/// worth 31, one worth 30, the last one making the true XOR 0 (the capped program
/// answers YES).
pub fn ed_cap_case(pairs: usize) -> Vec<u64> {
    let mut big = piles(2 * pairs, 2_000_000_000);
    big[0] = 1_500_000_001;
    big[1] = (0x7fff_ffff & !1_500_000_000) + 1;
    big[2] = 1 << 30;
    big[3] = 12_345;
    let n = big.len();
    let rest = big[..n - 2]
        .chunks(2)
        .fold(0, |a, c| a ^ ed_pair(c[0], c[1]));
    big[n - 2] = 1;
    big[n - 1] = 1 << rest;
    big
}

/// `n` piles in 1..=`top` from a fixed sequence.
pub fn piles(n: usize, top: u64) -> Vec<u64> {
    (0..n as u64)
        .map(|i| 1 + (i.wrapping_mul(2_654_435_761) ^ (i >> 3)) % top)
        .collect()
}

/// Changes the first pile until `fails` holds: first to `cancel(rest)` (the pile that
/// makes the position losing), then to 1, 2, ...
pub fn make_fail(
    mut p: Vec<u64>,
    cancel: impl Fn(&[u64]) -> u64,
    fails: impl Fn(&[u64]) -> bool,
) -> Vec<u64> {
    for k in 0..1_000 {
        p[1] += k;
        p[0] = cancel(&p[1..]);
        if fails(&p) {
            return p;
        }
    }
    for v in 1..=100_000 {
        p[0] = v;
        if fails(&p) {
            return p;
        }
    }
    panic!("no failing case found");
}

//! sgcheck with a game of your own: a binary that is the whole `sgcheck` command line
//! (`solve`, `verify --problem`, `audit --problem`, `export`, ...) and also knows a game
//! that sgcheck does not ship, so problem declarations can say `game = "prime-take"`.
//!
//! The game: piles of stones; a move takes a prime number of stones from one pile.
//! Whoever cannot move loses (a pile of 0 or 1 has no move).
//!
//! 1. The rules implement `sgcheck::oracles::Rules` (only the moves): the oracle plays
//!    whole positions from them, with no game theory.
//! 2. `sgcheck::games::declared::Declare` says how a declaration uses the game: its
//!    parameters (none), the fast solver (Grundy values by mex over the prime moves,
//!    XOR over the piles), the names of a move's fields, and the oracle's position.
//! 3. `sgcheck::Game` lists the instances by size, and `sgcheck::games::BuiltIn` (a
//!    verify subject with its fuzz decoding) makes the game one of `verify --game` and
//!    `check` as well: the sweep of the fast solver against the oracle, with no tier 1
//!    of its own (tier 1 is shown as not applicable).
//! 4. `main` registers the game and hands the command line to `sgcheck::cli::main`.
//!
//! Run: `cargo run --release --example own_game_cli -- solve --problem
//! examples/problems/prime_take.toml < input`, or `verify --problem ...`, or
//! `audit --problem ... -- ./your-program`, or `verify --game prime-take`, or
//! `check prime-take '5 7'`.

use rand_chacha::ChaCha8Rng;
use sgcheck::fuzzing::AgreeTarget;
use sgcheck::games::declared::{self, Declare};
use sgcheck::games::BuiltIn;
use sgcheck::oracles::{write_list, Analysis, Rules, SearchError};
use sgcheck::registry::{self, Entry};
use sgcheck::verify::Subject;
use sgcheck::Game;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// The largest pile the fast solver takes (its table is computed once, in `build`).
const MAX_PILE: u64 = 5000;

/// The rules (no parameters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct PrimeTake;

/// The stones of each pile.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Piles(Vec<u64>);

/// Take `amount` (a prime) stones from pile `pile` (counted from 0). The derived order
/// is the canonical move order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Take {
    pile: usize,
    amount: u64,
}

impl fmt::Display for Piles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_list(f, &self.0)
    }
}

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.pile, self.amount)
    }
}

fn is_prime(n: u64) -> bool {
    n >= 2
        && (2..)
            .take_while(|d| d * d <= n)
            .all(|d| !n.is_multiple_of(d))
}

/// The oracle's side: the legal moves, straight from the rule text.
impl Rules for PrimeTake {
    type Position = Piles;
    type Move = Take;

    fn moves(&self, pos: &Piles, out: &mut Vec<(Take, Piles)>) {
        for (pile, &n) in pos.0.iter().enumerate() {
            for amount in (2..=n).filter(|&a| is_prime(a)) {
                let mut next = pos.0.clone();
                next[pile] = n - amount;
                out.push((Take { pile, amount }, Piles(next)));
            }
        }
    }

    /// Piles in any order are the same game.
    fn key(&self, pos: &Piles) -> Piles {
        let mut piles = pos.0.clone();
        piles.sort_unstable();
        Piles(piles)
    }
}

/// The fast side's rules: the primes up to [`MAX_PILE`] and the Grundy value of every
/// pile up to it, g(n) = mex{ g(n - p) : p prime, p <= n }.
struct Table {
    primes: Vec<u64>,
    value: Vec<u64>,
}

impl Table {
    fn new() -> Table {
        let primes: Vec<u64> = (2..=MAX_PILE).filter(|&n| is_prime(n)).collect();
        let mut value = Vec::with_capacity(MAX_PILE as usize + 1);
        let mut seen = Vec::new();
        for n in 0..=MAX_PILE {
            seen.clear();
            seen.extend(
                primes
                    .iter()
                    .take_while(|&&p| p <= n)
                    .map(|&p| value[(n - p) as usize]),
            );
            seen.sort_unstable();
            seen.dedup();
            let mex = seen.iter().enumerate().find(|&(i, &v)| i as u64 != v);
            value.push(mex.map_or(seen.len() as u64, |(i, _)| i as u64));
        }
        Table { primes, value }
    }

    fn g(&self, n: u64) -> u64 {
        self.value[n as usize]
    }
}

/// The fast solver's verdict and winning moves (piles within [`MAX_PILE`], which
/// [`Declare::check`] and the sweep's instances keep): XOR of the piles' values, and
/// every prime take that leaves a pile of the value that makes the XOR 0.
fn analysis(t: &Table, position: &[u64]) -> Analysis<Take> {
    let x = position.iter().fold(0, |x, &n| x ^ t.g(n));
    let mut winning = Vec::new();
    if x != 0 {
        for (pile, &n) in position.iter().enumerate() {
            let need = x ^ t.g(n);
            for &amount in t.primes.iter().take_while(|&&p| p <= n) {
                if t.g(n - amount) == need {
                    winning.push(Take { pile, amount });
                }
            }
        }
    }
    Analysis {
        win: x != 0,
        winning,
        remoteness: None,
    }
}

impl Declare for PrimeTake {
    type Oracle = PrimeTake;
    type Fast = Table;
    const ID: &'static str = "prime-take";
    const POSITION: &'static str = "pile sizes";
    const MOVE_FIELDS: &'static [&'static str] = &["pile", "amount"];

    fn build(_params: &[declared::ParamValue<'_>]) -> Result<Table, String> {
        Ok(Table::new())
    }
    fn check(_: &Table, position: &[u64]) -> Result<(), String> {
        match position.iter().find(|&&n| n > MAX_PILE) {
            Some(n) => Err(format!(
                "a pile of {n}: prime-take takes piles up to {MAX_PILE}"
            )),
            None => Ok(()),
        }
    }
    fn first_wins(t: &Table, position: &[u64]) -> Result<bool, String> {
        Ok(position.iter().fold(0, |x, &n| x ^ t.g(n)) != 0)
    }
    fn analyze(t: &Table, position: &[u64]) -> Result<Analysis<Take>, String> {
        Ok(analysis(t, position))
    }
    fn move_fields(m: &Take, _: &[u64]) -> [u64; 4] {
        [m.pile as u64, m.amount, 0, 0]
    }
    fn oracle(_: &Table, position: &[u64], _: usize) -> Result<(PrimeTake, Piles), SearchError> {
        Ok((PrimeTake, Piles(position.to_vec())))
    }
    /// Losing cases on demand: the generators draw them instead of waiting for luck.
    fn make_losing(t: &Table, p: &mut [u64], b: &[(u64, u64)], rng: &mut ChaCha8Rng) -> bool {
        declared::losing_sum(
            p,
            b,
            rng,
            |n| t.g(n),
            |need, lo, hi, _| (lo..=hi.min(MAX_PILE)).find(|&n| t.g(n) == need),
        )
    }
    /// Each pile is a component: the audit's shrinker keeps the true answer while it
    /// makes a failing input smaller.
    fn component_values(t: &Table, position: &[u64]) -> Option<Vec<u64>> {
        Some(position.iter().map(|&n| t.g(n)).collect())
    }
}

/// Rules in `check`'s notation: `-` (prime-take has no parameters).
impl fmt::Display for PrimeTake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("-")
    }
}

impl FromStr for PrimeTake {
    type Err = String;
    fn from_str(s: &str) -> Result<PrimeTake, String> {
        match s.trim() {
            "" | "-" => Ok(PrimeTake),
            other => Err(format!("prime-take has no rules parameters, not {other:?}")),
        }
    }
}

/// A position in `check`'s notation: pile sizes separated by spaces or commas.
impl FromStr for Piles {
    type Err = String;
    fn from_str(s: &str) -> Result<Piles, String> {
        s.split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .map(|w| w.parse().map_err(|_| format!("{w:?} is not a pile size")))
            .collect::<Result<Vec<u64>, String>>()
            .map(Piles)
    }
}

/// Every position of total size `size` (piles in ascending order, at most four of
/// them): the sweep's instances, smallest first.
impl Game for PrimeTake {
    fn instances(size: u32) -> Vec<(PrimeTake, Piles)> {
        fn parts(left: u64, min: u64, piles: &mut Vec<u64>, out: &mut Vec<(PrimeTake, Piles)>) {
            if left == 0 {
                out.push((PrimeTake, Piles(piles.clone())));
                return;
            }
            if piles.len() == 4 {
                return;
            }
            for n in min..=left {
                piles.push(n);
                parts(left - n, n, piles, out);
                piles.pop();
            }
        }
        let mut out = Vec::new();
        if size <= 40 {
            parts(u64::from(size), 1, &mut Vec::new(), &mut out);
        }
        out
    }
}

/// The fast solver's table, built once.
fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(Table::new)
}

/// prime-take as a verify subject: its instances and the fast solver's analysis.
#[derive(Default)]
struct PrimeTakeSubject;

impl Subject for PrimeTakeSubject {
    type Rules = PrimeTake;
    fn id(&self) -> &'static str {
        "prime-take"
    }
    fn instances(&self, size: u32) -> Vec<(PrimeTake, Piles)> {
        PrimeTake::instances(size)
    }
    fn fast(&self, _: &PrimeTake, pos: &Piles) -> Analysis<Take> {
        analysis(table(), &pos.0)
    }
}

/// The `prime-take_agree` fuzz input: one byte per pile (at most four piles).
impl AgreeTarget for PrimeTakeSubject {
    fn fuzz_instance(&self, _: &[u8], rest: &[u8]) -> Option<(PrimeTake, Piles)> {
        (rest.len() <= 4).then(|| {
            (
                PrimeTake,
                Piles(rest.iter().map(|&b| u64::from(b % 32)).collect()),
            )
        })
    }
}

impl BuiltIn for PrimeTakeSubject {
    const ID: &'static str = "prime-take";
    const SUMMARY: &'static str = "take a prime number of stones from one pile";
    const DECLARABLE: Option<&'static dyn declared::DeclarableGame> =
        Some(declared::Declared::<PrimeTake>::GAME);
}

fn main() {
    registry::register(Entry::game::<PrimeTakeSubject>()).expect("prime-take is a new id");
    std::process::exit(sgcheck::cli::main());
}

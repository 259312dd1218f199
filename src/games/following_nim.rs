//! Following Nim: Nim in which a *special* amount forces the opponent to answer in the
//! same pile; solved exactly by two tables over one pile (the special-only chain, then
//! the ordinary game that avoids special-winning sizes).
//!
//! Rules (game `following-nim`, whose reading is the definition; the oracle's
//! [`FollowingNim`]): piles of stones and a set S of special amounts. A move takes
//! `t >= 1` stones from one pile. After a special move (`t` in S) the next player is
//! *forced*: they must take from that same pile, and with that pile empty they have no
//! move and lose. A forced player's special move forces again; any ordinary move leaves
//! the next player free. A free player with only empty piles loses (normal play).
//! There is no public statement of TopCoder's FollowingNim; the rules above are the
//! reference, and the oracle plays them literally.
//!
//! # The two tables
//!
//! *Table 1, the special-only chain.* Play one pile with special moves only: the
//! subtraction game with set S. A size `x` is **hot** (special-winning) when some
//! special `s <= x` leaves a cold size, and **cold** otherwise (0 is cold). This is
//! who wins the forcing chain when nobody may step out of it.
//!
//! *Table 2, the ordinary game avoiding hot sizes.* For every size `x`,
//! `A(x) = { g(x - t) : 1 <= t <= x, t not in S, x - t cold }`, the values an ordinary
//! move of pile `x` can reach without landing on a hot size; for a cold `x`,
//! `g(x) = mex A(x)`. Hot sizes get no value. (With S = {1}, for instance, the odd
//! sizes are hot and `g(2k) = k`.)
//!
//! # Why it solves the game (proof sketch)
//!
//! Induction on the number of stones, four claims at once. Let `R` be the piles other
//! than the one in question and `G` the XOR of `g` over `R` when `R` is all cold.
//!
//! 1. *Forced at a hot pile `z`: win.* If `R` holds a hot pile, play a special move to a
//!    cold size; by (2) the opponent loses. If `R` is all cold, suppose every move
//!    failed. Then `G` is not in `A(z)`, else an ordinary move to a cold size of value
//!    `G` leaves a free all-cold position of XOR 0, lost by (4). Pick a special `s`
//!    with `z - s` cold; the opponent, forced there, wins, so by (4) `G` is in
//!    `A(z - s)`: an ordinary `t` takes `z - s` to a cold `w` with `g(w) = G`. Now
//!    `s + t` taken from `z` lands on the cold `w` of value `G`; were `s + t` ordinary,
//!    `G` would be in `A(z)`, so `s + t` is special, and by the same argument `G` is in
//!    `A(w)`. But `g(w) = G = mex A(w)` is not in `A(w)`: contradiction.
//! 2. *Forced at a cold pile `z` with a hot pile in `R`: lose.* A special move leaves
//!    the opponent forced at a hot size (a win for them by 1); an ordinary move leaves
//!    them free with a hot pile (a win by 3); at `z = 0` there is no move.
//! 3. *Free with a hot pile: win.* With two or more hot piles, a special move from one
//!    of them to a cold size is a loss for the opponent by 2. With exactly one, `y`,
//!    the moves in `y` are exactly those of a player forced at `y` and lead to the same
//!    positions, so the winning move of claim 1 wins here too.
//! 4. *Free, all piles cold: lose iff the XOR of `g` is 0. Forced at a cold `z`, the
//!    rest all cold of XOR `G`: win iff `G` is in `A(z)`.* A special move from a cold
//!    size lands on a hot one, forcing the opponent there (a win for them by 1); an
//!    ordinary move to a hot size frees the opponent with a hot pile (3). What is left
//!    are ordinary moves between cold sizes: a plain sum of games with Grundy values
//!    `g` (Sprague–Grundy). Forced at `z`, only pile `z` may move, so the player wins
//!    iff some ordinary move takes `z` to a cold size of value `G`.
//!
//! Claim 1 is where the naive two-table solution needs its correction: with exactly
//! one hot pile and a cold rest of value `G`, not every special move into a cold size
//! wins (the opponent escapes when `G` is in `A(z)`), and ordinary moves to a cold
//! size of value `G` win as well. And the special moves out of cold sizes, which one
//! might expect to enlarge the options behind `g`, never matter, by claim 1.
//!
//! # Winning moves
//!
//! A move wins iff the position it leads to is lost, and the claims decide that in
//! closed form. Taking `t` from pile `x` to `z = x - t` with the rest `R`:
//! - `t` special: the opponent is forced at `z`; lost iff `z` is cold and (`R` holds a
//!   hot pile or `G` is not in `A(z)`);
//! - `t` ordinary: the opponent is free; lost iff `z` is cold, `R` is all cold and
//!   `g(z) = G`.
//!
//! The fast side enumerates its own candidate moves (any amount from any pile, or from
//! the forced pile) and keeps those; with all piles cold and the player free the
//! position is a plain sum, analysed by [`analyze_sum`]. The verdict comes separately
//! from the claims, so an inconsistency between the two shows up in `verify`.
//!
//! Cost: the tables take O(P * (P + |S|)) time and O(P^2 / 64) words for piles up to
//! P (P = 100 at the contest limits); a position then costs one step per candidate move.

use crate::games::declared;
use crate::games::{analyze_sum, mex};
use crate::verify::{Subject, Tier1Report};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::following_nim::{FnPosition, FollowingNim};
use sgcheck_oracles::games::nim::Take;
use sgcheck_oracles::Analysis;
use sgcheck_oracles::SearchError;

/// A set of small non-negative integers, one bit each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn insert(&mut self, v: u64) {
        let (w, b) = ((v / 64) as usize, v % 64);
        if self.0.len() <= w {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << b;
    }

    fn contains(&self, v: u64) -> bool {
        let w = (v / 64) as usize;
        self.0.get(w).is_some_and(|&word| word >> (v % 64) & 1 == 1)
    }

    /// The smallest value not in the set.
    fn mex(&self) -> u64 {
        for (i, &word) in self.0.iter().enumerate() {
            if word != u64::MAX {
                return i as u64 * 64 + (!word).trailing_zeros() as u64;
            }
        }
        self.0.len() as u64 * 64
    }
}

/// The two tables of Following Nim for one set of special amounts, for pile sizes
/// `0..=max_pile`.
#[derive(Clone, Debug)]
pub struct Tables {
    /// `special[t]`: whether taking `t` stones is special, for `t <= max_pile`.
    special: Vec<bool>,
    /// Table 1: whether a size is hot (the special-only chain is won from it).
    hot: Vec<bool>,
    /// Table 2: `g` of each cold size (0 for hot sizes, where it is never read).
    value: Vec<u64>,
    /// `A(x)`: the values of the cold sizes an ordinary move from `x` reaches.
    escapes: Vec<Bits>,
}

impl Tables {
    /// Builds both tables for the special amounts `specials` (any order; amounts above
    /// `max_pile` can never be taken and are ignored) and piles up to `max_pile`.
    pub fn new(specials: &[u64], max_pile: u64) -> Tables {
        let len = usize::try_from(max_pile).expect("pile size fits in memory") + 1;
        let mut special = vec![false; len];
        for &s in specials {
            if s >= 1 && s < len as u64 {
                special[s as usize] = true;
            }
        }
        let amounts: Vec<usize> = (1..len).filter(|&t| special[t]).collect();
        let mut hot = vec![false; len];
        let mut value = vec![0u64; len];
        let mut escapes = Vec::with_capacity(len);
        for x in 0..len {
            hot[x] = amounts
                .iter()
                .take_while(|&&s| s <= x)
                .any(|&s| !hot[x - s]);
            let mut a = Bits::default();
            for t in 1..=x {
                if !special[t] && !hot[x - t] {
                    a.insert(value[x - t]);
                }
            }
            if !hot[x] {
                value[x] = a.mex();
            }
            escapes.push(a);
        }
        Tables {
            special,
            hot,
            value,
            escapes,
        }
    }

    /// The tables for the rules' special amounts and piles up to `max_pile`.
    pub fn for_rules(rules: &FollowingNim, max_pile: u64) -> Tables {
        Tables::new(rules.specials(), max_pile)
    }

    /// The largest pile size the tables cover.
    pub fn max_pile(&self) -> u64 {
        self.hot.len() as u64 - 1
    }

    /// Table 1: whether `n` is hot, i.e. the player to move wins the special-only chain
    /// from a pile of `n`.
    pub fn is_hot(&self, n: u64) -> bool {
        self.hot[n as usize]
    }

    /// Table 2: the Grundy value `g(n)` of a cold size in the ordinary game that avoids
    /// hot sizes; `None` for a hot size.
    pub fn value(&self, n: u64) -> Option<u64> {
        (!self.hot[n as usize]).then_some(self.value[n as usize])
    }

    /// Whether an ordinary move from `n` reaches a cold size of value `g`: `g` in
    /// `A(n)`. A player forced at a cold `n` against an all-cold rest of value `g`
    /// wins exactly then (claim 4).
    pub fn escapes_to(&self, n: u64, g: u64) -> bool {
        self.escapes[n as usize].contains(g)
    }

    /// Whether taking `t` stones is special.
    pub fn is_special(&self, t: u64) -> bool {
        self.special[t as usize]
    }

    /// Whether a move taking `amount` from a pile of `size`, the other piles summed up
    /// by `rest`, leaves the opponent a lost position (see the module doc).
    pub fn move_wins(&self, size: u64, amount: u64, rest: Rest) -> bool {
        let z = size - amount;
        if self.is_hot(z) {
            // Forced at a hot size (claim 1) or free with a hot pile (claim 3).
            return false;
        }
        if self.is_special(amount) {
            rest.hot || !self.escapes_to(z, rest.value)
        } else {
            !rest.hot && self.value[z as usize] == rest.value
        }
    }

    /// Appends every winning move of pile `pile` (of `size` stones), the other piles
    /// summed up by `rest`.
    fn pile_moves(&self, pile: usize, size: u64, rest: Rest, out: &mut Vec<Take>) {
        for amount in 1..=size {
            if self.move_wins(size, amount, rest) {
                out.push(Take { pile, amount });
            }
        }
    }

    /// The summary of the piles other than `skip`.
    fn rest(&self, piles: &[u64], skip: usize) -> Rest {
        let mut rest = Rest::default();
        for (i, &p) in piles.iter().enumerate() {
            if i == skip {
                continue;
            }
            if self.is_hot(p) {
                rest.hot = true;
            } else {
                rest.value ^= self.value[p as usize];
            }
        }
        rest
    }

    /// Closed-form verdict: whether the player to move wins (claims 1 to 4).
    pub fn first_wins(&self, pos: &FnPosition) -> bool {
        match pos.forced {
            // A forced index past the last pile leaves no move.
            Some(f) if f >= pos.piles.len() => false,
            Some(f) => {
                let z = pos.piles[f];
                let rest = self.rest(&pos.piles, f);
                self.is_hot(z) || (!rest.hot && self.escapes_to(z, rest.value))
            }
            None => {
                let rest = self.rest(&pos.piles, usize::MAX);
                rest.hot || rest.value != 0
            }
        }
    }

    /// Verdict and every winning move, in canonical order (pile, then amount).
    /// Panics if a pile exceeds [`Tables::max_pile`].
    pub fn analyze(&self, pos: &FnPosition) -> Analysis<Take> {
        let piles = &pos.piles;
        let win = self.first_wins(pos);
        let mut winning = Vec::new();
        match pos.forced {
            Some(f) if f >= piles.len() => {}
            Some(f) => self.pile_moves(f, piles[f], self.rest(piles, f), &mut winning),
            None if piles.iter().all(|&p| !self.is_hot(p)) => {
                // All cold and free: a plain sum of the values g (claim 4).
                let values: Vec<u64> = piles.iter().map(|&p| self.value[p as usize]).collect();
                return Analysis {
                    win,
                    ..analyze_sum(&values, |i, need, out| {
                        let rest = Rest {
                            hot: false,
                            value: need,
                        };
                        self.pile_moves(i, piles[i], rest, out)
                    })
                };
            }
            None => {
                // Some pile is hot. Only the hot piles have winning moves (claim 3),
                // but every pile is tried: the test is exact for any move.
                for (i, &p) in piles.iter().enumerate() {
                    self.pile_moves(i, p, self.rest(piles, i), &mut winning);
                }
            }
        }
        Analysis {
            win,
            winning,
            remoteness: None,
        }
    }
}

/// What matters of the piles other than the one being moved in: whether one of them
/// is hot, and the XOR of `g` over them (meaningful when none is hot).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rest {
    /// Some other pile is hot.
    pub hot: bool,
    /// XOR of `g` over the other (cold) piles.
    pub value: u64,
}

/// Verdict and every winning move of a Following Nim position (free or forced).
/// Builds the tables up to the largest pile, so it is meant for piles up to a few
/// thousand (the contest has 100); reuse [`Tables::analyze`] for many positions.
pub fn analyze(rules: &FollowingNim, pos: &FnPosition) -> Analysis<Take> {
    let max = pos.piles.iter().copied().max().unwrap_or(0);
    Tables::for_rules(rules, max).analyze(pos)
}

/// Table 1 a second way: Grundy values of the special-only subtraction game by mex, a
/// size being hot iff its value is non-zero. Independent of [`Tables`].
pub fn special_only_values(specials: &[u64], len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::with_capacity(len);
    for x in 0..len {
        let v = mex(specials
            .iter()
            .filter(|&&s| s >= 1 && s <= x as u64)
            .map(|&s| g[x - s as usize]));
        g.push(v);
    }
    g
}

/// A player forced at one pile, the other piles all cold with XOR `G`, solved by a
/// direct win/lose recursion over that one pile: `win[z][G]`. Independent of
/// [`Tables`] and of claim 1: the special chain is played out move by move (a special
/// move hands the opponent `win[z - s][G]`), and only the free positions an ordinary
/// move reaches are judged by the theory (claims 3 and 4: lost iff the new size is
/// cold and its value is `G`). The value of a cold size is recomputed here from the
/// definition of a Grundy value: a free cold pile `x` has the very moves of a player
/// forced at `x`, special ones included, so its value is the smallest `G` for which
/// `win[x][G]` fails (not the mex over ordinary moves of table 2; tier 1 checks that
/// the two agree, which is claim 1 in action).
///
/// Sizes `0..len`, rest values below `width`. Returns `win`, that value per size
/// (`None` for hot sizes, and for a cold size with no losing `G` below `width`, which
/// would make the comparison fail loudly), and the special-only chain per size (hot or
/// not) by explicit win/lose recursion.
pub fn forced_recursion(
    specials: &[u64],
    len: usize,
    width: usize,
) -> (Vec<Vec<bool>>, Vec<Option<u64>>, Vec<bool>) {
    let special: Vec<bool> = (0..len).map(|t| specials.contains(&(t as u64))).collect();
    // The special-only chain by explicit win/lose recursion.
    let mut hot = vec![false; len];
    for z in 0..len {
        hot[z] = (1..=z).any(|s| special[s] && !hot[z - s]);
    }
    let mut win: Vec<Vec<bool>> = Vec::with_capacity(len);
    let mut value: Vec<Option<u64>> = Vec::with_capacity(len);
    for z in 0..len {
        let mut row = vec![false; width];
        for (big_g, cell) in row.iter_mut().enumerate() {
            *cell = (1..=z).any(|t| {
                let w = z - t;
                if special[t] {
                    !win[w][big_g]
                } else {
                    // The opponent is free with pile w and the rest: lost iff all cold
                    // and the XOR is 0 (w hot is a win for them, claim 3).
                    !hot[w] && value[w] == Some(big_g as u64)
                }
            });
        }
        value.push(if hot[z] {
            None
        } else {
            row.iter().position(|&w| !w).map(|g| g as u64)
        });
        win.push(row);
    }
    (win, value, hot)
}

/// `verify`'s view of Following Nim.
#[derive(Default)]
pub struct FollowingNimSubject;

/// Special sets of tier 1: how many random ones (besides the fixed ones).
const TIER1_RANDOM_SETS: usize = 120;
/// Largest pile of tier 1: the contest limit.
const TIER1_MAX_PILE: usize = 100;
/// Rest values of tier 1: all XORs of values of piles up to 100 lie below 128.
const TIER1_WIDTH: usize = 128;
/// The smallest-first enumeration plays every special set within `1..=ENUM_MAX_SPECIAL`.
const ENUM_MAX_SPECIAL: u64 = 5;
/// Piles of the smallest-first enumeration.
const ENUM_MAX_PILES: usize = 3;

/// The special sets of tier 1: a few structured ones and random ones within 1..=100.
fn tier1_sets() -> Vec<Vec<u64>> {
    use rand::SeedableRng;
    let mut sets: Vec<Vec<u64>> = vec![
        vec![],
        vec![1],
        vec![2],
        vec![7],
        vec![100],
        vec![1, 2],
        vec![2, 3],
        vec![1, 3, 4],
        (1..=100).collect(),
        (1..=100).filter(|x| x % 2 == 0).collect(),
        vec![1, 2, 3, 5, 8, 13, 21, 34, 55, 89],
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(0xF011_0111);
    for i in 0..TIER1_RANDOM_SETS {
        let top = [6, 12, 30, 100][i % 4];
        let m = rng.gen_range(1..=top.min(12));
        let mut s: Vec<u64> = (0..m).map(|_| rng.gen_range(1..=top)).collect();
        s.sort_unstable();
        s.dedup();
        sets.push(s);
    }
    sets
}

fn rules(specials: &[u64]) -> FollowingNim {
    FollowingNim::new(specials.to_vec()).expect("special amounts are positive")
}

/// Tier 1 with the fast side given (the closed form the game's solver uses, or a
/// planted wrong one in the tests): the same comparisons, the same tables.
fn tier1_with(cold_value: impl Fn(&Tables, u64) -> Option<u64>) -> Tier1Report {
    let mut report = Tier1Report::default();
    let len = TIER1_MAX_PILE + 1;
    for set in tier1_sets() {
        let t = Tables::new(&set, TIER1_MAX_PILE as u64);
        let sg = special_only_values(&set, len);
        let (win, value, hot) = forced_recursion(&set, len, TIER1_WIDTH);
        let name = rules(&set).to_string();
        for z in 0..len {
            let n = z as u64;
            report.compare(
                format_args!("S={name} pile {z}: hot (special-only mex)"),
                t.is_hot(n),
                sg[z] != 0,
            );
            report.compare(
                format_args!("S={name} pile {z}: hot (win/lose recursion)"),
                t.is_hot(n),
                hot[z],
            );
            report.compare(
                format_args!("S={name} pile {z}: value (forced recursion)"),
                cold_value(&t, n),
                value[z],
            );
            for (g, &w) in win[z].iter().enumerate() {
                let closed = t.is_hot(n) || t.escapes_to(n, g as u64);
                report.compare(
                    format_args!("S={name} forced at {z}, rest value {g}"),
                    closed,
                    w,
                );
            }
        }
    }
    report
}

impl Subject for FollowingNimSubject {
    type Rules = FollowingNim;

    fn id(&self) -> &'static str {
        "following-nim"
    }

    /// `sgcheck check` reproduces a disagreement of sgcheck's own solver.
    fn reproduce(
        &self,
        rules: &Self::Rules,
        pos: &<Self::Rules as sgcheck_oracles::Rules>::Position,
    ) -> String {
        crate::verify::check_command(self.id(), &rules.to_string(), &pos.to_string())
    }

    /// For each special set, piles up to 100: table 1 against the special-only
    /// Grundy values by mex; table 2 and the forced-player verdict of claims 1 and 4
    /// against [`forced_recursion`], for every size and every rest value below 128.
    fn tier1(&self) -> Tier1Report {
        tier1_with(|t: &Tables, n| t.value(n))
    }

    /// Every position of 1 to 3 piles summing to `size`, free and forced at each pile,
    /// for every special set within 1..=5 (the empty set, plain Nim, included).
    fn instances(&self, size: u32) -> Vec<(FollowingNim, FnPosition)> {
        let piles = crate::verify::compositions(u64::from(size), ENUM_MAX_PILES);
        let mut out = Vec::new();
        for mask in 0u32..1 << ENUM_MAX_SPECIAL {
            let set: Vec<u64> = (1..=ENUM_MAX_SPECIAL)
                .filter(|&s| mask >> (s - 1) & 1 == 1)
                .collect();
            let r = rules(&set);
            for p in &piles {
                for forced in std::iter::once(None).chain((0..p.len()).map(Some)) {
                    out.push((
                        r.clone(),
                        FnPosition {
                            piles: p.clone(),
                            forced,
                        },
                    ));
                }
            }
        }
        out
    }

    fn random_instance(&self, rng: &mut ChaCha8Rng) -> (FollowingNim, FnPosition) {
        let kind = rng.gen_range(0..10);
        // The special set.
        let set: Vec<u64> = match kind {
            0 => vec![],
            1 => vec![rng.gen_range(1..=3)],
            2 => (1..=rng.gen_range(1..=12)).collect(),
            _ => {
                let m = rng.gen_range(1..=5);
                (0..m).map(|_| rng.gen_range(1..=14)).collect()
            }
        };
        let r = rules(&set);
        let n = rng.gen_range(1..=5usize);
        let top = if n >= 5 { 9 } else { 13 };
        let t = Tables::new(&set, top);
        let sizes: Vec<u64> = (0..=top).collect();
        let hot: Vec<u64> = sizes.iter().copied().filter(|&x| t.is_hot(x)).collect();
        let cold: Vec<u64> = sizes.iter().copied().filter(|&x| !t.is_hot(x)).collect();
        let mut piles: Vec<u64> = match rng.gen_range(0..6) {
            // All cold: the Sprague–Grundy part, often with the last pile chosen to
            // make the XOR zero when such a cold size exists.
            0 | 1 => {
                let mut p: Vec<u64> = (0..n).map(|_| *cold.choose(rng).unwrap()).collect();
                let x = p[..n - 1].iter().fold(0, |a, &q| a ^ t.value[q as usize]);
                if let Some(&last) = cold
                    .iter()
                    .filter(|&&c| t.value[c as usize] == x)
                    .collect::<Vec<_>>()
                    .choose(rng)
                {
                    p[n - 1] = *last;
                }
                p
            }
            // Exactly one hot pile among cold ones (the corrected case of claim 1).
            2 if !hot.is_empty() => {
                let mut p: Vec<u64> = (0..n).map(|_| *cold.choose(rng).unwrap()).collect();
                p[rng.gen_range(0..n)] = *hot.choose(rng).unwrap();
                p
            }
            // Piles equal to special amounts, or one more.
            3 if !set.is_empty() => (0..n)
                .map(|_| (set.choose(rng).unwrap() + rng.gen_range(0..=1)).min(top))
                .collect(),
            _ => (0..n).map(|_| rng.gen_range(0..=top)).collect(),
        };
        // Some empty piles, the forced-on-empty case among them.
        if rng.gen_bool(0.1) {
            let i = rng.gen_range(0..n);
            piles[i] = 0;
        }
        let forced = if rng.gen_bool(0.5) {
            Some(rng.gen_range(0..n))
        } else {
            None
        };
        (r, FnPosition { piles, forced })
    }

    fn fast(&self, rules: &FollowingNim, pos: &FnPosition) -> Analysis<Take> {
        analyze(rules, pos)
    }
}

// ---------------------------------------------------------------------------------
// How declarations use Following Nim: Nim where special amounts force the next move
// into the same pile. The position is the piles, no move forced yet.

/// Largest pile the Following Nim tables are built for (they cost O(P^2)).
pub const FOLLOWING_NIM_MAX_PILE: u64 = 10_000;

fn declared_free(position: &[u64]) -> FnPosition {
    FnPosition {
        piles: position.to_vec(),
        forced: None,
    }
}

fn declared_tables(specials: &[u64], position: &[u64]) -> Tables {
    Tables::new(specials, position.iter().copied().max().unwrap_or(0))
}

impl declared::Declare for FollowingNimSubject {
    type Oracle = FollowingNim;
    type Fast = Vec<u64>;
    const ID: &'static str = "following-nim";
    const PARAMETERS: &'static [declared::ParamSpec] = &[declared::ParamSpec {
        name: "specials",
        kind: declared::ParamKind::List,
        about: "the special amounts (each at least 1)",
    }];
    const POSITION: &'static str = "pile sizes (no move forced yet)";
    const MOVE_FIELDS: &'static [&'static str] = &["pile", "amount"];
    const REACH: declared::Reach = declared::Reach {
        max_value: FOLLOWING_NIM_MAX_PILE,
        max_len: u64::MAX,
        max_moves_work: u64::MAX,
    };

    fn build(params: &[declared::ParamValue<'_>]) -> Result<Vec<u64>, String> {
        match params.first() {
            Some(declared::ParamValue::List(s)) => {
                if s.contains(&0) {
                    return Err("special amounts are at least 1".into());
                }
                Ok(s.to_vec())
            }
            _ => Err("parameter specials must be a list".into()),
        }
    }
    fn check(_: &Vec<u64>, position: &[u64]) -> Result<(), String> {
        match position.iter().find(|&&v| v > FOLLOWING_NIM_MAX_PILE) {
            Some(v) => Err(format!("pile {v} is above {FOLLOWING_NIM_MAX_PILE}")),
            None => Ok(()),
        }
    }
    fn first_wins(specials: &Vec<u64>, position: &[u64]) -> Result<bool, String> {
        Ok(declared_tables(specials, position).first_wins(&declared_free(position)))
    }
    fn analyze(specials: &Vec<u64>, position: &[u64]) -> Result<Analysis<Take>, String> {
        Ok(declared_tables(specials, position).analyze(&declared_free(position)))
    }
    fn move_fields(t: &Take, _: &[u64]) -> [u64; 4] {
        [t.pile as u64, t.amount, 0, 0]
    }
    fn oracle(
        specials: &Vec<u64>,
        position: &[u64],
        budget: usize,
    ) -> Result<(FollowingNim, FnPosition), SearchError> {
        let rules =
            FollowingNim::new(specials.clone()).map_err(|_| SearchError::Budget { budget })?;
        Ok((rules, declared_free(position)))
    }
    /// Cold piles (the special-only chain is lost from them) whose values XOR to 0,
    /// or failing that pairs of equal cold piles (0 is always cold).
    fn make_losing(
        specials: &Vec<u64>,
        p: &mut [u64],
        b: &[(u64, u64)],
        rng: &mut ChaCha8Rng,
    ) -> bool {
        let n = p.len();
        if n == 0 {
            return true;
        }
        let (lo, hi) = (
            b.iter().map(|x| x.0).max().unwrap_or(0),
            b.iter().map(|x| x.1).min().unwrap_or(0),
        );
        if lo > 0 || hi > FOLLOWING_NIM_MAX_PILE {
            return false;
        }
        let t = Tables::new(specials, hi);
        let cold: Vec<u64> = (0..=hi).filter(|&x| !t.is_hot(x)).collect();
        for v in p.iter_mut() {
            *v = cold[rng.gen_range(0..cold.len())];
        }
        let value = |x: u64| t.value(x).unwrap_or(0);
        let need = p[..n - 1].iter().fold(0, |a, &x| a ^ value(x));
        let fits: Vec<u64> = cold.iter().copied().filter(|&x| value(x) == need).collect();
        if fits.is_empty() {
            for i in (1..n).step_by(2) {
                p[i] = p[i - 1];
            }
            if n % 2 == 1 {
                p[n - 1] = 0;
            }
        } else {
            p[n - 1] = fits[rng.gen_range(0..fits.len())];
        }
        true
    }
}

// ---------------------------------------------------------------------------------
// The `following_nim_agree` fuzz target.

/// `following_nim_agree`: the specials as a bit mask of 1..=8, the forced pile (0 for
/// none, k for pile k-1), then up to 3 piles of up to 8.
impl crate::fuzzing::AgreeTarget for FollowingNimSubject {
    const FIELDS: usize = 2;
    fn fuzz_instance(
        &self,
        fields: &[u8],
        rest: &[u8],
    ) -> Option<(
        FollowingNim,
        <FollowingNim as sgcheck_oracles::Rules>::Position,
    )> {
        let rules = FollowingNim::new(crate::fuzzing::amounts(fields[0])).ok()?;
        if fields[0] == 0 {
            return None;
        }
        let piles = crate::fuzzing::small_piles(rest, 3, 8)?;
        let forced = match fields[1] {
            0 => None,
            k if (k as usize) <= piles.len() => Some(k as usize - 1),
            _ => return None,
        };
        Some((rules, FnPosition { piles, forced }))
    }
}

// ---------------------------------------------------------------------------------
// Its line in the registry.

impl crate::games::BuiltIn for FollowingNimSubject {
    const ID: &'static str = "following-nim";
    const SUMMARY: &'static str =
        "piles; Nim, but taking a special amount forces the next player to take from \
         that same pile (forced on an empty pile = lose); normal play. Rules: the \
         special amounts, e.g. 1,7";
    const DECLARABLE: Option<&'static dyn declared::DeclarableGame> =
        Some(declared::Declared::<Self>::GAME);
}

// ---------------------------------------------------------------------------------
// Checking users' own solvers of it ([`crate::Game`]).

impl crate::Game for FollowingNim {
    from_subject!(FollowingNimSubject);
    fn shrink(&self, pos: &FnPosition) -> Vec<(FollowingNim, FnPosition)> {
        let FnPosition { piles, forced } = pos;
        let with = |p: Vec<u64>, f: Option<usize>| {
            (
                self.clone(),
                FnPosition {
                    piles: p,
                    forced: f,
                },
            )
        };
        let mut out = Vec::new();
        if forced.is_some() {
            out.push(with(piles.clone(), None));
        }
        // Drop a pile that is not the forced one, renumbering the forced index.
        for i in 0..piles.len() {
            if Some(i) != *forced {
                let mut p = piles.clone();
                p.remove(i);
                out.push(with(p, forced.map(|f| if f > i { f - 1 } else { f })));
            }
        }
        for s in crate::shrink::set(self.specials()) {
            if let Ok(rules) = FollowingNim::new(s) {
                out.push((rules, pos.clone()));
            }
        }
        // Lower one pile (same count, so the forced index stays valid).
        for p in crate::shrink::list(piles, piles.len(), 0) {
            out.push(with(p, *forced));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::PlantedTier1;
    #[test]
    fn planted_tier1_bug_reaches_the_report() {
        // A wrong value at pile 5.
        let planted = || tier1_with(|t, n| if n == 5 { Some(99) } else { t.value(n) });
        PlantedTier1 {
            subject: &FollowingNimSubject,
            tier1: &planted,
        }
        .assert_caught("pile 5: value");
    }

    use crate::verify::{FastFn, Planted};
    use rand::SeedableRng;
    use sgcheck_oracles::Solver;
    use std::time::Duration;

    fn pos(s: &str) -> FnPosition {
        s.parse().unwrap()
    }

    fn take(pile: usize, amount: u64) -> Take {
        Take { pile, amount }
    }

    #[test]
    fn spec_samples_followingnim() {
        // followingnim statement sample: piles `7`, specials `7` => 1 winning move
        // (taking all 7 is special and leaves the forced opponent an empty pile).
        let a = analyze(&rules(&[7]), &pos("7"));
        assert!(a.win);
        assert_eq!(a.winning, vec![take(0, 7)]);
        // Piles `1 1`, specials `1` => 2: either move forces the opponent to an empty
        // pile.
        let a = analyze(&rules(&[1]), &pos("1,1"));
        assert_eq!(a.winning, vec![take(0, 1), take(1, 1)]);
    }

    #[test]
    fn tables_for_special_one() {
        // Worked by hand for S = {1}. Table 1 is the subtraction game {1}: odd sizes
        // are hot. Table 2 over the even sizes: an ordinary move takes 2 or more, so
        // 2k reaches 0, 2, ..., 2k-2 (and the odd sizes, which are avoided); by
        // induction g(2k) = mex{0..k-1} = k.
        let t = Tables::new(&[1], 40);
        for n in 0..=40u64 {
            assert_eq!(t.is_hot(n), n % 2 == 1, "{n}");
            if n % 2 == 0 {
                assert_eq!(t.value(n), Some(n / 2), "{n}");
            } else {
                assert_eq!(t.value(n), None, "{n}");
            }
        }
        // No specials: no size is hot and table 2 is plain Nim (g(n) = n, Bouton).
        let t = Tables::new(&[], 50);
        assert!((0..=50).all(|n| !t.is_hot(n) && t.value(n) == Some(n)));
    }

    #[test]
    fn forced_positions_worked_by_hand() {
        // The oracle's hand-worked cases (oracles/src/games/following_nim.rs), S = {1}:
        // `1,5@0` wins by taking the 1 (the opponent is forced on an empty pile);
        // `2,5@0` is lost.
        let r = rules(&[1]);
        assert_eq!(analyze(&r, &pos("1,5@0")).winning, vec![take(0, 1)]);
        assert!(!analyze(&r, &pos("2,5@0")).win);
        // The rules: forced on an empty pile, no move, lose, whatever else is left.
        for s in [&[][..], &[1], &[3]] {
            let a = analyze(&rules(s), &pos("0,3@0"));
            assert!(!a.win && a.winning.is_empty());
        }
        // A forced index past the last pile (hand-built; the notation rejects it).
        let p = FnPosition {
            piles: vec![3],
            forced: Some(1),
        };
        assert!(!analyze(&r, &p).win);
        // No piles at all, free: no move.
        assert!(!analyze(&r, &pos("-")).win);
    }

    #[test]
    fn exactly_one_hot_pile_is_the_corrected_case() {
        // Worked by hand, S = {1}, position `3`: 3 is hot, the rest is empty (G = 0).
        // 0:1 is special and lands on the cold 2, but A(2) = {g(0)} holds 0: the
        // forced opponent takes both stones (an ordinary move) and wins. 0:2 leaves the
        // hot 1 to a free opponent. 0:3 empties the board: the only winning move. The
        // naive "special moves into cold sizes" would answer 0:1 instead.
        let r = rules(&[1]);
        assert_eq!(analyze(&r, &pos("3")).winning, vec![take(0, 3)]);
        // S = {2}: table 1 is the subtraction game {2}, hot sizes 2, 3 mod 4. Table 2:
        // g(0) = 0, g(1) = 1 (1 -> 0), g(4) = mex{g(1), g(0)} = 2 (4 -> 3 is hot, 4 -> 2
        // special), g(5) = mex{g(4), g(1), g(0)} = 3.
        let t = Tables::new(&[2], 7);
        let hot: Vec<bool> = (0..=7).map(|n| t.is_hot(n)).collect();
        assert_eq!(hot, [false, false, true, true, false, false, true, true]);
        let values: Vec<Option<u64>> = [0, 1, 4, 5].iter().map(|&n| t.value(n)).collect();
        assert_eq!(values, [Some(0), Some(1), Some(2), Some(3)]);
        assert!(t.escapes_to(4, 1) && t.escapes_to(4, 0) && !t.escapes_to(4, 2));
        // `3,1` with S = {2}: the hot 3 against a rest worth 1. 3 -> 1 by the special
        // 2 forces the opponent at 1 with A(1) = {0}, no escape to value 1: a win.
        // 3 -> 2 hands over a hot pile; 3 -> 0 leaves value 0, not 1; moving the 1
        // leaves the hot 3 to the opponent. One winning move, 0:2.
        let r = rules(&[2]);
        assert_eq!(analyze(&r, &pos("3,1")).winning, vec![take(0, 2)]);
        // And the oracle agrees on these and a few more of the kind.
        let mut solver = Solver::new(r.clone());
        for s in ["3,1", "2,4", "3,4", "2,1,4", "6,5@0", "7,1@0", "3,5,4@1"] {
            let p = pos(s);
            let o = solver.analyze(&p).unwrap();
            let f = analyze(&r, &p);
            assert_eq!((f.win, &f.winning), (o.win, &o.winning), "{s}");
        }
        let o = Solver::new(rules(&[1])).analyze(&pos("3")).unwrap();
        assert_eq!(o.winning, vec![take(0, 3)]);
    }

    #[test]
    fn verdict_and_moves_are_consistent() {
        // The closed-form verdict (claims 1-4) and the enumerated winning moves are
        // computed separately; a win must have a winning move and a loss none, on
        // every kind of position up to the contest's pile size 100.
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for set in tier1_sets().into_iter().take(40) {
            let t = Tables::new(&set, 100);
            for _ in 0..200 {
                let n = rng.gen_range(1..=6);
                let piles: Vec<u64> = (0..n).map(|_| rng.gen_range(0..=100)).collect();
                let forced = rng.gen_bool(0.5).then(|| rng.gen_range(0..n));
                let p = FnPosition { piles, forced };
                let a = t.analyze(&p);
                assert_eq!(a.win, !a.winning.is_empty(), "S={set:?} {p}");
            }
        }
    }

    #[test]
    fn agrees_with_oracle_on_small_positions() {
        // Tier 2 in miniature: two piles <= 7 and a third in {0, 2, 5}, free and
        // forced at each pile, for a few special sets.
        for set in [&[1][..], &[2], &[1, 3], &[2, 3], &[1, 2, 4], &[3, 5]] {
            let r = rules(set);
            let mut solver = Solver::verdict_only(r.clone());
            for a in 0..=7 {
                for b in 0..=7 {
                    for c in [0, 2, 5] {
                        for forced in [None, Some(0), Some(1), Some(2)] {
                            let p = FnPosition {
                                piles: vec![a, b, c],
                                forced,
                            };
                            let o = solver.analyze(&p).unwrap();
                            let f = analyze(&r, &p);
                            assert_eq!((f.win, f.winning), (o.win, o.winning), "{set:?} {p}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn tier1_agrees() {
        let report = FollowingNimSubject.tier1();
        assert_eq!(report.disagreements, 0, "{:?}", report.first);
        // Over 100 special sets, every size 0..=100 and every rest value below 128.
        assert!(report.checked > 100 * 101 * 128, "{}", report.checked);
    }

    #[test]
    fn bits() {
        let mut b = Bits::default();
        assert_eq!(b.mex(), 0);
        for v in 0..64 {
            b.insert(v);
        }
        assert_eq!(b.mex(), 64);
        b.insert(65);
        assert_eq!(b.mex(), 64);
        assert!(b.contains(65) && !b.contains(64) && !b.contains(1000));
    }

    /// Sweeps a planted bug briefly; returns the first disagreement's rules,
    /// position and the sum of its piles.
    fn planted_finds(bug: FastFn<FollowingNim>) -> (String, String, u64) {
        let d = Planted {
            subject: &FollowingNimSubject,
            fast: bug,
        }
        .first_disagreement(Duration::from_secs(2))
        .expect("planted bug not found");
        let p: FnPosition = d.position.parse().unwrap();
        (d.rules, d.position, p.piles.iter().sum())
    }

    /// Winning moves by a per-move test `wins(tables, size, amount, rest)`, over the
    /// piles a position allows; the verdict is "some move wins", as a contest program
    /// counting winning moves would have it.
    fn by_move_test(
        rules: &FollowingNim,
        pos: &FnPosition,
        wins: fn(&Tables, u64, u64, Rest) -> bool,
    ) -> Analysis<Take> {
        let t = Tables::for_rules(rules, pos.piles.iter().copied().max().unwrap_or(0));
        let mut winning = Vec::new();
        for (i, &p) in pos.piles.iter().enumerate() {
            if pos.forced.is_some_and(|f| f != i) {
                continue;
            }
            let rest = t.rest(&pos.piles, i);
            for amount in 1..=p {
                if wins(&t, p, amount, rest) {
                    winning.push(take(i, amount));
                }
            }
        }
        Analysis {
            win: !winning.is_empty(),
            winning,
            remoteness: None,
        }
    }

    /// A bug class of real solutions: a dangling `else`. Written in C as
    ///
    /// ```text
    /// if (special[t])
    ///     if (!hot[z]) win = rest_hot || !escape[z][G];
    /// else
    ///     win = !hot[z] && !rest_hot && g[z] == G;
    /// ```
    ///
    /// the `else` belongs to the inner `if`, not to `if (special[t])` as the
    /// indentation says: the ordinary-move rule only ever runs for special moves into
    /// hot sizes, and ordinary moves never win.
    fn dangling_else(t: &Tables, size: u64, amount: u64, rest: Rest) -> bool {
        let z = size - amount;
        let mut win = false;
        if t.is_special(amount) {
            if !t.is_hot(z) {
                win = rest.hot || !t.escapes_to(z, rest.value);
            } else {
                win = !t.is_hot(z) && !rest.hot && t.value[z as usize] == rest.value;
            }
        }
        win
    }

    #[test]
    fn planted_dangling_else_is_caught_small() {
        let (r, p, total) = planted_finds(|r, p| by_move_test(r, p, dangling_else));
        // Plain Nim already fails: one stone, taken by an ordinary move (found as
        // rules `-`, position `1`).
        assert!(total <= 1, "{r} {p}");
    }

    /// The same `else` attached the other way round: special moves are judged by the
    /// ordinary rule (their forcing applied to the wrong branch).
    fn forcing_on_wrong_branch(t: &Tables, size: u64, amount: u64, rest: Rest) -> bool {
        let z = size - amount;
        !t.is_hot(z) && !rest.hot && t.value[z as usize] == rest.value
    }

    #[test]
    fn planted_forcing_on_wrong_branch_is_caught_small() {
        let (r, p, total) = planted_finds(|r, p| by_move_test(r, p, forcing_on_wrong_branch));
        // S = {1}, `1`: taking the stone is special, but the ordinary rule happens to
        // give the same answer (the board is empty either way). `1,1` is where it first
        // differs: the special move leaves the opponent forced on an empty pile, while
        // the ordinary rule sees a hot pile left over and rejects it.
        assert!(total <= 2, "{r} {p}");
    }

    #[test]
    fn planted_ignoring_the_forced_pile_is_caught_small() {
        // Answers every position as if the player to move were free.
        let (r, p, total) = planted_finds(|r, p| {
            analyze(
                r,
                &FnPosition {
                    piles: p.piles.clone(),
                    forced: None,
                },
            )
        });
        // `0,1@0`: forced on an empty pile is lost; free, taking the 1 wins.
        assert!(total <= 1, "{r} {p}");
        assert!(p.contains('@'), "{r} {p}");
    }

    #[test]
    fn planted_uncorrected_two_tables_is_caught() {
        // The naive reading of the two tables: with a hot pile, the winning moves are
        // the special moves from hot piles into cold sizes; otherwise Sprague–Grundy.
        // Wrong with exactly one hot pile (claim 1 and the module doc).
        let (r, p, total) = planted_finds(|r, p| {
            let a = analyze(r, p);
            if p.forced.is_some() {
                return a;
            }
            let t = Tables::for_rules(r, p.piles.iter().copied().max().unwrap_or(0));
            if !p.piles.iter().any(|&x| t.is_hot(x)) {
                return a;
            }
            let mut winning = Vec::new();
            for (i, &x) in p.piles.iter().enumerate() {
                if t.is_hot(x) {
                    for amount in 1..=x {
                        if t.is_special(amount) && !t.is_hot(x - amount) {
                            winning.push(take(i, amount));
                        }
                    }
                }
            }
            Analysis {
                win: true,
                winning,
                remoteness: None,
            }
        });
        // Found as S = {1}, `3` (see exactly_one_hot_pile_is_the_corrected_case).
        assert!(total <= 3, "{r} {p}");
    }
}

//! Misère Nim: whoever takes the last stone loses. The player to move wins iff every
//! pile is at most 1 and the number of 1-piles is even, or some pile is at least 2 and
//! the XOR of the piles is non-zero (Bouton, 1901).
//!
//! Rules (game `misere-nim`; contest P4279 / BZOJ 1022; the oracle's [`MisereNim`]):
//! Nim, but the player who takes the last stone loses, so a player with no move (all
//! piles empty) has won.
//!
//! **Why the closed form holds.** Call a position *small* when every pile is <= 1.
//! - Small positions: each move empties one 1-pile. With k ones the players alternate
//!   until none is left, and whoever takes the last one loses: the mover loses iff k is
//!   odd (with k = 0 the mover has no move and has won).
//! - Positions with exactly one pile >= 2: the mover wins, by reducing that pile to 0
//!   or 1 so that an odd number of 1-piles remains (a small position lost for the
//!   opponent). Their XOR is non-zero (the big pile has a bit above bit 0 that no other
//!   pile has).
//! - Positions with two or more piles >= 2: by induction on the stones, lost iff XOR =
//!   0. From XOR = 0 every move makes XOR != 0, and leaves at least one pile >= 2 (two
//!   piles >= 2 with XOR 0 elsewhere cannot become one big pile with XOR 0: one big
//!   pile and small others have XOR != 0), so the opponent wins by induction or by the
//!   case above. From XOR != 0 the Nim move to XOR = 0 exists; it leaves at least two
//!   piles >= 2 (one big pile alone cannot have XOR 0 with small ones), lost for the
//!   opponent by induction.
//!
//! **Winning moves.** Take pile i of size p to a target t < p, and let the other piles
//! have XOR x, with `big` saying whether one of them is >= 2 and k the number of them
//! equal to 1. The position left is lost for the opponent iff
//! - `big`: a pile >= 2 remains whatever t is, so it is lost iff its XOR is 0: t = x,
//!   exactly one target;
//! - not `big`: a target t >= 2 leaves one big pile, which the opponent wins; t in
//!   {0, 1} leaves a small position, lost iff its number of 1-piles, k + t, is odd:
//!   t = 0 when k is odd, t = 1 when k is even; again exactly one target.
//!
//! So every pile has at most one winning amount, p - t, tested in O(1): the whole
//! analysis is O(n). The amount is not always Nim's `p - (p ^ X)`: with one big pile it
//! is the one leaving 0 or 1 stones so that an odd number of 1-piles remains (5,1: take
//! all 5, where Nim would take 4 and leave 1,1; 5,1,1: take 4, where Nim would take 5),
//! and any amount from 1 to p can be that one. Tier 2 checks every winning
//! move against the oracle; tier 1 checks the verdict and the winning targets against
//! a direct recursion over sorted multisets of small piles.

use crate::games::declared;
use crate::verify::{Subject, Tier1Report};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::misere_nim::MisereNim;
use sgcheck_oracles::games::nim::{Piles, Take};
use sgcheck_oracles::Analysis;
use sgcheck_oracles::SearchError;
use std::collections::HashMap;

/// Closed form: whether the player to move wins.
pub fn first_wins(piles: &[u64]) -> bool {
    let mut x = 0;
    let mut ones = 0usize;
    let mut big = false;
    for &p in piles {
        x ^= p;
        ones += usize::from(p == 1);
        big |= p >= 2;
    }
    if big {
        x != 0
    } else {
        ones.is_multiple_of(2)
    }
}

/// Verdict and every winning move, in canonical order: one candidate target per pile
/// (see the module documentation).
pub fn analyze(pos: &Piles) -> Analysis<Take> {
    let piles = &pos.0;
    let mut x = 0;
    let mut ones = 0usize;
    let mut bigs = 0usize;
    for &p in piles {
        x ^= p;
        ones += usize::from(p == 1);
        bigs += usize::from(p >= 2);
    }
    let win = if bigs > 0 {
        x != 0
    } else {
        ones.is_multiple_of(2)
    };
    let mut winning = Vec::new();
    if win {
        for (pile, &p) in piles.iter().enumerate() {
            let others_big = bigs - usize::from(p >= 2) > 0;
            let target = if others_big {
                x ^ p
            } else {
                let others_ones = ones - usize::from(p == 1);
                u64::from(others_ones.is_multiple_of(2))
            };
            if target < p {
                winning.push(Take {
                    pile,
                    amount: p - target,
                });
            }
        }
    }
    Analysis {
        win,
        winning,
        remoteness: None,
    }
}

/// Direct recursion over sorted multisets of piles (no theory): whether the player to
/// move wins, remembered in `memo`. A position without stones is won (the previous
/// player took the last one).
pub fn recursive_win(piles: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    let mut key = piles.to_vec();
    key.sort_unstable();
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let mut has_move = false;
    let mut win = false;
    'outer: for i in 0..key.len() {
        if i > 0 && key[i] == key[i - 1] {
            continue;
        }
        for t in 0..key[i] {
            has_move = true;
            let mut next = key.clone();
            next[i] = t;
            if !recursive_win(&next, memo) {
                win = true;
                break 'outer;
            }
        }
    }
    let w = win || !has_move;
    memo.insert(key, w);
    w
}

/// Every sorted multiset of `len` piles with values in `0..=hi`.
fn multisets(len: usize, hi: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|v: Vec<u64>| {
                let lo = v.last().copied().unwrap_or(0);
                (lo..=hi).map(move |x| {
                    let mut w = v.clone();
                    w.push(x);
                    w
                })
            })
            .collect();
    }
    out
}

/// `verify`'s view of misère Nim.
#[derive(Default)]
pub struct MisereNimSubject;

/// Tier 1 with the fast side given (the closed form the game's solver uses, or a
/// planted wrong one in the tests): the same comparisons, the same tables.
fn tier1_with(analyze: impl Fn(&Piles) -> Analysis<Take>) -> Tier1Report {
    let mut report = Tier1Report::default();
    let mut memo = HashMap::new();
    for len in 1..=5 {
        for piles in multisets(len, 12) {
            let want = recursive_win(&piles, &mut memo);
            let a = analyze(&Piles(piles.clone()));
            report.compare(format!("piles {piles:?}"), a.win, want);
            let mut targets = Vec::new();
            for (i, &p) in piles.iter().enumerate() {
                for t in 0..p {
                    let mut next = piles.clone();
                    next[i] = t;
                    if !recursive_win(&next, &mut memo) {
                        targets.push((i, p - t));
                    }
                }
            }
            let fast: Vec<(usize, u64)> = a.winning.iter().map(|m| (m.pile, m.amount)).collect();
            report.compare(format!("winning moves of {piles:?}"), fast, targets);
        }
    }
    report
}

impl Subject for MisereNimSubject {
    type Rules = MisereNim;

    fn id(&self) -> &'static str {
        "misere-nim"
    }

    fn reproduce(&self, rules: &MisereNim, pos: &Piles) -> String {
        crate::verify::check_command(self.id(), &rules.to_string(), &pos.to_string())
    }

    /// The closed form (verdict, and which targets of each pile win) against the direct
    /// recursion, on every sorted multiset of 1 to 5 piles of 0..=12.
    fn tier1(&self) -> Tier1Report {
        tier1_with(analyze)
    }

    fn instances(&self, size: u32) -> Vec<(MisereNim, Piles)> {
        // Every position whose piles sum to `size`, with up to 4 piles, empty piles
        // included (the contest has them, and they matter for "all piles are 1").
        crate::verify::compositions(size as u64, 4)
            .into_iter()
            .map(|p| (MisereNim, Piles(p)))
            .collect()
    }

    /// Half the time piles of 0..=2 only (the small positions and the single big pile
    /// are the special cases), otherwise 0..=9.
    fn random_instance(&self, rng: &mut ChaCha8Rng) -> (MisereNim, Piles) {
        let n = rng.gen_range(1..=5);
        let hi = if rng.gen_bool(0.5) { 2 } else { 9 };
        let piles = (0..n).map(|_| rng.gen_range(0..=hi)).collect();
        (MisereNim, Piles(piles))
    }

    fn fast(&self, _rules: &MisereNim, pos: &Piles) -> Analysis<Take> {
        analyze(pos)
    }
}

// ---------------------------------------------------------------------------------
// How declarations use misère Nim: piles, no parameters; whoever takes the last
// stone loses.

impl declared::Declare for MisereNimSubject {
    type Oracle = MisereNim;
    type Fast = ();
    const ID: &'static str = "misere-nim";
    const POSITION: &'static str = "pile sizes";
    const MOVE_FIELDS: &'static [&'static str] = &["pile", "amount"];

    fn build(_: &[declared::ParamValue<'_>]) -> Result<(), String> {
        Ok(())
    }
    fn first_wins(_: &(), position: &[u64]) -> Result<bool, String> {
        Ok(first_wins(position))
    }
    fn analyze(_: &(), position: &[u64]) -> Result<Analysis<Take>, String> {
        Ok(analyze(&Piles(position.to_vec())))
    }
    fn move_fields(t: &Take, _: &[u64]) -> [u64; 4] {
        [t.pile as u64, t.amount, 0, 0]
    }
    fn oracle(_: &(), position: &[u64], _: usize) -> Result<(MisereNim, Piles), SearchError> {
        Ok((MisereNim, Piles(position.to_vec())))
    }
    /// The ending decides: with a pile of 2 or more, lost iff the XOR is 0 (the last
    /// pile takes the value cancelling the others); with every pile at most 1, lost
    /// iff the number of 1-piles is odd (one pile flipped between 0 and 1 when the
    /// XOR step left an even number).
    fn make_losing(_: &(), p: &mut [u64], b: &[(u64, u64)], rng: &mut ChaCha8Rng) -> bool {
        let done = declared::losing_sum(
            p,
            b,
            rng,
            |x| x,
            |need, lo, hi, _| (lo..=hi).contains(&need).then_some(need),
        );
        if !done || p.iter().any(|&x| x >= 2) {
            return done;
        }
        // A small position with XOR 0: an even number of 1-piles, a win. Flip one.
        let n = p.len();
        let start = if n == 0 { 0 } else { rng.gen_range(0..n) };
        for k in 0..n {
            let i = (start + k) % n;
            let flipped = 1 - p[i];
            if (b[i].0..=b[i].1).contains(&flipped) {
                p[i] = flipped;
                return true;
            }
        }
        false
    }
}

// ---------------------------------------------------------------------------------
// The `misere_nim_agree` fuzz target.

/// `misere_nim_agree`: up to 5 piles of up to 10 (empty piles included).
impl crate::fuzzing::AgreeTarget for MisereNimSubject {
    fn fuzz_instance(
        &self,
        _: &[u8],
        rest: &[u8],
    ) -> Option<(MisereNim, <MisereNim as sgcheck_oracles::Rules>::Position)> {
        Some((MisereNim, Piles(crate::fuzzing::small_piles(rest, 5, 10)?)))
    }
}

// ---------------------------------------------------------------------------------
// Its line in the registry.

impl crate::games::BuiltIn for MisereNimSubject {
    const ID: &'static str = "misere-nim";
    const SUMMARY: &'static str =
        "piles; take any positive number from one pile; whoever takes the last stone \
         loses (misère play). Rules: -";
    const DECLARABLE: Option<&'static dyn declared::DeclarableGame> =
        Some(declared::Declared::<Self>::GAME);
}

// ---------------------------------------------------------------------------------
// Checking users' own solvers of it ([`crate::Game`]).

impl crate::Game for MisereNim {
    from_subject!(MisereNimSubject);
    fn shrink(&self, pos: &Piles) -> Vec<(MisereNim, Piles)> {
        crate::games::shrink_piles(self, pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::PlantedTier1;
    #[test]
    fn planted_tier1_bug_reaches_the_report() {
        // Normal-play Nim's verdict on 2,2 (lost) where misère Nim's is wanted.
        let planted = || {
            tier1_with(|p| {
                let mut a = analyze(p);
                a.win ^= p.0 == [2, 2];
                a
            })
        };
        PlantedTier1 {
            subject: &MisereNimSubject,
            tier1: &planted,
        }
        .assert_caught("piles [2, 2]");
    }

    use crate::verify::Planted;
    use std::time::Duration;

    #[test]
    fn statement_samples() {
        // P4279 sample: 3 5 1 => John; 1 => Brother.
        assert!(first_wins(&[3, 5, 1]));
        assert!(!first_wins(&[1]));
        // No stone at all: the first player wins (never takes the last stone).
        assert!(first_wins(&[0, 0]));
        // `0 1` is lost: the mistake `sum == n` reads it as a Nim position.
        assert!(!first_wins(&[0, 1]));
    }

    #[test]
    fn single_big_pile_leaves_an_odd_number_of_ones() {
        // 5,1: take all 5 (leaving the single 1), not 4 (leaving 1,1).
        let a = analyze(&Piles(vec![5, 1]));
        assert_eq!(a.winning, vec![Take { pile: 0, amount: 5 }]);
        // 5,1,1: take 4, leaving 1,1,1.
        let a = analyze(&Piles(vec![5, 1, 1]));
        assert_eq!(a.winning, vec![Take { pile: 0, amount: 4 }]);
    }

    #[test]
    fn tier1_agrees() {
        let r = MisereNimSubject.tier1();
        assert!(r.checked > 10_000);
        assert_eq!(r.disagreements, 0, "{:?}", r.first);
    }

    /// A planted bug: normal-play Nim's answer (XOR != 0 wins, the Nim move) for every
    /// position. The sweep finds it at the smallest position where the endings differ.
    #[test]
    fn planted_normal_play_is_caught_small() {
        fn normal(_: &MisereNim, pos: &Piles) -> Analysis<Take> {
            crate::games::nim::analyze(pos)
        }
        let d = Planted {
            subject: &MisereNimSubject,
            fast: normal,
        }
        .first_disagreement(Duration::from_secs(5))
        .expect("planted bug not found");
        assert_eq!(d.position, "0");
    }

    /// A planted bug: "all piles are 1" tested as `sum == n`, so empty piles make a
    /// small position look like a Nim position. Wrong on `0,1` (the statement's
    /// trap: Brother, not John) and first found at the single empty pile `0`.
    #[test]
    fn planted_sum_equals_n_is_caught_small() {
        fn sum_is_n(_: &MisereNim, pos: &Piles) -> Analysis<Take> {
            let sum: u64 = pos.0.iter().sum();
            let x = pos.0.iter().fold(0, |a, &p| a ^ p);
            let win = if sum == pos.0.len() as u64 {
                pos.0.len().is_multiple_of(2)
            } else {
                x != 0
            };
            let mut a = analyze(pos);
            if a.win != win {
                a.win = win;
                if !win {
                    a.winning.clear();
                }
            }
            a
        }
        assert!(sum_is_n(&MisereNim, &Piles(vec![0, 1])).win);
        assert!(!first_wins(&[0, 1]));
        let d = Planted {
            subject: &MisereNimSubject,
            fast: sum_is_n,
        }
        .first_disagreement(Duration::from_secs(5))
        .expect("planted bug not found");
        assert_eq!(d.position, "0");
    }
}

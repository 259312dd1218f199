//! Moore's Nim_k: choose 1 to k heaps and take a positive number from each.
//!
//! Rules (game `nim-k`; the oracle's [`NimK`]): normal play; k = 1 is Nim.
//!
//! Closed form (E. H. Moore, 1910): write the heaps in binary; the position is lost
//! exactly when, for every bit, the number of heaps with that bit set is a multiple of
//! k + 1. (From such a position a move changes at most k heaps, so the count of the
//! highest changed bit drops by 1 to k: no longer a multiple. From any other position,
//! going from the highest bad bit down, at most k heaps need changing.)
//!
//! Winning moves: the count can be large (a choice of heaps and an amount for each),
//! so the fast side enumerates candidate moves and tests each with the closed form,
//! never the oracle. For a chosen set of heaps, the new sizes of all but the last one
//! are enumerated; the last one's new size is then forced bit by bit (each bit's count
//! among the others is 0 mod (k + 1), so the bit is 0, or k mod (k + 1), so it is 1;
//! anything else has no solution), and the move is kept when that size is below the
//! heap. Cost: the product of the heap sizes over all but one chosen heap, per set:
//! fine for the small positions of `verify`, exponential in k in general.

use crate::verify::{Subject, Tier1Report};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::nim::Piles;
use sgcheck_oracles::games::nim_k::{NimK, NimKMove};
use sgcheck_oracles::Analysis;

/// Per bit, the number of heaps with that bit set.
fn bit_counts(heaps: &[u64]) -> [u64; 64] {
    let mut c = [0u64; 64];
    for &h in heaps {
        for (bit, count) in c.iter_mut().enumerate() {
            *count += h >> bit & 1;
        }
    }
    c
}

/// Whether the position is lost for the player to move (Moore's theorem).
pub fn is_lost(k: u64, heaps: &[u64]) -> bool {
    let m = u128::from(k) + 1;
    bit_counts(heaps).iter().all(|&c| u128::from(c) % m == 0)
}

/// Whether the player to move wins.
pub fn first_wins(k: u64, heaps: &[u64]) -> bool {
    !is_lost(k, heaps)
}

/// Verdict and every winning move, in canonical order (module docs).
pub fn analyze(rules: &NimK, pos: &Piles) -> Analysis<NimKMove> {
    let heaps = &pos.0;
    let k = rules.k;
    let win = first_wins(k, heaps);
    let mut winning = Vec::new();
    if win {
        let live: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] > 0).collect();
        let mut set = Vec::new();
        sets(&live, 0, k, &mut set, &mut |s| {
            moves_on(k, heaps, s, &mut winning)
        });
        winning.sort();
    }
    Analysis {
        win,
        winning,
        remoteness: None,
    }
}

/// Calls `f` with every non-empty set of at most `k` of `live`, ascending.
fn sets(live: &[usize], from: usize, k: u64, cur: &mut Vec<usize>, f: &mut impl FnMut(&[usize])) {
    for j in from..live.len() {
        cur.push(live[j]);
        f(cur);
        if (cur.len() as u64) < k {
            sets(live, j + 1, k, cur, f);
        }
        cur.pop();
    }
}

/// The winning moves on the heaps `chosen` (module docs).
fn moves_on(k: u64, heaps: &[u64], chosen: &[usize], out: &mut Vec<NimKMove>) {
    let m = u128::from(k) + 1;
    let (last, first) = chosen.split_last().expect("non-empty set");
    let mut after = heaps.to_vec();
    // Odometer over the new sizes of the first heaps: 0..heap each.
    let mut new: Vec<u64> = vec![0; first.len()];
    loop {
        for (&h, &v) in first.iter().zip(&new) {
            after[h] = v;
        }
        after[*last] = 0;
        let counts = bit_counts(&after);
        let mut forced = 0u64;
        let ok = counts.iter().enumerate().all(|(bit, &c)| {
            let r = u128::from(c) % m;
            if r == 0 {
                true
            } else if r == m - 1 {
                forced |= 1 << bit;
                true
            } else {
                false
            }
        });
        if ok && forced < heaps[*last] {
            let mut amounts: Vec<u64> = first
                .iter()
                .zip(&new)
                .map(|(&h, &v)| heaps[h] - v)
                .collect();
            amounts.push(heaps[*last] - forced);
            out.push(NimKMove {
                heaps: chosen.to_vec(),
                amounts,
            });
        }
        // Advance.
        let mut i = new.len();
        let advanced = loop {
            if i == 0 {
                break false;
            }
            i -= 1;
            if new[i] + 1 < heaps[first[i]] {
                new[i] += 1;
                break true;
            }
            new[i] = 0;
        };
        if !advanced {
            break;
        }
    }
}

/// Win/loss of every position of `n` heaps of 0..=`max` by retrograde analysis over
/// the rules (every set of at most k heaps, every amount; no theory), indexed in
/// mixed radix `max + 1` (heap 0 lowest): a move only lowers heaps, so it lowers the
/// index, and positions are solved in index order.
pub fn table(k: u64, n: usize, max: u64) -> Vec<bool> {
    let radix = max as usize + 1;
    let total = radix.pow(n as u32);
    let mut win = vec![false; total];
    let digits = |mut i: usize| -> Vec<u64> {
        (0..n)
            .map(|_| {
                let d = (i % radix) as u64;
                i /= radix;
                d
            })
            .collect()
    };
    let weight: Vec<usize> = (0..n).map(|j| radix.pow(j as u32)).collect();
    for i in 0..total {
        let h = digits(i);
        let live: Vec<usize> = (0..n).filter(|&j| h[j] > 0).collect();
        let mut found = false;
        sets(&live, 0, k, &mut Vec::new(), &mut |s| {
            if found {
                return;
            }
            // Every vector of amounts on s: decrement index by sum amount_j * weight_j.
            let mut amt = vec![1u64; s.len()];
            loop {
                let dec: usize = s
                    .iter()
                    .zip(&amt)
                    .map(|(&j, &a)| a as usize * weight[j])
                    .sum();
                if !win[i - dec] {
                    found = true;
                    return;
                }
                let mut t = amt.len();
                let advanced = loop {
                    if t == 0 {
                        break false;
                    }
                    t -= 1;
                    if amt[t] < h[s[t]] {
                        amt[t] += 1;
                        break true;
                    }
                    amt[t] = 1;
                };
                if !advanced {
                    return;
                }
            }
        });
        win[i] = found;
    }
    win
}

/// `verify`'s view of Nim_k.
#[derive(Default)]
pub struct NimKSubject;

/// Tier 1's tables: (k, heaps, largest heap).
const TIER1_TABLES: &[(u64, usize, u64)] = &[
    (1, 3, 15),
    (2, 3, 15),
    (3, 3, 15),
    (2, 4, 7),
    (3, 4, 7),
    (4, 5, 3),
];
/// Largest k of the enumeration.
const ENUM_MAX_K: u64 = 3;
/// Largest total of the enumeration.
const ENUM_MAX_SIZE: u32 = 14;

/// Tier 1 with the fast side given (the closed form the game's solver uses, or a
/// planted wrong one in the tests): the same comparisons, the same tables.
fn tier1_with(first_wins: impl Fn(u64, &[u64]) -> bool) -> Tier1Report {
    let mut report = Tier1Report::default();
    for &(k, n, max) in TIER1_TABLES {
        let radix = max as usize + 1;
        let t = table(k, n, max);
        report.compare(
            format_args!("k={k} n={n} table length"),
            t.len(),
            (max as usize + 1).pow(n as u32),
        );
        for (i, &w) in t.iter().enumerate() {
            let h: Vec<u64> = (0..n)
                .map(|j| (i / radix.pow(j as u32) % radix) as u64)
                .collect();
            report.compare(format_args!("k={k} {h:?}"), first_wins(k, &h), w);
        }
    }
    report
}

impl Subject for NimKSubject {
    type Rules = NimK;

    fn id(&self) -> &'static str {
        "nim-k"
    }

    fn reproduce(&self, rules: &NimK, pos: &Piles) -> String {
        crate::verify::check_command(self.id(), &rules.to_string(), &pos.to_string())
    }

    fn tier1(&self) -> Tier1Report {
        tier1_with(first_wins)
    }

    fn instances(&self, size: u32) -> Vec<(NimK, Piles)> {
        if size > ENUM_MAX_SIZE {
            return Vec::new();
        }
        let piles = crate::verify::compositions(u64::from(size), 4);
        (1..=ENUM_MAX_K)
            .flat_map(|k| piles.iter().map(move |p| (NimK { k }, Piles(p.clone()))))
            .collect()
    }

    fn random_instance(&self, rng: &mut ChaCha8Rng) -> (NimK, Piles) {
        // Small enough for the oracle: a position of heaps h has prod (h + 1)
        // positions below it, each with up to that many moves.
        let k = rng.gen_range(1..=4);
        let n = rng.gen_range(1..=4);
        let max = [3, 5, 6][rng.gen_range(0..3)];
        let mut heaps: Vec<u64> = (0..n).map(|_| rng.gen_range(0..=max)).collect();
        if rng.gen_bool(0.3) {
            // Make it lost: k + 1 copies of one heap make every bit count a multiple.
            let h = rng.gen_range(0..=max);
            heaps = vec![h; (k as usize + 1).min(5)];
        }
        (NimK { k }, Piles(heaps))
    }

    fn fast(&self, rules: &NimK, pos: &Piles) -> Analysis<NimKMove> {
        analyze(rules, pos)
    }
}

// ---------------------------------------------------------------------------------
// The `nim_k_agree` fuzz target.

/// `nim_k_agree`: k in 1..=4, then up to 4 heaps of up to 6.
impl crate::fuzzing::AgreeTarget for NimKSubject {
    const FIELDS: usize = 1;
    fn fuzz_instance(
        &self,
        fields: &[u8],
        rest: &[u8],
    ) -> Option<(NimK, <NimK as sgcheck_oracles::Rules>::Position)> {
        if !(1..=4).contains(&fields[0]) {
            return None;
        }
        Some((
            NimK {
                k: fields[0] as u64,
            },
            Piles(crate::fuzzing::small_piles(rest, 4, 6)?),
        ))
    }
}

// ---------------------------------------------------------------------------------
// Its line in the registry.

impl crate::games::BuiltIn for NimKSubject {
    const ID: &'static str = "nim-k";
    const SUMMARY: &'static str =
        "heaps; choose 1 to k heaps and take a positive number from each (Moore's \
         Nim_k); normal play. Rules: k=2";
}

// ---------------------------------------------------------------------------------
// Checking users' own solvers of it ([`crate::Game`]).

impl crate::Game for NimK {
    from_subject!(NimKSubject);
    fn shrink(&self, pos: &Piles) -> Vec<(NimK, Piles)> {
        let mut out: Vec<(NimK, Piles)> = crate::shrink::number(self.k, 1)
            .into_iter()
            .map(|k| (NimK { k }, pos.clone()))
            .collect();
        out.extend(crate::games::shrink_piles(self, pos));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::PlantedTier1;
    #[test]
    fn planted_tier1_bug_reaches_the_report() {
        // The verdict flipped on every position of 3 stones in Nim_2.
        let planted =
            || tier1_with(|k, h| first_wins(k, h) ^ (k == 2 && h.iter().sum::<u64>() == 3));
        PlantedTier1 {
            subject: &NimKSubject,
            tier1: &planted,
        }
        .assert_caught("k=2");
    }

    use crate::verify::Planted;
    use std::time::Duration;

    #[test]
    fn closed_form_matches_table() {
        for k in 1..=3 {
            let t = table(k, 3, 7);
            for (i, &w) in t.iter().enumerate() {
                let h = [(i % 8) as u64, (i / 8 % 8) as u64, (i / 64) as u64];
                assert_eq!(first_wins(k, &h), w, "k={k} {h:?}");
            }
        }
    }

    #[test]
    fn k1_moves_are_nim_moves() {
        let a = analyze(&NimK { k: 1 }, &Piles(vec![3, 4, 5]));
        let text: Vec<String> = a.winning.iter().map(|m| m.to_string()).collect();
        // Nim's one winning move from 3,4,5 takes 2 from pile 0 (3 ^ 4 ^ 5 = 2).
        assert_eq!(text, ["0:2"]);
    }

    /// A planted bug: Nim's rule (XOR) for every k.
    fn xor_rule(rules: &NimK, pos: &Piles) -> Analysis<NimKMove> {
        let mut a = analyze(rules, pos);
        a.win = pos.0.iter().fold(0, |x, &h| x ^ h) != 0;
        a
    }

    #[test]
    fn planted_xor_rule_is_caught_small() {
        let d = Planted {
            subject: &NimKSubject,
            fast: xor_rule,
        }
        .first_disagreement(Duration::from_secs(3))
        .expect("planted bug not found");
        // k = 2, two heaps of 1: XOR 0 says lost, but one move empties both (two
        // ones, not a multiple of 3).
        assert_eq!((d.rules.as_str(), d.position.as_str()), ("k=2", "1,1"));
    }
}

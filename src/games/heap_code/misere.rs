//! Misère play of declared heap games that play like misère Nim.
//!
//! Misère play has no Sprague–Grundy theory in general, but many heap games are
//! *tame* (Conway, *On Numbers and Games*, ch. 12; Berlekamp, Conway and Guy, *Winning
//! Ways*, ch. 13): their misère sums are won as misère Nim is, played on the heaps'
//! normal-play Grundy values. This module proves that from the table, heap by heap, and
//! answers such positions at once; a game it cannot prove is left to the exhaustive
//! search, whose reach is small.
//!
//! **The rule.** Let each heap n have its normal-play value g(n), and call a value
//! *big* when it is at least 2. The misère Nim rule says a sum is lost by the player to
//! move when it holds a big value and the values XOR to 0, or holds none and they XOR
//! to 1.
//!
//! **The proof.** For every heap n up to N, with each option (what a move on n leaves)
//! described by the XOR x of its parts' values and whether a part is big:
//!
//! 1. if g(n) is big, n has an option with no big part and x = 0, and one with no big
//!    part and x = 1;
//! 2. if g(n) <= 1 and n has a move, it has an option with no big part and x = g(n) xor 1;
//! 3. if g(n) <= 1, no option with a big part has x = g(n) xor 1.
//!
//! Then the rule gives the misère outcome of every sum of heaps up to N. By induction
//! on the sum (every option of such a sum is one): a sum the rule calls lost with a big
//! value has two of them (one big value cannot XOR with values of 0 and 1 to 0), so a
//! move, which changes one heap to parts of a different XOR (the mex), leaves a big
//! value and a non-zero XOR: won. A sum called lost without a big value (XOR 1) moved
//! to parts without a big one has XOR 1 xor g(n) xor x, which is not 1 since x is not
//! g(n); moved to parts with a big one, it is lost only when x = g(n) xor 1, which (3)
//! excludes. A sum called won has a move to one called lost: with two big values or
//! more, Nim's move (to an option of XOR g(n) xor X, which the mex provides) keeps a
//! big value; with exactly one, (1) replaces it by parts without a big value of the
//! XOR that makes the total 1; without a big value and XOR 0, a heap that has a move
//! is changed by (2) to parts without a big value of XOR g(n) xor 1 (total 1), and a
//! sum of heaps without moves is won, the player to move having none (misère). This is
//! the tame case where every heap has the genus of a Nim heap; games with other genera
//! (misère Kayles, 0.77, is the classic wild one) fail a condition and are searched.
//!
//! The proof costs one visit per option of every heap up to N, at most
//! [`PROOF_WORK`] visits in all; a larger proof is not attempted, and the position is
//! left to the search.

use super::Moves;

/// Most option visits one proof makes.
pub const PROOF_WORK: u64 = 100_000_000;

/// What has been proven of a game's misère play.
#[derive(Debug, Default)]
pub struct Tame {
    /// Every heap below this satisfies the three conditions.
    pub upto: u64,
    /// The first heap that fails one, and why.
    pub failed: Option<String>,
    /// Option visits spent so far.
    pub work: u64,
}

/// Whether the player to move wins the misère sum of heaps of these normal-play values
/// under the misère Nim rule (see the module's proof for when it is the outcome).
pub fn misere_nim_wins(values: &[u64]) -> bool {
    let x = values.iter().fold(0, |a, v| a ^ v);
    if values.iter().any(|&v| v >= 2) {
        x != 0
    } else {
        x == 0
    }
}

/// Calls `f(take, parts)` for every option of heap `n` (`parts` ascending, zeros first,
/// as [`sgcheck_oracles::games::heap_code::PartsMove`] holds them), with the amounts
/// `listed` when the rules list them.
pub(super) fn each_option(
    moves: &Moves,
    listed: Option<&[(u64, u8)]>,
    n: u64,
    f: &mut impl FnMut(u64, [u64; 3]),
) {
    let pairs = |take: u64, rest: u64, unequal: bool, f: &mut dyn FnMut(u64, [u64; 3])| {
        let top = if unequal {
            rest.saturating_sub(1) / 2
        } else {
            rest / 2
        };
        for a in 1..=top {
            f(take, [0, a, rest - a]);
        }
    };
    let triples = |take: u64, rest: u64, f: &mut dyn FnMut(u64, [u64; 3])| {
        for a in 1..=rest / 3 {
            for b in a..=(rest - a) / 2 {
                f(take, [a, b, rest - a - b]);
            }
        }
    };
    if moves.d0 & 4 != 0 || moves.unequal {
        pairs(0, n, moves.unequal, f);
    }
    if moves.d0 & 8 != 0 {
        triples(0, n, f);
    }
    let mut one = |k: u64, d: u8| {
        let rest = n - k;
        if rest == 0 && d & 1 != 0 {
            f(k, [0, 0, 0]);
        }
        if rest >= 1 && d & 2 != 0 {
            f(k, [0, 0, rest]);
        }
        if rest >= 2 && d & 4 != 0 {
            pairs(k, rest, false, f);
        }
        if rest >= 3 && d & 8 != 0 {
            triples(k, rest, f);
        }
    };
    match listed {
        Some(list) => list
            .iter()
            .take_while(|&&(k, _)| k <= n)
            .for_each(|&(k, d)| one(k, d)),
        None => moves.amounts(n, one),
    }
}

/// Extends the proof to every heap up to `top` (inclusive), with `g` the normal-play
/// values (`None` past what the table holds). `Err` names the first heap that fails a
/// condition, or says why the proof stopped (the table, the work).
pub(super) fn prove(
    tame: &mut Tame,
    moves: &Moves,
    listed: Option<&[(u64, u8)]>,
    top: u64,
    g: impl Fn(u64) -> Option<u64>,
) -> Result<(), String> {
    if let Some(why) = &tame.failed {
        return Err(why.clone());
    }
    while tame.upto <= top {
        let n = tame.upto;
        let gn = g(n).ok_or_else(|| format!("heap {n} has no normal-play value in the table"))?;
        // Options without a big part of XOR 0 and 1; with one, of XOR at most 1.
        let (mut small, mut big_low, mut any) = ([false; 2], [false; 2], false);
        let mut missing = None;
        let mut visits = 0u64;
        each_option(moves, listed, n, &mut |_, parts| {
            visits += 1;
            any = true;
            let (mut x, mut big) = (0u64, false);
            for &p in parts.iter().filter(|&&p| p > 0) {
                match g(p) {
                    Some(v) => {
                        x ^= v;
                        big |= v >= 2;
                    }
                    None => missing = Some(p),
                }
            }
            if x <= 1 {
                if big {
                    big_low[x as usize] = true;
                } else {
                    small[x as usize] = true;
                }
            }
        });
        tame.work += visits;
        if let Some(p) = missing {
            return Err(format!("heap {p} has no normal-play value in the table"));
        }
        let why = if gn >= 2 {
            (!small[0] || !small[1]).then(|| {
                format!(
                    "heap {n} (g = {gn}) has no move to heaps of values 0 and 1 of XOR {}",
                    if small[0] { 1 } else { 0 }
                )
            })
        } else if any && !small[(gn ^ 1) as usize] {
            Some(format!(
                "heap {n} (g = {gn}) has no move to heaps of values 0 and 1 of XOR {}",
                gn ^ 1
            ))
        } else if big_low[(gn ^ 1) as usize] {
            Some(format!(
                "heap {n} (g = {gn}) has a move to heaps of XOR {} with one of value 2 or more",
                gn ^ 1
            ))
        } else {
            None
        };
        if let Some(why) = why {
            let why = format!("not tame like misère Nim: {why}");
            tame.failed = Some(why.clone());
            return Err(why);
        }
        tame.upto = n + 1;
        if tame.work > PROOF_WORK && tame.upto <= top {
            return Err(format!(
                "the proof that it plays like misère Nim reached heap {} within its work \
                 ({PROOF_WORK} option visits)",
                tame.upto - 1
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::HeapRules;
    use super::*;

    /// Every multiset of heaps 1..=`top` of at most `most` heaps totalling at most
    /// `total`, ascending.
    fn positions(top: u64, most: usize, total: u64) -> Vec<Vec<u64>> {
        let mut out = vec![vec![]];
        let mut i = 0;
        while i < out.len() {
            let p: Vec<u64> = out[i].clone();
            i += 1;
            if p.len() == most {
                continue;
            }
            let from = p.last().copied().unwrap_or(1);
            for h in from..=top {
                if p.iter().sum::<u64>() + h <= total {
                    let mut q = p.clone();
                    q.push(h);
                    out.push(q);
                }
            }
        }
        out
    }

    /// Where the proof holds, the rule's verdict and winning moves are the exhaustive
    /// search's, on every small position; and the codes include tame and wild ones.
    #[test]
    fn where_the_proof_holds_the_rule_is_the_search() {
        let (mut tame, mut wild) = (0, 0);
        for code in [
            "0.[7]", "0.[3]", "0.[1]", "0.3", "0.7", "0.1", "0.03", "0.07", "0.77", "0.137",
            "0.17", "0.71", "0.37", "4.7", "0.6", "0.[4]", "0.33", "0.73", "0.31", "0.15", "0.51",
            "4.[3]", "0.007", "0.27",
        ] {
            let r = HeapRules::parse(&format!("{code} misere")).unwrap();
            if r.tame_for(&[12]).is_err() {
                wild += 1;
                continue;
            }
            tame += 1;
            for p in positions(12, 4, 14) {
                let rule = r.analyze_tame(&p).unwrap();
                let search = r.search(&p).unwrap();
                assert_eq!(rule.win, search.win, "{code} {p:?}");
                assert_eq!(rule.winning, search.winning, "{code} {p:?}");
            }
        }
        assert!(tame >= 5 && wild >= 5, "tame {tame}, wild {wild}");
    }

    /// Condition 3 matters on its own: 0.75 meets 1 and 2 but has, at the heap of 5
    /// (value 1), a move to heaps of values 2 and 2 (XOR 0, with a big value); the rule
    /// calls that heap alone lost, and it is won.
    #[test]
    fn the_third_condition_alone_refuses_a_wrong_rule() {
        let r = HeapRules::parse("0.75 misere").unwrap();
        let why = r.tame_for(&[12]).unwrap_err();
        assert!(
            why.contains("heap 5 (g = 1) has a move to heaps of XOR 0 with one of value 2"),
            "{why}"
        );
        assert!(!misere_nim_wins(&[r.grundy(5).unwrap()]));
        assert!(r.search(&[5]).unwrap().win);
    }

    /// Without the proof the rule is wrong: misère Kayles (0.77), which fails it at
    /// heap 5, has small positions the rule misjudges.
    #[test]
    fn the_rule_is_wrong_where_the_proof_fails() {
        let r = HeapRules::parse("0.77 misere").unwrap();
        let why = r.tame_for(&[12]).unwrap_err();
        assert!(why.contains("heap 5 (g = 4)"), "{why}");
        let wrong = positions(12, 3, 12).into_iter().find(|p| {
            let values: Vec<u64> = p.iter().map(|&n| r.grundy(n).unwrap()).collect();
            misere_nim_wins(&values) != r.search(p).unwrap().win
        });
        assert!(wrong.is_some(), "the rule agreed everywhere");
    }

    #[test]
    fn the_misere_nim_rule() {
        assert!(misere_nim_wins(&[]));
        assert!(!misere_nim_wins(&[1]));
        assert!(misere_nim_wins(&[1, 1]));
        assert!(!misere_nim_wins(&[1, 1, 1]));
        assert!(misere_nim_wins(&[2]));
        assert!(!misere_nim_wins(&[2, 2]));
        assert!(misere_nim_wins(&[2, 3]));
        assert!(!misere_nim_wins(&[2, 3, 1]));
        assert!(misere_nim_wins(&[0, 0]));
    }
}

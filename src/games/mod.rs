//! Fast solvers: closed forms and Sprague–Grundy tables, one module per game.
//!
//! Every module answers a whole position the way a contest solution would: the value
//! of a sum of independent components is the XOR of their Grundy values (the
//! Sprague–Grundy theorem), and a move is winning exactly when it brings that XOR to
//! zero. The fast side enumerates its own candidate moves for one component and never
//! calls the oracle's move generator, so a rules bug on either side shows up in
//! `verify` as a disagreement. Only the position and move *types* are shared with
//! [`sgcheck_oracles`], so that answers can be compared.
//!
//! Each module also implements [`crate::verify::Subject`], which tells `verify` how to
//! enumerate small positions, draw random ones, and run the game's tier-1 checks.

use sgcheck_oracles::Analysis;

pub mod auction;
pub mod bash;
mod cases;
pub mod declared;
pub mod ed;
pub mod following_nim;
pub mod grundy;
pub mod hackenbush_tree;
pub mod lasker;
pub mod misere_nim;
pub mod mock_turtles;
pub mod nim;
pub mod nim_k;
pub mod octal;
pub mod simple_nim;
pub mod split;
pub mod staircase;
pub mod subtraction;
pub mod take_break;
pub mod take_range;
pub mod wythoff;

use crate::verify::{check_one, verify_subject, CheckOutcome, GameReport, Progress, Sweep};

/// Every game id `verify` knows, in the order of the README's games table.
pub const GAME_IDS: &[&str] = &[
    "nim",
    "bash",
    "take-range",
    "lasker",
    "subtraction",
    "ed",
    "split",
    "following-nim",
    "octal",
    "grundy",
    "simple-nim",
    "misere-nim",
    "staircase",
    "wythoff",
    "auction",
    "nim-k",
    "hackenbush-tree",
];

/// Every game with a one-line summary of its rules, for `sgcheck list`.
pub const GAMES: &[(&str, &str)] = &[
    (
        "nim",
        "piles; take any positive number from one pile; normal play. Rules: -",
    ),
    (
        "bash",
        "piles; take 1 to m stones from one pile; normal play. Rules: m=3",
    ),
    (
        "take-range",
        "one pile; take p to q coins (all of them when fewer than p remain); whoever \
         takes the last coin loses. Rules: p=2,q=4",
    ),
    (
        "lasker",
        "piles; take any positive number from one pile, or split one pile into two \
         non-empty piles; normal play. Rules: -",
    ),
    (
        "subtraction",
        "piles; take s stones from one pile, s in a finite set S; normal play. \
         Rules: the set, e.g. 2,3,5",
    ),
    (
        "ed",
        "2n piles in pairs; remove one pile of a pair and split the other into two \
         non-empty piles that take both places; normal play. Rules: -",
    ),
    (
        "split",
        "bottles 0..n-1; take a bean from a non-empty bottle i and put one into j and \
         one into k, i < j <= k < n (two into j when j == k); normal play. Rules: -",
    ),
    (
        "following-nim",
        "piles; Nim, but taking a special amount forces the next player to take from \
         that same pile (forced on an empty pile = lose); normal play. Rules: the \
         special amounts, e.g. 1,7",
    ),
    (
        "octal",
        "heaps; the code 0.d1d2... says, per removal size k, whether removing k tokens \
         may leave no heap (bit 1 of d_k), one heap (bit 2) or two non-empty heaps \
         (bit 4); normal play. Rules: the code, e.g. 0.77 (Kayles), 0.137, 0.07",
    ),
    (
        "grundy",
        "heaps; split one heap into two non-empty heaps of different sizes; normal \
         play. Rules: -",
    ),
    (
        "simple-nim",
        "heaps; take any positive number from one heap, or split one heap into three \
         non-empty heaps; normal play. Rules: -",
    ),
    (
        "misere-nim",
        "piles; take any positive number from one pile; whoever takes the last stone \
         loses (misère play). Rules: -",
    ),
    (
        "staircase",
        "pieces on distinct cells 1, 2, 3, ...; move one piece left by at least one \
         cell, never onto or past another piece; normal play. Rules: -",
    ),
    (
        "wythoff",
        "two piles; take any positive number from one pile, or the same positive \
         number from both; normal play. Rules: -",
    ),
    (
        "auction",
        "r still missing; bid 1 to n: a bid of at least r wins at once, a smaller one \
         leaves r minus the bid to the opponent. Rules: n=2",
    ),
    (
        "nim-k",
        "heaps; choose 1 to k heaps and take a positive number from each (Moore's \
         Nim_k); normal play. Rules: k=2",
    ),
    (
        "hackenbush-tree",
        "a tree rooted at vertex 1; remove one edge, and every edge no longer connected \
         to the root disappears (Green Hackenbush); normal play. Rules: -",
    ),
];

/// Runs `verify` on the game `id`; `None` when no such game exists.
pub fn verify_game<P: Progress>(id: &str, sweep: &Sweep, progress: &P) -> Option<GameReport> {
    Some(match id {
        "nim" => verify_subject(&nim::NimSubject, sweep, progress),
        "bash" => verify_subject(&bash::BashSubject, sweep, progress),
        "take-range" => verify_subject(&take_range::TakeRangeSubject, sweep, progress),
        "lasker" => verify_subject(&lasker::LaskerSubject, sweep, progress),
        "subtraction" => {
            verify_subject(&subtraction::SubtractionSubject::default(), sweep, progress)
        }
        "ed" => verify_subject(&ed::EdSubject, sweep, progress),
        "split" => verify_subject(&split::SplitSubject, sweep, progress),
        "following-nim" => verify_subject(&following_nim::FollowingNimSubject, sweep, progress),
        "octal" => verify_subject(&octal::OctalSubject::default(), sweep, progress),
        "grundy" => verify_subject(&grundy::GrundySubject, sweep, progress),
        "simple-nim" => verify_subject(&simple_nim::SimpleNimSubject, sweep, progress),
        "misere-nim" => verify_subject(&misere_nim::MisereNimSubject, sweep, progress),
        "staircase" => verify_subject(&staircase::StaircaseSubject, sweep, progress),
        "wythoff" => verify_subject(&wythoff::WythoffSubject, sweep, progress),
        "auction" => verify_subject(&auction::AuctionSubject, sweep, progress),
        "nim-k" => verify_subject(&nim_k::NimKSubject, sweep, progress),
        "hackenbush-tree" => {
            verify_subject(&hackenbush_tree::HackenbushTreeSubject, sweep, progress)
        }
        _ => return None,
    })
}

/// Runs `check` on one position of the game `id`; `None` when no such game exists.
pub fn check_game(
    id: &str,
    rules: Option<&str>,
    position: &str,
    budget: usize,
) -> Option<Result<CheckOutcome, String>> {
    Some(match id {
        "nim" => check_one(&nim::NimSubject, rules, position, budget),
        "bash" => check_one(&bash::BashSubject, rules, position, budget),
        "take-range" => check_one(&take_range::TakeRangeSubject, rules, position, budget),
        "lasker" => check_one(&lasker::LaskerSubject, rules, position, budget),
        "subtraction" => check_one(
            &subtraction::SubtractionSubject::default(),
            rules,
            position,
            budget,
        ),
        "ed" => check_one(&ed::EdSubject, rules, position, budget),
        "split" => check_one(&split::SplitSubject, rules, position, budget),
        "following-nim" => check_one(&following_nim::FollowingNimSubject, rules, position, budget),
        "octal" => check_one(&octal::OctalSubject::default(), rules, position, budget),
        "grundy" => check_one(&grundy::GrundySubject, rules, position, budget),
        "simple-nim" => check_one(&simple_nim::SimpleNimSubject, rules, position, budget),
        "misere-nim" => check_one(&misere_nim::MisereNimSubject, rules, position, budget),
        "staircase" => check_one(&staircase::StaircaseSubject, rules, position, budget),
        "wythoff" => check_one(&wythoff::WythoffSubject, rules, position, budget),
        "auction" => check_one(&auction::AuctionSubject, rules, position, budget),
        "nim-k" => check_one(&nim_k::NimKSubject, rules, position, budget),
        "hackenbush-tree" => check_one(
            &hackenbush_tree::HackenbushTreeSubject,
            rules,
            position,
            budget,
        ),
        _ => return None,
    })
}

/// The minimum excludant: the smallest non-negative integer not in `values`.
///
/// The Grundy value of a component is the mex of the values of its options.
pub fn mex(values: impl IntoIterator<Item = u64>) -> u64 {
    let mut seen: Vec<u64> = values.into_iter().collect();
    seen.sort_unstable();
    seen.dedup();
    seen.iter()
        .enumerate()
        .find(|&(i, &v)| i as u64 != v)
        .map_or(seen.len() as u64, |(i, _)| i as u64)
}

/// The analysis of a sum of components from their Grundy values.
///
/// `values[i]` is the Grundy value of component `i`; `options(i, need)` lists the moves
/// inside component `i` that leave it with Grundy value `need` (the value that makes
/// the XOR of the whole position zero). The position is won iff the XOR is non-zero,
/// and the winning moves are exactly those options, sorted in canonical order.
pub fn analyze_sum<M: Ord>(
    values: &[u64],
    mut options: impl FnMut(usize, u64, &mut Vec<M>),
) -> Analysis<M> {
    let total = values.iter().fold(0, |a, &v| a ^ v);
    let mut winning = Vec::new();
    if total != 0 {
        for (i, &v) in values.iter().enumerate() {
            let need = total ^ v;
            options(i, need, &mut winning);
        }
        winning.sort();
        winning.dedup();
    }
    Analysis {
        win: total != 0,
        winning,
        remoteness: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_examples() {
        assert_eq!(mex([]), 0);
        assert_eq!(mex([1, 2]), 0);
        assert_eq!(mex([0, 1, 3]), 2);
        assert_eq!(mex([2, 0, 1, 1]), 3);
    }
}

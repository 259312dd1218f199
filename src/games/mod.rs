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

pub mod nim;

use crate::verify::{check_one, verify_subject, CheckOutcome, GameReport, Sweep};
use indicatif::ProgressBar;

/// Every game id `verify` knows, in the order SPEC.md lists them.
pub const GAME_IDS: &[&str] = &["nim"];

/// Every game with a one-line summary of its rules, for `sgcheck list`.
pub const GAMES: &[(&str, &str)] = &[(
    "nim",
    "piles; take any positive number from one pile; normal play. Rules: -",
)];

/// Runs `verify` on the game `id`; `None` when no such game exists.
pub fn verify_game(id: &str, sweep: &Sweep, progress: &ProgressBar) -> Option<GameReport> {
    Some(match id {
        "nim" => verify_subject(&nim::NimSubject, sweep, progress),
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

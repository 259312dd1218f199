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
//! Each module is the whole game on sgcheck's side: beside the solver, its
//! [`crate::verify::Subject`] (how `verify` enumerates small positions, draws random
//! ones, and runs the game's tier-1 checks), its [`crate::Game`] impl (for users'
//! own solvers), its fuzz target's decoding, how problem declarations use it
//! ([`declared::Declare`]), and its [`BuiltIn`] line, which the registry lists.

use sgcheck_oracles::Analysis;

/// The snippet that re-checks a solver of one of sgcheck's games: rules and position
/// parsed from their compact notation.
pub(crate) fn parse_snippet<R: sgcheck_oracles::Rules + std::fmt::Display>(
    rules: &R,
    pos: &R::Position,
) -> String {
    let path = std::any::type_name::<R>().replacen("sgcheck_oracles::", "sgcheck::oracles::", 1);
    format!(
        "sgcheck::assert_agrees(&\"{rules}\".parse::<{path}>().unwrap(), \
         &\"{pos}\".parse().unwrap(), your_fast_solver)"
    )
}

/// Sizes the fuzz inputs of the built-in games decode to (`0..BUILT_IN_BYTE_SIZES`).
pub const BUILT_IN_BYTE_SIZES: u32 = 12;

/// The parts of a `Game` impl that only delegate to the game's subject.
macro_rules! from_subject {
    ($subject:expr) => {
        /// quickcheck's enumerated cases of the built-in games have sizes below 8 (the
        /// oracle answers them at once, sums of two of them included); their random
        /// instances are the subject's own, of every size its tier 2 reaches, and
        /// fuzz inputs decode to sizes below 12 (`crate::games::BUILT_IN_BYTE_SIZES`).
        const MAX_SIZE: u32 = 7;
        fn from_bytes(
            u: &mut arbitrary::Unstructured<'_>,
        ) -> arbitrary::Result<(Self, Self::Position)> {
            let size = u.int_in_range(0..=crate::games::BUILT_IN_BYTE_SIZES - 1)?;
            let all = crate::game::cached_instances::<Self>(size);
            if all.is_empty() {
                return Err(arbitrary::Error::IncorrectFormat);
            }
            let i = u.choose_index(all.len())?;
            Ok(all[i].clone())
        }
        fn instances(size: u32) -> Vec<(Self, Self::Position)> {
            crate::verify::Subject::instances(&$subject, size)
        }
        fn random(rng: &mut crate::verify::Rng) -> (Self, Self::Position) {
            crate::verify::Subject::random_instance(&$subject, rng)
        }
        fn random_up_to(rng: &mut crate::verify::Rng, _max: u32) -> (Self, Self::Position) {
            crate::verify::Subject::random_instance(&$subject, rng)
        }
        fn reproduce(&self, pos: &Self::Position) -> String {
            crate::games::parse_snippet(self, pos)
        }
    };
}

/// Shrinks the piles of a pile game: fewer piles, smaller piles.
pub(crate) fn shrink_piles<R: Clone>(
    rules: &R,
    pos: &sgcheck_oracles::games::nim::Piles,
) -> Vec<(R, sgcheck_oracles::games::nim::Piles)> {
    crate::shrink::list(&pos.0, 0, 0)
        .into_iter()
        .map(|p| (rules.clone(), sgcheck_oracles::games::nim::Piles(p)))
        .collect()
}

pub mod auction;
pub mod bash;
pub mod dag_tokens;
pub mod declared;
pub mod ed;
pub mod following_nim;
pub mod grundy;
pub mod hackenbush_tree;
pub mod heap_code;
pub mod heap_ranges;
pub mod lasker;
pub mod misere_nim;
pub mod mock_turtles;
pub mod nim;
pub mod nim_k;
pub mod octal;
pub mod paint_chain;
pub mod scripted;
pub mod simple_nim;
pub mod split;
pub mod staircase;
pub mod subtraction;
pub mod take_break;
pub mod take_range;
pub mod wythoff;

use crate::verify::Subject;

/// `sgcheck check` on a subject: rules and position parsed from their compact
/// notation. Every subject whose rules and positions parse has it.
pub trait CheckText: Subject {
    /// The check of one position given as text (see [`crate::verify::check_one`]).
    fn check_text(
        &self,
        rules: Option<&str>,
        position: &str,
        budget: usize,
    ) -> Result<crate::verify::CheckOutcome, String>;
}

impl<S: Subject> CheckText for S
where
    S::Rules: std::str::FromStr<Err: std::fmt::Display>,
    <S::Rules as sgcheck_oracles::Rules>::Position: std::str::FromStr<Err: std::fmt::Display>,
{
    fn check_text(
        &self,
        rules: Option<&str>,
        position: &str,
        budget: usize,
    ) -> Result<crate::verify::CheckOutcome, String> {
        crate::verify::check_one(self, rules, position, budget)
    }
}

/// A built-in game as the registry (`sgcheck::registry`) lists it: implemented in the
/// game's fast file, beside its solver, its [`Subject`] and its fuzz target's
/// decoding ([`crate::fuzzing::AgreeTarget`]).
pub trait BuiltIn: Subject<Rules: crate::Game> + crate::fuzzing::AgreeTarget + CheckText {
    /// The game id (`nim`, `bash`, ...), as `sgcheck verify --game` and `check` take
    /// it; the same as [`Subject::id`].
    const ID: &'static str;
    /// One line on the rules and the notation of their parameters, for `sgcheck list`.
    const SUMMARY: &'static str;
    /// How problem declarations use the game, when they can
    /// ([`declared::Declared::GAME`] of its [`declared::Declare`]).
    const DECLARABLE: Option<&'static dyn declared::DeclarableGame> = None;
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

#[cfg(test)]
mod game_tests {
    use crate::Game;
    use sgcheck_oracles::games::following_nim::FollowingNim;
    use sgcheck_oracles::games::{
        following_nim::FnPosition,
        lasker::Lasker,
        nim::{Nim, Piles},
    };

    #[test]
    fn shrinking_reaches_smaller_cases() {
        let s = Nim.shrink(&Piles(vec![3, 4]));
        assert!(s.iter().any(|x| x.1 .0 == vec![4]));
        assert!(s.iter().all(|x| x.1 .0.iter().sum::<u64>() < 7));
        // Every smaller pile, not only 0, half and one less: 6 reaches 2.
        assert!(Lasker
            .shrink(&Piles(vec![6]))
            .contains(&(Lasker, Piles(vec![2]))));
        let f = FollowingNim::new(vec![1, 2]).unwrap();
        let s = f.shrink(&FnPosition {
            piles: vec![2, 5],
            forced: Some(1),
        });
        assert!(s.iter().any(|x| x.1.forced.is_none()));
        assert!(s
            .iter()
            .any(|x| x.1.piles == vec![5] && x.1.forced == Some(0)));
    }

    #[test]
    fn reproduction_parses_the_notation() {
        assert_eq!(
            Lasker.reproduce(&Piles(vec![2])),
            "sgcheck::assert_agrees(&\"-\".parse::<sgcheck::oracles::games::lasker::Lasker>()\
             .unwrap(), &\"2\".parse().unwrap(), your_fast_solver)"
        );
    }
}

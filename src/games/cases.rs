//! [`crate::Game`] for sgcheck's own games: the instances `verify` sweeps (taken from
//! each game's [`crate::verify::Subject`]), shrinkers that know each position's shape,
//! and a reproduction that parses the compact notation.
//!
//! With these, your own solver of any of the eight games is checked on the same
//! instances as sgcheck's, and `Case<Lasker>` and the like are quickcheck and fuzzing
//! inputs.

use crate::shrink;
use crate::verify::{Rng, Subject};
use crate::Game;
use sgcheck_oracles::games::{
    auction::{Auction, Missing},
    bash::Bash,
    ed::{Ed, EdPiles},
    following_nim::{FnPosition, FollowingNim},
    grundy::GrundyGame,
    hackenbush_tree::{HackenbushTree, Tree},
    lasker::Lasker,
    misere_nim::MisereNim,
    nim::{Nim, Piles},
    nim_k::NimK,
    octal::Octal,
    simple_nim::SimpleNim,
    split::{Bottles, SplitGame},
    staircase::{Cells, Staircase},
    subtraction::Subtraction,
    take_range::{Coins, TakeRange},
    wythoff::{Pair, Wythoff},
};
use sgcheck_oracles::Rules;
use std::fmt::Display;

/// The snippet that re-checks a solver of one of sgcheck's games: rules and position
/// parsed from their compact notation.
fn parse_snippet<R: Rules + Display>(rules: &R, pos: &R::Position) -> String {
    let path = std::any::type_name::<R>().replacen("sgcheck_oracles::", "sgcheck::oracles::", 1);
    format!(
        "sgcheck::assert_agrees(&\"{rules}\".parse::<{path}>().unwrap(), \
         &\"{pos}\".parse().unwrap(), your_fast_solver)"
    )
}

/// The parts of a `Game` impl that only delegate to the game's subject.
macro_rules! from_subject {
    ($subject:expr) => {
        fn instances(size: u32) -> Vec<(Self, Self::Position)> {
            $subject.instances(size)
        }
        fn random(rng: &mut Rng) -> (Self, Self::Position) {
            $subject.random_instance(rng)
        }
        fn reproduce(&self, pos: &Self::Position) -> String {
            parse_snippet(self, pos)
        }
    };
}

/// Shrinks the piles of a pile game: fewer piles, smaller piles.
fn piles<R: Clone>(rules: &R, pos: &Piles) -> Vec<(R, Piles)> {
    shrink::list(&pos.0, 0, 0)
        .into_iter()
        .map(|p| (rules.clone(), Piles(p)))
        .collect()
}

impl Game for Nim {
    from_subject!(super::nim::NimSubject);
    fn shrink(&self, pos: &Piles) -> Vec<(Nim, Piles)> {
        piles(self, pos)
    }
}

impl Game for Octal {
    from_subject!(super::octal::OctalSubject::default());
    fn shrink(&self, pos: &Piles) -> Vec<(Octal, Piles)> {
        piles(self, pos)
    }
}

impl Game for GrundyGame {
    from_subject!(super::grundy::GrundySubject);
    fn shrink(&self, pos: &Piles) -> Vec<(GrundyGame, Piles)> {
        piles(self, pos)
    }
}

impl Game for SimpleNim {
    from_subject!(super::simple_nim::SimpleNimSubject);
    fn shrink(&self, pos: &Piles) -> Vec<(SimpleNim, Piles)> {
        piles(self, pos)
    }
}

impl Game for Lasker {
    from_subject!(super::lasker::LaskerSubject);
    fn shrink(&self, pos: &Piles) -> Vec<(Lasker, Piles)> {
        piles(self, pos)
    }
}

impl Game for Bash {
    from_subject!(super::bash::BashSubject);
    fn shrink(&self, pos: &Piles) -> Vec<(Bash, Piles)> {
        let mut out: Vec<(Bash, Piles)> = shrink::number(self.m, 1)
            .into_iter()
            .map(|m| (Bash { m }, pos.clone()))
            .collect();
        out.extend(piles(self, pos));
        out
    }
}

impl Game for Subtraction {
    from_subject!(super::subtraction::SubtractionSubject::default());
    fn shrink(&self, pos: &Piles) -> Vec<(Subtraction, Piles)> {
        let mut out: Vec<(Subtraction, Piles)> = shrink::set(self.set())
            .into_iter()
            .filter_map(|s| Some((Subtraction::new(s).ok()?, pos.clone())))
            .collect();
        out.extend(piles(self, pos));
        out
    }
}

impl Game for TakeRange {
    from_subject!(super::take_range::TakeRangeSubject);
    fn shrink(&self, pos: &Coins) -> Vec<(TakeRange, Coins)> {
        let TakeRange { p, q } = *self;
        let mut out: Vec<(TakeRange, Coins)> = shrink::number(pos.0, 0)
            .into_iter()
            .map(|n| (*self, Coins(n)))
            .collect();
        out.extend(
            shrink::number(q, p)
                .into_iter()
                .map(|q| (TakeRange { p, q }, *pos)),
        );
        out.extend(
            shrink::number(p, 1)
                .into_iter()
                .map(|p| (TakeRange { p, q }, *pos)),
        );
        out
    }
}

impl Game for Ed {
    from_subject!(super::ed::EdSubject);
    fn shrink(&self, pos: &EdPiles) -> Vec<(Ed, EdPiles)> {
        let v = &pos.0;
        let mut out = Vec::new();
        // Drop a whole pair (one pair stays), then lower one pile (piles stay >= 1).
        if v.len() > 2 {
            for pair in 0..v.len() / 2 {
                let mut w = v.clone();
                w.drain(2 * pair..2 * pair + 2);
                out.push(w);
            }
        }
        out.extend(shrink::list(v, v.len(), 1));
        out.into_iter().map(|p| (Ed, EdPiles(p))).collect()
    }
}

impl Game for SplitGame {
    from_subject!(super::split::SplitSubject);
    fn shrink(&self, pos: &Bottles) -> Vec<(SplitGame, Bottles)> {
        // Bottles count beans in u32; the shrunk values never exceed the original ones.
        let v: Vec<u64> = pos.0.iter().map(|&c| u64::from(c)).collect();
        shrink::list(&v, 1, 0)
            .into_iter()
            .map(|w| {
                let b = w.into_iter().map(|c| c as u32).collect();
                (SplitGame, Bottles(b))
            })
            .collect()
    }
}

impl Game for FollowingNim {
    from_subject!(super::following_nim::FollowingNimSubject);
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
        for s in shrink::set(self.specials()) {
            if let Ok(rules) = FollowingNim::new(s) {
                out.push((rules, pos.clone()));
            }
        }
        // Lower one pile (same count, so the forced index stays valid).
        for p in shrink::list(piles, piles.len(), 0) {
            out.push(with(p, *forced));
        }
        out
    }
}

impl Game for MisereNim {
    from_subject!(super::misere_nim::MisereNimSubject);
    fn shrink(&self, pos: &Piles) -> Vec<(MisereNim, Piles)> {
        piles(self, pos)
    }
}

impl Game for Staircase {
    from_subject!(super::staircase::StaircaseSubject);
    /// Fewer pieces, lower cells; candidates with two pieces on one cell are dropped.
    fn shrink(&self, pos: &Cells) -> Vec<(Staircase, Cells)> {
        shrink::list(&pos.0, 0, 1)
            .into_iter()
            .filter(|v| {
                let mut s = v.clone();
                s.sort_unstable();
                s.windows(2).all(|w| w[0] != w[1])
            })
            .map(|v| (Staircase, Cells(v)))
            .collect()
    }
}
impl Game for HackenbushTree {
    from_subject!(super::hackenbush_tree::HackenbushTreeSubject);
    /// Fewer vertices (a leaf dropped, the rest renumbered) and shorter paths (an
    /// edge contracted), through [`crate::tree::shrink`].
    fn shrink(&self, pos: &Tree) -> Vec<(Self, Tree)> {
        // Oracle positions may skip labels (after cuts): number them 1..=n first.
        let mut labels: Vec<u32> = pos.0.iter().flat_map(|&(a, b)| [a, b]).collect();
        labels.push(1);
        labels.sort_unstable();
        labels.dedup();
        let flat: Vec<u64> = pos
            .0
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .map(|x| labels.binary_search(&x).map_or(0, |i| i as u64 + 1))
            .collect();
        crate::tree::shrink(&flat)
            .iter()
            .filter_map(|t| super::hackenbush_tree::tree_of(t).ok())
            .filter(|t| t != pos)
            .map(|t| (HackenbushTree, t))
            .collect()
    }
}

impl Game for Wythoff {
    from_subject!(super::wythoff::WythoffSubject);
    fn shrink(&self, pos: &Pair) -> Vec<(Wythoff, Pair)> {
        let Pair(a, b) = *pos;
        let mut out: Vec<(Wythoff, Pair)> = shrink::number(a, 0)
            .into_iter()
            .map(|a| (Wythoff, Pair(a, b)))
            .collect();
        out.extend(
            shrink::number(b, 0)
                .into_iter()
                .map(|b| (Wythoff, Pair(a, b))),
        );
        out
    }
}

impl Game for Auction {
    from_subject!(super::auction::AuctionSubject);
    fn shrink(&self, pos: &Missing) -> Vec<(Auction, Missing)> {
        let mut out: Vec<(Auction, Missing)> = shrink::number(pos.0, 0)
            .into_iter()
            .map(|r| (*self, Missing(r)))
            .collect();
        out.extend(
            shrink::number(self.n, 1)
                .into_iter()
                .map(|n| (Auction { n }, *pos)),
        );
        out
    }
}

impl Game for NimK {
    from_subject!(super::nim_k::NimKSubject);
    fn shrink(&self, pos: &Piles) -> Vec<(NimK, Piles)> {
        let mut out: Vec<(NimK, Piles)> = shrink::number(self.k, 1)
            .into_iter()
            .map(|k| (NimK { k }, pos.clone()))
            .collect();
        out.extend(piles(self, pos));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

//! `quickcheck::Arbitrary` for small instances of every game (feature `quickcheck`).
//!
//! [`Case<R>`] is one position with its rules, generated small enough for the
//! exhaustive oracle to answer in milliseconds, with a real `shrink`: fewer piles or
//! bottles, smaller piles, smaller parameters, and a forced pile released. A user's own
//! test suite can use these to compare a solver with the oracle:
//!
//! ```ignore
//! use sgcheck::arbitrary::Case;
//! use sgcheck::oracles::games::lasker::Lasker;
//! quickcheck::quickcheck(prop as fn(Case<Lasker>) -> bool);
//! ```
//!
//! The `Debug` of a case is the `sgcheck check` command that re-checks it, so a failing
//! property prints a command line with the minimal position.

use crate::verify::check_command;
use quickcheck::{Arbitrary, Gen};
use sgcheck_oracles::games::{
    bash::Bash,
    ed::{Ed, EdPiles},
    following_nim::{FnPosition, FollowingNim},
    grundy::GrundyGame,
    lasker::Lasker,
    nim::{Nim, Piles},
    octal::Octal,
    simple_nim::SimpleNim,
    split::{Bottles, SplitGame},
    subtraction::Subtraction,
    take_range::{Coins, TakeRange},
};
use sgcheck_oracles::Rules;
use std::fmt;

/// A game's id, for the reproducing command.
pub trait Named {
    /// The game id of SPEC.md.
    const GAME: &'static str;
}

macro_rules! named {
    ($($t:ty => $id:literal),*) => { $(impl Named for $t { const GAME: &'static str = $id; })* };
}
named!(Nim => "nim", Bash => "bash", TakeRange => "take-range", Subtraction => "subtraction",
       Lasker => "lasker", Ed => "ed", SplitGame => "split", FollowingNim => "following-nim",
       Octal => "octal", GrundyGame => "grundy", SimpleNim => "simple-nim");

/// One small instance of a game: rules and position.
#[derive(Clone, PartialEq, Eq)]
pub struct Case<R: Rules> {
    /// The rules (parameters).
    pub rules: R,
    /// The position.
    pub position: R::Position,
}

impl<R: Rules + Named + fmt::Display> fmt::Debug for Case<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&check_command(
            R::GAME,
            &self.rules.to_string(),
            &self.position.to_string(),
        ))
    }
}

/// A uniform draw from `lo..=hi`.
fn pick(g: &mut Gen, lo: u64, hi: u64) -> u64 {
    lo + u64::arbitrary(g) % (hi - lo + 1)
}

/// Up to `max_len` values in `lo..=hi`, at least `min_len`.
fn values(g: &mut Gen, min_len: usize, max_len: usize, lo: u64, hi: u64) -> Vec<u64> {
    let n = pick(g, min_len as u64, max_len as u64) as usize;
    (0..n).map(|_| pick(g, lo, hi)).collect()
}

/// Shrinks a list: drop one element (keeping `min_len`), then lower one element to
/// `floor`, to halfway, and by one.
fn shrink_values(v: &[u64], min_len: usize, floor: u64) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    if v.len() > min_len {
        for i in 0..v.len() {
            let mut w = v.to_vec();
            w.remove(i);
            out.push(w);
        }
    }
    for i in 0..v.len() {
        let x = v[i];
        for y in [floor, floor + (x - floor) / 2, x.saturating_sub(1)] {
            if y < x && y >= floor {
                let mut w = v.to_vec();
                w[i] = y;
                if !out.contains(&w) {
                    out.push(w);
                }
            }
        }
    }
    out
}

/// Shrinks a set of positive parameters: drop one element (keeping one).
fn shrink_set(v: &[u64]) -> Vec<Vec<u64>> {
    shrink_values(v, 1, 1)
        .into_iter()
        .map(|mut w| {
            w.sort_unstable();
            w.dedup();
            w
        })
        .filter(|w| !w.is_empty() && w.len() <= v.len() && w != v)
        .collect()
}

fn boxed<T: 'static>(v: Vec<T>) -> Box<dyn Iterator<Item = T>> {
    Box::new(v.into_iter())
}

impl Arbitrary for Case<Nim> {
    fn arbitrary(g: &mut Gen) -> Self {
        Case {
            rules: Nim,
            position: Piles(values(g, 0, 4, 0, 8)),
        }
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        boxed(
            shrink_values(&self.position.0, 0, 0)
                .into_iter()
                .map(|p| Case {
                    rules: Nim,
                    position: Piles(p),
                })
                .collect(),
        )
    }
}

impl Arbitrary for Case<Bash> {
    fn arbitrary(g: &mut Gen) -> Self {
        Case {
            rules: Bash { m: pick(g, 1, 5) },
            position: Piles(values(g, 0, 3, 0, 12)),
        }
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let mut out: Vec<Self> = (1..self.rules.m)
            .rev()
            .map(|m| Case {
                rules: Bash { m },
                position: self.position.clone(),
            })
            .collect();
        out.extend(
            shrink_values(&self.position.0, 0, 0)
                .into_iter()
                .map(|p| Case {
                    rules: self.rules,
                    position: Piles(p),
                }),
        );
        boxed(out)
    }
}

impl Arbitrary for Case<TakeRange> {
    fn arbitrary(g: &mut Gen) -> Self {
        let p = pick(g, 1, 6);
        let q = pick(g, p, 8);
        Case {
            rules: TakeRange { p, q },
            position: Coins(pick(g, 0, 60)),
        }
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let TakeRange { p, q } = self.rules;
        let n = self.position.0;
        let mut out = Vec::new();
        for m in [0, n / 2, n.saturating_sub(1)] {
            if m < n {
                out.push(Case {
                    rules: self.rules,
                    position: Coins(m),
                });
            }
        }
        if q > p {
            out.push(Case {
                rules: TakeRange { p, q: q - 1 },
                position: Coins(n),
            });
        }
        if p > 1 {
            out.push(Case {
                rules: TakeRange { p: p - 1, q },
                position: Coins(n),
            });
        }
        boxed(out)
    }
}

impl Arbitrary for Case<Subtraction> {
    fn arbitrary(g: &mut Gen) -> Self {
        let set = values(g, 1, 3, 1, 6);
        Case {
            rules: Subtraction::new(set).expect("positive, non-empty"),
            position: Piles(values(g, 0, 3, 0, 14)),
        }
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let mut out: Vec<Self> = shrink_set(self.rules.set())
            .into_iter()
            .map(|s| Case {
                rules: Subtraction::new(s).expect("shrunk set stays valid"),
                position: self.position.clone(),
            })
            .collect();
        out.extend(
            shrink_values(&self.position.0, 0, 0)
                .into_iter()
                .map(|p| Case {
                    rules: self.rules.clone(),
                    position: Piles(p),
                }),
        );
        boxed(out)
    }
}

impl Arbitrary for Case<Lasker> {
    fn arbitrary(g: &mut Gen) -> Self {
        Case {
            rules: Lasker,
            position: Piles(values(g, 0, 3, 0, 6)),
        }
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        boxed(
            shrink_values(&self.position.0, 0, 0)
                .into_iter()
                .map(|p| Case {
                    rules: Lasker,
                    position: Piles(p),
                })
                .collect(),
        )
    }
}

impl Arbitrary for Case<Octal> {
    /// One to three digits, up to three heaps of up to 10.
    fn arbitrary(g: &mut Gen) -> Self {
        let rules = loop {
            let digits: Vec<u8> = values(g, 1, 3, 0, 7).into_iter().map(|d| d as u8).collect();
            if let Ok(c) = Octal::new(digits) {
                break c;
            }
        };
        Case {
            rules,
            position: Piles(values(g, 0, 3, 0, 10)),
        }
    }
    /// Drops or lowers a digit (while some digit stays non-zero), then shrinks the heaps.
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let digits: Vec<u64> = self.rules.digits().iter().map(|&d| u64::from(d)).collect();
        let mut out: Vec<Self> = shrink_values(&digits, 1, 0)
            .into_iter()
            .filter_map(|d| Octal::new(d.into_iter().map(|x| x as u8).collect()).ok())
            .filter(|c| *c != self.rules)
            .map(|rules| Case {
                rules,
                position: self.position.clone(),
            })
            .collect();
        out.extend(
            shrink_values(&self.position.0, 0, 0)
                .into_iter()
                .map(|p| Case {
                    rules: self.rules.clone(),
                    position: Piles(p),
                }),
        );
        boxed(out)
    }
}

impl Arbitrary for Case<GrundyGame> {
    /// Up to four heaps of up to 14.
    fn arbitrary(g: &mut Gen) -> Self {
        Case {
            rules: GrundyGame,
            position: Piles(values(g, 0, 4, 0, 14)),
        }
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        boxed(
            shrink_values(&self.position.0, 0, 0)
                .into_iter()
                .map(|p| Case {
                    rules: GrundyGame,
                    position: Piles(p),
                })
                .collect(),
        )
    }
}

impl Arbitrary for Case<SimpleNim> {
    /// Up to three heaps of up to 7.
    fn arbitrary(g: &mut Gen) -> Self {
        Case {
            rules: SimpleNim,
            position: Piles(values(g, 0, 3, 0, 7)),
        }
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        boxed(
            shrink_values(&self.position.0, 0, 0)
                .into_iter()
                .map(|p| Case {
                    rules: SimpleNim,
                    position: Piles(p),
                })
                .collect(),
        )
    }
}

impl Arbitrary for Case<Ed> {
    fn arbitrary(g: &mut Gen) -> Self {
        let pairs = pick(g, 1, 2) as usize;
        Case {
            rules: Ed,
            position: EdPiles(values(g, 2 * pairs, 2 * pairs, 1, 8)),
        }
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let v = &self.position.0;
        let mut out = Vec::new();
        // Drop a whole pair, then lower one pile.
        if v.len() > 2 {
            for pair in 0..v.len() / 2 {
                let mut w = v.clone();
                w.drain(2 * pair..2 * pair + 2);
                out.push(w);
            }
        }
        out.extend(shrink_values(v, v.len(), 1));
        boxed(
            out.into_iter()
                .map(|p| Case {
                    rules: Ed,
                    position: EdPiles(p),
                })
                .collect(),
        )
    }
}

impl Arbitrary for Case<SplitGame> {
    fn arbitrary(g: &mut Gen) -> Self {
        let counts = values(g, 1, 5, 0, 2);
        Case {
            rules: SplitGame,
            position: Bottles(counts.into_iter().map(|c| c as u32).collect()),
        }
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let v: Vec<u64> = self.position.0.iter().map(|&c| c as u64).collect();
        boxed(
            shrink_values(&v, 1, 0)
                .into_iter()
                .map(|w| Case {
                    rules: SplitGame,
                    position: Bottles(w.into_iter().map(|c| c as u32).collect()),
                })
                .collect(),
        )
    }
}

impl Arbitrary for Case<FollowingNim> {
    fn arbitrary(g: &mut Gen) -> Self {
        let specials = values(g, 1, 3, 1, 5);
        let piles = values(g, 1, 3, 0, 6);
        let forced = if bool::arbitrary(g) {
            Some(pick(g, 0, piles.len() as u64 - 1) as usize)
        } else {
            None
        };
        Case {
            rules: FollowingNim::new(specials).expect("positive specials"),
            position: FnPosition { piles, forced },
        }
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let FnPosition { piles, forced } = &self.position;
        let mut out = Vec::new();
        if forced.is_some() {
            out.push(Case {
                rules: self.rules.clone(),
                position: FnPosition {
                    piles: piles.clone(),
                    forced: None,
                },
            });
        }
        for s in shrink_set(self.rules.specials()) {
            out.push(Case {
                rules: FollowingNim::new(s).expect("shrunk specials stay valid"),
                position: self.position.clone(),
            });
        }
        // Lower one pile (keeping the pile count, so the forced index stays valid).
        for p in shrink_values(piles, piles.len(), 0) {
            out.push(Case {
                rules: self.rules.clone(),
                position: FnPosition {
                    piles: p,
                    forced: *forced,
                },
            });
        }
        // Drop a pile that is not the forced one, renumbering the forced index.
        if piles.len() > 1 {
            for i in 0..piles.len() {
                if Some(i) == *forced {
                    continue;
                }
                let mut p = piles.clone();
                p.remove(i);
                let f = forced.map(|f| if f > i { f - 1 } else { f });
                out.push(Case {
                    rules: self.rules.clone(),
                    position: FnPosition {
                        piles: p,
                        forced: f,
                    },
                });
            }
        }
        boxed(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shrinking_reaches_smaller_cases() {
        let c = Case {
            rules: Nim,
            position: Piles(vec![3, 4]),
        };
        let s: Vec<_> = c.shrink().collect();
        assert!(s.iter().any(|x| x.position.0 == vec![4]));
        assert!(s.iter().all(|x| x.position.0.iter().sum::<u64>() < 7));
        let f = Case {
            rules: FollowingNim::new(vec![1, 2]).unwrap(),
            position: FnPosition {
                piles: vec![2, 5],
                forced: Some(1),
            },
        };
        let s: Vec<_> = f.shrink().collect();
        assert!(s.iter().any(|x| x.position.forced.is_none()));
        assert!(s
            .iter()
            .any(|x| x.position.piles == vec![5] && x.position.forced == Some(0)));
        assert_eq!(format!("{c:?}"), "sgcheck check nim '3,4'");
    }
}

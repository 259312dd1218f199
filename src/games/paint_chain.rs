//! Paint Chain (hdu3980): a circle of n beads; a move paints m consecutive unpainted
//! ones. The rules' parameter is m, the position the one number n (a fresh circle).
//! A problem-only game: it has no `verify` subject of its own, only its declaration.
//!
//! The fast side: with n < m there is no move; otherwise every first move is the
//! same up to rotation and leaves a row of n - m beads, the octal game whose only
//! digit is d_m = 7, where the opponent moves first: the first player wins iff that
//! row's Grundy value is 0 ([`OctalSolver`], a table for this m). The oracle plays
//! the circle itself ([`PaintChain`]), no reduction to a row.

use crate::games::declared::{self, Declare, ParamKind, ParamSpec, ParamValue, Reach};
use crate::games::octal::OctalSolver;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::octal::{Octal, MAX_DIGITS};
use sgcheck_oracles::games::paint_chain::{Circle, Paint, PaintChain, MAX_BEADS};
use sgcheck_oracles::{Analysis, SearchError};

/// Largest circle the fast side takes (a table of n - m values).
pub const PAINT_CHAIN_MAX_BEADS: u64 = 1 << 20;

/// The declarable game `paint-chain`.
pub struct PaintChainGame;

/// The fast side's rules: m, and the octal code of the row left after a first move.
pub struct PaintRules {
    m: u64,
    code: Octal,
}

impl PaintRules {
    /// Whether the first player wins on a fresh circle of `n` beads.
    fn wins(&self, n: u64) -> bool {
        if n < self.m {
            return false;
        }
        let rest = n - self.m;
        OctalSolver::table_only(&self.code, rest as usize + 1).grundy(rest) == Some(0)
    }
}

fn beads(position: &[u64]) -> u64 {
    position.first().copied().unwrap_or(0)
}

impl Declare for PaintChainGame {
    type Oracle = PaintChain;
    type Fast = PaintRules;
    const ID: &'static str = "paint-chain";
    const PARAMETERS: &'static [ParamSpec] = &[ParamSpec {
        name: "m",
        kind: ParamKind::Number,
        about: "beads one move paints (at least 1)",
    }];
    const POSITION: &'static str = "one number: the beads n of a fresh circle";
    const MOVE_FIELDS: &'static [&'static str] = &["start"];
    const REACH: Reach = Reach {
        max_value: PAINT_CHAIN_MAX_BEADS,
        max_len: 1,
        max_moves_work: u64::MAX,
    };

    fn build(params: &[ParamValue<'_>]) -> Result<PaintRules, String> {
        let m = declared::number(params, 0, "m")?;
        if m == 0 || m > MAX_DIGITS as u64 {
            return Err(format!("m must be in 1..={MAX_DIGITS}, found {m}"));
        }
        let code = Octal::single(m as usize).map_err(|e| e.to_string())?;
        Ok(PaintRules { m, code })
    }
    fn check(_: &PaintRules, position: &[u64]) -> Result<(), String> {
        match position {
            [n] if *n >= 1 => Ok(()),
            [_] => Err("a circle has at least one bead".into()),
            _ => Err(format!(
                "paint-chain positions are one number, found {}",
                position.len()
            )),
        }
    }
    fn first_wins(r: &PaintRules, position: &[u64]) -> Result<bool, String> {
        Ok(r.wins(beads(position)))
    }
    /// Every first move is the same up to rotation: a win has every start as a
    /// winning move (the one move `0` when m = n).
    fn analyze(r: &PaintRules, position: &[u64]) -> Result<Analysis<Paint>, String> {
        let n = beads(position);
        let win = r.wins(n);
        let starts = match win {
            false => 0,
            true if n == r.m => 1,
            true => n,
        };
        Ok(Analysis {
            win,
            winning: (0..starts)
                .map(|start| Paint {
                    start: start as usize,
                })
                .collect(),
            remoteness: None,
        })
    }
    fn move_fields(m: &Paint, _: &[u64]) -> [u64; 4] {
        [m.start as u64, 0, 0, 0]
    }
    fn oracle(
        r: &PaintRules,
        position: &[u64],
        budget: usize,
    ) -> Result<(PaintChain, Circle), SearchError> {
        let n = beads(position);
        if n > MAX_BEADS as u64 {
            return Err(SearchError::Budget { budget });
        }
        Ok((PaintChain { m: r.m as usize }, Circle::fresh(n as usize)))
    }
    /// A circle size within the bounds that loses: below m, or leaving a row of
    /// non-zero value (scanned from a random start, at most 4096 sizes).
    fn make_losing(r: &PaintRules, p: &mut [u64], b: &[(u64, u64)], rng: &mut ChaCha8Rng) -> bool {
        let (Some(n), Some(&(lo, hi))) = (p.first_mut(), b.first()) else {
            return false;
        };
        let (lo, hi) = (lo.max(1), hi.min(PAINT_CHAIN_MAX_BEADS));
        if lo > hi {
            return false;
        }
        let table = OctalSolver::with_len(&r.code, (hi.saturating_sub(r.m)) as usize + 1);
        let loses = |v: u64| v < r.m || table.grundy(v - r.m) != Some(0);
        match declared::scan_for_value(1, lo, hi, rng, |v| u64::from(loses(v))) {
            Some(v) => {
                *n = v;
                true
            }
            None => false,
        }
    }
}

//! Heaps that each carry their own take range: every heap is a record of numbers (its
//! size and its parameters), and a move removes from one heap an amount its own
//! record allows.
//!
//! Rules (game `heap-ranges`; a subtraction game of Berlekamp, Conway and Guy,
//! *Winning Ways*, chapter 4, with S = {p, ..., q} chosen per heap): a position is a
//! row of records, each of the same columns (`size, limit`). One column is the heap
//! size n; the bounds p and q of the take range are each a fixed number or a column of
//! the record. A move chooses one record and removes k tokens from its heap, for any k
//! with p <= k <= q, k <= n and k >= 1 (a move always removes something); the other
//! columns stay as they are. Normal play: the player who cannot move loses; with
//! ` misere`, the player who cannot move wins.
//!
//! The rules text names the columns, then the heap column (it may be left out when
//! exactly one column is not a bound), then the range:
//!
//! ```text
//! record size,limit: heap size, range 1..limit
//! record size,lo,hi: range lo..hi misere
//! ```
//!
//! The moves are generated here straight from that text, record by record and amount
//! by amount, with no Sprague–Grundy theory.
//!
//! Notation: a position is its records, comma-separated, each record's columns joined
//! by `/` (`5/3,4/2`: a heap of 5 with limit 3 and a heap of 4 with limit 2). A move is
//! `heap:k=rest`, the record's index (from 0), the amount removed and what is left
//! (`0:2=3`). Canonical move order: by record, then k.

use crate::{NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// Most columns a record may have.
pub const MAX_COLUMNS: usize = 8;

/// Where a bound of the take range comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bound {
    /// The same amount for every heap.
    Amount(u64),
    /// Column `i` of each heap's record.
    Column(usize),
}

/// The rules: the record's columns, which one is the heap, and the bounds.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HeapRanges {
    columns: Vec<String>,
    heap: usize,
    low: Bound,
    high: Bound,
    misere: bool,
}

impl HeapRanges {
    /// Numbers per record.
    pub fn width(&self) -> usize {
        self.columns.len()
    }
    /// Whether the player who cannot move wins.
    pub fn misere(&self) -> bool {
        self.misere
    }
    /// The index of the heap column.
    pub fn heap_column(&self) -> usize {
        self.heap
    }

    fn bound(&self, b: &Bound, record: &[u64]) -> u64 {
        match b {
            Bound::Amount(a) => *a,
            Bound::Column(i) => record[*i],
        }
    }

    /// The heap size and the amounts its record allows: (n, first k, last k), the
    /// amounts being empty when first > last.
    fn record(&self, record: &[u64]) -> (u64, u64, u64) {
        let n = record[self.heap];
        let p = self.bound(&self.low, record).max(1);
        let q = self.bound(&self.high, record).min(n);
        (n, p, q)
    }
}

/// A position: the records' numbers in a row, `width` per record.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Records {
    /// Numbers per record.
    pub width: usize,
    /// The numbers, record after record.
    pub values: Vec<u64>,
}

/// A move: remove `take` tokens from the heap of record `heap`, leaving `rest`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RangeMove {
    /// Index of the record, from 0.
    pub heap: usize,
    /// Tokens removed (at least 1).
    pub take: u64,
    /// Tokens left in that heap.
    pub rest: u64,
}

impl Rules for HeapRanges {
    type Position = Records;
    type Move = RangeMove;

    fn move_bound(&self, pos: &Records) -> Option<u64> {
        let w = self.width();
        let mut total = 0u64;
        for r in pos.values.chunks(w.max(1)) {
            if r.len() == w {
                let (_, p, q) = self.record(r);
                total = total.saturating_add(q.saturating_sub(p).saturating_add(1));
            }
        }
        Some(total)
    }

    fn moves(&self, pos: &Records, out: &mut Vec<(RangeMove, Records)>) {
        let w = self.width();
        if pos.width != w || w == 0 {
            return;
        }
        for (i, r) in pos.values.chunks_exact(w).enumerate() {
            let (n, p, q) = self.record(r);
            let mut k = p;
            while k <= q {
                let mut next = pos.clone();
                next.values[i * w + self.heap] = n - k;
                out.push((
                    RangeMove {
                        heap: i,
                        take: k,
                        rest: n - k,
                    },
                    next,
                ));
                k += 1;
            }
        }
    }

    fn stuck_player_wins(&self, _pos: &Records) -> bool {
        self.misere
    }

    /// The order of the records changes nothing, and a record with no move never
    /// matters: positions are remembered by their records that have a move, sorted.
    fn key(&self, pos: &Records) -> Records {
        let w = self.width();
        if pos.width != w || w == 0 {
            return pos.clone();
        }
        let mut rs: Vec<&[u64]> = pos
            .values
            .chunks_exact(w)
            .filter(|r| {
                let (_, p, q) = self.record(r);
                p <= q
            })
            .collect();
        rs.sort_unstable();
        Records {
            width: w,
            values: rs.concat(),
        }
    }

    fn position_bytes(&self, pos: &Records) -> usize {
        std::mem::size_of::<Records>() + 8 * pos.values.len()
    }
}

impl fmt::Display for Records {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.values.chunks(self.width.max(1)).enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            for (j, v) in r.iter().enumerate() {
                if j > 0 {
                    f.write_str("/")?;
                }
                write!(f, "{v}")?;
            }
        }
        Ok(())
    }
}

impl FromStr for Records {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Records, NotationError> {
        let bad = |m: String| NotationError::new("records", s, m);
        let mut width = 0;
        let mut values = Vec::new();
        for (i, item) in s.trim().split(',').enumerate() {
            let cols: Vec<&str> = item.trim().split('/').collect();
            if i == 0 {
                width = cols.len();
                if width > MAX_COLUMNS {
                    return Err(bad(format!("a record has at most {MAX_COLUMNS} columns")));
                }
            } else if cols.len() != width {
                return Err(bad(format!(
                    "record {} has {} columns, the first has {width}",
                    i + 1,
                    cols.len()
                )));
            }
            for c in cols {
                values.push(
                    c.trim()
                        .parse()
                        .map_err(|_| bad(format!("{:?} is not a number", c.trim())))?,
                );
            }
        }
        Ok(Records { width, values })
    }
}

impl fmt::Display for RangeMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}={}", self.heap, self.take, self.rest)
    }
}

impl fmt::Display for HeapRanges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = |b: &Bound| match b {
            Bound::Amount(a) => a.to_string(),
            Bound::Column(i) => self.columns[*i].clone(),
        };
        write!(
            f,
            "record {}: heap {}, range {}..{}",
            self.columns.join(","),
            self.columns[self.heap],
            b(&self.low),
            b(&self.high)
        )?;
        if self.misere {
            f.write_str(" misere")?;
        }
        Ok(())
    }
}

fn is_name(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

impl FromStr for HeapRanges {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<HeapRanges, NotationError> {
        let bad = |m: String| NotationError::new("heap ranges", s, m);
        let t = s.trim();
        let (t, misere) = match t.strip_suffix(" misere") {
            Some(b) => (b.trim_end(), true),
            None => (t, false),
        };
        let rest = t
            .strip_prefix("record ")
            .ok_or_else(|| bad("the rules start `record <columns>:`".into()))?;
        let (cols, rest) = rest
            .split_once(':')
            .ok_or_else(|| bad("the columns end with `:`".into()))?;
        let columns: Vec<String> = cols.split(',').map(|c| c.trim().to_string()).collect();
        if columns.len() > MAX_COLUMNS {
            return Err(bad(format!("a record has at most {MAX_COLUMNS} columns")));
        }
        for (i, c) in columns.iter().enumerate() {
            if !is_name(c) {
                return Err(bad(format!("column {:?} is not a name", c)));
            }
            if columns[..i].contains(c) {
                return Err(bad(format!("column {c:?} is named twice")));
            }
        }
        let col = |name: &str| columns.iter().position(|c| c == name);
        let mut rest = rest.trim();
        let mut heap = None;
        if let Some(h) = rest.strip_prefix("heap ") {
            let (name, r) = h
                .split_once(',')
                .ok_or_else(|| bad("`heap <column>,` before the range".into()))?;
            heap =
                Some(col(name.trim()).ok_or_else(|| bad(format!("no column {:?}", name.trim())))?);
            rest = r.trim();
        }
        let range = rest
            .strip_prefix("range ")
            .ok_or_else(|| bad("the moves are `range <p>..<q>`".into()))?;
        let (lo, hi) = range
            .split_once("..")
            .ok_or_else(|| bad("a range is `<p>..<q>`".into()))?;
        let bound = |x: &str| -> Result<Bound, NotationError> {
            let x = x.trim();
            if let Ok(a) = x.parse::<u64>() {
                return Ok(Bound::Amount(a));
            }
            col(x)
                .map(Bound::Column)
                .ok_or_else(|| bad(format!("{x:?} is neither a number nor a column")))
        };
        let (low, high) = (bound(lo)?, bound(hi)?);
        let heap = match heap {
            Some(h) => h,
            None => {
                let free: Vec<usize> = (0..columns.len())
                    .filter(|&i| low != Bound::Column(i) && high != Bound::Column(i))
                    .collect();
                match free[..] {
                    [h] => h,
                    _ => {
                        return Err(bad(
                            "name the heap column (`heap <column>, range ...`): it is not the \
                             one column left by the range"
                                .into(),
                        ))
                    }
                }
            }
        };
        if low == Bound::Column(heap) || high == Bound::Column(heap) {
            return Err(bad("the heap column is not a bound of the range".into()));
        }
        if low == Bound::Amount(0) {
            return Err(bad("a move removes at least 1: p >= 1".into()));
        }
        Ok(HeapRanges {
            columns,
            heap,
            low,
            high,
            misere,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Solver;

    fn rules(s: &str) -> HeapRanges {
        s.parse().unwrap()
    }

    #[test]
    fn notation_round_trips() {
        let r = rules("record size,limit: range 1..limit");
        assert_eq!(
            r.to_string(),
            "record size,limit: heap size, range 1..limit"
        );
        assert_eq!(rules(&r.to_string()), r);
        let p: Records = "5/3,4/2".parse().unwrap();
        assert_eq!(p.values, vec![5, 3, 4, 2]);
        assert_eq!(p.to_string(), "5/3,4/2");
        for bad in [
            "record a,b: range 1..c",
            "record a,b,c: range 1..c",
            "record a,a: range 1..a",
            "record a,b: heap b, range 1..b",
            "record a,b: range 0..b",
            "range 1..3",
        ] {
            assert!(bad.parse::<HeapRanges>().is_err(), "{bad}");
        }
    }

    #[test]
    fn moves_follow_each_records_range() {
        let r = rules("record size,limit: range 2..limit");
        let mut out = Vec::new();
        r.moves(&"5/3,4/1,1/9".parse().unwrap(), &mut out);
        let ms: Vec<String> = out.iter().map(|(m, _)| m.to_string()).collect();
        // Heap 0 takes 2 or 3; heap 1's range 2..1 is empty; heap 2 has 1 < 2 tokens.
        assert_eq!(ms, ["0:2=3", "0:3=2"]);
        assert_eq!(out[0].1.to_string(), "3/3,4/1,1/9");
    }

    #[test]
    fn small_verdicts_by_hand() {
        // One heap of 4 with limit 3: take 1..3 leaves 3, 2, 1, each a win for the
        // next player (take all): 4 is lost. A heap of 4 with limit 4: take all, won.
        let r = rules("record size,limit: range 1..limit");
        let win = |s: &str| {
            Solver::new(r.clone())
                .outcome(&s.parse().unwrap())
                .unwrap()
                .win
        };
        assert!(!win("4/3"));
        assert!(win("4/4"));
        assert!(!win("4/3,2/1,2/1"));
        // Misère: one token left to take is the loss.
        let m = rules("record size,limit: range 1..limit misere");
        let mwin = |s: &str| {
            Solver::new(m.clone())
                .outcome(&s.parse().unwrap())
                .unwrap()
                .win
        };
        assert!(!mwin("1/5"));
        assert!(mwin("2/5"));
        assert!(mwin("0/5"));
    }
}

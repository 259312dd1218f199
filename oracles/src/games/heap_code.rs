//! Heap games declared by their rules: a take-and-break code, a subtraction set, a take
//! range, or Grundy's "split into two unequal heaps", in normal or misère play.
//!
//! Rules (game `heap-code`; Conway, *On Numbers and Games*; Berlekamp, Conway and Guy,
//! *Winning Ways*, chapter 4): a position is a row of heaps; a move chooses one heap of
//! n tokens and changes it as the rules say. The rules are a text, one of:
//!
//! - a **code** `d0.d1d2d3...` of octal or hexadecimal digits (0..9, A..F). For each
//!   k >= 1 the digit d_k says how removing k tokens may leave the heap: bit 1, nothing
//!   (only when n == k); bit 2, one heap of n - k >= 1; bit 4, two non-empty heaps
//!   totalling n - k; bit 8, three non-empty heaps totalling n - k. The digit d0 before
//!   the point concerns k = 0, splitting without removing: bit 4 into two non-empty
//!   heaps, bit 8 into three (bits 1 and 2 mean nothing there). A digit in brackets at
//!   the end repeats forever: `4.[3]` is d0 = 4 and d_k = 3 for every k >= 1 (Lasker's
//!   Nim). Kayles is `0.77`, Dawson's chess `0.137`.
//! - `subtract S`: remove k tokens for k in the set S, leaving n - k (nothing when 0).
//!   S is a comma-separated list of positive amounts, `powers-of-two` (1, 2, 4, 8, ...)
//!   or `fibonacci` (1, 2, 3, 5, 8, ...).
//! - `range p..q`: remove any k with p <= k <= q (1 <= p <= q), leaving n - k.
//! - `split-unequal`: split one heap into two non-empty heaps of different sizes
//!   (Grundy's game), nothing removed.
//!
//! Any of them followed by ` misere` is played misère: the player who cannot move
//! wins. Otherwise normal play: the player who cannot move loses.
//!
//! The moves are generated here straight from that text: for every heap, every amount
//! the rules allow, every way of leaving the rest the digit allows, with no
//! Sprague–Grundy theory.
//!
//! Notation: a position is its heaps, comma-separated (`5,3`), as in Nim ([`Piles`]). A
//! move is `heap:k=parts` with the heaps it leaves, smallest first, joined by `+`, or
//! `0` when it leaves nothing (`0:2=3`, `0:1=1+2`, `1:0=1+1+2`, `0:3=0`). A move that
//! leaves one heap leaves it at the heap's index; one that leaves nothing leaves an
//! empty heap (0) there; parts after the first are inserted right after it. Canonical
//! move order: by heap, then k, then the parts (the derived order of [`PartsMove`]).

use crate::games::nim::Piles;
use crate::{NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// Most digits a code may have (after the point, the repeated one included).
pub const MAX_DIGITS: usize = 4096;
/// Most amounts an explicit subtraction set may have.
pub const MAX_SET: usize = 1 << 16;

/// The amounts a subtraction set allows.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Amounts {
    /// These amounts (ascending, distinct, each at least 1).
    List(Vec<u64>),
    /// 1, 2, 4, 8, ...
    PowersOfTwo,
    /// 1, 2, 3, 5, 8, ... (the Fibonacci numbers from 1, once each).
    Fibonacci,
}

impl Amounts {
    /// Whether k is in the set.
    pub fn contains(&self, k: u64) -> bool {
        match self {
            Amounts::List(v) => v.binary_search(&k).is_ok(),
            Amounts::PowersOfTwo => k.is_power_of_two(),
            Amounts::Fibonacci => {
                let (mut a, mut b) = (1u64, 2u64);
                while a < k {
                    let c = a.saturating_add(b);
                    a = b;
                    b = c;
                    if a == u64::MAX {
                        return false;
                    }
                }
                a == k
            }
        }
    }
}

/// What one move may do to a heap.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A take-and-break code.
    Code {
        /// d0: splitting without removing (bits 4 and 8).
        d0: u8,
        /// d1, d2, ...: `digits[k - 1]` is d_k.
        digits: Vec<u8>,
        /// The digit repeated forever after `digits`, if any.
        repeat: Option<u8>,
    },
    /// Remove an amount of the set.
    Subtract(Amounts),
    /// Remove any amount from p to q.
    Range(u64, u64),
    /// Split into two non-empty unequal heaps.
    SplitUnequal,
}

/// The rules of a heap game: what a move may do, and the ending.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HeapCode {
    kind: Kind,
    misere: bool,
}

impl HeapCode {
    /// What a move may do.
    pub fn kind(&self) -> &Kind {
        &self.kind
    }
    /// Whether the player who cannot move wins.
    pub fn misere(&self) -> bool {
        self.misere
    }

    /// The digit d_k of a code (0 for other kinds; for k = 0, d0).
    fn digit(&self, k: u64) -> u8 {
        match &self.kind {
            Kind::Code { d0, digits, repeat } => {
                if k == 0 {
                    return *d0;
                }
                match usize::try_from(k - 1).ok().and_then(|i| digits.get(i)) {
                    Some(&d) => d,
                    None => repeat.unwrap_or(0),
                }
            }
            Kind::Subtract(s) => {
                if k >= 1 && s.contains(k) {
                    3
                } else {
                    0
                }
            }
            Kind::Range(p, q) => {
                if k >= 1 && (*p..=*q).contains(&k) {
                    3
                } else {
                    0
                }
            }
            Kind::SplitUnequal => 0,
        }
    }
}

/// One move: remove `take` tokens from heap `heap`, leaving `parts` (ascending, zeros
/// first for the parts not left: `[0, 0, 0]` nothing, `[0, 0, r]` one heap, `[0, a, b]`
/// two, `[a, b, c]` three).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PartsMove {
    /// Index of the heap, from 0.
    pub heap: usize,
    /// Tokens removed (0 for a split without removing).
    pub take: u64,
    /// The heaps left, ascending, zeros first.
    pub parts: [u64; 3],
}

impl PartsMove {
    /// The non-empty heaps left, ascending.
    pub fn left(&self) -> impl Iterator<Item = u64> + '_ {
        self.parts.iter().copied().filter(|&p| p > 0)
    }
}

impl Rules for HeapCode {
    type Position = Piles;
    type Move = PartsMove;

    fn move_bound(&self, pos: &Piles) -> Option<u64> {
        let mut total = 0u64;
        for &n in &pos.0 {
            // Per amount: nothing, one heap, n/2 pairs, n^2/12 + n triples at most.
            let per = 3u64
                .saturating_add(n / 2)
                .saturating_add((n / 4).saturating_mul(n / 3).saturating_add(n));
            let amounts = match &self.kind {
                Kind::SplitUnequal => 1,
                Kind::Range(p, q) => (q - p + 1).min(n),
                Kind::Subtract(Amounts::List(v)) => (v.len() as u64).min(n),
                Kind::Subtract(_) => 128,
                Kind::Code { .. } => n.saturating_add(1),
            };
            total = total.saturating_add(amounts.saturating_mul(per));
        }
        Some(total)
    }

    fn moves(&self, pos: &Piles, out: &mut Vec<(PartsMove, Piles)>) {
        for (heap, &n) in pos.0.iter().enumerate() {
            let mut push = |take: u64, parts: [u64; 3]| {
                let mut next = pos.clone();
                let left: Vec<u64> = parts.iter().copied().filter(|&p| p > 0).collect();
                match left.split_first() {
                    None => next.0[heap] = 0,
                    Some((&first, rest)) => {
                        next.0[heap] = first;
                        for (i, &p) in rest.iter().enumerate() {
                            next.0.insert(heap + 1 + i, p);
                        }
                    }
                }
                out.push((PartsMove { heap, take, parts }, next));
            };
            if self.kind == Kind::SplitUnequal {
                for a in 1..n.div_ceil(2) {
                    push(0, [0, a, n - a]);
                }
                continue;
            }
            // Amounts beyond the last digit of a code without a repeat allow nothing;
            // every other kind is asked amount by amount.
            let last = match &self.kind {
                Kind::Code {
                    digits,
                    repeat: None,
                    ..
                } => (digits.len() as u64).min(n),
                Kind::Range(_, q) => (*q).min(n),
                _ => n,
            };
            for take in 0..=last {
                let d = self.digit(take);
                if d == 0 {
                    continue;
                }
                let rest = n - take;
                // k = 0 only splits: bits 1 and 2 mean nothing there.
                if take >= 1 && rest == 0 && d & 1 != 0 {
                    push(take, [0, 0, 0]);
                }
                if take >= 1 && rest >= 1 && d & 2 != 0 {
                    push(take, [0, 0, rest]);
                }
                if rest >= 2 && d & 4 != 0 {
                    for a in 1..=rest / 2 {
                        push(take, [0, a, rest - a]);
                    }
                }
                if rest >= 3 && d & 8 != 0 {
                    for a in 1..=rest / 3 {
                        for b in a..=(rest - a) / 2 {
                            push(take, [a, b, rest - a - b]);
                        }
                    }
                }
            }
        }
    }

    fn stuck_player_wins(&self, _pos: &Piles) -> bool {
        self.misere
    }

    /// The order of the heaps changes nothing, and an empty heap has no move: positions
    /// are remembered by their non-empty heaps, sorted.
    fn key(&self, pos: &Piles) -> Piles {
        let mut k: Vec<u64> = pos.0.iter().copied().filter(|&n| n > 0).collect();
        k.sort_unstable();
        Piles(k)
    }

    fn position_bytes(&self, pos: &Piles) -> usize {
        std::mem::size_of::<Piles>() + 8 * pos.0.len()
    }
}

fn hex_digit(c: char) -> Option<u8> {
    c.to_digit(16).map(|d| d as u8)
}

impl fmt::Display for HeapCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex =
            |d: u8| char::from_digit(u32::from(d), 16).map_or('?', |c| c.to_ascii_uppercase());
        match &self.kind {
            Kind::Code { d0, digits, repeat } => {
                write!(f, "{}.", hex(*d0))?;
                for &d in digits {
                    write!(f, "{}", hex(d))?;
                }
                if let Some(r) = repeat {
                    write!(f, "[{}]", hex(*r))?;
                }
            }
            Kind::Subtract(Amounts::List(v)) => {
                f.write_str("subtract ")?;
                crate::write_list(f, v)?;
            }
            Kind::Subtract(Amounts::PowersOfTwo) => f.write_str("subtract powers-of-two")?,
            Kind::Subtract(Amounts::Fibonacci) => f.write_str("subtract fibonacci")?,
            Kind::Range(p, q) => write!(f, "range {p}..{q}")?,
            Kind::SplitUnequal => f.write_str("split-unequal")?,
        }
        if self.misere {
            f.write_str(" misere")?;
        }
        Ok(())
    }
}

const WHAT: &str = "heap rules";

fn parse_code(s: &str, body: &str) -> Result<Kind, NotationError> {
    let bad = |m: String| NotationError::new(WHAT, s, m);
    let (head, tail) = body
        .split_once('.')
        .ok_or_else(|| bad("a code is d0.d1d2... (e.g. 0.77, 4.[3])".into()))?;
    let d0 = match head.chars().collect::<Vec<_>>()[..] {
        [c] => hex_digit(c).ok_or_else(|| bad(format!("{c:?} is not a digit (0 to F)")))?,
        _ => return Err(bad("d0, before the point, is one digit".into())),
    };
    if tail.len() > MAX_DIGITS + 2 {
        return Err(bad(format!("more than {MAX_DIGITS} digits")));
    }
    let (plain, repeat) = match tail.find('[') {
        None => (tail, None),
        Some(i) => {
            let inner = tail[i + 1..]
                .strip_suffix(']')
                .ok_or_else(|| bad("a bracketed digit ends the code: `[d]`".into()))?;
            let mut cs = inner.chars();
            let r = match (cs.next(), cs.next()) {
                (Some(c), None) => {
                    hex_digit(c).ok_or_else(|| bad(format!("{c:?} is not a digit (0 to F)")))?
                }
                _ => return Err(bad("the brackets hold exactly one digit".into())),
            };
            (&tail[..i], Some(r))
        }
    };
    let mut digits = Vec::new();
    for c in plain.chars() {
        digits.push(hex_digit(c).ok_or_else(|| bad(format!("{c:?} is not a digit (0 to F)")))?);
    }
    let repeat = repeat.filter(|&r| r != 0);
    if repeat.is_none() {
        while digits.last() == Some(&0) {
            digits.pop();
        }
    }
    if d0 & 0xC == 0 && digits.iter().all(|&d| d == 0) && repeat.is_none() {
        return Err(bad("no digit allows a move".into()));
    }
    Ok(Kind::Code {
        d0: d0 & 0xC,
        digits,
        repeat,
    })
}

impl FromStr for HeapCode {
    type Err = NotationError;
    /// Reads the rules text of the module documentation.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = |m: String| NotationError::new(WHAT, s, m);
        let t = s.trim();
        let (body, misere) = match t.strip_suffix("misere") {
            Some(b) => (b.trim_end(), true),
            None => (t, false),
        };
        let kind = if let Some(set) = body.strip_prefix("subtract ") {
            match set.trim() {
                "powers-of-two" => Kind::Subtract(Amounts::PowersOfTwo),
                "fibonacci" => Kind::Subtract(Amounts::Fibonacci),
                list => {
                    if list.len() > MAX_SET * 21 {
                        return Err(bad(format!("more than {MAX_SET} amounts")));
                    }
                    let mut v: Vec<u64> =
                        crate::parse_list("subtraction set", list).map_err(|e| bad(e.reason))?;
                    if v.contains(&0) {
                        return Err(bad("an amount is at least 1".into()));
                    }
                    v.sort_unstable();
                    v.dedup();
                    if v.is_empty() {
                        return Err(bad("the set is empty".into()));
                    }
                    if v.len() > MAX_SET {
                        return Err(bad(format!("more than {MAX_SET} amounts")));
                    }
                    Kind::Subtract(Amounts::List(v))
                }
            }
        } else if let Some(r) = body.strip_prefix("range ") {
            let (p, q) = r
                .split_once("..")
                .ok_or_else(|| bad("a range is `range p..q`".into()))?;
            let p: u64 = p.trim().parse().map_err(|e| bad(format!("p: {e}")))?;
            let q: u64 = q.trim().parse().map_err(|e| bad(format!("q: {e}")))?;
            if p == 0 || p > q {
                return Err(bad("a range needs 1 <= p <= q".into()));
            }
            Kind::Range(p, q)
        } else if body == "split-unequal" {
            Kind::SplitUnequal
        } else {
            parse_code(s, body)?
        };
        Ok(HeapCode { kind, misere })
    }
}

impl fmt::Display for PartsMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}=", self.heap, self.take)?;
        let mut first = true;
        for p in self.left() {
            if !first {
                f.write_str("+")?;
            }
            write!(f, "{p}")?;
            first = false;
        }
        if first {
            f.write_str("0")?;
        }
        Ok(())
    }
}

impl FromStr for PartsMove {
    type Err = NotationError;
    /// Reads `heap:k=a+b+c` (one to three parts, or `0` for nothing left).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "heap move";
        let bad = |m: &str| NotationError::new(WHAT, s, m);
        let (h, rest) = s
            .split_once(':')
            .ok_or_else(|| bad("expected heap:k=parts"))?;
        let (k, parts) = rest
            .split_once('=')
            .ok_or_else(|| bad("expected heap:k=parts"))?;
        let heap = h.trim().parse().map_err(|_| bad("heap: not a number"))?;
        let take = k.trim().parse().map_err(|_| bad("k: not a number"))?;
        let mut v: Vec<u64> = Vec::new();
        for p in parts.split('+') {
            v.push(
                p.trim()
                    .parse()
                    .map_err(|_| bad("a part is not a number"))?,
            );
        }
        if v == [0] {
            v.clear();
        }
        if v.len() > 3 || v.contains(&0) {
            return Err(bad("one to three non-empty parts, or 0"));
        }
        if v.windows(2).any(|w| w[0] > w[1]) {
            return Err(bad("write the parts smallest first"));
        }
        let mut p = [0u64; 3];
        p[3 - v.len()..].copy_from_slice(&v);
        Ok(PartsMove {
            heap,
            take,
            parts: p,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::plus_heap::grundy_by_search;
    use crate::Solver;

    fn rules(s: &str) -> HeapCode {
        s.parse().unwrap()
    }

    fn grundy(r: &HeapCode, n: u64) -> u64 {
        grundy_by_search(r, &Piles(vec![n]), 32).unwrap().unwrap()
    }

    #[test]
    fn kayles_and_dawson_by_verdicts() {
        // OEIS A002186 (Kayles, 0.77) and A002187 (Dawson's chess, 0.137), n = 0..=15,
        // measured through verdicts alone (plus a Nim heap).
        let kayles = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7];
        let dawson = [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5];
        for n in 0..16 {
            assert_eq!(grundy(&rules("0.77"), n), kayles[n as usize], "0.77 {n}");
            assert_eq!(grundy(&rules("0.137"), n), dawson[n as usize], "0.137 {n}");
        }
    }

    #[test]
    fn lasker_and_three_way_split() {
        // Lasker's Nim 4.[3]: 0,1,2,4,3,5,6,8,7 (SG(4k+3) = 4k+4, SG(4k+4) = 4k+3).
        let want = [0, 1, 2, 4, 3, 5, 6, 8, 7];
        for (n, &g) in want.iter().enumerate() {
            assert_eq!(grundy(&rules("4.[3]"), n as u64), g, "4.[3] {n}");
        }
        // 8.[3] (hdu5795): g(8k) = 8k - 1, g(8k + 7) = 8k + 8, else g(x) = x.
        let want = [0, 1, 2, 3, 4, 5, 6, 8, 7, 9];
        for (n, &g) in want.iter().enumerate() {
            assert_eq!(grundy(&rules("8.[3]"), n as u64), g, "8.[3] {n}");
        }
    }

    #[test]
    fn moves_from_the_text() {
        let mut out = Vec::new();
        rules("0.F").moves(&Piles(vec![5]), &mut out);
        let text: Vec<String> = out.iter().map(|(m, p)| format!("{m}>{p}")).collect();
        assert_eq!(
            text,
            ["0:1=4>4", "0:1=1+3>1,3", "0:1=2+2>2,2", "0:1=1+1+2>1,1,2"]
        );
        let mut out = Vec::new();
        rules("split-unequal").moves(&Piles(vec![6, 2]), &mut out);
        let text: Vec<String> = out.iter().map(|(m, _)| m.to_string()).collect();
        assert_eq!(text, ["0:0=1+5", "0:0=2+4"]);
        let mut out = Vec::new();
        rules("subtract fibonacci").moves(&Piles(vec![6]), &mut out);
        let text: Vec<String> = out.iter().map(|(m, _)| m.to_string()).collect();
        assert_eq!(text, ["0:1=5", "0:2=4", "0:3=3", "0:5=1"]);
        let mut out = Vec::new();
        rules("range 2..3").moves(&Piles(vec![3]), &mut out);
        let text: Vec<String> = out.iter().map(|(m, _)| m.to_string()).collect();
        assert_eq!(text, ["0:2=1", "0:3=0"]);
    }

    #[test]
    fn misere_ending() {
        // Misère Nim (0.[3] misere): one heap of 1 loses, 1,1 wins, 2 wins.
        let r = rules("0.[3] misere");
        let mut s = Solver::new(r);
        assert!(!s.analyze(&Piles(vec![1])).unwrap().win);
        assert!(s.analyze(&Piles(vec![1, 1])).unwrap().win);
        assert!(s.analyze(&Piles(vec![2])).unwrap().win);
        assert!(s.analyze(&Piles(vec![])).unwrap().win);
    }

    #[test]
    fn notation() {
        for s in [
            "0.77",
            "0.137",
            "4.[3]",
            "0.F",
            "8.[3] misere",
            "subtract 1,3,4",
            "subtract powers-of-two",
            "range 2..5",
            "split-unequal",
        ] {
            assert_eq!(rules(s).to_string(), s);
        }
        assert_eq!(rules("0.770").to_string(), "0.77");
        assert_eq!(rules("0.f").to_string(), "0.F");
        for s in [
            "",
            "0.",
            "0.0",
            "0.G",
            "10.7",
            "0.[",
            "0.[3",
            "0.[33]",
            "0.[3]3",
            "0.7]",
            "subtract ",
            "subtract 0,1",
            "range 3..2",
            "range 0..1",
            "x.7",
        ] {
            assert!(s.parse::<HeapCode>().is_err(), "{s:?}");
        }
        let long = format!("0.{}", "7".repeat(MAX_DIGITS + 10));
        assert!(long.parse::<HeapCode>().is_err());
        for s in ["0:2=1+3", "3:1=0", "0:0=1+1+2"] {
            assert_eq!(s.parse::<PartsMove>().unwrap().to_string(), s);
        }
        for s in ["0:1=3+1", "0:1", "0:1=1+1+1+1", "0:1=0+2"] {
            assert!(s.parse::<PartsMove>().is_err(), "{s}");
        }
    }
}

//! Octal games: take tokens from a heap and maybe split what is left, as a code says.
//!
//! Rules (game `octal`; Berlekamp, Conway and Guy, *Winning Ways*, chapter 4): a
//! position is a row of heaps. The rules are a code `0.d1d2d3...` of octal digits; a
//! move chooses one heap and a removal size k with a digit d_k, removes k tokens from
//! the heap, and leaves what remains as
//! - no heap at all, allowed when bit 1 of d_k is set (the heap had exactly k tokens);
//! - one heap, allowed when bit 2 of d_k is set (at least one token remains);
//! - two non-empty heaps, allowed when bit 4 of d_k is set (at least two remain).
//!
//! Normal play: the player with no move loses. Kayles is `0.77`, Dawson's chess
//! `0.137`, Dawson's Kayles `0.07`; painting m consecutive beads of a row (hdu3980
//! after its first move) is the code whose only digit is d_m = 7.
//!
//! A move that leaves two heaps `a + b` of a heap at index `h` keeps the smaller part
//! `a` at index `h` and inserts the larger part `b` right after it (later heaps move one
//! place right); leaving `a + b` and `b + a` is one move. A move that leaves one heap
//! leaves it at index `h`; a move that leaves nothing leaves an empty heap (0) at `h`,
//! as a Nim take of a whole pile does.
//!
//! Notation: a position is its heaps, comma-separated (`5,3`; `-` for none), as in Nim
//! ([`Piles`]). A move is `heap:k=a+b` with `a <= b` the heaps left (`0:2=1+3` leaves
//! two heaps, `0:2=0+3` one heap of 3, `0:2=0+0` nothing). The rules are the code
//! (`0.77`); trailing zero digits are dropped.
//! Canonical move order: by heap, then by the number k removed, then by the size of the
//! left (smaller) remainder, ascending: the derived order of [`OctalMove`].

use crate::games::nim::Piles;
use crate::{NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// Most digits a code may have. Painting m consecutive beads needs m digits, and the
/// contest problem that does it allows m up to 1000.
pub const MAX_DIGITS: usize = 4096;

/// The rules of an octal game: its code.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Octal {
    /// `digits[k - 1]` is d_k; at least one digit, the last one non-zero, each 0..=7.
    digits: Vec<u8>,
}

impl Octal {
    /// The game with the digits `d1, d2, ...` (trailing zeros are dropped). Fails when a
    /// digit is above 7, when no digit is non-zero (no move would ever be legal), or
    /// when there are more than [`MAX_DIGITS`] digits.
    pub fn new(digits: Vec<u8>) -> Result<Self, NotationError> {
        let text: String = digits
            .iter()
            .take(64)
            .map(|d| char::from(b'0' + d.min(&9)))
            .collect();
        let text = format!("0.{text}");
        if let Some(bad) = digits.iter().find(|&&d| d > 7) {
            return Err(NotationError::new(
                "octal code",
                &text,
                format!("digit {bad} is not octal (0 to 7)"),
            ));
        }
        let mut digits = digits;
        while digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.is_empty() {
            return Err(NotationError::new(
                "octal code",
                &text,
                "every digit is 0: no move is ever legal",
            ));
        }
        if digits.len() > MAX_DIGITS {
            return Err(NotationError::new(
                "octal code",
                &format!("0.{}...", digits.len()),
                format!("more than {MAX_DIGITS} digits"),
            ));
        }
        Ok(Octal { digits })
    }

    /// The code of painting `m` consecutive tokens of a row: d_m = 7, every other digit 0
    /// (the line game of hdu3980). Fails for m = 0 or m above [`MAX_DIGITS`].
    pub fn single(m: usize) -> Result<Self, NotationError> {
        if m == 0 {
            return Err(NotationError::new(
                "octal code",
                "0.",
                "a move removes at least one token",
            ));
        }
        let mut d = vec![0; m];
        d[m - 1] = 7;
        Octal::new(d)
    }

    /// The digits d1, d2, ..., dt (t = [`Octal::max_take`]).
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// The digit d_k (0 for k = 0 and for k beyond the code).
    pub fn digit(&self, k: u64) -> u8 {
        if k == 0 {
            return 0;
        }
        usize::try_from(k - 1)
            .ok()
            .and_then(|i| self.digits.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// t, the largest number of tokens a move removes (the number of digits).
    pub fn max_take(&self) -> u64 {
        self.digits.len() as u64
    }
}

/// One move of an octal game: remove `take` tokens from heap `heap`, leaving the heaps
/// `left` and `right` (`left <= right`; 0 stands for no heap). Derived order: heap,
/// take, left, right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OctalMove {
    /// Index of the heap, from 0.
    pub heap: usize,
    /// Tokens removed (k, at least 1).
    pub take: u64,
    /// The smaller heap left (0 when at most one heap is left).
    pub left: u64,
    /// The larger heap left (0 when none is left).
    pub right: u64,
}

impl Rules for Octal {
    type Position = Piles;
    type Move = OctalMove;

    /// Per heap of n and removal k: at most two moves plus (n - k) / 2 splits.
    fn move_bound(&self, pos: &Piles) -> Option<u64> {
        let t = self.max_take();
        Some(pos.0.iter().fold(0u64, |a, &n| {
            a.saturating_add(t.min(n).saturating_mul(2 + n / 2))
        }))
    }

    fn moves(&self, pos: &Piles, out: &mut Vec<(OctalMove, Piles)>) {
        for (heap, &n) in pos.0.iter().enumerate() {
            for take in 1..=n.min(self.max_take()) {
                let d = self.digit(take);
                let rest = n - take;
                let mut push = |left: u64, right: u64| {
                    let mut next = pos.clone();
                    if left == 0 {
                        next.0[heap] = right;
                    } else {
                        next.0[heap] = left;
                        next.0.insert(heap + 1, right);
                    }
                    out.push((
                        OctalMove {
                            heap,
                            take,
                            left,
                            right,
                        },
                        next,
                    ));
                };
                // Bit 1: nothing left, only when the heap had exactly k tokens.
                if rest == 0 && d & 1 != 0 {
                    push(0, 0);
                }
                // Bit 2: one heap of the rest.
                if rest >= 1 && d & 2 != 0 {
                    push(0, rest);
                }
                // Bit 4: two non-empty heaps, the smaller first.
                if rest >= 2 && d & 4 != 0 {
                    for left in 1..=rest / 2 {
                        push(left, rest - left);
                    }
                }
            }
        }
    }

    /// Reordering heaps changes nothing in the rules, so positions are remembered with
    /// their heaps sorted.
    fn key(&self, pos: &Piles) -> Piles {
        let mut k = pos.clone();
        k.0.sort_unstable();
        k
    }

    /// The moves of [`Rules::moves`], their children built in one buffer: a move
    /// changes one heap and, when it leaves two, inserts the larger one after it
    /// (removed again after).
    fn for_each_move<F: FnMut(Self::Move, &Piles)>(&self, pos: &Piles, mut f: F) {
        let mut next = pos.clone();
        for (heap, &n) in pos.0.iter().enumerate() {
            self.moves_of_heap(&mut next, heap, n, &mut |left, right, take, c| {
                f(
                    OctalMove {
                        heap,
                        take,
                        left,
                        right,
                    },
                    c,
                )
            });
            next.0[heap] = n;
        }
    }

    /// The children of [`Rules::for_each_move`], a heap's only when no earlier heap
    /// has its size (equal heaps give the same children up to order, so the same
    /// keys).
    fn for_each_child<F: FnMut(&Piles)>(&self, pos: &Piles, mut f: F) {
        let mut next = pos.clone();
        for (heap, &n) in pos.0.iter().enumerate() {
            if pos.0[..heap].contains(&n) {
                continue;
            }
            self.moves_of_heap(&mut next, heap, n, &mut |_, _, _, c| f(c));
            next.0[heap] = n;
        }
    }

    /// The sorted heaps (the key), packed when they fit: by count when every heap is
    /// below 16 (no sort needed), sorted otherwise.
    fn packed_key(&self, pos: &Piles) -> Option<u128> {
        crate::pack::pack_multiset(0, None, pos.0.iter().copied())
            .or_else(|| crate::pack::pack_sorted(0, &pos.0))
    }

    /// The heaps that have a move, packed like [`Rules::packed_key`]: a heap without
    /// a move never gets one (no move changes another heap), so positions that
    /// differ only in such heaps have the same moves on the others, to positions that
    /// again differ only in them.
    fn symmetric_key(&self, pos: &Piles) -> Option<u128> {
        crate::games::grundy::live_key(pos.0.iter().copied().filter(|&n| self.has_move(n)))
    }

    fn position_bytes(&self, pos: &Piles) -> usize {
        std::mem::size_of::<Piles>() + pos.0.len() * std::mem::size_of::<u64>()
    }
}

impl Octal {
    /// Whether a heap of `n` tokens has a move: some k <= n whose digit allows what
    /// removing k leaves (nothing, one heap, or two non-empty heaps).
    fn has_move(&self, n: u64) -> bool {
        (1..=n.min(self.max_take())).any(|k| {
            let d = self.digit(k);
            (n == k && d & 1 != 0) || (n > k && d & 2 != 0) || (n >= k + 2 && d & 4 != 0)
        })
    }

    /// Every move on heap `heap` (of `n` tokens) of `next`, as (left, right, take, the
    /// child in `next`), the same moves as [`Rules::moves`] lists for that heap. `next`
    /// holds the position on entry; its heap `heap` is left changed.
    fn moves_of_heap(
        &self,
        next: &mut Piles,
        heap: usize,
        n: u64,
        f: &mut impl FnMut(u64, u64, u64, &Piles),
    ) {
        for take in 1..=n.min(self.max_take()) {
            let d = self.digit(take);
            let rest = n - take;
            if rest == 0 && d & 1 != 0 {
                next.0[heap] = 0;
                f(0, 0, take, next);
            }
            if rest >= 1 && d & 2 != 0 {
                next.0[heap] = rest;
                f(0, rest, take, next);
            }
            if rest >= 2 && d & 4 != 0 {
                for left in 1..=rest / 2 {
                    next.0[heap] = left;
                    next.0.insert(heap + 1, rest - left);
                    f(left, rest - left, take, next);
                    next.0.remove(heap + 1);
                }
            }
        }
    }
}

impl fmt::Display for Octal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("0.")?;
        for d in &self.digits {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl FromStr for Octal {
    type Err = NotationError;
    /// Reads `0.d1d2...` (also `.d1d2...`), each digit 0 to 7.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "octal code";
        let t = s.trim();
        let body = t
            .strip_prefix("0.")
            .or_else(|| t.strip_prefix('.'))
            .ok_or_else(|| NotationError::new(WHAT, s, "expected 0.d1d2... (e.g. 0.77)"))?;
        if body.len() > MAX_DIGITS + 64 {
            return Err(NotationError::new(
                WHAT,
                &s[..32.min(s.len())],
                format!("more than {MAX_DIGITS} digits"),
            ));
        }
        let digits = body
            .chars()
            .map(|c| match c {
                '0'..='7' => Ok(c as u8 - b'0'),
                _ => Err(NotationError::new(
                    WHAT,
                    s,
                    format!("{c:?} is not an octal digit (0 to 7)"),
                )),
            })
            .collect::<Result<Vec<u8>, _>>()?;
        Octal::new(digits).map_err(|e| NotationError::new(WHAT, s, e.reason))
    }
}

impl fmt::Display for OctalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}={}+{}",
            self.heap, self.take, self.left, self.right
        )
    }
}

impl FromStr for OctalMove {
    type Err = NotationError;
    /// Reads `heap:k=a+b` with k at least 1, `a <= b`, and `a = 0` unless both heaps
    /// are non-empty.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "octal move";
        let num = |field: &str, t: &str| -> Result<u64, NotationError> {
            t.trim()
                .parse()
                .map_err(|e| NotationError::new(WHAT, s, format!("{field}: {e}")))
        };
        let (h, rest) = s
            .split_once(':')
            .ok_or_else(|| NotationError::new(WHAT, s, "expected heap:k=a+b"))?;
        let (k, parts) = rest
            .split_once('=')
            .ok_or_else(|| NotationError::new(WHAT, s, "expected heap:k=a+b"))?;
        let (a, b) = parts
            .split_once('+')
            .ok_or_else(|| NotationError::new(WHAT, s, "expected heap:k=a+b"))?;
        let heap = h
            .trim()
            .parse()
            .map_err(|e| NotationError::new(WHAT, s, format!("heap: {e}")))?;
        let (take, left, right) = (num("k", k)?, num("a", a)?, num("b", b)?);
        if take == 0 {
            return Err(NotationError::new(
                WHAT,
                s,
                "a move removes at least one token",
            ));
        }
        if left > right {
            return Err(NotationError::new(WHAT, s, "write the smaller heap first"));
        }
        Ok(OctalMove {
            heap,
            take,
            left,
            right,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::plus_heap::grundy_by_search;
    use crate::Solver;

    fn code(s: &str) -> Octal {
        s.parse().unwrap()
    }

    fn grundy(rules: &Octal, n: u64) -> u64 {
        grundy_by_search(rules, &Piles(vec![n]), 16)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn kayles_values_oeis_a002186() {
        // OEIS A002186 (Kayles), n = 0..=20: measured through verdicts alone.
        let want = [
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1,
        ];
        let k = code("0.77");
        for (n, &g) in want.iter().enumerate() {
            assert_eq!(grundy(&k, n as u64), g, "n={n}");
        }
    }

    #[test]
    fn dawsons_chess_values_oeis_a002187() {
        // OEIS A002187 (Dawson's chess, 0.137), n = 0..=20.
        let want = [
            0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0,
        ];
        let d = code("0.137");
        for (n, &g) in want.iter().enumerate() {
            assert_eq!(grundy(&d, n as u64), g, "n={n}");
        }
        // 0.07 (Dawson's Kayles) is the same sequence shifted by one:
        // g_0.07(n + 1) = g_0.137(n).
        let dk = code("0.07");
        for (n, &g) in want.iter().enumerate().take(16) {
            assert_eq!(grundy(&dk, n as u64 + 1), g, "n={n}");
        }
    }

    #[test]
    fn moves_and_order() {
        // 0.137 on a heap of 5: k=1 (d=1) only when the heap is 1: nothing here;
        // k=2 (d=3): one heap of 3; k=3 (d=7): one heap of 2, or 1+1.
        let mut out = Vec::new();
        code("0.137").moves(&"5".parse().unwrap(), &mut out);
        let text: Vec<String> = out.iter().map(|(m, p)| format!("{m}>{p}")).collect();
        assert_eq!(text, ["0:2=0+3>3", "0:3=0+2>2", "0:3=1+1>1,1"]);
        // Kayles on 4,1: k=1 from 4 leaves 3 or 1+2; k=2 leaves 2 or 1+1; the heap of 1
        // can only be taken whole (k = 1, nothing left); k = 2 would need 2 tokens.
        let mut out = Vec::new();
        code("0.77").moves(&"4,1".parse().unwrap(), &mut out);
        let text: Vec<String> = out.iter().map(|(m, p)| format!("{m}>{p}")).collect();
        assert_eq!(
            text,
            [
                "0:1=0+3>3,1",
                "0:1=1+2>1,2,1",
                "0:2=0+2>2,1",
                "0:2=1+1>1,1,1",
                "1:1=0+0>4,0"
            ]
        );
        let moves: Vec<OctalMove> = out.iter().map(|(m, _)| *m).collect();
        let mut sorted = moves.clone();
        sorted.sort();
        assert_eq!(moves, sorted);
        // Heap 0 of 2 with 0.4 (only splitting after taking 1): none (1 token left).
        let mut out = Vec::new();
        code("0.4").moves(&"2".parse().unwrap(), &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn single_digit_code_paints_a_row() {
        // d_3 = 7: a row of 7 painted 3 at a time: leaves 4, 1+3 or 2+2.
        let r = Octal::single(3).unwrap();
        assert_eq!(r.to_string(), "0.007");
        let mut out = Vec::new();
        r.moves(&"7".parse().unwrap(), &mut out);
        let text: Vec<String> = out.iter().map(|(m, _)| m.to_string()).collect();
        assert_eq!(text, ["0:3=0+4", "0:3=1+3", "0:3=2+2"]);
        assert!(Octal::single(0).is_err());
        // A row of 3 painted 3 at a time: one move, to nothing: won.
        let a = Solver::new(r).analyze(&"3".parse().unwrap()).unwrap();
        assert_eq!(a.winning.len(), 1);
    }

    #[test]
    fn notation_round_trip() {
        for s in ["0.77", "0.137", "0.07", "0.4", "0.0007"] {
            assert_eq!(code(s).to_string(), s);
        }
        assert_eq!(code("0.770").to_string(), "0.77");
        assert_eq!(code(".6").to_string(), "0.6");
        assert_eq!(code("0.137").digit(3), 7);
        assert_eq!(code("0.137").digit(4), 0);
        assert_eq!(code("0.137").digit(0), 0);
        for s in ["", "0.", "0.0", "0.8", "1.7", "077", "0.7x", "0.-1"] {
            assert!(s.parse::<Octal>().is_err(), "{s}");
        }
        let long = format!("0.{}", "0".repeat(MAX_DIGITS) + "7");
        assert!(long.parse::<Octal>().is_err());
        for s in ["0:2=1+3", "3:1=0+0", "0:2=0+3"] {
            assert_eq!(s.parse::<OctalMove>().unwrap().to_string(), s);
        }
        for s in ["0:0=0+0", "0:1=3+1", "0:1", "0=1+2", "x:1=0+0"] {
            assert!(s.parse::<OctalMove>().is_err(), "{s}");
        }
    }

    #[test]
    fn edges() {
        // No heaps, or empty heaps: no move, lost at once.
        for s in ["-", "0", "0,0"] {
            let a = Solver::new(code("0.77"))
                .analyze(&s.parse().unwrap())
                .unwrap();
            assert!(!a.win, "{s}");
        }
        // Kayles: two equal heaps lose (mirror play).
        let a = Solver::new(code("0.77"))
            .analyze(&"3,3".parse().unwrap())
            .unwrap();
        assert!(!a.win);
    }
}

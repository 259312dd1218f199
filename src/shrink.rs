//! Shrinking helpers for [`crate::Game::shrink`]: smaller numbers, shorter lists, smaller
//! sets, each list of candidates smallest first.
//!
//! Small numbers are shrunk to *every* smaller value, not only to the floor, the half
//! and one less: a bug that shows only on even piles (a Lasker solver that forgets the
//! split of a pile into two equal halves) fails on 6 but not on 3 or 5, and a shrinker
//! that jumps from 6 to 3 and 5 stops at 6, while trying 2 finds the minimal pile.

/// Numbers up to this distance above the floor shrink to every smaller value.
pub const SMALL: u64 = 64;

/// Candidates smaller than `x`, at least `floor`, smallest first: every value in
/// `floor..x` when `x - floor` is at most [`SMALL`], otherwise the floor, values
/// halving the distance to `x`, and the [`SMALL`] values just below `x`.
///
/// ```
/// use sgcheck::shrink::number;
/// assert_eq!(number(6, 0), vec![0, 1, 2, 3, 4, 5]);
/// assert_eq!(number(3, 1), vec![1, 2]);
/// assert!(number(0, 0).is_empty());
/// let big = number(1_000_000, 0);
/// assert_eq!(big[..3], [0, 500_000, 750_000]);
/// assert_eq!(*big.last().unwrap(), 999_999);
/// ```
pub fn number(x: u64, floor: u64) -> Vec<u64> {
    if x <= floor {
        return Vec::new();
    }
    if x - floor <= SMALL {
        return (floor..x).collect();
    }
    let mut out = vec![floor];
    let mut gap = (x - floor) / 2;
    while gap > SMALL {
        out.push(x - gap);
        gap /= 2;
    }
    out.extend(x - SMALL..x);
    out.dedup();
    out
}

/// Lists up to this length shrink by dropping any two elements; longer ones by
/// dropping two neighbours.
pub const PAIRS: usize = 12;

/// Smaller lists, largest steps first: each element alone (for lists of four or more
/// elements, when one element is allowed), two elements dropped, then one (never below
/// `min_len` elements), then each element lowered through [`number`] (values at least
/// `floor`).
///
/// Dropping two elements at once matters for games that are sums: two equal components
/// cancel, so a bug that shows on the pile 2 alone may also show on `1,2,1,1,1` but on
/// none of the lists with one pile fewer or one pile lower.
///
/// ```
/// use sgcheck::shrink::list;
/// assert_eq!(
///     list(&[2, 1], 0, 0),
///     vec![vec![], vec![1], vec![2], vec![0, 1], vec![1, 1], vec![2, 0]]
/// );
/// ```
pub fn list(v: &[u64], min_len: usize, floor: u64) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    // A greedy shrinker (quickcheck's) can stall on a long list where no single or
    // double removal still fails while one element alone does: offer those first.
    if v.len() >= 4 && min_len <= 1 {
        out.extend(v.iter().map(|&x| vec![x]));
    }
    if v.len() >= min_len + 2 {
        for i in 0..v.len() {
            for j in i + 1..v.len() {
                if v.len() > PAIRS && j > i + 1 {
                    break;
                }
                let mut w = v.to_vec();
                w.remove(j);
                w.remove(i);
                out.push(w);
            }
        }
    }
    if v.len() > min_len {
        for i in 0..v.len() {
            let mut w = v.to_vec();
            w.remove(i);
            out.push(w);
        }
    }
    for i in 0..v.len() {
        for y in number(v[i], floor) {
            let mut w = v.to_vec();
            w[i] = y;
            out.push(w);
        }
    }
    out
}

/// Smaller sets of positive values (sorted, distinct, never empty): an element
/// dropped or lowered, each result sorted and deduplicated.
///
/// ```
/// use sgcheck::shrink::set;
/// assert_eq!(set(&[1, 3]), vec![vec![3], vec![1], vec![1, 2]]);
/// assert_eq!(set(&[1, 2, 3])[0], vec![3]);
/// ```
pub fn set(v: &[u64]) -> Vec<Vec<u64>> {
    let mut out: Vec<Vec<u64>> = Vec::new();
    for mut w in list(v, 1, 1) {
        w.sort_unstable();
        w.dedup();
        if !w.is_empty() && w != v && !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// Game-aware candidates for a sum of components: `values[i]` the Grundy value of
/// component `i` of `v`. Each candidate drops components whose values XOR to 0 (so
/// the XOR of the rest, the true answer, stays): every zero-valued component at once,
/// every equal-valued pair at once, then each pair and each triple whose values XOR to
/// 0 (triples only in lists of at most 64). At least `min_len` components are kept.
pub fn xor_zero_drops(v: &[u64], values: &[u64], min_len: usize) -> Vec<Vec<u64>> {
    let n = v.len().min(values.len());
    let mut out: Vec<Vec<u64>> = Vec::new();
    let push = |drop: &dyn Fn(usize) -> bool, out: &mut Vec<Vec<u64>>| {
        let w: Vec<u64> = (0..n).filter(|&i| !drop(i)).map(|i| v[i]).collect();
        if w.len() < n && w.len() >= min_len && !out.contains(&w) {
            out.push(w);
        }
    };
    push(&|i| values[i] == 0, &mut out);
    // Equal-valued pairs: the first two of each value, the next two, ...
    let mut paired = vec![false; n];
    let mut open: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    for i in 0..n {
        if let Some(j) = open.remove(&values[i]) {
            paired[i] = true;
            paired[j] = true;
        } else {
            open.insert(values[i], i);
        }
    }
    push(&|i| paired[i], &mut out);
    for a in 0..n {
        for b in a + 1..n {
            if values[a] == values[b] {
                push(&|i| i == a || i == b, &mut out);
            }
        }
    }
    if n <= 64 {
        for a in 0..n {
            for b in a + 1..n {
                for c in b + 1..n {
                    if values[a] ^ values[b] ^ values[c] == 0 {
                        push(&|i| i == a || i == b || i == c, &mut out);
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_shrink_to_every_smaller_small_value() {
        assert_eq!(number(SMALL, 0).len() as u64, SMALL);
        let big = number(10_000, 5);
        assert_eq!(big[0], 5);
        assert!(big.windows(2).all(|w| w[0] < w[1]), "ascending, no repeats");
        assert!(big.iter().all(|&y| (5..10_000).contains(&y)));
    }
}

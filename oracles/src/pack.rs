//! Packed keys: a small position's memo key as one `u128`.
//!
//! Hashing and comparing a `u128` costs a few instructions, where a key held in a
//! `Vec` costs an allocation to build and a loop to hash. [`pack_values`] writes a short
//! list of small numbers, in the order given, into 128 bits so that different lists
//! (or different tags) always give different numbers: the header holds the tag, the
//! width of every value and the list's length, so the packing can be read back
//! ([`unpack_values`], used by the tests to show it is injective).
//!
//! Layout, from the lowest bit: 3 bits of tag, 3 bits of width selector (values of 4,
//! 8, 16, 32 or 64 bits, the smallest that holds every value), 5 bits of length, then
//! the values, first value lowest. 117 bits remain for values: up to 29 values below
//! 16, 14 below 256, 7 below 65536, 3 below 2^32, or one of any size.

const TAG_BITS: u32 = 3;
const SEL_BITS: u32 = 3;
const LEN_BITS: u32 = 5;
const HEADER: u32 = TAG_BITS + SEL_BITS + LEN_BITS;
const WIDTHS: [u32; 5] = [4, 8, 16, 32, 64];

/// The most values [`pack_values`] can hold (all below 16).
pub const MAX_PACKED_VALUES: usize = ((128 - HEADER) / 4) as usize;

/// Packs `values` (in the order given) and a `tag` below 8 into one `u128`, or `None`
/// when they do not fit. Equal inputs give equal outputs; different inputs (different
/// tags, lengths or values) give different outputs.
pub fn pack_values(tag: u8, values: &[u64]) -> Option<u128> {
    if tag >= 1 << TAG_BITS || values.len() > MAX_PACKED_VALUES {
        return None;
    }
    let max = values.iter().copied().max().unwrap_or(0);
    let (sel, width) = WIDTHS
        .iter()
        .enumerate()
        .find(|&(_, &w)| w == 64 || max < 1u64 << w)
        .map(|(i, &w)| (i as u128, w))?;
    if values.len() as u32 * width > 128 - HEADER {
        return None;
    }
    let mut out = tag as u128 | sel << TAG_BITS | (values.len() as u128) << (TAG_BITS + SEL_BITS);
    for (i, &v) in values.iter().enumerate() {
        out |= (v as u128) << (HEADER + i as u32 * width);
    }
    Some(out)
}

/// Sorts `values` (at most [`MAX_PACKED_VALUES`] of them, copied to the stack) and
/// packs them: the packed key of a multiset, for games whose piles can be reordered.
pub fn pack_sorted(tag: u8, values: &[u64]) -> Option<u128> {
    if values.len() > MAX_PACKED_VALUES {
        return None;
    }
    let mut buf = [0u64; MAX_PACKED_VALUES];
    let buf = &mut buf[..values.len()];
    buf.copy_from_slice(values);
    buf.sort_unstable();
    pack_values(tag, buf)
}

/// The selector of [`pack_multiset`]'s layout (beyond every width of [`WIDTHS`]).
const SEL_COUNTS: usize = 5;
/// Values below this go by count in [`pack_multiset`].
const COUNT_VALUES: usize = 16;

/// Packs a multiset of values below 16 (at most 31 of each), and optionally one `head`
/// value below 16 kept apart, without sorting: the count of each value takes 5 bits.
/// `None` when a value does not fit. Injective like [`pack_values`], whose outputs it
/// never meets (its selector field holds a value [`pack_values`] never writes).
///
/// Layout: 3 bits of tag, 3 bits of selector (5), 1 bit "has a head", 4 bits of head,
/// then 16 counts of 5 bits, count of value 0 lowest.
pub fn pack_multiset(
    tag: u8,
    head: Option<u64>,
    values: impl Iterator<Item = u64>,
) -> Option<u128> {
    if tag >= 1 << TAG_BITS {
        return None;
    }
    let mut counts = [0u8; COUNT_VALUES];
    for v in values {
        let c = counts
            .get_mut(v as usize)
            .filter(|_| v < COUNT_VALUES as u64)?;
        if *c == 31 {
            return None;
        }
        *c += 1;
    }
    let mut out = tag as u128 | (SEL_COUNTS as u128) << TAG_BITS;
    if let Some(h) = head {
        if h >= COUNT_VALUES as u64 {
            return None;
        }
        out |= 1 << 6 | (h as u128) << 7;
    }
    for (v, &c) in counts.iter().enumerate() {
        out |= (c as u128) << (11 + 5 * v);
    }
    Some(out)
}

/// Reads back what [`pack_values`] wrote: the tag and the values. For what
/// [`pack_multiset`] wrote: the tag, and the head (if any) followed by the values in
/// ascending order.
pub fn unpack_values(packed: u128) -> (u8, Vec<u64>) {
    let tag = (packed & ((1 << TAG_BITS) - 1)) as u8;
    let sel = ((packed >> TAG_BITS) & ((1 << SEL_BITS) - 1)) as usize;
    if sel == SEL_COUNTS {
        let mut values = Vec::new();
        if packed >> 6 & 1 == 1 {
            values.push((packed >> 7 & 15) as u64);
        }
        for v in 0..COUNT_VALUES {
            let c = (packed >> (11 + 5 * v)) & 31;
            values.extend(std::iter::repeat_n(v as u64, c as usize));
        }
        return (tag, values);
    }
    let len = ((packed >> (TAG_BITS + SEL_BITS)) & ((1 << LEN_BITS) - 1)) as u32;
    let width = WIDTHS[sel.min(WIDTHS.len() - 1)];
    let mask = if width == 64 {
        u64::MAX as u128
    } else {
        (1u128 << width) - 1
    };
    let values = (0..len)
        .map(|i| ((packed >> (HEADER + i * width)) & mask) as u64)
        .collect();
    (tag, values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_limits() {
        for (tag, v) in [
            (0u8, vec![]),
            (1, vec![0]),
            (7, vec![15; 29]),
            (2, vec![255; 14]),
            (3, vec![1, 65535, 0, 7, 7, 7, 9]),
            (4, vec![u32::MAX as u64, 0, 5]),
            (5, vec![u64::MAX]),
        ] {
            let p = pack_values(tag, &v).unwrap_or_else(|| panic!("{tag} {v:?}"));
            assert_eq!(unpack_values(p), (tag, v));
        }
        assert_eq!(pack_values(8, &[]), None);
        assert_eq!(pack_values(0, &[15; 30]), None);
        assert_eq!(pack_values(0, &[16; 15]), None);
        assert_eq!(pack_values(0, &[256; 8]), None);
        assert_eq!(pack_values(0, &[1 << 32, 0]), None);
        assert_eq!(pack_sorted(1, &[3, 1, 2]), pack_values(1, &[1, 2, 3]));
    }

    #[test]
    fn multisets() {
        let a = pack_multiset(2, None, [3u64, 1, 3, 0].into_iter()).unwrap();
        assert_eq!(
            a,
            pack_multiset(2, None, [0u64, 3, 1, 3].into_iter()).unwrap()
        );
        assert_eq!(unpack_values(a), (2, vec![0, 1, 3, 3]));
        let h = pack_multiset(2, Some(0), [1u64, 3, 3].into_iter()).unwrap();
        assert_ne!(a, h);
        assert_eq!(unpack_values(h), (2, vec![0, 1, 3, 3]));
        assert_eq!(
            unpack_values(pack_multiset(0, None, [15u64; 31].into_iter()).unwrap())
                .1
                .len(),
            31
        );
        assert_eq!(pack_multiset(0, None, [15u64; 32].into_iter()), None);
        assert_eq!(pack_multiset(0, None, [16u64].into_iter()), None);
        assert_eq!(pack_multiset(0, Some(16), [1u64].into_iter()), None);
        // Never equal to a packing of pack_values.
        let e = pack_multiset(0, None, std::iter::empty()).unwrap();
        assert_ne!(Some(e), pack_values(0, &[]));
        let one = pack_multiset(0, None, [1u64].into_iter()).unwrap();
        assert_ne!(Some(one), pack_values(0, &[1]));
    }

    #[test]
    fn injective_on_every_short_list() {
        // Every list of up to 3 values from a set straddling each width boundary, with
        // two tags: all packings distinct.
        let vals = [0u64, 1, 15, 16, 255, 256, 65535, 65536, u32::MAX as u64];
        let mut seen = std::collections::HashMap::new();
        let mut lists: Vec<Vec<u64>> = vec![vec![]];
        for len in 1..=3 {
            let mut next = Vec::new();
            for l in lists.iter().filter(|l| l.len() == len - 1) {
                for &v in &vals {
                    let mut m = l.clone();
                    m.push(v);
                    next.push(m);
                }
            }
            lists.extend(next);
        }
        for tag in 0..2u8 {
            for l in &lists {
                if let Some(p) = pack_values(tag, l) {
                    assert_eq!(seen.insert(p, (tag, l.clone())), None, "{tag} {l:?}");
                }
            }
        }
        assert!(seen.len() > 1000);
    }
}

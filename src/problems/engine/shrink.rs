//! Shrink parts: what a failing case is cut into, and the candidates it shrinks to.

use super::*;

/// Where a shrink part comes from: a list field or a run of number fields, or item
/// `j` of the group field `k`.
pub(super) enum PartSrc {
    Fields(std::ops::Range<usize>),
    Item(usize, usize),
}

impl Declared {
    /// Whether a field is a tree.
    pub(super) fn has_tree(&self) -> bool {
        self.fields
            .iter()
            .any(|f| f.list.as_ref().is_some_and(|l| l.tree))
    }

    /// What each shrink part ([`Problem::parts`]) of a case is: every item of a
    /// group, otherwise as [`Declared::part_fields`].
    pub(super) fn part_sources<V: View>(&self, case: &V) -> Vec<PartSrc> {
        let mut out = Vec::new();
        for group in self.part_fields() {
            let k = group.start;
            if self.fields[k].group.is_some() {
                out.extend((0..items(case.field(k)).count()).map(|j| PartSrc::Item(k, j)));
            } else {
                out.push(PartSrc::Fields(group));
            }
        }
        out
    }

    /// The fields behind each shrink part: a list field alone, or a run of
    /// consecutive number fields with the same minimum.
    pub(super) fn part_fields(&self) -> Vec<std::ops::Range<usize>> {
        let mut out: Vec<std::ops::Range<usize>> = Vec::new();
        // A count is its list's length: never a part, and the end of a run.
        let mut after_count = false;
        for (k, f) in self.fields.iter().enumerate() {
            if f.counts.is_some() {
                after_count = true;
                continue;
            }
            if let Some(last) = out.last_mut() {
                let prev = &self.fields[last.start];
                if !after_count
                    && f.list.is_none()
                    && prev.list.is_none()
                    && prev.bounds.min == f.bounds.min
                {
                    last.end = k + 1;
                    continue;
                }
            }
            after_count = false;
            out.push(k..k + 1);
        }
        out
    }

    pub(super) fn shrink_unpacked(&self, case: &Unpacked) -> Vec<Unpacked> {
        let mut out: Vec<Unpacked> = Vec::new();
        for (k, f) in self.fields.iter().enumerate() {
            let v = &case.fields[k];
            let lo = f.bounds.min;
            let with = |values: Vec<u64>| {
                let mut c = case.clone();
                c.fields[k] = values;
                c
            };
            match &f.list {
                Some(l) if f.group.is_some() => {
                    let list: Vec<&[u64]> = items(v).collect();
                    let m = list.len();
                    let enc = |keep: &mut dyn FnMut(usize) -> bool| {
                        encode_items((0..m).filter(|&j| keep(j)).map(|j| list[j]))
                    };
                    // Fewer positions: each half, then each item alone removed.
                    if m >= 2 {
                        out.push(with(enc(&mut |j| j < m / 2)));
                        out.push(with(enc(&mut |j| j >= m / 2)));
                    }
                    for skip in 0..m {
                        out.push(with(enc(&mut |j| j != skip)));
                    }
                    // Smaller positions: each item's own shrink candidates (for a few
                    // items), or every value halved.
                    if m <= 16 {
                        for j in 0..m {
                            for smaller in
                                shrink_list(list[j], l.len.min as usize, l.step as usize, lo)
                            {
                                let mut w: Vec<&[u64]> = list.clone();
                                w[j] = &smaller;
                                out.push(with(encode_items(w)));
                            }
                        }
                    } else {
                        let halved: Vec<Vec<u64>> = list
                            .iter()
                            .map(|item| item.iter().map(|&x| (x / 2).max(lo)).collect())
                            .collect();
                        out.push(with(encode_items(halved.iter().map(Vec::as_slice))));
                    }
                }
                Some(l) if l.tree => {
                    for values in crate::tree::shrink(v) {
                        out.push(with(values));
                    }
                }
                Some(l) if !l.column_bounds.is_empty() => {
                    let lows: Vec<u64> = l.column_bounds.iter().map(|b| b.min).collect();
                    for values in shrink_list_to(v, l.len.min as usize, l.step as usize, &lows) {
                        out.push(with(values));
                    }
                }
                Some(l) => {
                    for values in shrink_list(v, l.len.min as usize, l.step as usize, lo) {
                        out.push(with(values));
                    }
                }
                None => {
                    let x = v[0];
                    let mut seen = Vec::with_capacity(3);
                    for smaller in [lo, (x / 2).max(lo), x.saturating_sub(1).max(lo)] {
                        if smaller < x && !seen.contains(&smaller) {
                            seen.push(smaller);
                            let mut c = with(vec![smaller]);
                            // A field that must stay at least this one follows it down.
                            for (j, g) in self.fields.iter().enumerate() {
                                if g.at_least == Some(k) && c.fields[j][0] < smaller {
                                    c.fields[j][0] = smaller;
                                }
                                if f.at_least == Some(j) && c.fields[j][0] > smaller {
                                    c.fields[j][0] = smaller;
                                }
                            }
                            out.push(c);
                        }
                    }
                }
            }
        }
        let small = case.fields.iter().map(Vec::len).sum::<usize>() <= 4 * FINE_SHRINK_LEN;
        let mut kept: Vec<Unpacked> = Vec::with_capacity(out.len());
        for c in out {
            if c != *case && self.limits(&c).is_ok() && (!small || !kept.contains(&c)) {
                kept.push(c);
            }
        }
        kept
    }

    pub(super) fn halves_unpacked(&self, case: &Unpacked) -> Vec<Unpacked> {
        if let Some(g) = self.group {
            // Each half of the group's items, when both are valid.
            let list: Vec<&[u64]> = items(&case.fields[g]).collect();
            if list.len() < 2 {
                return Vec::new();
            }
            let (a, b) = list.split_at(list.len() / 2);
            return [a, b]
                .into_iter()
                .map(|half| {
                    let mut c = case.clone();
                    c.fields[g] = encode_items(half.iter().copied());
                    c
                })
                .filter(|c| self.limits(c).is_ok())
                .collect();
        }
        // Each half of the longest list, in whole steps, when both halves are valid.
        let Some((k, l)) = self
            .fields
            .iter()
            .enumerate()
            .filter_map(|(k, f)| f.list.as_ref().map(|l| (k, l)))
            .max_by_key(|(k, _)| case.fields[*k].len())
        else {
            return Vec::new();
        };
        let v = &case.fields[k];
        if l.tree {
            return crate::tree::halves(v)
                .into_iter()
                .map(|t| {
                    let mut c = case.clone();
                    c.fields[k] = t;
                    c
                })
                .filter(|c| self.limits(c).is_ok())
                .collect();
        }
        let step = l.step as usize;
        let units = v.len() / step;
        if units < 2 {
            return Vec::new();
        }
        let (a, b) = v.split_at(step * (units / 2));
        [a, b]
            .into_iter()
            .map(|half| {
                let mut c = case.clone();
                c.fields[k] = half.to_vec();
                c
            })
            .filter(|c| self.limits(c).is_ok())
            .collect()
    }
}

/// Shrink candidates for a list, most aggressive first: remove chunks of values
/// (halves, quarters, ..., single steps; keeping at least `min_len`, in whole steps of
/// `step` values), then lower one value to `lo`, to half, and by one. Long lists
/// (more than `FINE_SHRINK_LEN` (64) steps) get at most about 2 * `FINE_SHRINK_LEN` (64)
/// chunk removals, dropping the first or last step, and "halve every value" instead
/// of per-value candidates, so one shrink round stays cheap at 10^6 values.
pub fn shrink_list(values: &[u64], min_len: usize, step: usize, lo: u64) -> Vec<Vec<u64>> {
    shrink_list_to(values, min_len, step, &[lo])
}

/// [`shrink_list`] with a lower bound per column: value i never below
/// `lows[i % lows.len()]` (the columns of a record, removed a whole item at a time
/// when `step` is a multiple of the columns).
pub(super) fn shrink_list_to(
    values: &[u64],
    min_len: usize,
    step: usize,
    lows: &[u64],
) -> Vec<Vec<u64>> {
    let low = |i: usize| lows[i % lows.len()];
    let step = step.max(1);
    let units = values.len() / step;
    let min_units = min_len.div_ceil(step);
    let mut out: Vec<Vec<u64>> = Vec::new();
    let without = |a: usize, b: usize| [&values[..a * step], &values[b * step..]].concat();
    let finest = if units <= FINE_SHRINK_LEN {
        1
    } else {
        units.div_ceil(FINE_SHRINK_LEN)
    };
    let mut chunk = units / 2;
    while chunk >= finest && chunk >= 1 && units - chunk >= min_units {
        let mut start = 0;
        while start < units {
            let end = (start + chunk).min(units);
            // Removing a chunk equal to the one before it gives the same list.
            let same = start >= chunk
                && values[(start - chunk) * step..start * step] == values[start * step..end * step];
            if !same && units - (end - start) >= min_units {
                out.push(without(start, end));
            }
            start = end;
        }
        if chunk == 1 {
            break;
        }
        chunk /= 2;
    }
    if units > FINE_SHRINK_LEN {
        if units > min_units {
            out.push(without(0, 1));
            out.push(without(units - 1, units));
        }
        if values.iter().enumerate().any(|(i, &v)| v > low(i)) {
            out.push(
                values
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| (v / 2).max(low(i)).min(v))
                    .collect(),
            );
        }
        return out;
    }
    for (i, &v) in values.iter().enumerate() {
        let lo = low(i);
        let mut seen = [u64::MAX; 3];
        for (slot, smaller) in [lo, (v / 2).max(lo), v.saturating_sub(1).max(lo)]
            .into_iter()
            .enumerate()
        {
            if smaller < v && !seen.contains(&smaller) {
                seen[slot] = smaller;
                let mut w = values.to_vec();
                w[i] = smaller;
                out.push(w);
            }
        }
    }
    out
}

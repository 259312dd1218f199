//! The game-aware steps of the shrinker: a part whose units are components of a sum
//! of games ([`Problem::component_values`]). Every candidate keeps the XOR of the
//! components' Grundy values, so the true answer: a bug behind a XOR survives them
//! where each removal alone would hide it.

use super::*;

impl<P: Problem, C: Contestant + ?Sized> Shrinker<'_, '_, P, C> {
    /// The Grundy values of the components of part `pi` of case `ci` (one per unit
    /// of the part: a pile, an E&D pair), when the problem knows them.
    pub(super) fn comps(&mut self, ci: usize, pi: usize) -> Option<Vec<u64>> {
        if !self.ctx.opts.game_aware {
            return None;
        }
        let q = self.part_ref(ci, pi);
        let unit = q.unit;
        if unit == 0 || !q.values.len().is_multiple_of(unit) {
            return None;
        }
        let values = q.values.clone();
        let g = self.ctx.p.component_values(&self.cur[ci], pi, &values)?;
        (g.len() * unit == values.len()).then_some(g)
    }

    /// The components of part `pi` of case `ci`: its values, `unit` at a time.
    pub(super) fn units(&mut self, ci: usize, pi: usize) -> Vec<Vec<u64>> {
        let q = self.part_ref(ci, pi);
        q.values
            .chunks(q.unit.max(1))
            .map(<[u64]>::to_vec)
            .collect()
    }

    /// The value of one component `u` of part `pi`.
    pub(super) fn value_of(&self, ci: usize, pi: usize, u: &[u64]) -> Option<u64> {
        let g = self.ctx.p.component_values(&self.cur[ci], pi, u)?;
        match g[..] {
            [x] => Some(x),
            _ => None,
        }
    }

    /// The smallest component of part `pi` worth `value` (its `unit` numbers).
    pub(super) fn smallest(&mut self, ci: usize, pi: usize, value: u64) -> Option<Vec<u64>> {
        let unit = self.part_ref(ci, pi).unit;
        let u = self.ctx.p.smallest_component(&self.cur[ci], pi, value)?;
        (u.len() == unit).then_some(u)
    }

    /// The smallest component with the value of `u`.
    pub(super) fn canonical(&mut self, ci: usize, pi: usize, u: &[u64]) -> Option<Vec<u64>> {
        let value = self.value_of(ci, pi, u)?;
        self.smallest(ci, pi, value)
    }

    /// Tests part `pi` of case `ci` holding the components `units`, taken when it
    /// fails.
    pub(super) fn try_units(&mut self, ci: usize, pi: usize, units: Vec<Vec<u64>>) -> R<bool> {
        self.try_values(ci, pi, units.concat())
    }

    /// Tests part `pi` of case `ci` holding `values`, taken when it fails.
    pub(super) fn try_values(&mut self, ci: usize, pi: usize, values: Vec<u64>) -> R<bool> {
        if values.len() < self.part_ref(ci, pi).min_len {
            return Ok(false);
        }
        match self.with_values(ci, pi, values) {
            Some(cases) => self.try_take(cases),
            None => Ok(false),
        }
    }

    /// Fewer components, each candidate keeping the XOR of the values (so the true
    /// answer): cancel zero values and equal pairs; merge all into one; keep one
    /// apart (largest value first) and merge the rest into one or two; the shortest
    /// prefix that still fails with the rest merged into its last component.
    pub(super) fn game_counts(&mut self, ci: usize, pi: usize) -> R<()> {
        // Each step taken leaves fewer components: again until none is.
        while self.game_count_step(ci, pi)? {}
        Ok(())
    }

    /// One of [`Shrinker::game_counts`]'s steps, the first that fails; whether one did.
    pub(super) fn game_count_step(&mut self, ci: usize, pi: usize) -> R<bool> {
        let Some(g) = self.comps(ci, pi) else {
            return Ok(false);
        };
        let v = self.units(ci, pi);
        let n = v.len();
        if n < 2 {
            return Ok(false);
        }
        let x = g.iter().fold(0, |a, &b| a ^ b);
        // Zero values and equal pairs, all at once; then zero values alone.
        let mut count: FxHashMap<u64, usize> = FxHashMap::default();
        for &gi in &g {
            *count.entry(gi).or_default() += 1;
        }
        let mut seen = FxHashSet::default();
        let kept: Vec<Vec<u64>> = (0..n)
            .filter(|&i| g[i] != 0 && count[&g[i]] % 2 == 1 && seen.insert(g[i]))
            .map(|i| v[i].clone())
            .collect();
        if kept.len() < n && !kept.is_empty() && self.try_units(ci, pi, kept)? {
            return Ok(true);
        }
        let nonzero: Vec<Vec<u64>> = (0..n)
            .filter(|&i| g[i] != 0)
            .map(|i| v[i].clone())
            .collect();
        if nonzero.len() < n && !nonzero.is_empty() && self.try_units(ci, pi, nonzero)? {
            return Ok(true);
        }
        // All merged into one.
        if let Some(s) = self.smallest(ci, pi, x) {
            if self.try_units(ci, pi, vec![s])? {
                return Ok(true);
            }
        }
        // Two or three of the components of the largest values alone (not keeping
        // the XOR): bugs of large values (a cap, an overflow) need only those.
        if n > 2 && self.largest_alone(ci, pi, &v, &g)? {
            return Ok(true);
        }
        // One kept apart, the rest merged into one or two.
        if n > 2 {
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by_key(|&i| (std::cmp::Reverse(g[i]), i));
            order.dedup_by_key(|i| g[*i]);
            for &j in order.iter().take(MERGE_TRIES) {
                let r = x ^ g[j];
                // In input order: the merged ones stand where the first of them was.
                let place = |mut merged: Vec<Vec<u64>>| {
                    if j == 0 {
                        merged.insert(0, v[j].clone());
                    } else {
                        merged.push(v[j].clone());
                    }
                    merged
                };
                if let Some(s) = self.smallest(ci, pi, r) {
                    if self.try_units(ci, pi, place(vec![s]))? {
                        return Ok(true);
                    }
                }
                if n > 3 && r != 0 {
                    let top = 1u64 << (63 - r.leading_zeros());
                    let rest = r ^ top;
                    if let (Some(a), Some(b)) =
                        (self.smallest(ci, pi, top), self.smallest(ci, pi, rest))
                    {
                        if self.try_units(ci, pi, place(vec![a, b]))? {
                            return Ok(true);
                        }
                    }
                }
            }
        }
        if n > 4 {
            return self.count_search(ci, pi, &v, &g);
        }
        Ok(false)
    }

    /// Every two and every three of the components of the [`MERGE_TRIES`] largest
    /// distinct values, alone; whether one failed (and was taken).
    fn largest_alone(&mut self, ci: usize, pi: usize, v: &[Vec<u64>], g: &[u64]) -> R<bool> {
        let mut order: Vec<usize> = (0..v.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(g[i]), i));
        order.dedup_by_key(|i| g[*i]);
        order.truncate(MERGE_TRIES);
        let k = order.len();
        let mut sets: Vec<Vec<usize>> = Vec::new();
        for a in 0..k {
            for b in a + 1..k {
                sets.push(vec![order[a], order[b]]);
            }
        }
        if v.len() > 3 {
            for a in 0..k {
                for b in a + 1..k {
                    for c in b + 1..k {
                        sets.push(vec![order[a], order[b], order[c]]);
                    }
                }
            }
        }
        for mut set in sets {
            // In input order.
            set.sort_unstable();
            let units = set.iter().map(|&i| v[i].clone()).collect();
            if self.try_units(ci, pi, units)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Binary search for the fewest components `k` such that the first `k - 1` and
    /// one component worth the XOR of the rest still fail: bugs of the number of
    /// components (arrays too small) come down to the threshold.
    pub(super) fn count_search(
        &mut self,
        ci: usize,
        pi: usize,
        v: &[Vec<u64>],
        g: &[u64],
    ) -> R<bool> {
        let n = v.len();
        let mut suffix = vec![0u64; n + 1];
        for i in (0..n).rev() {
            suffix[i] = suffix[i + 1] ^ g[i];
        }
        let q = self.part_ref(ci, pi);
        let min_len = q.min_len.div_ceil(q.unit.max(1)).max(1);
        let (mut lo, mut hi) = (min_len - 1, n);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            let taken = match self.smallest(ci, pi, suffix[mid - 1]) {
                Some(s) => {
                    let mut c = Vec::with_capacity(mid);
                    c.extend_from_slice(&v[..mid - 1]);
                    c.push(s);
                    self.try_units(ci, pi, c)?
                }
                None => false,
            };
            if taken {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Ok(hi < n)
    }

    /// Smaller values keeping the XOR: every component by the smallest of its value;
    /// chunks to the lower bound with one component compensating; then, in a short
    /// list, each component lowered alone (a windowed bisection) with the largest
    /// other compensating.
    pub(super) fn game_values(&mut self, ci: usize, pi: usize) -> R<()> {
        if self.comps(ci, pi).is_none() {
            return Ok(());
        }
        let op = Op::Canon { case: ci, part: pi };
        let n = self.op_len(op);
        if n > 1 {
            if let Some(cases) = self.apply(op, 0, n) {
                self.try_take(cases)?;
            }
        }
        self.scan(op)?;
        if self.op_len(op) > 1 {
            self.scan(Op::LowerKeep { case: ci, part: pi })?;
        }
        // One number of a component lowered alone: components of one number.
        if self.part_ref(ci, pi).unit == 1 && self.op_len(op) <= KEEP_LOWER_MAX {
            let mut j = 0;
            while j < self.op_len(op) {
                self.lower_keep(ci, pi, j)?;
                j += 1;
            }
        }
        Ok(())
    }

    /// Component `j` with value `w`, and the component of largest value among the
    /// others changed so that the XOR of all values stays.
    pub(super) fn keep_candidate(
        &mut self,
        ci: usize,
        pi: usize,
        j: usize,
        w: u64,
    ) -> Option<Vec<u64>> {
        let q = self.part(ci, pi);
        let g = self.comps(ci, pi)?;
        let c = (0..q.values.len())
            .filter(|&i| i != j)
            .max_by_key(|&i| (g[i], i))?;
        let need = g[c] ^ g[j] ^ self.value_of(ci, pi, &[w])?;
        let mut values = q.values;
        values[j] = w;
        values[c] = self.smallest(ci, pi, need)?[0];
        smaller_sum(&values, &self.part_ref(ci, pi).values).then_some(values)
    }

    pub(super) fn lower_keep(&mut self, ci: usize, pi: usize, j: usize) -> R<()> {
        let q = self.part(ci, pi);
        let (v, low) = (q.values[j], q.min_value);
        if v <= low || q.values.len() < 2 {
            return Ok(());
        }
        let take = |s: &mut Self, w: u64| -> R<bool> {
            match s.keep_candidate(ci, pi, j, w) {
                Some(values) => s.try_values(ci, pi, values),
                None => Ok(false),
            }
        };
        if take(self, low)? {
            return Ok(());
        }
        // Windowed bisection between `lo` (no failure known at or below it) and the
        // failing `hi`.
        let (mut lo, mut hi) = (low, v);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            let end = mid.saturating_add(LOWER_WINDOW).min(hi);
            let mut found = None;
            for w in mid..end {
                if take(self, w)? {
                    found = Some(w);
                    break;
                }
            }
            match found {
                Some(w) => hi = w,
                None => lo = end - 1,
            }
        }
        Ok(())
    }
}

/// Whether `a` adds up to less than `b` (a step that only moves value around is no
/// shrink: it could undo another).
pub(super) fn smaller_sum(a: &[u64], b: &[u64]) -> bool {
    let sum = |v: &[u64]| v.iter().map(|&x| u128::from(x)).sum::<u128>();
    sum(a) < sum(b)
}

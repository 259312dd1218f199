//! The game's side of shrinking: the Grundy value of each component (a pile, an E&D
//! pair) of a case's position, the smallest component of a value, the value of the
//! whole position and its tree, and the size order of cases with the complete list
//! of the cases of one size (for the audit's minimality check).

use super::shrink::PartSrc;
use super::*;

impl Declared {
    /// The list field that is the whole position, one number per component, when
    /// part `part` of a case is that field.
    fn component_field<V: View>(&self, case: &V, part: usize, unit: usize) -> Option<usize> {
        if self.has_tree() || self.group.is_some() {
            return None;
        }
        let [k] = self.position[..] else {
            return None;
        };
        let l = self.fields[k].list.as_ref()?;
        if usize::try_from(l.step).ok() != Some(unit) || l.distinct {
            return None;
        }
        match self.part_sources(case).get(part)? {
            PartSrc::Fields(r) if r.start == k && r.len() == 1 => Some(k),
            _ => None,
        }
    }

    pub(super) fn component_values_of(
        &self,
        case: &Case,
        part: usize,
        values: &[u64],
    ) -> Option<Vec<u64>> {
        let view = self.packed(case);
        let rules = self.rules_of(&view).ok()?;
        let unit = rules.component_len();
        self.component_field(&view, part, unit)?;
        if !values.len().is_multiple_of(unit) {
            return None;
        }
        let g = rules.component_values(values)?;
        (g.len() * unit == values.len()).then_some(g)
    }

    pub(super) fn smallest_component_of(
        &self,
        case: &Case,
        part: usize,
        value: u64,
    ) -> Option<Vec<u64>> {
        let view = self.packed(case);
        let rules = self.rules_of(&view).ok()?;
        let k = self.component_field(&view, part, rules.component_len())?;
        let b = self.fields[k].bounds;
        let u = rules.smallest_component(value, b.min, b.max)?;
        let columns = self.fields[k].list.as_ref().map(|l| &l.column_bounds);
        let fits = u.len() == rules.component_len()
            && u.iter().enumerate().all(|(i, x)| match columns {
                // A component is whole items: value i is in column i mod k.
                Some(c) if !c.is_empty() => (c[i % c.len()].min..=c[i % c.len()].max).contains(x),
                _ => (b.min..=b.max).contains(x),
            });
        fits.then_some(u)
    }

    /// How far a case is above the smallest one: what [`Declared::enumerate`] spends
    /// on it.
    pub(super) fn size_of(&self, case: &Case) -> u64 {
        let u = self.unpack(case);
        let mut size = 0u64;
        for (f, v) in self.fields.iter().zip(&u.fields) {
            let lo = f.bounds.min;
            let excess = |vals: &[u64]| {
                vals.iter()
                    .fold(0u64, |a, &x| a.saturating_add(x.saturating_sub(lo)))
            };
            match (&f.group, &f.list) {
                (Some(g), Some(l)) => {
                    let list: Vec<&[u64]> = items(v).collect();
                    size = size.saturating_add((list.len() as u64).saturating_sub(g.count.min));
                    for item in list {
                        let extra = (item.len() as u64).saturating_sub(l.len.min) / l.step.max(1);
                        size = size.saturating_add(extra).saturating_add(excess(item));
                    }
                }
                (_, Some(l)) if l.tree => {
                    let n = (v.len() / 2 + 1) as u64;
                    size = size.saturating_add(n.saturating_sub(l.len.min));
                }
                // A graph costs its edges above the fewest, whatever their ends.
                (_, Some(l)) if l.graph.is_some() => {
                    let extra = (v.len() as u64).saturating_sub(l.len.min) / l.step.max(1);
                    size = size.saturating_add(extra);
                }
                // A count is its list's length, which the list pays for.
                (_, None) if f.counts.is_some() => {}
                (_, Some(l)) if !l.column_bounds.is_empty() => {
                    // Each value above its own column's minimum.
                    let extra = (v.len() as u64).saturating_sub(l.len.min) / l.step.max(1);
                    let cb = &l.column_bounds;
                    let over = v.iter().enumerate().fold(0u64, |a, (i, &x)| {
                        a.saturating_add(x.saturating_sub(cb[i % cb.len()].min))
                    });
                    size = size.saturating_add(extra).saturating_add(over);
                }
                (_, Some(l)) => {
                    let extra = (v.len() as u64).saturating_sub(l.len.min) / l.step.max(1);
                    size = size.saturating_add(extra).saturating_add(excess(v));
                }
                (_, None) => size = size.saturating_add(excess(v)),
            }
        }
        size
    }

    pub(super) fn all_of_size(&self, size: u64, cap: usize) -> Option<Vec<Case>> {
        if self.group.is_some() || self.has_tree() {
            return None;
        }
        // The lists of one field stop at ENUM_CAP: a size that reaches it is too many.
        let cap = cap.min(super::ENUM_CAP - 1);
        let mut out = Vec::new();
        let mut cur: Vec<Vec<u64>> = Vec::with_capacity(self.fields.len());
        self.enumerate_within(0, size, &mut cur, &mut out, Some(cap.saturating_add(1)));
        (out.len() <= cap).then(|| out.iter().map(|u| self.pack(u)).collect())
    }

    /// The Grundy value of a case's one position (none for a group of positions).
    pub(super) fn position_value_of(&self, case: &Case) -> Option<u64> {
        if self.group.is_some() {
            return None;
        }
        let view = self.packed(case);
        let rules = self.rules_of(&view).ok()?;
        let pos = self.position_of(&view);
        rules.position_value(&pos)
    }

    /// The tree field that is a case's whole position, when there is one.
    fn tree_field(&self) -> Option<usize> {
        if self.group.is_some() {
            return None;
        }
        let [k] = self.position[..] else {
            return None;
        };
        self.fields[k].list.as_ref().filter(|l| l.tree).map(|_| k)
    }

    pub(super) fn tree_of(&self, case: &Case) -> Option<Vec<u64>> {
        let k = self.tree_field()?;
        Some(self.packed(case).field(k).to_vec())
    }

    pub(super) fn with_tree_of(&self, case: &Case, flat: Vec<u64>) -> Option<Case> {
        let k = self.tree_field()?;
        let mut u = self.unpack(case);
        u.fields[k] = flat;
        self.limits(&u).is_ok().then(|| self.pack(&u))
    }
}

//! Generation and enumeration: random cases at a scale, losing and many-winning
//! shapes, and every small case smallest-first.

use super::*;

impl Declared {
    pub(super) fn top(num: &Num, scale: f64, geometric: bool) -> u64 {
        let width = num.max - num.min;
        let extra = if geometric {
            (((width as f64) + 1.0).powf(scale) - 1.0).round()
        } else {
            (width as f64 * scale).round()
        };
        num.min + (extra.max(0.0) as u64).min(width)
    }

    /// A value in `lo..=top`, now and then an edge: the lowest, the highest, or one
    /// near either.
    pub(super) fn pick(rng: &mut ChaCha8Rng, lo: u64, top: u64) -> u64 {
        let w = top - lo;
        match rng.gen_range(0..16) {
            0 | 1 => lo,
            2 => top - rng.gen_range(0..=3).min(w),
            3 => lo + rng.gen_range(0..=3).min(w),
            _ => rng.gen_range(lo..=top),
        }
    }

    pub(super) fn draw(
        &self,
        rng: &mut ChaCha8Rng,
        scale: f64,
        shape: Shape,
    ) -> (Unpacked, Vec<u64>) {
        let mut fields: Vec<Vec<u64>> = Vec::with_capacity(self.fields.len());
        let mut tops = Vec::with_capacity(self.fields.len());
        for f in &self.fields {
            let mut top = Self::top(&f.bounds, scale, f.geometric);
            let lo = f.bounds.min;
            if let Some(j) = f.max_from {
                top = top.min(fields[j][0]).max(lo);
            }
            tops.push(top);
            match &f.list {
                None => {
                    let mut v = Self::pick(rng, lo, top);
                    if let Some(j) = f.at_least {
                        let w = fields[j][0];
                        if v < w {
                            v = if w <= top {
                                rng.gen_range(w..=top)
                            } else {
                                w.min(f.bounds.max)
                            };
                        }
                        if v < w {
                            fields[j][0] = v;
                        }
                    }
                    fields.push(vec![v]);
                }
                Some(l) if l.tree => {
                    let top_n = if f.geometric {
                        Self::top(&l.len, scale, true)
                    } else {
                        Self::top(&l.len, scale * scale, false)
                    };
                    let lo_n = l.len.min.max(1);
                    let top_n = top_n.max(lo_n);
                    let n = match rng.gen_range(0..8) {
                        0 => top_n,
                        1..=3 => {
                            let span = (top_n - lo_n) as f64 + 1.0;
                            lo_n + (span.powf(rng.gen::<f64>()) - 1.0).round() as u64
                        }
                        _ => rng.gen_range(lo_n..=top_n),
                    }
                    .min(top_n);
                    // The largest trees are paths from vertex 1 one time in two: the
                    // deepest input within the limits.
                    let shape = if n == top_n && rng.gen_bool(0.5) {
                        crate::tree::Shape::PathFromRoot
                    } else {
                        crate::tree::SHAPES[rng.gen_range(0..crate::tree::SHAPES.len())]
                    };
                    fields.push(crate::tree::random(rng, n as usize, shape));
                }
                Some(l) if l.graph.is_some() => {
                    let n = l.graph.map_or(1, |g| fields[g][0]);
                    let items = l.items();
                    let top_m = if f.geometric {
                        Self::top(&items, scale, true)
                    } else {
                        Self::top(&items, scale * scale, false)
                    };
                    let m = match rng.gen_range(0..4) {
                        0 => top_m,
                        _ => rng.gen_range(items.min..=top_m.max(items.min)),
                    };
                    fields.push(super::graph::random_dag(rng, n, m));
                }
                Some(l) => match &f.group {
                    None => fields.push(Self::draw_list(rng, f, l, scale, top, shape)),
                    Some(g) => {
                        // The item count grows like a list's length.
                        let top_m = Self::top(&g.count, scale * scale, false);
                        let m = match rng.gen_range(0..4) {
                            0 => top_m,
                            _ => rng.gen_range(g.count.min..=top_m),
                        };
                        let list: Vec<Vec<u64>> = (0..m)
                            .map(|_| Self::draw_list(rng, f, l, scale, top, Shape::Any))
                            .collect();
                        fields.push(encode_items(list.iter().map(Vec::as_slice)));
                    }
                },
            }
        }
        let mut case = Unpacked { fields };
        self.sync_counts(&mut case);
        (case, tops)
    }

    /// The values of a list field: a length growing with the scale, values up to `top`.
    pub(super) fn draw_list(
        rng: &mut ChaCha8Rng,
        f: &Field,
        l: &ListSpec,
        scale: f64,
        top: u64,
        shape: Shape,
    ) -> Vec<u64> {
        let lo = f.bounds.min;
        // Lengths grow with the square of the scale (or geometrically): small
        // scales hold a few values, so early failures are small ones.
        let top_len = if f.geometric {
            Self::top(&l.len, scale, true)
        } else {
            Self::top(&l.len, scale * scale, false)
        };
        let mut min_len = l.len.min;
        if shape != Shape::Any {
            // Losing and many-winning shapes need two numbers at least.
            min_len = min_len.max(2).min(l.len.max);
        }
        let top_len = top_len.max(min_len);
        let mut n = match rng.gen_range(0..8) {
            0 => top_len,
            1..=3 => {
                // Log-uniform: the largest values come with few numbers too.
                let span = (top_len - min_len) as f64 + 1.0;
                min_len + (span.powf(rng.gen::<f64>()) - 1.0).round() as u64
            }
            _ => rng.gen_range(min_len..=top_len),
        };
        n = n.min(top_len);
        n -= n % l.step;
        if n < l.len.min {
            n = l.len.min;
        }
        if !l.column_bounds.is_empty() {
            // Each column within its own bounds, growing with the scale like a field;
            // `top` caps them all when it comes from an earlier field (`max = "n"`).
            let k = l.column_bounds.len();
            let tops: Vec<(u64, u64)> = l
                .column_bounds
                .iter()
                .map(|b| {
                    let mut t = Self::top(b, scale, f.geometric);
                    if f.max_from.is_some() {
                        t = t.min(top);
                    }
                    (b.min, t.max(b.min))
                })
                .collect();
            let values = (0..n)
                .map(|i| {
                    let (lo, top) = tops[i as usize % k];
                    Self::pick(rng, lo, top)
                })
                .collect();
            return Self::satisfy(l, &tops, values);
        }
        if !l.require.is_empty() {
            let tops = vec![(lo, top); l.record.max(1) as usize];
            let values = (0..n).map(|_| Self::pick(rng, lo, top)).collect();
            return Self::satisfy(l, &tops, values);
        }
        if l.distinct {
            let room = top - lo + 1;
            let mut n = n.min(room);
            n -= n % l.step;
            let picked = rand::seq::index::sample(rng, room.min(1 << 24) as usize, n as usize);
            picked.into_iter().map(|i| lo + i as u64).collect()
        } else {
            (0..n).map(|_| Self::pick(rng, lo, top)).collect()
        }
    }

    /// `values` (a record list's items, flat) with every item made to satisfy the
    /// list's `require` relations: each relation repaired in turn (one column moved
    /// within its bounds `tops`), a few rounds; an item no repair satisfies is
    /// dropped, so no item the statement excludes is ever drawn.
    pub(super) fn satisfy(l: &ListSpec, tops: &[(u64, u64)], values: Vec<u64>) -> Vec<u64> {
        if l.require.is_empty() {
            return values;
        }
        let k = l.record.max(1) as usize;
        let mut out = Vec::with_capacity(values.len());
        for item in values.chunks_exact(k) {
            let mut item = item.to_vec();
            for _ in 0..4 {
                if l.require.iter().all(|r| r.holds(&item)) {
                    break;
                }
                for r in &l.require {
                    r.repair(&mut item, tops);
                }
            }
            if l.require.iter().all(|r| r.holds(&item)) {
                out.extend(item);
            }
        }
        out
    }

    /// A random case of a problem whose positions are a group's items: with
    /// `Losing` or `ManyWinning`, each item is made losing with probability 1/2, so
    /// both answers show up in one case.
    pub(super) fn generate_group(
        &self,
        g: usize,
        rng: &mut ChaCha8Rng,
        scale: f64,
        shape: Shape,
    ) -> Unpacked {
        let (mut case, tops) = self.draw(rng, scale, shape);
        if shape == Shape::Any {
            return case;
        }
        let Ok(rules) = self.rules_of(&case) else {
            return case;
        };
        let lo = self.fields[g].bounds.min;
        let hi = tops[g].max(lo);
        let mut list: Vec<Vec<u64>> = items(&case.fields[g]).map(<[u64]>::to_vec).collect();
        for item in &mut list {
            if rng.gen_bool(0.5) {
                let bounds = vec![(lo, hi); item.len()];
                let mut made = item.clone();
                rules.make_losing(&mut made, &bounds, rng);
                // Within its bounds only (see `make_losing` below).
                if made.iter().all(|v| (lo..=hi).contains(v)) {
                    *item = made;
                }
            }
        }
        case.fields[g] = encode_items(list.iter().map(Vec::as_slice));
        case
    }

    pub(super) fn winning_count(
        &self,
        rules: &dyn DeclaredRules,
        position: &[u64],
    ) -> Option<usize> {
        // The analysis costs up to the sum of the position for some games.
        let small = position.len() <= 64
            && position
                .iter()
                .try_fold(0u64, |a, &v| a.checked_add(v))
                .is_some_and(|s| s <= 1 << 20);
        small
            .then(|| rules.analyze(position, false).ok().map(|a| a.count()))
            .flatten()
    }

    pub(super) fn make_losing(
        &self,
        rng: &mut ChaCha8Rng,
        case: &mut Unpacked,
        tops: &[u64],
    ) -> bool {
        let Ok(rules) = self.rules_of(case) else {
            return false;
        };
        let bounds = self.position_bounds(case, tops);
        let mut pos = self.position_of(case).into_owned();
        let made = rules.make_losing(&mut pos, &bounds, rng);
        // A game's make_losing that leaves a number outside its bounds would draw an
        // input the statement excludes: the case is left as it was.
        let within = pos.len() == bounds.len()
            && pos
                .iter()
                .zip(&bounds)
                .all(|(&v, &(lo, hi))| (lo..=hi).contains(&v));
        if !within {
            return false;
        }
        self.set_position(case, &pos);
        // A position the game could not answer is not known to be losing.
        made && rules.first_wins(&pos) == Ok(false)
    }

    pub(super) fn generate_unpacked(
        &self,
        rng: &mut ChaCha8Rng,
        scale: f64,
        shape: Shape,
    ) -> Unpacked {
        let scale = if scale.is_nan() {
            0.0
        } else {
            scale.clamp(0.0, 1.0)
        };
        if let Some(g) = self.group {
            return self.generate_group(g, rng, scale, shape);
        }
        let (mut case, tops) = self.draw(rng, scale, shape);
        match shape {
            Shape::Any => {
                // Now and then a position the game knows to be interesting (where
                // common mistakes show), when it has some within the bounds. Games
                // without any draw nothing from `rng`.
                if let Ok(rules) = self.rules_of(&case) {
                    let bounds = self.position_bounds(&case, &tops);
                    if let Some(pos) = rules.interesting(&bounds, rng) {
                        self.set_position(&mut case, &pos);
                    }
                }
                case
            }
            Shape::Losing => {
                for _ in 0..16 {
                    if self.make_losing(rng, &mut case, &tops) {
                        return case;
                    }
                    case = self.draw(rng, scale, shape).0;
                }
                case
            }
            Shape::ManyWinning => {
                let mut best: Option<(usize, Unpacked)> = None;
                for attempt in 0..12 {
                    let mut c = if attempt == 0 {
                        case.clone()
                    } else {
                        self.draw(rng, scale, shape).0
                    };
                    if attempt % 2 == 0 && !self.has_tree() && self.make_losing(rng, &mut c, &tops)
                    {
                        // A losing position with one number changed is won.
                        let bounds = self.position_bounds(&c, &tops);
                        let mut pos = self.position_of(&c).into_owned();
                        if !pos.is_empty() {
                            let i = rng.gen_range(0..pos.len());
                            let (lo, hi) = bounds[i];
                            if hi > lo {
                                let mut v = rng.gen_range(lo..=hi);
                                if v == pos[i] {
                                    v = if v < hi { v + 1 } else { v - 1 };
                                }
                                pos[i] = v;
                            }
                            self.set_position(&mut c, &pos);
                        }
                    }
                    if self.check_format(&c).is_err() {
                        continue;
                    }
                    let Ok(rules) = self.rules_of(&c) else {
                        continue;
                    };
                    let pos = self.position_of(&c);
                    // An answer without moves only needs the case to be won.
                    if !self.needs_moves {
                        if rules.first_wins(&pos) == Ok(true) {
                            return c;
                        }
                        continue;
                    }
                    let score = match self.winning_count(rules.as_ref(), &pos) {
                        Some(k) => k,
                        None => {
                            if rules.first_wins(&pos) == Ok(true) {
                                return c;
                            }
                            0
                        }
                    };
                    if best.as_ref().is_none_or(|b| score > b.0) {
                        best = Some((score, c));
                    }
                    if score >= 3 {
                        break;
                    }
                }
                best.map_or(case, |b| b.1)
            }
        }
    }

    /// The most cases the small-first enumeration returns: [`ENUM_CAP`], fewer for
    /// cases of many fields, so that the cases held stay within [`ENUM_NUMBERS`]
    /// numbers whatever the declaration.
    pub(super) fn enum_cap(&self) -> usize {
        ENUM_CAP.min(ENUM_NUMBERS / self.fields.len().max(1))
    }

    pub(super) fn enumerate(
        &self,
        k: usize,
        budget: u64,
        cur: &mut Vec<Vec<u64>>,
        out: &mut Vec<Unpacked>,
    ) {
        self.enumerate_within(k, budget, cur, out, None);
    }

    /// [`Declared::enumerate`]; with `full = Some(cap)`, lists and trees of any length
    /// the size allows (not only up to `enumerate_max`), at most `cap` cases.
    pub(super) fn enumerate_within(
        &self,
        k: usize,
        budget: u64,
        cur: &mut Vec<Vec<u64>>,
        out: &mut Vec<Unpacked>,
        full: Option<usize>,
    ) {
        let cap = full.unwrap_or_else(|| self.enum_cap());
        if out.len() >= cap {
            return;
        }
        if k == self.fields.len() {
            if budget == 0 {
                let mut c = Unpacked {
                    fields: cur.clone(),
                };
                self.sync_counts(&mut c);
                match self.limits(&c) {
                    Ok(()) => out.push(c),
                    // A case the declaration fails on (its script threw or ran past a
                    // limit) is kept: answering it fails, and the failure is counted
                    // (a finding of verify, an unanswerable input of the audit), where
                    // leaving it out here would hide it.
                    Err(e) if crate::games::declared::is_declaration_failure(&e) => out.push(c),
                    Err(_) => {}
                }
            }
            return;
        }
        let f = &self.fields[k];
        let lo = f.bounds.min;
        let mut width = f.bounds.max - lo;
        if let Some(j) = f.max_from {
            let Some(w) = cur[j][0].checked_sub(lo) else {
                return;
            };
            width = width.min(w);
        }
        let last = k + 1 == self.fields.len();
        match &f.list {
            // A count is its list's length (set at the end): it costs nothing here.
            None if f.counts.is_some() => {
                cur.push(vec![lo]);
                self.enumerate_within(k + 1, budget, cur, out, full);
                cur.pop();
            }
            None => {
                let costs = if last { budget..=budget } else { 0..=budget };
                for c in costs {
                    if c > width {
                        break;
                    }
                    cur.push(vec![lo + c]);
                    self.enumerate_within(k + 1, budget - c, cur, out, full);
                    cur.pop();
                }
            }
            Some(l) if l.tree => {
                // A tree costs its vertices above the minimum; every labelled tree of
                // that size, each written its own way (see `tree::enumerate`).
                let mut n = l.len.min;
                let mut cost = 0;
                let top = if full.is_some() {
                    l.len.max
                } else {
                    l.enumerate_max.min(l.len.max).min(MAX_ENUMERATE)
                };
                while n <= top && cost <= budget {
                    if !last || cost == budget {
                        for t in crate::tree::enumerate(n as usize, cap.saturating_sub(out.len())) {
                            cur.push(t);
                            self.enumerate_within(k + 1, budget - cost, cur, out, full);
                            cur.pop();
                            if out.len() >= cap {
                                return;
                            }
                        }
                    }
                    n += 1;
                    cost += 1;
                }
            }
            Some(l) if l.graph.is_some() => {
                // A graph costs its edges above the fewest: every graph without a
                // cycle on the vertices of its field, edges in increasing order.
                let n = l.graph.map_or(1, |g| cur[g][0]);
                let items = l.items();
                let top = if full.is_some() {
                    items.max
                } else {
                    (l.enumerate_max / 2).min(items.max).min(MAX_ENUMERATE)
                };
                let mut m = items.min;
                while m <= top && m - items.min <= budget {
                    let cost = m - items.min;
                    if !last || cost == budget {
                        let left = cap.saturating_sub(out.len());
                        for g in super::graph::enumerate_dags(n, m, left, l.adjacency) {
                            cur.push(g);
                            self.enumerate_within(k + 1, budget - cost, cur, out, full);
                            cur.pop();
                            if out.len() >= cap {
                                return;
                            }
                        }
                    }
                    m += 1;
                }
            }
            Some(l) if f.group.is_some() => {
                // A group costs how many items it holds above its minimum, then what
                // its items cost as lists.
                let g = f.group.as_ref().expect("a group");
                let mut m = g.count.min;
                while m <= g.enumerate_max.min(MAX_ENUMERATE) && m - g.count.min <= budget {
                    let rest = budget - (m - g.count.min);
                    let mut groups = Vec::new();
                    group_items(
                        l,
                        (lo, width),
                        m,
                        (rest, last),
                        &mut Vec::new(),
                        &mut groups,
                    );
                    for (enc, spent) in groups {
                        cur.push(enc);
                        self.enumerate_within(k + 1, rest - spent, cur, out, full);
                        cur.pop();
                        if out.len() >= cap {
                            return;
                        }
                    }
                    m += 1;
                }
            }
            Some(l) => {
                let mut len = l.len.min;
                let mut len_cost = 0;
                let top = if full.is_some() {
                    l.len.max
                } else {
                    l.enumerate_max.min(l.len.max).min(MAX_ENUMERATE)
                };
                while len <= top && len_cost <= budget {
                    let rest = budget - len_cost;
                    let spends = if last { rest..=rest } else { 0..=rest };
                    for spend in spends {
                        let mut values = Vec::with_capacity(len as usize);
                        let mut lists = Vec::new();
                        if l.distinct {
                            increasing(len as usize, spend, lo, width, &mut values, &mut lists);
                            if full.is_some() {
                                // The format takes a distinct list in any order: every
                                // order of each set, for the claim that no smaller
                                // input fails (the search keeps one order per set).
                                lists = lists.into_iter().flat_map(orders).collect();
                            }
                        } else if l.column_bounds.is_empty() {
                            compositions(
                                len as usize,
                                spend,
                                &[(lo, width)],
                                &mut values,
                                &mut lists,
                            );
                        } else {
                            // Each column from its own minimum (and within `max = "n"`).
                            let cols = l
                                .column_bounds
                                .iter()
                                .map(|b| {
                                    let w = b.max - b.min;
                                    match f.max_from {
                                        Some(j) => {
                                            Some((b.min, w.min(cur[j][0].checked_sub(b.min)?)))
                                        }
                                        None => Some((b.min, w)),
                                    }
                                })
                                .collect::<Option<Vec<_>>>();
                            match cols {
                                Some(cols) => compositions(
                                    len as usize,
                                    spend,
                                    &cols,
                                    &mut values,
                                    &mut lists,
                                ),
                                // A column with no value allowed: only the empty list.
                                None if len == 0 && spend == 0 => lists.push(Vec::new()),
                                None => {}
                            }
                        }
                        for v in lists {
                            cur.push(v);
                            self.enumerate_within(k + 1, rest - spend, cur, out, full);
                            cur.pop();
                            if out.len() >= cap {
                                return;
                            }
                        }
                    }
                    len += l.step;
                    len_cost += 1;
                }
            }
        }
    }
}

/// Every group of `m` items (as [`encode_items`] writes them, with what they cost) whose
/// items cost at most `budget` (exactly `budget` when `exact`), each item costing its
/// steps above the shortest length plus its values' excess over `lo`; at most
/// [`ENUM_CAP`].
pub(super) fn group_items(
    l: &ListSpec,
    (lo, width): (u64, u64),
    m: u64,
    (budget, exact): (u64, bool),
    cur: &mut Vec<u64>,
    out: &mut Vec<(Vec<u64>, u64)>,
) {
    if out.len() >= ENUM_CAP {
        return;
    }
    if m == 0 {
        if !exact || budget == 0 {
            out.push((cur.clone(), 0));
        }
        return;
    }
    let mut len = l.len.min;
    let mut len_cost = 0;
    while len <= l.enumerate_max.min(l.len.max).min(MAX_ENUMERATE) && len_cost <= budget {
        let rest = budget - len_cost;
        for spend in 0..=rest {
            let mut values = Vec::with_capacity(len as usize);
            let mut lists = Vec::new();
            compositions(len as usize, spend, &[(lo, width)], &mut values, &mut lists);
            for v in lists {
                let mark = cur.len();
                cur.push(len);
                cur.extend_from_slice(&v);
                let before = out.len();
                group_items(l, (lo, width), m - 1, (rest - spend, exact), cur, out);
                for o in &mut out[before..] {
                    o.1 += len_cost + spend;
                }
                cur.truncate(mark);
                if out.len() >= ENUM_CAP {
                    return;
                }
            }
        }
        len += l.step;
        len_cost += 1;
    }
}

/// Every list of `len` values whose excess over their minimum sums to `spend`, in
/// lexicographic order (at most [`ENUM_CAP`]): value i in `lo..=lo+width` of
/// `cols[i % cols.len()]` (one pair for all values, or one per column of a record).
pub(super) fn compositions(
    len: usize,
    spend: u64,
    cols: &[(u64, u64)],
    cur: &mut Vec<u64>,
    out: &mut Vec<Vec<u64>>,
) {
    if out.len() >= ENUM_CAP {
        return;
    }
    if cur.len() == len {
        if spend == 0 {
            out.push(cur.clone());
        }
        return;
    }
    let (lo, width) = cols[cur.len() % cols.len()];
    let first = if cur.len() + 1 == len { spend } else { 0 };
    for x in first..=spend.min(width) {
        cur.push(lo + x);
        compositions(len, spend - x, cols, cur, out);
        cur.pop();
    }
}

/// Every strictly increasing list of `len` values in `lo..=lo+width` whose excess
/// over `lo` sums to `spend`.
pub(super) fn increasing(
    len: usize,
    spend: u64,
    lo: u64,
    width: u64,
    cur: &mut Vec<u64>,
    out: &mut Vec<Vec<u64>>,
) {
    if out.len() >= ENUM_CAP {
        return;
    }
    if cur.len() == len {
        if spend == 0 {
            out.push(cur.clone());
        }
        return;
    }
    let from = cur.last().map_or(0, |&v| v - lo + 1);
    let mut x = from;
    while x <= spend.min(width) {
        cur.push(lo + x);
        increasing(len, spend - x, lo, width, cur, out);
        cur.pop();
        x += 1;
    }
}

/// Every order of the distinct values `set` (given increasing), in lexicographic
/// order.
pub(super) fn orders(set: Vec<u64>) -> Vec<Vec<u64>> {
    let mut out = vec![set.clone()];
    let mut cur = set;
    // The next permutation, until the values are decreasing.
    loop {
        let Some(i) = (1..cur.len()).rev().find(|&i| cur[i - 1] < cur[i]) else {
            return out;
        };
        let j = (i..cur.len())
            .rev()
            .find(|&j| cur[j] > cur[i - 1])
            .expect("one is");
        cur.swap(i - 1, j);
        cur[i..].reverse();
        out.push(cur.clone());
    }
}

/// Where a corner puts a number field, or a list's length: its lowest or highest.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum End {
    Low,
    High,
}

/// The values of a corner's lists: all at the lowest, all at the smallest positive
/// value (the smallest move, say), or all at the highest (distinct lists count up
/// from the first two and down from the last).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Fill {
    Low,
    Least,
    High,
}

/// The corners the audit tries first, in order: every number and list at its highest;
/// the deepest (numbers high, lists short with their smallest positive values, trees
/// as paths: a recursion as deep as the limits allow); lists long with low values;
/// every number and list at its lowest; then the other mixes.
pub(crate) const CORNERS: [(End, End, Fill); 12] = [
    (End::High, End::High, Fill::High),
    (End::High, End::Low, Fill::Least),
    (End::High, End::High, Fill::Least),
    (End::High, End::High, Fill::Low),
    (End::Low, End::Low, Fill::Low),
    (End::Low, End::High, Fill::High),
    (End::High, End::Low, Fill::High),
    (End::Low, End::High, Fill::Least),
    (End::Low, End::High, Fill::Low),
    (End::High, End::Low, Fill::Low),
    (End::Low, End::Low, Fill::High),
    (End::Low, End::Low, Fill::Least),
];

impl Declared {
    /// The corners of the declaration ([`CORNERS`]) that are valid cases, each once,
    /// in order: the same for every seed.
    pub(crate) fn corners(&self) -> Vec<Unpacked> {
        let mut out: Vec<Unpacked> = Vec::new();
        for &(numbers, lengths, fill) in &CORNERS {
            let Some(c) = self.corner(numbers, lengths, fill) else {
                continue;
            };
            if !out.contains(&c) {
                out.push(c);
            }
        }
        out
    }

    /// One corner: number fields at `numbers`, list lengths (and item counts) at
    /// `lengths`, list values filled by `fill`; `None` when it is not a valid case.
    fn corner(&self, numbers: End, lengths: End, fill: Fill) -> Option<Unpacked> {
        // Trees and graphs need some randomness for their labels: a fixed seed, so the
        // corners are the same whatever the audit's seed.
        let mut rng = <ChaCha8Rng as rand::SeedableRng>::seed_from_u64(0x636f_726e_6572);
        let pick = |num: &Num, end: End| match end {
            End::Low => num.min,
            End::High => num.max,
        };
        let mut fields: Vec<Vec<u64>> = Vec::with_capacity(self.fields.len());
        for f in &self.fields {
            let lo = f.bounds.min;
            let mut top = f.bounds.max;
            if let Some(j) = f.max_from {
                top = top.min(fields[j][0]);
                if top < lo {
                    return None;
                }
            }
            let value = |fill: Fill, lo: u64, top: u64| match fill {
                Fill::Low => lo,
                Fill::Least => lo.max(1).min(top),
                Fill::High => top,
            };
            match &f.list {
                None => {
                    let mut v = match numbers {
                        End::Low => lo,
                        End::High => top,
                    };
                    if let Some(j) = f.at_least {
                        v = v.max(fields[j][0]).min(f.bounds.max);
                    }
                    fields.push(vec![v]);
                }
                Some(l) if l.tree => {
                    let n = pick(&l.len, lengths).max(1);
                    fields.push(crate::tree::random(
                        &mut rng,
                        usize::try_from(n).ok()?,
                        crate::tree::Shape::PathFromRoot,
                    ));
                }
                Some(l) if l.graph.is_some() => {
                    let n = l.graph.map_or(1, |g| fields[g][0]);
                    let m = pick(&l.items(), lengths);
                    fields.push(super::graph::random_dag(&mut rng, n, m));
                }
                Some(l) => {
                    let list = |n: u64| -> Vec<u64> {
                        if !l.column_bounds.is_empty() {
                            let k = l.column_bounds.len();
                            return (0..n)
                                .map(|i| {
                                    let b = &l.column_bounds[i as usize % k];
                                    let t = if f.max_from.is_some() {
                                        b.max.min(top)
                                    } else {
                                        b.max
                                    };
                                    value(fill, b.min, t.max(b.min))
                                })
                                .collect();
                        }
                        let v = value(fill, lo, top);
                        if !l.distinct {
                            return vec![v; n as usize];
                        }
                        let n = n.min(top - lo + 1);
                        match fill {
                            Fill::High => (0..n).map(|i| top - i).collect(),
                            _ => (0..n.min(top - v + 1)).map(|i| v + i).collect(),
                        }
                    };
                    let mut n = pick(&l.len, lengths);
                    n -= n % l.step.max(1);
                    // A corner is one input: a list past 2^22 values is not written.
                    if n > 1 << 22 {
                        return None;
                    }
                    // Items the record's relations exclude are repaired (or dropped).
                    let col_tops: Vec<(u64, u64)> = if l.column_bounds.is_empty() {
                        vec![(lo, top); l.record.max(1) as usize]
                    } else {
                        l.column_bounds.iter().map(|b| (b.min, b.max)).collect()
                    };
                    let list = |n: u64| Self::satisfy(l, &col_tops, list(n));
                    match &f.group {
                        None => fields.push(list(n)),
                        Some(g) => {
                            let m = pick(&g.count, lengths);
                            if m.saturating_mul(n) > 1 << 22 {
                                return None;
                            }
                            let items: Vec<Vec<u64>> = (0..m).map(|_| list(n)).collect();
                            fields.push(encode_items(items.iter().map(Vec::as_slice)));
                        }
                    }
                }
            }
        }
        let mut case = Unpacked { fields };
        self.sync_counts(&mut case);
        self.limits(&case).is_ok().then_some(case)
    }
}

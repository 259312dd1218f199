//! The input layout: reading a case from the input, checking it, and writing it back.

use super::*;

impl Declared {
    /// Reads a value held in `lo..=hi` and written `shift` lower (vertices numbered
    /// from 0: see [`Field::shift`]); an error quotes the value and the range as
    /// written. The field is left for the caller to name.
    pub(super) fn read_written(
        r: &mut Reader<'_>,
        lo: u64,
        hi: u64,
        shift: u64,
    ) -> Result<u64, ParseError> {
        if shift == 0 {
            return r.number("", lo, hi);
        }
        if lo <= hi {
            return Ok(r.number("", lo.saturating_sub(shift), hi - shift)? + shift);
        }
        // No value is allowed (n = 0): the range as written is empty.
        let v = r.number("", 0, u64::MAX)?;
        let written = |x: u64| i128::from(x) - i128::from(shift);
        Err(r.error(
            "",
            format!("expected {}..={}, found {v}", written(lo), written(hi)),
        ))
    }

    /// Reads one number of a case (or the count), naming the field only on error.
    pub(super) fn read(
        r: &mut Reader<'_>,
        num: &Num,
        name: impl FnOnce() -> String,
    ) -> Result<u64, ParseError> {
        let (lo, hi) = num.range(r.lenient());
        r.number("", lo, hi).map_err(|mut e| {
            e.field = name();
            e
        })
    }

    pub(super) fn read_list(
        &self,
        r: &mut Reader<'_>,
        f: &Field,
        l: &ListSpec,
        n: u64,
        (c, j): (usize, usize),
        out: &mut Tokens,
    ) -> Result<(), ParseError> {
        let (lo, mut hi) = f.bounds.range(r.lenient());
        // A bound from an earlier field (`max = "n"`, a graph's vertices).
        if let Some(j) = l.graph.or(f.max_from) {
            hi = hi.min(self.value_before(out, j));
        }
        let k = l.record.max(1);
        let name = |i: u64| {
            let item = f.what.name_in(c, (i - 1) / k + 1, j);
            match l.columns.get(((i - 1) % k) as usize) {
                Some(col) if k > 1 && l.graph.is_none() => format!("{item} ({col})"),
                _ => item,
            }
        };
        let at = out.len();
        // Capacity is capped: a lenient n is only a promise until the numbers are read.
        out.reserve(n.min(1 << 20) as usize);
        // Distinct values: a table indexed by value when the range is small (the index
        // where each value was seen, 0 for none; at most 2^20 entries, whatever n an
        // input announces), a hash map otherwise.
        let dense = l.distinct && hi.saturating_sub(lo) < (1u64 << 16).max(n.min(1 << 17) * 8);
        let mut first_at = if dense {
            vec![0u64; (hi - lo + 1) as usize]
        } else {
            Vec::new()
        };
        let mut seen = rustc_hash::FxHashMap::default();
        if l.distinct && !dense {
            seen.reserve(n.min(1 << 20) as usize);
        }
        // Bounds per column of a record, within the field's.
        let columns: Vec<(u64, u64)> = l
            .column_bounds
            .iter()
            .map(|b| {
                let (a, z) = b.range(r.lenient());
                (a, z.min(hi))
            })
            .collect();
        for i in 1..=n {
            let (lo, hi) = match columns.len() {
                0 => (lo, hi),
                c => columns[((i - 1) % c as u64) as usize],
            };
            let v = Self::read_written(r, lo, hi, f.shift).map_err(|mut e| {
                e.field = name(i);
                e
            })?;
            if l.distinct {
                let repeat = if dense {
                    let slot = &mut first_at[(v - lo) as usize];
                    let k = *slot;
                    if k == 0 {
                        *slot = i;
                    }
                    (k != 0).then_some(k)
                } else {
                    seen.insert(v, i)
                };
                if let Some(k) = repeat {
                    return Err(r.error(
                        f.what.name_in(c, i, j),
                        format!(
                            "{} repeats {} (the values are distinct)",
                            v.saturating_sub(f.shift),
                            f.what.name_in(c, k, j).split(" of ").next().unwrap_or("")
                        ),
                    ));
                }
            }
            out.push(v);
            // A record's relations, once its last column is read (the error at the
            // item's line).
            if i % k == 0 && !l.require.is_empty() {
                let item = &out[out.len() - k as usize..];
                if let Some(why) = l.broken(item) {
                    return Err(r.error(f.what.name_in(c, i / k, j), why));
                }
            }
        }
        if let Some(g) = l.graph {
            let n = self.value_before(out, g);
            if let Err(e) = super::graph::check_dag_written(n, &out[at..], f.shift) {
                return Err(r.error(l.what.name(c, 0).replacen("length of ", "", 1), e));
            }
        }
        Ok(())
    }

    /// The value of number field `j` of the case being read (`tokens`: its numbers so
    /// far, field `j` among them).
    fn value_before(&self, tokens: &[u64], j: usize) -> u64 {
        Packed { decl: self, tokens }.field(j)[0]
    }

    /// Reads the n - 1 edges of a tree field (n already read): each end in 1..=n, and
    /// an error at the line of the first edge that is a self-loop, a repeat or closes
    /// a cycle. Pushes 2(n - 1), then the ends.
    pub(super) fn read_tree(
        &self,
        r: &mut Reader<'_>,
        f: &Field,
        n: u64,
        c: usize,
        out: &mut Tokens,
    ) -> Result<(), ParseError> {
        let m = n.saturating_sub(1);
        out.push(2 * m);
        out.reserve((2 * m).min(1 << 21) as usize);
        let at = out.len();
        let mut checker = crate::tree::TreeChecker::new(n);
        for i in 1..=m {
            let mut ends = [0u64; 2];
            for end in &mut ends {
                *end = r.number("", 1, n).map_err(|mut e| {
                    e.field = f.what.name(c, i);
                    e
                })?;
            }
            if let Err(e) = checker.add(ends[0], ends[1], &out[at..]) {
                return Err(r.error(
                    f.what.name(c, i),
                    format!("edge {} {}: {e}", ends[0], ends[1]),
                ));
            }
            out.push(ends[0]);
            out.push(ends[1]);
        }
        Ok(())
    }

    /// Reads a graph written as adjacency lists (n already read): for each vertex v
    /// of 1..=n a line `k w1 .. wk`, its successors, distinct and in 1..=n; then the
    /// check for a cycle. Pushes 2m (m edges in all), then the edges `v w` in order.
    pub(super) fn read_adjacency(
        &self,
        r: &mut Reader<'_>,
        f: &Field,
        l: &ListSpec,
        c: usize,
        out: &mut Tokens,
    ) -> Result<(), ParseError> {
        let n = l.graph.map_or(0, |g| self.value_before(out, g));
        let max_edges = l.len.range(r.lenient()).1 / 2;
        let at_len = out.len();
        out.push(0);
        let at = out.len();
        let mut edges = 0u64;
        let mut line = rustc_hash::FxHashSet::default();
        for v in 1..=n {
            let count = || format!("{} (successor count)", f.what.name(c, v));
            let k = r.number("", 0, n - 1).map_err(|mut e| {
                e.field = count();
                e
            })?;
            if k > max_edges - edges {
                return Err(r.error(
                    count(),
                    format!(
                        "{k} more successors make {} edges, above the {max_edges} allowed",
                        edges + k
                    ),
                ));
            }
            edges += k;
            line.clear();
            out.reserve(2 * k.min(1 << 20) as usize);
            for j in 1..=k {
                let name = || format!("{} (successor {j})", f.what.name(c, v));
                let w = Self::read_written(r, 1, n, f.shift).map_err(|mut e| {
                    e.field = name();
                    e
                })?;
                if !line.insert(w) {
                    return Err(r.error(
                        name(),
                        format!(
                            "{} repeats (the successors of a vertex are distinct)",
                            w.saturating_sub(f.shift)
                        ),
                    ));
                }
                out.push(v);
                out.push(w);
            }
        }
        out.set(at_len, 2 * edges);
        if let Err(e) = super::graph::check_dag_written(n, &out[at..], f.shift) {
            return Err(r.error(l.what.name(c, 0), e));
        }
        Ok(())
    }

    /// Reads a list ended by its terminator value `end` (`l.until`, not an item):
    /// values within the field's bounds until the terminator, at most the length's
    /// max. Pushes the count, then the values.
    pub(super) fn read_until(
        &self,
        r: &mut Reader<'_>,
        f: &Field,
        l: &ListSpec,
        end: u64,
        c: usize,
        out: &mut Tokens,
    ) -> Result<(), ParseError> {
        let (lo, hi) = f.bounds.range(r.lenient());
        let (min_len, max_len) = l.len.range(r.lenient());
        let at_len = out.len();
        out.push(0);
        let mut seen = rustc_hash::FxHashMap::default();
        let mut n = 0u64;
        loop {
            let i = n + 1;
            let v = r.number("", 0, u64::MAX).map_err(|mut e| {
                e.field = format!("{} (or the terminator {end})", f.what.name(c, i));
                e
            })?;
            if v == end {
                break;
            }
            if !(lo..=hi).contains(&v) {
                return Err(r.error(
                    f.what.name(c, i),
                    format!("expected {lo}..={hi} or the terminator {end}, found {v}"),
                ));
            }
            if n >= max_len {
                return Err(r.error(
                    l.what.name(c, 0),
                    format!("more than {max_len} values before the terminator {end}"),
                ));
            }
            if l.distinct {
                if let Some(k) = seen.insert(v, i) {
                    return Err(r.error(
                        f.what.name(c, i),
                        format!(
                            "{v} repeats {} (the values are distinct)",
                            f.what.name(c, k).split(" of ").next().unwrap_or("")
                        ),
                    ));
                }
            }
            out.push(v);
            n += 1;
        }
        if n < min_len {
            return Err(r.error(
                l.what.name(c, 0),
                format!(
                    "expected at least {min_len} values before the terminator {end}, found {n}"
                ),
            ));
        }
        Self::check_length(r, l, n, l.what.name(c, 0))?;
        out.set(at_len, n);
        Ok(())
    }

    /// Reads a group written without its count (`group.until`, here `end`): items,
    /// each its length and values, until the terminator where a length would stand;
    /// at most the group's max. Pushes the item count, then each item's length and
    /// values.
    pub(super) fn read_group_until(
        &self,
        r: &mut Reader<'_>,
        f: &Field,
        (g, l): (&GroupSpec, &ListSpec),
        end: u64,
        c: usize,
        out: &mut Tokens,
    ) -> Result<(), ParseError> {
        let (min_m, max_m) = g.count.range(r.lenient());
        let (lo, hi) = l.len.range(r.lenient());
        let at = out.len();
        out.push(0);
        let mut m = 0u64;
        loop {
            let j = usize::try_from(m).unwrap_or(usize::MAX).saturating_add(1);
            let n = r.number("", 0, u64::MAX).map_err(|mut e| {
                e.field = format!("{} (or the terminator {end})", l.what.name_in(c, 0, j));
                e
            })?;
            if n == end {
                break;
            }
            if !(lo..=hi).contains(&n) {
                return Err(r.error(
                    l.what.name_in(c, 0, j),
                    format!("expected {lo}..={hi} or the terminator {end}, found {n}"),
                ));
            }
            if m >= max_m {
                return Err(r.error(
                    g.what.name(c, 0),
                    format!("more than {max_m} items before the terminator {end}"),
                ));
            }
            Self::check_length(r, l, n, l.what.name_in(c, 0, j))?;
            out.push(n);
            self.read_list(r, f, l, n, (c, j), out)?;
            m += 1;
        }
        if m < min_m {
            return Err(r.error(
                g.what.name(c, 0),
                format!("expected at least {min_m} items before the terminator {end}, found {m}"),
            ));
        }
        out.set(at, m);
        Ok(())
    }

    pub(super) fn check_length(
        r: &Reader<'_>,
        l: &ListSpec,
        n: u64,
        name: String,
    ) -> Result<(), ParseError> {
        if !n.is_multiple_of(l.step) {
            let (n, step) = (n / l.record.max(1), l.step / l.record.max(1));
            let what = if step == 2 {
                "an even number".to_string()
            } else {
                format!("a multiple of {step}")
            };
            return Err(r.error(name, format!("expected {what}, found {n}")));
        }
        Ok(())
    }

    /// Reads the rest of case `c` from field `from` on (`tokens` holds the numbers
    /// of the fields before it, already read).
    pub(super) fn read_case(
        &self,
        r: &mut Reader<'_>,
        c: usize,
        from: usize,
        mut tokens: Tokens,
    ) -> Result<Case, ParseError> {
        for f in &self.fields[from..] {
            match (&f.group, &f.list) {
                (
                    Some(
                        g @ GroupSpec {
                            until: Some(end), ..
                        },
                    ),
                    Some(l),
                ) => {
                    self.read_group_until(r, f, (g, l), *end, c, &mut tokens)?;
                }
                (Some(g), Some(l)) => {
                    let m = Self::read(r, &g.count, || g.what.name(c, 0))?;
                    tokens.push(m);
                    for j in 1..=m as usize {
                        let n = Self::read(r, &l.len, || l.what.name_in(c, 0, j))?;
                        Self::check_length(r, l, n, l.what.name_in(c, 0, j))?;
                        tokens.push(n);
                        self.read_list(r, f, l, n, (c, j), &mut tokens)?;
                    }
                }
                (_, None) => {
                    // At most the value of an earlier field (`max = "n"`), as written.
                    let (lo, mut hi) = f.bounds.range(r.lenient());
                    if let Some(j) = f.max_from {
                        hi = hi.min(self.value_before(&tokens, j));
                    }
                    let v = Self::read_written(r, lo, hi, f.shift).map_err(|mut e| {
                        e.field = f.what.name(c, 1);
                        e
                    })?;
                    tokens.push(v);
                }
                (None, Some(l)) if l.tree => {
                    let n = Self::read(r, &l.len, || l.what.name(c, 0))?;
                    self.read_tree(r, f, n, c, &mut tokens)?;
                }
                (None, Some(l)) if l.adjacency => {
                    self.read_adjacency(r, f, l, c, &mut tokens)?;
                }
                (
                    None,
                    Some(
                        l @ ListSpec {
                            until: Some(end), ..
                        },
                    ),
                ) => {
                    self.read_until(r, f, l, *end, c, &mut tokens)?;
                }
                (None, Some(l)) => {
                    // The length counts items (k numbers each for a record).
                    let k = l.record.max(1);
                    let items = match l.len_from {
                        Some(m) => self.value_before(&tokens, m),
                        None => Self::read(r, &l.items(), || l.what.name(c, 0))?,
                    };
                    let n = items.saturating_mul(k);
                    Self::check_length(r, l, n, l.what.name(c, 0))?;
                    tokens.push(n);
                    self.read_list(r, f, l, n, (c, 0), &mut tokens)?;
                }
            }
        }
        let view = Packed {
            decl: self,
            tokens: &tokens,
        };
        self.check_case(r, &view, c)?;
        Ok(Case { tokens })
    }

    /// The constraints between fields and the game's own checks, at the current line.
    pub(super) fn check_case<V: View>(
        &self,
        r: &Reader<'_>,
        case: &V,
        c: usize,
    ) -> Result<(), ParseError> {
        for (k, f) in self.fields.iter().enumerate() {
            if let Some(j) = f.at_least {
                let (v, w) = (case.field(k)[0], case.field(j)[0]);
                if v < w {
                    return Err(r.error(
                        f.what.name(c, 1),
                        format!(
                            "expected {} >= {} = {w}, found {v}",
                            f.name, self.fields[j].name
                        ),
                    ));
                }
            }
        }
        self.game_check(case)
            .map_err(|m| r.error(format!("case {c}"), m))
    }

    /// Writes one case's lines.
    pub(super) fn write_case<V: View>(&self, s: &mut String, case: &V) {
        let mut line_open = false;
        let sep = |s: &mut String, open: &mut bool| {
            if *open {
                s.push(' ');
            }
            *open = true;
        };
        // Values as written: vertices numbered from 0 one lower (see `Field::shift`).
        let list = |s: &mut String, l: &ListSpec, v: &[u64], shift: u64| {
            let k = l.record.max(1) as usize;
            if l.len_from.is_none() {
                let _ = write!(s, "{}", v.len() / k);
                if !l.inline {
                    s.push('\n');
                } else if !v.is_empty() {
                    s.push(' ');
                }
            }
            for (i, x) in v.iter().enumerate() {
                if i > 0 {
                    // A record's items one per line (all on one with `inline`).
                    s.push(if k > 1 && i % k == 0 && !l.inline {
                        '\n'
                    } else {
                        ' '
                    });
                }
                let _ = write!(s, "{}", x.saturating_sub(shift));
            }
            // An empty list still ends the line of its length (and, one number per
            // item, has an empty line of values).
            if !v.is_empty() || (l.len_from.is_none() && (k == 1 || l.inline)) {
                s.push('\n');
            }
        };
        for (k, f) in self.fields.iter().enumerate() {
            let v = case.field(k);
            match (&f.group, &f.list) {
                (
                    Some(GroupSpec {
                        until: Some(end), ..
                    }),
                    Some(l),
                ) => {
                    // The items on lines of their own, then the terminator's line.
                    if line_open {
                        s.push('\n');
                    }
                    for item in items(v) {
                        list(s, l, item, f.shift);
                    }
                    let _ = writeln!(s, "{end}");
                    line_open = false;
                }
                (Some(_), Some(l)) => {
                    sep(s, &mut line_open);
                    let _ = writeln!(s, "{}", items(v).count());
                    for item in items(v) {
                        list(s, l, item, f.shift);
                    }
                    line_open = false;
                }
                (_, None) => {
                    sep(s, &mut line_open);
                    let _ = write!(s, "{}", v[0].saturating_sub(f.shift));
                }
                (None, Some(l)) if l.tree => {
                    sep(s, &mut line_open);
                    let _ = writeln!(s, "{}", crate::tree::vertices(v));
                    for e in v.chunks_exact(2) {
                        let _ = writeln!(s, "{} {}", e[0], e[1]);
                    }
                    line_open = false;
                }
                (None, Some(l)) if l.adjacency => {
                    // A line per vertex, after the numbers before it.
                    if line_open {
                        s.push('\n');
                    }
                    let n = l.graph.map_or(0, |g| case.field(g)[0]);
                    write_adjacency(s, n, v, f.shift);
                    line_open = false;
                }
                (
                    None,
                    Some(
                        l @ ListSpec {
                            until: Some(end), ..
                        },
                    ),
                ) => {
                    // On a line of its own: the values, then the terminator (on the
                    // values' line with `inline`, on the next without).
                    if line_open {
                        s.push('\n');
                    }
                    for (i, x) in v.iter().enumerate() {
                        if i > 0 {
                            s.push(' ');
                        }
                        let _ = write!(s, "{x}");
                    }
                    if !v.is_empty() {
                        s.push(if l.inline { ' ' } else { '\n' });
                    }
                    let _ = writeln!(s, "{end}");
                    line_open = false;
                }
                (None, Some(l)) if l.len_from.is_some() => {
                    // Its length was written with the numbers before it.
                    if line_open {
                        s.push('\n');
                    }
                    list(s, l, v, f.shift);
                    line_open = false;
                }
                (None, Some(l)) => {
                    sep(s, &mut line_open);
                    list(s, l, v, f.shift);
                    line_open = false;
                }
            }
        }
        if line_open {
            s.push('\n');
        }
    }

    /// Whether a case respects the format (what `--lenient` never lifts) and the
    /// game's checks.
    pub(super) fn check_format(&self, case: &Unpacked) -> Result<(), String> {
        self.check_layout(case)?;
        self.check_game(case)
    }

    /// The game's own check of a case whose layout holds: its rules and position
    /// (or each position of a group) as the game reads them.
    pub(super) fn check_game(&self, case: &Unpacked) -> Result<(), String> {
        let rules = self.rules_of(case)?;
        if let Some(g) = self.group {
            for (j, pos) in items(&case.fields[g]).enumerate() {
                rules
                    .check(pos)
                    .map_err(|m| format!("position {}: {m}", j + 1))?;
            }
            return Ok(());
        }
        rules.check(&self.position_of(case))
    }

    /// [`Declared::check_format`] without the game's own check: the fields, their
    /// bounds, lengths and relations, whatever the game makes of the position.
    pub(super) fn check_layout(&self, case: &Unpacked) -> Result<(), String> {
        if case.fields.len() != self.fields.len() {
            return Err(format!(
                "{} fields, expected {}",
                case.fields.len(),
                self.fields.len()
            ));
        }
        let check_list = |name: &str, l: &ListSpec, v: &[u64]| -> Result<(), String> {
            if !(v.len() as u64).is_multiple_of(l.step) {
                return Err(format!(
                    "{name} has {} values, not a multiple of {}",
                    v.len(),
                    l.step
                ));
            }
            if !l.require.is_empty() {
                let k = l.record.max(1) as usize;
                for (i, item) in v.chunks_exact(k).enumerate() {
                    if let Some(why) = l.broken(item) {
                        return Err(format!("{name} item {}: {why}", i + 1));
                    }
                }
            }
            if l.distinct {
                let mut sorted = v.to_vec();
                sorted.sort_unstable();
                if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
                    return Err(format!("{name} {} repeats", w[0]));
                }
            }
            Ok(())
        };
        for (f, v) in self.fields.iter().zip(&case.fields) {
            match (&f.group, &f.list) {
                (Some(_), Some(l)) => {
                    let mut p = 0;
                    while p < v.len() {
                        let n = usize::try_from(v[p]).unwrap_or(usize::MAX);
                        if n > v.len() - p - 1 {
                            return Err(format!("{}: an item runs past the end", f.name));
                        }
                        check_list(f.name, l, &v[p + 1..p + 1 + n])?;
                        p += 1 + n;
                    }
                }
                (_, None) if v.len() != 1 => return Err(format!("{} is one number", f.name)),
                (None, Some(l)) if l.tree => {
                    crate::tree::check(v).map_err(|e| format!("{}: {e}", f.name))?;
                }
                (None, Some(l)) => {
                    check_list(f.name, l, v)?;
                    if let Some(g) = l.graph {
                        let n = case.fields[g][0];
                        super::graph::check_dag(n, v).map_err(|e| format!("{}: {e}", f.name))?;
                        if l.adjacency {
                            let mut edges: Vec<&[u64]> = v.chunks_exact(2).collect();
                            edges.sort_unstable();
                            if let Some(w) = edges.windows(2).find(|w| w[0] == w[1]) {
                                return Err(format!(
                                    "{}: the edge {} {} repeats (an adjacency list)",
                                    f.name, w[0][0], w[0][1]
                                ));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        for (k, f) in self.fields.iter().enumerate() {
            if let Some(j) = f.max_from {
                let top = case.fields[j][0];
                // A group's values hold each item's length before its values.
                let above = if f.group.is_some() {
                    items(&case.fields[k]).flatten().find(|&&x| x > top)
                } else {
                    case.fields[k].iter().find(|&&x| x > top)
                };
                if let Some(x) = above {
                    return Err(format!(
                        "{} {x} is above {} = {top}",
                        f.name, self.fields[j].name
                    ));
                }
            }
            if let Some(l) = f.counts {
                let n = self.items_of(l, &case.fields[l]);
                if case.fields[k][0] != n {
                    return Err(format!(
                        "{} = {} but {} holds {n} items",
                        f.name, case.fields[k][0], self.fields[l].name
                    ));
                }
            }
        }
        for (k, f) in self.fields.iter().enumerate() {
            if let Some(j) = f.at_least {
                if case.fields[k][0] < case.fields[j][0] {
                    return Err(format!(
                        "{} = {} is below {} = {}",
                        f.name, case.fields[k][0], self.fields[j].name, case.fields[j][0]
                    ));
                }
            }
        }
        Ok(())
    }

    // -----------------------------------------------------------------------------
    // Generation.
}

/// Writes the edges `flat` (pairs `u v`) of a graph on 1..=n as adjacency lists: a
/// line `k w1 .. wk` per vertex, each vertex's successors in the order of `flat`,
/// written `shift` lower (1 for vertices numbered from 0).
fn write_adjacency(s: &mut String, n: u64, flat: &[u64], shift: u64) {
    let edges: Vec<&[u64]> = flat.chunks_exact(2).collect();
    // Edges by tail (a stable sort: each line keeps its order).
    let mut order: Vec<usize> = (0..edges.len()).collect();
    order.sort_by_key(|&i| edges[i][0]);
    let mut next = order.iter().peekable();
    for v in 1..=n {
        let mut line = Vec::new();
        while let Some(&&i) = next.peek() {
            if edges[i][0] != v {
                break;
            }
            line.push(edges[i][1]);
            next.next();
        }
        let _ = write!(s, "{}", line.len());
        for w in line {
            let _ = write!(s, " {}", w.saturating_sub(shift));
        }
        s.push('\n');
    }
}

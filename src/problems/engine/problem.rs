//! [`Problem`] for a declared problem: parse, answer, oracle answer, limits.

use super::shrink::PartSrc;
use super::*;

impl Problem for Declared {
    type Case = Case;

    fn info(&self) -> Info {
        self.info.clone()
    }

    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<Case>, ParseError> {
        let mut cases = Vec::new();
        self.parse_each(input, lenient, |c| cases.push(c))?;
        Ok(cases)
    }

    fn solve_text(&self, input: &str, lenient: bool) -> Result<String, SolveError> {
        let mut out = String::with_capacity(input.len() / 2);
        let mut index = 0;
        // The first case the declaration could not answer: nothing is printed then.
        let mut failed = None;
        self.parse_each(input, lenient, |c| {
            if failed.is_none() {
                let from = out.len();
                if let Err(why) = self.answer_into(&c, index, &mut out) {
                    failed = Some(SolveError::Unanswerable { case: index, why });
                } else if crate::problems::choice::has_set(&out[from..]) {
                    // A set of accepted answers prints as its first one.
                    let text = crate::problems::choice::first(&out[from..]).into_owned();
                    out.truncate(from);
                    out.push_str(&text);
                }
            }
            index += 1;
        })
        .map_err(SolveError::Parse)?;
        match failed {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }

    fn write_input(&self, cases: &[Case]) -> String {
        let mut s = String::new();
        if let Layout::Count { .. } = self.layout {
            let _ = writeln!(s, "{}", cases.len());
        }
        for c in cases {
            self.write_case(&mut s, &self.packed(c));
        }
        if let Layout::Terminator { zeros, .. } = self.layout {
            s.push_str(&vec!["0"; zeros].join(" "));
            s.push('\n');
        }
        s
    }

    fn answer(&self, case: &Case, index: usize) -> Result<Vec<String>, String> {
        let mut text = String::new();
        self.answer_into(case, index, &mut text)?;
        Ok(super::render::lines_of(&text))
    }

    fn rules_error(&self, case: &Case) -> Option<String> {
        self.rules_of(&self.packed(case)).err()
    }

    fn oracle_answer(
        &self,
        case: &Case,
        index: usize,
        budget: usize,
    ) -> Result<Vec<String>, SearchError> {
        let view = self.packed(case);
        let rules = self
            .rules_of(&view)
            .map_err(|_| SearchError::Budget { budget })?;
        if let Some(g) = self.group {
            let answers = items(view.field(g)).map(|pos| {
                Ok(if self.needs_moves {
                    Ok(rules.oracle_analyze(pos, budget, self.needs_notation)?)
                } else {
                    Err(rules.oracle_first_wins(pos, budget)?)
                })
            });
            return self.render_group(index, answers);
        }
        let pos = self.position_of(&view);
        let a = if self.needs_moves {
            Ok(rules.oracle_analyze(&pos, budget, self.needs_notation)?)
        } else {
            Err(rules.oracle_first_wins(&pos, budget)?)
        };
        Ok(self.render(index, a))
    }

    fn confirm_claims(
        &self,
        case: &Case,
        until: std::time::Instant,
    ) -> Result<(), crate::games::declared::Claim> {
        use crate::games::declared::Claim;
        let view = self.packed(case);
        let rules = self.rules_of(&view).map_err(Claim::Unchecked)?;
        if let Some(g) = self.group {
            return items(view.field(g)).try_for_each(|pos| rules.confirm_claims(pos, until));
        }
        rules.confirm_claims(&self.position_of(&view), until)
    }

    fn max_cases(&self) -> usize {
        self.max_cases
    }

    /// Per field: one number; a list's length and values; a group's count and, per
    /// item, a length and values; a tree's n and its 2(n - 1) edge ends.
    fn max_numbers_per_case(&self) -> Option<u64> {
        self.fields.iter().try_fold(0u64, |sum, f| {
            let here = match (&f.group, &f.list) {
                (_, None) => 1,
                (Some(g), Some(l)) => g
                    .count
                    .max
                    .checked_mul(l.len.max.checked_add(1)?)?
                    .checked_add(1)?,
                (None, Some(l)) if l.tree => l.len.max.checked_mul(2)?.checked_sub(1)?,
                // An adjacency list writes a count per vertex besides its edges' ends.
                (None, Some(l)) if l.adjacency => {
                    let n = l.graph.map_or(0, |g| self.fields[g].bounds.max);
                    l.len.max.checked_add(1)?.checked_add(n)?
                }
                (None, Some(l)) => l.len.max.checked_add(1)?,
            };
            sum.checked_add(here)
        })
    }

    fn check_limits(&self, case: &Case) -> Result<(), String> {
        self.limits(&self.unpack(case))
    }

    /// Every case whose size is `size`: the size of a case is the sum, over its
    /// numbers, of how far each is above its minimum, plus, for each list, how many
    /// more values it holds than its minimum length (in steps of `multiple_of`).
    /// Lists grow to `enumerate_max` values at most, distinct lists come in
    /// increasing order, and at most `ENUM_CAP` (100,000) cases are returned.
    fn small_cases(&self, size: u32) -> Vec<Case> {
        let mut out = Vec::new();
        let mut cur: Vec<Vec<u64>> = Vec::with_capacity(self.fields.len());
        self.enumerate(0, u64::from(size), &mut cur, &mut out);
        out.iter().map(|u| self.pack(u)).collect()
    }

    fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> Case {
        let mut u = self.generate_unpacked(rng, scale, shape);
        // The draw keeps every bound, length and relation, but the game may change
        // the position afterwards (a losing one made by pairing equal values, an
        // interesting one), and a record's item may be dropped below the list's
        // shortest: a case the format excludes is drawn again, and after 16 tries a
        // plain draw is kept, so that no input the statement excludes is given. (What
        // the game makes of the case is not asked here: a case its declaration fails
        // on is drawn like any other, and counted when it cannot be answered.)
        for attempt in 0..17 {
            if self.check_layout(&u).is_ok() {
                break;
            }
            u = if attempt < 15 {
                self.generate_unpacked(rng, scale, shape)
            } else {
                self.draw(rng, scale, Shape::Any).0
            };
        }
        self.pack(&u)
    }

    fn samples(&self) -> Vec<crate::problems::known::KnownCase> {
        if !self.samples.is_empty() {
            return self.samples.clone();
        }
        if self.info.source.starts_with("built-in ") {
            return crate::problems::known::builtin(self.info.id).case;
        }
        Vec::new()
    }

    fn corner_cases(&self) -> Vec<Case> {
        self.corners().iter().map(|u| self.pack(u)).collect()
    }

    fn shrink(&self, case: &Case) -> Vec<Case> {
        let u = self.unpack(case);
        self.shrink_unpacked(&u)
            .iter()
            .map(|c| self.pack(c))
            .collect()
    }

    fn halves(&self, case: &Case) -> Vec<Case> {
        let u = self.unpack(case);
        self.halves_unpacked(&u)
            .iter()
            .map(|c| self.pack(c))
            .collect()
    }

    /// One part per list field (removed in steps of `multiple_of`, down to its
    /// minimum length) and one per run of consecutive number fields with the same
    /// minimum (only lowered), in declaration order; each value's lower bound is its
    /// field's `min`.
    ///
    /// A case with a `tree` field has no parts: removing or lowering single numbers
    /// of an edge list rarely leaves a tree, so the audit shrinks it with
    /// [`Problem::shrink`] (fewer vertices, shorter paths) and [`Problem::halves`].
    fn parts(&self, case: &Case) -> Vec<ShrinkPart> {
        if self.has_tree() {
            return Vec::new();
        }
        let view = self.packed(case);
        self.part_sources(&view)
            .into_iter()
            .map(|src| match src {
                PartSrc::Fields(group) => {
                    let f = &self.fields[group.start];
                    match &f.list {
                        Some(l) => ShrinkPart {
                            values: view.field(group.start).to_vec(),
                            min_value: f.bounds.min,
                            min_len: usize::try_from(l.len.min).unwrap_or(usize::MAX),
                            unit: usize::try_from(l.step).unwrap_or(usize::MAX).max(1),
                        },
                        None => ShrinkPart::fixed(
                            group.map(|k| view.field(k)[0]).collect(),
                            f.bounds.min,
                        ),
                    }
                }
                PartSrc::Item(k, j) => {
                    let f = &self.fields[k];
                    let step = f.list.as_ref().map_or(1, |l| l.step);
                    // An item emptied is an item removed (fewer positions).
                    ShrinkPart {
                        values: items(view.field(k)).nth(j).unwrap_or(&[]).to_vec(),
                        min_value: f.bounds.min,
                        min_len: 0,
                        unit: usize::try_from(step).unwrap_or(usize::MAX).max(1),
                    }
                }
            })
            .collect()
    }

    fn component_values(&self, case: &Case, part: usize, values: &[u64]) -> Option<Vec<u64>> {
        self.component_values_of(case, part, values)
    }

    fn smallest_component(&self, case: &Case, part: usize, value: u64) -> Option<Vec<u64>> {
        self.smallest_component_of(case, part, value)
    }

    fn case_size(&self, case: &Case) -> Option<u64> {
        Some(self.size_of(case))
    }

    fn all_cases_of_size(&self, size: u64, cap: usize) -> Option<Vec<Case>> {
        self.all_of_size(size, cap)
    }

    fn position_value(&self, case: &Case) -> Option<u64> {
        self.position_value_of(case)
    }

    fn renumbered(&self, case: &Case) -> Vec<Case> {
        let mut u = self.unpack(case);
        let mut changed = false;
        for (g, f) in self.fields.iter().enumerate() {
            let Some(nf) = f.list.as_ref().and_then(|l| l.graph) else {
                continue;
            };
            // The vertices in use: the graph's ends, and every value bounded by n.
            let users: Vec<usize> = (0..self.fields.len())
                .filter(|&k| k == g || self.fields[k].max_from == Some(nf))
                .collect();
            // A group's values hold each item's length before its vertices.
            let vertices = |k: usize, values: &[u64]| -> Vec<u64> {
                if self.fields[k].group.is_some() {
                    items(values).flatten().copied().collect()
                } else {
                    values.to_vec()
                }
            };
            let mut used: Vec<u64> = users
                .iter()
                .flat_map(|&k| vertices(k, &u.fields[k]))
                .collect();
            used.sort_unstable();
            used.dedup();
            let n = u.fields[nf][0];
            let k = (used.len() as u64).max(self.fields[nf].bounds.min);
            if k >= n {
                continue;
            }
            let renumber = |v: u64| used.binary_search(&v).map_or(v, |i| i as u64 + 1);
            for &field in &users {
                if self.fields[field].group.is_some() {
                    let list: Vec<Vec<u64>> = items(&u.fields[field])
                        .map(|item| item.iter().map(|&v| renumber(v)).collect())
                        .collect();
                    u.fields[field] = encode_items(list.iter().map(Vec::as_slice));
                } else {
                    for v in &mut u.fields[field] {
                        *v = renumber(*v);
                    }
                }
            }
            u.fields[nf][0] = k;
            changed = true;
        }
        if !changed {
            return Vec::new();
        }
        self.sync_counts(&mut u);
        match self.limits(&u) {
            Ok(()) => vec![self.pack(&u)],
            Err(_) => Vec::new(),
        }
    }

    fn tree(&self, case: &Case) -> Option<Vec<u64>> {
        self.tree_of(case)
    }

    fn with_tree(&self, case: &Case, flat: Vec<u64>) -> Option<Case> {
        self.with_tree_of(case, flat)
    }

    /// The case with these values, when it respects every limit and constraint of the
    /// declaration (lengths and their `multiple_of`, `distinct`, `at_least`, bounds,
    /// the game's check) and would not read as the terminator. An item of a group
    /// whose values are all gone is removed.
    fn rebuild(&self, case: &Case, values: Vec<Vec<u64>>) -> Option<Case> {
        if self.has_tree() {
            // No parts: the only values are none at all, which give the case back.
            return values.is_empty().then(|| case.clone());
        }
        let sources = self.part_sources(&self.packed(case));
        if values.len() != sources.len() {
            return None;
        }
        let mut fields: Vec<Vec<u64>> = vec![Vec::new(); self.fields.len()];
        for (src, v) in sources.into_iter().zip(values) {
            match src {
                PartSrc::Fields(group) => {
                    if self.fields[group.start].list.is_some() {
                        fields[group.start] = v;
                    } else if v.len() == group.len() {
                        for (k, x) in group.zip(v) {
                            fields[k] = vec![x];
                        }
                    } else {
                        return None;
                    }
                }
                PartSrc::Item(k, _) => {
                    if !v.is_empty() {
                        fields[k].push(v.len() as u64);
                        fields[k].extend(v);
                    }
                }
            }
        }
        let mut u = Unpacked { fields };
        self.sync_counts(&mut u);
        self.limits(&u).ok()?;
        if let Layout::Terminator { zeros, .. } = self.layout {
            let ends = match &self.fields[0].list {
                Some(_) => u.fields[0].is_empty(),
                None => u.fields[..zeros.min(u.fields.len())]
                    .iter()
                    .all(|f| f[0] == 0),
            };
            if ends {
                return None;
            }
        }
        Some(self.pack(&u))
    }
}

impl Declared {
    pub(super) fn limits(&self, case: &Unpacked) -> Result<(), String> {
        // The game is asked last: a case far past the limits (a boundary length of
        // 10^6 values probed against a list of at most 3) is refused by its lengths
        // at once, where a script would read the whole position first.
        self.check_layout(case)?;
        for (f, v) in self.fields.iter().zip(&case.fields) {
            if let (Some(g), Some(l)) = (&f.group, &f.list) {
                let m = items(v).count() as u64;
                if !(g.count.min..=g.count.max).contains(&m) {
                    return Err(format!(
                        "{} holds {m} items, outside {}..={}",
                        f.name, g.count.min, g.count.max
                    ));
                }
                for (j, item) in items(v).enumerate() {
                    let n = item.len() as u64;
                    if !(l.len.min..=l.len.max).contains(&n) {
                        return Err(format!(
                            "item {} of {} holds {n} values, outside {}..={}",
                            j + 1,
                            f.name,
                            l.len.min,
                            l.len.max
                        ));
                    }
                    let (lo, hi) = (f.bounds.min, f.bounds.max);
                    if let Some(x) = item.iter().find(|&&x| !(lo..=hi).contains(&x)) {
                        return Err(format!("{} {x} is outside {lo}..={hi}", f.name));
                    }
                }
                continue;
            }
            if let Some(l) = &f.list {
                let (n, what) = if l.tree {
                    (crate::tree::vertices(v) as u64, "vertices")
                } else {
                    (v.len() as u64, "values")
                };
                if !(l.len.min..=l.len.max).contains(&n) {
                    return Err(format!(
                        "{} holds {n} {what}, outside {}..={}",
                        f.name, l.len.min, l.len.max
                    ));
                }
            }
            if let Some(cb) = f
                .list
                .as_ref()
                .map(|l| &l.column_bounds)
                .filter(|c| !c.is_empty())
            {
                for (i, &x) in v.iter().enumerate() {
                    let b = &cb[i % cb.len()];
                    if !(b.min..=b.max).contains(&x) {
                        return Err(format!(
                            "{} {x} (column {}) is outside {}..={}",
                            f.name,
                            i % cb.len() + 1,
                            b.min,
                            b.max
                        ));
                    }
                }
                continue;
            }
            let (lo, hi) = (f.bounds.min, f.bounds.max);
            if let Some(x) = v.iter().find(|&&x| !(lo..=hi).contains(&x)) {
                return Err(format!("{} {x} is outside {lo}..={hi}", f.name));
            }
        }
        self.check_game(case)
    }
}

impl Declared {
    /// Reads a whole input, handing each case to `each` as soon as it is read (an
    /// error stops the reading; the cases handed on before it were valid).
    pub(super) fn parse_each(
        &self,
        input: &str,
        lenient: bool,
        mut each: impl FnMut(Case),
    ) -> Result<(), ParseError> {
        let mut r = Reader::new(input, lenient);
        let mut count = 0usize;
        match &self.layout {
            Layout::Count { what, num } => {
                let t = Self::read(&mut r, num, || what.to_string())?;
                let line = r.line();
                for c in 1..=t {
                    each(self.read_case(&mut r, c as usize, 0, Tokens::new())?);
                }
                r.expect_end(&format!("the {t} case(s) announced on line {line}"))?;
            }
            Layout::One => {
                each(self.read_case(&mut r, 1, 0, Tokens::new())?);
                r.expect_end("the one case of the input")?;
            }
            Layout::Eof => {
                while !r.at_end() {
                    let c = count + 1;
                    count += 1;
                    each(self.read_case(&mut r, c, 0, Tokens::new())?);
                }
            }
            Layout::Terminator { zeros, what } => loop {
                let c = count + 1;
                let name = |k: usize| {
                    let f = &self.fields[k];
                    match &f.list {
                        Some(l) => l.what.name(c, 0),
                        None => f.what.name(c, 1),
                    }
                };
                // The first `zeros` numbers are read as they come, then checked: all 0
                // ends the input, anything else is a case.
                let mut raw = [(0u64, 0usize); 8];
                let zeros = (*zeros).min(raw.len());
                for (k, slot) in raw.iter_mut().enumerate().take(zeros) {
                    let v = r.number("", 0, u64::MAX).map_err(|mut e| {
                        e.field = if k == 0 {
                            // At the end of input this names the last line: the
                            // terminator is missing.
                            format!("{} (or {what})", name(k))
                        } else {
                            name(k)
                        };
                        e
                    })?;
                    *slot = (v, r.line());
                }
                if raw[..zeros].iter().all(|x| x.0 == 0) {
                    r.expect_end(what)?;
                    break;
                }
                let mut tokens = Tokens::new();
                let mut list_len = None;
                for (k, &(v, line)) in raw[..zeros].iter().enumerate() {
                    let f = &self.fields[k];
                    // A list's number is its length in items (a record's k numbers
                    // each), as when it is read anywhere else.
                    let items = f.list.as_ref().map(|l| l.items());
                    let num = items.as_ref().unwrap_or(&f.bounds);
                    let (lo, hi) = num.range(lenient);
                    if !(lo..=hi).contains(&v) {
                        let why = if v == 0 {
                            format!(" (only {what} may hold zeros: it ends the input)")
                        } else {
                            String::new()
                        };
                        return Err(ParseError {
                            line,
                            field: name(k),
                            message: format!("expected {lo}..={hi}, found {v}{why}"),
                        });
                    }
                    match &f.list {
                        Some(l) => {
                            let n = v.saturating_mul(l.record.max(1));
                            Self::check_length(&r, l, n, name(k))?;
                            tokens.push(n);
                            list_len = Some((n, l));
                        }
                        None => tokens.push(v),
                    }
                }
                if let Some((n, l)) = list_len {
                    self.read_list(&mut r, &self.fields[0], l, n, (c, 0), &mut tokens)?;
                }
                count += 1;
                each(self.read_case(&mut r, c, zeros, tokens)?);
            },
        }
        Ok(())
    }
}

impl Declared {
    /// [`Problem::answer`] appended to `out`, each line ended by `\n`; `Err` (and
    /// nothing appended) when the case cannot be answered: its rules are invalid, or
    /// the game could not answer a position (a declared script that failed).
    pub(super) fn answer_into(
        &self,
        case: &Case,
        index: usize,
        out: &mut String,
    ) -> Result<(), String> {
        let view = self.packed(case);
        // Parsing and the generators only make cases whose rules are valid.
        let invalid = |e: String| format!("invalid rules: {e}");
        if let Some(g) = self.group {
            // One rules value for the case, every item answered with it.
            let rules = self.rules_of(&view).map_err(invalid)?;
            // The first position the game could not answer, and why.
            let mut failed = None;
            let answers = items(view.field(g)).enumerate().map(|(j, pos)| {
                let a = if self.needs_moves {
                    rules.analyze(pos, self.needs_notation).map(Ok)
                } else {
                    rules.first_wins(pos).map(Err)
                };
                a.map_err(|e| {
                    failed.get_or_insert_with(|| format!("position {}: {e}", j + 1));
                    SearchError::Budget { budget: 0 }
                })
            });
            let mut text = String::new();
            let rendered = self.render_group_into(index, answers, &mut text);
            if let Some(e) = failed {
                return Err(e);
            }
            rendered.map_err(|e| e.to_string())?;
            out.push_str(&text);
            return Ok(());
        }
        if let (false, RulesSrc::PerCase(params)) = (self.needs_moves, &self.rules) {
            let pos = self.position_of(&view);
            let win = self.with_params(params, &view, |p| self.game.first_wins_with(p, &pos))?;
            self.render_lines_into(index, &Err(win), "", out);
            return Ok(());
        }
        let built;
        let rules: &dyn DeclaredRules = match &self.rules {
            RulesSrc::Fixed(r) => r.as_ref(),
            RulesSrc::PerCase(_) => {
                built = self.rules_of(&view).map_err(invalid)?;
                built.as_ref()
            }
        };
        let pos = self.position_of(&view);
        let a = if self.needs_moves {
            Ok(rules.analyze(&pos, self.needs_notation)?)
        } else {
            Err(rules.first_wins(&pos)?)
        };
        self.render_lines_into(index, &a, "", out);
        Ok(())
    }
}

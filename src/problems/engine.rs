//! The format engine: one [`Problem`] implementation for every declared problem.
//!
//! From a declaration (see [`super::declaration`]) it derives, once for all problems:
//! strict parsing with line and field errors, writing, limit checks, smallest-first
//! enumeration, random and limit generation (losing and many-winning shapes through
//! the game's solver), shrinking and halving. The game's side (rules, verdicts, moves,
//! losing positions) comes from [`crate::games::declared`].

use super::{Info, ParseError, Part as ShrinkPart, Problem, Reader, Shape};
use crate::games::declared::{DeclarableGame, DeclaredRules, MoveView, ParamValue};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::{Analysis, SearchError};
use std::fmt::Write as _;
use std::sync::Arc;

/// The largest declaration file read: a declaration is a few KiB; anything past this
/// is refused before it is parsed.
pub const MAX_DECLARATION_BYTES: u64 = 4 << 20;

/// One case of a declared problem, as the numbers of the input in order: a number
/// field's value, a list's length followed by its values. One allocation per case,
/// whatever the fields: formats of 10^5 small cases read fast.
/// [`Declared::fields`] and [`Declared::case`] convert from and to the fields.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Case {
    tokens: Tokens,
}

impl Case {
    /// The numbers of the case, as in the input.
    pub fn tokens(&self) -> &[u64] {
        &self.tokens
    }
}

/// The numbers of a case: up to four in place (most line formats: `n p q`), more on
/// the heap.
#[derive(Clone, Debug)]
enum Tokens {
    Inline([u64; 4], u8),
    Heap(Vec<u64>),
}

impl Tokens {
    fn new() -> Tokens {
        Tokens::Inline([0; 4], 0)
    }

    fn push(&mut self, v: u64) {
        match self {
            Tokens::Inline(a, n) if (*n as usize) < a.len() => {
                a[*n as usize] = v;
                *n += 1;
            }
            Tokens::Inline(a, n) => {
                let mut h = Vec::with_capacity(8);
                h.extend_from_slice(&a[..*n as usize]);
                h.push(v);
                *self = Tokens::Heap(h);
            }
            Tokens::Heap(h) => h.push(v),
        }
    }

    fn reserve(&mut self, extra: usize) {
        if let Tokens::Inline(a, n) = self {
            if *n as usize + extra > a.len() {
                let mut h = Vec::with_capacity(*n as usize + extra);
                h.extend_from_slice(&a[..*n as usize]);
                *self = Tokens::Heap(h);
            }
        }
        if let Tokens::Heap(h) = self {
            h.reserve(extra);
        }
    }
}

impl std::ops::Deref for Tokens {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        match self {
            Tokens::Inline(a, n) => &a[..*n as usize],
            Tokens::Heap(h) => h,
        }
    }
}

impl PartialEq for Tokens {
    fn eq(&self, other: &Tokens) -> bool {
        **self == **other
    }
}

impl Eq for Tokens {}

impl std::hash::Hash for Tokens {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

/// A case as the values of its fields, in declaration order (a number field holds
/// one value): what enumeration, generation and shrinking work on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Unpacked {
    pub fields: Vec<Vec<u64>>,
}

/// Read access to the fields of a case, packed or not.
pub(crate) trait View {
    fn field(&self, k: usize) -> &[u64];
}

impl View for Unpacked {
    fn field(&self, k: usize) -> &[u64] {
        &self.fields[k]
    }
}

/// A packed case with its declaration, to find the fields in its numbers.
pub(crate) struct Packed<'a> {
    decl: &'a Declared,
    tokens: &'a [u64],
}

impl View for Packed<'_> {
    fn field(&self, k: usize) -> &[u64] {
        let mut at = 0;
        for f in &self.decl.fields[..k] {
            at += token_width(f, &self.tokens[at..]);
        }
        let f = &self.decl.fields[k];
        match (&f.group, &f.list) {
            (Some(_), _) => &self.tokens[at + 1..at + token_width(f, &self.tokens[at..])],
            (None, None) => &self.tokens[at..at + 1],
            (None, Some(_)) => &self.tokens[at + 1..at + 1 + self.tokens[at] as usize],
        }
    }
}

/// How many numbers field `f` takes at the start of `tokens` (a packed case from that
/// field on): one for a number, the length and the values for a list, the item count
/// and every item's length and values for a group.
fn token_width(f: &Field, tokens: &[u64]) -> usize {
    match (&f.group, &f.list) {
        (Some(_), _) => {
            let mut p = 1;
            for _ in 0..tokens[0] {
                p += 1 + tokens[p] as usize;
            }
            p
        }
        (None, None) => 1,
        (None, Some(_)) => 1 + tokens[0] as usize,
    }
}

/// The items of a group field's values (each item's length, then its values).
#[derive(Clone)]
pub(crate) struct Items<'a>(&'a [u64]);

impl<'a> Iterator for Items<'a> {
    type Item = &'a [u64];
    fn next(&mut self) -> Option<&'a [u64]> {
        let (&n, rest) = self.0.split_first()?;
        let (item, rest) = rest.split_at((n as usize).min(rest.len()));
        self.0 = rest;
        Some(item)
    }
}

/// The items of a group field's values.
pub(crate) fn items(values: &[u64]) -> Items<'_> {
    Items(values)
}

/// A group field's values from its items.
pub(crate) fn encode_items<'a>(list: impl IntoIterator<Item = &'a [u64]>) -> Vec<u64> {
    let mut out = Vec::new();
    for item in list {
        out.push(item.len() as u64);
        out.extend_from_slice(item);
    }
    out
}

/// Bounds of one number: the limits, and what `--lenient` accepts instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Num {
    pub min: u64,
    pub max: u64,
    pub lenient_min: u64,
    pub lenient_max: u64,
}

impl Num {
    fn range(&self, lenient: bool) -> (u64, u64) {
        if lenient {
            (self.lenient_min, self.lenient_max)
        } else {
            (self.min, self.max)
        }
    }
}

/// A text with `{name}` placeholders.
#[derive(Clone, Debug)]
pub(crate) struct Template(pub Vec<Part>);

#[derive(Clone, Debug)]
pub(crate) enum Part {
    Text(String),
    Field(String),
}

impl Template {
    /// Parses `text`, accepting only the placeholders in `names`.
    pub fn parse(text: &str, names: &[&str]) -> Result<Template, String> {
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Text(rest[..open].to_string()));
            }
            let close = rest[open..]
                .find('}')
                .ok_or_else(|| format!("unclosed `{{` in {text:?}"))?;
            let name = &rest[open + 1..open + close];
            if !names.contains(&name) {
                return Err(format!(
                    "unknown placeholder {{{name}}} in {text:?}; known here: {}",
                    names
                        .iter()
                        .map(|n| format!("{{{n}}}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
            }
            parts.push(Part::Field(name.to_string()));
            rest = &rest[open + close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Text(rest.to_string()));
        }
        Ok(Template(parts))
    }

    pub fn uses(&self, name: &str) -> bool {
        self.0
            .iter()
            .any(|p| matches!(p, Part::Field(n) if n == name))
    }

    fn render(&self, value: impl FnMut(&str, &mut String)) -> String {
        let mut s = String::new();
        self.render_into(&mut s, value);
        s
    }

    /// [`Template::render`], appended to `s`.
    fn render_into(&self, s: &mut String, mut value: impl FnMut(&str, &mut String)) {
        for p in &self.0 {
            match p {
                Part::Text(t) => s.push_str(t),
                Part::Field(n) => value(n, s),
            }
        }
    }

    /// A field name: `{case}` from 1, `{i}` from 1, `{i0}` from 0.
    fn name(&self, case: usize, i: u64) -> String {
        self.name_in(case, i, 0)
    }

    /// A field name in item `j` (from 1) of a group: `{j}` too.
    fn name_in(&self, case: usize, i: u64, j: usize) -> String {
        self.render(|n, s| {
            let _ = match n {
                "case" => write!(s, "{case}"),
                "i" => write!(s, "{i}"),
                "j" => write!(s, "{j}"),
                _ => write!(s, "{}", i.saturating_sub(1)),
            };
        })
    }
}

/// A list field's length and constraints. A tree field is a list too: `len` bounds its
/// vertices n, and its values are the n - 1 edges `u v`, flat (see [`crate::tree`]).
#[derive(Clone, Debug)]
pub(crate) struct ListSpec {
    pub what: Template,
    pub len: Num,
    /// A tree on 1..=n: n, then n - 1 lines `u v`.
    pub tree: bool,
    pub step: u64,
    pub distinct: bool,
    pub inline: bool,
    pub enumerate_max: u64,
}

/// A group field's count: a group is that many lists (its items), each with its own
/// length, every item a position of its own.
#[derive(Clone, Debug)]
pub(crate) struct GroupSpec {
    pub what: Template,
    pub count: Num,
    pub enumerate_max: u64,
}

/// One field of a case.
#[derive(Clone, Debug)]
pub(crate) struct Field {
    pub name: &'static str,
    pub what: Template,
    pub bounds: Num,
    pub list: Option<ListSpec>,
    pub group: Option<GroupSpec>,
    pub at_least: Option<usize>,
    pub geometric: bool,
}

/// How the cases of an input are delimited.
#[derive(Clone, Debug)]
pub(crate) enum Layout {
    /// A case count first.
    Count { what: &'static str, num: Num },
    /// Cases until one whose first `zeros` numbers are all 0.
    Terminator { zeros: usize, what: &'static str },
    /// Cases until the end of input.
    Eof,
}

/// Where a rules parameter comes from.
#[derive(Clone, Debug)]
pub(crate) enum ParamSrc {
    Field(usize),
    Number(u64),
    List(Vec<u64>),
    Name(String),
}

impl ParamSrc {
    pub fn constant(&self) -> ParamValue<'_> {
        match self {
            ParamSrc::Number(n) => ParamValue::Number(*n),
            ParamSrc::List(l) => ParamValue::List(l),
            ParamSrc::Name(n) => ParamValue::Name(n),
            ParamSrc::Field(_) => unreachable!("fields are not constants"),
        }
    }
}

/// The rules: the same for every case, or built from each case's fields.
#[derive(Clone)]
pub(crate) enum RulesSrc {
    Fixed(Arc<dyn DeclaredRules>),
    PerCase(Vec<ParamSrc>),
}

/// The answer printed per case.
#[derive(Clone, Debug)]
pub(crate) struct Output {
    pub lines: Vec<Template>,
    pub win: String,
    pub lose: String,
    pub move_template: Template,
    pub move_fields: &'static [&'static str],
    pub none: String,
    /// Printed for `{moves}` when no move wins (empty unless declared).
    pub no_moves: String,
    pub separator: String,
    pub reverse: bool,
    /// The lines printed instead of `lines` when the player to move loses.
    pub lines_lose: Option<Vec<Template>>,
    /// The answer of one position, for `{positions}` (problems whose positions are the
    /// items of a group field).
    pub position: Option<Template>,
    /// Between the answers of `{positions}`.
    pub position_separator: String,
}

/// The position of a case: the one field that holds it, or its fields' values
/// gathered (on the stack when few).
pub(crate) enum Position<'c> {
    Borrowed(&'c [u64]),
    Inline([u64; 8], usize),
    Owned(Vec<u64>),
}

impl std::ops::Deref for Position<'_> {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        match self {
            Position::Borrowed(s) => s,
            Position::Inline(a, n) => &a[..*n],
            Position::Owned(v) => v,
        }
    }
}

impl Position<'_> {
    fn into_owned(self) -> Vec<u64> {
        self.to_vec()
    }
}

/// A problem read from a declaration. Implements [`Problem`] with [`Unpacked`].
#[derive(Clone)]
pub struct Declared {
    info: Info,
    game: &'static dyn DeclarableGame,
    layout: Layout,
    max_cases: usize,
    fields: Vec<Field>,
    rules: RulesSrc,
    position: Vec<usize>,
    output: Output,
    /// Whether the answer needs the winning moves (not only the verdict).
    needs_moves: bool,
    /// Whether it prints moves in the game's notation (`{move}`).
    needs_notation: bool,
    /// The group field whose items are the positions, if any.
    group: Option<usize>,
}

impl std::fmt::Debug for Declared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Declared")
            .field("id", &self.info.id)
            .field("game", &self.game.id())
            .field("source", &self.info.source)
            .finish()
    }
}

/// Most cases of one size [`Problem::small_cases`] returns: formats with several lists
/// have many small cases, and the enumeration must stay bounded in memory.
const ENUM_CAP: usize = 100_000;
/// The most numbers the small-first enumeration holds (see `Declared::enum_cap`).
const ENUM_NUMBERS: usize = 1 << 20;
use super::declaration::MAX_ENUMERATE;
/// Lists of at most this many values get every single-value shrink candidate.
const FINE_SHRINK_LEN: usize = 64;

impl Declared {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        info: Info,
        game: &'static dyn DeclarableGame,
        layout: Layout,
        max_cases: usize,
        fields: Vec<Field>,
        rules: RulesSrc,
        position: Vec<usize>,
        output: Output,
    ) -> Declared {
        let needs_moves = output
            .lines
            .iter()
            .chain(output.lines_lose.iter().flatten())
            .chain(output.position.iter())
            .any(|t| t.uses("count") || t.uses("best") || t.uses("moves"));
        // The notation only when a printed move uses it (the default move template is
        // `{move}`, but a problem printing only counts or verdicts never renders it).
        let prints_moves = output
            .lines
            .iter()
            .chain(output.lines_lose.iter().flatten())
            .chain(output.position.iter())
            .any(|t| t.uses("best") || t.uses("moves"));
        let needs_notation = prints_moves && output.move_template.uses("move");
        let group = match position[..] {
            [i] if fields[i].group.is_some() => Some(i),
            _ => None,
        };
        Declared {
            info,
            game,
            layout,
            max_cases,
            fields,
            rules,
            position,
            output,
            needs_moves,
            needs_notation,
            group,
        }
    }

    /// Whether an output line prints moves (`{best}`, `{count}`, `{moves}`), so answers
    /// need the winning-move analysis and not only the verdict.
    pub fn needs_moves(&self) -> bool {
        self.needs_moves
    }

    pub(crate) fn position_fields(&self) -> Vec<usize> {
        self.position.clone()
    }

    pub(crate) fn fields_spec(&self) -> &[Field] {
        &self.fields
    }

    /// Reads a declaration (TOML); `source` names it in errors and in `sgcheck list`.
    pub fn from_toml(
        text: &str,
        source: &str,
    ) -> Result<Declared, super::declaration::DeclarationError> {
        super::declaration::parse(text, source)
    }

    /// Reads a declaration file.
    pub fn from_file(
        path: &std::path::Path,
    ) -> Result<Declared, super::declaration::DeclarationError> {
        use std::io::Read as _;
        let source = path.display().to_string();
        let error = |line: usize, message: String| super::declaration::DeclarationError {
            source: source.clone(),
            line,
            key: String::new(),
            message,
        };
        // Read at most MAX_DECLARATION_BYTES (+1 to tell a longer one), from a file,
        // FIFO or device alike.
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_DECLARATION_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|e| error(0, format!("cannot read the declaration: {e}")))?;
        if bytes.len() as u64 > MAX_DECLARATION_BYTES {
            return Err(error(
                0,
                format!(
                    "the declaration is longer than {} MiB; stopped reading there",
                    MAX_DECLARATION_BYTES >> 20
                ),
            ));
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            let (at, line) = super::utf8_error_place(e.as_bytes(), e.utf8_error());
            error(line, format!("invalid UTF-8 at byte {at}"))
        })?;
        Self::from_toml(&text, &source)
    }

    /// The game this problem is an instance of.
    pub fn game(&self) -> &'static dyn DeclarableGame {
        self.game
    }

    /// The names of the fields of a case, in order (the indices of [`Unpacked::fields`]).
    pub fn field_names(&self) -> Vec<&'static str> {
        self.fields.iter().map(|f| f.name).collect()
    }

    /// The index of the field `name`.
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }

    pub(crate) fn rules_of<V: View>(&self, case: &V) -> Result<Arc<dyn DeclaredRules>, String> {
        match &self.rules {
            RulesSrc::Fixed(r) => Ok(r.clone()),
            RulesSrc::PerCase(params) => self.with_params(params, case, |p| self.game.rules(p)),
        }
    }

    /// Calls `f` with the rules' parameter values of a case (on the stack when few).
    fn with_params<'s, V: View, R>(
        &'s self,
        params: &'s [ParamSrc],
        case: &'s V,
        f: impl FnOnce(&[ParamValue<'_>]) -> R,
    ) -> R {
        let value = |p: &'s ParamSrc| -> ParamValue<'s> {
            match p {
                ParamSrc::Field(i) => {
                    let v = case.field(*i);
                    if self.fields[*i].list.is_some() {
                        ParamValue::List(v)
                    } else {
                        ParamValue::Number(v[0])
                    }
                }
                other => other.constant(),
            }
        };
        let mut buf = [ParamValue::Number(0); 4];
        if params.len() <= buf.len() {
            for (slot, p) in buf.iter_mut().zip(params) {
                *slot = value(p);
            }
            f(&buf[..params.len()])
        } else {
            let values: Vec<ParamValue<'_>> = params.iter().map(value).collect();
            f(&values)
        }
    }

    /// The game's checks of a case.
    fn game_check<V: View>(&self, case: &V) -> Result<(), String> {
        if let Some(g) = self.group {
            let rules = self.rules_of(case)?;
            for (j, pos) in items(case.field(g)).enumerate() {
                rules
                    .check(pos)
                    .map_err(|m| format!("position {}: {m}", j + 1))?;
            }
            return Ok(());
        }
        let pos = self.position_of(case);
        match &self.rules {
            RulesSrc::Fixed(r) => r.check(&pos),
            RulesSrc::PerCase(params) => {
                self.with_params(params, case, |p| self.game.check_with(p, &pos))
            }
        }
    }

    /// Whether the positions of a case are the items of a group field.
    pub fn has_group(&self) -> bool {
        self.group.is_some()
    }

    /// Every position of a case: the items of its group, or its one position.
    #[cfg(test)]
    pub(crate) fn positions<'c, V: View>(&self, case: &'c V) -> Vec<Position<'c>> {
        match self.group {
            Some(g) => items(case.field(g)).map(Position::Borrowed).collect(),
            None => vec![self.position_of(case)],
        }
    }

    pub(crate) fn position_of<'c, V: View>(&self, case: &'c V) -> Position<'c> {
        if let [i] = self.position[..] {
            return Position::Borrowed(case.field(i));
        }
        let mut inline = [0u64; 8];
        let mut n = 0;
        for &i in &self.position {
            for &v in case.field(i) {
                if n == inline.len() {
                    return Position::Owned(
                        self.position
                            .iter()
                            .flat_map(|&i| case.field(i).iter().copied())
                            .collect(),
                    );
                }
                inline[n] = v;
                n += 1;
            }
        }
        Position::Inline(inline, n)
    }

    /// A case from the values of its fields (a number field holds one value; a group
    /// field holds each item's length followed by its values, item after item).
    pub fn case(&self, fields: Vec<Vec<u64>>) -> Case {
        self.pack(&Unpacked { fields })
    }

    /// The values of the fields of a case, in declaration order.
    pub fn fields(&self, case: &Case) -> Vec<Vec<u64>> {
        self.unpack(case).fields
    }

    fn pack(&self, u: &Unpacked) -> Case {
        let mut tokens = Tokens::new();
        tokens.reserve(u.fields.iter().map(|f| f.len() + 1).sum());
        for (f, v) in self.fields.iter().zip(&u.fields) {
            if f.group.is_some() {
                tokens.push(items(v).count() as u64);
            } else if f.list.is_some() {
                tokens.push(v.len() as u64);
            }
            for &x in v {
                tokens.push(x);
            }
        }
        Case { tokens }
    }

    fn unpack(&self, c: &Case) -> Unpacked {
        let view = Packed {
            decl: self,
            tokens: &c.tokens,
        };
        Unpacked {
            fields: (0..self.fields.len())
                .map(|k| view.field(k).to_vec())
                .collect(),
        }
    }

    pub(crate) fn packed<'a>(&'a self, c: &'a Case) -> Packed<'a> {
        Packed {
            decl: self,
            tokens: &c.tokens,
        }
    }

    /// Bounds of every position number, by the limits (or `top`, a smaller ceiling
    /// per field, for the generators).
    fn position_bounds(&self, case: &Unpacked, top: &[u64]) -> Vec<(u64, u64)> {
        let mut b = Vec::new();
        for &i in &self.position {
            let lo = self.fields[i].bounds.min;
            b.extend(std::iter::repeat_n(
                (lo, top[i].max(lo)),
                case.fields[i].len(),
            ));
        }
        b
    }

    fn set_position(&self, case: &mut Unpacked, values: &[u64]) {
        let mut k = 0;
        for &i in &self.position {
            let n = case.fields[i].len();
            case.fields[i].copy_from_slice(&values[k..k + n]);
            k += n;
        }
    }

    /// One template filled with a position's answer (`{verdict}`, `{count}`,
    /// `{best}`, `{moves}`), the case number and, for `{positions}`, `positions`.
    fn fill(
        &self,
        t: &Template,
        case_index: usize,
        a: &Result<Analysis<MoveView>, bool>,
        positions: &str,
    ) -> String {
        let o = &self.output;
        let (win, analysis) = match a {
            Ok(a) => (a.win, Some(a)),
            Err(w) => (*w, None),
        };
        let view = |m: &MoveView| self.move_text(m);
        t.render(|n, s| match n {
            "case" => {
                let _ = write!(s, "{}", case_index + 1);
            }
            "positions" => s.push_str(positions),
            "verdict" => s.push_str(if win { &o.win } else { &o.lose }),
            "count" => {
                let _ = write!(s, "{}", analysis.map_or(0, |a| a.count()));
            }
            "best" => match analysis.and_then(|a| a.best()) {
                Some(m) => s.push_str(&view(m)),
                None => s.push_str(&o.none),
            },
            _ => {
                if let Some(a) = analysis {
                    if a.winning.is_empty() {
                        s.push_str(&o.no_moves);
                        return;
                    }
                    // Written in place: answers may list thousands of moves.
                    let mut put = |i: usize, m: &MoveView| {
                        if i > 0 {
                            s.push_str(&o.separator);
                        }
                        self.move_into(m, s);
                    };
                    if o.reverse {
                        a.winning
                            .iter()
                            .rev()
                            .enumerate()
                            .for_each(|(i, m)| put(i, m));
                    } else {
                        a.winning.iter().enumerate().for_each(|(i, m)| put(i, m));
                    }
                }
            }
        })
    }

    /// How a move prints (the `move` template).
    fn move_text(&self, m: &MoveView) -> String {
        let mut s = String::new();
        self.move_into(m, &mut s);
        s
    }

    /// [`Declared::move_text`], appended to `out`.
    fn move_into(&self, m: &MoveView, out: &mut String) {
        let o = &self.output;
        o.move_template.render_into(out, |n, s| {
            if n == "move" {
                s.push_str(&m.text);
                return;
            }
            let (name, plus) = match n.strip_suffix("+1") {
                Some(b) => (b, 1),
                None => (n, 0),
            };
            if let Some(k) = o.move_fields.iter().position(|f| *f == name) {
                let _ = write!(s, "{}", m.fields[k] + plus);
            }
        })
    }

    /// The lines of a case's answer: `lines` (or `lines_lose` when the player to
    /// move loses), a rendered line break starting a new line; a line that is only
    /// `{moves}`, printed one per line, is no line at all when no move wins.
    fn render_lines(
        &self,
        case_index: usize,
        a: &Result<Analysis<MoveView>, bool>,
        positions: &str,
    ) -> Vec<String> {
        let o = &self.output;
        let win = match a {
            Ok(a) => a.win,
            Err(w) => *w,
        };
        let lines = match (&o.lines_lose, win) {
            (Some(lose), false) => lose,
            _ => &o.lines,
        };
        let per_line = o.separator.contains('\n');
        let mut out = Vec::with_capacity(lines.len());
        for t in lines {
            let only_moves = matches!(&t.0[..], [Part::Field(n)] if n == "moves");
            let no_moves = match a {
                Ok(a) => a.winning.is_empty(),
                Err(_) => true,
            };
            if per_line && only_moves && no_moves {
                continue;
            }
            if let (true, true, Ok(a)) = (per_line, only_moves && o.separator == "\n", a) {
                // One line per move, without joining and splitting again.
                let start = out.len();
                out.extend(a.winning.iter().map(|m| self.move_text(m)));
                if o.reverse {
                    out[start..].reverse();
                }
                continue;
            }
            let line = self.fill(t, case_index, a, positions);
            if line.contains('\n') {
                out.extend(line.split('\n').map(str::to_string));
            } else {
                out.push(line);
            }
        }
        out
    }

    /// The answer of a case whose positions are a group's items: each item's answer
    /// from the `position` template, joined by `position_separator` into
    /// `{positions}`.
    fn render_group(
        &self,
        case_index: usize,
        answers: impl Iterator<Item = Result<Result<Analysis<MoveView>, bool>, SearchError>>,
    ) -> Result<Vec<String>, SearchError> {
        let o = &self.output;
        let mut positions = String::new();
        if let Some(t) = &o.position {
            for (j, a) in answers.enumerate() {
                if j > 0 {
                    positions.push_str(&o.position_separator);
                }
                positions.push_str(&self.fill(t, case_index, &a?, ""));
            }
        }
        Ok(self.render_lines(case_index, &Err(true), &positions))
    }

    fn render(&self, case_index: usize, a: Result<Analysis<MoveView>, bool>) -> Vec<String> {
        self.render_lines(case_index, &a, "")
    }

    /// Reads one number of a case (or the count), naming the field only on error.
    fn read(
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

    fn read_list(
        &self,
        r: &mut Reader<'_>,
        f: &Field,
        l: &ListSpec,
        n: u64,
        (c, j): (usize, usize),
        out: &mut Tokens,
    ) -> Result<(), ParseError> {
        let (lo, hi) = f.bounds.range(r.lenient());
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
        for i in 1..=n {
            let v = r.number("", lo, hi).map_err(|mut e| {
                e.field = f.what.name_in(c, i, j);
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
                            "{v} repeats {} (the values are distinct)",
                            f.what.name_in(c, k, j).split(" of ").next().unwrap_or("")
                        ),
                    ));
                }
            }
            out.push(v);
        }
        Ok(())
    }

    /// Reads the n - 1 edges of a tree field (n already read): each end in 1..=n, and
    /// an error at the line of the first edge that is a self-loop, a repeat or closes
    /// a cycle. Pushes 2(n - 1), then the ends.
    fn read_tree(
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

    fn check_length(r: &Reader<'_>, l: &ListSpec, n: u64, name: String) -> Result<(), ParseError> {
        if !n.is_multiple_of(l.step) {
            let what = if l.step == 2 {
                "an even number".to_string()
            } else {
                format!("a multiple of {}", l.step)
            };
            return Err(r.error(name, format!("expected {what}, found {n}")));
        }
        Ok(())
    }

    /// Reads the rest of case `c` from field `from` on (`tokens` holds the numbers
    /// of the fields before it, already read).
    fn read_case(
        &self,
        r: &mut Reader<'_>,
        c: usize,
        from: usize,
        mut tokens: Tokens,
    ) -> Result<Case, ParseError> {
        for f in &self.fields[from..] {
            match (&f.group, &f.list) {
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
                (_, None) => tokens.push(Self::read(r, &f.bounds, || f.what.name(c, 1))?),
                (None, Some(l)) if l.tree => {
                    let n = Self::read(r, &l.len, || l.what.name(c, 0))?;
                    self.read_tree(r, f, n, c, &mut tokens)?;
                }
                (None, Some(l)) => {
                    let n = Self::read(r, &l.len, || l.what.name(c, 0))?;
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
    fn check_case<V: View>(&self, r: &Reader<'_>, case: &V, c: usize) -> Result<(), ParseError> {
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
    fn write_case<V: View>(&self, s: &mut String, case: &V) {
        let mut line_open = false;
        let sep = |s: &mut String, open: &mut bool| {
            if *open {
                s.push(' ');
            }
            *open = true;
        };
        let list = |s: &mut String, l: &ListSpec, v: &[u64]| {
            let _ = write!(s, "{}", v.len());
            if !l.inline {
                s.push('\n');
            }
            for (i, x) in v.iter().enumerate() {
                if l.inline || i > 0 {
                    s.push(' ');
                }
                let _ = write!(s, "{x}");
            }
            s.push('\n');
        };
        for (k, f) in self.fields.iter().enumerate() {
            let v = case.field(k);
            match (&f.group, &f.list) {
                (Some(_), Some(l)) => {
                    sep(s, &mut line_open);
                    let _ = writeln!(s, "{}", items(v).count());
                    for item in items(v) {
                        list(s, l, item);
                    }
                    line_open = false;
                }
                (_, None) => {
                    sep(s, &mut line_open);
                    let _ = write!(s, "{}", v[0]);
                }
                (None, Some(l)) if l.tree => {
                    sep(s, &mut line_open);
                    let _ = writeln!(s, "{}", crate::tree::vertices(v));
                    for e in v.chunks_exact(2) {
                        let _ = writeln!(s, "{} {}", e[0], e[1]);
                    }
                    line_open = false;
                }
                (None, Some(l)) => {
                    sep(s, &mut line_open);
                    list(s, l, v);
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
    fn check_format(&self, case: &Unpacked) -> Result<(), String> {
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
                (None, Some(l)) => check_list(f.name, l, v)?,
                _ => {}
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

    // -----------------------------------------------------------------------------
    // Generation.

    fn top(num: &Num, scale: f64, geometric: bool) -> u64 {
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
    fn pick(rng: &mut ChaCha8Rng, lo: u64, top: u64) -> u64 {
        let w = top - lo;
        match rng.gen_range(0..16) {
            0 | 1 => lo,
            2 => top - rng.gen_range(0..=3).min(w),
            3 => lo + rng.gen_range(0..=3).min(w),
            _ => rng.gen_range(lo..=top),
        }
    }

    fn draw(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> (Unpacked, Vec<u64>) {
        let mut fields: Vec<Vec<u64>> = Vec::with_capacity(self.fields.len());
        let mut tops = Vec::with_capacity(self.fields.len());
        for f in &self.fields {
            let top = Self::top(&f.bounds, scale, f.geometric);
            tops.push(top);
            let lo = f.bounds.min;
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
        (Unpacked { fields }, tops)
    }

    /// The values of a list field: a length growing with the scale, values up to `top`.
    fn draw_list(
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

    /// A random case of a problem whose positions are a group's items: with
    /// `Losing` or `ManyWinning`, each item is made losing with probability 1/2, so
    /// both answers show up in one case.
    fn generate_group(&self, g: usize, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> Unpacked {
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
                rules.make_losing(item, &bounds, rng);
            }
        }
        case.fields[g] = encode_items(list.iter().map(Vec::as_slice));
        case
    }

    fn winning_count(&self, rules: &dyn DeclaredRules, position: &[u64]) -> Option<usize> {
        // The analysis costs up to the sum of the position for some games.
        let small = position.len() <= 64
            && position
                .iter()
                .try_fold(0u64, |a, &v| a.checked_add(v))
                .is_some_and(|s| s <= 1 << 20);
        small.then(|| rules.analyze(position, false).count())
    }

    fn make_losing(&self, rng: &mut ChaCha8Rng, case: &mut Unpacked, tops: &[u64]) -> bool {
        let Ok(rules) = self.rules_of(case) else {
            return false;
        };
        let bounds = self.position_bounds(case, tops);
        let mut pos = self.position_of(case).into_owned();
        let made = rules.make_losing(&mut pos, &bounds, rng);
        self.set_position(case, &pos);
        made && !rules.first_wins(&pos)
    }
}

impl Problem for Declared {
    type Case = Case;

    fn info(&self) -> Info {
        self.info.clone()
    }

    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<Case>, ParseError> {
        let mut r = Reader::new(input, lenient);
        let mut cases = Vec::new();
        match &self.layout {
            Layout::Count { what, num } => {
                let t = Self::read(&mut r, num, || what.to_string())?;
                let line = r.line();
                for c in 1..=t {
                    cases.push(self.read_case(&mut r, c as usize, 0, Tokens::new())?);
                }
                r.expect_end(&format!("the {t} case(s) announced on line {line}"))?;
            }
            Layout::Eof => {
                while !r.at_end() {
                    let c = cases.len() + 1;
                    cases.push(self.read_case(&mut r, c, 0, Tokens::new())?);
                }
            }
            Layout::Terminator { zeros, what } => loop {
                let c = cases.len() + 1;
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
                    let num = f.list.as_ref().map_or(&f.bounds, |l| &l.len);
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
                    tokens.push(v);
                    if let Some(l) = &f.list {
                        Self::check_length(&r, l, v, name(k))?;
                        list_len = Some((v, l));
                    }
                }
                if let Some((n, l)) = list_len {
                    self.read_list(&mut r, &self.fields[0], l, n, (c, 0), &mut tokens)?;
                }
                cases.push(self.read_case(&mut r, c, zeros, tokens)?);
            },
        }
        Ok(cases)
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

    fn answer(&self, case: &Case, index: usize) -> Vec<String> {
        let view = self.packed(case);
        if let Some(g) = self.group {
            // One rules value for the case, every item answered with it.
            let rules = match self.rules_of(&view) {
                Ok(r) => r,
                Err(e) => return vec![format!("invalid rules: {e}")],
            };
            let answers = items(view.field(g)).map(|pos| {
                Ok(if self.needs_moves {
                    Ok(rules.analyze(pos, self.needs_notation))
                } else {
                    Err(rules.first_wins(pos))
                })
            });
            return self
                .render_group(index, answers)
                .unwrap_or_else(|e: SearchError| vec![e.to_string()]);
        }
        if let (false, RulesSrc::PerCase(params)) = (self.needs_moves, &self.rules) {
            let pos = self.position_of(&view);
            return match self.with_params(params, &view, |p| self.game.first_wins_with(p, &pos)) {
                Ok(win) => self.render(index, Err(win)),
                Err(e) => vec![format!("invalid rules: {e}")],
            };
        }
        let built;
        let rules: &dyn DeclaredRules = match &self.rules {
            RulesSrc::Fixed(r) => r.as_ref(),
            RulesSrc::PerCase(_) => match self.rules_of(&view) {
                Ok(r) => {
                    built = r;
                    built.as_ref()
                }
                // Parsing and the generators only make cases whose rules are valid.
                Err(e) => return vec![format!("invalid rules: {e}")],
            },
        };
        let pos = self.position_of(&view);
        let a = if self.needs_moves {
            Ok(rules.analyze(&pos, self.needs_notation))
        } else {
            Err(rules.first_wins(&pos))
        };
        self.render(index, a)
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
    /// increasing order, and at most [`ENUM_CAP`] cases are returned.
    fn small_cases(&self, size: u32) -> Vec<Case> {
        let mut out = Vec::new();
        let mut cur: Vec<Vec<u64>> = Vec::with_capacity(self.fields.len());
        self.enumerate(0, u64::from(size), &mut cur, &mut out);
        out.iter().map(|u| self.pack(u)).collect()
    }

    fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> Case {
        self.pack(&self.generate_unpacked(rng, scale, shape))
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
        let u = Unpacked { fields };
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

/// Where a shrink part comes from: a list field or a run of number fields, or item
/// `j` of the group field `k`.
enum PartSrc {
    Fields(std::ops::Range<usize>),
    Item(usize, usize),
}

impl Declared {
    /// Whether a field is a tree.
    fn has_tree(&self) -> bool {
        self.fields
            .iter()
            .any(|f| f.list.as_ref().is_some_and(|l| l.tree))
    }

    /// What each shrink part ([`Problem::parts`]) of a case is: every item of a
    /// group, otherwise as [`Declared::part_fields`].
    fn part_sources<V: View>(&self, case: &V) -> Vec<PartSrc> {
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
    fn part_fields(&self) -> Vec<std::ops::Range<usize>> {
        let mut out: Vec<std::ops::Range<usize>> = Vec::new();
        for (k, f) in self.fields.iter().enumerate() {
            if let Some(last) = out.last_mut() {
                let prev = &self.fields[last.start];
                if f.list.is_none() && prev.list.is_none() && prev.bounds.min == f.bounds.min {
                    last.end = k + 1;
                    continue;
                }
            }
            out.push(k..k + 1);
        }
        out
    }

    fn limits(&self, case: &Unpacked) -> Result<(), String> {
        self.check_format(case)?;
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
            let (lo, hi) = (f.bounds.min, f.bounds.max);
            if let Some(x) = v.iter().find(|&&x| !(lo..=hi).contains(&x)) {
                return Err(format!("{} {x} is outside {lo}..={hi}", f.name));
            }
        }
        Ok(())
    }

    fn generate_unpacked(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> Unpacked {
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
                    let score = match self.winning_count(rules.as_ref(), &pos) {
                        Some(k) => k,
                        None => {
                            if rules.first_wins(&pos) {
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

    fn shrink_unpacked(&self, case: &Unpacked) -> Vec<Unpacked> {
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

    fn halves_unpacked(&self, case: &Unpacked) -> Vec<Unpacked> {
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

    /// The most cases the small-first enumeration returns: [`ENUM_CAP`], fewer for
    /// cases of many fields, so that the cases held stay within [`ENUM_NUMBERS`]
    /// numbers whatever the declaration.
    fn enum_cap(&self) -> usize {
        ENUM_CAP.min(ENUM_NUMBERS / self.fields.len().max(1))
    }

    fn enumerate(&self, k: usize, budget: u64, cur: &mut Vec<Vec<u64>>, out: &mut Vec<Unpacked>) {
        if out.len() >= self.enum_cap() {
            return;
        }
        if k == self.fields.len() {
            if budget == 0 {
                let c = Unpacked {
                    fields: cur.clone(),
                };
                if self.limits(&c).is_ok() {
                    out.push(c);
                }
            }
            return;
        }
        let f = &self.fields[k];
        let lo = f.bounds.min;
        let width = f.bounds.max - lo;
        let last = k + 1 == self.fields.len();
        match &f.list {
            None => {
                let costs = if last { budget..=budget } else { 0..=budget };
                for c in costs {
                    if c > width {
                        break;
                    }
                    cur.push(vec![lo + c]);
                    self.enumerate(k + 1, budget - c, cur, out);
                    cur.pop();
                }
            }
            Some(l) if l.tree => {
                // A tree costs its vertices above the minimum; every labelled tree of
                // that size, each written its own way (see `tree::enumerate`).
                let mut n = l.len.min;
                let mut cost = 0;
                while n <= l.enumerate_max.min(l.len.max).min(MAX_ENUMERATE) && cost <= budget {
                    if !last || cost == budget {
                        for t in crate::tree::enumerate(
                            n as usize,
                            self.enum_cap().saturating_sub(out.len()),
                        ) {
                            cur.push(t);
                            self.enumerate(k + 1, budget - cost, cur, out);
                            cur.pop();
                            if out.len() >= self.enum_cap() {
                                return;
                            }
                        }
                    }
                    n += 1;
                    cost += 1;
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
                        self.enumerate(k + 1, rest - spent, cur, out);
                        cur.pop();
                        if out.len() >= self.enum_cap() {
                            return;
                        }
                    }
                    m += 1;
                }
            }
            Some(l) => {
                let mut len = l.len.min;
                let mut len_cost = 0;
                while len <= l.enumerate_max.min(l.len.max).min(MAX_ENUMERATE) && len_cost <= budget
                {
                    let rest = budget - len_cost;
                    let spends = if last { rest..=rest } else { 0..=rest };
                    for spend in spends {
                        let mut values = Vec::with_capacity(len as usize);
                        let mut lists = Vec::new();
                        if l.distinct {
                            increasing(len as usize, spend, lo, width, &mut values, &mut lists);
                        } else {
                            compositions(len as usize, spend, lo, width, &mut values, &mut lists);
                        }
                        for v in lists {
                            cur.push(v);
                            self.enumerate(k + 1, rest - spend, cur, out);
                            cur.pop();
                            if out.len() >= self.enum_cap() {
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
fn group_items(
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
            compositions(len as usize, spend, lo, width, &mut values, &mut lists);
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

/// Every list of `len` values in `lo..=lo+width` whose excess over `lo` sums to
/// `spend`, in lexicographic order (at most [`ENUM_CAP`]).
fn compositions(
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
    let first = if cur.len() + 1 == len { spend } else { 0 };
    for x in first..=spend.min(width) {
        cur.push(lo + x);
        compositions(len, spend - x, lo, width, cur, out);
        cur.pop();
    }
}

/// Every strictly increasing list of `len` values in `lo..=lo+width` whose excess
/// over `lo` sums to `spend`.
fn increasing(
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

/// Shrink candidates for a list, most aggressive first: remove chunks of values
/// (halves, quarters, ..., single steps; keeping at least `min_len`, in whole steps of
/// `step` values), then lower one value to `lo`, to half, and by one. Long lists
/// (more than [`FINE_SHRINK_LEN`] steps) get at most about 2 * [`FINE_SHRINK_LEN`]
/// chunk removals, dropping the first or last step, and "halve every value" instead
/// of per-value candidates, so one shrink round stays cheap at 10^6 values.
pub fn shrink_list(values: &[u64], min_len: usize, step: usize, lo: u64) -> Vec<Vec<u64>> {
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
        if values.iter().any(|&v| v / 2 >= lo && v > lo) {
            out.push(values.iter().map(|&v| (v / 2).max(lo)).collect());
        }
        return out;
    }
    for (i, &v) in values.iter().enumerate() {
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

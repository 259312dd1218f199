//! The format engine: one [`Problem`] implementation for every declared problem.
//!
//! From a declaration (see [`super::declaration`]) it derives, once for all problems:
//! strict parsing with line and field errors, writing, limit checks, smallest-first
//! enumeration, random and limit generation (losing and many-winning shapes through
//! the game's solver), shrinking and halving. The game's side (rules, verdicts, moves,
//! losing positions) comes from [`crate::games::declared`].

use super::{Info, ParseError, Part as ShrinkPart, Problem, Reader, Shape, SolveError};
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

    /// Sets the number at `i` (a length read after its values).
    fn set(&mut self, i: usize, v: u64) {
        match self {
            Tokens::Inline(a, _) => a[i] = v,
            Tokens::Heap(h) => h[i] = v,
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
    /// Numbers per item (a record list: `size limit` per pile, an edge `u v`); `len`,
    /// `step` and `enumerate_max` count values, the input counts items.
    pub record: u64,
    /// The number field (before this one) that holds the length in items, when it is
    /// not written right before the values (`n m`, then m edges).
    pub len_from: Option<usize>,
    /// A graph on 1..=n, n the value of this number field: items are edges `u v`, and
    /// no cycle is allowed (tokens slide along the edges).
    pub graph: Option<usize>,
    /// The names of a record's columns (for errors).
    pub columns: Vec<&'static str>,
    /// A graph written as adjacency lists: n lines `k w1 .. wk`, the successors of
    /// each vertex. Its values are the edges `u v` flat, grouped by their tail in
    /// vertex order (every case is packed so), and no edge repeats.
    pub adjacency: bool,
    /// Bounds per column of a record (`min = [0, 1]`); empty when every value has the
    /// field's bounds. The field's `bounds` then hold the lowest min and the highest max.
    pub column_bounds: Vec<Num>,
    /// A list ended by this value (`length = { until = 0 }`) instead of a length
    /// written before it; no value of the list may equal it.
    pub until: Option<u64>,
    /// Relations between a record's columns that every item satisfies
    /// (`require = ["c <= s"]`).
    pub require: Vec<Require>,
}

/// A relation between two columns of a record (or a column and a number) that every
/// item of the list satisfies: `c <= s`, `t != j`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Require {
    pub left: Operand,
    pub op: Op,
    pub right: Operand,
    /// As written, for errors.
    pub text: String,
}

/// One side of a [`Require`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operand {
    Column(usize),
    Value(u64),
}

/// The comparison of a [`Require`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Le,
    Lt,
    Ge,
    Gt,
    Eq,
    Ne,
}

impl Op {
    fn holds(self, a: u64, b: u64) -> bool {
        match self {
            Op::Le => a <= b,
            Op::Lt => a < b,
            Op::Ge => a >= b,
            Op::Gt => a > b,
            Op::Eq => a == b,
            Op::Ne => a != b,
        }
    }

    /// The same relation read from the other side (`a <= b` is `b >= a`).
    fn flipped(self) -> Op {
        match self {
            Op::Le => Op::Ge,
            Op::Lt => Op::Gt,
            Op::Ge => Op::Le,
            Op::Gt => Op::Lt,
            op => op,
        }
    }

    /// The operator as written (for the package's validator).
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Op::Le => "<=",
            Op::Lt => "<",
            Op::Ge => ">=",
            Op::Gt => ">",
            Op::Eq => "==",
            Op::Ne => "!=",
        }
    }
}

impl Require {
    /// Reads `a OP b`: each side a column of `columns` or a number; OP one of
    /// `<= < >= > == !=`.
    pub(crate) fn parse(text: &str, columns: &[String]) -> Result<Require, String> {
        let ops = [
            ("<=", Op::Le),
            (">=", Op::Ge),
            ("==", Op::Eq),
            ("!=", Op::Ne),
            ("<", Op::Lt),
            (">", Op::Gt),
        ];
        let (at, sym, op) = ops
            .iter()
            .filter_map(|&(sym, op)| text.find(sym).map(|at| (at, sym, op)))
            .min_by_key(|&(at, sym, _)| (at, std::cmp::Reverse(sym.len())))
            .ok_or_else(|| {
                format!("{text:?}: expected `column OP column` (or a number), OP one of <= < >= > == !=")
            })?;
        let side = |s: &str| -> Result<Operand, String> {
            let s = s.trim();
            if let Some(i) = columns.iter().position(|c| c == s) {
                return Ok(Operand::Column(i));
            }
            s.parse::<u64>().map(Operand::Value).map_err(|_| {
                format!(
                    "{text:?}: {s:?} is neither a column ({}) nor a number",
                    columns.join(", ")
                )
            })
        };
        let (left, right) = (side(&text[..at])?, side(&text[at + sym.len()..])?);
        if !matches!(left, Operand::Column(_)) && !matches!(right, Operand::Column(_)) {
            return Err(format!("{text:?}: names no column"));
        }
        Ok(Require {
            left,
            op,
            right,
            text: text.trim().to_string(),
        })
    }

    /// The side's value in `item`; `None` for a column the item does not hold.
    fn value(o: Operand, item: &[u64]) -> Option<u64> {
        match o {
            Operand::Column(c) => item.get(c).copied(),
            Operand::Value(v) => Some(v),
        }
    }

    /// Whether `item` (one record) satisfies the relation (an item without one of its
    /// columns does not).
    pub(crate) fn holds(&self, item: &[u64]) -> bool {
        match (Self::value(self.left, item), Self::value(self.right, item)) {
            (Some(a), Some(b)) => self.op.holds(a, b),
            _ => false,
        }
    }

    /// Changes one column of `item` (the left one, else the right) within its
    /// `bounds` so that the relation holds, keeping the other; false when no value in
    /// the bounds does.
    pub(crate) fn repair(&self, item: &mut [u64], bounds: &[(u64, u64)]) -> bool {
        if self.holds(item) {
            return true;
        }
        let (col, op, other) = match (self.left, self.right) {
            (Operand::Column(c), r) => (c, self.op, Self::value(r, item)),
            (l, Operand::Column(c)) => (c, self.op.flipped(), Self::value(l, item)),
            _ => return false,
        };
        let Some(other) = other else {
            return false;
        };
        let (Some(&(lo, hi)), Some(&v)) = (bounds.get(col), item.get(col)) else {
            return false;
        };
        let want = match op {
            Op::Le => Some(v.min(other)),
            Op::Lt => other.checked_sub(1).map(|t| v.min(t)),
            Op::Ge => Some(v.max(other)),
            Op::Gt => other.checked_add(1).map(|t| v.max(t)),
            Op::Eq => Some(other),
            Op::Ne => Some(if v < hi { v + 1 } else { v.saturating_sub(1) }),
        };
        match want {
            Some(w) if (lo..=hi).contains(&w) && op.holds(w, other) => {
                item[col] = w;
                true
            }
            _ => false,
        }
    }
}

impl ListSpec {
    /// The first relation (`require`) that `item`, one record, breaks, in words
    /// (`c <= s does not hold (s = 2, c = 4)`); `None` when it keeps them all.
    pub(crate) fn broken(&self, item: &[u64]) -> Option<String> {
        let rel = self.require.iter().find(|r| !r.holds(item))?;
        let shown: Vec<String> = self
            .columns
            .iter()
            .zip(item)
            .map(|(c, x)| format!("{c} = {x}"))
            .collect();
        Some(format!("{} does not hold ({})", rel.text, shown.join(", ")))
    }

    /// The bounds of the length in items (`len` counts values).
    pub(crate) fn items(&self) -> Num {
        let k = self.record.max(1);
        Num {
            min: self.len.min / k,
            max: self.len.max / k,
            lenient_min: self.len.lenient_min / k,
            lenient_max: self.len.lenient_max / k,
        }
    }
}

/// A group field's count: a group is that many lists (its items), each with its own
/// length, every item a position of its own.
#[derive(Clone, Debug)]
pub(crate) struct GroupSpec {
    pub what: Template,
    pub count: Num,
    pub enumerate_max: u64,
    /// A group written without its count, its items followed by this value where an
    /// item's length would stand (`group.until = 0`: a line `0` ends the items); no
    /// item's length may equal it.
    pub until: Option<u64>,
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
    /// The number field (before this one) whose value bounds this one's values from
    /// above (`max = "n"`: tokens on vertices 1..=n).
    pub max_from: Option<usize>,
    /// How much lower the values are written than held: 1 for vertices numbered from
    /// 0 in the input (`base = 0`), which are held numbered from 1 like every vertex;
    /// 0 otherwise. Only the reader and the writer see it.
    pub shift: u64,
    /// The list field whose length (in items) this number field is
    /// ([`ListSpec::len_from`]): never chosen on its own, always the list's length.
    pub counts: Option<usize>,
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
    /// Exactly one case, with nothing before it.
    One,
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

/// A problem read from a declaration. Implements [`Problem`] with `Unpacked` cases inside.
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
    /// The declaration's `[[sample]]`s.
    samples: Vec<crate::problems::known::KnownCase>,
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
            .any(|t| t.uses("count") || t.uses("best") || t.uses("moves") || t.uses("any"));
        // The notation only when a printed move uses it (the default move template is
        // `{move}`, but a problem printing only counts or verdicts never renders it).
        let prints_moves = output
            .lines
            .iter()
            .chain(output.lines_lose.iter().flatten())
            .chain(output.position.iter())
            .any(|t| t.uses("best") || t.uses("moves") || t.uses("any"));
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
            samples: Vec::new(),
        }
    }

    /// Whether an output line prints `{any}`: any winning move is right, so an answer
    /// is a set ([`crate::problems::choice`]).
    pub fn answers_are_sets(&self) -> bool {
        let o = &self.output;
        o.lines
            .iter()
            .chain(o.lines_lose.iter().flatten())
            .any(|t| t.uses("any"))
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
            fast_side_refused: None,
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

    /// The names of the fields of a case, in order (the indices of a case's fields).
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
                    if let Some(g) = self.fields[*i].list.as_ref().and_then(|l| l.graph) {
                        ParamValue::Graph {
                            vertices: case.field(g)[0],
                            edges: v,
                        }
                    } else if self.fields[*i].list.is_some() {
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

    /// Sets the declaration's samples (checked to read as inputs).
    pub(crate) fn set_samples(&mut self, samples: Vec<crate::problems::known::KnownCase>) {
        self.samples = samples;
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
            if let Some(l) = f.counts {
                // A count is its list's length, whatever the generators left in it.
                tokens.push(self.items_of(l, &u.fields[l]));
                continue;
            }
            if f.group.is_some() {
                tokens.push(items(v).count() as u64);
            } else if f.list.is_some() {
                tokens.push(v.len() as u64);
            }
            if f.list.as_ref().is_some_and(|l| l.adjacency) {
                // Adjacency lists read back grouped by tail, in vertex order: the
                // edges are kept so (a stable sort, each line's order kept).
                let tail = |e: &[u64]| e[0];
                if !v.chunks_exact(2).is_sorted_by_key(tail) {
                    let mut edges: Vec<&[u64]> = v.chunks_exact(2).collect();
                    edges.sort_by_key(|e| tail(e));
                    for e in edges {
                        tokens.push(e[0]);
                        tokens.push(e[1]);
                    }
                    continue;
                }
            }
            for &x in v {
                tokens.push(x);
            }
        }
        Case { tokens }
    }

    /// The number of items of list field `l` holding `values`.
    pub(crate) fn items_of(&self, l: usize, values: &[u64]) -> u64 {
        let k = self.fields[l].list.as_ref().map_or(1, |s| s.record.max(1));
        values.len() as u64 / k
    }

    /// Sets every count field to its list's length (see [`Field::counts`]).
    pub(crate) fn sync_counts(&self, u: &mut Unpacked) {
        for (i, f) in self.fields.iter().enumerate() {
            if let Some(l) = f.counts {
                let n = self.items_of(l, &u.fields[l]);
                u.fields[i] = vec![n];
            }
        }
    }

    pub(crate) fn unpack(&self, c: &Case) -> Unpacked {
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
            let f = &self.fields[i];
            let lo = f.bounds.min;
            match f.list.as_ref().map(|l| &l.column_bounds) {
                Some(cb) if !cb.is_empty() => {
                    // A record with bounds per column: each within its column's.
                    b.extend(
                        (0..case.fields[i].len())
                            .map(|j| &cb[j % cb.len()])
                            .map(|c| (c.min, top[i].clamp(c.min, c.max))),
                    );
                }
                _ => b.extend(std::iter::repeat_n(
                    (lo, top[i].max(lo)),
                    case.fields[i].len(),
                )),
            }
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
            // Any winning move: the set of them all (one alone is plain text).
            "any" => match analysis.map(|a| &a.winning[..]) {
                Some([m]) => self.move_into(m, s),
                Some(all @ [_, _, ..]) => {
                    crate::problems::choice::push_set(s, all, |m, s| self.move_into(m, s))
                }
                _ => s.push_str(&o.none),
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
}

mod components;
mod generate;
mod graph;
mod layout;
mod problem;
mod render;
pub(crate) use render::{Part, Template};
mod shrink;

pub use shrink::shrink_list;

#[cfg(test)]
mod require_tests {
    use super::{Op, Operand, Require};

    fn cols() -> Vec<String> {
        vec!["s".into(), "c".into()]
    }

    #[test]
    fn relations_read_with_their_columns_and_numbers() {
        let r = Require::parse("c <= s", &cols()).unwrap();
        assert_eq!(
            (r.left, r.op, r.right),
            (Operand::Column(1), Op::Le, Operand::Column(0))
        );
        let r = Require::parse(" s>=2 ", &cols()).unwrap();
        assert_eq!(
            (r.left, r.op, r.right),
            (Operand::Column(0), Op::Ge, Operand::Value(2))
        );
        assert_eq!(r.text, "s>=2");
        assert_eq!(Require::parse("s != c", &cols()).unwrap().op, Op::Ne);
        assert_eq!(Require::parse("s < c", &cols()).unwrap().op, Op::Lt);
        for bad in ["s", "x <= s", "1 <= 2", "s => c"] {
            assert!(Require::parse(bad, &cols()).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_repair_moves_one_column_within_its_bounds() {
        let bounds = [(0, 10), (0, 10)];
        for (text, item, want) in [
            ("c <= s", [3, 7], Some([3, 3])),
            ("c < s", [3, 7], Some([3, 2])),
            ("c < s", [0, 7], None),
            ("c >= s", [5, 1], Some([5, 5])),
            ("c > s", [10, 1], None),
            ("c != s", [4, 4], Some([4, 5])),
            ("c != s", [10, 10], Some([10, 9])),
            ("c == s", [4, 1], Some([4, 4])),
            ("2 <= c", [4, 0], Some([4, 2])),
        ] {
            let r = Require::parse(text, &cols()).unwrap();
            let mut it = item;
            let ok = r.repair(&mut it, &bounds);
            assert_eq!(ok.then_some(it), want, "{text} on {item:?}");
            if ok {
                assert!(r.holds(&it));
            }
        }
    }
}

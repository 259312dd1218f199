//! Reading a problem declaration (TOML, format 1) into a [`Declared`] problem, with
//! errors that name the line and the key.
//!
//! The format is documented in the book (chapter "Declaring a problem",
//! `docs/src/declaring.md`); the built-in problems are declared in
//! `corpus/problems/<id>.toml`.

/// One side of a record's relation (`require`), as the package's validator spec names it.
#[cfg(feature = "cli")]
pub(crate) use super::engine::Operand as RequireOperand;
use super::engine::{
    Declared, Field, GroupSpec, Layout, Num, Output, ParamSrc, Part, RulesSrc, Template,
};
use super::Info;
use crate::games::declared::{ParamKind, ParamValue};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use toml::Spanned;

/// The newest declaration format this sgcheck reads (the `format` key): format 1, and
/// format 2, which adds the `[game]` table declaring a game's rules
/// (`problems::game_table`). Every format-1 file reads the same in format 2.
pub const FORMAT: u32 = 2;

/// One rules parameter as declared: its name, the key and place errors name, and its
/// value (a field name, a number, a list or a name; `literal`: a name, never a field).
pub(crate) struct RulesEntry {
    pub(crate) name: String,
    pub(crate) key: String,
    pub(crate) span: std::ops::Range<usize>,
    pub(crate) value: toml::Value,
    pub(crate) literal: bool,
}

/// The most fields a case may declare. Contest formats have a handful; the bound keeps
/// what a case costs to enumerate, draw and store proportional to the work done.
pub const MAX_FIELDS: usize = 64;

/// The largest list a declaration may allow (`length.max`, `vertices.max`, and a
/// group's items times their length): ten million numbers, more than any contest
/// input holds. A case at this bound takes 80 MB; one past it is refused when the
/// declaration is read, before anything is built.
pub const MAX_LIST_LEN: u64 = 10_000_000;

/// The largest `enumerate_max` (of a list's length, a tree's vertices or a group's
/// items): the small-first enumeration builds its lists by recursion, one level per
/// value.
pub const MAX_ENUMERATE: u64 = 64;

/// A malformed declaration: where (file, line, key) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclarationError {
    /// The file (or `built-in <id>`).
    pub source: String,
    /// 1-based line of the offending key or value (0 when unknown).
    pub line: usize,
    /// The key, dotted (`output.win`, `field.piles.max`); empty when unknown.
    pub key: String,
    /// What is wrong.
    pub message: String,
    /// The id of the game whose fast side refused the rules while the oracle's own
    /// reader accepts them: not a fault of the declaration but a disagreement of the
    /// two sides, which `verify` reports as such (exit 1).
    pub fast_side_refused: Option<String>,
}

impl fmt::Display for DeclarationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.source)?;
        if self.line > 0 {
            write!(f, ": line {}", self.line)?;
        }
        if !self.key.is_empty() {
            write!(f, ": key `{}`", brief(&self.key, 80))?;
        }
        write!(f, ": {}", brief(&self.message, 400))
    }
}

/// At most `keep` characters of `s` (a message may quote any value of the file), then
/// how long it was.
fn brief(s: &str, keep: usize) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(keep) {
        None => s.into(),
        Some((cut, _)) => format!("{}... ({} bytes)", &s[..cut], s.len()).into(),
    }
}

impl std::error::Error for DeclarationError {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDecl {
    format: Spanned<u32>,
    id: Spanned<String>,
    #[serde(default)]
    aliases: Vec<String>,
    title: String,
    /// A declarable game's id (`"nim"`), or, from format 2 on, a `[game]` table
    /// declaring the rules (see [`super::game_table`]).
    game: Spanned<toml::Value>,
    #[serde(default)]
    rules: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    position: Spanned<Vec<String>>,
    #[serde(default)]
    describe: Describe,
    input: Spanned<InputDecl>,
    #[serde(default)]
    field: Vec<Spanned<FieldDecl>>,
    output: Spanned<OutputDecl>,
    /// The statement's samples: inputs with the outputs the statement gives.
    #[serde(default)]
    sample: Vec<Spanned<SampleDecl>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SampleDecl {
    name: Option<String>,
    input: String,
    output: String,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Describe {
    input: Option<String>,
    output: Option<String>,
    limits: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InputDecl {
    cases: Spanned<String>,
    count: Option<Spanned<NumberDecl>>,
    terminator: Option<Spanned<TerminatorDecl>>,
    max_cases: Option<Spanned<u64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerminatorDecl {
    zeros: usize,
    what: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NumberDecl {
    what: Option<String>,
    min: u64,
    max: u64,
    lenient_min: Option<u64>,
    lenient_max: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LengthDecl {
    what: Option<String>,
    /// Required, except for a list ended by `until` (default 0).
    min: Option<u64>,
    max: u64,
    lenient_min: Option<u64>,
    lenient_max: Option<u64>,
    multiple_of: Option<u64>,
    enumerate_max: Option<u64>,
    /// The value that ends the list (no length written): `until = 0`.
    until: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldDecl {
    name: String,
    what: Option<String>,
    /// A number, or one per column of a record (`min = [0, 1]`).
    min: Option<Spanned<toml::Value>>,
    /// A number, one per column of a record, or the name of a number field declared
    /// before (`max = "n"`).
    max: Option<Spanned<toml::Value>>,
    lenient_min: Option<Spanned<toml::Value>>,
    lenient_max: Option<Spanned<toml::Value>>,
    /// A table `{ min, max, ... }`, or the name of the number field declared before
    /// that holds the length (`length = "m"`).
    length: Option<Spanned<toml::Value>>,
    /// The names of a record's columns: each item is that many numbers on a line.
    record: Option<Spanned<Vec<String>>>,
    /// Relations every item of a record satisfies: `require = ["c <= s"]`.
    require: Option<Spanned<Vec<String>>>,
    /// A graph on the vertices 1..=n: `graph = { vertices = "n" }`.
    graph: Option<Spanned<GraphDecl>>,
    #[serde(default)]
    distinct: bool,
    at_least: Option<Spanned<String>>,
    #[serde(default)]
    inline: bool,
    #[serde(default)]
    grow: Option<Spanned<String>>,
    group: Option<Spanned<GroupDecl>>,
    vertices: Option<Spanned<VerticesDecl>>,
    /// Where the numbering of the values starts, for vertices (`max = "n"`): 1 (the
    /// default) or 0.
    base: Option<Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupDecl {
    what: Option<String>,
    /// Required, except for a group ended by `until` (default 0).
    min: Option<u64>,
    max: u64,
    lenient_min: Option<u64>,
    lenient_max: Option<u64>,
    enumerate_max: Option<u64>,
    /// The value that ends the items where an item's length would stand (no count
    /// written): `until = 0`.
    until: Option<u64>,
}

/// A graph field's vertices: the number field that holds their count; how the graph
/// is written (`edges`, the default: m lines `u v`; `adjacency`: n lines
/// `k w1 .. wk`, the successors of each vertex); for adjacency lists, the most edges
/// in all and how many the smallest-first enumeration goes up to; where the vertex
/// numbering starts (1, the default, or 0).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GraphDecl {
    vertices: String,
    form: Option<String>,
    max_edges: Option<u64>,
    enumerate_max: Option<u64>,
    base: Option<toml::Value>,
}

/// The shift of a `base` key (see [`Field::shift`]): 1 for `base = 0`, 0 for
/// `base = 1`; any other value is refused, naming the key.
fn base_shift(
    ctx: &Ctx<'_>,
    span: std::ops::Range<usize>,
    key: &str,
    value: &toml::Value,
) -> Result<u64, DeclarationError> {
    match value.as_integer() {
        Some(0) => Ok(1),
        Some(1) => Ok(0),
        _ => Err(ctx.err(
            span,
            key,
            format!(
                "base is 0 (vertices numbered 0..=n-1) or 1 (1..=n, the default), found {value}"
            ),
        )),
    }
}

/// A tree field's vertex count n (then n - 1 edges `u v`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VerticesDecl {
    what: Option<String>,
    min: u64,
    max: u64,
    lenient_max: Option<u64>,
    enumerate_max: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OutputDecl {
    lines: Spanned<Vec<String>>,
    win: Option<String>,
    lose: Option<String>,
    #[serde(rename = "move")]
    move_: Option<Spanned<String>>,
    none: Option<String>,
    no_moves: Option<String>,
    separator: Option<String>,
    order: Option<Spanned<String>>,
    lines_lose: Option<Spanned<Vec<String>>>,
    position: Option<Spanned<String>>,
    position_separator: Option<String>,
}

/// Line (1-based) of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The dotted key at a byte offset, from the text: the `key =` of that line (if any)
/// under the nearest table header above it.
fn key_at(text: &str, offset: usize) -> String {
    let offset = offset.min(text.len());
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].lines().next().unwrap_or("");
    let key = line
        .split_once('=')
        .map(|(k, _)| k.trim().to_string())
        .filter(|k| !k.is_empty() && !k.starts_with('[') && !k.contains(' '))
        .unwrap_or_default();
    let header = text[..start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|l| l.trim_matches(|c| c == '[' || c == ']').trim().to_string())
        .unwrap_or_default();
    match (header.is_empty(), key.is_empty()) {
        (true, _) => key,
        (false, true) => header,
        (false, false) => format!("{header}.{key}"),
    }
}

pub(super) struct Ctx<'a> {
    pub(super) text: &'a str,
    pub(super) source: &'a str,
}

impl Ctx<'_> {
    pub(super) fn err(
        &self,
        span: std::ops::Range<usize>,
        key: &str,
        message: impl Into<String>,
    ) -> DeclarationError {
        DeclarationError {
            source: self.source.to_string(),
            line: line_of(self.text, span.start),
            key: key.to_string(),
            message: message.into(),
            fast_side_refused: None,
        }
    }
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// `{any}` (a set of accepted moves) stands apart from the text around it, as a
/// judge reads tokens: at most once in a line, with whitespace or the line's end on
/// each side.
fn any_stands_apart(line: &str) -> Result<(), String> {
    let Some(at) = line.find("{any}") else {
        return Ok(());
    };
    let before = line[..at].chars().next_back();
    let after = line[at + "{any}".len()..].chars().next();
    if before.is_some_and(|c| !c.is_whitespace()) || after.is_some_and(|c| !c.is_whitespace()) {
        return Err(format!(
            "{{any}} in {line:?} must stand apart: whitespace or the line's end on each side"
        ));
    }
    if line.matches("{any}").count() > 1 {
        return Err(format!("{{any}} at most once in a line: {line:?}"));
    }
    Ok(())
}

fn template(
    ctx: &Ctx<'_>,
    span: std::ops::Range<usize>,
    key: &str,
    text: &str,
    names: &[&str],
) -> Result<Template, DeclarationError> {
    Template::parse(text, names).map_err(|m| ctx.err(span, key, m))
}

fn num(
    ctx: &Ctx<'_>,
    span: std::ops::Range<usize>,
    key: &str,
    (min, max, lmin, lmax): (u64, u64, Option<u64>, Option<u64>),
) -> Result<Num, DeclarationError> {
    let n = Num {
        min,
        max,
        lenient_min: lmin.unwrap_or(min),
        lenient_max: lmax.unwrap_or(u64::MAX),
    };
    if n.min > n.max {
        return Err(ctx.err(span, key, format!("min {} is above max {}", n.min, n.max)));
    }
    if n.lenient_min > n.min || n.lenient_max < n.max {
        return Err(ctx.err(
            span,
            key,
            "lenient_min..=lenient_max must contain min..=max (--lenient only widens the limits)",
        ));
    }
    Ok(n)
}

/// A TOML error of `text`, with its line and key.
pub(super) fn toml_error(text: &str, source: &str, e: &toml::de::Error) -> DeclarationError {
    let span = e.span().unwrap_or(0..0);
    DeclarationError {
        source: source.to_string(),
        line: if text.is_empty() {
            0
        } else {
            line_of(text, span.start)
        },
        key: key_at(text, span.start),
        message: e.message().trim().to_string(),
        fast_side_refused: None,
    }
}

/// Reads a declaration from `text`; `source` names it in errors and in
/// `sgcheck list` (a path, or `built-in corpus/problems/<id>.toml`).
pub fn parse(text: &str, source: &str) -> Result<Declared, DeclarationError> {
    let ctx = Ctx { text, source };
    let decl: FileDecl = toml::from_str(text).map_err(|e| toml_error(text, source, &e))?;
    if !(1..=FORMAT).contains(decl.format.get_ref()) {
        return Err(ctx.err(
            decl.format.span(),
            "format",
            format!(
                "declaration format {} is not supported; this sgcheck reads formats 1 to {FORMAT}",
                decl.format.get_ref()
            ),
        ));
    }
    let id = decl.id.get_ref();
    if id.is_empty()
        || !id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Err(ctx.err(
            decl.id.span(),
            "id",
            "the id must be letters, digits, `-` and `_` (it names the problem on the command line)",
        ));
    }
    // The game: an id, with its parameters in `[rules]`, or a `[game]` table.
    let (game, entries, rules_at) = match decl.game.get_ref() {
        toml::Value::String(name) => {
            let game = crate::registry::declarable(name).ok_or_else(|| {
                ctx.err(
                    decl.game.span(),
                    "game",
                    format!(
                        "unknown game {:?}; declarable games: {}",
                        name,
                        crate::registry::declarables()
                            .map(|g| g.id())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })?;
            let entries: Vec<RulesEntry> = decl
                .rules
                .iter()
                .map(|(k, v)| RulesEntry {
                    name: k.get_ref().clone(),
                    key: format!("rules.{}", k.get_ref()),
                    span: v.span(),
                    value: v.get_ref().clone(),
                    literal: false,
                })
                .collect();
            (game, entries, (decl.game.span(), "rules".to_string()))
        }
        toml::Value::Table(_) => {
            if *decl.format.get_ref() < 2 {
                return Err(ctx.err(
                    decl.game.span(),
                    "game",
                    "a [game] table declaring the rules needs `format = 2`",
                ));
            }
            if let Some((k, _)) = decl.rules.iter().next() {
                return Err(ctx.err(
                    k.span(),
                    &format!("rules.{}", k.get_ref()),
                    "a [game] table declares the rules: no [rules] with it",
                ));
            }
            let t = super::game_table::read(text, source)?;
            (t.game, t.entries, t.rules_at)
        }
        _ => {
            return Err(ctx.err(
                decl.game.span(),
                "game",
                "game is a game id (`game = \"nim\"`) or, in format 2, a [game] table",
            ))
        }
    };
    let reach = game.reach();

    // Fields.
    if let Some(f) = decl.field.get(MAX_FIELDS) {
        return Err(ctx.err(
            f.span(),
            "field",
            format!(
                "{} fields declared; a case has at most {MAX_FIELDS}",
                decl.field.len()
            ),
        ));
    }
    let mut fields: Vec<Field> = Vec::new();
    for f in &decl.field {
        let span = f.span();
        let fd = f.get_ref();
        let key = format!("field.{}", fd.name);
        let too_long = |span: std::ops::Range<usize>, key: &str, what: &str, max: u64| {
            (max > MAX_LIST_LEN).then(|| {
                ctx.err(
                    span,
                    key,
                    format!(
                        "{what} {max} is above {MAX_LIST_LEN}, the largest list sgcheck builds"
                    ),
                )
            })
        };
        let too_many = |span: std::ops::Range<usize>, key: &str, e: Option<u64>| match e {
            Some(e) if e > MAX_ENUMERATE => Some(ctx.err(
                span,
                &format!("{key}.enumerate_max"),
                format!("enumerate_max {e} is above {MAX_ENUMERATE}"),
            )),
            _ => None,
        };
        if fd.name.is_empty() || fd.name.contains(['{', '}', ' ']) {
            return Err(ctx.err(span, "field.name", "a field name is one word"));
        }
        if fields.iter().any(|g| g.name == fd.name) {
            return Err(ctx.err(span, &key, format!("field {:?} is declared twice", fd.name)));
        }
        if let Some(v) = &fd.vertices {
            let vs = v.span();
            let vd = v.get_ref();
            let vkey = format!("{key}.vertices");
            if fd.length.is_some()
                || fd.record.is_some()
                || fd.graph.is_some()
                || fd.group.is_some()
                || fd.min.is_some()
                || fd.max.is_some()
                || fd.lenient_min.is_some()
                || fd.lenient_max.is_some()
                || fd.distinct
                || fd.inline
                || fd.at_least.is_some()
                || fd.base.is_some()
            {
                return Err(ctx.err(
                    span,
                    &key,
                    "a tree field (`vertices`) takes only `name`, `what`, `vertices` and \
                     `grow`: its values are edges on 1..=n",
                ));
            }
            let len = num(
                &ctx,
                vs.clone(),
                &vkey,
                (vd.min, vd.max, None, vd.lenient_max),
            )?;
            if len.min < 1 {
                return Err(ctx.err(vs, &vkey, "a tree has at least one vertex"));
            }
            if let Some(e) = too_long(vs.clone(), &vkey, "max", len.max)
                .or_else(|| too_many(vs.clone(), &vkey, vd.enumerate_max))
            {
                return Err(e);
            }
            let what = vd
                .what
                .clone()
                .unwrap_or_else(|| format!("vertices of {} of case {{case}}", fd.name));
            let edge_what = fd
                .what
                .clone()
                .unwrap_or_else(|| format!("edge {{i}} of {} of case {{case}}", fd.name));
            let geometric = matches!(
                fd.grow.as_ref().map(|g| g.get_ref().as_str()),
                Some("geometric")
            );
            fields.push(Field {
                name: leak(fd.name.clone()),
                what: template(
                    &ctx,
                    span.clone(),
                    &format!("{key}.what"),
                    &edge_what,
                    &["case", "i", "i0"],
                )?,
                bounds: Num {
                    min: 1,
                    max: len.max,
                    lenient_min: 1,
                    lenient_max: len.lenient_max,
                },
                list: Some(super::engine::ListSpec {
                    what: template(&ctx, vs.clone(), &format!("{vkey}.what"), &what, &["case"])?,
                    len,
                    tree: true,
                    step: 1,
                    distinct: false,
                    inline: false,
                    enumerate_max: vd.enumerate_max.unwrap_or(7).max(len.min),
                    record: 1,
                    len_from: None,
                    graph: None,
                    columns: Vec::new(),
                    adjacency: false,
                    column_bounds: Vec::new(),
                    until: None,
                    require: Vec::new(),
                }),
                at_least: None,
                group: None,
                geometric,
                max_from: None,
                shift: 0,
                counts: None,
            });
            continue;
        }
        // A number field named by `max = "n"`, `length = "m"` or `graph.vertices`:
        // declared before this one, a plain number.
        let number_field = |name: &str, at: std::ops::Range<usize>, k: &str| {
            fields
                .iter()
                .position(|g| g.name == name && g.list.is_none() && g.counts.is_none())
                .ok_or_else(|| {
                    ctx.err(
                        at,
                        k,
                        format!(
                            "{name:?} is not a number field declared before this one \
                             (and not already the length of a list)"
                        ),
                    )
                })
        };
        let graph = match &fd.graph {
            None => None,
            Some(g) => {
                let gkey = format!("{key}.graph");
                if fd.min.is_some() || fd.max.is_some() || fd.record.is_some() || fd.distinct {
                    return Err(ctx.err(
                        g.span(),
                        &gkey,
                        "a graph's items are edges `u v` on 1..=n: it takes no `min`, `max`, \
                         `record` or `distinct`",
                    ));
                }
                if fd.group.is_some() {
                    return Err(ctx.err(g.span(), &gkey, "a group's items cannot be graphs"));
                }
                Some(number_field(
                    &g.get_ref().vertices,
                    g.span(),
                    &format!("{gkey}.vertices"),
                )?)
            }
        };
        // `form = "adjacency"`: n lines `k w1 .. wk`, no length written or named.
        let adjacency = match &fd.graph {
            None => None,
            Some(g) => {
                let gd = g.get_ref();
                let gkey = format!("{key}.graph");
                let adjacency = match gd.form.as_deref() {
                    None | Some("edges") => false,
                    Some("adjacency") => true,
                    Some(other) => {
                        return Err(ctx.err(
                            g.span(),
                            &format!("{gkey}.form"),
                            format!("form is `edges` or `adjacency`, found {other:?}"),
                        ))
                    }
                };
                if !adjacency {
                    if gd.max_edges.is_some() || gd.enumerate_max.is_some() {
                        return Err(ctx.err(
                            g.span(),
                            &gkey,
                            "`max_edges` and `enumerate_max` go with `form = \"adjacency\"`; \
                             a list of edges takes its bounds from `length`",
                        ));
                    }
                    None
                } else {
                    if let Some(l) = &fd.length {
                        return Err(ctx.err(
                            l.span(),
                            &format!("{key}.length"),
                            "an adjacency list is one line per vertex (n lines `k w1 .. wk`): \
                             it takes no `length` (bound the edges with `graph.max_edges`)",
                        ));
                    }
                    if fd.inline {
                        return Err(ctx.err(
                            span.clone(),
                            &format!("{key}.inline"),
                            "an adjacency list is one line per vertex, `k w1 .. wk`: no `inline`",
                        ));
                    }
                    let n = fields[graph.expect("a graph")].bounds.max;
                    if n > MAX_LIST_LEN {
                        return Err(ctx.err(
                            g.span(),
                            &format!("{gkey}.vertices"),
                            format!(
                                "an adjacency list writes a line per vertex: the vertex count's \
                                 max {n} is above {MAX_LIST_LEN}"
                            ),
                        ));
                    }
                    // A graph without a cycle or a repeated edge has at most n(n - 1)/2.
                    let most = n.saturating_mul(n.saturating_sub(1)) / 2;
                    let max_edges = gd.max_edges.unwrap_or(most.min(MAX_LIST_LEN / 2));
                    if let Some(e) = too_long(
                        g.span(),
                        &format!("{gkey}.max_edges"),
                        "max_edges times 2",
                        max_edges.saturating_mul(2),
                    )
                    .or_else(|| too_many(g.span(), &gkey, gd.enumerate_max))
                    {
                        return Err(e);
                    }
                    Some((max_edges, gd.enumerate_max.unwrap_or(3).min(max_edges)))
                }
            }
        };
        // A bound: one number for every value, or a list of one per column of a record
        // (`min = [0, 1]`).
        let columns = fd.record.as_ref().map_or(0, |r| r.get_ref().len());
        let bound_list =
            |v: &Spanned<toml::Value>, k: &str| -> Result<Vec<u64>, DeclarationError> {
                let bkey = format!("{key}.{k}");
                let one = |x: &toml::Value| x.as_integer().and_then(|x| u64::try_from(x).ok());
                match v.get_ref() {
                    toml::Value::Array(a) => {
                        if columns < 2 || a.len() != columns {
                            return Err(ctx.err(
                                v.span(),
                                &bkey,
                                format!(
                                    "a list of bounds holds one per column of the record \
                                 ({columns} columns), found {}",
                                    a.len()
                                ),
                            ));
                        }
                        a.iter()
                            .map(|x| {
                                one(x).ok_or_else(|| {
                                    ctx.err(v.span(), &bkey, "each bound is a non-negative integer")
                                })
                            })
                            .collect()
                    }
                    x => one(x).map(|x| vec![x]).ok_or_else(|| {
                        ctx.err(
                            v.span(),
                            &bkey,
                            format!(
                            "{k} is a non-negative integer, or a list of one per column of a record"
                        ),
                        )
                    }),
                }
            };
        // `max = "n"`: the values are at most the value of field n.
        let mut max_from = None;
        let max = match fd.max.as_ref() {
            None => None,
            Some(m) => match m.get_ref() {
                toml::Value::String(name) => {
                    let j = number_field(name, m.span(), &format!("{key}.max"))?;
                    max_from = Some(j);
                    Some(vec![fields[j].bounds.max])
                }
                toml::Value::Integer(_) | toml::Value::Array(_) => Some(bound_list(m, "max")?),
                _ => {
                    return Err(ctx.err(
                        m.span(),
                        &format!("{key}.max"),
                        "max is a number, a list of one per column of a record, or the name \
                         of a number field declared before",
                    ))
                }
            },
        };
        // `base = 0`: vertices numbered from 0 in the input; held from 1 like every
        // vertex, so the bounds as written (`min = 0`) are held one higher.
        let shift =
            match (&fd.base, &fd.graph) {
                (Some(b), Some(_)) => return Err(ctx.err(
                    b.span(),
                    &format!("{key}.base"),
                    "a graph numbers its vertices with `graph = { vertices = \"n\", base = 0 }`",
                )),
                (Some(b), None) => {
                    let bkey = format!("{key}.base");
                    let shift = base_shift(&ctx, b.span(), &bkey, b.get_ref())?;
                    if max_from.is_none() || fd.record.is_some() {
                        return Err(ctx.err(
                        b.span(),
                        &bkey,
                        "`base` numbers vertices: it goes with `max = \"n\"` (values 1..=n, or \
                         0..=n-1 with `base = 0`) on a number or a plain list, not a record",
                    ));
                    }
                    shift
                }
                (None, Some(g)) => match &g.get_ref().base {
                    Some(v) => base_shift(&ctx, g.span(), &format!("{key}.graph.base"), v)?,
                    None => 0,
                },
                (None, None) => 0,
            };
        let held =
            |l: Vec<u64>| -> Vec<u64> { l.into_iter().map(|x| x.saturating_add(shift)).collect() };
        let min = fd
            .min
            .as_ref()
            .map(|m| bound_list(m, "min").map(held))
            .transpose()?;
        let lenient_min = fd
            .lenient_min
            .as_ref()
            .map(|m| bound_list(m, "lenient_min").map(held))
            .transpose()?;
        let lenient_max = fd
            .lenient_max
            .as_ref()
            .map(|m| bound_list(m, "lenient_max").map(held))
            .transpose()?;
        let mut column_bounds = Vec::new();
        let bounds = match (graph, min, max) {
            (Some(n), _, _) => Num {
                min: 1,
                max: fields[n].bounds.max.max(1),
                lenient_min: 1,
                lenient_max: fields[n].bounds.lenient_max.max(1),
            },
            (None, Some(min), Some(max)) => {
                let lists = [
                    Some(&min),
                    Some(&max),
                    lenient_min.as_ref(),
                    lenient_max.as_ref(),
                ];
                let k = lists.iter().flatten().map(|l| l.len()).max().unwrap_or(1);
                let at = |l: &Vec<u64>, c: usize| l[if l.len() == 1 { 0 } else { c }];
                for c in 0..k {
                    let lmax = match (max_from, &lenient_max) {
                        (Some(j), None) => Some(fields[j].bounds.lenient_max),
                        (_, l) => l.as_ref().map(|l| at(l, c)),
                    };
                    let b = num(
                        &ctx,
                        span.clone(),
                        &key,
                        (
                            at(&min, c),
                            at(&max, c),
                            lenient_min.as_ref().map(|l| at(l, c)),
                            lmax,
                        ),
                    )
                    .map_err(|mut e| {
                        if k > 1 {
                            let names = fd.record.as_ref().map(|r| r.get_ref().as_slice());
                            let name = names.and_then(|n| n.get(c)).map_or("", String::as_str);
                            e.message = format!("column `{name}`: {}", e.message);
                        }
                        e
                    })?;
                    column_bounds.push(b);
                }
                if k > 1 {
                    if fd.distinct || fd.group.is_some() {
                        return Err(ctx.err(
                            span,
                            &key,
                            "bounds per column go with a plain record list (not `distinct`, \
                             not a group)",
                        ));
                    }
                    // The field's bounds hold every column's.
                    Num {
                        min: column_bounds.iter().map(|b| b.min).min().unwrap_or(0),
                        max: column_bounds.iter().map(|b| b.max).max().unwrap_or(0),
                        lenient_min: column_bounds
                            .iter()
                            .map(|b| b.lenient_min)
                            .min()
                            .unwrap_or(0),
                        lenient_max: column_bounds
                            .iter()
                            .map(|b| b.lenient_max)
                            .max()
                            .unwrap_or(0),
                    }
                } else {
                    column_bounds.pop().expect("one column")
                }
            }
            _ => {
                return Err(ctx.err(
                    span,
                    &key,
                    "a field needs `min` and `max` (or `vertices`, for a tree, or `graph`)",
                ))
            }
        };
        // Numbers per item: a record's columns, or an edge's two ends.
        let record = match (&fd.record, graph) {
            (_, Some(_)) => 2,
            (None, None) => 1,
            (Some(r), None) => {
                let n = r.get_ref().len() as u64;
                if !(2..=8).contains(&n) {
                    return Err(ctx.err(
                        r.span(),
                        &format!("{key}.record"),
                        "a record names its columns, 2 to 8 of them",
                    ));
                }
                n
            }
        };
        let in_group = fd.group.is_some();
        let list = match &fd.length {
            None if adjacency.is_some() => {
                let (max_edges, enumerate_edges) = adjacency.expect("an adjacency list");
                let len = Num {
                    min: 0,
                    max: max_edges * 2,
                    lenient_min: 0,
                    lenient_max: max_edges * 2,
                };
                let what = format!("{} of case {{case}}", fd.name);
                Some(super::engine::ListSpec {
                    what: template(&ctx, span.clone(), &format!("{key}.what"), &what, &["case"])?,
                    len,
                    tree: false,
                    step: 2,
                    distinct: false,
                    inline: false,
                    enumerate_max: enumerate_edges * 2,
                    record: 2,
                    len_from: None,
                    graph,
                    columns: Vec::new(),
                    adjacency: true,
                    column_bounds: Vec::new(),
                    until: None,
                    require: Vec::new(),
                })
            }
            None => {
                if record > 1 || graph.is_some() {
                    return Err(ctx.err(
                        span,
                        &key,
                        "a record list or a graph needs a `length` (its items, or the \
                         number field that counts them)",
                    ));
                }
                None
            }
            Some(l) => {
                let ls = l.span();
                let lkey = format!("{key}.length");
                // `length = "m"`: the count is field m, written where it was declared.
                let (ld, len_from) = match l.get_ref() {
                    toml::Value::String(name) => {
                        if in_group {
                            return Err(ctx.err(
                                ls,
                                &lkey,
                                "a group's items have their lengths before them",
                            ));
                        }
                        let m = number_field(name, ls.clone(), &lkey)?;
                        let b = fields[m].bounds;
                        let ld = LengthDecl {
                            what: None,
                            min: Some(b.min),
                            max: b.max,
                            lenient_min: Some(b.lenient_min),
                            lenient_max: Some(b.lenient_max),
                            multiple_of: None,
                            enumerate_max: None,
                            until: None,
                        };
                        (ld, Some(m))
                    }
                    v @ toml::Value::Table(_) => {
                        let ld: LengthDecl = v
                            .clone()
                            .try_into()
                            .map_err(|e| ctx.err(ls.clone(), &lkey, e.message().to_string()))?;
                        (ld, None)
                    }
                    _ => {
                        return Err(ctx.err(
                            ls,
                            &lkey,
                            "length is a table `{ min, max }`, or the name of a number field \
                             declared before",
                        ))
                    }
                };
                // `until = 0`: values until a 0, which no value may equal.
                if let Some(end) = ld.until {
                    let refuse =
                        |why: &str| Err(ctx.err(ls.clone(), &format!("{lkey}.until"), why));
                    if in_group || record > 1 || graph.is_some() {
                        return refuse(
                            "a list ended by a value holds plain numbers: not a record, a \
                             graph or a group's items",
                        );
                    }
                    if (bounds.lenient_min..=bounds.lenient_max).contains(&end) {
                        return refuse(&format!(
                            "the list ends at the first value {end}, so its values must exclude \
                             it: {end} is within {}..={} (lenient {}..={}); bound them above or \
                             below it",
                            bounds.min, bounds.max, bounds.lenient_min, bounds.lenient_max
                        ));
                    }
                    if max_from.is_some() {
                        return refuse("a list ended by a value takes a number `max`");
                    }
                }
                let Some(min_len) = ld.min.or(ld.until.map(|_| 0)) else {
                    return Err(ctx.err(ls.clone(), &lkey, "length needs `min` (and `max`)"));
                };
                let items = num(
                    &ctx,
                    ls.clone(),
                    &lkey,
                    (min_len, ld.max, ld.lenient_min, ld.lenient_max),
                )?;
                // Inside, a record list counts values: k per item.
                let len = Num {
                    min: items.min.saturating_mul(record),
                    max: items.max.saturating_mul(record),
                    lenient_min: items.lenient_min.saturating_mul(record),
                    lenient_max: items.lenient_max.saturating_mul(record),
                };
                if let Some(e) = too_long(ls.clone(), &lkey, "max times the record", len.max)
                    .or_else(|| too_many(ls.clone(), &lkey, ld.enumerate_max))
                {
                    return Err(e);
                }
                let step = ld.multiple_of.unwrap_or(1);
                if step == 0 {
                    return Err(ctx.err(ls, &format!("{lkey}.multiple_of"), "must be at least 1"));
                }
                let (what, names): (String, &[&str]) = if in_group {
                    (
                        ld.what.clone().unwrap_or_else(|| {
                            format!("length of {} item {{j}} of case {{case}}", fd.name)
                        }),
                        &["case", "j"],
                    )
                } else {
                    (
                        ld.what
                            .clone()
                            .unwrap_or_else(|| format!("length of {} of case {{case}}", fd.name)),
                        &["case", "i", "i0"],
                    )
                };
                let require = match &fd.require {
                    None => Vec::new(),
                    Some(r) => {
                        let rkey = format!("{key}.require");
                        let columns =
                            match &fd.record {
                                Some(c) if graph.is_none() && !fd.distinct => c.get_ref().clone(),
                                _ => return Err(ctx.err(
                                    r.span(),
                                    &rkey,
                                    "`require` relates the columns of a record (`record = [..]`, \
                                     not `distinct`)",
                                )),
                            };
                        r.get_ref()
                            .iter()
                            .map(|t| super::engine::Require::parse(t, &columns))
                            .collect::<Result<Vec<_>, String>>()
                            .map_err(|m| ctx.err(r.span(), &rkey, m))?
                    }
                };
                let enumerate_items = ld
                    .enumerate_max
                    .unwrap_or(items.min.saturating_add(step.saturating_mul(3)))
                    .max(items.min);
                Some(super::engine::ListSpec {
                    what: template(&ctx, ls.clone(), &format!("{lkey}.what"), &what, names)?,
                    len,
                    tree: false,
                    step: step.saturating_mul(record),
                    distinct: fd.distinct,
                    inline: fd.inline,
                    enumerate_max: enumerate_items.saturating_mul(record),
                    record,
                    len_from,
                    graph,
                    columns: fd
                        .record
                        .as_ref()
                        .map(|r| r.get_ref().iter().map(|c| leak(c.clone())).collect())
                        .unwrap_or_default(),
                    adjacency: false,
                    column_bounds: column_bounds.clone(),
                    until: ld.until,
                    require,
                })
            }
        };
        if list.is_none() && (fd.distinct || fd.inline) {
            return Err(ctx.err(
                span,
                &key,
                "`distinct` and `inline` need a list (a `length`)",
            ));
        }
        let group = match &fd.group {
            None => None,
            Some(g) => {
                let gs = g.span();
                let gd = g.get_ref();
                let gkey = format!("{key}.group");
                if list.is_none() {
                    return Err(ctx.err(
                        gs,
                        &gkey,
                        "a group is a count of lists: the field needs a `length` (each item's)",
                    ));
                }
                if fd.distinct {
                    return Err(ctx.err(gs, &gkey, "a group's items cannot be `distinct`"));
                }
                if fields.iter().any(|f| f.group.is_some()) {
                    return Err(ctx.err(gs, &gkey, "a case holds at most one group"));
                }
                let Some(min) = gd.min.or(gd.until.map(|_| 0)) else {
                    return Err(ctx.err(gs, &gkey, "a group needs `min` (and `max`)"));
                };
                let count = num(
                    &ctx,
                    gs.clone(),
                    &gkey,
                    (min, gd.max, gd.lenient_min, gd.lenient_max),
                )?;
                // `until = 0`: items until a length 0, which no item's length may be.
                if let (Some(end), Some(l)) = (gd.until, &list) {
                    if (l.len.lenient_min..=l.len.lenient_max).contains(&end) {
                        return Err(ctx.err(
                            gs,
                            &format!("{gkey}.until"),
                            format!(
                                "the items end at the first length {end}, so no item's length may \
                                 be {end}: it is within {}..={} (lenient {}..={}); bound \
                                 `length` above it (`min = 1`)",
                                l.len.min, l.len.max, l.len.lenient_min, l.len.lenient_max
                            ),
                        ));
                    }
                }
                let items = count
                    .max
                    .saturating_mul(list.as_ref().map_or(1, |l| l.len.max.max(1)));
                if let Some(e) = too_long(gs.clone(), &gkey, "max times the item length", items)
                    .or_else(|| too_many(gs.clone(), &gkey, gd.enumerate_max))
                {
                    return Err(e);
                }
                // Without a count written, errors name the items themselves.
                let what = gd.what.clone().unwrap_or_else(|| match gd.until {
                    Some(_) => format!("{} of case {{case}}", fd.name),
                    None => format!("count of {} of case {{case}}", fd.name),
                });
                Some(GroupSpec {
                    what: template(&ctx, gs.clone(), &format!("{gkey}.what"), &what, &["case"])?,
                    count,
                    enumerate_max: gd
                        .enumerate_max
                        .unwrap_or(count.min + 2)
                        .clamp(count.min, count.max),
                    until: gd.until,
                })
            }
        };
        let default_what = match (&group, &list) {
            (None, Some(l)) if l.adjacency && shift > 0 => "vertex {i0} of case {case}".to_string(),
            (None, Some(l)) if l.adjacency => "vertex {i} of case {case}".to_string(),
            (Some(_), _) => format!("{} {{i}} of item {{j}} of case {{case}}", fd.name),
            (None, Some(_)) => format!("{} {{i}} of case {{case}}", fd.name),
            (None, None) => format!("{} of case {{case}}", fd.name),
        };
        let what = fd.what.clone().unwrap_or(default_what);
        let names: &[&str] = if group.is_some() {
            &["case", "i", "i0", "j"]
        } else {
            &["case", "i", "i0"]
        };
        let what = template(&ctx, span.clone(), &format!("{key}.what"), &what, names)?;
        let at_least = match &fd.at_least {
            None => None,
            Some(r) => {
                let i = fields
                    .iter()
                    .position(|g| g.name == *r.get_ref() && g.list.is_none())
                    .ok_or_else(|| {
                        ctx.err(
                            r.span(),
                            &format!("{key}.at_least"),
                            format!(
                                "{:?} is not a number field declared before this one",
                                r.get_ref()
                            ),
                        )
                    })?;
                if list.is_some() {
                    return Err(ctx.err(
                        r.span(),
                        &format!("{key}.at_least"),
                        "only number fields take `at_least`",
                    ));
                }
                Some(i)
            }
        };
        let geometric = match fd.grow.as_ref().map(|g| (g.get_ref().as_str(), g.span())) {
            None | Some(("linear", _)) => false,
            Some(("geometric", _)) => true,
            Some((other, s)) => {
                return Err(ctx.err(
                    s,
                    &format!("{key}.grow"),
                    format!("grow is `linear` or `geometric`, found {other:?}"),
                ))
            }
        };
        if let Some(m) = list.as_ref().and_then(|l| l.len_from) {
            fields[m].counts = Some(fields.len());
        }
        if max_from.is_some() && list.is_none() && at_least.is_some() {
            return Err(ctx.err(
                span,
                &key,
                "a number field takes `at_least` or `max = \"<field>\"`, not both",
            ));
        }
        fields.push(Field {
            name: leak(fd.name.clone()),
            what,
            bounds,
            list,
            group,
            at_least,
            geometric,
            max_from,
            shift,
            counts: None,
        });
    }
    if fields.is_empty() {
        return Err(ctx.err(
            decl.input.span(),
            "field",
            "a case needs at least one [[field]]",
        ));
    }

    // The position.
    let mut position = Vec::new();
    for name in decl.position.get_ref() {
        let i = fields.iter().position(|f| f.name == *name).ok_or_else(|| {
            ctx.err(
                decl.position.span(),
                "position",
                format!("no field named {name:?}"),
            )
        })?;
        let f = &fields[i];
        if let Some(l) = f.counts {
            return Err(ctx.err(
                decl.position.span(),
                "position",
                format!(
                    "{name:?} is the length of {:?}; name the list in `position`",
                    fields[l].name
                ),
            ));
        }
        if f.bounds.lenient_max > reach.max_value {
            return Err(ctx.err(
                decl.position.span(),
                &format!("field.{name}.lenient_max"),
                format!(
                    "{name} may reach {} (with --lenient), above {}, the largest value the {} solver handles; set lenient_max",
                    f.bounds.lenient_max, reach.max_value, game.id()
                ),
            ));
        }
        if let Some(l) = f.list.as_ref().filter(|l| l.tree) {
            if l.len.lenient_max > reach.max_value {
                return Err(ctx.err(
                    decl.position.span(),
                    &format!("field.{name}.vertices.lenient_max"),
                    format!(
                        "the {} solver handles trees of at most {} vertices; set vertices.lenient_max",
                        game.id(),
                        reach.max_value
                    ),
                ));
            }
        } else if let Some(l) = &f.list {
            if l.len.lenient_max > reach.max_len {
                return Err(ctx.err(
                    decl.position.span(),
                    &format!("field.{name}.length.lenient_max"),
                    format!(
                        "the {} solver handles positions of at most {} numbers; set length.lenient_max",
                        game.id(),
                        reach.max_len
                    ),
                ));
            }
        }
        position.push(i);
    }
    if position.is_empty() {
        return Err(ctx.err(
            decl.position.span(),
            "position",
            "name the fields that give the position",
        ));
    }
    let group = fields.iter().position(|f| f.group.is_some());
    if let Some(g) = group {
        if position != [g] {
            return Err(ctx.err(
                decl.position.span(),
                "position",
                format!(
                    "each item of the group {:?} is a position: name it alone in `position`",
                    fields[g].name
                ),
            ));
        }
    }

    // The rules.
    let mut params = Vec::new();
    for spec in game.parameters() {
        let Some(entry) = entries.iter().find(|e| e.name == spec.name) else {
            return Err(ctx.err(
                rules_at.0.clone(),
                &rules_at.1,
                format!(
                    "the {} game needs the parameter `{}` ({}) in [rules]",
                    game.id(),
                    spec.name,
                    spec.about
                ),
            ));
        };
        let key = entry.key.clone();
        let bad = |m: String| ctx.err(entry.span.clone(), &key, m);
        let src = match &entry.value {
            toml::Value::String(s) if entry.literal => ParamSrc::Name(s.clone()),
            toml::Value::String(s) => {
                match fields.iter().position(|f| f.name == *s) {
                    Some(i) if fields[i].list.as_ref().is_some_and(|l| l.tree) => {
                        return Err(bad(format!(
                            "field {s:?} is a tree, which no parameter takes"
                        )));
                    }
                    Some(i) => {
                        if fields[i].group.is_some() {
                            return Err(bad(format!(
                                "field {s:?} is a group (its items are positions), not a parameter"
                            )));
                        }
                        let is_graph = fields[i].list.as_ref().is_some_and(|l| l.graph.is_some());
                        if fields[i].counts.is_some() {
                            return Err(bad(format!(
                                "field {s:?} is the length of a list, which no parameter takes"
                            )));
                        }
                        if is_graph != (spec.kind == ParamKind::Graph) {
                            return Err(bad(if is_graph {
                                format!("field {s:?} is a graph, which this parameter is not")
                            } else {
                                format!("the parameter is a graph, and field {s:?} is not a graph field")
                            }));
                        }
                        let is_list = fields[i].list.is_some();
                        if !is_graph && is_list != (spec.kind == ParamKind::List) {
                            return Err(bad(format!(
                                "field {s:?} is a {}, the parameter takes a {}",
                                if is_list { "list" } else { "number" },
                                if spec.kind == ParamKind::List {
                                    "list"
                                } else {
                                    "number"
                                }
                            )));
                        }
                        ParamSrc::Field(i)
                    }
                    None => ParamSrc::Name(s.clone()),
                }
            }
            toml::Value::Integer(n) if *n >= 0 => ParamSrc::Number(*n as u64),
            toml::Value::Array(a) => {
                let mut list = Vec::new();
                for x in a {
                    match x.as_integer() {
                        Some(n) if n >= 0 => list.push(n as u64),
                        _ => {
                            return Err(bad("a list parameter holds non-negative integers".into()))
                        }
                    }
                }
                ParamSrc::List(list)
            }
            _ => {
                return Err(bad(
                    "a parameter is a field name, a number, a list or a name".into(),
                ))
            }
        };
        params.push(src);
    }
    for k in decl.rules.keys() {
        if !game.parameters().iter().any(|p| p.name == k.get_ref()) {
            return Err(ctx.err(
                k.span(),
                &format!("rules.{}", k.get_ref()),
                format!(
                    "the {} game has no parameter {:?} (it takes: {})",
                    game.id(),
                    k.get_ref(),
                    if game.parameters().is_empty() {
                        "none".to_string()
                    } else {
                        game.parameters()
                            .iter()
                            .map(|p| p.name)
                            .collect::<Vec<_>>()
                            .join(", ")
                    }
                ),
            ));
        }
    }
    let rules = if params.iter().any(|p| matches!(p, ParamSrc::Field(_))) {
        RulesSrc::PerCase(params)
    } else {
        let values: Vec<ParamValue<'_>> = params.iter().map(|p| p.constant()).collect();
        let r = game.rules(&values).map_err(|m| {
            let mut e = ctx.err(rules_at.0.clone(), &rules_at.1, &m);
            if let Some(Ok(())) = game.oracle_reads(&values) {
                e.message = format!(
                    "the {} game's fast side refuses these rules, which the oracle's reader \
                     accepts: {m}",
                    game.id()
                );
                e.fast_side_refused = Some(game.id().to_string());
            }
            e
        })?;
        RulesSrc::Fixed(r)
    };

    // The layout.
    let input = decl.input.get_ref();
    let layout = match input.cases.get_ref().as_str() {
        "count" => {
            let c = input.count.as_ref().ok_or_else(|| {
                ctx.err(
                    input.cases.span(),
                    "input.count",
                    "`cases = \"count\"` needs `count = { min, max }`",
                )
            })?;
            let cd = c.get_ref();
            let n = num(
                &ctx,
                c.span(),
                "input.count",
                (cd.min, cd.max, cd.lenient_min, cd.lenient_max),
            )?;
            let what = cd.what.clone().unwrap_or_else(|| "case count".into());
            Layout::Count {
                what: leak(what),
                num: n,
            }
        }
        "terminator" => {
            let t = input.terminator.as_ref().ok_or_else(|| {
                ctx.err(
                    input.cases.span(),
                    "input.terminator",
                    "`cases = \"terminator\"` needs `terminator = { zeros, what }`",
                )
            })?;
            let td = t.get_ref();
            let slots_ok = fields[0].group.is_none()
                && fields.iter().take(td.zeros).all(|f| f.shift == 0)
                && (td.zeros >= 1
                    && td.zeros <= fields.len()
                    && fields[..td.zeros].iter().all(|f| f.list.is_none())
                    || td.zeros == 1
                        && fields[0]
                            .list
                            .as_ref()
                            .is_some_and(|l| !l.tree && !l.adjacency && l.until.is_none()));
            if !slots_ok {
                return Err(ctx.err(
                    t.span(),
                    "input.terminator.zeros",
                    "the terminator is the first `zeros` numbers of a case all 0: the first \
                     `zeros` fields must be numbers numbered as written, without `base` (or \
                     zeros = 1 and the first field a list, whose length 0 ends)",
                ));
            }
            Layout::Terminator {
                zeros: td.zeros,
                what: leak(td.what.clone()),
            }
        }
        "eof" => Layout::Eof,
        "one" => Layout::One,
        other => {
            return Err(ctx.err(
                input.cases.span(),
                "input.cases",
                format!("cases is `count`, `terminator`, `eof` or `one`, found {other:?}"),
            ))
        }
    };
    let max_cases = match (&layout, &input.max_cases) {
        (Layout::One, Some(m)) if *m.get_ref() != 1 => {
            return Err(ctx.err(
                m.span(),
                "input.max_cases",
                "an input of `cases = \"one\"` holds exactly one case",
            ))
        }
        (Layout::One, _) => 1,
        (Layout::Count { num, .. }, None) => num.max.min(1 << 20) as usize,
        (_, Some(m)) if *m.get_ref() >= 1 => (*m.get_ref()).min(1 << 20) as usize,
        (_, Some(m)) => return Err(ctx.err(m.span(), "input.max_cases", "must be at least 1")),
        (_, None) => 1000,
    };

    // The output.
    let out = decl.output.get_ref();
    let ospan = decl.output.span();
    // With a group, `lines` print the case and `{positions}` the answers of its
    // positions, each from the `position` template.
    let case_names: &[&str] = if group.is_some() {
        &["case", "positions"]
    } else {
        &["case", "verdict", "count", "best", "moves", "any"]
    };
    let answer_names: &[&str] = &["case", "verdict", "count", "best", "moves"];
    let templates =
        |list: &Spanned<Vec<String>>, key: &str| -> Result<Vec<Template>, DeclarationError> {
            let mut lines = Vec::new();
            for l in list.get_ref() {
                let t = template(&ctx, list.span(), key, l, case_names)?;
                any_stands_apart(l).map_err(|m| ctx.err(list.span(), key, m))?;
                lines.push(t);
            }
            if lines.is_empty() {
                return Err(ctx.err(list.span(), key, "a case prints at least one line"));
            }
            Ok(lines)
        };
    let lines = templates(&out.lines, "output.lines")?;
    let lines_lose = match &out.lines_lose {
        None => None,
        Some(l) if group.is_some() => {
            return Err(ctx.err(
                l.span(),
                "output.lines_lose",
                "with a group every position has its own verdict: print it in `position`",
            ))
        }
        Some(l) => Some(templates(l, "output.lines_lose")?),
    };
    let position_template = match (&out.position, group) {
        (Some(p), Some(_)) => Some(template(
            &ctx,
            p.span(),
            "output.position",
            p.get_ref(),
            answer_names,
        )?),
        (None, Some(g)) => {
            return Err(ctx.err(
                ospan,
                "output.position",
                format!(
                    "the items of the group {:?} are positions: `position` says what each prints",
                    fields[g].name
                ),
            ))
        }
        (Some(p), None) => {
            return Err(ctx.err(
                p.span(),
                "output.position",
                "`position` prints each item of a group field; this problem has none",
            ))
        }
        (None, None) => None,
    };
    if group.is_some() && !lines.iter().any(|t| t.uses("positions")) {
        return Err(ctx.err(
            out.lines.span(),
            "output.lines",
            "the answers of the positions print where `{positions}` stands in `lines`",
        ));
    }
    if group.is_none() && out.position_separator.is_some() {
        return Err(ctx.err(
            ospan,
            "output.position_separator",
            "`position_separator` goes with a group field and `position`",
        ));
    }
    let all: Vec<&Template> = lines
        .iter()
        .chain(lines_lose.iter().flatten())
        .chain(position_template.iter())
        .collect();
    let uses = |name: &str| all.iter().any(|t| t.uses(name));
    if uses("verdict") && (out.win.is_none() || out.lose.is_none()) {
        return Err(ctx.err(
            ospan.clone(),
            "output.win",
            "`{verdict}` needs the words `win` and `lose`",
        ));
    }
    if uses("best") && out.none.is_none() {
        return Err(ctx.err(
            ospan.clone(),
            "output.none",
            "`{best}` needs `none`, printed when no move wins",
        ));
    }
    let mut move_names: Vec<&str> = vec!["move"];
    let plus: Vec<String> = game
        .move_fields()
        .iter()
        .map(|f| format!("{f}+1"))
        .collect();
    move_names.extend(game.move_fields().iter().copied());
    move_names.extend(plus.iter().map(String::as_str));
    let move_template = match &out.move_ {
        Some(m) => template(&ctx, m.span(), "output.move", m.get_ref(), &move_names)?,
        None => Template(vec![Part::Field("move".into())]),
    };
    let reverse = match out.order.as_ref().map(|o| (o.get_ref().as_str(), o.span())) {
        None | Some(("canonical", _)) => false,
        Some(("reverse", _)) => true,
        Some((other, s)) => {
            return Err(ctx.err(
                s,
                "output.order",
                format!("order is `canonical` or `reverse`, found {other:?}"),
            ))
        }
    };
    let output = Output {
        lines,
        win: out.win.clone().unwrap_or_default(),
        lose: out.lose.clone().unwrap_or_default(),
        move_template,
        move_fields: game.move_fields(),
        none: out.none.clone().unwrap_or_default(),
        no_moves: out.no_moves.clone().unwrap_or_default(),
        separator: out.separator.clone().unwrap_or_else(|| " ".into()),
        reverse,
        lines_lose,
        position: position_template,
        position_separator: out.position_separator.clone().unwrap_or_default(),
    };

    let describe = &decl.describe;
    let info = Info {
        id: leak(id.clone()),
        aliases: Box::leak(
            decl.aliases
                .iter()
                .map(|a| leak(a.clone()))
                .collect::<Vec<_>>()
                .into_boxed_slice(),
        ),
        game: game.id(),
        title: leak(decl.title.clone()),
        input: leak(
            describe
                .input
                .clone()
                .unwrap_or_else(|| describe_input(&layout, &fields)),
        ),
        output: leak(
            describe
                .output
                .clone()
                .unwrap_or_else(|| decl.output.get_ref().lines.get_ref().join(" / ")),
        ),
        limits: leak(
            describe
                .limits
                .clone()
                .unwrap_or_else(|| describe_limits(&layout, &fields)),
        ),
        source: leak(source.to_string()),
    };
    let mut declared = Declared::new(
        info, game, layout, max_cases, fields, rules, position, output,
    );
    // The samples read as inputs of the format (whether the answers agree is for
    // `verify` and `audit` to check: that runs the game).
    let mut samples = Vec::with_capacity(decl.sample.len());
    for (k, sample) in decl.sample.iter().enumerate() {
        let s = sample.get_ref();
        let name = s
            .name
            .clone()
            .unwrap_or_else(|| format!("sample {}", k + 1));
        if let Err(e) = super::Problem::parse(&declared, &s.input, false) {
            return Err(ctx.err(
                sample.span(),
                "sample",
                format!("{name}: its input does not read: {e}"),
            ));
        }
        samples.push(super::known::KnownCase {
            name,
            source: "the declaration's [[sample]]".into(),
            input: s.input.clone(),
            output: s.output.clone(),
        });
    }
    declared.set_samples(samples);
    // Outputs that print moves (`{best}`, `{count}`, `{moves}`) run the game's
    // winning-move analysis, whose cost some games bound only by the position's
    // numbers times its largest value: refuse limits it cannot answer in bounded time.
    if declared.needs_moves() && reach.max_moves_work < u64::MAX {
        for &i in &declared.position_fields() {
            let f = &declared.fields_spec()[i];
            let len = f.list.as_ref().map_or(1, |l| l.len.lenient_max.max(1));
            let work = len.saturating_mul(f.bounds.lenient_max);
            if work > reach.max_moves_work {
                return Err(ctx.err(
                    decl.output.span(),
                    &format!("field.{}.lenient_max", f.name),
                    format!(
                        "an output printing moves makes the {} solver enumerate splits: \
                         its numbers times the largest value ({} x {}, --lenient included) \
                         must stay within {}; lower lenient_max (and length.lenient_max) \
                         or print only the verdict",
                        game.id(),
                        len,
                        f.bounds.lenient_max,
                        reach.max_moves_work
                    ),
                ));
            }
        }
    }
    Ok(declared)
}

fn describe_input(layout: &Layout, fields: &[Field]) -> String {
    let case: Vec<String> = fields
        .iter()
        .map(|f| match (&f.group, &f.list) {
            (Some(g), _) if g.until.is_some() => format!(
                "lines each of a count and that many {}, until a line {}",
                f.name,
                g.until.unwrap_or(0)
            ),
            (Some(_), _) => format!(
                "a count, then that many lines each of a count and that many {}",
                f.name
            ),
            (None, Some(l)) if l.tree => format!(
                "{}: n, then n - 1 lines `u v` (a tree on vertices 1..n)",
                f.name
            ),
            (None, Some(l)) if l.adjacency => format!(
                "{}: a line per vertex v, `k w1 .. wk` (the successors of v)",
                f.name
            ),
            (None, Some(l)) if l.until.is_some() => {
                format!("{} until a {}", f.name, l.until.unwrap_or(0))
            }
            (None, Some(_)) => format!("a count, then that many {}", f.name),
            (None, None) => f.name.to_string(),
        })
        .collect();
    let case = case.join("; ");
    match layout {
        Layout::Count { what, .. } => format!("{what}; then per case: {case}"),
        Layout::Terminator { what, .. } => format!("cases ({case}) until {what}"),
        Layout::Eof => format!("cases ({case}) until end of input"),
        Layout::One => format!("one case: {case}"),
    }
}

fn describe_limits(layout: &Layout, fields: &[Field]) -> String {
    let mut parts = Vec::new();
    if let Layout::Count { num, .. } = layout {
        parts.push(format!("{} <= cases <= {}", num.min, num.max));
    }
    for f in fields {
        if let Some(l) = f.list.as_ref().filter(|l| l.tree) {
            parts.push(format!(
                "{} <= vertices of {} <= {}",
                l.len.min, f.name, l.len.max
            ));
            continue;
        }
        if let Some(g) = &f.group {
            parts.push(format!(
                "{} <= items of {} <= {}",
                g.count.min, f.name, g.count.max
            ));
        }
        if let Some(l) = &f.list {
            parts.push(format!(
                "{} <= length of {} <= {}",
                l.len.min, f.name, l.len.max
            ));
        }
        match f.list.as_ref().filter(|l| !l.column_bounds.is_empty()) {
            Some(l) => {
                for (b, c) in l.column_bounds.iter().zip(&l.columns) {
                    parts.push(format!("{} <= {} {c} <= {}", b.min, f.name, b.max));
                }
            }
            // As written: vertices numbered from 0 one lower than held.
            None => parts.push(format!(
                "{} <= {} <= {}",
                f.bounds.min.saturating_sub(f.shift),
                f.name,
                f.bounds.max.saturating_sub(f.shift)
            )),
        }
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_at_names_table_and_key() {
        let text = "format = 1\n[output]\nlines = [\"{x}\"]\nwin = 3\n";
        assert_eq!(key_at(text, text.find("win").unwrap()), "output.win");
        assert_eq!(key_at(text, 0), "format");
        assert_eq!(line_of(text, text.find("win").unwrap()), 4);
    }
}

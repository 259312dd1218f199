//! Problem packages in the ICPC problem package format (version 2025-09), as
//! BAPCtools, Kattis problemtools and DOMjudge read them.
//!
//! - [`export`]: writes a package from a declared problem: `problem.yaml`, the samples,
//!   test groups of generated inputs with their answers from the fast solver
//!   (cross-checked with the oracle where it reaches), a standalone input validator
//!   ([`validator`]) and the malformed inputs it must reject.
//! - [`audit`]: audits every submission of a package against sgcheck's answers.
//!
//! The package remembers where it comes from in `sgcheck/problem.toml` (the
//! declaration) and `sgcheck/export.toml` (problem id and seed), so a package audit
//! finds its problem without being told.

pub mod audit;
pub mod export;
pub mod output_validator;
pub use crate::problems::known as samples;
pub mod validator;

use crate::problems::{self, Declared, Problem};
use anyhow::{anyhow, bail, Context};
use serde::Serialize;
use std::path::Path;

/// The format version written into `problem.yaml`.
pub const FORMAT_VERSION: &str = "2025-09";

/// A declared problem with the text of its declaration.
pub struct Source {
    /// The problem.
    pub problem: Declared,
    /// The declaration's TOML text.
    pub text: String,
    /// Where it comes from (`built-in corpus/problems/<id>.toml`, or the file).
    pub origin: String,
    /// The built-in id, when it is one.
    pub builtin: Option<String>,
}

/// Most bytes of a declaration read (as `--problem` reads it).
const MAX_DECLARATION: u64 = 4 << 20;

impl Source {
    /// The built-in problem `id`, or the declaration in `file`.
    pub fn choose(id: Option<&str>, file: Option<&Path>) -> anyhow::Result<Source> {
        let problem = crate::cli::solve::choose(id, file)?;
        match (id, file) {
            (Some(_), None) => {
                let canonical = problem.info().id;
                let text = problems::BUILTIN
                    .iter()
                    .find(|(b, _)| *b == canonical)
                    .map(|(_, t)| t.to_string())
                    .ok_or_else(|| anyhow!("{canonical}: no built-in declaration"))?;
                Ok(Source {
                    origin: format!("built-in corpus/problems/{canonical}.toml"),
                    builtin: Some(canonical.to_string()),
                    problem,
                    text,
                })
            }
            (None, Some(path)) => Ok(Source {
                text: read_bounded_text(path)?,
                origin: path.display().to_string(),
                builtin: None,
                problem,
            }),
            _ => bail!("give a problem id or --problem FILE"),
        }
    }

    /// A declaration from its text (the copy a package holds).
    pub fn from_text(text: String, origin: &str) -> anyhow::Result<Source> {
        let problem = Declared::from_toml(&text, origin).map_err(|e| anyhow!("{e}"))?;
        let id = problem.info().id;
        let builtin = problems::BUILTIN
            .iter()
            .find(|(b, t)| *b == id && *t == text)
            .map(|(b, _)| b.to_string());
        Ok(Source {
            problem,
            text,
            origin: origin.to_string(),
            builtin,
        })
    }
}

/// Reads a small text file (at most 4 MiB), naming it in errors.
pub fn read_bounded_text(path: &Path) -> anyhow::Result<String> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_DECLARATION + 1).read_to_end(&mut bytes))
        .with_context(|| format!("reading {}", path.display()))?;
    if bytes.len() as u64 > MAX_DECLARATION {
        bail!("{}: longer than 4 MiB", path.display());
    }
    String::from_utf8(bytes).map_err(|_| anyhow!("{}: not UTF-8", path.display()))
}

/// One field of a case, as the validator reads it.
#[derive(Clone, Debug, Serialize)]
pub struct FieldSpec {
    /// The field's name.
    pub name: String,
    /// `number`, `list`, `tree` or `group`.
    pub kind: &'static str,
    /// Bounds of each value (list items, the number).
    pub min: u64,
    /// Upper bound of each value.
    pub max: u64,
    /// A list's (a group item's) length bounds; a tree's vertex count.
    pub len_min: u64,
    /// Upper length bound.
    pub len_max: u64,
    /// Lengths are multiples of this.
    pub step: u64,
    /// Values of a list must differ.
    pub distinct: bool,
    /// The length and the values on one line.
    pub inline: bool,
    /// A group's item count bounds.
    pub group_min: u64,
    /// Upper bound of a group's item count.
    pub group_max: u64,
    /// Index of a number field this one may not be below.
    pub at_least: Option<usize>,
    /// Numbers per item of a list (a record's columns, 2 for a graph's edges); the
    /// length bounds count values.
    pub record: u64,
    /// Index of the number field that holds a list's length in items (written where
    /// that field is, not before the values).
    pub len_from: Option<usize>,
    /// Index of the number field that holds a graph's vertex count.
    pub graph: Option<usize>,
    /// Index of the number field whose value bounds this one's values from above.
    pub max_from: Option<usize>,
    /// A graph written as adjacency lists: a line `k w1 .. wk` per vertex (the
    /// successors distinct); `len_max` bounds the edges' ends in all (2 per edge).
    pub adjacency: bool,
    /// Per column of a record, the bounds of its values (empty: `min` and `max` for
    /// every value).
    pub column_min: Vec<u64>,
    /// Upper bounds per column.
    pub column_max: Vec<u64>,
    /// The value that ends a list written without its length (`length.until`).
    pub until: Option<u64>,
    /// The value that ends a group written without its count (`group.until`), where
    /// an item's length would stand.
    pub group_until: Option<u64>,
    /// How much lower the values are written than the bounds hold them: 1 for
    /// vertices numbered from 0 (`base = 0`), 0 otherwise.
    pub shift: u64,
    /// Relations every item of a record satisfies: `[left, op, right, text]`, each
    /// side `{"column": i}` or `{"value": n}`.
    pub require: Vec<(serde_json::Value, &'static str, serde_json::Value, String)>,
}

/// One side of a record's relation, as the validator reads it.
fn side(o: crate::problems::declaration::RequireOperand) -> serde_json::Value {
    match o {
        crate::problems::declaration::RequireOperand::Column(c) => {
            serde_json::json!({ "column": c })
        }
        crate::problems::declaration::RequireOperand::Value(v) => serde_json::json!({ "value": v }),
    }
}

/// A rules parameter: a field's value per case, or a constant.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Param {
    /// The value of field number `k`.
    Field(usize),
    /// A number.
    Number(u64),
    /// A list.
    List(Vec<u64>),
    /// A name the game knows (`fibonacci`).
    Name(String),
}

/// What a validator needs of a declaration: the layout, the fields with their bounds
/// and constraints, the position and the rules' parameters.
#[derive(Clone, Debug, Serialize)]
pub struct Spec {
    /// Problem id.
    pub id: String,
    /// Game id.
    pub game: String,
    /// `count`, `terminator`, `eof` or `one`.
    pub layout: &'static str,
    /// Bounds of the case count (`count`).
    pub count_min: u64,
    /// Upper bound of the case count.
    pub count_max: u64,
    /// Numbers of the terminator line (`terminator`).
    pub zeros: usize,
    /// The fields in input order.
    pub fields: Vec<FieldSpec>,
    /// The fields whose values make the position.
    pub position: Vec<usize>,
    /// The group field whose items are the positions, if any.
    pub group: Option<usize>,
    /// The rules' parameters by name.
    pub rules: std::collections::BTreeMap<String, Param>,
    /// Game limits the validator checks (from the games' own checks).
    pub limits: GameLimits,
    /// The answer's shape, when every case prints the same lines of `{case}` and
    /// `{verdict}` only (the answer validator checks each line); `None` otherwise.
    pub answer: Option<AnswerSpec>,
    /// The answer's shape when it prints sets of moves (`{any}`), in the form the
    /// package's answer files hold them (see [`output_validator`]); `None` otherwise.
    pub sets: Option<SetsSpec>,
}

/// The lines of one case's answer when a winning case prints any winning move
/// (`{any}`): the answer validator checks each case's lines against the lose lines or
/// the win lines, a set written as one move or as its block (`@any K` and K moves),
/// each move of the form of the move template.
#[derive(Clone, Debug, Serialize)]
pub struct SetsSpec {
    /// The line templates of a won case: `{case}`, `{verdict}` and `{any}`.
    pub win_lines: Vec<String>,
    /// The line templates of a lost case: `{case}` and `{verdict}`.
    pub lose_lines: Vec<String>,
    /// The words of `{verdict}`.
    pub win: String,
    /// The words of `{verdict}` for a lost position.
    pub lose: String,
    /// The move template (`{pile+1} {left}`): its placeholders are numbers.
    pub member: String,
}

/// The lines of one case's answer: templates of `{case}` and `{verdict}`.
#[derive(Clone, Debug, Serialize)]
pub struct AnswerSpec {
    /// The line templates, as declared.
    pub lines: Vec<String>,
    /// The words of `{verdict}`.
    pub win: String,
    /// The words of `{verdict}` for a lost position.
    pub lose: String,
}

/// The games' own bounds, as constants of this build.
#[derive(Clone, Debug, Serialize)]
pub struct GameLimits {
    /// Largest pile of the Fibonacci subtraction game.
    pub fibonacci_max_pile: u64,
    /// Largest pile of Following Nim.
    pub following_nim_max_pile: u64,
    /// Largest m of the paint chain.
    pub paint_chain_max_m: u64,
    /// Largest bid of the auction.
    pub auction_max_bid: u64,
    /// Most vertices of Hackenbush on a tree.
    pub hackenbush_max_vertices: u64,
}

impl Spec {
    /// The spec of a declaration.
    pub fn of(src: &Source) -> anyhow::Result<Spec> {
        let p = &src.problem;
        let value: toml::Value = toml::from_str(&src.text).context("reading the declaration")?;
        let input = value
            .get("input")
            .ok_or_else(|| anyhow!("the declaration has no [input]"))?;
        let cases = input.get("cases").and_then(|v| v.as_str()).unwrap_or("");
        let num = |v: Option<&toml::Value>, key: &str, default: u64| -> u64 {
            v.and_then(|t| t.get(key))
                .and_then(|x| x.as_integer())
                .map_or(default, |x| x.max(0) as u64)
        };
        let (layout, count_min, count_max, zeros) = match cases {
            "count" => {
                let c = input.get("count");
                ("count", num(c, "min", 0), num(c, "max", u64::MAX), 0)
            }
            "terminator" => {
                let t = input.get("terminator");
                ("terminator", 0, 0, num(t, "zeros", 1) as usize)
            }
            "eof" => ("eof", 0, 0, 0),
            "one" => ("one", 0, 0, 0),
            other => bail!("unknown input layout {other:?}"),
        };
        let names: Vec<&str> = p.field_names();
        let fields: Vec<FieldSpec> = p
            .fields_spec()
            .iter()
            .map(|f| {
                let (kind, len_min, len_max, step, distinct, inline) = match &f.list {
                    None => ("number", 1, 1, 1, false, false),
                    Some(l) => (
                        if l.tree {
                            "tree"
                        } else if f.group.is_some() {
                            "group"
                        } else {
                            "list"
                        },
                        l.len.min,
                        l.len.max,
                        l.step.max(1),
                        l.distinct,
                        l.inline,
                    ),
                };
                let (group_min, group_max) = f
                    .group
                    .as_ref()
                    .map_or((0, 0), |g| (g.count.min, g.count.max));
                FieldSpec {
                    name: f.name.to_string(),
                    kind,
                    min: f.bounds.min,
                    max: f.bounds.max,
                    len_min,
                    len_max,
                    step,
                    distinct,
                    inline,
                    group_min,
                    group_max,
                    at_least: f.at_least,
                    record: f.list.as_ref().map_or(1, |l| l.record.max(1)),
                    len_from: f.list.as_ref().and_then(|l| l.len_from),
                    graph: f.list.as_ref().and_then(|l| l.graph),
                    max_from: f.max_from,
                    adjacency: f.list.as_ref().is_some_and(|l| l.adjacency),
                    column_min: f
                        .list
                        .iter()
                        .flat_map(|l| l.column_bounds.iter().map(|b| b.min))
                        .collect(),
                    column_max: f
                        .list
                        .iter()
                        .flat_map(|l| l.column_bounds.iter().map(|b| b.max))
                        .collect(),
                    until: f.list.as_ref().and_then(|l| l.until),
                    group_until: f.group.as_ref().and_then(|g| g.until),
                    shift: f.shift,
                    require: f
                        .list
                        .iter()
                        .flat_map(|l| l.require.iter())
                        .map(|r| (side(r.left), r.op.symbol(), side(r.right), r.text.clone()))
                        .collect(),
                }
            })
            .collect();
        let mut rules = std::collections::BTreeMap::new();
        if let Some(t) = value.get("rules").and_then(|r| r.as_table()) {
            for (k, v) in t {
                let param = match v {
                    toml::Value::String(s) => match names.iter().position(|n| n == s) {
                        Some(i) => Param::Field(i),
                        None => Param::Name(s.clone()),
                    },
                    toml::Value::Integer(i) => Param::Number((*i).max(0) as u64),
                    toml::Value::Array(a) => Param::List(
                        a.iter()
                            .map(|x| x.as_integer().unwrap_or(0).max(0) as u64)
                            .collect(),
                    ),
                    other => bail!("rules.{k}: unexpected {other}"),
                };
                rules.insert(k.clone(), param);
            }
        }
        let group = fields.iter().position(|f| f.kind == "group");
        let answer = value.get("output").and_then(|o| {
            let lines: Vec<String> = o
                .get("lines")?
                .as_array()?
                .iter()
                .map(|l| l.as_str().map(str::to_string))
                .collect::<Option<_>>()?;
            let only_simple = lines.iter().all(|l| {
                let rest = l.replace("{case}", "").replace("{verdict}", "");
                !rest.contains('{') && !rest.contains('}')
            });
            let word =
                |k: &str, d: &str| o.get(k).and_then(|v| v.as_str()).unwrap_or(d).to_string();
            (only_simple && o.get("lines_lose").is_none() && o.get("position").is_none()).then(
                || AnswerSpec {
                    lines,
                    win: word("win", ""),
                    lose: word("lose", ""),
                },
            )
        });
        let sets = value.get("output").and_then(|o| {
            let strings = |k: &str| -> Option<Vec<String>> {
                o.get(k)?
                    .as_array()?
                    .iter()
                    .map(|l| l.as_str().map(str::to_string))
                    .collect()
            };
            let (win_lines, lose_lines) = (strings("lines")?, strings("lines_lose")?);
            let only = |l: &String, allowed: &[&str]| {
                let rest = allowed.iter().fold(l.clone(), |r, a| r.replace(a, ""));
                !rest.contains('{') && !rest.contains('}')
            };
            let word =
                |k: &str, d: &str| o.get(k).and_then(|v| v.as_str()).unwrap_or(d).to_string();
            (p.answers_are_sets()
                && o.get("position").is_none()
                && win_lines
                    .iter()
                    .all(|l| only(l, &["{case}", "{verdict}", "{any}"]))
                && lose_lines.iter().all(|l| only(l, &["{case}", "{verdict}"])))
            .then(|| SetsSpec {
                win_lines,
                lose_lines,
                win: word("win", ""),
                lose: word("lose", ""),
                member: word("move", ""),
            })
            .filter(|s| !s.member.is_empty())
        });
        use crate::games::{auction, following_nim, hackenbush_tree, subtraction};
        Ok(Spec {
            id: p.info().id.to_string(),
            game: p.game().id().to_string(),
            layout,
            count_min,
            count_max,
            zeros,
            fields,
            position: p.position_fields(),
            group,
            rules,
            answer,
            sets,
            limits: GameLimits {
                fibonacci_max_pile: subtraction::FIBONACCI_MAX_PILE,
                following_nim_max_pile: following_nim::FOLLOWING_NIM_MAX_PILE,
                paint_chain_max_m: sgcheck_oracles::games::octal::MAX_DIGITS as u64,
                auction_max_bid: auction::AUCTION_MAX_BID,
                hackenbush_max_vertices: hackenbush_tree::HACKENBUSH_MAX_VERTICES,
            },
        })
    }
}

impl Source {
    /// The problem's id.
    pub fn problem_id(&self) -> &'static str {
        self.problem.info().id
    }
}

//! The `[game]` table of a format-2 declaration: a heap game sgcheck does not ship,
//! declared by its rules. It becomes the declarable game `heap-code`
//! ([`crate::games::heap_code`]) with its parameters filled in:
//!
//! | key | meaning |
//! |---|---|
//! | `code` | a take-and-break code, octal or hexadecimal: `"0.77"`, `"0.137"`, `"4.[3]"` (a bracketed last digit repeats forever), `"0.F"` |
//! | `subtract` | a subtraction set: `[1, 3, 4]`, `"powers-of-two"`, `"fibonacci"`, or the name of a list field (a set per case) |
//! | `range` | `[p, q]`: remove p to q tokens; each a number, the name of a number field, or a column of the record field in `position` (`"limit"`, or `"piles.limit"`): every heap its own bound (the game `heap-ranges`, [`crate::games::heap_ranges`]) |
//! | `heap` | with a range bound from a record column: the column that is the heap size, when more than one column is not a bound |
//! | `split_unequal` | `true`: split a heap into two unequal heaps (Grundy's game) |
//! | `play` | `"normal"` (default: who cannot move loses) or `"misere"` (who cannot move wins) |
//! | `script` | the rules as a script: `moves(state)`, maybe `value(state)` and `position(numbers)`; the game `scripted` ([`crate::games::scripted`]) |
//! | `check_states` | with `script`: `[[lowest state], [highest state]]`, a box of states computed when the declaration is read (the mex table, and `value` checked on each); needed with `value` |
//! | `moves` | the rules as templates of the move language ([`crate::games::scripted::lang`]), with `state`: also the game `scripted`, no script function called |
//! | `state` | with `moves`: the names of a component's integers (`["w", "h"]`) |
//!
//! Exactly one of `code`, `subtract`, `range`, `split_unequal`, `script`, `moves`.

use super::declaration::{toml_error, Ctx, DeclarationError, RulesEntry};
use crate::games::declared::{DeclarableGame, Declared};
use crate::games::heap_code::{HeapCodeGame, MAX_DIGITS, MAX_SET};
use crate::games::heap_ranges::HeapRangesGame;
use crate::games::scripted::ScriptedGame;
use serde::Deserialize;
use toml::Spanned;

#[derive(Deserialize)]
struct Probe {
    game: Spanned<GameTable>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameTable {
    code: Option<Spanned<String>>,
    subtract: Option<Spanned<toml::Value>>,
    range: Option<Spanned<Vec<toml::Value>>>,
    split_unequal: Option<Spanned<bool>>,
    play: Option<Spanned<String>>,
    script: Option<Spanned<String>>,
    moves: Option<Spanned<Vec<String>>>,
    state: Option<Spanned<Vec<String>>>,
    check_states: Option<Spanned<Vec<Vec<i64>>>>,
    heap: Option<Spanned<String>>,
}

/// A `[game]` table read: the game, its parameters, and the place rules errors name.
pub(crate) struct TableGame {
    pub(crate) game: &'static dyn DeclarableGame,
    pub(crate) entries: Vec<RulesEntry>,
    pub(crate) rules_at: (std::ops::Range<usize>, String),
}

fn entry(name: &str, key: &str, span: std::ops::Range<usize>, value: toml::Value) -> RulesEntry {
    RulesEntry {
        name: name.into(),
        key: key.into(),
        span,
        value,
        literal: false,
    }
}

/// Reads the `[game]` table of `text` (a declaration whose `game` is a table).
pub(crate) fn read(text: &str, source: &str) -> Result<TableGame, DeclarationError> {
    let ctx = Ctx { text, source };
    let probe: Probe = toml::from_str(text).map_err(|e| toml_error(text, source, &e))?;
    let gspan = probe.game.span();
    let g = probe.game.into_inner();
    let mut kinds: Vec<(&str, std::ops::Range<usize>)> = Vec::new();
    if let Some(c) = &g.code {
        kinds.push(("game.code", c.span()));
    }
    if let Some(s) = &g.subtract {
        kinds.push(("game.subtract", s.span()));
    }
    if let Some(r) = &g.range {
        kinds.push(("game.range", r.span()));
    }
    if let Some(u) = &g.split_unequal {
        kinds.push(("game.split_unequal", u.span()));
    }
    if let Some(u) = &g.script {
        kinds.push(("game.script", u.span()));
    }
    if let Some(u) = &g.moves {
        kinds.push(("game.moves", u.span()));
    }
    match kinds.len() {
        0 => {
            return Err(ctx.err(
                gspan,
                "game",
                "the [game] table declares the moves: one of `code`, `subtract`, `range`, \
                 `split_unequal`, `script`, `moves`",
            ))
        }
        1 => {}
        _ => {
            return Err(ctx.err(
                kinds[1].1.clone(),
                kinds[1].0,
                format!(
                    "the [game] table declares one kind of moves; `{}` is declared already",
                    kinds[0].0
                ),
            ))
        }
    }
    let misere = match g.play.as_ref().map(|p| (p.get_ref().as_str(), p.span())) {
        None | Some(("normal", _)) => "",
        Some(("misere", _)) | Some(("misère", _)) => " misere",
        Some((other, s)) => {
            return Err(ctx.err(
                s,
                "game.play",
                format!("play is `normal` or `misere`, found {other:?}"),
            ))
        }
    };
    let (key, span) = kinds[0].clone();
    if let Some(c) = &g.check_states {
        if g.script.is_none() {
            return Err(ctx.err(
                c.span(),
                "game.check_states",
                "check_states goes with a script: it is the box of states checked when \
                 the declaration is read",
            ));
        }
    }
    if let Some(st) = &g.state {
        if g.moves.is_none() {
            return Err(ctx.err(
                st.span(),
                "game.state",
                "state names the integers of a component for `moves` (the move language)",
            ));
        }
    }
    if let Some(sc) = g.script {
        let span = sc.span();
        return script(
            &ctx,
            span,
            "game.script",
            sc.into_inner(),
            g.check_states,
            misere,
        );
    }
    if let Some(m) = g.moves {
        let span = m.span();
        let Some(st) = g.state else {
            return Err(ctx.err(
                span,
                "game.moves",
                "moves needs `state`, the names of a component's integers (state = [\"n\"])",
            ));
        };
        let names = st.into_inner();
        let templates = m.into_inner();
        if let Err(e) = crate::games::scripted::lang::MoveRules::compile(&names, &templates) {
            return Err(ctx.err(span, "game.moves", e));
        }
        let text = crate::games::scripted::lang::MoveRules::text(&names, &templates);
        return script(&ctx, span, "game.moves", text, None, misere);
    }
    if let Some(r) = &g.range {
        if let Some(t) = per_heap(&ctx, r.get_ref(), r.span(), g.heap.as_ref(), misere)? {
            return Ok(t);
        }
    }
    if let Some(h) = &g.heap {
        return Err(ctx.err(
            h.span(),
            "game.heap",
            "`heap` names the heap column of a record when a bound of `range` is another \
             column of it (range = [1, \"limit\"])",
        ));
    }
    let rules = |t: String| RulesEntry {
        name: "rules".into(),
        key: key.into(),
        span: span.clone(),
        value: toml::Value::String(t),
        literal: true,
    };
    let empty = toml::Value::Array(Vec::new());
    let zero = toml::Value::Integer(0);
    let mut entries = Vec::new();
    if let Some(c) = g.code {
        let code = c.get_ref();
        if code.len() > MAX_DIGITS + 4 {
            return Err(ctx.err(
                span,
                key,
                format!(
                    "the code has {} characters; a code has at most {MAX_DIGITS} digits",
                    code.len()
                ),
            ));
        }
        if let Some(bad) = code
            .chars()
            .find(|c| !(c.is_ascii_hexdigit() || matches!(c, '.' | '[' | ']')))
        {
            return Err(ctx.err(
                span,
                key,
                format!(
                    "{bad:?} cannot be in a code: a code is d0.d1d2... of digits 0..9 and A..F, \
                     the last one maybe in brackets (`4.[3]`); misère play is `play = \"misere\"`"
                ),
            ));
        }
        entries.push(rules(format!("{code}{misere}")));
        entries.push(entry("set", key, span.clone(), empty.clone()));
        entries.push(entry("p", key, span.clone(), zero.clone()));
        entries.push(entry("q", key, span.clone(), zero));
    } else if let Some(s) = g.subtract {
        match s.get_ref() {
            toml::Value::String(n) if n == "powers-of-two" || n == "fibonacci" => {
                entries.push(rules(format!("subtract {n}{misere}")));
                entries.push(entry("set", key, span.clone(), empty));
            }
            toml::Value::Array(a) => {
                if a.is_empty() || a.len() > MAX_SET {
                    return Err(ctx.err(
                        span,
                        key,
                        format!("a subtraction set has 1 to {MAX_SET} amounts"),
                    ));
                }
                if a.iter()
                    .any(|x| !matches!(x.as_integer(), Some(n) if n >= 1))
                {
                    return Err(ctx.err(span, key, "every amount is an integer, at least 1"));
                }
                entries.push(rules(format!("subtract{misere}")));
                entries.push(entry("set", key, span.clone(), s.into_inner()));
            }
            toml::Value::String(_) => {
                // A list field's name (checked when the parameters are resolved).
                entries.push(rules(format!("subtract{misere}")));
                entries.push(entry("set", key, span.clone(), s.into_inner()));
            }
            _ => {
                return Err(ctx.err(
                    span,
                    key,
                    "subtract is a list of amounts, `powers-of-two`, `fibonacci` or the name \
                     of a list field",
                ))
            }
        }
        entries.push(entry("p", key, span.clone(), zero.clone()));
        entries.push(entry("q", key, span.clone(), zero));
    } else if let Some(r) = g.range {
        let v = r.into_inner();
        let ok = |x: &toml::Value| {
            matches!(x, toml::Value::String(_)) || matches!(x.as_integer(), Some(n) if n >= 0)
        };
        if v.len() != 2 || !v.iter().all(ok) {
            return Err(ctx.err(
                span,
                key,
                "range is [p, q], each a number or the name of a number field",
            ));
        }
        entries.push(rules(format!("range{misere}")));
        entries.push(entry("set", key, span.clone(), empty));
        entries.push(entry("p", key, span.clone(), v[0].clone()));
        entries.push(entry("q", key, span.clone(), v[1].clone()));
    } else if let Some(u) = g.split_unequal {
        if !*u.get_ref() {
            return Err(ctx.err(
                span,
                key,
                "split_unequal = true declares Grundy's game; leave it out otherwise",
            ));
        }
        entries.push(rules(format!("split-unequal{misere}")));
        entries.push(entry("set", key, span.clone(), empty));
        entries.push(entry("p", key, span.clone(), zero.clone()));
        entries.push(entry("q", key, span.clone(), zero));
    }
    Ok(TableGame {
        game: Declared::<HeapCodeGame>::GAME,
        entries,
        rules_at: (span, key.to_string()),
    })
}

/// A `[game]` table with a script: the game `scripted`, its text, play and checked box.
fn script(
    ctx: &Ctx<'_>,
    span: std::ops::Range<usize>,
    key: &str,
    text: String,
    check: Option<Spanned<Vec<Vec<i64>>>>,
    misere: &str,
) -> Result<TableGame, DeclarationError> {
    let literal = |name: &str, v: String| RulesEntry {
        name: name.into(),
        key: key.into(),
        span: span.clone(),
        value: toml::Value::String(v),
        literal: true,
    };
    let mut entries = vec![
        literal("script", text),
        literal(
            "play",
            if misere.is_empty() {
                "normal"
            } else {
                "misere"
            }
            .into(),
        ),
    ];
    let (lo, hi) = match check {
        None => (Vec::new(), Vec::new()),
        Some(c) => {
            let cs = c.span();
            let v = c.into_inner();
            let ok = v.len() == 2
                && !v[0].is_empty()
                && v[0].len() == v[1].len()
                && v.iter().flatten().all(|&x| x >= 0);
            if !ok {
                return Err(ctx.err(
                    cs,
                    "game.check_states",
                    "check_states is [[lowest state], [highest state]]: two states of the \
                     same length, integers at least 0",
                ));
            }
            (v[0].clone(), v[1].clone())
        }
    };
    let list = |v: Vec<i64>| toml::Value::Array(v.into_iter().map(toml::Value::Integer).collect());
    entries.push(entry("check_from", key, span.clone(), list(lo)));
    entries.push(entry("check_to", key, span.clone(), list(hi)));
    Ok(TableGame {
        game: Declared::<ScriptedGame>::GAME,
        entries,
        rules_at: (span, key.to_string()),
    })
}

/// A field of the declaration as the `[game]` table needs to know it: its name, its
/// record's columns, its least value, and whether it is in `position`.
struct FieldInfo {
    name: String,
    columns: Vec<String>,
    min: Option<i64>,
    in_position: bool,
}

/// The fields of `text`, read leniently (the declaration's own reader reports every
/// mistake in them; here a field it would refuse is simply not found).
fn fields_of(text: &str) -> Vec<FieldInfo> {
    let Ok(toml::Value::Table(t)) = text.parse::<toml::Value>() else {
        return Vec::new();
    };
    let position: Vec<&str> = t
        .get("position")
        .and_then(|p| p.as_array())
        .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default();
    let Some(fields) = t.get("field").and_then(|f| f.as_array()) else {
        return Vec::new();
    };
    fields
        .iter()
        .filter_map(|f| {
            let name = f.get("name")?.as_str()?.to_string();
            let columns = f
                .get("record")
                .and_then(|r| r.as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|c| c.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            Some(FieldInfo {
                in_position: position.contains(&name.as_str()),
                min: f.get("min").and_then(|m| m.as_integer()),
                name,
                columns,
            })
        })
        .collect()
}

/// Whether `s` may stand in the rules text of `heap-ranges` as a column name.
fn is_word(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
}

/// One bound of a range: a number or number field (the parameter, as before), or a
/// column of a record field.
enum RangeBound {
    Param(toml::Value),
    Column { field: usize, column: usize },
}

/// `range = [p, q]` with a bound from a record column: the game `heap-ranges`, each
/// heap a record of that field with its own bounds; `None` when no bound is a column.
fn per_heap(
    ctx: &Ctx<'_>,
    v: &[toml::Value],
    span: std::ops::Range<usize>,
    heap: Option<&Spanned<String>>,
    misere: &str,
) -> Result<Option<TableGame>, DeclarationError> {
    let key = "game.range";
    if v.len() != 2 || !v.iter().any(|x| x.is_str()) {
        return Ok(None);
    }
    let fields = fields_of(ctx.text);
    let err = |m: String| ctx.err(span.clone(), key, m);
    let mut bounds = Vec::new();
    for x in v {
        let Some(s) = x.as_str() else {
            bounds.push(RangeBound::Param(x.clone()));
            continue;
        };
        let col_of = |f: &FieldInfo, c: &str| f.columns.iter().position(|x| x == c);
        if let Some((f, c)) = s.split_once('.') {
            let Some(fi) = fields.iter().position(|x| x.name == f) else {
                return Err(err(format!("{s:?}: there is no field {f:?}")));
            };
            let Some(ci) = col_of(&fields[fi], c) else {
                return Err(err(format!(
                    "{s:?}: field {f:?} has no column {c:?}{}",
                    match fields[fi].columns.is_empty() {
                        true => " (it is not a record)".to_string(),
                        false => format!(" (its columns: {})", fields[fi].columns.join(", ")),
                    }
                )));
            };
            bounds.push(RangeBound::Column {
                field: fi,
                column: ci,
            });
            continue;
        }
        let field = fields.iter().any(|f| f.name == s);
        let hits: Vec<usize> = (0..fields.len())
            .filter(|&i| fields[i].in_position && col_of(&fields[i], s).is_some())
            .collect();
        let others: Vec<&str> = fields
            .iter()
            .filter(|f| !f.in_position && col_of(f, s).is_some())
            .map(|f| f.name.as_str())
            .collect();
        match (&hits[..], field) {
            ([f], true) => {
                return Err(err(format!(
                    "{s:?} names both a field and a column of {:?}: write \"{}.{s}\" for \
                     the column",
                    fields[*f].name, fields[*f].name
                )))
            }
            ([f], false) => bounds.push(RangeBound::Column {
                field: *f,
                column: col_of(&fields[*f], s).unwrap_or(0),
            }),
            ([a, b, ..], _) => {
                return Err(err(format!(
                    "{s:?} is a column of {:?} and of {:?}: write \"{}.{s}\" or \"{}.{s}\"",
                    fields[*a].name, fields[*b].name, fields[*a].name, fields[*b].name
                )))
            }
            ([], true) => bounds.push(RangeBound::Param(x.clone())),
            ([], false) => {
                return Err(err(match others.first() {
                    Some(f) => format!(
                        "{s:?} is a column of {f:?}, which is not in `position`: a heap's \
                         own bound is a column of the record field that holds the heaps"
                    ),
                    None => format!(
                        "no number field and no column of a record in `position` is named \
                         {s:?}"
                    ),
                }))
            }
        }
    }
    let columns: Vec<(usize, usize)> = bounds
        .iter()
        .filter_map(|b| match b {
            RangeBound::Column { field, column } => Some((*field, *column)),
            RangeBound::Param(_) => None,
        })
        .collect();
    let Some(&(fi, _)) = columns.first() else {
        return Ok(None);
    };
    let f = &fields[fi];
    if columns.iter().any(|&(g, _)| g != fi) {
        return Err(err(
            "both bounds of a range from columns come from the same record field".into(),
        ));
    }
    if !f.in_position {
        return Err(err(format!(
            "{:?} is not in `position`: a heap's own bound is a column of the record \
             field that holds the heaps",
            f.name
        )));
    }
    if fields.iter().filter(|g| g.in_position).count() != 1 {
        return Err(err(format!(
            "with a bound from a column of {:?}, that record field is the whole position: \
             name it alone in `position`",
            f.name
        )));
    }
    if let Some(bad) = f.columns.iter().find(|c| !is_word(c)) {
        return Err(err(format!(
            "column {bad:?} of {:?} is not a name (letters, digits, `_`, `-`, not starting \
             with a digit): the rules text names the columns",
            f.name
        )));
    }
    if let RangeBound::Column { column, .. } = &bounds[0] {
        if f.min == Some(0) {
            return Err(err(format!(
                "p is column {:?} of {:?}, whose min is 0: a move removes at least 1 token, \
                 so set min = 1",
                f.columns[*column], f.name
            )));
        }
    }
    let is_bound = |c: usize| columns.iter().any(|&(_, x)| x == c);
    let heap_col = match heap {
        Some(h) => {
            let Some(c) = f.columns.iter().position(|c| c == h.get_ref()) else {
                return Err(ctx.err(
                    h.span(),
                    "game.heap",
                    format!(
                        "{:?} is not a column of {:?} (its columns: {})",
                        h.get_ref(),
                        f.name,
                        f.columns.join(", ")
                    ),
                ));
            };
            if is_bound(c) {
                return Err(ctx.err(
                    h.span(),
                    "game.heap",
                    format!("{:?} is a bound of the range, not the heap", h.get_ref()),
                ));
            }
            c
        }
        None => {
            let free: Vec<usize> = (0..f.columns.len()).filter(|&c| !is_bound(c)).collect();
            match free[..] {
                [c] => c,
                _ => {
                    return Err(err(format!(
                        "{:?} has columns {} and more than one is not a bound: say which is \
                         the heap size with `heap = \"<column>\"` in [game]",
                        f.name,
                        f.columns.join(", ")
                    )))
                }
            }
        }
    };
    let mut entries = Vec::new();
    let mut text_bound = |b: &RangeBound, name: &str| match b {
        RangeBound::Column { column, .. } => {
            entries.push(entry(name, key, span.clone(), toml::Value::Integer(0)));
            f.columns[*column].clone()
        }
        RangeBound::Param(x) => {
            entries.push(entry(name, key, span.clone(), x.clone()));
            format!("${name}")
        }
    };
    let low = text_bound(&bounds[0], "p");
    let high = text_bound(&bounds[1], "q");
    if let [RangeBound::Param(toml::Value::Integer(0)), _] = &bounds[..] {
        return Err(err("a move removes at least 1 token: p >= 1".into()));
    }
    let text = format!(
        "record {}: heap {}, range {low}..{high}{misere}",
        f.columns.join(","),
        f.columns[heap_col]
    );
    entries.insert(
        0,
        RulesEntry {
            name: "rules".into(),
            key: key.into(),
            span: span.clone(),
            value: toml::Value::String(text),
            literal: true,
        },
    );
    Ok(Some(TableGame {
        game: Declared::<HeapRangesGame>::GAME,
        entries,
        rules_at: (span, key.to_string()),
    }))
}

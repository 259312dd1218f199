//! The `[game]` table of a format-2 declaration: a heap game sgcheck does not ship,
//! declared by its rules. It becomes the declarable game `heap-code`
//! ([`crate::games::heap_code`]) with its parameters filled in:
//!
//! | key | meaning |
//! |---|---|
//! | `code` | a take-and-break code, octal or hexadecimal: `"0.77"`, `"0.137"`, `"4.[3]"` (a bracketed last digit repeats forever), `"0.F"` |
//! | `subtract` | a subtraction set: `[1, 3, 4]`, `"powers-of-two"`, `"fibonacci"`, or the name of a list field (a set per case) |
//! | `range` | `[p, q]`: remove p to q tokens; each a number or the name of a number field |
//! | `split_unequal` | `true`: split a heap into two unequal heaps (Grundy's game) |
//! | `play` | `"normal"` (default: who cannot move loses) or `"misere"` (who cannot move wins) |
//! | `script` | the rules as a script: `moves(state)`, maybe `value(state)` and `position(numbers)`; the game `scripted` ([`crate::games::scripted`]) |
//! | `check_states` | with `script`: `[[lowest state], [highest state]]`, a box of states computed when the declaration is read (the mex table, and `value` checked on each); needed with `value` |
//!
//! Exactly one of `code`, `subtract`, `range`, `split_unequal`, `script`.

use super::declaration::{toml_error, Ctx, DeclarationError, RulesEntry};
use crate::games::declared::{DeclarableGame, Declared};
use crate::games::heap_code::{HeapCodeGame, MAX_DIGITS, MAX_SET};
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
    check_states: Option<Spanned<Vec<Vec<i64>>>>,
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
    match kinds.len() {
        0 => {
            return Err(ctx.err(
                gspan,
                "game",
                "the [game] table declares the moves: one of `code`, `subtract`, `range`, \
                 `split_unequal`, `script`",
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
    if let Some(sc) = g.script {
        return script(&ctx, sc, g.check_states, misere);
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
    sc: Spanned<String>,
    check: Option<Spanned<Vec<Vec<i64>>>>,
    misere: &str,
) -> Result<TableGame, DeclarationError> {
    let span = sc.span();
    let key = "game.script";
    let literal = |name: &str, v: String| RulesEntry {
        name: name.into(),
        key: key.into(),
        span: span.clone(),
        value: toml::Value::String(v),
        literal: true,
    };
    let mut entries = vec![
        literal("script", sc.into_inner()),
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

//! A small language of moves, for the shapes most games take (take from a pile, split
//! into parts, cut a rectangle, move to a divisor), compiled when the declaration is
//! read and evaluated natively: no interpreter call per state.
//!
//! A declaration names the integers of a component's state and lists move templates:
//!
//! ```toml
//! [game]
//! state = ["w", "h"]
//! moves = [
//!     "for i in 2..=w - 2: (i, h) + (w - i, h)",
//!     "for j in 2..=h - 2: (w, j) + (w, h - j)",
//! ]
//! ```
//!
//! A template is `clauses: result`, or a result alone. Clauses, separated by commas,
//! run left to right: `for x in a..b` (or `a..=b`, inclusive) binds `x` to each integer
//! of the range, ascending; `for d in divisors(e)` binds `d` to each positive divisor
//! of `e`, ascending; `if condition` keeps only what satisfies it. The result is the
//! components that replace the one moved in: tuples of the state's arity joined by
//! `+`, or `none` (nothing is left). Expressions are integers (i64; an overflow or a
//! division by zero is an error naming the state), the state's names and the bound
//! variables, `+ - * / %` (Rust's: `/` truncates), unary `-`, parentheses, `min(a, b)`,
//! `max(a, b)` and `abs(a)`; conditions compare two expressions (`== != < <= > >=`)
//! and combine with `!`, `&&` and `||` (`&&` first).
//!
//! The moves of a state are the results of every template, in the order listed, each
//! template's in the order its loops run: the order moves are numbered in (`i:j`).

use std::fmt;

/// Most templates a declaration lists.
pub const MAX_TEMPLATES: usize = 64;
/// Most bytes of one template.
pub const MAX_TEMPLATE_BYTES: usize = 1024;
/// Most loop steps (over every template) to list the moves of one state.
pub const MAX_STEPS: u64 = 1 << 24;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Min,
    Max,
}

#[derive(Clone, Debug)]
enum Expr {
    Const(i64),
    Var(usize),
    Neg(Box<Expr>),
    Abs(Box<Expr>),
    Bin(Op, Box<Expr>, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Debug)]
enum Cond {
    Cmp(Cmp, Expr, Expr),
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
}

#[derive(Clone, Debug)]
enum Clause {
    Range {
        var: usize,
        lo: Expr,
        hi: Expr,
        inclusive: bool,
    },
    Divisors {
        var: usize,
        of: Expr,
    },
    If(Cond),
}

#[derive(Clone, Debug)]
struct Template {
    clauses: Vec<Clause>,
    /// The components left, each a tuple of the state's arity.
    parts: Vec<Vec<Expr>>,
    /// Variables the template uses (the state's integers first).
    slots: usize,
}

/// Why an evaluation stopped.
#[derive(Debug)]
struct Fail(String);

/// Compiled move templates.
#[derive(Clone, Debug)]
pub struct MoveRules {
    names: Vec<String>,
    templates: Vec<Template>,
    source: Vec<String>,
}

impl fmt::Display for MoveRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "state ({}); {}",
            self.names.join(", "),
            self.source.join("; ")
        )
    }
}

// ---------------------------------------------------------------------------------
// Reading.

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Int(i64),
    Name(String),
    Sym(&'static str),
}

fn tokens(text: &str) -> Result<Vec<Tok>, String> {
    const SYMS: &[&str] = &[
        "..=", "..", "==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "+", "-", "*", "/", "%",
        "(", ")", ",", ":",
    ];
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    'next: while i < b.len() {
        let c = b[i] as char;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let v: i64 = text[start..i]
                .parse()
                .map_err(|_| format!("{} is past the integers (i64)", &text[start..i]))?;
            out.push(Tok::Int(v));
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Name(text[start..i].to_string()));
            continue;
        }
        for s in SYMS {
            if text[i..].starts_with(s) {
                out.push(Tok::Sym(s));
                i += s.len();
                continue 'next;
            }
        }
        return Err(format!("{c:?} is not part of a move template"));
    }
    Ok(out)
}

struct Parser<'a> {
    toks: Vec<Tok>,
    at: usize,
    /// Variables in scope: the state's names, then the bound ones.
    vars: Vec<String>,
    arity: usize,
    text: &'a str,
}

const KEYWORDS: &[&str] = &["for", "in", "if", "none", "divisors", "min", "max", "abs"];

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }
    fn sym(&mut self, s: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Sym(x)) if *x == s) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn word(&mut self, w: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Name(n)) if n == w) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, s: &str) -> Result<(), String> {
        if self.sym(s) {
            Ok(())
        } else {
            Err(format!("expected `{s}` {}", self.place()))
        }
    }
    fn place(&self) -> String {
        match self.peek() {
            None => format!("at the end of {:?}", self.text),
            Some(t) => format!("at {} in {:?}", show_tok(t), self.text),
        }
    }

    fn template(&mut self) -> Result<Template, String> {
        let mut clauses = Vec::new();
        if matches!(self.peek(), Some(Tok::Name(n)) if n == "for" || n == "if") {
            loop {
                clauses.push(self.clause()?);
                if !self.sym(",") {
                    break;
                }
            }
            self.expect(":")?;
        }
        let parts = if self.word("none") {
            Vec::new()
        } else {
            let mut parts = vec![self.tuple()?];
            while self.sym("+") {
                parts.push(self.tuple()?);
            }
            parts
        };
        if self.peek().is_some() {
            return Err(format!("unexpected {}", self.place()));
        }
        Ok(Template {
            clauses,
            parts,
            slots: self.vars.len(),
        })
    }

    fn clause(&mut self) -> Result<Clause, String> {
        if self.word("if") {
            return Ok(Clause::If(self.cond()?));
        }
        if !self.word("for") {
            return Err(format!("expected `for` or `if` {}", self.place()));
        }
        let name = match self.peek() {
            Some(Tok::Name(n)) if !KEYWORDS.contains(&n.as_str()) => n.clone(),
            _ => return Err(format!("expected a variable name {}", self.place())),
        };
        self.at += 1;
        if self.vars.contains(&name) {
            return Err(format!("`{name}` is bound already in {:?}", self.text));
        }
        if !self.word("in") {
            return Err(format!("expected `in` {}", self.place()));
        }
        if self.word("divisors") {
            self.expect("(")?;
            let of = self.expr()?;
            self.expect(")")?;
            self.vars.push(name);
            return Ok(Clause::Divisors {
                var: self.vars.len() - 1,
                of,
            });
        }
        let lo = self.expr()?;
        let inclusive = if self.sym("..=") {
            true
        } else if self.sym("..") {
            false
        } else {
            return Err(format!("expected `..` or `..=` {}", self.place()));
        };
        let hi = self.expr()?;
        self.vars.push(name);
        Ok(Clause::Range {
            var: self.vars.len() - 1,
            lo,
            hi,
            inclusive,
        })
    }

    fn tuple(&mut self) -> Result<Vec<Expr>, String> {
        self.expect("(")?;
        let mut v = vec![self.expr()?];
        while self.sym(",") {
            v.push(self.expr()?);
        }
        self.expect(")")?;
        if v.len() != self.arity {
            return Err(format!(
                "a component has {} integers (the state's), this one {} in {:?}",
                self.arity,
                v.len(),
                self.text
            ));
        }
        Ok(v)
    }

    fn cond(&mut self) -> Result<Cond, String> {
        let mut c = self.conj()?;
        while self.sym("||") {
            c = Cond::Or(Box::new(c), Box::new(self.conj()?));
        }
        Ok(c)
    }
    fn conj(&mut self) -> Result<Cond, String> {
        let mut c = self.atom()?;
        while self.sym("&&") {
            c = Cond::And(Box::new(c), Box::new(self.atom()?));
        }
        Ok(c)
    }
    fn atom(&mut self) -> Result<Cond, String> {
        if self.sym("!") {
            return Ok(Cond::Not(Box::new(self.atom()?)));
        }
        let a = self.expr()?;
        let op = [
            ("==", Cmp::Eq),
            ("!=", Cmp::Ne),
            ("<=", Cmp::Le),
            (">=", Cmp::Ge),
            ("<", Cmp::Lt),
            (">", Cmp::Gt),
        ]
        .into_iter()
        .find(|(s, _)| self.sym(s))
        .map(|(_, o)| o)
        .ok_or_else(|| format!("expected a comparison {}", self.place()))?;
        Ok(Cond::Cmp(op, a, self.expr()?))
    }

    /// Operands of `next` joined by the operators `ops`, left to right.
    fn binary(
        &mut self,
        ops: &[(&str, Op)],
        next: fn(&mut Self) -> Result<Expr, String>,
    ) -> Result<Expr, String> {
        let mut e = next(self)?;
        while let Some(op) = ops.iter().find(|(s, _)| self.sym(s)).map(|(_, o)| *o) {
            e = Expr::Bin(op, Box::new(e), Box::new(next(self)?));
        }
        Ok(e)
    }
    fn expr(&mut self) -> Result<Expr, String> {
        self.binary(&[("+", Op::Add), ("-", Op::Sub)], Self::term)
    }
    fn term(&mut self) -> Result<Expr, String> {
        self.binary(
            &[("*", Op::Mul), ("/", Op::Div), ("%", Op::Rem)],
            Self::factor,
        )
    }
    fn factor(&mut self) -> Result<Expr, String> {
        if self.sym("-") {
            return Ok(Expr::Neg(Box::new(self.factor()?)));
        }
        if self.sym("(") {
            let e = self.expr()?;
            self.expect(")")?;
            return Ok(e);
        }
        match self.peek().cloned() {
            Some(Tok::Int(v)) => {
                self.at += 1;
                Ok(Expr::Const(v))
            }
            Some(Tok::Name(n)) if n == "min" || n == "max" => {
                self.at += 1;
                self.expect("(")?;
                let a = self.expr()?;
                self.expect(",")?;
                let b = self.expr()?;
                self.expect(")")?;
                let op = if n == "min" { Op::Min } else { Op::Max };
                Ok(Expr::Bin(op, Box::new(a), Box::new(b)))
            }
            Some(Tok::Name(n)) if n == "abs" => {
                self.at += 1;
                self.expect("(")?;
                let a = self.expr()?;
                self.expect(")")?;
                Ok(Expr::Abs(Box::new(a)))
            }
            Some(Tok::Name(n)) => match self.vars.iter().position(|v| *v == n) {
                Some(i) => {
                    self.at += 1;
                    Ok(Expr::Var(i))
                }
                None => Err(format!(
                    "`{n}` is not a name of the state ({}) nor a variable bound before it, in {:?}",
                    self.vars[..self.arity].join(", "),
                    self.text
                )),
            },
            _ => Err(format!("expected a number, a name or `(` {}", self.place())),
        }
    }
}

fn show_tok(t: &Tok) -> String {
    match t {
        Tok::Int(v) => v.to_string(),
        Tok::Name(n) => format!("`{n}`"),
        Tok::Sym(s) => format!("`{s}`"),
    }
}

impl MoveRules {
    /// The rules as one text, as a rules file or a declaration's parameter holds them:
    /// a line `state a, b`, then a line `move TEMPLATE` per template.
    pub fn text(names: &[String], templates: &[String]) -> String {
        let mut t = format!("state {}\n", names.join(", "));
        for m in templates {
            t.push_str("move ");
            t.push_str(m);
            t.push('\n');
        }
        t
    }

    /// Reads rules written as [`MoveRules::text`] writes them; `None` when `text` is
    /// not in that form (its first line does not start with `state `).
    pub fn parse_text(text: &str) -> Option<Result<MoveRules, String>> {
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        let names = lines.next()?.strip_prefix("state ")?;
        let names: Vec<String> = names.split(',').map(|n| n.trim().to_string()).collect();
        let mut templates = Vec::new();
        for l in lines {
            match l.strip_prefix("move ") {
                Some(t) => templates.push(t.trim().to_string()),
                None => {
                    return Some(Err(format!(
                        "each line after `state ...` is `move TEMPLATE`; found {:?}",
                        l.chars().take(60).collect::<String>()
                    )))
                }
            }
        }
        Some(MoveRules::compile(&names, &templates))
    }

    /// Compiles the templates for a state of the integers `names`.
    pub fn compile(names: &[String], templates: &[String]) -> Result<MoveRules, String> {
        if names.is_empty() || names.len() > super::script::MAX_STATE_LEN {
            return Err(format!(
                "state names 1 to {} integers",
                super::script::MAX_STATE_LEN
            ));
        }
        for (i, n) in names.iter().enumerate() {
            let ok = n
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !KEYWORDS.contains(&n.as_str());
            if !ok {
                return Err(format!(
                    "state name {n:?} is not a name (letters, digits, _)"
                ));
            }
            if names[..i].contains(n) {
                return Err(format!("state name {n:?} is given twice"));
            }
        }
        if templates.is_empty() || templates.len() > MAX_TEMPLATES {
            return Err(format!("moves lists 1 to {MAX_TEMPLATES} templates"));
        }
        let mut out = Vec::new();
        for t in templates {
            if t.len() > MAX_TEMPLATE_BYTES {
                return Err(format!(
                    "a move template has at most {MAX_TEMPLATE_BYTES} bytes; one has {}",
                    t.len()
                ));
            }
            let mut p = Parser {
                toks: tokens(t)?,
                at: 0,
                vars: names.to_vec(),
                arity: names.len(),
                text: t,
            };
            out.push(p.template()?);
        }
        Ok(MoveRules {
            names: names.to_vec(),
            templates: out,
            source: templates.to_vec(),
        })
    }

    /// The integers of a component's state.
    pub fn arity(&self) -> usize {
        self.names.len()
    }

    /// Calls `f` with every move of `s`, in order: the components it leaves, their
    /// integers one after another (`arity` each; empty when nothing is left). An
    /// error (an overflow, a division by zero, more than [`MAX_STEPS`] loop steps)
    /// names the state.
    pub fn each_move(&self, s: &[i64], f: &mut dyn FnMut(&[i64])) -> Result<(), String> {
        if s.len() != self.arity() {
            return Err(format!(
                "a state of {} integers given to rules of {}",
                s.len(),
                self.arity()
            ));
        }
        let mut env = Vec::new();
        let mut out = Vec::new();
        let mut steps = 0u64;
        for t in &self.templates {
            env.clear();
            env.extend_from_slice(s);
            env.resize(t.slots, 0);
            run(t, 0, &mut env, &mut out, &mut steps, f)
                .map_err(|Fail(why)| format!("moves{}: {why}", super::script::show(s)))?;
        }
        Ok(())
    }
}

fn run(
    t: &Template,
    k: usize,
    env: &mut [i64],
    out: &mut Vec<i64>,
    steps: &mut u64,
    f: &mut dyn FnMut(&[i64]),
) -> Result<(), Fail> {
    let Some(c) = t.clauses.get(k) else {
        out.clear();
        for part in &t.parts {
            for e in part {
                out.push(eval(e, env)?);
            }
        }
        f(out);
        return Ok(());
    };
    let step = |steps: &mut u64| {
        *steps += 1;
        if *steps > MAX_STEPS {
            Err(Fail(format!(
                "listing its moves took more than {MAX_STEPS} loop steps"
            )))
        } else {
            Ok(())
        }
    };
    match c {
        Clause::If(cond) => {
            if test(cond, env)? {
                run(t, k + 1, env, out, steps, f)?;
            }
        }
        Clause::Range {
            var,
            lo,
            hi,
            inclusive,
        } => {
            let (lo, end) = range(lo, hi, *inclusive, env)?;
            let mut x = lo;
            while x <= end {
                step(steps)?;
                env[*var] = x;
                run(t, k + 1, env, out, steps, f)?;
                if x == i64::MAX {
                    break;
                }
                x += 1;
            }
        }
        Clause::Divisors { var, of } => {
            let n = eval(of, env)?;
            if n <= 0 {
                return Ok(());
            }
            // Divisors up to the square root, then their cofactors: ascending.
            let mut small = Vec::new();
            let mut d = 1i64;
            while d <= n / d {
                step(steps)?;
                if n % d == 0 {
                    small.push(d);
                }
                d += 1;
            }
            let mut all = small.clone();
            for &d in small.iter().rev() {
                if d != n / d {
                    all.push(n / d);
                }
            }
            for d in all {
                step(steps)?;
                env[*var] = d;
                run(t, k + 1, env, out, steps, f)?;
            }
        }
    }
    Ok(())
}

/// The first and last integer of a `for` range (empty when the first is past the last).
fn range(lo: &Expr, hi: &Expr, inclusive: bool, env: &[i64]) -> Result<(i64, i64), Fail> {
    let (lo, hi) = (eval(lo, env)?, eval(hi, env)?);
    Ok((lo, if inclusive { hi } else { hi.saturating_sub(1) }))
}

fn eval(e: &Expr, env: &[i64]) -> Result<i64, Fail> {
    let over = || Fail("an integer overflowed (i64)".into());
    Ok(match e {
        Expr::Const(v) => *v,
        Expr::Var(i) => env[*i],
        Expr::Neg(a) => eval(a, env)?.checked_neg().ok_or_else(over)?,
        Expr::Abs(a) => eval(a, env)?.checked_abs().ok_or_else(over)?,
        Expr::Bin(op, a, b) => {
            let (a, b) = (eval(a, env)?, eval(b, env)?);
            match op {
                Op::Add => a.checked_add(b).ok_or_else(over)?,
                Op::Sub => a.checked_sub(b).ok_or_else(over)?,
                Op::Mul => a.checked_mul(b).ok_or_else(over)?,
                Op::Div | Op::Rem if b == 0 => return Err(Fail("a division by zero".into())),
                Op::Div => a.checked_div(b).ok_or_else(over)?,
                Op::Rem => a.checked_rem(b).ok_or_else(over)?,
                Op::Min => a.min(b),
                Op::Max => a.max(b),
            }
        }
    })
}

fn test(c: &Cond, env: &[i64]) -> Result<bool, Fail> {
    Ok(match c {
        Cond::Cmp(op, a, b) => {
            let (a, b) = (eval(a, env)?, eval(b, env)?);
            match op {
                Cmp::Eq => a == b,
                Cmp::Ne => a != b,
                Cmp::Lt => a < b,
                Cmp::Le => a <= b,
                Cmp::Gt => a > b,
                Cmp::Ge => a >= b,
            }
        }
        Cond::Not(a) => !test(a, env)?,
        Cond::And(a, b) => test(a, env)? && test(b, env)?,
        Cond::Or(a, b) => test(a, env)? || test(b, env)?,
    })
}

// ---------------------------------------------------------------------------------
// The dense table: every state of a box, bottom-up.

/// Most states a dense table holds (16 MiB of values).
pub const MAX_DENSE: usize = 1 << 22;
/// The values a mex is taken over: a state whose mex would be this or more (a state
/// with that many moves at least) makes the dense build fail, and the general table
/// serve.
const STAMP: usize = 1 << 16;

/// The Grundy values of every state of a box `0..=hi` (each integer), computed in
/// index order (the first integer most significant), when every move of every state
/// leaves components inside the box and earlier in that order, as a game whose moves
/// make the state smaller does. Innermost loops whose components are affine in the
/// loop variable (`(i, h) + (w - i, h)`) are walked as strided reads of the table.
#[derive(Debug)]
pub struct Dense {
    hi: Vec<i64>,
    strides: Vec<usize>,
    g: Vec<u32>,
}

impl Dense {
    /// Whether `s` is in the box.
    pub fn index(&self, s: &[i64]) -> Option<usize> {
        if s.len() != self.hi.len() {
            return None;
        }
        let mut idx = 0usize;
        for ((&x, &h), &st) in s.iter().zip(&self.hi).zip(&self.strides) {
            if x < 0 || x > h {
                return None;
            }
            idx += x as usize * st;
        }
        Some(idx)
    }

    /// The value of `s`, when it is in the box.
    pub fn value(&self, s: &[i64]) -> Option<u64> {
        self.index(s).map(|i| u64::from(self.g[i]))
    }

    /// The box's largest state.
    pub fn top(&self) -> &[i64] {
        &self.hi
    }
}

/// What a dense build met that it cannot handle: the state and why (the caller then
/// uses the general table).
#[derive(Debug)]
pub struct NotDense(pub String);

/// Affine form `c0 + c1 * x` of `e` in the variable `var`, the others read from `env`,
/// on a range of `x` where no `min` or `max` of two affine forms changes side (see
/// [`breaks`]): such a `min` is the form that is smaller at `at`, a point of the range;
/// `None` when `e` is not affine in it (or a constant overflows).
fn affine(e: &Expr, var: usize, env: &[i64], at: i64) -> Option<(i64, i64)> {
    let affine = |e: &Expr| affine(e, var, env, at);
    Some(match e {
        Expr::Const(v) => (*v, 0),
        Expr::Var(i) if *i == var => (0, 1),
        Expr::Var(i) => (env[*i], 0),
        Expr::Neg(a) => {
            let (a0, a1) = affine(a)?;
            (a0.checked_neg()?, a1.checked_neg()?)
        }
        Expr::Bin(Op::Add, a, b) => {
            let ((a0, a1), (b0, b1)) = (affine(a)?, affine(b)?);
            (a0.checked_add(b0)?, a1.checked_add(b1)?)
        }
        Expr::Bin(Op::Sub, a, b) => {
            let ((a0, a1), (b0, b1)) = (affine(a)?, affine(b)?);
            (a0.checked_sub(b0)?, a1.checked_sub(b1)?)
        }
        Expr::Bin(Op::Mul, a, b) => {
            let ((a0, a1), (b0, b1)) = (affine(a)?, affine(b)?);
            match (a1, b1) {
                (0, _) => (a0.checked_mul(b0)?, a0.checked_mul(b1)?),
                (_, 0) => (a0.checked_mul(b0)?, a1.checked_mul(b0)?),
                _ => return None,
            }
        }
        Expr::Bin(op @ (Op::Min | Op::Max), a, b) if mentions(e, var) => {
            // Only the outermost min or max of a form is split on (see `breaks`).
            if has_min_max(a) || has_min_max(b) {
                return None;
            }
            let ((a0, a1), (b0, b1)) = (affine(a)?, affine(b)?);
            let va = a1.checked_mul(at)?.checked_add(a0)?;
            let vb = b1.checked_mul(at)?.checked_add(b0)?;
            if (va <= vb) == (*op == Op::Min) {
                (a0, a1)
            } else {
                (b0, b1)
            }
        }
        // Anything else is affine only when it does not depend on the variable.
        other => {
            if mentions(other, var) {
                return None;
            }
            (eval(other, env).ok()?, 0)
        }
    })
}

/// The points where a `min` or `max` of two affine forms in `var` within `e` changes
/// side: for each, the first `x` past the crossing (pushed to `out`).
fn breaks(e: &Expr, var: usize, env: &[i64], out: &mut Vec<i64>) {
    match e {
        Expr::Const(_) | Expr::Var(_) => {}
        Expr::Neg(a) | Expr::Abs(a) => breaks(a, var, env, out),
        Expr::Bin(op, a, b) => {
            breaks(a, var, env, out);
            breaks(b, var, env, out);
            if matches!(op, Op::Min | Op::Max) {
                // Forms without min or max inside: their difference d0 + d1 x changes
                // sign once, after floor(-d0 / d1).
                let flat = |e: &Expr| affine(e, var, env, 0).filter(|_| !has_min_max(e));
                if let (Some((a0, a1)), Some((b0, b1))) = (flat(a), flat(b)) {
                    let (d0, d1) = (a0.checked_sub(b0), a1.checked_sub(b1));
                    if let (Some(d0), Some(d1)) = (d0, d1) {
                        if d1 != 0 {
                            let (p, q) = if d1 < 0 {
                                (d0, -d1)
                            } else {
                                (d0.checked_neg().unwrap_or(i64::MAX), d1)
                            };
                            out.push(p.div_euclid(q).saturating_add(1));
                        }
                    }
                }
            }
        }
    }
}

fn has_min_max(e: &Expr) -> bool {
    match e {
        Expr::Const(_) | Expr::Var(_) => false,
        Expr::Neg(a) | Expr::Abs(a) => has_min_max(a),
        Expr::Bin(op, a, b) => matches!(op, Op::Min | Op::Max) || has_min_max(a) || has_min_max(b),
    }
}

fn mentions(e: &Expr, var: usize) -> bool {
    match e {
        Expr::Const(_) => false,
        Expr::Var(i) => *i == var,
        Expr::Neg(a) | Expr::Abs(a) => mentions(a, var),
        Expr::Bin(_, a, b) => mentions(a, var) || mentions(b, var),
    }
}

struct Build<'a> {
    rules: &'a MoveRules,
    hi: &'a [i64],
    strides: &'a [usize],
    g: &'a [u32],
    /// The state being valued and its index.
    state: &'a [i64],
    at: usize,
    stamp: &'a mut [u32; STAMP],
    generation: u32,
    steps: u64,
}

impl Build<'_> {
    fn fail(&self, why: impl fmt::Display) -> NotDense {
        NotDense(format!("moves{}: {why}", super::script::show(self.state)))
    }

    fn mark(&mut self, v: u32) {
        self.stamp[(v as usize).min(STAMP - 1)] = self.generation;
    }

    /// The index of one component (`parts`' integers at `from`), checked to be in the
    /// box and before the state being valued.
    fn part_index(&self, c: &[i64]) -> Result<usize, NotDense> {
        let mut idx = 0usize;
        for ((&x, &h), &st) in c.iter().zip(self.hi).zip(self.strides) {
            if x < 0 || x > h {
                return Err(self.fail(format!(
                    "a move leaves {}, outside the box up to {}",
                    super::script::show(c),
                    super::script::show(self.hi)
                )));
            }
            idx += x as usize * st;
        }
        if idx >= self.at {
            return Err(self.fail(format!(
                "a move leaves {}, which is not smaller",
                super::script::show(c)
            )));
        }
        Ok(idx)
    }

    fn run(
        &mut self,
        t: &Template,
        k: usize,
        env: &mut [i64],
        out: &mut Vec<i64>,
    ) -> Result<(), NotDense> {
        let n = t.clauses.len();
        if k == n {
            out.clear();
            for part in &t.parts {
                for e in part {
                    out.push(eval(e, env).map_err(|Fail(w)| self.fail(w))?);
                }
            }
            let arity = self.hi.len();
            let mut x = 0u32;
            for c in out.chunks(arity) {
                x ^= self.g[self.part_index(c)?];
            }
            self.mark(x);
            return Ok(());
        }
        match &t.clauses[k] {
            Clause::If(cond) => {
                if test(cond, env).map_err(|Fail(w)| self.fail(w))? {
                    self.run(t, k + 1, env, out)?;
                }
            }
            Clause::Range {
                var,
                lo,
                hi,
                inclusive,
            } => {
                let (lo, end) = range(lo, hi, *inclusive, env).map_err(|Fail(w)| self.fail(w))?;
                if lo > end {
                    return Ok(());
                }
                self.steps += (end - lo) as u64 + 1;
                if self.steps > MAX_STEPS {
                    return Err(self.fail(format!(
                        "listing its moves took more than {MAX_STEPS} loop steps"
                    )));
                }
                if k + 1 == n {
                    // The innermost loop: split where a min or max changes side, and
                    // each piece walked by strides when its parts are affine.
                    let mut cuts = Vec::new();
                    for e in t.parts.iter().flatten() {
                        breaks(e, *var, env, &mut cuts);
                    }
                    cuts.retain(|&c| c > lo && c <= end);
                    cuts.sort_unstable();
                    cuts.dedup();
                    let mut from = lo;
                    for upto in cuts.iter().map(|&c| c - 1).chain([end]) {
                        if !self.strided(t, *var, from, upto, env)? {
                            for x in from..=upto {
                                env[*var] = x;
                                self.run(t, k + 1, env, out)?;
                            }
                        }
                        from = upto + 1;
                    }
                    return Ok(());
                }
                for x in lo..=end {
                    env[*var] = x;
                    self.run(t, k + 1, env, out)?;
                }
            }
            Clause::Divisors { var, of } => {
                let m = eval(of, env).map_err(|Fail(w)| self.fail(w))?;
                let mut d = 1i64;
                while m > 0 && d <= m / d {
                    self.steps += 1;
                    if m % d == 0 {
                        env[*var] = d;
                        self.run(t, k + 1, env, out)?;
                        if d != m / d {
                            env[*var] = m / d;
                            self.run(t, k + 1, env, out)?;
                        }
                    }
                    d += 1;
                }
                if self.steps > MAX_STEPS {
                    return Err(self.fail(format!(
                        "listing its moves took more than {MAX_STEPS} loop steps"
                    )));
                }
            }
        }
        Ok(())
    }

    /// The innermost loop `var in lo..=end` as strided reads, when every integer of
    /// every part is affine in `var`: each part's index is then affine too, and its
    /// ends are in the box and before the state (an affine index is monotone), so
    /// every index between is. `false` (nothing done) when a part is not affine.
    fn strided(
        &mut self,
        t: &Template,
        var: usize,
        lo: i64,
        end: i64,
        env: &[i64],
    ) -> Result<bool, NotDense> {
        const MOST_PARTS: usize = 4;
        if t.parts.len() > MOST_PARTS {
            return Ok(false);
        }
        let mut base = [0i64; MOST_PARTS];
        let mut step = [0i64; MOST_PARTS];
        for (p, part) in t.parts.iter().enumerate() {
            let (mut b, mut s) = (0i64, 0i64);
            for (j, (e, &st)) in part.iter().zip(self.strides).enumerate() {
                let Some((c0, c1)) = affine(e, var, env, lo) else {
                    return Ok(false);
                };
                // Both ends of each integer in the box (an affine integer is
                // monotone, so every value between is too).
                for x in [lo, end] {
                    match c1.checked_mul(x).and_then(|v| v.checked_add(c0)) {
                        Some(v) if (0..=self.hi[j]).contains(&v) => {}
                        _ => return Ok(false),
                    }
                }
                let st = st as i64;
                b = match c0.checked_mul(st).and_then(|v| v.checked_add(b)) {
                    Some(v) => v,
                    None => return Ok(false),
                };
                s = match c1.checked_mul(st).and_then(|v| v.checked_add(s)) {
                    Some(v) => v,
                    None => return Ok(false),
                };
            }
            // Both ends before the state valued.
            for x in [lo, end] {
                let idx = b + s * x;
                if idx < 0 || idx as usize >= self.at {
                    return Ok(false);
                }
            }
            base[p] = b;
            step[p] = s;
        }
        let g = self.g;
        let (stamp, generation) = (&mut *self.stamp, self.generation);
        let mut mark = |v: u32| stamp[(v as usize).min(STAMP - 1)] = generation;
        // Every index was checked above: the loops walk the table by its strides.
        let count = (end - lo) as usize + 1;
        match t.parts.len() {
            0 => mark(0),
            1 => {
                let (mut i0, s0) = ((base[0] + step[0] * lo) as isize, step[0] as isize);
                for _ in 0..count {
                    mark(g[i0 as usize]);
                    i0 += s0;
                }
            }
            2 => {
                let (mut i0, s0) = ((base[0] + step[0] * lo) as isize, step[0] as isize);
                let (mut i1, s1) = ((base[1] + step[1] * lo) as isize, step[1] as isize);
                for _ in 0..count {
                    mark(g[i0 as usize] ^ g[i1 as usize]);
                    i0 += s0;
                    i1 += s1;
                }
            }
            parts => {
                for x in lo..=end {
                    let mut v = 0u32;
                    for p in 0..parts {
                        v ^= g[(base[p] + step[p] * x) as usize];
                    }
                    mark(v);
                }
            }
        }
        Ok(true)
    }
}

impl MoveRules {
    /// The dense table of the box `0..=hi`, or why these rules cannot have one there
    /// (a move leaving the box or not to a smaller state, an error of the templates,
    /// more than [`MAX_DENSE`] states, or `deadline` passed).
    pub fn dense(
        &self,
        hi: &[i64],
        deadline: Option<std::time::Instant>,
    ) -> Result<Dense, NotDense> {
        let k = self.arity();
        if hi.len() != k || hi.iter().any(|&h| h < 0) {
            return Err(NotDense(
                "a box of states of the rules' arity, from 0".into(),
            ));
        }
        let mut strides = vec![0usize; k];
        let mut size = 1usize;
        for i in (0..k).rev() {
            strides[i] = size;
            size = usize::try_from(hi[i])
                .ok()
                .and_then(|h| h.checked_add(1))
                .and_then(|h| h.checked_mul(size))
                .filter(|&s| s <= MAX_DENSE)
                .ok_or_else(|| {
                    NotDense(format!(
                        "the box up to {} holds more than {MAX_DENSE} states",
                        super::script::show(hi)
                    ))
                })?;
        }
        let mut d = Dense {
            hi: hi.to_vec(),
            strides,
            g: Vec::new(),
        };
        self.fill(&mut d, size, deadline)?;
        Ok(d)
    }

    /// Grows `d` to hold every state whose first integer is at most `hi0` (the others
    /// within the box): the states past the table come after it in index order, so the
    /// values held stay and only the new ones are computed. On `Err`, `d` is as it was.
    pub fn extend_dense(
        &self,
        d: &mut Dense,
        hi0: i64,
        deadline: Option<std::time::Instant>,
    ) -> Result<(), NotDense> {
        if hi0 <= d.hi[0] {
            return Ok(());
        }
        let size = usize::try_from(hi0)
            .ok()
            .and_then(|h| h.checked_add(1))
            .and_then(|h| h.checked_mul(d.strides[0]))
            .filter(|&s| s <= MAX_DENSE)
            .ok_or_else(|| {
                NotDense(format!(
                    "the box up to {hi0} in its first integer holds more than {MAX_DENSE} states"
                ))
            })?;
        let (old_hi, old_len) = (d.hi[0], d.g.len());
        d.hi[0] = hi0;
        let r = self.fill(d, size, deadline);
        if r.is_err() {
            d.hi[0] = old_hi;
            d.g.truncate(old_len);
        }
        r
    }

    /// Computes the values of `d`'s states from `d.g.len()` to `size`, in index order.
    fn fill(
        &self,
        d: &mut Dense,
        size: usize,
        deadline: Option<std::time::Instant>,
    ) -> Result<(), NotDense> {
        let k = self.arity();
        let (hi, strides) = (&d.hi[..], &d.strides[..]);
        let g = &mut d.g;
        let from = g.len();
        g.resize(size, 0);
        let mut stamp: Box<[u32; STAMP]> = vec![0u32; STAMP]
            .into_boxed_slice()
            .try_into()
            .expect("STAMP values");
        let mut state = vec![0i64; k];
        let mut env = Vec::new();
        let mut out = Vec::new();
        for at in from..size {
            if at % 1024 == 0 && deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                return Err(NotDense("the time given to the table ran out".into()));
            }
            let mut rest = at;
            for i in 0..k {
                state[i] = (rest / strides[i]) as i64;
                rest %= strides[i];
            }
            let generation = at as u32 + 1;
            let (done, later) = g.split_at_mut(at);
            let mut b = Build {
                rules: self,
                hi,
                strides,
                g: done,
                state: &state,
                at,
                stamp: &mut stamp,
                generation,
                steps: 0,
            };
            for t in &self.templates {
                env.clear();
                env.extend_from_slice(&state);
                env.resize(t.slots, 0);
                b.run(t, 0, &mut env, &mut out)?;
            }
            let _ = b.rules;
            let mut v = 0u32;
            while (v as usize) < stamp.len() && stamp[v as usize] == generation {
                v += 1;
            }
            if v as usize == stamp.len() {
                return Err(NotDense(format!(
                    "moves{}: a value past {}",
                    super::script::show(&state),
                    stamp.len()
                )));
            }
            later[0] = v;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(names: &[&str], t: &[&str]) -> Result<MoveRules, String> {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let t: Vec<String> = t.iter().map(|s| s.to_string()).collect();
        MoveRules::compile(&names, &t)
    }

    fn moves(r: &MoveRules, s: &[i64]) -> Vec<Vec<i64>> {
        let mut v = Vec::new();
        r.each_move(s, &mut |m| v.push(m.to_vec())).unwrap();
        v
    }

    /// The plain mex table over `each_move`, by recursion with a memo.
    fn plain(r: &MoveRules, s: &[i64], memo: &mut std::collections::HashMap<Vec<i64>, u32>) -> u32 {
        if let Some(&v) = memo.get(s) {
            return v;
        }
        let mut moves = Vec::new();
        r.each_move(s, &mut |m| moves.push(m.to_vec())).unwrap();
        let mut seen = Vec::new();
        for m in moves {
            seen.push(m.chunks(r.arity()).fold(0, |x, c| x ^ plain(r, c, memo)));
        }
        let mut v = 0;
        while seen.contains(&v) {
            v += 1;
        }
        memo.insert(s.to_vec(), v);
        v
    }

    /// The dense table (strided loops where the parts are affine, the general
    /// evaluation elsewhere) against the plain mex on every state of a box, for rules
    /// of each shape; and grown in place by its first integer, the same.
    #[test]
    fn the_dense_table_is_the_plain_mex() {
        let cases: &[(&[&str], &[&str], &[i64])] = &[
            (
                &["w", "h"],
                &[
                    "for i in 2..=w - 2: (i, h) + (w - i, h)",
                    "for j in 2..=h - 2: (w, j) + (w, h - j)",
                ],
                &[30, 25],
            ),
            (&["a"], &["for d in divisors(a), if d < a: (d)"], &[600]),
            (
                &["n"],
                &["for k in 1..=min(2, n), for a in 0..=(n - k) / 2: (a) + (n - k - a)"],
                &[300],
            ),
            (
                &["a", "b"],
                &["for c in 1..a: (c, min(b, c))", "for c in 0..b: (a, c)"],
                &[40, 40],
            ),
            // Three parts, a negative stride, a constant part and nothing left.
            (
                &["n"],
                &[
                    "for a in 1..n / 3, for b in a..(n - a) / 2: (a) + (b) + (n - a - b)",
                    "if n % 5 == 0: none",
                    "for k in 1..=n / 2: (n - 2 * k) + (1)",
                ],
                &[80],
            ),
            // A min and a max of two forms in the loop variable, and a nested one.
            (
                &["n"],
                &[
                    "for c in 0..n: (max(c, n - 1 - c))",
                    "for k in 1..=n: (min(k - 1, max(n - k, 2)))",
                    "for c in 1..n: (min(3 * c, n - c))",
                ],
                &[120],
            ),
            // Fibonacci Nim's state: the second integer grows with the move (k).
            (
                &["n", "m"],
                &["for k in 1..=min(n, max(1, 2 * m)): (n - k, k)"],
                &[40, 80],
            ),
        ];
        for (names, t, hi) in cases {
            let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
            let t: Vec<String> = t.iter().map(|s| s.to_string()).collect();
            let r = MoveRules::compile(&names, &t).unwrap();
            let d = r.dense(hi, None).unwrap();
            let mut memo = std::collections::HashMap::new();
            let mut grown = r
                .dense(&[&[hi[0] / 2][..], &hi[1..]].concat(), None)
                .unwrap();
            r.extend_dense(&mut grown, hi[0], None).unwrap();
            let ranges: Vec<(i64, i64)> = hi.iter().map(|&h| (0, h)).collect();
            super::super::each_state(&ranges, &mut |s| {
                let want = u64::from(plain(&r, s, &mut memo));
                assert_eq!(d.value(s), Some(want), "{t:?} {s:?}");
                assert_eq!(grown.value(s), Some(want), "{t:?} {s:?} grown");
                true
            });
        }
    }

    /// A move the dense table cannot hold (out of the box, or to a state not before)
    /// is said, naming the state.
    #[test]
    fn what_the_dense_table_cannot_hold_is_named() {
        let names = vec!["n".to_string()];
        let r = MoveRules::compile(&names, &["(n + 1)".to_string()]).unwrap();
        let e = r.dense(&[5], None).unwrap_err().0;
        assert!(
            e.contains("moves(0): a move leaves (1), which is not smaller"),
            "{e}"
        );
        let r =
            MoveRules::compile(&names, &["for k in 1..=n: (n - k) + (n + k)".to_string()]).unwrap();
        let e = r.dense(&[1], None).unwrap_err().0;
        assert!(
            e.contains("moves(1): a move leaves (2), outside the box up to (1)"),
            "{e}"
        );
    }

    #[test]
    fn cutting_a_rectangle() {
        let r = rules(
            &["w", "h"],
            &[
                "for i in 2..=w - 2: (i, h) + (w - i, h)",
                "for j in 2..=h - 2: (w, j) + (w, h - j)",
            ],
        )
        .unwrap();
        assert_eq!(
            moves(&r, &[5, 4]),
            vec![vec![2, 4, 3, 4], vec![3, 4, 2, 4], vec![5, 2, 5, 2]]
        );
        assert!(moves(&r, &[3, 3]).is_empty());
    }

    #[test]
    fn divisors_filters_and_nothing_left() {
        let r = rules(&["a"], &["for d in divisors(a), if d < a: (d)"]).unwrap();
        assert_eq!(
            moves(&r, &[12]),
            vec![vec![1], vec![2], vec![3], vec![4], vec![6]]
        );
        assert_eq!(moves(&r, &[1]), Vec::<Vec<i64>>::new());
        let r = rules(
            &["n"],
            &["if n > 0 && !(n == 3): none", "for k in 1..n: (n - k)"],
        );
        // `!` applies to a comparison, not to a parenthesised condition.
        assert!(r.is_err());
        let r = rules(
            &["n"],
            &["if n > 0 && !n == 3: none", "for k in 1..n: (n - k)"],
        )
        .unwrap();
        assert_eq!(moves(&r, &[2]), vec![vec![], vec![1]]);
        assert_eq!(moves(&r, &[3]), vec![vec![2], vec![1]]);
    }

    #[test]
    fn arithmetic_and_its_errors() {
        let r = rules(
            &["a", "b"],
            &["(min(a, b) * 2 - abs(-3), max(a, b) % 4 + a / 2)"],
        )
        .unwrap();
        assert_eq!(moves(&r, &[5, 7]), vec![vec![7, 5]]);
        let r = rules(&["a"], &["(a / (a - 1))"]).unwrap();
        let e = r.each_move(&[1], &mut |_| {}).unwrap_err();
        assert!(e.contains("moves(1): a division by zero"), "{e}");
        let r = rules(&["a"], &["(a * a)"]).unwrap();
        let e = r.each_move(&[1 << 40], &mut |_| {}).unwrap_err();
        assert!(e.contains("overflowed"), "{e}");
        let r = rules(&["a"], &["for i in 0..a, for j in 0..a: (i)"]).unwrap();
        let e = r.each_move(&[1 << 20], &mut |_| {}).unwrap_err();
        assert!(e.contains("loop steps"), "{e}");
    }

    #[test]
    fn bad_templates_say_what_is_wrong() {
        for (names, t, want) in [
            (
                &["n"][..],
                "for k in 1..n: (n - k, 1)",
                "a component has 1 integers",
            ),
            (
                &["n"],
                "for k in 1..n: (m)",
                "`m` is not a name of the state",
            ),
            (&["n"], "for n in 1..3: (n)", "`n` is bound already"),
            (
                &["n"],
                "for k in 1...n: (k)",
                "'.' is not part of a move template",
            ),
            (&["n"], "(n) (n)", "unexpected"),
            (&["n"], "for k in 1..n (k)", "expected `:`"),
            (&["n"], "(n) $", "is not part of a move template"),
            (&["n", "n"], "(n, n)", "given twice"),
            (&["for"], "(1)", "is not a name"),
        ] {
            let e = rules(names, &[t]).unwrap_err();
            assert!(e.contains(want), "{t}: {e}");
        }
    }
}

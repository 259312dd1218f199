//! `sgcheck solve <problem> [FILE]`: answer a contest input in the original format.

use crate::cli::oracle_limits::OracleLimits;
use crate::cli::EXIT_OK;
use crate::problems::{self, Declared, Problem, Visitor};
use anyhow::{anyhow, bail, Context};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Which engine answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// Closed forms and Sprague–Grundy tables: answers at the contest limits.
    Fast,
    /// Exhaustive minimax: small cases only, exits 2 when a case is too large.
    Oracle,
}

/// Arguments of `sgcheck solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem id (see `sgcheck list`); leave it out with `--problem FILE`.
    pub problem: Option<String>,
    /// Input file; standard input when absent.
    pub file: Option<PathBuf>,
    /// A problem declaration file (TOML) instead of a built-in problem id.
    #[arg(long = "problem", value_name = "FILE")]
    pub declaration: Option<PathBuf>,
    /// Which engine answers.
    #[arg(long, value_enum, default_value_t = Engine::Fast)]
    pub engine: Engine,
    /// Accept values beyond the official limits (the format is still enforced).
    #[arg(long)]
    pub lenient: bool,
    /// Most positions the oracle may explore for one case.
    #[arg(long, default_value_t = sgcheck_oracles::DEFAULT_BUDGET, value_name = "N", value_parser = crate::cli::options::budget)]
    pub budget: usize,
    /// The oracle's time and memory limits (`--engine oracle` only).
    #[command(flatten)]
    pub limits: OracleLimits,
}

struct Solve<'a> {
    input: &'a str,
    args: &'a Args,
}

impl Visitor for Solve<'_> {
    type Output = anyhow::Result<String>;
    fn visit<P: Problem>(self, p: &P) -> anyhow::Result<String> {
        match self.args.engine {
            Engine::Fast => p
                .solve_text(self.input, self.args.lenient)
                .map_err(|e| anyhow!("{e}")),
            Engine::Oracle => {
                let cases = p
                    .parse(self.input, self.args.lenient)
                    .map_err(|e| anyhow!("{e}"))?;
                problems::solve_oracle(p, &cases, self.args.budget)
                    .map_err(|(i, e)| anyhow!("case {}: {e} (use --engine fast)", i + 1))
            }
        }
    }
}

/// Most bytes one number of the largest valid input may take, whitespace included
/// (the largest values have 10 digits; the rest allows for generous spacing).
const BYTES_PER_NUMBER: u64 = 16;
/// Input that is always read, whatever the problem: formats read to the end of input
/// (and `--lenient`) have no official size limit.
const SOLVE_INPUT_FLOOR: u64 = 16 << 20;
/// The most any input may have, even with `--lenient`.
const SOLVE_INPUT_MAX: u64 = 4 << 30;

/// The size past which an input of `p` cannot be valid: its case limit times the
/// numbers of its largest case, `BYTES_PER_NUMBER` each; at least
/// `SOLVE_INPUT_FLOOR` (and `SOLVE_INPUT_MAX` with `--lenient`).
pub fn input_bound<P: Problem>(p: &P, lenient: bool) -> u64 {
    if lenient {
        return SOLVE_INPUT_MAX;
    }
    let numbers = match p.max_numbers_per_case() {
        Some(n) => n,
        None => largest_drawn_case(p),
    };
    (p.max_cases() as u64)
        .saturating_mul(numbers)
        .saturating_mul(BYTES_PER_NUMBER)
        .clamp(SOLVE_INPUT_FLOOR, SOLVE_INPUT_MAX)
}

/// The most numbers among a few cases drawn at the limits, for a problem whose format
/// states no bound.
fn largest_drawn_case<P: Problem>(p: &P) -> u64 {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    (0..4)
        .map(|_| {
            let case = p.generate(&mut rng, 1.0, problems::Shape::Any);
            p.write_input(std::slice::from_ref(&case))
                .split_ascii_whitespace()
                .count() as u64
        })
        .max()
        .unwrap_or(1)
}

/// Reads the whole input, refusing one larger than `limit()` bytes (the rest is never
/// read). The limit is asked for only when the input is longer than
/// `SOLVE_INPUT_FLOOR`, so an ordinary input never pays for computing it. `size` is
/// what the input is expected to hold (a file's length; 0 when unknown): that much
/// room is made at once, up to `SOLVE_INPUT_FLOOR`.
pub(crate) fn read_bounded(
    mut r: impl Read,
    size: u64,
    limit: impl FnOnce() -> u64,
    what: &str,
    problem: &str,
) -> anyhow::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(size.min(SOLVE_INPUT_FLOOR) as usize + 1);
    (&mut r)
        .take(SOLVE_INPUT_FLOOR + 1)
        .read_to_end(&mut buf)
        .with_context(|| format!("reading {what}"))?;
    if buf.len() as u64 <= SOLVE_INPUT_FLOOR {
        return Ok(buf);
    }
    let limit = limit().max(SOLVE_INPUT_FLOOR);
    r.take(limit + 1 - buf.len() as u64)
        .read_to_end(&mut buf)
        .with_context(|| format!("reading {what}"))?;
    if buf.len() as u64 > limit {
        bail!(
            "{what} is larger than any valid {problem} input ({}); stopped reading there",
            crate::audit::runner::format_size(limit)
        );
    }
    Ok(buf)
}

/// The message for bytes that are not valid UTF-8: the byte offset of the first bad
/// byte and its line (1-based).
pub(crate) fn utf8_error(bytes: &[u8], e: std::str::Utf8Error) -> String {
    let (at, line) = problems::utf8_error_place(bytes, e);
    format!("invalid UTF-8 at byte {at} (line {line})")
}

/// The problem a command works on: a built-in id, or a declaration file
/// (`--problem FILE`). Exactly one of the two must be given.
pub fn choose(id: Option<&str>, declaration: Option<&Path>) -> anyhow::Result<Declared> {
    match (id, declaration) {
        (Some(id), None) => problems::builtin(id)
            .cloned()
            .ok_or_else(|| unknown_problem(id)),
        (None, Some(path)) => Declared::from_file(path).map_err(|e| anyhow!("{e}")),
        (Some(id), Some(path)) => bail!(
            "give a problem id ({id:?}) or --problem {}, not both",
            path.display()
        ),
        (None, None) => {
            bail!("no problem: give a problem id (see `sgcheck list`) or --problem FILE")
        }
    }
}

/// Runs `sgcheck solve`.
pub fn run(mut args: Args) -> anyhow::Result<i32> {
    if args.engine == Engine::Oracle {
        args.limits.apply()?;
    }
    // With --problem, the one positional argument is the input file.
    if args.declaration.is_some() && args.file.is_none() {
        args.file = args.problem.take().map(PathBuf::from);
    }
    let problem = choose(args.problem.as_deref(), args.declaration.as_deref())?;
    let id = problem.info().id;
    let limit = || input_bound(&problem, args.lenient);
    let bytes = match &args.file {
        Some(path) => {
            let f =
                std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
            let size = f.metadata().map_or(0, |m| m.len());
            read_bounded(f, size, limit, &path.display().to_string(), id)?
        }
        None => read_bounded(std::io::stdin().lock(), 0, limit, "standard input", id)?,
    };
    // Invalid UTF-8 can only sit inside a token (whitespace is ASCII), so the parser
    // names its line and field; the replacement character marks it.
    let input = match std::str::from_utf8(&bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(&bytes),
    };
    let out = Solve {
        input: &input,
        args: &args,
    }
    .visit(&problem)?;
    out!("{out}");
    Ok(EXIT_OK)
}

/// The error for a problem id that does not exist.
pub fn unknown_problem(id: &str) -> anyhow::Error {
    anyhow!(
        "unknown problem {id:?}; known problems: {}",
        problems::PROBLEM_IDS.join(", ")
    )
}

/// Fails with a usage error unless `id` names a problem.
pub fn require_problem(id: &str) -> anyhow::Result<()> {
    struct Exists;
    impl Visitor for Exists {
        type Output = ();
        fn visit<P: Problem>(self, _: &P) {}
    }
    if problems::with_problem(id, Exists).is_none() {
        bail!(unknown_problem(id));
    }
    Ok(())
}

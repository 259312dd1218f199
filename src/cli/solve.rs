//! `sgcheck solve <problem> [FILE]`: answer a contest input in the original format.

use crate::cli::EXIT_OK;
use crate::problems::{self, Declared, Problem, Visitor};
use anyhow::{anyhow, bail, Context};
use std::io::{Read, Write};
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
    #[arg(long, default_value_t = sgcheck_oracles::DEFAULT_BUDGET)]
    pub budget: usize,
}

struct Solve<'a> {
    input: &'a str,
    args: &'a Args,
}

impl Visitor for Solve<'_> {
    type Output = anyhow::Result<String>;
    fn visit<P: Problem>(self, p: &P) -> anyhow::Result<String> {
        let cases = p
            .parse(self.input, self.args.lenient)
            .map_err(|e| anyhow!("{e}"))?;
        match self.args.engine {
            Engine::Fast => Ok(problems::solve_fast(p, &cases)),
            Engine::Oracle => problems::solve_oracle(p, &cases, self.args.budget)
                .map_err(|(i, e)| anyhow!("case {}: {e} (use --engine fast)", i + 1)),
        }
    }
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
    // With --problem, the one positional argument is the input file.
    if args.declaration.is_some() && args.file.is_none() {
        args.file = args.problem.take().map(PathBuf::from);
    }
    let problem = choose(args.problem.as_deref(), args.declaration.as_deref())?;
    let mut input = String::new();
    match &args.file {
        Some(path) => {
            input = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?
        }
        None => {
            std::io::stdin()
                .read_to_string(&mut input)
                .context("reading standard input")?;
        }
    }
    let out = Solve {
        input: &input,
        args: &args,
    }
    .visit(&problem)?;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(EXIT_OK)
}

/// The error for a problem id that does not exist.
pub fn unknown_problem(id: &str) -> anyhow::Error {
    anyhow!(
        "unknown problem {id:?}; known problems: {}",
        problems::PROBLEM_IDS.join(", ")
    )
}

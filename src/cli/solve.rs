//! `sgcheck solve <problem> [FILE]`: answer a contest input in the original format.

use crate::cli::oracle_limits::OracleLimits;
use crate::cli::EXIT_OK;
use crate::problems::{self, Problem, Visitor};
use anyhow::{anyhow, bail, Context};
use std::io::{Read, Write};
use std::path::PathBuf;

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
    /// Problem id (see `sgcheck list`).
    pub problem: String,
    /// Input file; standard input when absent.
    pub file: Option<PathBuf>,
    /// Which engine answers.
    #[arg(long, value_enum, default_value_t = Engine::Fast)]
    pub engine: Engine,
    /// Accept values beyond the official limits (the format is still enforced).
    #[arg(long)]
    pub lenient: bool,
    /// Most positions the oracle may explore for one case.
    #[arg(long, default_value_t = sgcheck_oracles::DEFAULT_BUDGET)]
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

/// Runs `sgcheck solve`.
pub fn run(args: Args) -> anyhow::Result<i32> {
    if args.engine == Engine::Oracle {
        args.limits.apply()?;
    }
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
    let out = problems::with_problem(
        &args.problem,
        Solve {
            input: &input,
            args: &args,
        },
    )
    .ok_or_else(|| unknown_problem(&args.problem))??;
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

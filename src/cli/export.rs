//! `sgcheck export <problem> --to DIR`: write a declared problem as an ICPC problem
//! package (format 2025-09) with verified tests and a standalone input validator.

use crate::cli::{options, EXIT_OK};
use crate::package::{export, Source};
use std::path::PathBuf;

/// Arguments of `sgcheck export`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Writes problem.yaml, data/sample, data/secret/{smallest,random,limits,traps}, \
data/invalid_input, input_validators/validate.py (exit 42 valid, 43 invalid) and sgcheck/.\n\
Every answer comes from sgcheck's fast solver, cross-checked with the oracle on small cases; \
the validator is run on every test and every malformed input before the export succeeds.\n\
Exit codes: 0 written; 2 a usage error, or an internal check that failed (the message says which).\n\
Example: sgcheck export hdu1527 --to pkg/hdu1527"
)]
pub struct Args {
    /// Problem id (see `sgcheck list`); leave it out with `--problem FILE`.
    pub problem: Option<String>,
    /// A problem declaration file (TOML) instead of a built-in problem id.
    #[arg(long = "problem", value_name = "FILE")]
    pub declaration: Option<PathBuf>,
    /// The package directory (created; must be empty unless --force).
    #[arg(long, value_name = "DIR")]
    pub to: PathBuf,
    /// Replace the files a previous export wrote in DIR (submissions and other files
    /// are kept).
    #[arg(long)]
    pub force: bool,
    /// Seed of the random tests (the same seed writes the same package).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Known answers and malformed inputs (the format of corpus/samples) for a
    /// declared problem; built-in problems use their own.
    #[arg(long, value_name = "FILE")]
    pub samples: Option<PathBuf>,
    /// Time limit written into problem.yaml, in seconds.
    #[arg(long, default_value_t = 2.0, value_name = "SECONDS", value_parser = options::seconds)]
    pub time_limit: f64,
    /// Oracle budget (positions) per case for cross-checking answers; 0 turns it off.
    #[arg(long, default_value_t = crate::audit::DEFAULT_ORACLE_BUDGET, value_name = "N", value_parser = options::budget_or_zero)]
    pub oracle_budget: usize,
}

/// Runs `sgcheck export`.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let src = Source::choose(args.problem.as_deref(), args.declaration.as_deref())?;
    let known = export::known_for(&src, args.samples.as_deref())?;
    let opts = export::Options {
        seed: args.seed,
        oracle_budget: args.oracle_budget,
        time_limit: args.time_limit,
        known,
    };
    let start = std::time::Instant::now();
    let s = export::export(&src, &opts, &args.to, args.force)?;
    outln!(
        "export {}: package written to {}",
        src.problem_id(),
        args.to.display()
    );
    for (group, inputs, cases, bytes) in &s.groups {
        outln!("  data/{group}: {inputs} input(s), {cases} case(s), {bytes} bytes");
    }
    outln!(
        "  answers: fast solver; {} case(s) cross-checked with the oracle, all agree ({} not cross-checked: past its budget or half a second a case, or past 300 a test)",
        s.oracle_checked,
        s.oracle_skipped
    );
    if let Some(first) = &s.first_unanswerable {
        outln!(
            "  {} generated input(s) the declaration could not answer, left out: the first, {first}",
            s.unanswerable
        );
    }
    outln!(
        "  input_validators/validate.py: accepts all {} test inputs, rejects all {} in data/invalid_input",
        s.validator_accepted,
        s.validator_rejected
    );
    if s.output_validator_checked > 0 {
        outln!(
            "  output_validator/validate.py: any winning move is right; on all {} tests it accepts the solver's output and the last winning moves, and rejects a move outside the set",
            s.output_validator_checked
        );
    }
    outln!(
        "  seed {}; {:.1} s",
        args.seed,
        start.elapsed().as_secs_f64()
    );
    Ok(EXIT_OK)
}

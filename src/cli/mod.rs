//! The command line: one module per subcommand. `main.rs` only hands the parsed
//! arguments to [`run`].

use clap::{Parser, Subcommand};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Like `print!`, but a closed or full standard output never panics: the first
/// failed write is remembered ([`stdout_failed`]) and later output is dropped, so the
/// command ends quietly with the exit code its work had (as ripgrep does).
macro_rules! out {
    ($($t:tt)*) => { $crate::cli::write_stdout(format_args!($($t)*)) };
}
/// [`out!`] with a newline.
macro_rules! outln {
    () => { $crate::cli::write_stdout(format_args!("\n")) };
    ($($t:tt)*) => { $crate::cli::write_stdout(format_args!("{}\n", format_args!($($t)*))) };
}
/// Like `eprintln!`, but a closed or full standard error never panics.
macro_rules! errln {
    ($($t:tt)*) => { $crate::cli::write_stderr(format_args!("{}\n", format_args!($($t)*))) };
}

pub mod audit;
pub mod check;
pub mod export;
pub mod list;
pub mod options;
pub mod oracle_limits;
pub mod sequence;
pub mod solve;
pub mod verify;

static STDOUT_FAILED: AtomicBool = AtomicBool::new(false);

/// Writes to standard output unless a write already failed (closed pipe, full disk).
pub fn write_stdout(args: std::fmt::Arguments<'_>) {
    if STDOUT_FAILED.load(Ordering::Relaxed) {
        return;
    }
    let mut o = std::io::stdout().lock();
    if o.write_fmt(args).and_then(|()| o.flush()).is_err() {
        STDOUT_FAILED.store(true, Ordering::Relaxed);
    }
}

/// Whether a write to standard output failed (its reader went away, or it is full).
pub fn stdout_failed() -> bool {
    STDOUT_FAILED.load(Ordering::Relaxed)
}

/// Writes to standard error, ignoring failure (nowhere left to report it).
pub fn write_stderr(args: std::fmt::Arguments<'_>) {
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// Exit code: everything agreed, no failure found.
pub const EXIT_OK: i32 = 0;
/// Exit code: a disagreement or a wrong answer was found.
pub const EXIT_FAILURE: i32 = 1;
/// Exit code: usage or input error.
pub const EXIT_USAGE: i32 = 2;

/// sgcheck proves impartial-game solvers right, or finds the smallest input on which
/// they are wrong.
///
/// Exit codes: 0 all agree / no failure found, 1 a disagreement or wrong answer was
/// found, 2 usage or input error.
#[derive(Debug, Parser)]
#[command(name = "sgcheck", version, about, long_about)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Sweep small and random positions of every game, comparing the fast solvers with
    /// the exhaustive oracle (tier 1: closed form vs SG table; tier 2: fast vs oracle).
    Verify(verify::Args),
    /// Compare the fast solver and the oracle on one position, printing both answers.
    Check(check::Args),
    /// Answer a contest input in the problem's original format.
    Solve(solve::Args),
    /// List every game and problem with its format and limits.
    List(list::Args),
    /// Print or export the Grundy sequence of one heap of a game, with its proven
    /// period.
    Sequence(sequence::Args),
    /// Run a program on many valid inputs of a problem; report the smallest input it
    /// fails on (wrong answer, crash, time or output limit).
    Audit(audit::Args),
    /// Write a problem as an ICPC problem package (2025-09): verified tests, a
    /// standalone input validator, malformed inputs it rejects.
    Export(export::Args),
}

/// `sgcheck solve ...` alone: what [`parse`] builds when the first argument is `solve`,
/// so that answering a contest input does not first build the arguments of every other
/// subcommand (it would take longer than answering a small input).
#[derive(Debug, Parser)]
#[command(name = "sgcheck", version)]
struct SolveOnly {
    #[command(subcommand)]
    command: SolveCommand,
}

#[derive(Debug, Subcommand)]
enum SolveCommand {
    /// Answer a contest input in the problem's original format.
    Solve(solve::Args),
}

/// Parses the process's command line (exits with clap's message and code 2 when it is
/// not valid). `sgcheck solve` is parsed with its own arguments only; its usage,
/// errors and `--help` are the same as through [`Cli`] (a test compares them).
pub fn parse() -> Cli {
    if let Some(args) = plain_solve(std::env::args_os().skip(1)) {
        return Cli {
            command: Command::Solve(args),
        };
    }
    if std::env::args_os().nth(1).is_some_and(|a| a == "solve") {
        let SolveOnly {
            command: SolveCommand::Solve(args),
        } = SolveOnly::parse();
        return Cli {
            command: Command::Solve(args),
        };
    }
    Cli::parse()
}

/// `sgcheck solve ID [FILE]` with nothing else (no option, nothing that starts with
/// `-`), as a contest runner calls it: these arguments and clap's defaults, without
/// building a parser at all. `None` for anything else (a test checks both give the
/// same arguments).
fn plain_solve(mut args: impl Iterator<Item = std::ffi::OsString>) -> Option<solve::Args> {
    if args.next()? != "solve" {
        return None;
    }
    let problem = args.next()?.into_string().ok()?;
    let file = args.next();
    let plain = |a: &std::ffi::OsStr| !a.is_empty() && !a.as_encoded_bytes().starts_with(b"-");
    if args.next().is_some() || !plain(problem.as_ref()) || !file.as_deref().is_none_or(plain) {
        return None;
    }
    Some(solve::Args {
        problem: Some(problem),
        file: file.map(std::path::PathBuf::from),
        declaration: None,
        engine: solve::Engine::Fast,
        lenient: false,
        budget: sgcheck_oracles::DEFAULT_BUDGET,
        limits: oracle_limits::OracleLimits {
            time: oracle_limits::DEFAULT_SECONDS,
            memory: None,
        },
    })
}

/// The whole `sgcheck` command line, as the `sgcheck` binary runs it: parses the
/// process's arguments, runs the command and returns the exit code (a panic is
/// reported and ends with 101, as from Rust's `main`). A binary of your own that
/// [`crate::registry::register`]s its games calls this from `main`:
/// `std::process::exit(sgcheck::cli::main())`.
pub fn main() -> i32 {
    // SAFETY: setting a signal's disposition to SIG_IGN has no preconditions. A closed
    // standard output is then a write error, which the commands handle quietly.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    crate::shell::set_program_from_args();
    std::panic::catch_unwind(|| run(parse())).unwrap_or(101)
}

/// Runs a parsed command line and returns the process exit code.
pub fn run(cli: Cli) -> i32 {
    let result = match cli.command {
        Command::Verify(a) => verify::run(a),
        Command::Check(a) => check::run(a),
        Command::Solve(a) => solve::run(a),
        Command::List(a) => list::run(a),
        Command::Sequence(a) => sequence::run(a),
        Command::Audit(a) => audit::run(a),
        Command::Export(a) => export::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            errln!("error: {e:#}");
            EXIT_USAGE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// `sgcheck solve` parsed alone reads the same arguments, prints the same help and
    /// the same errors as through the whole command line.
    #[test]
    fn solve_alone_is_solve_through_the_whole_command_line() {
        let mut whole = Cli::command();
        let mut alone = SolveOnly::command();
        whole.build();
        alone.build();
        let help = |c: &mut clap::Command| {
            let solve = c.find_subcommand_mut("solve").expect("solve");
            (
                solve.render_long_help().to_string(),
                solve.render_usage().to_string(),
            )
        };
        assert_eq!(help(&mut whole), help(&mut alone));
        assert!(help(&mut alone).0.contains("--engine"));
        let lines: &[&[&str]] = &[
            &["sgcheck", "solve", "hdu1846", "in.txt"],
            &[
                "sgcheck",
                "solve",
                "--problem",
                "p.toml",
                "in.txt",
                "--lenient",
            ],
            &[
                "sgcheck", "solve", "hdu1846", "--engine", "oracle", "--budget", "99",
            ],
            &["sgcheck", "solve", "--bogus"],
            &["sgcheck", "solve", "hdu1846", "--engine", "slow"],
            &["sgcheck", "solve", "--help"],
            &["sgcheck", "solve", "a", "b", "c"],
        ];
        for line in lines {
            let through = Cli::try_parse_from(*line).map(|c| format!("{:?}", c.command));
            let direct = SolveOnly::try_parse_from(*line).map(|c| {
                let SolveCommand::Solve(args) = c.command;
                format!("{:?}", Command::Solve(args))
            });
            match (through, direct) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{line:?}"),
                (Err(a), Err(b)) => {
                    assert_eq!(a.kind(), b.kind(), "{line:?}");
                    assert_eq!(a.to_string(), b.to_string(), "{line:?}");
                }
                (a, b) => panic!("{line:?}: {a:?} against {b:?}"),
            }
        }
    }

    /// `sgcheck solve ID [FILE]` read without clap gives what clap reads; anything
    /// else is left to clap.
    #[test]
    fn plain_solve_is_what_clap_reads() {
        let plain: &[&[&str]] = &[
            &["sgcheck", "solve", "hdu1846"],
            &["sgcheck", "solve", "hdu1846", "in.txt"],
            &["sgcheck", "solve", "p2197", "/tmp/a b/in put.txt"],
            &["sgcheck", "solve", "nosuch", "x"],
        ];
        for line in plain {
            let args = line[1..].iter().map(std::ffi::OsString::from);
            let fast = plain_solve(args).expect("plain");
            let clap = Cli::try_parse_from(*line).expect("parses").command;
            assert_eq!(format!("{:?}", Command::Solve(fast)), format!("{clap:?}"));
        }
        let other: &[&[&str]] = &[
            &["sgcheck", "solve"],
            &["sgcheck", "solve", "hdu1846", "in.txt", "extra"],
            &["sgcheck", "solve", "hdu1846", "--lenient"],
            &["sgcheck", "solve", "--problem", "p.toml"],
            &["sgcheck", "solve", "hdu1846", "-"],
            &["sgcheck", "solve", "-h"],
            &["sgcheck", "verify", "x"],
            &["sgcheck", "solve", ""],
        ];
        for line in other {
            let args = line[1..].iter().map(std::ffi::OsString::from);
            assert!(plain_solve(args).is_none(), "{line:?}");
        }
    }
}

//! `sgcheck verify`: the tiered differential sweep over every game.

use crate::cli::{options, EXIT_FAILURE, EXIT_OK, EXIT_USAGE};
use crate::verify::{progress_bar, GameReport, Report, Shard, Sweep, TierReport, SWEEP_BUDGET};
use anyhow::bail;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `sgcheck verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only this game (repeatable); all games by default.
    #[arg(long = "game", value_name = "ID")]
    pub games: Vec<String>,
    /// Seed of the random phase; a fresh one is drawn and printed when absent.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Total wall-time budget in seconds, shared evenly by the selected games.
    #[arg(long, default_value_t = 50.0, value_name = "SECONDS", value_parser = options::seconds)]
    pub time: f64,
    /// Most positions the oracle may explore for one instance.
    #[arg(long, default_value_t = SWEEP_BUDGET, value_name = "N", value_parser = options::budget)]
    pub budget: usize,
    /// Print the report as JSON (see the book, docs/src/verify.md, for the fields).
    #[arg(long)]
    pub json: bool,
    /// Never show a progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// A problem declaration file (TOML): tier 3 checks this problem (instead of the
    /// built-in ones) and the sweep covers its game, unless `--game` says otherwise; a
    /// game the declaration defines (a `[game]` table) gets tiers 1 and 2 from it.
    #[arg(long = "problem", value_name = "FILE")]
    pub declaration: Option<PathBuf>,
    /// Run part K of N (from 0): every tier's instances are numbered in one fixed
    /// order and this run checks those numbered K modulo N; tier 1 of the i-th game
    /// runs in shard i modulo N. N runs with the same seed check what one run does.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Stop the smallest-first enumerations after this total size (makes a run, and
    /// its shards, independent of the machine's speed together with --random-batches).
    #[arg(long, value_name = "SIZE")]
    pub max_size: Option<u32>,
    /// Stop the random phases after this many batches (2048 positions in tier 2, 256
    /// cases in tier 3).
    #[arg(long, value_name = "N")]
    pub random_batches: Option<u64>,
}

/// A declaration read under watch: read, refused, or the reading did not return or
/// panicked (a game's reader of rules is the fast side's code too).
enum Loaded {
    Read(Box<crate::problems::Declared>),
    Failed(crate::problems::DeclarationError),
    Stuck(String),
}

/// Reads the declaration at `path` on a thread of its own, waiting at most `bound`
/// seconds: a reader of rules that never returns or panics is reported like any check
/// that does (the thread left behind ends with the process).
fn load_watched(path: &std::path::Path, bound: f64) -> Loaded {
    let (tx, rx) = std::sync::mpsc::channel();
    let owned = path.to_path_buf();
    let spawned = std::thread::Builder::new()
        .name("declaration".into())
        .spawn(move || {
            let _ = tx.send(crate::problems::Declared::from_file(&owned));
        });
    if let Err(e) = spawned {
        return Loaded::Stuck(format!("the declaration could not be read: {e}"));
    }
    match rx.recv_timeout(Duration::from_secs_f64(bound)) {
        Ok(Ok(d)) => Loaded::Read(Box::new(d)),
        Ok(Err(e)) => Loaded::Failed(e),
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Loaded::Stuck(format!(
            "no answer within {bound:.1} s: reading the declaration (its rules) did not \
             return (a hang)"
        )),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Loaded::Stuck(
            "panicked: reading the declaration (its rules) panicked (its message is above)".into(),
        ),
    }
}

/// The report of a declaration whose reading is the fast side's fault: rules that the
/// game's fast side refuses while the oracle's reader accepts them, a reader that did
/// not return or panicked, or a closed form that disagrees with the mex table on the
/// box checked when it is read. One disagreement (exit 1), before any tier ran.
fn load_disagreement(
    args: &Args,
    path: &std::path::Path,
    game: String,
    rules: String,
    fast: String,
) -> anyhow::Result<i32> {
    let seed = args.seed.unwrap_or_else(rand::random);
    let mut tier = TierReport::empty(1);
    tier.checked = 1;
    tier.disagreements = 1;
    tier.note = Some("the declaration's rules were read, no position compared".into());
    tier.first_disagreement = Some(crate::verify::Disagreement {
        rules,
        position: "(none: the rules alone)".into(),
        fast,
        oracle: "read the rules".into(),
        reproduce: format!(
            "{} verify --problem {}",
            crate::shell::program(),
            crate::shell::path_of(path)
        ),
    });
    let report = Report {
        seed,
        games: vec![GameReport {
            game,
            tiers: vec![tier],
            seconds: 0.0,
        }],
        disagreements: 1,
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        out!("{}", crate::verify::render_table(&report, Shard::ALL));
    }
    Ok(EXIT_FAILURE)
}

/// The games without a sweep of their own (no tiers 1 and 2) that built-in problems
/// play (hdu3980's paint chain): verify runs tier 3 on their problems.
fn problem_only_ids() -> impl Iterator<Item = &'static str> {
    crate::registry::all()
        .into_iter()
        .filter(|g| !g.has_subject())
        .map(|g| g.id())
        .filter(|id| crate::problems::all_info().iter().any(|i| i.game == *id))
}

fn parse_shard(s: &str) -> Result<Shard, String> {
    s.parse()
}

/// What the error of a declaration whose closed form (`value`, `wins`) disagrees with
/// the mex table on its `check_states` box says.
const CLOSED_FORM_DISAGREES: &str = ", but the mex of its moves is ";

/// Runs `sgcheck verify`.
pub fn run(args: Args) -> anyhow::Result<i32> {
    use crate::problems::Problem;
    let declared = match &args.declaration {
        Some(path) => match load_watched(path, args.time.max(5.0)) {
            Loaded::Read(d) => Some(*d),
            Loaded::Failed(e) => match e.fast_side_refused.clone() {
                Some(game) => {
                    let line = format!("line {} of {}", e.line, crate::shell::path_of(path));
                    return load_disagreement(&args, path, game, line, format!("refused: {e}"));
                }
                // A closed form that disagrees with the mex table on its checked box
                // (`value(7) = 2, but the mex of its moves is 1`): the fast side and the
                // table disagree before any tier ran.
                None if e.to_string().contains(CLOSED_FORM_DISAGREES) => {
                    let line = format!("line {} of {}", e.line, crate::shell::path_of(path));
                    return load_disagreement(&args, path, "scripted".into(), line, e.to_string());
                }
                None => bail!("{e}"),
            },
            Loaded::Stuck(fast) => {
                return load_disagreement(&args, path, "declaration".into(), "-".into(), fast);
            }
        },
        None => None,
    };
    let ids: Vec<String> = match (&declared, args.games.is_empty()) {
        (Some(d), true) => vec![d.info().game.to_string()],
        (_, true) => crate::registry::verify_ids()
            .chain(problem_only_ids())
            .map(str::to_string)
            .collect(),
        (_, false) => args.games.clone(),
    };
    for id in &ids {
        let declared_game = declared.as_ref().is_some_and(|d| d.info().game == id);
        let known = crate::registry::game(id).is_some_and(|g| g.has_subject())
            || problem_only_ids().any(|p| p == id);
        if !known && !declared_game {
            bail!(
                "unknown game {id:?}; known games: {}",
                crate::registry::verify_ids()
                    .chain(problem_only_ids())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    let seed = args.seed.unwrap_or_else(rand::random);
    let shard = args.shard.unwrap_or(Shard::ALL);
    if !args.json {
        let part = if shard.count > 1 {
            format!(", shard {}/{}", shard.index, shard.count)
        } else {
            String::new()
        };
        outln!(
            "verify: seed {seed}, {} game(s), {:.0} s budget{part}",
            ids.len(),
            args.time
        );
    }
    // `--time` is a wall-time budget for the whole run: each game gets an equal share
    // of what is left when it starts (a game that ends early or late moves the others'
    // shares), 97% of the budget in all, so that the run with its report ends within
    // it. Of a game's share, 85% goes to tiers 1 and 2 and the rest to tier 3 (its
    // problems' formatted answers against the oracle).
    let run_until = std::time::Instant::now() + Duration::from_secs_f64(args.time * 0.97);
    let slot = args.time / ids.len() as f64;
    let sweep = Sweep {
        seed,
        time: Duration::from_secs_f64(slot * 0.85),
        budget: args.budget,
        shard,
        max_size: args.max_size,
        random_batches: args.random_batches,
        ..Sweep::default()
    };
    let sweep3 = Sweep {
        time: Duration::from_secs_f64(slot * 0.15),
        ..sweep.clone()
    };
    let pb = progress_bar(ids.len() as u64, !args.no_progress && !args.json);
    let declared = declared.map(std::sync::Arc::new);
    // A check that runs longer than the game's whole share of the budget (and at
    // least 5 s) does not return: it is reported as a hang.
    let hang_after = Duration::from_secs_f64(slot.max(5.0));
    // An oracle query slower than half of that is cut short and counted as skipped:
    // the watchdog must only ever see a fast solver that does not return, never an
    // oracle still searching.
    sgcheck_oracles::set_query_time_limit(Some(hang_after / 2));
    let mut reports: Vec<GameReport> = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let left = run_until.saturating_duration_since(std::time::Instant::now());
        let share = left.div_f64((ids.len() - i) as f64);
        let sweep = Sweep {
            tier1: shard.owns(i as u64),
            hang_after,
            time: share.mul_f64(0.85),
            ..sweep.clone()
        };
        let sweep3 = Sweep {
            time: share.mul_f64(0.15),
            ..sweep3.clone()
        };
        let work = {
            let id = id.clone();
            let pb = pb.clone();
            let declared = declared.clone();
            let path = args.declaration.clone();
            let sweep3 = sweep3.clone();
            move |sweep: Sweep| {
                // A game declared by the problem's [game] table has no sweep of its own:
                // its tiers 1 and 2 come from the declared rules.
                let own = declared.as_deref().filter(|d| d.info().game == id);
                let mut r = match (crate::registry::verify_game(&id, &sweep, &pb), own) {
                    (Some(r), _) => r,
                    (None, Some(d)) => {
                        crate::problems::verify_declared_game(d, path.as_deref(), &sweep, &pb)
                    }
                    (None, None) => GameReport {
                        game: id.clone(),
                        tiers: Vec::new(),
                        seconds: 0.0,
                    },
                };
                pb.set_message(format!("{id}: tier 3"));
                let sweep3 = Sweep {
                    watch: sweep.watch.clone(),
                    ..sweep3
                };
                let tier3 = match declared.as_deref() {
                    Some(d) if d.info().game == id => {
                        let mut t3 = crate::problems::verify_problem(d, &sweep3);
                        if let (Some(dis), Some(path)) = (&mut t3.first_disagreement, &path) {
                            // The reproducing command names the declaration file.
                            dis.reproduce = dis.reproduce.replacen(
                                &format!("{} solve {}", crate::shell::program(), d.info().id),
                                &format!(
                                    "{} solve --problem {}",
                                    crate::shell::program(),
                                    crate::shell::path_of(path)
                                ),
                                1,
                            );
                        }
                        Some(t3)
                    }
                    _ => crate::problems::verify_problems_of(&id, &sweep3),
                };
                if let Some(t3) = tier3 {
                    r.seconds += t3.seconds;
                    r.tiers.push(t3);
                }
                r
            }
        };
        let own_sweep = crate::registry::game(id).is_some_and(|g| g.has_subject());
        let reproduce = match &args.declaration {
            Some(path) if !own_sweep => format!(
                "{} verify --problem {} --seed {seed}",
                crate::shell::program(),
                crate::shell::path_of(path)
            ),
            _ => format!(
                "{} verify --game {} --seed {seed}",
                crate::shell::program(),
                crate::shell::quote(id)
            ),
        };
        // No oracle query runs past the game's share of the budget: `--time` is a
        // wall-time budget (a query cut short counts as skipped).
        sgcheck_oracles::set_deadline(Some(share));
        reports.push(crate::verify::verify_guarded(id, &sweep, reproduce, work));
    }
    sgcheck_oracles::set_deadline(None);
    pb.finish_and_clear();
    let disagreements = reports
        .iter()
        .flat_map(|g| &g.tiers)
        .map(|t| t.disagreements)
        .sum();
    let report = Report {
        seed,
        games: reports,
        disagreements,
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        out!("{}", crate::verify::render_table(&report, shard));
    }
    match crate::verify::exit_code(&report, shard) {
        0 => Ok(EXIT_OK),
        1 => Ok(EXIT_FAILURE),
        _ => {
            // A tier that compared nothing proves nothing: the run does not pass.
            errln!(
                "error: nothing was checked in {} (raise --time, now {} s, or --budget, now {})",
                crate::verify::not_checked(&report, shard).join(", "),
                args.time,
                args.budget
            );
            Ok(EXIT_USAGE)
        }
    }
}

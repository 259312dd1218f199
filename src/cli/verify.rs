//! `sgcheck verify`: the tiered differential sweep over every game.

use crate::cli::{options, EXIT_FAILURE, EXIT_OK, EXIT_USAGE};
use crate::games;
use crate::verify::{progress_bar, GameReport, Report, Sweep, SWEEP_BUDGET};
use anyhow::{anyhow, bail};
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
    /// Print the report as JSON (see README for the fields).
    #[arg(long)]
    pub json: bool,
    /// Never show a progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// A problem declaration file (TOML): tier 3 checks this problem (instead of the
    /// built-in ones) and the sweep covers its game, unless `--game` says otherwise.
    #[arg(long = "problem", value_name = "FILE")]
    pub declaration: Option<PathBuf>,
}

/// Runs `sgcheck verify`.
pub fn run(args: Args) -> anyhow::Result<i32> {
    use crate::problems::Problem;
    let declared = match &args.declaration {
        Some(path) => Some(crate::problems::Declared::from_file(path).map_err(|e| anyhow!("{e}"))?),
        None => None,
    };
    let ids: Vec<String> = match (&declared, args.games.is_empty()) {
        (Some(d), true) => vec![d.info().game.to_string()],
        (_, true) => games::GAME_IDS.iter().map(|s| s.to_string()).collect(),
        (_, false) => args.games.clone(),
    };
    for id in &ids {
        let declared_game = declared.as_ref().is_some_and(|d| d.info().game == id);
        if !games::GAME_IDS.contains(&id.as_str()) && !declared_game {
            bail!(
                "unknown game {id:?}; known games: {}",
                games::GAME_IDS.join(", ")
            );
        }
    }
    let seed = args.seed.unwrap_or_else(rand::random);
    if !args.json {
        outln!(
            "verify: seed {seed}, {} game(s), {:.0} s budget",
            ids.len(),
            args.time
        );
    }
    // Each game's share of the budget: 85% for tiers 1 and 2, the rest for tier 3 (its
    // problems' formatted answers against the oracle).
    let slot = args.time / ids.len() as f64;
    let sweep = Sweep {
        seed,
        time: Duration::from_secs_f64(slot * 0.85),
        budget: args.budget,
        ..Sweep::default()
    };
    let sweep3 = Sweep {
        time: Duration::from_secs_f64(slot * 0.15),
        ..sweep.clone()
    };
    let pb = progress_bar(ids.len() as u64, !args.no_progress && !args.json);
    let mut reports: Vec<GameReport> = Vec::new();
    for id in &ids {
        // A game that is declarable but has no sweep of its own gets tier 3 only.
        let mut r = games::verify_game(id, &sweep, &pb).unwrap_or_else(|| GameReport {
            game: id.clone(),
            tiers: Vec::new(),
            seconds: 0.0,
        });
        pb.set_message(format!("{id}: tier 3"));
        let tier3 = match &declared {
            Some(d) if d.info().game == id => {
                let mut t3 = crate::verify::verify_problem(d, &sweep3);
                if let (Some(dis), Some(path)) = (&mut t3.first_disagreement, &args.declaration) {
                    // The reproducing command names the declaration file.
                    dis.reproduce = dis.reproduce.replacen(
                        &format!("sgcheck solve {}", d.info().id),
                        &format!(
                            "sgcheck solve --problem {}",
                            crate::fuzzing::shell_quote(&path.display().to_string())
                        ),
                        1,
                    );
                }
                Some(t3)
            }
            _ => crate::verify::verify_problems_of(id, &sweep3),
        };
        if let Some(t3) = tier3 {
            r.seconds += t3.seconds;
            r.tiers.push(t3);
        }
        reports.push(r);
    }
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
        print_table(&report);
    }
    if disagreements > 0 {
        return Ok(EXIT_FAILURE);
    }
    // A tier that compared nothing proves nothing: the run does not pass.
    let empty: Vec<String> = report
        .games
        .iter()
        .flat_map(|g| {
            g.tiers
                .iter()
                .filter(|t| t.agreements + t.disagreements == 0)
                .map(move |t| format!("{} tier {}", g.game, t.tier))
        })
        .collect();
    if !empty.is_empty() {
        errln!(
            "error: nothing was checked in {} (raise --time, now {} s, or --budget, now {})",
            empty.join(", "),
            args.time,
            args.budget
        );
        return Ok(EXIT_USAGE);
    }
    Ok(EXIT_OK)
}

fn print_table(report: &Report) {
    outln!(
        "{:<14} {:>4} {:>12} {:>12} {:>8} {:>8} {:>12}",
        "game",
        "tier",
        "checked",
        "agree",
        "disagree",
        "skipped",
        "per second"
    );
    for g in &report.games {
        for t in &g.tiers {
            outln!(
                "{:<14} {:>4} {:>12} {:>12} {:>8} {:>8} {:>12.0}",
                g.game,
                t.tier,
                t.checked,
                t.agreements,
                t.disagreements,
                t.skipped,
                t.per_second
            );
        }
    }
    for g in &report.games {
        for t in &g.tiers {
            if let Some(d) = &t.first_disagreement {
                outln!();
                outln!("DISAGREEMENT in {} tier {}:", g.game, t.tier);
                if d.rules != "-" {
                    outln!("  rules:    {}", d.rules);
                }
                outln!("  position: {}", d.position);
                outln!("  fast:     {}", d.fast);
                outln!("  oracle:   {}", d.oracle);
                outln!("  reproduce: {}", d.reproduce);
            }
        }
    }
    if report.disagreements == 0 {
        outln!("\nall agree (seed {})", report.seed);
    } else {
        outln!(
            "\n{} disagreement(s) (seed {})",
            report.disagreements,
            report.seed
        );
    }
}

//! The report of a run: what was not checked, the exit code, and the text table.

use super::*;

/// The tiers of a run that compared nothing, as `game tier N` (a game's tier 1 that
/// another shard runs is not this run's to check, and a tier with nothing to compare,
/// [`TierReport::not_applicable`], is not counted). A run with any of them does not
/// pass.
pub fn not_checked(report: &Report, shard: Shard) -> Vec<String> {
    report
        .games
        .iter()
        .enumerate()
        .flat_map(|(i, g)| {
            let mut empty: Vec<String> = g
                .tiers
                .iter()
                .filter(move |t| t.tier != 1 || shard.owns(i as u64))
                .filter(|t| t.not_applicable.is_none())
                .filter(|t| t.agreements + t.disagreements == 0)
                .map(|t| format!("{} tier {}", g.game, t.tier))
                .collect();
            if g.tiers.is_empty() {
                empty.push(format!("{} (no tier ran)", g.game));
            }
            empty
        })
        .collect()
}

/// How many positions or cases of a run a declaration failed on (see
/// [`TierReport::declaration_failures`]).
pub fn declaration_failures(report: &Report) -> u64 {
    report
        .games
        .iter()
        .flat_map(|g| &g.tiers)
        .map(|t| t.declaration_failures)
        .sum()
}

/// The exit code of a run: 1 when some comparison disagreed (or tier 3's generator
/// made a case with invalid rules, or a declaration failed at some position), 2 when
/// some tier checked nothing (see [`not_checked`]), 0 when everything agreed.
pub fn exit_code(report: &Report, shard: Shard) -> i32 {
    let generator_failures: u64 = report
        .games
        .iter()
        .flat_map(|g| &g.tiers)
        .map(|t| t.generator_failures)
        .sum();
    if report.disagreements > 0 || generator_failures > 0 || declaration_failures(report) > 0 {
        1
    } else if !not_checked(report, shard).is_empty() {
        2
    } else {
        0
    }
}

/// The text report of `verify`: one row per game and tier, the disagreements, and the
/// verdict, decided once every tier is in: `all agree` only when every tier compared
/// something and nothing disagreed; a tier that compared nothing says NOT CHECKED.
///
/// ```
/// use sgcheck::verify::{render_table, GameReport, Report, Shard, TierReport};
/// let report = Report { seed: 7, games: vec![GameReport { game: "nim".into(), tiers: vec![TierReport::empty(2)], seconds: 0.0 }], disagreements: 0 };
/// let text = render_table(&report, Shard::ALL);
/// assert!(text.contains("NOT CHECKED") && !text.contains("all agree"), "{text}");
/// ```
pub fn render_table(report: &Report, shard: Shard) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let empty = not_checked(report, shard);
    let _ = writeln!(
        out,
        "{:<14} {:>4} {:>12} {:>12} {:>8} {:>8} {:>12}  exhaustive",
        "game", "tier", "checked", "agree", "disagree", "skipped", "per second"
    );
    for (i, g) in report.games.iter().enumerate() {
        for t in &g.tiers {
            if let Some(why) = &t.not_applicable {
                let _ = writeln!(
                    out,
                    "{:<14} {:>4} {:>12} {:>12} {:>8} {:>8} {:>12}  not applicable: {why}",
                    g.game, t.tier, "-", "-", "-", "-", "-"
                );
                continue;
            }
            let mut label = t.exhaustive_label();
            let owned = t.tier != 1 || shard.owns(i as u64);
            if owned && t.agreements + t.disagreements == 0 {
                label = "NOT CHECKED".to_string();
            }
            if let Some(note) = &t.note {
                if !label.is_empty() {
                    label.push_str("; ");
                }
                label.push_str(note);
            }
            let _ = writeln!(
                out,
                "{:<14} {:>4} {:>12} {:>12} {:>8} {:>8} {:>12.0}  {}",
                g.game,
                t.tier,
                t.checked,
                t.agreements,
                t.disagreements,
                t.skipped,
                t.per_second,
                label
            );
        }
        if g.tiers.is_empty() {
            let _ = writeln!(out, "{:<14}    -  NOT CHECKED (no tier ran)", g.game);
        }
    }
    for g in &report.games {
        for t in &g.tiers {
            if let Some(d) = &t.first_disagreement {
                let _ = writeln!(out);
                let _ = writeln!(out, "DISAGREEMENT in {} tier {}:", g.game, t.tier);
                if d.rules != "-" {
                    let _ = writeln!(out, "  rules:    {}", d.rules);
                }
                let _ = writeln!(out, "  position: {}", d.position);
                let _ = writeln!(out, "  fast:     {}", d.fast);
                let _ = writeln!(out, "  oracle:   {}", d.oracle);
                let _ = writeln!(out, "  reproduce: {}", d.reproduce);
            }
        }
    }
    for g in &report.games {
        for t in &g.tiers {
            if let Some(f) = &t.first_declaration_failure {
                let _ = writeln!(out);
                let _ = writeln!(
                    out,
                    "DECLARATION FAILED in {} tier {} ({} position(s) or case(s)), the first:",
                    g.game, t.tier, t.declaration_failures
                );
                let _ = writeln!(out, "  {f}");
            }
        }
    }
    if report.disagreements > 0 {
        let _ = writeln!(
            out,
            "\n{} disagreement(s) (seed {})",
            report.disagreements, report.seed
        );
    }
    let generator_failures: u64 = report
        .games
        .iter()
        .flat_map(|g| &g.tiers)
        .map(|t| t.generator_failures)
        .sum();
    if generator_failures > 0 {
        let _ = writeln!(
            out,
            "\n{generator_failures} generated case(s) with invalid rules: the generator failed \
             (seed {})",
            report.seed
        );
    }
    if !empty.is_empty() {
        let _ = writeln!(
            out,
            "\nNOT CHECKED: nothing was compared in {} (seed {})",
            empty.join(", "),
            report.seed
        );
    } else if report.disagreements == 0
        && generator_failures == 0
        && declaration_failures(report) == 0
    {
        let _ = writeln!(out, "\nall agree (seed {})", report.seed);
    }
    out
}

/// The whole report of one game's run through the display and the exit code of
/// `verify`, as the command line shows them: the report, its text table and its exit
/// code. Tests of planted bugs go through this to show a finding reaches all three.
pub fn report_of_game(game: GameReport, seed: u64) -> (Report, String, i32) {
    let disagreements = game.tiers.iter().map(|t| t.disagreements).sum();
    let report = Report {
        seed,
        games: vec![game],
        disagreements,
    };
    let text = render_table(&report, Shard::ALL);
    let code = exit_code(&report, Shard::ALL);
    (report, text, code)
}

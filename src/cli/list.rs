//! `sgcheck list`: every game and problem, with formats and limits.

use crate::cli::EXIT_OK;
use crate::problems;
use crate::registry;

/// Arguments of `sgcheck list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print a JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `sgcheck list`.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let listed = || registry::all().into_iter().filter(|g| g.has_subject());
    let games: Vec<_> = listed()
        .map(|g| serde_json::json!({"id": g.id(), "rules": g.summary()}))
        .collect();
    let probs = problems::all_info();
    if args.json {
        let v = serde_json::json!({"games": games, "problems": probs});
        outln!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(EXIT_OK);
    }
    outln!("Games (sgcheck verify --game ID, sgcheck check ID POSITION):");
    for g in listed() {
        outln!("  {:<14} {}", g.id(), g.summary());
    }
    outln!();
    outln!("Problems (sgcheck solve ID, sgcheck audit ID -- COMMAND):");
    for p in probs {
        let alias = if p.aliases.is_empty() {
            String::new()
        } else {
            format!(" (alias {})", p.aliases.join(", "))
        };
        outln!("  {}{alias}: {} [game {}]", p.id, p.title, p.game);
        outln!("      input:  {}", p.input);
        outln!("      output: {}", p.output);
        outln!("      limits: {}", p.limits);
        outln!("      declared in: {}", p.source);
    }
    Ok(EXIT_OK)
}

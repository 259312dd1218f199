//! `sgcheck list`: every game and problem, with formats and limits.

use crate::cli::EXIT_OK;
use crate::games;
use crate::problems;

/// Arguments of `sgcheck list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print a JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `sgcheck list`.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let games: Vec<_> = games::GAMES
        .iter()
        .map(|(id, about)| serde_json::json!({"id": id, "rules": about}))
        .collect();
    let probs = problems::all_info();
    if args.json {
        let v = serde_json::json!({"games": games, "problems": probs});
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(EXIT_OK);
    }
    println!("Games (sgcheck verify --game ID, sgcheck check ID POSITION):");
    for (id, about) in games::GAMES {
        println!("  {id:<14} {about}");
    }
    println!();
    println!("Problems (sgcheck solve ID, sgcheck audit ID -- COMMAND):");
    for p in probs {
        let alias = if p.aliases.is_empty() {
            String::new()
        } else {
            format!(" (alias {})", p.aliases.join(", "))
        };
        println!("  {}{alias}: {} [game {}]", p.id, p.title, p.game);
        println!("      input:  {}", p.input);
        println!("      output: {}", p.output);
        println!("      limits: {}", p.limits);
        println!("      declared in: {}", p.source);
    }
    Ok(EXIT_OK)
}

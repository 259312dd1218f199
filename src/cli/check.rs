//! `sgcheck check <game> <position>`: one position, both engines, side by side.

use crate::cli::oracle_limits::OracleLimits;
use crate::cli::{EXIT_FAILURE, EXIT_OK};
use anyhow::{anyhow, bail};

/// Arguments of `sgcheck check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Game id (see `sgcheck list`).
    pub game: String,
    /// Position in compact notation, e.g. `3,4,5` (pile games), `1,0,1,5` (split
    /// bottles), `7@0` (following-nim, forced to move in pile 0), `5/3,4/2`
    /// (heap-ranges: records, columns joined by `/`).
    pub position: String,
    /// The game's parameters: `m=3` (bash), `p=2,q=4` (take-range), `1,2,3,5`
    /// (subtraction set, following-nim specials); `-` for games without any.
    #[arg(long)]
    pub rules: Option<String>,
    /// Most positions the oracle may explore.
    #[arg(long, default_value_t = sgcheck_oracles::DEFAULT_BUDGET, value_name = "N", value_parser = crate::cli::options::budget)]
    pub budget: usize,
    /// Print a JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// The oracle's time and memory limits.
    #[command(flatten)]
    pub limits: OracleLimits,
}

/// Runs `sgcheck check`.
pub fn run(args: Args) -> anyhow::Result<i32> {
    args.limits.apply()?;
    // Games declared by their rules (heap games, tokens on a graph) have no registry
    // subject: their rules text is the whole game.
    let declared = match args.game.as_str() {
        "heap-code" => Some(crate::games::heap_code::check_text(
            args.rules.as_deref(),
            &args.position,
            args.budget,
        )),
        "heap-ranges" => Some(crate::games::heap_ranges::check_text(
            args.rules.as_deref(),
            &args.position,
            args.budget,
        )),
        "scripted" => Some(crate::games::scripted::check_text(
            args.rules.as_deref(),
            &args.position,
            args.budget,
        )),
        "dag-tokens" => Some(crate::games::dag_tokens::check_text(
            args.rules.as_deref(),
            &args.position,
            args.budget,
        )),
        _ => None,
    };
    let outcome = declared
        .or_else(|| {
            crate::registry::check_game(
                &args.game,
                args.rules.as_deref(),
                &args.position,
                args.budget,
            )
        })
        .ok_or_else(|| {
            anyhow!(
                "unknown game {:?}; known games: {}",
                args.game,
                crate::registry::verify_ids().collect::<Vec<_>>().join(", ")
            )
        })?;
    let outcome = match outcome {
        Ok(o) => o,
        Err(e) => bail!("{e}"),
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&outcome)?);
    } else {
        outln!("fast:   {}", outcome.fast);
        outln!("oracle: {}", outcome.oracle);
        if let Some(r) = outcome.remoteness {
            outln!("remoteness: {r} plies");
        }
        outln!("{}", if outcome.agree { "agree" } else { "DISAGREE" });
    }
    Ok(if outcome.agree { EXIT_OK } else { EXIT_FAILURE })
}

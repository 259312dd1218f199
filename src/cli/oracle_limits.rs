//! The oracle's limits on the command line (`check`, `solve --engine oracle`): wall
//! time and memory, on top of the position budget. Past either the command exits 2
//! with a message saying which limit was reached.

use anyhow::bail;
use std::time::Duration;

/// The oracle's wall-time limit when `--time` is not given, in seconds.
pub const DEFAULT_SECONDS: f64 = 10.0;

/// The oracle's time and memory limits.
#[derive(Debug, Clone, clap::Args)]
pub struct OracleLimits {
    /// Wall-time limit of the oracle in seconds, for the whole command; past it the
    /// command stops with exit code 2.
    #[arg(long, default_value_t = DEFAULT_SECONDS, value_name = "SECONDS", value_parser = crate::cli::options::seconds)]
    pub time: f64,
    /// Memory limit of the oracle's tables and search stack: bytes, or with K, M, G
    /// (default: a sixteenth of the machine's memory, between 256M and 1G).
    #[arg(long, value_name = "SIZE", value_parser = crate::cli::options::size)]
    pub memory: Option<u64>,
}

impl OracleLimits {
    /// Validates the limits and sets them for every solver the command builds.
    pub fn apply(&self) -> anyhow::Result<()> {
        let memory = match self.memory {
            Some(bytes) if bytes < 1 << 20 => {
                bail!("--memory must be at least 1M, got {bytes} bytes")
            }
            Some(bytes) => Some(usize::try_from(bytes).unwrap_or(usize::MAX)),
            None => None,
        };
        sgcheck_oracles::set_memory_limit(memory);
        sgcheck_oracles::set_deadline(Some(Duration::from_secs_f64(self.time)));
        Ok(())
    }
}

//! The oracle's limits on the command line (`check`, `solve --engine oracle`): wall
//! time and memory, on top of the position budget. Past either the command exits 2
//! with a message saying which limit was reached.

use anyhow::bail;
use std::time::Duration;

/// Most seconds `--time` accepts (a day).
const MAX_SECONDS: f64 = 86_400.0;

/// The oracle's time and memory limits.
#[derive(Debug, Clone, clap::Args)]
pub struct OracleLimits {
    /// Wall-time limit of the oracle in seconds, for the whole command; past it the
    /// command stops with exit code 2.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    pub time: f64,
    /// Memory limit of the oracle's tables and search stack: bytes, or with K, M, G
    /// (default: a sixteenth of the machine's memory, between 256M and 1G).
    #[arg(long, value_name = "SIZE")]
    pub memory: Option<String>,
}

impl OracleLimits {
    /// Validates the limits and sets them for every solver the command builds.
    pub fn apply(&self) -> anyhow::Result<()> {
        if !(self.time.is_finite() && self.time > 0.0 && self.time <= MAX_SECONDS) {
            bail!(
                "--time must be a number of seconds in (0, {MAX_SECONDS}], got {}",
                self.time
            );
        }
        let memory = match &self.memory {
            Some(s) => {
                let bytes = parse_memory(s)?;
                if bytes < 1 << 20 {
                    bail!("--memory must be at least 1M, got {s:?}");
                }
                Some(bytes)
            }
            None => None,
        };
        sgcheck_oracles::set_memory_limit(memory);
        sgcheck_oracles::set_deadline(Some(Duration::from_secs_f64(self.time)));
        Ok(())
    }
}

/// Reads `512M`, `2G`, `1048576`: bytes, or with a K, M or G suffix (powers of 1024).
fn parse_memory(s: &str) -> anyhow::Result<usize> {
    let t = s.trim();
    let (digits, shift) = match t.as_bytes().last().map(u8::to_ascii_uppercase) {
        Some(b'K') => (&t[..t.len() - 1], 10),
        Some(b'M') => (&t[..t.len() - 1], 20),
        Some(b'G') => (&t[..t.len() - 1], 30),
        _ => (t, 0),
    };
    let short: String = s.chars().take(32).collect();
    let n: u64 = digits
        .parse()
        .map_err(|_| anyhow::anyhow!("--memory {short:?}: expected a size like 512M or 2G"))?;
    n.checked_mul(1 << shift)
        .and_then(|b| usize::try_from(b).ok())
        .ok_or_else(|| anyhow::anyhow!("--memory {short:?} is too large"))
}

//! Parsers shared by every command for durations, sizes and counts, so that the same
//! value is accepted or refused with the same message everywhere, before any work.

/// Longest duration any option accepts: one week.
pub const MAX_SECONDS: f64 = 7.0 * 24.0 * 3600.0;
/// Shortest duration any option accepts: one millisecond.
pub const MIN_SECONDS: f64 = 0.001;
/// Most programs an audit runs at once.
pub const MAX_JOBS: usize = 256;
/// Largest size any option accepts: 1 TiB.
pub const MAX_SIZE: u64 = 1 << 40;
/// Largest count (`--cases`, budgets) any option accepts.
pub const MAX_COUNT: u64 = 1 << 48;

/// A duration in seconds (`2`, `0.5`, `1e-3`), within [`MIN_SECONDS`]..=[`MAX_SECONDS`].
pub fn seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s.trim().parse().map_err(|_| {
        format!(
            "expected a number of seconds like 2 or 0.5, found {}",
            quote(s)
        )
    })?;
    if !v.is_finite() || v <= 0.0 {
        return Err(format!(
            "expected a positive number of seconds, found {}",
            quote(s)
        ));
    }
    if v < MIN_SECONDS {
        return Err(format!(
            "{} is shorter than the shortest allowed, {MIN_SECONDS} s",
            quote(s)
        ));
    }
    if v > MAX_SECONDS {
        return Err(format!(
            "{} is longer than the longest allowed, {MAX_SECONDS} s (one week)",
            quote(s)
        ));
    }
    Ok(v)
}

/// A size in bytes: `1000`, `512K`, `16M`, `1G` (suffixes are powers of 1024; a
/// trailing `B` or `iB` is allowed), positive and at most [`MAX_SIZE`].
pub fn size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let upper = t.to_ascii_uppercase();
    let body = upper
        .strip_suffix("IB")
        .or_else(|| upper.strip_suffix('B'))
        .unwrap_or(&upper);
    let (digits, mult) = match body.chars().last() {
        Some('K') => (&body[..body.len() - 1], 1u64 << 10),
        Some('M') => (&body[..body.len() - 1], 1 << 20),
        Some('G') => (&body[..body.len() - 1], 1 << 30),
        Some('T') => (&body[..body.len() - 1], 1 << 40),
        Some(c) if c.is_ascii_alphabetic() => {
            return Err(format!("unknown unit in {} (use K, M or G)", quote(s)))
        }
        _ => (body, 1),
    };
    let digits = digits.trim();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "expected a size like 16M or 1000, found {}",
            quote(s)
        ));
    }
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{} is out of range (at most 1T)", quote(s)))?;
    let v = n
        .checked_mul(mult)
        .filter(|&v| v <= MAX_SIZE)
        .ok_or_else(|| format!("{} is out of range (at most 1T)", quote(s)))?;
    if v == 0 {
        return Err("expected a positive size, found 0".to_string());
    }
    Ok(v)
}

/// A count of at least 1 and at most [`MAX_COUNT`].
pub fn count(s: &str) -> Result<u64, String> {
    count_from(s, 1)
}

/// A count of at least 0 (0 switches the feature off) and at most [`MAX_COUNT`].
pub fn count_or_zero(s: &str) -> Result<u64, String> {
    count_from(s, 0)
}

fn count_from(s: &str, min: u64) -> Result<u64, String> {
    let t = s.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("expected a whole number, found {}", quote(s)));
    }
    let v: u64 = t
        .parse()
        .ok()
        .filter(|&v| v <= MAX_COUNT)
        .ok_or_else(|| format!("{} is out of range (at most {MAX_COUNT})", quote(s)))?;
    if v < min {
        return Err(format!("expected at least {min}, found {v}"));
    }
    Ok(v)
}

/// A count as `usize` (budgets).
pub fn budget(s: &str) -> Result<usize, String> {
    count(s).map(|v| v as usize)
}

/// A budget where 0 switches the feature off.
pub fn budget_or_zero(s: &str) -> Result<usize, String> {
    count_or_zero(s).map(|v| v as usize)
}

/// `--jobs`: 1..=[`MAX_JOBS`].
pub fn jobs(s: &str) -> Result<usize, String> {
    let v = count(s)?;
    if v > MAX_JOBS as u64 {
        return Err(format!(
            "{v} is more than {MAX_JOBS}, the most programs an audit runs at once \
             (the machine has {} cores)",
            std::thread::available_parallelism().map_or(1, |n| n.get())
        ));
    }
    Ok(v as usize)
}

/// `--process-limit`: 1..=4096.
pub fn processes(s: &str) -> Result<usize, String> {
    let v = count(s)?;
    if v > 4096 {
        return Err(format!("{v} is more than 4096 processes"));
    }
    Ok(v as usize)
}

/// At most a few dozen characters of a user's value, for messages.
pub fn quote(s: &str) -> String {
    const KEEP: usize = 32;
    if s.chars().count() <= KEEP {
        format!("{s:?}")
    } else {
        let head: String = s.chars().take(KEEP).collect();
        format!("{head:?}... ({} bytes)", s.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_checked_alike() {
        assert_eq!(seconds("2"), Ok(2.0));
        assert_eq!(seconds("0.5"), Ok(0.5));
        for bad in [
            "0",
            "-1",
            "1e30",
            "99999999999999999999",
            "nan",
            "inf",
            "1e-9",
            "x",
            "",
        ] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(size("16M"), Ok(16 << 20));
        assert_eq!(size("512k"), Ok(512 << 10));
        assert_eq!(size("256MiB"), Ok(256 << 20));
        assert_eq!(size("1000"), Ok(1000));
        assert_eq!(size("1G"), Ok(1 << 30));
        for bad in [
            "x",
            "0",
            "5Q",
            "99999999999999999999G",
            "2T",
            "-1",
            "1.5M",
            "",
        ] {
            assert!(size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn counts_and_jobs() {
        assert_eq!(count("3"), Ok(3));
        assert!(count("0").is_err());
        assert_eq!(count_or_zero("0"), Ok(0));
        assert!(count("18446744073709551616").is_err());
        assert!(count("-2").is_err());
        assert_eq!(jobs("4"), Ok(4));
        let e = jobs("100000").unwrap_err();
        assert!(e.contains("256"), "{e}");
    }

    #[test]
    fn quotes_are_short() {
        let long = "7".repeat(50_000_000 / 1000);
        let q = quote(&long);
        assert!(q.len() < 60, "{q}");
        assert!(q.contains("50000 bytes"), "{q}");
    }
}

//! `sgcheck sequence`: print or export a game's Grundy sequence of one heap, with its
//! proven period, for comparison with your own tables.

use crate::cli::{EXIT_OK, EXIT_USAGE};
use crate::games::take_break::{compute, Breaks, Method, Period};
use crate::games::{lasker, simple_nim, subtraction};
use anyhow::Context;
use serde::Serialize;
use sgcheck_oracles::games::octal::Octal;
use sgcheck_oracles::games::subtraction::Subtraction;
use std::io::Write;
use std::time::{Duration, Instant};

/// The largest `--count` accepted: 2^24 values, about 300 MB while computing and
/// writing (4 bytes each in the table, 8 in the report, plus the text). Octal codes
/// with a period and subtraction sets reach it in a few seconds (Kayles: about 3 s),
/// the closed forms at once; codes with no period found stop at `--time`.
pub const MAX_COUNT: usize = 1 << 24;

/// The largest `--count` for Grundy's game, which has no known period: its
/// rare/common table grows about quadratically (10^5 values in about 2 s, 2^18 in
/// about 25 s on a busy 2-core machine); `--time` bounds what a run may spend below
/// this.
pub const MAX_GRUNDY_COUNT: usize = 1 << 18;

/// The largest `--count` for a scripted game whose positions are made from two numbers:
/// count × count values (2^24, as [`MAX_COUNT`]).
pub const MAX_PAIR_COUNT: usize = 1 << 12;

/// The default `--time`, seconds.
pub const DEFAULT_TIME: f64 = 60.0;

/// Arguments of `sgcheck sequence`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game: octal, grundy, simple-nim, subtraction, lasker or heap-code (a heap
    /// game by its rules text: `0.137`, `4.[3]`, `0.F`, `subtract 1,3,4`, `range 2..5`,
    /// `split-unequal`), scripted (a game declared by a script), or dag-tokens (the
    /// value of one token on each vertex of a graph, every vertex whatever `--count`).
    pub game: String,
    /// The game's rules: the code for octal (`0.77`), the set for subtraction (`2,3,5`),
    /// the rules text for heap-code, a declaration or script file for scripted, the graph
    /// for dag-tokens (`4;1>2,2>3,1>3`: n, then the edges u>v; or a file holding it).
    #[arg(long)]
    pub rules: Option<String>,
    /// How many values: g(0) .. g(count - 1).
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// How the table is computed: `sparse` (the rare/common method where the game
    /// splits heaps; plain mex otherwise) or `plain` (mex over every option).
    #[arg(long, default_value = "sparse")]
    pub method: String,
    /// Print a JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write to this file instead of standard output.
    #[arg(long, short)]
    pub output: Option<std::path::PathBuf>,
    /// The most wall time the computation may take, in seconds; past it sgcheck stops
    /// with exit code 2 and prints nothing.
    #[arg(long, default_value_t = DEFAULT_TIME, value_name = "SECONDS", value_parser = crate::cli::options::seconds)]
    pub time: f64,
    /// No progress line on a terminal.
    #[arg(long)]
    pub no_progress: bool,
}

/// A period of the sequence and how it is known.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PeriodReport {
    /// The smallest n from which the values repeat.
    pub preperiod: u64,
    /// The smallest period.
    pub period: u64,
    /// The largest n below the preperiod (an exception), if any.
    pub last_exception: Option<u64>,
    /// Why the period holds for every n.
    pub proof: String,
}

/// The JSON document of `sgcheck sequence --json`.
#[derive(Clone, Debug, Serialize)]
pub struct SequenceReport {
    /// The game id.
    pub game: String,
    /// The rules in compact notation.
    pub rules: String,
    /// Number of values.
    pub count: usize,
    /// The heap size (or vertex) of the first value: 0 for heap games, 1 for the
    /// vertices of a graph.
    pub first: u64,
    /// g(first) .. g(first + count - 1); for positions made from two numbers (see
    /// `columns`), g(x, y) for x, y in first..first + count, x major.
    pub values: Vec<u64>,
    /// For positions made from two numbers x and y (two-row Chomp, a heap and its
    /// limit): how many values each x has (`count`), g(x, y) being
    /// `values[(x - first) * columns + (y - first)]`. Absent for one number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub columns: Option<usize>,
    /// The proven period, when there is one within reach.
    pub period: Option<PeriodReport>,
    /// How the values were obtained.
    pub method: String,
    /// Values computed by mex (the rest follow from the period or a closed form).
    pub by_mex: usize,
    /// Wall time of the computation.
    pub seconds: f64,
}

fn theorem(p: Period, t: usize) -> PeriodReport {
    PeriodReport {
        preperiod: p.preperiod as u64,
        period: p.period as u64,
        last_exception: p.last_exception().map(|e| e as u64),
        proof: format!(
            "octal periodicity theorem: g(n + {}) = g(n) checked for {} <= n < {} \
             (2e + p + t with t = {t})",
            p.period,
            p.preperiod.max(1),
            2 * p.preperiod.max(1) + p.period + t
        ),
    }
}

/// Computes the sequence of `game`; `Err` is a usage error.
pub fn sequence(
    game: &str,
    rules: Option<&str>,
    count: usize,
    method: Method,
) -> Result<SequenceReport, String> {
    if count > MAX_COUNT {
        return Err(format!("--count {count}: at most {MAX_COUNT}"));
    }
    let start = Instant::now();
    let no_rules = |g: &str| match rules.map(str::trim) {
        None | Some("") | Some("-") => Ok("-".to_string()),
        Some(r) => Err(format!(
            "{g} has no rules; got --rules {}",
            crate::cli::options::quote(r)
        )),
    };
    let method_name = |breaks: &Breaks| match method {
        Method::Sparse if breaks.splits() => "rare/common (sparse space) mex table",
        _ => "plain mex table",
    };
    let mut report = match game {
        "octal" => {
            let r = rules.ok_or("octal needs --rules, the code (e.g. 0.77)")?;
            let code: Octal = r.parse().map_err(|e| format!("--rules: {e}"))?;
            let b = Breaks::Octal(code.digits().to_vec());
            let c = compute(&b, count, method, true);
            let mut values: Vec<u64> = c.values.iter().map(|&v| u64::from(v)).collect();
            values.truncate(count);
            SequenceReport {
                game: game.into(),
                rules: code.to_string(),
                count,
                first: 0,
                columns: None,
                values,
                period: c.period.map(|p| theorem(p, code.digits().len())),
                method: match c.period {
                    Some(_) => format!("{}, then the proven period", method_name(&b)),
                    None => method_name(&b).to_string(),
                },
                by_mex: c.by_mex.min(count),
                seconds: 0.0,
            }
        }
        "grundy" => {
            let r = no_rules(game)?;
            if count > MAX_GRUNDY_COUNT {
                return Err(format!(
                    "--count {count}: at most {MAX_GRUNDY_COUNT} for grundy (no period is \
                     known; its table grows about quadratically)"
                ));
            }
            let c = compute(&Breaks::Grundy, count, method, true);
            SequenceReport {
                game: game.into(),
                rules: r,
                count,
                first: 0,
                columns: None,
                values: c.values.iter().take(count).map(|&v| u64::from(v)).collect(),
                period: None,
                method: method_name(&Breaks::Grundy).to_string(),
                by_mex: c.by_mex.min(count),
                seconds: 0.0,
            }
        }
        "simple-nim" | "lasker" => {
            let r = no_rules(game)?;
            let f = if game == "lasker" {
                lasker::pile_value
            } else {
                simple_nim::heap_value
            };
            SequenceReport {
                game: game.into(),
                rules: r,
                count,
                first: 0,
                columns: None,
                values: (0..count as u64).map(f).collect(),
                period: None,
                method: "closed form (checked against the mex table by verify)".into(),
                by_mex: 0,
                seconds: 0.0,
            }
        }
        "heap-code" => heap_code(
            rules.ok_or(
                "heap-code needs --rules, the rules text (e.g. 0.137, 4.[3], subtract 1,3,4)",
            )?,
            count,
        )?,
        "scripted" => scripted(
            rules.ok_or(
                "scripted needs --rules FILE: a declaration with [game] script, or a script",
            )?,
            count,
        )?,
        "dag-tokens" => dag_tokens(rules.ok_or(
            "dag-tokens needs --rules, the graph (e.g. 4;1>2,2>3,1>3), or a file holding it",
        )?)?,
        "subtraction" => {
            let r = rules.ok_or("subtraction needs --rules, the set (e.g. 2,3,5)")?;
            let set: Subtraction = r.parse().map_err(|e| format!("--rules: {e}"))?;
            let s = subtraction::SubtractionSolver::new(&set).map_err(|e| e.to_string())?;
            let k = *set.set().last().expect("a set is never empty");
            SequenceReport {
                game: game.into(),
                rules: set.to_string(),
                count,
                first: 0,
                columns: None,
                values: (0..count as u64).map(|n| s.grundy(n)).collect(),
                period: Some(PeriodReport {
                    preperiod: s.preperiod(),
                    period: s.period(),
                    last_exception: s.preperiod().checked_sub(1),
                    proof: format!(
                        "a window of {k} values (the largest amount) repeats, and each value \
                         depends only on the {k} before it"
                    ),
                }),
                method: "mex table until the period is proven".into(),
                by_mex: (s.preperiod() + s.period()) as usize,
                seconds: 0.0,
            }
        }
        _ => {
            return Err(format!(
                "no sequence for game {}; one of: octal, grundy, simple-nim, subtraction, \
                 lasker, heap-code, scripted, dag-tokens",
                crate::cli::options::quote(game)
            ))
        }
    };
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// The sequence of a heap game declared by its rules (`heap-code`): the mex table up to
/// the bound sized from the rules, extended by a period only when the periodicity
/// theorem proves it.
fn heap_code(text: &str, count: usize) -> Result<SequenceReport, String> {
    use crate::games::heap_code::HeapRules;
    let r = HeapRules::parse(text).map_err(|e| format!("--rules: {e}"))?;
    if r.misere() {
        return Err(
            "--rules: misère play has no Grundy sequence (its positions are answered \
                    by exhaustive search)"
                .into(),
        );
    }
    let crate::games::heap_code::Sequence {
        values,
        period,
        by_mex,
        sparse,
    } = r.sequence(count)?;
    let table = if sparse {
        "plain mex table, then rare/common (sparse space)"
    } else {
        "plain mex table"
    };
    Ok(SequenceReport {
        game: "heap-code".into(),
        rules: r.text().to_string(),
        count,
        first: 0,
        columns: None,
        values,
        period: period.map(|p| PeriodReport {
            preperiod: p.preperiod as u64,
            period: p.period as u64,
            last_exception: p.last_exception().map(|e| e as u64),
            proof: r.proof(p),
        }),
        method: match period {
            Some(_) => format!("{table}, then the proven period"),
            None => format!("{table} (no period proven)"),
        },
        by_mex,
        seconds: 0.0,
    })
}

/// The sequence of a scripted game's one-integer components `(n)` (or, for a script
/// with `position`, of the position one number makes): the mex table, or the
/// author's closed form checked against it. The check runs on the declaration's
/// `check_states` box when that box is of one-integer states (the box `solve` checks),
/// else on the first values (at most 4096).
fn scripted(path: &str, count: usize) -> Result<SequenceReport, String> {
    use crate::games::scripted::{rules_of_file, ScriptRules};
    let file = rules_of_file(path)?;
    let (text, check) = (&file.script, &file.check);
    if file.misere {
        return Err(
            "--rules: misère play has no Grundy sequence (its positions are \
                    answered by exhaustive search)"
                .into(),
        );
    }
    // A script with `position`: the value of the position one number n makes (a heap
    // with no history yet, `(n, 0)`), or two numbers x and y make (two-row Chomp), the
    // components' values XOR'd; the mex table holds what the positions reach.
    let declared = check
        .as_ref()
        .map(|(lo, hi)| (lo.as_slice(), hi.as_slice()));
    let r = ScriptRules::new(text, false, declared).map_err(|e| format!("--rules {path}: {e}"))?;
    if r.has_position() {
        let fields = file.position_fields;
        if fields > 2 {
            return Err(format!(
                "--rules {path}: a case's position is made from {fields} fields; sequence \
                 prints the values of positions made from one number or two"
            ));
        }
        if fields == 2 && count > MAX_PAIR_COUNT {
            return Err(format!(
                "--count {count}: at most {MAX_PAIR_COUNT} for positions made from two \
                 numbers (count × count values)"
            ));
        }
        let shown = if fields == 2 { "[x, y]" } else { "[n]" };
        // The i-th position's numbers: (x, y) = (i / count, i % count), or n = i.
        let total = if fields == 2 { count * count } else { count };
        let values = (0..total as u64)
            .map(|i| {
                let pair = [i / count.max(1) as u64, i % count.max(1) as u64];
                let p: &[u64] = if fields == 2 {
                    &pair
                } else {
                    std::slice::from_ref(&i)
                };
                let comps = r.components(p)?;
                comps
                    .iter()
                    .try_fold(0u64, |x, c| Ok::<_, String>(x ^ r.grundy(c)?))
                    .map_err(|e| format!("position({p:?}): {e}"))
            })
            .collect::<Result<Vec<u64>, String>>()
            .map_err(|e| {
                format!(
                    "--rules {path}: {e} (the sequence is of the positions `position` makes \
                     from {})",
                    if fields == 2 {
                        "two numbers x and y"
                    } else {
                        "one number n"
                    }
                )
            })?;
        return Ok(SequenceReport {
            game: "scripted".into(),
            rules: path.to_string(),
            count,
            first: 0,
            columns: (fields == 2).then_some(count),
            by_mex: if r.has_value() { 0 } else { values.len() },
            values,
            period: None,
            method: format!("{}, of the position `position({shown})`", r.source()),
            seconds: 0.0,
        });
    }
    let top = count.clamp(1, 4096) as i64 - 1;
    let first = [0i64];
    let last = [top];
    let mut checked = (&first[..], &last[..]);
    if let Some((lo, hi)) = &check {
        if lo.len() == 1 && hi.len() == 1 {
            checked = (lo, hi);
        }
    }
    let mut r =
        ScriptRules::new(text, false, Some(checked)).map_err(|e| format!("--rules {path}: {e}"))?;
    if !r.has_value() && checked.1 != last {
        // No closed form: the values are the mex table, built to the count.
        checked = (&first[..], &last[..]);
        r = ScriptRules::new(text, false, Some(checked))
            .map_err(|e| format!("--rules {path}: {e}"))?;
    }
    let values = (0..count as i64)
        .map(|n| r.grundy(&[n]))
        .collect::<Result<Vec<u64>, String>>()?;
    Ok(SequenceReport {
        game: "scripted".into(),
        rules: path.to_string(),
        count,
        first: 0,
        columns: None,
        values,
        period: None,
        method: r.source(),
        by_mex: if r.has_value() {
            (checked.1[0] - checked.0[0] + 1).max(0) as usize
        } else {
            count
        },
        seconds: 0.0,
    })
}

/// The most bytes of a graph file given to `--rules` (the compact notation of a graph
/// of 10^5 vertices and 10^5 edges is about 1.5 MB).
pub const MAX_GRAPH_FILE: u64 = 1 << 24;

/// The values of the vertices 1..=n of a graph (`n;u>v,...`, or a file holding that
/// text): one token's Grundy value on each vertex.
fn dag_tokens(rules: &str) -> Result<SequenceReport, String> {
    use crate::games::dag_tokens::DagValues;
    use sgcheck_oracles::games::dag_tokens::DagTokens;
    use std::io::Read;
    let path = std::path::Path::new(rules);
    let text = if !rules.contains(';') && path.is_file() {
        let mut text = String::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_GRAPH_FILE + 1).read_to_string(&mut text))
            .map_err(|e| format!("--rules {rules}: {e}"))?;
        if text.len() as u64 > MAX_GRAPH_FILE {
            return Err(format!("--rules {rules}: more than {MAX_GRAPH_FILE} bytes"));
        }
        text
    } else {
        rules.to_string()
    };
    let graph: DagTokens = text.trim().parse().map_err(|e| format!("--rules: {e}"))?;
    let n = graph.vertices();
    let values = DagValues::new(n, graph.edges())
        .ok_or("--rules: the graph has a cycle (the oracle's reader let it through)")?;
    Ok(SequenceReport {
        game: "dag-tokens".into(),
        rules: if text.len() > 200 {
            format!("{n} vertices, {} edges", graph.edges().len())
        } else {
            graph.to_string()
        },
        count: n,
        first: 1,
        columns: None,
        values: (1..=n as u64).map(|v| values.value(v)).collect(),
        period: None,
        method: "mex over each vertex's successors, in reverse topological order".into(),
        by_mex: n,
        seconds: 0.0,
    })
}

/// The text form: `#` lines describing the sequence, then `n g(n)` per line.
pub fn write_text(r: &SequenceReport, out: &mut impl Write) -> std::io::Result<()> {
    if let Some(columns) = r.columns {
        return write_pairs(r, columns, out);
    }
    writeln!(
        out,
        "# game {} rules {}: g({}..{})",
        r.game,
        r.rules,
        r.first,
        r.first + r.count as u64
    )?;
    writeln!(out, "# method: {} ({} values by mex)", r.method, r.by_mex)?;
    match &r.period {
        Some(p) => {
            let last = p
                .last_exception
                .map_or("none".to_string(), |e| e.to_string());
            writeln!(
                out,
                "# period {} from {} (last exception {last}); {}",
                p.period, p.preperiod, p.proof
            )?;
        }
        None if r.first == 0 => writeln!(out, "# no period proven")?,
        None => {}
    }
    let mut buf = String::with_capacity(r.values.len() * 8);
    for (n, v) in r.values.iter().enumerate() {
        use std::fmt::Write as _;
        let _ = writeln!(buf, "{} {v}", r.first + n as u64);
    }
    out.write_all(buf.as_bytes())
}

/// The text form of the values of positions made from two numbers: `#` lines, then
/// `x y g(x, y)` per line, x major.
fn write_pairs(r: &SequenceReport, columns: usize, out: &mut impl Write) -> std::io::Result<()> {
    let end = r.first + r.count as u64;
    writeln!(
        out,
        "# game {} rules {}: g(x, y) for x, y in {}..{end}",
        r.game, r.rules, r.first
    )?;
    writeln!(out, "# method: {} ({} values by mex)", r.method, r.by_mex)?;
    let mut buf = String::with_capacity(r.values.len() * 10);
    for (i, v) in r.values.iter().enumerate() {
        use std::fmt::Write as _;
        let (x, y) = (i / columns.max(1), i % columns.max(1));
        let _ = writeln!(buf, "{} {} {v}", r.first + x as u64, r.first + y as u64);
    }
    out.write_all(buf.as_bytes())
}

/// Runs `sgcheck sequence`.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let method = match args.method.as_str() {
        "sparse" => Method::Sparse,
        "plain" => Method::Plain,
        m => {
            eprintln!(
                "error: --method {}: expected sparse or plain",
                crate::cli::options::quote(m)
            );
            return Ok(EXIT_USAGE);
        }
    };
    // The computation runs on a worker thread; this one waits at most --time, showing
    // progress on a terminal. Past the deadline the process exits, abandoning it.
    let (tx, rx) = std::sync::mpsc::channel();
    let (game, rules, count) = (args.game.clone(), args.rules.clone(), args.count);
    std::thread::Builder::new()
        .name("sequence".into())
        .spawn(move || {
            let _ = tx.send(sequence(&game, rules.as_deref(), count, method));
        })
        .context("starting the computation")?;
    let progress = progress_bar(!args.no_progress, args.count);
    let limit = Duration::from_secs_f64(args.time);
    let result = rx.recv_timeout(limit);
    progress.finish_and_clear();
    let report = match result {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => {
            eprintln!("error: {e}");
            return Ok(EXIT_USAGE);
        }
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            eprintln!(
                "error: g(0..{}) of {} was not computed within --time {} s; lower --count \
                 or raise --time",
                args.count,
                crate::cli::options::quote(&args.game),
                args.time
            );
            return Ok(EXIT_USAGE);
        }
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            anyhow::bail!("the computation ended without a result")
        }
    };
    let write = |out: &mut dyn Write| -> std::io::Result<()> {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
        if args.json {
            serde_json::to_writer(&mut out, &report)?;
            out.write_all(b"\n")?;
        } else {
            write_text(&report, &mut out)?;
        }
        out.flush()
    };
    match &args.output {
        Some(path) => {
            let mut bytes = Vec::new();
            write(&mut bytes)?;
            crate::cli::audit::write_safely(path, &bytes)?;
        }
        None => {
            // A closed pipe (`| head`) ends the output quietly.
            let _ = write(&mut std::io::stdout().lock());
        }
    }
    Ok(EXIT_OK)
}

fn progress_bar(enabled: bool, count: usize) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !enabled || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::new_spinner();
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{spinner} [{elapsed_precise}] sequence {msg}")
    {
        pb.set_style(style);
    }
    pb.set_message(format!("computing g(0..{count})"));
    pb.enable_steady_tick(Duration::from_millis(120));
    pb
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kayles_sequence_and_period() {
        let r = sequence("octal", Some("0.77"), 1000, Method::Sparse).unwrap();
        assert_eq!(r.values.len(), 1000);
        assert_eq!(&r.values[..12], &[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
        let p = r.period.clone().unwrap();
        assert_eq!(
            (p.preperiod, p.period, p.last_exception),
            (71, 12, Some(70))
        );
        let mut text = Vec::new();
        write_text(&r, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.contains("# period 12 from 71 (last exception 70)"),
            "{text}"
        );
        assert!(text.contains("\n999 "));
    }

    #[test]
    fn other_games_and_errors() {
        let r = sequence("grundy", None, 10, Method::Plain).unwrap();
        assert_eq!(r.values, [0, 0, 0, 1, 0, 2, 1, 0, 2, 1]);
        let r = sequence("simple-nim", Some("-"), 9, Method::Sparse).unwrap();
        assert_eq!(r.values, [0, 1, 2, 3, 4, 5, 6, 8, 7]);
        let r = sequence("subtraction", Some("2,3,5"), 8, Method::Sparse).unwrap();
        assert_eq!(r.period.unwrap().period, 7);
        assert!(sequence("octal", None, 10, Method::Sparse).is_err());
        assert!(sequence("octal", Some("0.8"), 10, Method::Sparse).is_err());
        assert!(sequence("grundy", Some("3"), 10, Method::Sparse).is_err());
        assert!(sequence("chess", None, 10, Method::Sparse).is_err());
        assert!(sequence("grundy", None, MAX_COUNT + 1, Method::Sparse).is_err());
        assert!(sequence("grundy", None, MAX_GRUNDY_COUNT + 1, Method::Sparse).is_err());
        assert!(sequence("octal", Some("0.77"), MAX_COUNT + 1, Method::Sparse).is_err());
        assert_eq!(
            sequence("octal", Some("0.77"), 0, Method::Sparse)
                .unwrap()
                .values
                .len(),
            0
        );
    }
}

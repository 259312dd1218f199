//! `sgcheck export`: a declared problem as an ICPC problem package (2025-09).
//!
//! Layout written:
//!
//! ```text
//! problem.yaml
//! data/sample/NN.in, .ans            statement samples (known answers named sample*)
//! data/secret/smallest/NN.in, .ans   every tiny case, smallest first
//! data/secret/random/NN.in, .ans     random cases at growing sizes
//! data/secret/limits/NN.in, .ans     the largest cases, the most cases, edge values
//! data/secret/traps/NN.in, .ans      known hard cases and the generators' traps
//! data/invalid_input/NN.in           malformed inputs the validator must reject
//! input_validators/validate.py       standalone validator, exit 42 / 43
//! sgcheck/problem.toml               the declaration
//! sgcheck/export.toml                problem id, seed: what regenerates the tests
//! ```
//!
//! Every `.ans` is the fast solver's answer; each case small enough is also answered
//! by the exhaustive oracle, and the two must agree. Known outputs (samples, traps)
//! are never copied: they must equal the solver's answer, or the export fails.

use super::samples::{self, Known};
use super::validator::{self, Verdict};
use super::Source;
use crate::audit::source::mix;
use crate::problems::{solve_fast, Case, Declared, Problem, Shape};
use anyhow::{anyhow, bail, Context};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The test groups of `data/secret` that export writes, in order.
pub const GROUPS: &[&str] = &["smallest", "random", "limits", "traps"];
/// The group `audit --package --add-tests` writes.
pub const FOUND_GROUP: &str = "sgcheck";

/// Largest input written (bytes), unless a single case is larger.
const MAX_INPUT_BYTES: usize = 4 << 20;
/// Largest input of the smallest and random groups.
const SMALL_INPUT_BYTES: usize = 256 << 10;
/// Largest input of the random group at scales from 0.5.
const RANDOM_INPUT_BYTES: usize = 1 << 20;
/// Inputs of the smallest group, at most.
const SMALLEST_INPUTS: usize = 6;
/// Inputs of the random group.
const RANDOM_INPUTS: usize = 10;
/// Cases of one random input, at most.
const RANDOM_CASES: usize = 200;
/// A case is answered by the oracle too when its input is at most this long.
const ORACLE_CASE_BYTES: usize = 400;
/// Most cases of one input answered by the oracle too.
const ORACLE_CASES_PER_INPUT: usize = 300;
/// Most trap positions put in one input.
const TRAP_CASES: usize = 2000;

/// How to export.
#[derive(Clone, Debug)]
pub struct Options {
    /// Seed of the random tests.
    pub seed: u64,
    /// Oracle budget (positions) per case for the cross-check; 0 turns it off.
    pub oracle_budget: usize,
    /// Time limit written into `problem.yaml`, in seconds.
    pub time_limit: f64,
    /// Known answers (samples, traps, malformed inputs).
    pub known: Known,
}

/// One test: its group (`sample`, `secret/<group>`, `invalid_input`), its input.
#[derive(Clone, Debug)]
pub struct Test {
    /// `sample`, `secret/smallest`, ...
    pub group: String,
    /// The input.
    pub input: String,
    /// What it is (for the log).
    pub what: String,
}

/// What an export did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// (group, inputs, cases, bytes).
    pub groups: Vec<(String, usize, usize, usize)>,
    /// Cases answered by the oracle too, all agreeing.
    pub oracle_checked: usize,
    /// Cases the oracle could not answer within its budget.
    pub oracle_skipped: usize,
    /// Generated inputs left out because the problem could not answer one of their
    /// cases (its declaration failed or refused it), and the first one's reason.
    pub unanswerable: usize,
    /// Why the first was left out.
    pub first_unanswerable: Option<String>,
    /// Inputs the validator accepted (every test).
    pub validator_accepted: usize,
    /// Malformed inputs the validator rejected (all of them).
    pub validator_rejected: usize,
    /// Tests on which the output validator (answers that are sets) accepted the
    /// solver's output and another winning move, and rejected a move outside the set.
    pub output_validator_checked: usize,
}

/// Cases packed into inputs: at most `max_cases` cases and `max_bytes` bytes each
/// (a single larger case alone), at most `max_inputs` inputs.
fn pack(
    p: &Declared,
    cases: impl IntoIterator<Item = Case>,
    max_cases: usize,
    max_bytes: usize,
    max_inputs: usize,
) -> Vec<Vec<Case>> {
    let mut out: Vec<Vec<Case>> = Vec::new();
    let mut cur: Vec<Case> = Vec::new();
    let mut bytes = 0;
    for c in cases {
        let len = p.write_input(std::slice::from_ref(&c)).len();
        if !cur.is_empty() && (cur.len() >= max_cases || bytes + len > max_bytes) {
            out.push(std::mem::take(&mut cur));
            bytes = 0;
            if out.len() >= max_inputs {
                return out;
            }
        }
        bytes += len;
        cur.push(c);
    }
    if !cur.is_empty() && out.len() < max_inputs {
        out.push(cur);
    }
    out
}

fn rng(seed: u64, group: u64, k: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(mix(
        seed ^ mix(group.wrapping_mul(0x1000_0000_01B3) ^ mix(k))
    ))
}

/// Whether `input` is written exactly as the problem writes its cases (the layout
/// the validator asks for).
pub fn canonical(p: &Declared, input: &str) -> bool {
    p.parse(input, false)
        .is_ok_and(|cases| p.write_input(&cases) == input)
}

/// The tests of a package, in order, with no answers yet.
pub fn tests(src: &Source, opts: &Options) -> anyhow::Result<Vec<Test>> {
    let p = &src.problem;
    let max_cases = p.max_cases().max(1);
    let mut tests = Vec::new();
    let mut push = |group: &str, cases: &[Case], what: String| {
        tests.push(Test {
            group: group.to_string(),
            input: p.write_input(cases),
            what,
        });
    };
    // Samples: the statement's, when known and in the canonical layout.
    let mut samples = 0;
    for k in &opts.known.case {
        if k.name.starts_with("sample") && !k.input.is_empty() && canonical(p, &k.input) {
            let cases = p.parse(&k.input, false).map_err(|e| anyhow!("{e}"))?;
            push("sample", &cases, k.name.clone());
            samples += 1;
        }
    }
    // Smallest first: every case of size 0, 1, 2, ...
    let mut small = Vec::new();
    let want = max_cases.saturating_mul(SMALLEST_INPUTS).min(50_000);
    let mut empty = 0;
    for size in 0..64 {
        let cs = p.small_cases(size);
        if cs.is_empty() {
            empty += 1;
            if empty >= 12 {
                break;
            }
            continue;
        }
        empty = 0;
        small.extend(cs.into_iter().filter(|c| p.check_limits(c).is_ok()));
        if small.len() >= want {
            break;
        }
    }
    small.truncate(want);
    if samples == 0 {
        // No known samples: the first tiny cases show the format.
        let first = pack(
            p,
            small.iter().take(3).cloned(),
            max_cases.min(3),
            SMALL_INPUT_BYTES,
            1,
        );
        if let Some(first) = first.into_iter().next() {
            push("sample", &first, "the smallest cases".into());
        }
    }
    for (i, cases) in pack(p, small, max_cases, SMALL_INPUT_BYTES, SMALLEST_INPUTS)
        .into_iter()
        .enumerate()
    {
        push(
            "secret/smallest",
            &cases,
            format!("tiny cases, part {}", i + 1),
        );
    }
    // Random cases at growing scale, both answers on purpose.
    for k in 0..RANDOM_INPUTS {
        let scale = ((k + 1) as f64 / RANDOM_INPUTS as f64).powi(2);
        let mut r = rng(opts.seed, 1, k as u64);
        let n = max_cases.min(RANDOM_CASES);
        let shapes = [Shape::Losing, Shape::ManyWinning, Shape::Any];
        let cases = (0..n).map(|i| {
            let mut shape = shapes[i % 3];
            if shape == Shape::ManyWinning && scale < 0.05 {
                shape = Shape::Any;
            }
            p.generate(&mut r, scale, shape)
        });
        let budget = if scale < 0.5 {
            SMALL_INPUT_BYTES
        } else {
            RANDOM_INPUT_BYTES
        };
        if let Some(cases) = pack(p, cases, n, budget, 1).pop() {
            push("secret/random", &cases, format!("random, scale {scale:.2}"));
        }
    }
    // The limits.
    let mut r = rng(opts.seed, 2, 0);
    let c = p.generate(&mut r, 1.0, Shape::Losing);
    push("secret/limits", &[c], "a largest losing case".into());
    let c = p.generate(&mut r, 1.0, Shape::ManyWinning);
    push(
        "secret/limits",
        &[c],
        "a largest case with many winning moves".into(),
    );
    let shapes = [Shape::Any, Shape::Losing, Shape::ManyWinning];
    let many = (0..max_cases).map(|i| p.generate(&mut r, 1.0, shapes[i % 3]));
    if let Some(cases) = pack(p, many, max_cases, MAX_INPUT_BYTES, 1).pop() {
        push(
            "secret/limits",
            &cases,
            "the most cases at the largest scale".into(),
        );
    }
    let edges: Vec<Case> = p
        .small_cases(0)
        .into_iter()
        .chain(p.small_cases(1))
        .filter(|c| p.check_limits(c).is_ok())
        .take(64)
        .collect();
    if !edges.is_empty() {
        let cycle = (0..max_cases).map(|i| edges[i % edges.len()].clone());
        if let Some(cases) = pack(p, cycle, max_cases, MAX_INPUT_BYTES, 1).pop() {
            push("secret/limits", &cases, "the most cases, all tiny".into());
        }
    }
    // Traps: the known hard cases, and the positions the generators aim at.
    for k in &opts.known.case {
        if !k.name.starts_with("sample") && !k.input.is_empty() && canonical(p, &k.input) {
            let cases = p.parse(&k.input, false).map_err(|e| anyhow!("{e}"))?;
            push("secret/traps", &cases, k.name.clone());
        }
    }
    for cases in generator_traps(p, max_cases) {
        push(
            "secret/traps",
            &cases,
            "positions where double-precision floor(k phi) is wrong".into(),
        );
    }
    Ok(tests)
}

/// The Wythoff positions where a double-precision floor(k phi) is wrong, within the
/// declared bounds, for a problem whose position is two number fields.
fn generator_traps(p: &Declared, max_cases: usize) -> Vec<Vec<Case>> {
    if p.game().id() != "wythoff" {
        return Vec::new();
    }
    let specs = p.fields_spec();
    let pos = p.position_fields();
    if specs.len() != 2 || pos != [0, 1] || specs.iter().any(|f| f.list.is_some()) {
        return Vec::new();
    }
    let hi = specs[0].bounds.max.min(specs[1].bounds.max);
    let traps = crate::games::wythoff::double_trap_positions(hi);
    let cases: Vec<Case> = traps
        .into_iter()
        .map(|(a, b)| p.case(vec![vec![a], vec![b]]))
        .filter(|c| p.check_limits(c).is_ok())
        .take(TRAP_CASES)
        .collect();
    pack(p, cases, max_cases, MAX_INPUT_BYTES, 2)
}

/// Malformed inputs: the known ones, and ones derived from the declaration (a value
/// past each bound, a number too many or too few, a letter, a sign, a leading zero,
/// a layout other than the canonical one). Each is rejected by sgcheck's strict
/// parser or breaks the canonical layout; the validator must reject them all.
pub fn malformed(src: &Source, opts: &Options) -> Vec<(String, String)> {
    let p = &src.problem;
    let mut out: Vec<(String, String)> = opts
        .known
        .malformed
        .iter()
        .map(|m| (m.name.clone(), m.input.clone()))
        .collect();
    let base: Vec<Case> = (0..8)
        .flat_map(|s| p.small_cases(s))
        .filter(|c| p.check_limits(c).is_ok())
        .take(2)
        .collect();
    let Some(one) = base.last().cloned() else {
        return out;
    };
    let good = p.write_input(std::slice::from_ref(&one));
    let specs = p.fields_spec();
    let fields = p.fields(&one);
    for (k, f) in specs.iter().enumerate() {
        let mut variants = Vec::new();
        // Only numbers and plain lists: a group's or a tree's values are encoded.
        let plain = f.group.is_none() && !f.list.as_ref().is_some_and(|l| l.tree);
        if plain && !fields[k].is_empty() {
            if f.bounds.max < u64::MAX {
                variants.push((format!("{} above its maximum", f.name), f.bounds.max + 1));
            }
            if f.bounds.min > 0 {
                variants.push((format!("{} below its minimum", f.name), f.bounds.min - 1));
            }
        }
        for (name, v) in variants {
            let mut fs = fields.clone();
            fs[k][0] = v;
            out.push((name, p.write_input(&[p.case(fs)])));
        }
    }
    let mut tokens: Vec<&str> = good.split_whitespace().collect();
    let last_line_extra = format!("{}0\n", good);
    out.push(("a number after the last case".into(), last_line_extra));
    if !tokens.is_empty() {
        tokens.pop();
        let cut: String = good[..good
            .trim_end()
            .rfind(char::is_whitespace)
            .map_or(0, |i| i + 1)]
            .trim_end()
            .to_string();
        out.push(("the last number missing".into(), format!("{cut}\n")));
        let first_len = good.find(char::is_whitespace).unwrap_or(good.len());
        let rest = &good[first_len..];
        out.push(("a letter".into(), format!("x{rest}")));
        out.push(("a sign".into(), format!("+{good}")));
        out.push(("a leading zero".into(), format!("0{good}")));
        out.push((
            "a decimal point".into(),
            format!("{}.0{rest}", &good[..first_len]),
        ));
        out.push(("Windows line ends".into(), good.replace('\n', "\r\n")));
        out.push(("no newline at the end".into(), good.trim_end().to_string()));
        out.push(("a blank line at the end".into(), format!("{good}\n")));
        out.push((
            "two spaces".into(),
            good.replacen(' ', "  ", 1).replacen('\n', " \n", 1),
        ));
    }
    // Keep the ones that are malformed indeed, once each.
    let mut seen = std::collections::HashSet::new();
    out.retain(|(_, input)| !canonical(p, input) && seen.insert(input.clone()));
    out
}

/// The most wall time the oracle may take on one case of an exported test.
pub const ORACLE_QUERY_TIME: std::time::Duration = std::time::Duration::from_millis(500);

/// The answers of an input: the fast solver's, each case small enough cross-checked
/// with the oracle. Returns (answer, oracle-checked, oracle-skipped), or (as the
/// inner `Err`) the first case the problem could not answer and why.
pub fn answer(
    p: &Declared,
    input: &str,
    budget: usize,
) -> anyhow::Result<Result<(String, usize, usize), String>> {
    let cases = p
        .parse(input, false)
        .map_err(|e| anyhow!("a generated input does not parse: {e}"))?;
    // Answers that are sets are written whole, for the output validator.
    let ans = if p.answers_are_sets() {
        let mut lines = Vec::new();
        for (i, c) in cases.iter().enumerate() {
            match p.answer(c, i) {
                Ok(l) => lines.extend(l),
                Err(why) => return Ok(Err(format!("case {}: {why}", i + 1))),
            }
        }
        super::output_validator::answer_file(&lines)?
    } else {
        match solve_fast(p, &cases) {
            Ok(ans) => ans,
            Err((i, why)) => return Ok(Err(format!("case {}: {why}", i + 1))),
        }
    };
    let (mut checked, mut skipped) = (0, 0);
    if budget > 0 {
        let mut cut = 0;
        for (i, c) in cases.iter().enumerate() {
            // Two queries cut short in one input: the others would be too.
            if checked >= ORACLE_CASES_PER_INPUT
                || cut >= 2
                || p.write_input(std::slice::from_ref(c)).len() > ORACLE_CASE_BYTES
            {
                skipped += 1;
                continue;
            }
            // A query is cut after ORACLE_QUERY_TIME (the case is then skipped): a
            // scripted game's oracle lists every state a big pile reaches.
            let deadline = std::time::Instant::now() + ORACLE_QUERY_TIME;
            match sgcheck_oracles::with_deadline(deadline, || p.oracle_answer(c, i, budget)) {
                Ok(lines) => {
                    let fast = p.answer(c, i).map_err(|e| anyhow!("case {}: {e}", i + 1))?;
                    if lines != fast {
                        bail!(
                            "internal error: the fast solver and the oracle disagree on case {} \
                             of an input: fast {:?}, oracle {:?}\ninput:\n{}",
                            i + 1,
                            fast,
                            lines,
                            crate::audit::abbreviate(
                                &p.write_input(std::slice::from_ref(c)),
                                12,
                                120
                            )
                        );
                    }
                    checked += 1;
                }
                Err(e) => {
                    skipped += 1;
                    if matches!(e, sgcheck_oracles::SearchError::Time { .. })
                        || std::time::Instant::now() >= deadline
                    {
                        cut += 1;
                    }
                }
            }
        }
    }
    Ok(Ok((ans, checked, skipped)))
}

/// Token-wise equality of two outputs.
pub fn same_tokens(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
}

/// A directory to write into: created, or an existing real directory (never a
/// symbolic link).
pub fn ensure_dir(path: &Path) -> anyhow::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => bail!(
            "refusing to write into {}: it is not a directory",
            path.display()
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if let Some(parent) = path.parent() {
                if !parent.as_os_str().is_empty() {
                    ensure_dir(parent)?;
                }
            }
            std::fs::create_dir(path).with_context(|| format!("creating {}", path.display()))
        }
        Err(e) => Err(e).with_context(|| format!("checking {}", path.display())),
    }
}

/// Removes a directory export owns, when it is a real directory.
fn clear_dir(path: &Path) -> anyhow::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => {
            std::fs::remove_dir_all(path).with_context(|| format!("removing {}", path.display()))
        }
        Ok(_) => bail!(
            "refusing to replace {}: it is not a directory",
            path.display()
        ),
        Err(_) => Ok(()),
    }
}

fn write(path: &Path, data: &[u8]) -> anyhow::Result<()> {
    crate::cli::audit::write_safely(path, data)
}

/// A fresh random UUID (version 4): judges and BAPCtools tell packages apart by it.
fn uuid_v4() -> String {
    let (a, b): (u64, u64) = (rand::random(), rand::random());
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        b >> 52,
        b & 0xffff_ffff_ffff
    )
}

fn yaml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// Writes the package into `dir`. `dir` must be absent or empty unless `force`, which
/// replaces what export writes (and keeps the rest: submissions, found tests).
pub fn export(src: &Source, opts: &Options, dir: &Path, force: bool) -> anyhow::Result<Summary> {
    let p = &src.problem;
    // Any winning move is right: the package judges outputs with an output validator
    // derived from the declaration, and its answer files hold each set whole.
    let sets = p.answers_are_sets();
    if let Ok(m) = std::fs::symlink_metadata(dir) {
        if !m.is_dir() {
            bail!("{} exists and is not a directory", dir.display());
        }
        let non_empty = std::fs::read_dir(dir)
            .with_context(|| format!("reading {}", dir.display()))?
            .next()
            .is_some();
        if non_empty && !force {
            bail!(
                "{} is not empty: give an empty or new directory, or --force to replace \
                 the exported files (submissions and other files are kept)",
                dir.display()
            );
        }
    }
    // Everything is computed and checked before anything is written.
    let tests = tests(src, opts)?;
    let mut summary = Summary::default();
    let mut answers = Vec::with_capacity(tests.len());
    let mut kept = Vec::with_capacity(tests.len());
    for t in tests {
        match answer(p, &t.input, opts.oracle_budget)? {
            Ok((ans, checked, skipped)) => {
                summary.oracle_checked += checked;
                summary.oracle_skipped += skipped;
                answers.push(ans);
                kept.push(t);
            }
            // No expected answer: the input is left out and counted, never written
            // with a made-up one.
            Err(why) => {
                summary.unanswerable += 1;
                summary.first_unanswerable.get_or_insert(why);
            }
        }
    }
    let tests = kept;
    if tests.is_empty() {
        bail!(
            "the declaration could not answer any generated input ({} left out; the first, {})",
            summary.unanswerable,
            summary.first_unanswerable.as_deref().unwrap_or("-")
        );
    }
    // Known outputs must be the solver's.
    for k in &opts.known.case {
        if let Ok(cases) = p.parse(&k.input, false) {
            let ans = solve_fast(p, &cases).map_err(|(i, why)| {
                anyhow!(
                    "known case {:?}: the declaration could not answer case {}: {why}",
                    k.name,
                    i + 1
                )
            })?;
            let right = if sets {
                let want: Vec<Vec<String>> = cases
                    .iter()
                    .enumerate()
                    .map(|(i, c)| p.answer(c, i))
                    .collect::<Result<_, _>>()
                    .map_err(|why| anyhow!("known case {:?}: {why}", k.name))?;
                crate::audit::compare::compare(
                    &want,
                    k.output.as_bytes(),
                    crate::audit::compare::CompareMode::Tokens,
                )
                .is_none()
            } else {
                same_tokens(&ans, &k.output)
            };
            if !right {
                bail!(
                    "known case {:?} ({}): the solver answers {:?}, the known output is {:?}",
                    k.name,
                    k.source,
                    ans,
                    k.output
                );
            }
        }
    }
    let bad = malformed(src, opts);
    let script = validator::script(src)?;

    ensure_dir(dir)?;
    if force {
        clear_dir(&dir.join("data/sample"))?;
        clear_dir(&dir.join("data/invalid_input"))?;
        for g in GROUPS {
            clear_dir(&dir.join("data/secret").join(g))?;
        }
    }
    let vdir = dir.join("input_validators");
    ensure_dir(&vdir)?;
    let vpath = vdir.join("validate.py");
    write(&vpath, script.as_bytes())?;
    set_executable(&vpath);
    let adir = dir.join("answer_validators");
    ensure_dir(&adir)?;
    let apath = adir.join("validate.py");
    write(&apath, validator::answer_script(src)?.as_bytes())?;
    set_executable(&apath);
    let opath = dir.join("output_validator").join("validate.py");
    if sets {
        ensure_dir(&dir.join("output_validator"))?;
        write(
            &opath,
            super::output_validator::script(p.info().id, &src.origin).as_bytes(),
        )?;
        set_executable(&opath);
    } else if force {
        // A package written before from a declaration that printed sets.
        let _ = std::fs::remove_file(&opath);
    }

    let mut counters: std::collections::BTreeMap<String, usize> = Default::default();
    let mut written: Vec<PathBuf> = Vec::new();
    for (t, ans) in tests.iter().zip(&answers) {
        let n = counters.entry(t.group.clone()).or_default();
        *n += 1;
        let gdir = dir.join("data").join(&t.group);
        ensure_dir(&gdir)?;
        let base = gdir.join(format!("{:02}", *n));
        write(&base.with_extension("in"), t.input.as_bytes())?;
        write(&base.with_extension("ans"), ans.as_bytes())?;
        written.push(base.with_extension("in"));
        let cases = p.parse(&t.input, false).map(|c| c.len()).unwrap_or(0);
        match summary.groups.iter_mut().find(|g| g.0 == t.group) {
            Some(g) => {
                g.1 += 1;
                g.2 += cases;
                g.3 += t.input.len();
            }
            None => summary
                .groups
                .push((t.group.clone(), 1, cases, t.input.len())),
        }
    }
    let idir = dir.join("data/invalid_input");
    if !bad.is_empty() {
        ensure_dir(&idir)?;
    }
    let mut listing = String::new();
    for (i, (name, input)) in bad.iter().enumerate() {
        write(&idir.join(format!("{:02}.in", i + 1)), input.as_bytes())?;
        let _ = writeln!(listing, "{:02}: {name}", i + 1);
    }

    let mut yaml = String::new();
    let _ = writeln!(
        yaml,
        "# Written by `sgcheck export` from {}; regenerate the tests with\n\
         # `sgcheck export {} --seed {} --to DIR` (see sgcheck/export.toml).",
        src.origin.replace('\n', " "),
        src.builtin
            .clone()
            .unwrap_or_else(|| "--problem sgcheck/problem.toml".into()),
        opts.seed
    );
    let _ = writeln!(yaml, "problem_format_version: {}", super::FORMAT_VERSION);
    let _ = writeln!(yaml, "type: pass-fail");
    let _ = writeln!(yaml, "name: {}", yaml_string(p.info().title));
    let _ = writeln!(yaml, "uuid: {}", uuid_v4());
    let _ = writeln!(yaml, "limits:\n  time_limit: {:?}", opts.time_limit);
    if sets {
        // The answer files hold sets of accepted moves, read by output_validator/:
        // they are not outputs themselves (a BAPCtools key).
        let _ = writeln!(yaml, "ans_is_output: false");
    }
    write(&dir.join("problem.yaml"), yaml.as_bytes())?;
    let stdir = dir.join("statement");
    ensure_dir(&stdir)?;
    write(&stdir.join("problem.en.tex"), statement(p).as_bytes())?;

    let sdir = dir.join("sgcheck");
    ensure_dir(&sdir)?;
    write(&sdir.join("problem.toml"), src.text.as_bytes())?;
    let meta = format!(
        "# What `sgcheck export` wrote this package from.\n\
         problem = {}\nbuiltin = {}\nseed = {}\nsgcheck = {}\n\n# data/invalid_input:\n{}",
        yaml_string(p.info().id),
        src.builtin.is_some(),
        opts.seed,
        yaml_string(env!("CARGO_PKG_VERSION")),
        listing
            .lines()
            .map(|l| format!("# {l}\n"))
            .collect::<String>()
    );
    write(&sdir.join("export.toml"), meta.as_bytes())?;

    // The validator, run as the judge runs it: every test accepted, every malformed
    // input rejected.
    let timeout = Duration::from_secs(60);
    for path in &written {
        let input = std::fs::read(path)?;
        match validator::run(&vpath, &input, timeout)? {
            Verdict::Accepted => summary.validator_accepted += 1,
            Verdict::Rejected(why) => bail!(
                "internal error: the validator rejects the generated {}: {why}",
                path.display()
            ),
        }
        let ans = std::fs::read(path.with_extension("ans"))?;
        if let Verdict::Rejected(why) = validator::run_with(&apath, &[path], &ans, timeout)? {
            bail!(
                "internal error: the answer validator rejects the answer of {}: {why}",
                path.display()
            );
        }
        if sets {
            check_output_validator(p, &opath, path, timeout)?;
            summary.output_validator_checked += 1;
        }
    }
    for (name, input) in &bad {
        match validator::run(&vpath, input.as_bytes(), timeout)? {
            Verdict::Rejected(_) => summary.validator_rejected += 1,
            Verdict::Accepted => bail!(
                "internal error: the validator accepts the malformed input {name:?}: {input:?}"
            ),
        }
    }
    Ok(summary)
}

/// The output validator, run as the judge runs it on the test `input`: the solver's
/// output (the first winning move of each set) and the output that takes each set's
/// last one are accepted, and an output that breaks a set (its first text's last token
/// changed) is rejected.
fn check_output_validator(
    p: &Declared,
    validator_path: &Path,
    input: &Path,
    timeout: Duration,
) -> anyhow::Result<()> {
    let cases = p.parse(&std::fs::read_to_string(input)?, false)?;
    let mut lines = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        lines.extend(p.answer(c, i).map_err(|e| anyhow!("case {}: {e}", i + 1))?);
    }
    let pick = |which: fn(&[&str]) -> String| -> String {
        let mut out = String::new();
        for l in &lines {
            for piece in crate::problems::choice::pieces(l) {
                match piece {
                    crate::problems::choice::Piece::Text(t) => out.push_str(t),
                    crate::problems::choice::Piece::AnyOf(texts) => out.push_str(&which(&texts)),
                }
            }
            out.push('\n');
        }
        out
    };
    let first = pick(|t| t[0].to_string());
    let last = pick(|t| t[t.len() - 1].to_string());
    // Not a member: the first text with its last token made longer.
    let broken = pick(|t| {
        (1..)
            .map(|k| format!("{}{}", t[0], "0".repeat(k)))
            .find(|b| !t.contains(&b.as_str()))
            .unwrap_or_default()
    });
    let feedback = tempfile::tempdir()?;
    let args = [input, &input.with_extension("ans"), feedback.path()];
    for (output, what) in [
        (&first, "the solver's output"),
        (&last, "the last winning moves"),
    ] {
        if let Verdict::Rejected(why) =
            validator::run_with(validator_path, &args, output.as_bytes(), timeout)?
        {
            bail!(
                "internal error: the output validator rejects {what} on {}: {why}",
                input.display()
            );
        }
    }
    if lines.iter().any(|l| crate::problems::choice::has_set(l)) {
        if let Verdict::Accepted =
            validator::run_with(validator_path, &args, broken.as_bytes(), timeout)?
        {
            bail!(
                "internal error: the output validator accepts a move outside the set on {}",
                input.display()
            );
        }
    }
    Ok(())
}

/// Escapes LaTeX's special characters.
fn latex(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '_' | '%' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out.push_str("\\^{}"),
            '~' => out.push_str("\\~{}"),
            '`' => out.push('\''),
            _ => out.push(c),
        }
    }
    out
}

/// A statement skeleton from the declaration's descriptions (the story is the
/// setter's to write).
fn statement(p: &Declared) -> String {
    let i = p.info();
    format!(
        "\\problemname{{{}}}\n\n% Written by `sgcheck export` from the declaration: the game is \n% `{}`; replace this text with the story.\nThe game {}.\n\n\\begin{{Input}}\n    {}.\n\n    Limits: {}.\n\\end{{Input}}\n\n\\begin{{Output}}\n    {}.\n\\end{{Output}}\n",
        latex(i.title),
        i.game.replace('\n', " "),
        latex(i.game),
        latex(i.input),
        latex(i.limits),
        latex(i.output)
    )
}

fn set_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt as _;
    let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755));
}

/// The known answers for a source: `--samples FILE`, or the problem's own (the
/// declaration's `[[sample]]`s, or the built-in problem's known answers).
pub fn known_for(src: &Source, file: Option<&Path>) -> anyhow::Result<Known> {
    match file {
        Some(path) => {
            let text = super::read_bounded_text(path)?;
            samples::parse(&text, &path.display().to_string()).map_err(anyhow::Error::msg)
        }
        None => Ok(Known {
            problem: src.problem.info().id.to_string(),
            case: crate::problems::Problem::samples(&src.problem),
            malformed: src
                .builtin
                .as_deref()
                .map(|id| samples::builtin(id).malformed)
                .unwrap_or_default(),
        }),
    }
}

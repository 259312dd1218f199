//! Speed at the limits: `sgcheck solve` against a plain C++ contest solution on the
//! largest input of every problem.
//!
//! ```sh
//! cargo bench --bench solve_limits            # every problem
//! cargo bench --bench solve_limits -- hdu3032 # only the problems named
//! ```
//!
//! For each problem the largest input within the limits is generated with a fixed seed
//! through the [`Problem`] trait of the built-in declarations (the generator at scale 1.0, cases redrawn or
//! concatenated until the case count and n reach the limits), checked against the
//! limits, written to a temporary file, and answered by `target/release/sgcheck solve
//! <problem> <file>` and by `benches/cpp/<problem>.cpp` (compiled with `g++ -O2` into a
//! temporary directory, reading the file on standard input). Each program runs once to
//! warm up, then [`RUNS`] times more (ten times as many for inputs under 100 KB), the
//! two interleaved; the table shows the median wall time of each (process start
//! included) and their ratio, then the median processor time (user + system, from
//! `getrusage`) and its ratio: on a shared, loaded machine the wall time mostly
//! measures waiting for a processor, the processor time what the run cost.
//!
//! Every output of both programs, on every known answer of `corpus/samples/` and on
//! every benchmark input, must be byte-identical: the bench panics on the first
//! difference, naming the problem and the first differing line. Without `g++` the C++
//! side is skipped with a message and only sgcheck is timed.
//!
//! Where the literal limits make no sense for a benchmark, the table says what was run
//! instead: hdu3032 has one case of N = 10^6 (T = 100 such cases would be a 1 GB
//! file), and the formats read to end of input or to a terminator (hdu2897, hdu1848,
//! uva1378), which have no case limit, get 10^5 lines; the terminator formats with
//! large cases get the most cases their generators put in one input: hdu1536 100 test
//! cases at every limit, hdu1850 1000 cases of 100 piles, hdu2176 10 cases of 2*10^5.
//! hdu3094 has ten trees of 10^5 vertices (T = 100 of them would be 130 MB).
//!
//! Two declared problems (format 2, the game by its code in a `[game]` table) follow
//! the built-in ones, run as `sgcheck solve --problem <declaration> <file>`:
//! `dawson` (`examples/problems/dawson.toml`: 100 cases of 10 heaps up to 1000, every
//! winning move listed) and `kayles-big` (Kayles by its code `0.77`, declared here: 10
//! cases of 10^5 heaps up to 10^9, answered through the proven period), against
//! `benches/cpp/dawson.cpp` and `benches/cpp/kayles_big.cpp`. They have no samples in
//! `corpus/samples/`; their benchmark inputs are compared as every other.
//!
//! With `SGCHECK_BASELINE=<path to another sgcheck binary>`, that binary is timed too,
//! interleaved with the others on the same inputs (its output must be identical), and a
//! second table compares the two: how a change moved the speed, measured in one run.
//!
//! Run without `--bench` (as `cargo test --benches` does), only the samples are
//! compared and nothing is timed.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use sgcheck::problems::{builtin, Case, Declared, Problem, Shape, PROBLEM_IDS};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Seed of every generated input.
const SEED: u64 = 20_240_601;
/// Timed runs of each program per input (after one untimed warm-up run).
const RUNS: usize = 5;
/// Cases of the formats without a case count or limit (hdu2897, hdu1848): one line each.
const LINE_CASES: usize = 100_000;

/// The shapes the generator is asked for, in turn, so both answers show up.
const SHAPES: [Shape; 3] = [Shape::Any, Shape::Losing, Shape::ManyWinning];

/// One benchmark input: the text and what it holds, in words for the table.
struct Input {
    text: String,
    what: String,
}

/// Checks every case against the limits and the written input against the strict
/// parser (the same cases must come back), then returns the input text.
fn write_checked(p: &Declared, cases: &[Case]) -> String {
    let id = p.info().id;
    for (i, c) in cases.iter().enumerate() {
        if let Err(e) = p.check_limits(c) {
            panic!("{id}: generated case {} is outside the limits: {e}", i + 1);
        }
    }
    let text = p.write_input(cases);
    match p.parse(&text, false) {
        Ok(back) => assert!(back == cases, "{id}: the input does not round-trip"),
        Err(e) => panic!("{id}: the generated input does not parse: {e}"),
    }
    text
}

/// `count` cases, each drawn at scale 1.0 (shapes in turn) and redrawn until `keep`
/// accepts it (the largest n, say).
fn cases_where(
    p: &Declared,
    rng: &mut ChaCha8Rng,
    count: usize,
    keep: impl Fn(&Case) -> bool,
) -> Vec<Case> {
    (0..count)
        .map(|i| loop {
            let c = p.generate(rng, 1.0, SHAPES[i % SHAPES.len()]);
            if keep(&c) {
                break c;
            }
        })
        .collect()
}

/// A one-list case of exactly `len` values: the values of cases drawn at scale 1.0,
/// concatenated, keeping the values `keep` accepts (the generator draws n at random,
/// so one case rarely has the largest n by itself).
fn long_list(p: &Declared, rng: &mut ChaCha8Rng, len: usize, keep: impl Fn(u64) -> bool) -> Case {
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        let c = p.generate(rng, 1.0, Shape::Any);
        out.extend(p.fields(&c)[0].iter().copied().filter(|&v| keep(v)));
    }
    out.truncate(len);
    p.case(vec![out])
}

/// The largest input of problem `id`, declared by `p` (see the module doc for the
/// choices).
fn largest_input(id: &str, p: &Declared) -> Input {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let rng = &mut rng;
    let (text, what) = match id {
        "p2197" => {
            let cases: Vec<_> = (0..p.max_cases())
                .map(|_| long_list(p, rng, 10_000, |_| true))
                .collect();
            (write_checked(p, &cases), "T=10, n=10^4, piles < 10^4")
        }
        "hdu1846" => {
            let cases = cases_where(p, rng, p.max_cases(), |_| true);
            (write_checked(p, &cases), "C=100, n, m <= 1000")
        }
        "hdu2897" => {
            let cases = cases_where(p, rng, LINE_CASES, |_| true);
            (
                write_checked(p, &cases),
                "10^5 lines (read to EOF), values <= 65535",
            )
        }
        "hdu3032" => {
            // Only 10-digit piles (10^9 ..= 2^31-1): every number as wide as the limit.
            let piles = long_list(p, rng, 1_000_000, |v| v >= 1_000_000_000);
            (
                write_checked(p, &[piles]),
                "T=1 (not 100: 1 GB), N=10^6, piles in 10^9..2^31-1",
            )
        }
        "hdu1848" => {
            let cases = cases_where(p, rng, LINE_CASES, |_| true);
            (
                write_checked(p, &cases),
                "10^5 lines + `0 0 0`, piles <= 1000",
            )
        }
        "p2148" => {
            let cases: Vec<_> = (0..p.max_cases())
                .map(|_| long_list(p, rng, 20_000, |v| v >= 1_000_000_000))
                .collect();
            (
                write_checked(p, &cases),
                "T=20, N=2*10^4, piles in 10^9..2*10^9",
            )
        }
        "bzoj1188" => {
            let cases = cases_where(p, rng, p.max_cases(), |c| p.fields(c)[0].len() == 21);
            (write_checked(p, &cases), "t=10, n=21, p <= 10^4")
        }
        "uva1378" => {
            // Two lines per case: 10^5 lines.
            let cases = cases_where(p, rng, LINE_CASES / 2, |c| p.fields(c)[0].len() == 23);
            (
                write_checked(p, &cases),
                "5*10^4 games (10^5 lines) + `0`, n=23, S <= 1000",
            )
        }
        "followingnim" => {
            let cases = cases_where(p, rng, 100, |c| {
                let f = p.fields(c);
                f[0].len() == 50 && f[1].len() == 100
            });
            let cases: Vec<Case> = cases
                .iter()
                .map(|c| {
                    let mut f = p.fields(c);
                    f[1].shuffle(rng);
                    p.case(f)
                })
                .collect();
            (write_checked(p, &cases), "T=100, n=50, m=100, piles <= 100")
        }
        "p4279" => {
            let cases = cases_where(p, rng, p.max_cases(), |c| p.fields(c)[0].len() == 50);
            (write_checked(p, &cases), "T=500, N=50, piles <= 5000")
        }
        "poj1704" => {
            let cases = cases_where(p, rng, p.max_cases(), |c| p.fields(c)[0].len() == 1000);
            let cases: Vec<Case> = cases
                .iter()
                .map(|c| {
                    let mut f = p.fields(c);
                    f[0].shuffle(rng);
                    p.case(f)
                })
                .collect();
            (
                write_checked(p, &cases),
                "T=20, N=1000 distinct cells <= 10^4, shuffled",
            )
        }
        "hdu1536" => {
            // No case limit in the statement: 100 test cases (the generators' most),
            // each at every limit: 100 amounts up to 10^4, 100 positions of 100 heaps.
            let cases: Vec<Case> = (0..p.max_cases())
                .map(|_| {
                    let mut set = Vec::new();
                    let mut heaps = Vec::new();
                    while set.len() < 100 || heaps.len() < 100 * 100 {
                        let f = p.fields(&p.generate(rng, 1.0, Shape::Any));
                        set.extend_from_slice(&f[0]);
                        // The group's values: each position's length, then its heaps.
                        let mut at = 0;
                        while at < f[1].len() {
                            let l = f[1][at] as usize;
                            heaps.extend_from_slice(&f[1][at + 1..at + 1 + l]);
                            at += 1 + l;
                        }
                    }
                    set.truncate(100);
                    let mut group = Vec::with_capacity(100 * 101);
                    for chunk in heaps.chunks(100).take(100) {
                        group.push(100);
                        group.extend_from_slice(chunk);
                    }
                    p.case(vec![set, group])
                })
                .collect();
            (
                write_checked(p, &cases),
                "100 test cases + `0`, k=100, m=100, l=100, values <= 10^4",
            )
        }
        "hdu1850" => {
            // No case limit in the statement: 1000 cases of M = 100 piles.
            let cases: Vec<Case> = (0..p.max_cases())
                .map(|_| long_list(p, rng, 100, |_| true))
                .collect();
            (
                write_checked(p, &cases),
                "1000 cases + `0`, M=100, piles <= 10^6",
            )
        }
        "hdu2176" => {
            // No case limit in the statement: 10 cases of m = 2*10^5 piles; about
            // half the piles of a winning case print a move.
            let cases: Vec<Case> = (0..p.max_cases())
                .map(|_| long_list(p, rng, 200_000, |v| v >= 100_000_000))
                .collect();
            (
                write_checked(p, &cases),
                "10 cases + `0`, m=2*10^5, piles in 10^8..10^9",
            )
        }
        "hdu3980" => {
            // Every case at the largest circle, m spread over 1..=1000 by the generator.
            let cases = cases_where(p, rng, p.max_cases(), |c| p.fields(c)[0][0] >= 900);
            (write_checked(p, &cases), "T=100, n in 900..1000, m <= 1000")
        }
        "hdu5795" => {
            // One case of n = 10^6 heaps of 9 or 10 digits (T = 100 such cases would be
            // a 1 GB file, as for hdu3032).
            let heaps = long_list(p, rng, 1_000_000, |v| v >= 100_000_000);
            (
                write_checked(p, &[heaps]),
                "T=1 (not 100: 1 GB), n=10^6, heaps in 10^8..10^9",
            )
        }
        "hdu1527" => {
            let cases = cases_where(p, rng, LINE_CASES, |_| true);
            (
                write_checked(p, &cases),
                "10^5 lines (read to EOF), piles <= 10^9",
            )
        }
        "hdu2149" => {
            // Up to 1099 bids a line: 10^4 lines already print megabytes.
            let cases = cases_where(p, rng, LINE_CASES / 10, |_| true);
            (
                write_checked(p, &cases),
                "10^4 lines (read to EOF), M, N <= 1099",
            )
        }
        "hdu3094" => {
            // Ten trees of 10^5 vertices (T = 100 of them would be 130 MB), of every
            // shape the generator draws; paths from vertex 1 among them.
            // N = 10^5 has an odd number of edges, always a first-player win: no
            // losing shape exists at that size, so the draws ask for any shape.
            let cases: Vec<Case> = (0..10)
                .map(|_| loop {
                    let c = p.generate(rng, 1.0, Shape::Any);
                    if p.fields(&c)[0].len() == 2 * 99_999 {
                        break c;
                    }
                })
                .collect();
            (
                write_checked(p, &cases),
                "T=10 (not 100: 130 MB), N=10^5 each",
            )
        }
        "dawson" => {
            // Every case at the largest n; heaps up to 1000, about a third of the
            // cases winning with their moves listed.
            let cases = cases_where(p, rng, p.max_cases(), |c| p.fields(c)[0].len() == 10);
            (
                write_checked(p, &cases),
                "T=100, n=10, heaps <= 1000, winning moves listed",
            )
        }
        "kayles-big" => {
            let cases: Vec<_> = (0..p.max_cases())
                .map(|_| long_list(p, rng, 100_000, |v| v >= 100_000_000))
                .collect();
            (
                write_checked(p, &cases),
                "T=10, n=10^5, heaps in 10^8..10^9",
            )
        }
        _ => panic!("no benchmark input for problem {id:?}"),
    };
    Input {
        text,
        what: what.to_string(),
    }
}

/// Kayles declared by its code, at heaps far past any table: the answers come from the
/// period the periodicity theorem proves (12 from 71).
const KAYLES_BIG: &str = r#"format = 2
id = "kayles-big"
title = "Kayles by its code 0.77, heaps up to 10^9"
position = ["heaps"]

[game]
code = "0.77"

[input]
cases = "count"
count = { what = "case count T", min = 1, max = 10 }

[[field]]
name = "heaps"
what = "heap {i} of case {case}"
min = 1
max = 1000000000
inline = true
length = { what = "heap count n of case {case}", min = 1, max = 100000 }

[output]
lines = ["{verdict}"]
win = "First"
lose = "Second"
"#;

/// The declared problems (format 2, a `[game]` table: a heap game by its code), run as
/// `sgcheck solve --problem <declaration> <input>`: their ids and declaration files
/// (`dir` holds the ones written here).
fn declared_problems(dir: &Path) -> Vec<(&'static str, PathBuf)> {
    let kayles = dir.join("kayles-big.toml");
    std::fs::write(&kayles, KAYLES_BIG).expect("write declaration");
    vec![
        (
            "dawson",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/problems/dawson.toml"),
        ),
        ("kayles-big", kayles),
    ]
}

/// The sgcheck binary cargo built for this bench.
fn sgcheck_bin() -> PathBuf {
    let path = PathBuf::from(env!("CARGO_BIN_EXE_sgcheck"));
    if !path.exists() {
        panic!(
            "{} is missing: run `cargo build --release` first",
            path.display()
        );
    }
    path
}

/// Compiles `benches/cpp/<id>.cpp` with `g++ -O2` into `dir`; `None` (after saying why)
/// when g++ is missing. A compile error fails the bench.
fn compile_cpp(id: &str, dir: &Path) -> Option<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("benches/cpp/{id}.cpp"));
    let out = dir.join(id);
    let status = match Command::new("g++")
        .arg("-O2")
        .arg("-o")
        .arg(&out)
        .arg(&src)
        .status()
    {
        Ok(s) => s,
        Err(e) => {
            eprintln!("g++ not available ({e}): skipping the C++ solutions");
            return None;
        }
    };
    assert!(status.success(), "g++ failed on {}", src.display());
    Some(out)
}

/// How to feed a program its input.
enum Feed<'a> {
    /// As a file argument (`sgcheck solve <id> <file>`).
    Arg(&'a Path),
    /// On standard input, from a file.
    Stdin(&'a Path),
    /// On standard input, from memory (the samples).
    Text(&'a str),
}

/// The processor time (user and system) of every child process waited for so far.
fn children_cpu() -> Duration {
    // SAFETY: getrusage writes one `rusage` into the zeroed value it is given.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

/// Timings of one run.
#[derive(Clone, Copy)]
struct Took {
    /// From spawn to exit.
    wall: Duration,
    /// The process's own processor time, user and system: on a loaded machine, what
    /// it cost without the time it waited for a processor.
    cpu: Duration,
}

/// Runs `program args...` on the input; returns its standard output and its
/// timings. A non-zero exit fails the bench.
fn run(program: &Path, args: &[&str], feed: Feed<'_>) -> (Vec<u8>, Took) {
    use std::io::Write;
    let mut cmd = Command::new(program);
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    match feed {
        Feed::Arg(path) => {
            cmd.arg(path).stdin(Stdio::null());
        }
        Feed::Stdin(path) => {
            cmd.stdin(File::open(path).expect("open input"));
        }
        Feed::Text(_) => {
            cmd.stdin(Stdio::piped());
        }
    }
    let cpu_before = children_cpu();
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
    if let Feed::Text(text) = feed {
        let mut stdin = child.stdin.take().expect("piped stdin");
        stdin.write_all(text.as_bytes()).expect("write input");
    }
    let out = child.wait_with_output().expect("wait");
    let took = Took {
        wall: start.elapsed(),
        cpu: children_cpu().saturating_sub(cpu_before),
    };
    assert!(
        out.status.success(),
        "{} {args:?} failed ({}): {}",
        program.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    (out.stdout, took)
}

/// Panics, loudly, unless the two outputs are byte-identical.
fn same_output(id: &str, on: &str, sgcheck: &[u8], cpp: &[u8]) {
    if sgcheck == cpp {
        return;
    }
    let (a, b) = (
        String::from_utf8_lossy(sgcheck),
        String::from_utf8_lossy(cpp),
    );
    let (mut la, mut lb) = (a.split_inclusive('\n'), b.split_inclusive('\n'));
    let mut line = 1;
    let (x, y) = loop {
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => line += 1,
            (x, y) => break (x, y),
        }
    };
    panic!(
        "OUTPUTS DIFFER: {id}, {on}, line {line}: sgcheck {x:?}, C++ {y:?} \
         ({} and {} bytes in all)",
        sgcheck.len(),
        cpp.len()
    );
}

/// The known answers of `corpus/samples/<id>.toml` (the fields the bench needs).
#[derive(Deserialize)]
struct Samples {
    #[serde(default)]
    case: Vec<Sample>,
}

#[derive(Deserialize)]
struct Sample {
    name: String,
    input: String,
    output: String,
}

/// Runs both programs on every known answer of the problem; returns how many.
fn check_samples(id: &str, sgcheck: &Path, cpp: &Path) -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("corpus/samples/{id}.toml"));
    let text = std::fs::read_to_string(&path).expect("read samples");
    let samples: Samples = toml::from_str(&text).expect("parse samples");
    for s in &samples.case {
        let (ours, _) = run(sgcheck, &["solve", id], Feed::Text(&s.input));
        let (theirs, _) = run(cpp, &[], Feed::Text(&s.input));
        same_output(id, &format!("sample {:?}", s.name), &ours, &theirs);
        assert!(
            ours == s.output.as_bytes(),
            "{id}: sample {:?}: sgcheck does not print the known answer",
            s.name
        );
    }
    samples.case.len()
}

/// The median of some durations.
fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// The median wall time and the median processor time of some runs.
fn medians(runs: &[Took]) -> (Duration, Duration) {
    (
        median(runs.iter().map(|t| t.wall).collect()),
        median(runs.iter().map(|t| t.cpu).collect()),
    )
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e3)
}

/// Thousands separated by commas, for the table.
fn grouped(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` passes `--bench`; without it (cargo test --benches) only check.
    let timing = args.iter().any(|a| a == "--bench");
    let only: Vec<&str> = args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .map(String::as_str)
        .collect();
    let dir = tempfile::tempdir().expect("temporary directory");
    // The built-in problems, then the declared ones (with their declaration files).
    let mut problems: Vec<(&str, Declared, Option<PathBuf>)> = PROBLEM_IDS
        .iter()
        .map(|&id| (id, builtin(id).expect("built-in problem").clone(), None))
        .collect();
    for (id, path) in declared_problems(dir.path()) {
        let p = Declared::from_file(&path).unwrap_or_else(|e| panic!("{id}: {e}"));
        problems.push((id, p, Some(path)));
    }
    problems.retain(|(id, _, _)| only.is_empty() || only.contains(id));
    assert!(!problems.is_empty(), "no problem matches {only:?}");

    let sgcheck = sgcheck_bin();
    // Another sgcheck build to time side by side (an older commit, say).
    let baseline = std::env::var_os("SGCHECK_BASELINE").map(PathBuf::from);
    let mut base_rows = Vec::new();
    let mut rows = Vec::new();
    let started = Instant::now();
    for (id, problem, declaration) in &problems {
        let id = *id;
        let cpp = compile_cpp(&id.replace('-', "_"), dir.path());
        if let (Some(cpp), None) = (&cpp, declaration) {
            let n = check_samples(id, &sgcheck, cpp);
            eprintln!("{id}: {n} samples, outputs identical");
        }
        if !timing {
            continue;
        }
        let input = largest_input(id, problem);
        let file = dir.path().join(format!("{id}.in"));
        std::fs::write(&file, &input.text).expect("write input");
        let numbers = input.text.split_ascii_whitespace().count();

        let solve: Vec<&str> = match declaration {
            None => vec!["solve", id],
            Some(path) => vec!["solve", "--problem", path.to_str().expect("UTF-8 path")],
        };
        let solve = &solve[..];
        let (want, _) = run(&sgcheck, solve, Feed::Arg(&file));
        if let Some(cpp) = &cpp {
            let (got, _) = run(cpp, &[], Feed::Stdin(&file));
            same_output(id, "benchmark input", &want, &got);
        }
        let (mut ours, mut theirs, mut base) = (Vec::new(), Vec::new(), Vec::new());
        // Small inputs are answered in about a millisecond: more runs steady the median.
        let runs = if input.text.len() < 100_000 {
            10 * RUNS
        } else {
            RUNS
        };
        for _ in 0..runs {
            let (out, took) = run(&sgcheck, solve, Feed::Arg(&file));
            assert!(out == want, "{id}: sgcheck's output changed between runs");
            ours.push(took);
            if let Some(b) = &baseline {
                let (out, took) = run(b, solve, Feed::Arg(&file));
                same_output(id, "benchmark input (baseline)", &want, &out);
                base.push(took);
            }
            if let Some(cpp) = &cpp {
                let (out, took) = run(cpp, &[], Feed::Stdin(&file));
                same_output(id, "benchmark input (timed run)", &want, &out);
                theirs.push(took);
            }
        }
        let (ours, ours_cpu) = medians(&ours);
        if !base.is_empty() {
            let (b, b_cpu) = medians(&base);
            base_rows.push(format!(
                "| `{id}` | {} | {} | {:.2} | {} | {} | {:.2} |",
                ms(ours),
                ms(b),
                ours.as_secs_f64() / b.as_secs_f64(),
                ms(ours_cpu),
                ms(b_cpu),
                ours_cpu.as_secs_f64() / b_cpu.as_secs_f64()
            ));
        }
        let (theirs, ratio, theirs_cpu, ratio_cpu) = if theirs.is_empty() {
            let no = || "-".to_string();
            (no(), no(), no(), no())
        } else {
            let (t, t_cpu) = medians(&theirs);
            (
                ms(t),
                format!("{:.2}", ours.as_secs_f64() / t.as_secs_f64()),
                ms(t_cpu),
                format!("{:.2}", ours_cpu.as_secs_f64() / t_cpu.as_secs_f64()),
            )
        };
        eprintln!(
            "{id}: sgcheck {} ms ({} ms CPU), C++ {theirs} ms ({theirs_cpu} ms CPU), outputs identical",
            ms(ours),
            ms(ours_cpu)
        );
        rows.push(format!(
            "| `{id}` | {} | {} | {} | {} | {theirs} | {ratio} | {} | {theirs_cpu} | {ratio_cpu} |",
            input.what,
            grouped(numbers),
            grouped(input.text.len()),
            ms(ours),
            ms(ours_cpu),
        ));
    }
    if !timing {
        eprintln!("samples checked; run `cargo bench --bench solve_limits` for the timings");
        return;
    }
    println!();
    println!(
        "| problem | largest input | numbers | bytes | sgcheck ms | C++ ms | sgcheck / C++ \
         | sgcheck CPU ms | C++ CPU ms | CPU sgcheck / C++ |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in &rows {
        println!("{r}");
    }
    if !base_rows.is_empty() {
        println!();
        println!(
            "| problem | sgcheck ms | baseline ms | sgcheck / baseline \
             | sgcheck CPU ms | baseline CPU ms | CPU sgcheck / baseline |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|");
        for r in &base_rows {
            println!("{r}");
        }
    }
    println!();
    println!(
        "Median wall time of {RUNS} runs each ({} for inputs under 100 KB; interleaved, process start included), \
         and median processor time (user + system, what a run costs without waiting \
         for a processor: the figure to trust on a loaded machine); \
         C++: g++ -O2, scanf/printf; seed {SEED}. Bench took {:.0} s.",
        10 * RUNS,
        started.elapsed().as_secs_f64()
    );
}

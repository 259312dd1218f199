//! The audit driven in process, through fake contestants with planted bugs: each must
//! be found and shrunk to the smallest input that shows it.

use super::*;
use crate::problems::testing::P2197;
use crate::problems::{Info, ParseError, Shape};
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::SearchError;

fn opts(seed: u64) -> AuditOptions {
    AuditOptions {
        seed,
        time: Duration::from_secs(20),
        max_cases: Some(30_000),
        jobs: 2,
        ..AuditOptions::default()
    }
}

/// A p2197 "solution": `answer(piles, case_index)` gives each case's output line.
fn p2197_fake(
    answer: impl Fn(&[u64], usize) -> String + Sync,
) -> FnContestant<impl Fn(&str) -> String + Sync> {
    FnContestant::new(move |input: &str| {
        let Ok(cases) = P2197.parse(input, true) else {
            return "garbage\n".to_string();
        };
        cases
            .iter()
            .enumerate()
            .map(|(i, c)| answer(c, i) + "\n")
            .collect()
    })
}

fn right(piles: &[u64]) -> &'static str {
    if piles.iter().fold(0, |a, &p| a ^ p) != 0 {
        "Yes"
    } else {
        "No"
    }
}

fn wrong(piles: &[u64]) -> &'static str {
    if right(piles) == "Yes" {
        "No"
    } else {
        "Yes"
    }
}

fn run<C: Contestant>(c: &C, o: &AuditOptions) -> Report {
    audit(&P2197, c, o, &ProgressBar::hidden()).expect("audit runs")
}

fn minimal_input(r: &Report) -> &str {
    let c = r.counterexample.as_ref().expect("a counterexample");
    assert!(c.minimal, "not minimal: {c:?}");
    &c.input
}

#[test]
fn correct_program_is_ok() {
    let c = p2197_fake(|p, _| right(p).to_string());
    let mut o = opts(1);
    o.max_cases = Some(3_000);
    let r = run(&c, &o);
    assert_eq!(r.verdict, Verdict::Ok);
    assert!(r.counterexample.is_none());
    assert_eq!(r.search_cases, 3_000, "stops exactly at --cases");
    assert!(
        r.runs < r.cases,
        "batched: {} runs, {} cases",
        r.runs,
        r.cases
    );
    assert!(r.oracle_checks > 500);
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["verdict"], "ok");
    assert!(json["counterexample"].is_null());
}

#[test]
fn pile_of_seven_is_found_and_isolated() {
    let c = p2197_fake(|p, _| if p.contains(&7) { wrong(p) } else { right(p) }.to_string());
    let r = run(&c, &opts(2));
    assert_eq!(r.verdict, Verdict::WrongAnswer);
    assert_eq!(minimal_input(&r), "1\n1\n7\n");
    let ce = r.counterexample.as_ref().unwrap();
    assert_eq!(ce.expected, "Yes\n");
    assert_eq!(ce.actual, "No\n");
    // Found in a batch of several cases, and isolated from it by triage (its cases
    // run one by one, which takes no shrink step) or by shrinking.
    assert!(r.search_runs < r.search_cases, "batched search");
    assert_eq!(ce.cases, 1);
    assert!(r.shrink_runs >= 1, "isolated from its batch");
    let m = ce.mismatch.as_ref().unwrap();
    assert_eq!((m.case, m.actual_line), (0, 1));
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["verdict"], "wrong-answer");
    assert_eq!(json["counterexample"]["input"], "1\n1\n7\n");
    assert!(json["counterexample"]["shrink_steps"].is_u64());
}

#[test]
fn three_piles_is_found() {
    let c = p2197_fake(|p, _| if p.len() >= 3 { wrong(p) } else { right(p) }.to_string());
    let r = run(&c, &opts(3));
    assert_eq!(minimal_input(&r), "1\n3\n0 0 0\n");
}

#[test]
fn large_sum_is_shrunk_to_the_threshold() {
    // Only random cases reach a sum above 50; shrinking must come down to exactly
    // two piles summing to 51 (one fewer pile, or one stone less, answers right).
    let c = p2197_fake(|p, _| {
        if p.len() >= 2 && p.iter().sum::<u64>() > 50 {
            wrong(p)
        } else {
            right(p)
        }
        .to_string()
    });
    let r = run(&c, &opts(4));
    let input = minimal_input(&r);
    let cases = P2197.parse(input, false).unwrap();
    assert_eq!(cases.len(), 1, "{input}");
    assert_eq!(cases[0].len(), 2, "{input}");
    assert_eq!(cases[0].iter().sum::<u64>(), 51, "{input}");
    // Same seed, same result.
    let again = run(&c, &opts(4));
    assert_eq!(minimal_input(&again), input);
}

#[test]
fn state_kept_between_cases_needs_two_cases() {
    // Forgets to reset the XOR between cases: every single-case input is right.
    let c = FnContestant::new(|input: &str| {
        let cases = P2197.parse(input, true).unwrap_or_default();
        let mut x = 0;
        let mut out = String::new();
        for c in cases {
            for p in c {
                x ^= p;
            }
            out.push_str(if x != 0 { "Yes\n" } else { "No\n" });
        }
        out
    });
    let r = run(&c, &opts(5));
    assert_eq!(r.verdict, Verdict::WrongAnswer);
    let input = minimal_input(&r);
    let cases = P2197.parse(input, false).unwrap();
    assert_eq!(cases.len(), 2, "{input}");
    assert!(input.len() <= 12, "{input}");
}

fn crash_when(bad: impl Fn(&[u64]) -> bool + Sync) -> impl Contestant {
    RawFnContestant::new(move |input: &[u8], _: &RunLimits| {
        let cases = P2197.parse(&String::from_utf8_lossy(input), true).unwrap();
        if cases.iter().any(|c| bad(c)) {
            let mut r = RunResult::exited("", 139);
            r.exit = Exit::Signal(libc::SIGSEGV);
            return r;
        }
        RunResult::exited(crate::problems::solve_fast(&P2197, &cases).unwrap(), 0)
    })
}

#[test]
fn crash_on_large_pile_is_a_runtime_error() {
    // Lowering the pile one by one would take hundreds of runs; galloping does not.
    let c = crash_when(|p| p.iter().any(|&x| x >= 300));
    let r = run(&c, &opts(6));
    assert_eq!(r.verdict, Verdict::RuntimeError);
    assert_eq!(minimal_input(&r), "1\n1\n300\n");
    let ce = r.counterexample.as_ref().unwrap();
    assert!(ce.detail.contains("SIGSEGV"), "{}", ce.detail);
    let shrink_runs = r.runs - r.search_runs;
    assert!(shrink_runs < 150, "{shrink_runs} runs to shrink");
}

#[test]
fn failure_only_at_the_limits_is_replaced_by_a_smaller_one() {
    // Only piles near the top of the range crash it: the first failure is a huge case
    // at the limits (up to 10^4 piles), shrunk directly since p2197's largest cases fit
    // SHRINK_CASE_MAX_BYTES (shrinking it fully may not fit the short budget).
    let c = crash_when(|p| p.iter().any(|&x| x >= 9_900));
    let mut o = opts(14);
    o.time = Duration::from_secs(10);
    let r = run(&c, &o);
    assert_eq!(r.verdict, Verdict::RuntimeError);
    let ce = r.counterexample.as_ref().unwrap();
    assert!(
        ce.input.len() <= SHRINK_CASE_MAX_BYTES + 8,
        "{} bytes",
        ce.input.len()
    );
    let cases = P2197.parse(&ce.input, false).unwrap();
    assert!(cases.iter().flatten().any(|&x| x >= 9_900));
}

#[test]
fn hang_on_five_piles_is_a_time_limit() {
    let c = RawFnContestant::new(|input: &[u8], _: &RunLimits| {
        let cases = P2197.parse(&String::from_utf8_lossy(input), true).unwrap();
        if cases.iter().any(|c| c.len() >= 5) {
            let mut r = RunResult::exited("", 0);
            r.exit = Exit::Signal(libc::SIGKILL);
            r.timed_out = true;
            return r;
        }
        RunResult::exited(crate::problems::solve_fast(&P2197, &cases).unwrap(), 0)
    });
    let r = run(&c, &opts(7));
    assert_eq!(r.verdict, Verdict::TimeLimit);
    assert_eq!(minimal_input(&r), "1\n5\n0 0 0 0 0\n");
}

#[test]
fn flood_is_an_output_limit() {
    let c = p2197_fake(|p, _| {
        if p.contains(&3) {
            "y\n".repeat(10_000)
        } else {
            right(p).to_string()
        }
    });
    let mut o = opts(8);
    o.limits.output_limit = 1000;
    let r = run(&c, &o);
    assert_eq!(r.verdict, Verdict::OutputLimit);
    assert_eq!(minimal_input(&r), "1\n1\n3\n");
    assert!(r.counterexample.as_ref().unwrap().actual.len() <= 1000);
}

#[test]
fn exact_mode_sees_trailing_spaces() {
    let c = p2197_fake(|p, _| format!("{} ", right(p)));
    let r = run(&c, &opts(9));
    assert_eq!(r.verdict, Verdict::Ok);
    let mut o = opts(9);
    o.mode = CompareMode::Exact;
    let r = run(&c, &o);
    assert_eq!(r.verdict, Verdict::WrongAnswer);
    assert_eq!(minimal_input(&r), "1\n1\n0\n");
}

#[test]
fn no_batch_runs_one_case_per_run() {
    let c = p2197_fake(|p, _| right(p).to_string());
    let mut o = opts(10);
    o.batch = false;
    o.max_cases = Some(300);
    let r = run(&c, &o);
    assert_eq!(r.verdict, Verdict::Ok);
    assert_eq!((r.cases, r.runs), (300, 300));
    assert!(!r.batched);
}

/// P2197 printing `Case #t: ` before each answer: checks that an isolated case is
/// renumbered as case 1 of its own input.
struct Numbered;

impl Problem for Numbered {
    type Case = Vec<u64>;
    fn info(&self) -> Info {
        Info {
            id: "numbered",
            ..P2197.info()
        }
    }
    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<Vec<u64>>, ParseError> {
        P2197.parse(input, lenient)
    }
    fn write_input(&self, cases: &[Vec<u64>]) -> String {
        P2197.write_input(cases)
    }
    fn answer(&self, case: &Vec<u64>, index: usize) -> Result<Vec<String>, String> {
        Ok(vec![format!(
            "Case #{}: {}",
            index + 1,
            P2197.answer(case, index)?[0]
        )])
    }
    fn oracle_answer(
        &self,
        case: &Vec<u64>,
        index: usize,
        budget: usize,
    ) -> Result<Vec<String>, SearchError> {
        let a = P2197.oracle_answer(case, index, budget)?;
        Ok(vec![format!("Case #{}: {}", index + 1, a[0])])
    }
    fn max_cases(&self) -> usize {
        P2197.max_cases()
    }
    fn check_limits(&self, case: &Vec<u64>) -> Result<(), String> {
        P2197.check_limits(case)
    }
    fn small_cases(&self, size: u32) -> Vec<Vec<u64>> {
        P2197.small_cases(size)
    }
    fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> Vec<u64> {
        P2197.generate(rng, scale, shape)
    }
    fn shrink(&self, case: &Vec<u64>) -> Vec<Vec<u64>> {
        P2197.shrink(case)
    }
}

#[test]
fn isolated_case_is_renumbered() {
    let c = FnContestant::new(|input: &str| {
        let cases = P2197.parse(input, true).unwrap_or_default();
        cases
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let a = if p.contains(&7) { wrong(p) } else { right(p) };
                format!("Case #{}: {a}\n", i + 1)
            })
            .collect()
    });
    let r = audit(&Numbered, &c, &opts(11), &ProgressBar::hidden()).unwrap();
    assert_eq!(minimal_input(&r), "1\n1\n7\n");
    let ce = r.counterexample.unwrap();
    assert_eq!(ce.expected, "Case #1: Yes\n");
    assert_eq!(ce.actual, "Case #1: No\n");
}

/// P2197 whose fast answer is wrong on `2 2` (small: the cross-check during the search
/// catches it) and on 25 piles or more (too large for that: the confirmation of the
/// final counterexample must catch it).
struct BrokenFast(bool);

impl Problem for BrokenFast {
    type Case = Vec<u64>;
    fn info(&self) -> Info {
        Numbered.info()
    }
    fn parse(&self, input: &str, lenient: bool) -> Result<Vec<Vec<u64>>, ParseError> {
        P2197.parse(input, lenient)
    }
    fn write_input(&self, cases: &[Vec<u64>]) -> String {
        P2197.write_input(cases)
    }
    fn answer(&self, case: &Vec<u64>, index: usize) -> Result<Vec<String>, String> {
        if (self.0 && case == &[2, 2]) || case.len() >= 25 {
            Ok(vec![if P2197.answer(case, index)?[0] == "Yes" {
                "No"
            } else {
                "Yes"
            }
            .into()])
        } else {
            P2197.answer(case, index)
        }
    }
    fn oracle_answer(
        &self,
        case: &Vec<u64>,
        index: usize,
        budget: usize,
    ) -> Result<Vec<String>, SearchError> {
        P2197.oracle_answer(case, index, budget)
    }
    fn max_cases(&self) -> usize {
        P2197.max_cases()
    }
    fn check_limits(&self, case: &Vec<u64>) -> Result<(), String> {
        P2197.check_limits(case)
    }
    fn small_cases(&self, size: u32) -> Vec<Vec<u64>> {
        P2197.small_cases(size)
    }
    fn generate(&self, rng: &mut ChaCha8Rng, scale: f64, shape: Shape) -> Vec<u64> {
        P2197.generate(rng, scale, shape)
    }
    fn shrink(&self, case: &Vec<u64>) -> Vec<Vec<u64>> {
        P2197.shrink(case)
    }
}

#[test]
fn fast_and_oracle_disagreement_is_an_internal_error() {
    let c = p2197_fake(|p, _| right(p).to_string());
    let e = audit(&BrokenFast(true), &c, &opts(12), &ProgressBar::hidden()).unwrap_err();
    assert!(matches!(e, AuditError::OracleMismatch { .. }), "{e}");
    assert!(e.to_string().contains("INTERNAL ERROR"), "{e}");
    // Without the small case, only the final check can tell.
    let e = audit(&BrokenFast(false), &c, &opts(15), &ProgressBar::hidden()).unwrap_err();
    match e {
        AuditError::OracleMismatch { input, .. } => assert!(input.len() > 48, "{input}"),
        e => panic!("{e}"),
    }
}

#[test]
fn reproduce_command_names_the_options() {
    let mut o = opts(42);
    o.mode = CompareMode::Exact;
    let s = reproduce_command("p2197", &o, "./a.out");
    assert!(
        s.starts_with("sgcheck audit p2197 --seed 42 --cases 30000"),
        "{s}"
    );
    assert!(s.ends_with("--exact -- ./a.out"), "{s}");
}

/// Throughput of the pipeline itself (generation, answers, comparison) with an
/// instant in-process contestant: the ceiling of cases/second.
#[test]
#[ignore = "measurement; run with --ignored --nocapture in release"]
fn pipeline_throughput() {
    // A quick hand-rolled p2197 solver, so the measure is of the audit, not the fake.
    let c = FnContestant::new(|input: &str| {
        let mut it = input
            .split_ascii_whitespace()
            .map(|t| t.parse::<u64>().unwrap_or(0));
        let t = it.next().unwrap_or(0);
        let mut out = String::new();
        for _ in 0..t {
            let n = it.next().unwrap_or(0);
            let x = (0..n).fold(0, |a, _| a ^ it.next().unwrap_or(0));
            out.push_str(if x != 0 { "Yes\n" } else { "No\n" });
        }
        out
    });
    for batch in [true, false] {
        let mut o = opts(13);
        o.max_cases = None;
        o.batch = batch;
        o.time = Duration::from_secs(3);
        let r = run(&c, &o);
        assert_eq!(r.verdict, Verdict::Ok);
        eprintln!(
            "in-process, batch {batch}: {} cases in {} runs, {:.0} cases/s",
            r.cases, r.runs, r.cases_per_second
        );
    }
}

// ---------------------------------------------------------------------------------
// Shrinking at every size, and failures of several kinds.

use crate::problems::{builtin, Case, Declared};

/// The built-in hdu3032 (Lasker's Nim): its element-level shrinking comes from the
/// declaration ([`crate::problems::Problem::parts`]).
fn hdu3032() -> &'static Declared {
    builtin("hdu3032").expect("built-in")
}

fn piles_of(c: &Case) -> Vec<u64> {
    hdu3032().fields(c).swap_remove(0)
}

/// An hdu3032 "solution" that answers right except where `bad(piles)` says, where it
/// flips the answer.
fn lasker_fake(bad: impl Fn(&[u64]) -> bool + Sync) -> impl Contestant {
    FnContestant::new(move |input: &str| {
        let Ok(cases) = hdu3032().parse(input, true) else {
            return "garbage\n".to_string();
        };
        cases
            .iter()
            .map(|c| {
                let right = hdu3032().answer(c, 0).unwrap()[0].clone();
                let flip = |a: &str| if a == "Alice" { "Bob" } else { "Alice" }.to_string();
                (if bad(&piles_of(c)) {
                    flip(&right)
                } else {
                    right
                }) + "\n"
            })
            .collect()
    })
}

/// `n` piles drawn from a fixed generator in 1..=10^9.
fn random_piles(n: usize, seed: u64) -> Vec<u64> {
    use rand::{Rng, SeedableRng};
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| rng.gen_range(1..=1_000_000_000)).collect()
}

fn shrink_from<C: Contestant>(c: &C, cases: Vec<Vec<u64>>) -> Report {
    let mut o = opts(21);
    o.time = Duration::from_secs(60);
    let cases = cases.into_iter().map(|p| hdu3032().case(vec![p])).collect();
    audit_input(hdu3032(), c, &o, cases, &ProgressBar::hidden()).expect("audit runs")
}

#[test]
fn two_culprits_far_apart_in_10_5_piles_shrink_to_exactly_them() {
    let c = lasker_fake(|p| p.contains(&1_000_003) && p.contains(&2_000_003));
    let mut piles = random_piles(100_000, 1);
    piles.retain(|&x| x != 1_000_003 && x != 2_000_003);
    piles[1_234] = 1_000_003;
    piles[87_654] = 2_000_003;
    let r = shrink_from(&c, vec![piles]);
    assert_eq!(r.verdict, Verdict::WrongAnswer);
    assert_eq!(minimal_input(&r), "1\n2\n1000003 2000003\n");
    // Chunks found by doubling and bisection: O(log n) runs each; the check of
    // smaller inputs comes on top, with its own runs (one-case inputs, then inputs of
    // several cases).
    let checked = r.failures[0].minimality.checked_runs;
    assert!(r.shrink_runs - checked < 300, "{} runs", r.shrink_runs);
    assert!(
        checked <= 2 * shrink::MINIMALITY_RUNS + shrink::MINIMALITY_MULTI_RUNS,
        "{checked} runs checking"
    );
    assert_eq!(r.failures.len(), 1);
}

#[test]
fn size_threshold_shrinks_to_the_threshold_at_the_lower_bound() {
    // Wrong only above 1000 piles: 1001 piles of one stone is the minimum.
    let c = lasker_fake(|p| p.len() > 1000);
    let r = shrink_from(&c, vec![random_piles(20_000, 2), random_piles(30, 3)]);
    let want = format!("1\n1001\n{}1\n", "1 ".repeat(1000));
    assert_eq!(minimal_input(&r), want);
    assert!(r.shrink_runs < 150, "{} runs", r.shrink_runs);
}

#[test]
fn parity_bug_shrinks_to_2() {
    // Wrong on every even pile: bisection alone could stop at any even value (its
    // neighbours are odd and pass); small values are tried one by one.
    let c = lasker_fake(|p| p.iter().any(|&x| x % 2 == 0));
    for start in [
        vec![vec![6]],
        vec![vec![999_999_999, 1_000_000_000, 77_777]],
    ] {
        let r = shrink_from(&c, start);
        assert_eq!(minimal_input(&r), "1\n1\n2\n");
    }
    // Found by the search too.
    let r = audit(hdu3032(), &c, &opts(22), &ProgressBar::hidden()).unwrap();
    assert_eq!(minimal_input(&r), "1\n1\n2\n");
}

#[test]
fn wrong_answer_hidden_by_a_batch_time_out_is_found() {
    // Wrong on every input, and so slow that three cases in one input time out: the
    // first failing batch times out, but a wrong answer on one tiny case is the
    // smallest failure, and the time-out is reported as a batch's only.
    let c = RawFnContestant::new(|input: &[u8], _: &RunLimits| {
        let cases = P2197.parse(&String::from_utf8_lossy(input), true).unwrap();
        if cases.len() >= 3 {
            let mut r = RunResult::exited("", 0);
            r.exit = Exit::Signal(libc::SIGKILL);
            r.timed_out = true;
            return r;
        }
        let out: String = cases.iter().map(|c| format!("{}\n", wrong(c))).collect();
        RunResult::exited(out, 0)
    });
    let r = run(&c, &opts(23));
    assert_eq!(r.verdict, Verdict::WrongAnswer);
    assert_eq!(minimal_input(&r), "1\n1\n0\n");
    assert_eq!(r.failures.len(), 2, "{:?}", r.failures);
    let tle = &r.failures[1];
    assert_eq!(tle.verdict, Verdict::TimeLimit);
    assert_eq!(tle.cases, 3);
    assert!(tle.minimal);
    let b = tle
        .batch_only
        .as_ref()
        .expect("reported as a batch time-out");
    assert_eq!(b.cases, 3);
    assert!(tle.detail.contains("only as a batch"), "{}", tle.detail);
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["failures"][0]["verdict"], "wrong-answer");
    assert_eq!(json["failures"][1]["verdict"], "time-limit");
    assert_eq!(json["counterexample"]["input"], "1\n1\n0\n");
}

#[test]
fn slow_program_gets_batches_that_fit_the_time_limit() {
    // 20 ms per case and a 1 s limit: 50 cases would time out. Batches of the
    // format's 100 cases would all fail; batches sized from the measured time pass.
    let c = RawFnContestant::new(|input: &[u8], limits: &RunLimits| {
        let cases = hdu3032()
            .parse(&String::from_utf8_lossy(input), true)
            .unwrap();
        let elapsed = Duration::from_millis(5 + 20 * cases.len() as u64);
        let mut r = RunResult::exited(crate::problems::solve_fast(hdu3032(), &cases).unwrap(), 0);
        if elapsed > limits.timeout {
            r.exit = Exit::Signal(libc::SIGKILL);
            r.timed_out = true;
            r.stdout.clear();
        }
        r.elapsed = elapsed.min(limits.timeout);
        r
    });
    let mut o = opts(24);
    o.limits.timeout = Duration::from_secs(1);
    o.max_cases = Some(3_000);
    let r = audit(hdu3032(), &c, &o, &ProgressBar::hidden()).unwrap();
    assert_eq!(r.verdict, Verdict::Ok, "{:?}", r.counterexample);
    // Well under the limit: about 0.2 s of cases per run, some 10 a batch (the
    // source's cut of huge batches to 4 MiB drops a few of the 3000 scheduled).
    assert!(r.search_cases > 2_000, "{} cases", r.search_cases);
    assert!(r.runs > r.search_cases / 20, "{} runs", r.runs);
}

#[test]
fn sanitizer_messages_are_recognised() {
    let ubsan = b"sol.cpp:5:21: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\n";
    assert_eq!(
        sanitizer_message(ubsan).as_deref(),
        Some("signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'")
    );
    let asan = b"=================================================================\n==42==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000014 at pc 0x1\nREAD of size 4\n";
    assert_eq!(
        sanitizer_message(asan).as_deref(),
        Some("AddressSanitizer: heap-buffer-overflow on address 0x602000000014 at pc 0x1")
    );
    let rust = b"\nthread 'main' panicked at sol.rs:4:13:\nattempt to add with overflow\nnote: run with `RUST_BACKTRACE=1`\n";
    assert_eq!(
        sanitizer_message(rust).as_deref(),
        Some("attempt to add with overflow")
    );
    assert_eq!(sanitizer_message(b"Segmentation fault\n"), None);
}

#[test]
fn long_inputs_are_abbreviated() {
    let short = "1\n3\n1 2 3\n";
    assert_eq!(abbreviate(short, 40, 200), short);
    let long_line = format!("1\n100000\n{}1\n", "7 ".repeat(99_999));
    let a = abbreviate(&long_line, 40, 200);
    assert!(a.len() < 400, "{a}");
    assert!(a.contains("bytes) ..."), "{a}");
    assert!(a.contains(&format!("{} bytes", long_line.len())), "{a}");
    let many: String = (0..1000).map(|i| format!("{i} 1 1\n")).collect();
    let a = abbreviate(&many, 40, 200);
    assert_eq!(a.lines().count(), 42, "{a}");
    assert!(a.starts_with("0 1 1\n") && a.contains("999 1 1\n"), "{a}");
    assert!(a.contains("... (960 lines"), "{a}");
}

/// An output past [`runner::OUTPUT_IN_MEMORY`] is spilled to a file and compared as it
/// streams from it: a right output is judged right, and a difference in its last line
/// is found there.
#[test]
fn outputs_past_the_memory_prefix_are_judged_from_the_spill() {
    let line = "y".repeat(999);
    let lines = 10_000; // 10 MB of output, more than the 8 MiB kept in memory
    let program = ProcessContestant::new(
        "sh",
        vec![
            "-c".into(),
            format!("yes {line} | head -n {lines}; echo last"),
        ],
    )
    .unwrap();
    let limits = RunLimits {
        timeout: Duration::from_secs(30),
        ..RunLimits::default()
    };
    let r = program.run(b"", &limits).unwrap();
    assert_eq!(r.stdout.len(), runner::OUTPUT_IN_MEMORY);
    assert!(r.stdout_spill.is_some());
    assert!(!r.output_truncated);
    let mut want: Vec<String> = vec![line.clone(); lines];
    want.push("last".to_string());
    for mode in [CompareMode::Tokens, CompareMode::Exact] {
        assert!(
            judge(r.clone(), &[want.clone()], mode, &limits).is_none(),
            "{mode:?}"
        );
    }
    let mut wrong = want.clone();
    *wrong.last_mut().unwrap() = "first".to_string();
    let f = judge(r, &[wrong], CompareMode::Tokens, &limits).expect("a wrong last line");
    assert_eq!(f.kind, Verdict::WrongAnswer);
    let m = f.mismatch.unwrap();
    assert_eq!(
        (m.expected_line, m.actual.as_deref()),
        (lines + 1, Some("last"))
    );
}

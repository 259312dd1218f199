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
    assert!(ce.shrink_steps >= 1, "isolated from its batch");
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
        RunResult::exited(crate::problems::solve_fast(&P2197, &cases), 0)
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
        RunResult::exited(crate::problems::solve_fast(&P2197, &cases), 0)
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
    fn answer(&self, case: &Vec<u64>, index: usize) -> Vec<String> {
        vec![format!(
            "Case #{}: {}",
            index + 1,
            P2197.answer(case, index)[0]
        )]
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
    fn answer(&self, case: &Vec<u64>, index: usize) -> Vec<String> {
        if (self.0 && case == &[2, 2]) || case.len() >= 25 {
            vec![if P2197.answer(case, index)[0] == "Yes" {
                "No"
            } else {
                "Yes"
            }
            .into()]
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

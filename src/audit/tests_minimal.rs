//! The minimality check and its claim, in process: a Nim program that caps every
//! pile's Grundy value at 3 fails on two piles worth 3 and 4 at the least; from a case
//! of 10^4 piles the audit must come down to such an input and call it `minimal` with
//! every smaller one-case input checked (and inputs of several cases up to the size
//! their budget reaches). The claim is verified on its own, and a planted false
//! claim (a larger failing input called minimal) is refused.

use super::*;
use crate::problems::builtin;

fn opts() -> AuditOptions {
    AuditOptions {
        seed: 1,
        time: Duration::from_secs(60),
        jobs: 1,
        ..AuditOptions::default()
    }
}

/// The capped program: the XOR of min(pile, cap).
fn capped(cap: u64) -> FnContestant<impl Fn(&str) -> String + Sync> {
    let p = builtin("p2197").expect("built-in");
    FnContestant::new(move |input: &str| {
        let Ok(cases) = p.parse(input, true) else {
            return "garbage\n".to_string();
        };
        cases
            .iter()
            .map(|c| {
                let piles = &p.fields(c)[0];
                let x = piles.iter().fold(0, |a, &v| a ^ v.min(cap));
                if x != 0 { "Yes\n" } else { "No\n" }.to_string()
            })
            .collect()
    })
}

/// Every list of piles (at least one) whose size, the sum of the piles plus one per
/// pile past the first, is `size`.
fn lists_of_size(size: u64) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for len in 1..=size + 1 {
        let spend = size + 1 - len;
        let mut cur = Vec::new();
        fn go(left: usize, spend: u64, cur: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
            if left == 1 {
                cur.push(spend);
                out.push(cur.clone());
                cur.pop();
                return;
            }
            for v in 0..=spend {
                cur.push(v);
                go(left - 1, spend - v, cur, out);
                cur.pop();
            }
        }
        go(len as usize, spend, &mut cur, &mut out);
    }
    out
}

/// The smallest failing inputs of the capped program, by brute force over the model:
/// every list of the smallest size on which its verdict differs from Nim's.
fn smallest_failing(cap: u64) -> (u64, Vec<Vec<u64>>) {
    for size in 0..40 {
        let failing: Vec<Vec<u64>> = lists_of_size(size)
            .into_iter()
            .filter(|l| {
                let truth = l.iter().fold(0, |a, &v| a ^ v) != 0;
                let model = l.iter().fold(0, |a, &v| a ^ v.min(cap)) != 0;
                truth != model
            })
            .collect();
        if !failing.is_empty() {
            return (size, failing);
        }
    }
    unreachable!("the capped program fails on some small input")
}

/// 10^4 piles in 0..10^4, a losing position (the last pile makes the XOR zero) that
/// the program capped at 3 calls winning.
fn big_losing_case() -> Vec<u64> {
    let mut piles: Vec<u64> = (0..10_000u64).map(|i| (i * 7_919 + 13) % 10_000).collect();
    for k in 0..10_000 {
        for first in 0..4 {
            piles[0] = first;
            let x = piles[..9_999].iter().fold(0, |a, &v| a ^ v);
            let capped = piles[..9_999].iter().fold(0, |a, &v| a ^ v.min(3)) ^ x.min(3);
            if x < 10_000 && capped != 0 {
                piles[9_999] = x;
                return piles;
            }
        }
        piles[k + 1] = 0;
    }
    unreachable!("a losing case the capped program gets wrong")
}

#[test]
fn a_value_cap_needs_two_components_and_is_proved_minimal_among_one_case_inputs() {
    let p = builtin("p2197").expect("built-in");
    let (size, failing) = smallest_failing(3);
    let program = capped(3);
    let o = opts();
    let case = p.case(vec![big_losing_case()]);
    let r = audit_input(p, &program, &o, vec![case], &ProgressBar::hidden()).expect("runs");
    assert_eq!(r.verdict, Verdict::WrongAnswer);
    let c = r.counterexample.expect("a counterexample");
    let m = c.minimality;
    assert_eq!(m.kind, MinimalityKind::Minimal, "{c:?}");
    assert_eq!(m.size, Some(size), "{c:?}");
    // Every smaller one-case input passes; those of several cases (one a run, many
    // more) only up to a lower size, so the claim is not complete.
    assert_eq!(m.one_case_checked_up_to, Some(size - 1), "{m:?}");
    assert!(m.several_cases, "{m:?}");
    let up_to = m.checked_up_to.expect("a bound");
    assert!(up_to >= 1 && up_to < size - 1, "{m:?}");
    assert!(!m.complete, "{m:?}");
    let cases = p.parse(&c.input, false).expect("parses");
    let piles = p.fields(&cases[0])[0].clone();
    assert!(failing.contains(&piles), "{piles:?} not in {failing:?}");
    verify_minimality(p, &program, &o, &cases, &m, 10_000).expect("the claim holds");
    // The JSON carries it.
    let json = serde_json::to_value(&c).expect("serializes");
    assert_eq!(json["minimality"]["kind"], "minimal");
    assert_eq!(json["minimal"], true);
}

#[test]
fn a_planted_false_minimal_claim_is_refused() {
    let p = builtin("p2197").expect("built-in");
    let program = capped(3);
    let o = opts();
    // Fails (3 ^ 4 is nonzero; capped, 3 ^ 3 is zero), but is not the smallest.
    let cases = vec![p.case(vec![vec![3, 4, 0, 0]])];
    let size = p.case_size(&cases[0]).expect("a size");
    let claim = Minimality {
        kind: MinimalityKind::Minimal,
        size: Some(size),
        checked_up_to: Some(size - 1),
        one_case_checked_up_to: Some(size - 1),
        several_cases: true,
        complete: true,
        checked_cases: 0,
        checked_runs: 0,
    };
    let err = verify_minimality(p, &program, &o, &cases, &claim, 10_000)
        .expect_err("a false claim is refused");
    assert!(err.contains("fails"), "{err}");
    // A claim of completeness with a bound too low is refused too.
    let short = Minimality {
        checked_up_to: Some(1),
        ..claim
    };
    assert!(verify_minimality(p, &program, &o, &cases, &short, 10_000).is_err());
    // The audit on the same input does not make the false claim.
    let r = audit_input(p, &program, &o, cases, &ProgressBar::hidden()).expect("runs");
    let c = r.counterexample.expect("a counterexample");
    let again = p.parse(&c.input, false).expect("parses");
    assert!(p.case_size(&again[0]).expect("a size") < size, "{c:?}");
    verify_minimality(p, &program, &o, &again, &c.minimality, 10_000).expect("holds");
}

#[test]
fn a_correct_program_passes() {
    let p = builtin("p2197").expect("built-in");
    let program = capped(u64::MAX);
    let case = p.case(vec![big_losing_case()]);
    let r = audit_input(p, &program, &opts(), vec![case], &ProgressBar::hidden()).expect("runs");
    assert_eq!(r.verdict, Verdict::Ok);
}

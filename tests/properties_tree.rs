//! quickcheck properties of `hackenbush-tree`: the fast solver (colon principle)
//! against the exhaustive oracle on small random trees, with shrinking to a minimal
//! tree, and facts of Green Hackenbush checked on the oracle alone.

use quickcheck::TestResult;
use sgcheck::arbitrary::Case;
use sgcheck::games::hackenbush_tree::{tree_of, HackenbushTreeSubject};
use sgcheck::oracles::games::hackenbush_tree::{HackenbushTree, Tree};
use sgcheck::oracles::{Analysis, Solver};
use sgcheck::verify::{compare, Planted};

const BUDGET: usize = 200_000;

/// The suite's properties: at least 300 passing cases in at most 3000 tries, or the
/// property fails naming how many were discarded (a property that checked too little
/// does not pass).
struct Qc;

impl Qc {
    fn quickcheck<A: quickcheck::Testable>(&self, prop: A) {
        sgcheck::arbitrary::check_property(prop, 300, 3000);
    }
}

fn qc() -> Qc {
    Qc
}

fn agrees(case: Case<HackenbushTree>) -> TestResult {
    let mut solver = Solver::verdict_only(HackenbushTree).with_budget(BUDGET);
    match compare(&HackenbushTreeSubject, &mut solver, &case.position) {
        Ok(None) => TestResult::passed(),
        Ok(Some(d)) => TestResult::error(format!(
            "fast: {}; oracle: {}; {}",
            d.fast, d.oracle, d.reproduce
        )),
        Err(_) => TestResult::discard(),
    }
}

#[test]
fn qc_hackenbush_tree_fast_agrees_with_oracle() {
    qc().quickcheck(agrees as fn(Case<HackenbushTree>) -> TestResult);
}

/// The tree as flat undirected edges, vertices numbered 1..=n in order of label.
fn flat(t: &Tree) -> Vec<u64> {
    t.0.iter()
        .flat_map(|&(a, b)| [u64::from(a), u64::from(b)])
        .collect()
}

/// Renaming the vertices other than the root, writing edges backwards and in another
/// order: the same game, the same verdict (oracle alone).
#[test]
fn qc_relabelling_keeps_the_verdict() {
    fn prop(case: Case<HackenbushTree>, seed: u64) -> TestResult {
        let t = &case.position;
        let n = t.0.len() as u64 + 1;
        if n > 10 || t.0.iter().any(|&(a, b)| u64::from(a.max(b)) > n) {
            return TestResult::discard();
        }
        // A permutation of 2..=n from the seed (vertex 1 stays the root).
        let mut rest: Vec<u64> = (2..=n).collect();
        let mut s = seed | 1;
        for i in (1..rest.len()).rev() {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            rest.swap(i, (s % (i as u64 + 1)) as usize);
        }
        let name = |v: u64| if v == 1 { 1 } else { rest[v as usize - 2] };
        let mut edges: Vec<u64> = flat(t)
            .chunks(2)
            .rev()
            .flat_map(|e| [name(e[1]), name(e[0])])
            .collect();
        let len = edges.len().max(1);
        edges.rotate_left((seed % 7) as usize * 2 % len);
        let renamed = tree_of(&edges).unwrap();
        let mut solver = Solver::verdict_only(HackenbushTree);
        let a = solver.outcome(t).unwrap().win;
        let b = solver.outcome(&renamed).unwrap().win;
        TestResult::from_bool(a == b)
    }
    qc().quickcheck(prop as fn(Case<HackenbushTree>, u64) -> TestResult);
}

/// A tree with an odd number of edges is a first-player win (its value has the
/// parity of its edge count), by search.
#[test]
fn qc_odd_edge_counts_win() {
    fn prop(case: Case<HackenbushTree>) -> TestResult {
        if case.position.0.len().is_multiple_of(2) {
            return TestResult::discard();
        }
        let win = Solver::verdict_only(HackenbushTree)
            .with_budget(BUDGET)
            .outcome(&case.position);
        match win {
            Ok(o) => TestResult::from_bool(o.win),
            Err(_) => TestResult::discard(),
        }
    }
    qc().quickcheck(prop as fn(Case<HackenbushTree>) -> TestResult);
}

/// The checker catches a planted bug: the value of a branch taken as SG(c), not
/// SG(c) + 1 (every stalk forgotten), found and shrunk to one edge.
#[test]
fn planted_forgotten_stalk_is_caught() {
    fn wrong(
        _: &HackenbushTree,
        pos: &Tree,
    ) -> Analysis<sgcheck::oracles::games::hackenbush_tree::Cut> {
        // Without the +1 every value is 0: no tree is ever a win.
        let _ = pos;
        Analysis {
            win: false,
            winning: Vec::new(),
            remoteness: None,
        }
    }
    let d = Planted {
        subject: &HackenbushTreeSubject,
        fast: wrong,
    }
    .first_disagreement(std::time::Duration::from_secs(3))
    .expect("planted bug not found");
    assert_eq!(d.position, "1-2", "{d:?}");
}

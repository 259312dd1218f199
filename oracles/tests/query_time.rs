//! `set_query_time_limit` bounds every query of the process that has no limit of its
//! own (its own test binary: the limit is process-wide).

use sgcheck_oracles::games::ed::{Ed, EdPiles};
use sgcheck_oracles::{set_query_time_limit, SearchError, Solver};
use std::time::{Duration, Instant};

#[test]
fn a_query_past_the_process_limit_fails_with_time() {
    // E&D on two large pairs: hundreds of thousands of positions, each with thousands
    // of moves; far more than 20 ms.
    let big = EdPiles(vec![700, 1400, 900, 1100]);
    set_query_time_limit(Some(Duration::from_millis(20)));
    let start = Instant::now();
    let r = Solver::verdict_only(Ed)
        .with_budget(usize::MAX)
        .outcome(&big);
    assert!(matches!(r, Err(SearchError::Time { .. })), "{r:?}");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    // A solver's own limit wins over the process-wide one.
    let r = Solver::verdict_only(Ed)
        .with_time_limit(Duration::from_secs(30))
        .outcome(&EdPiles(vec![2, 3]));
    assert!(r.is_ok(), "{r:?}");
    set_query_time_limit(None);
    let r = Solver::verdict_only(Ed).outcome(&EdPiles(vec![3, 4, 1, 1]));
    assert!(r.is_ok(), "{r:?}");
}

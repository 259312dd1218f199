//! `set_query_time_limit` bounds every query of the process that has no limit of its
//! own (its own test binary: the limit is process-wide); `with_deadline` bounds the
//! queries of one thread for a while.

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

#[test]
fn a_scoped_deadline_cuts_queries_on_its_thread_only_and_is_restored() {
    use sgcheck_oracles::{scoped_deadline, with_deadline};
    let big = EdPiles(vec![700, 1400, 900, 1100]);
    let start = Instant::now();
    let outer = start + Duration::from_millis(20);
    let r = with_deadline(outer, || {
        // Another thread does not see it.
        assert_eq!(std::thread::spawn(scoped_deadline).join().unwrap(), None);
        // A later inner deadline does not extend it.
        with_deadline(outer + Duration::from_secs(60), || {
            assert_eq!(scoped_deadline(), Some(outer));
            Solver::verdict_only(Ed)
                .with_budget(usize::MAX)
                .outcome(&big)
        })
    });
    assert!(matches!(r, Err(SearchError::Time { .. })), "{r:?}");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(scoped_deadline(), None);
    let r = Solver::verdict_only(Ed).outcome(&EdPiles(vec![3, 4, 1, 1]));
    assert!(r.is_ok(), "{r:?}");
}

//! The sweep of one game: tier 1, then tier 2 smallest-first and random, in parallel
//! batches, each check watched for hangs.

use super::*;
use rayon::prelude::*;

/// What a batch of checks found (tier 3, in `problems`, counts the same way).
#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) checked: u64,
    pub(crate) skipped: u64,
    /// Tier 3: generated cases whose rules are invalid (a generator failure).
    pub(crate) invalid: u64,
    /// The first such case and why.
    pub(crate) first_invalid: Option<String>,
    /// (order key, disagreement) of the smallest disagreement seen.
    pub(crate) first: Option<(u64, Disagreement)>,
    pub(crate) disagreements: u64,
    /// Some instances of the batch were not checked: the phase's time ran out.
    pub(crate) cut: bool,
}

impl Tally {
    pub(crate) fn merge(mut self, other: Tally) -> Tally {
        self.checked += other.checked;
        self.skipped += other.skipped;
        self.invalid += other.invalid;
        self.first_invalid = self.first_invalid.or(other.first_invalid);
        self.disagreements += other.disagreements;
        self.cut |= other.cut;
        self.first = match (self.first, other.first) {
            (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
            (a, b) => a.or(b),
        };
        self
    }
}

/// Checks a batch of instances in parallel; `order` numbers them for "smallest first".
/// Every check is recorded on `watch` while it runs, under its number.
pub(crate) fn check_batch<S: Subject>(
    subject: &S,
    batch: &[(S::Rules, <S::Rules as Rules>::Position)],
    order: u64,
    stop_at: Instant,
    sweep: &Sweep,
    watch: &Watch,
) -> Tally {
    let budget = sweep.budget;
    batch
        .par_chunks(64)
        .enumerate()
        .map(|(c, chunk)| {
            let mut tally = Tally::default();
            // Each worker thread keeps its solver (and table) per rules across chunks
            // and batches: small positions recur in every size. One is held while
            // consecutive instances share their rules.
            let mut held: Option<Solver<S::Rules>> = None;
            for (i, (rules, pos)) in chunk.iter().enumerate() {
                // The phase's time is a wall-time budget: no check starts after it.
                if Instant::now() >= stop_at {
                    tally.cut = true;
                    break;
                }
                let key = order + (c * 64 + i) as u64;
                if !sweep.shard.owns(key) {
                    continue;
                }
                let solver = match held.take() {
                    Some(s) if s.rules() == rules => s,
                    other => {
                        if let Some(s) = other {
                            put_back_solver(s);
                        }
                        take_cached_solver(rules, true, budget)
                    }
                };
                let solver = held.insert(solver);
                watch.begin(key);
                let result = compare(subject, solver, pos);
                watch.end();
                match result {
                    Ok(None) => tally.checked += 1,
                    Ok(Some(d)) => {
                        tally.checked += 1;
                        tally.disagreements += 1;
                        if tally.first.as_ref().is_none_or(|f| key < f.0) {
                            tally.first = Some((key, d));
                        }
                    }
                    Err(_) => tally.skipped += 1,
                }
            }
            if let Some(s) = held {
                put_back_solver(s);
            }
            tally
        })
        .reduce(Tally::default, Tally::merge)
}

/// Puts the instances of equal rules next to each other, in a fixed order (the
/// rules' hash, then the order drawn): a worker keeps one solver, and its table, while
/// the rules stay the same, so random instances of a game with many rules values
/// (octal codes, auction bids) reuse tables instead of starting each afresh.
pub(crate) fn group_by_rules<R: Hash, P>(batch: &mut [(R, P)]) {
    use std::hash::{BuildHasher, BuildHasherDefault};
    let hasher = BuildHasherDefault::<rustc_hash::FxHasher>::default();
    batch.sort_by_cached_key(|(r, _)| hasher.hash_one(r));
}

/// How a hung check of a batch is described: the rules and position of instance
/// `key - base`.
pub(crate) fn describer<R: Rules + Display + Send + Sync + 'static>(
    batch: &Arc<Vec<(R, R::Position)>>,
    base: u64,
) -> Describe
where
    R::Position: Send + Sync + 'static,
{
    let batch = Arc::clone(batch);
    Arc::new(move |key| {
        let i = key.saturating_sub(base) as usize;
        match batch.get(i) {
            Some((r, p)) => (r.to_string(), p.to_string()),
            None => ("-".to_string(), format!("instance {key}")),
        }
    })
}

pub(crate) fn per_second(n: u64, d: Duration) -> f64 {
    let s = d.as_secs_f64();
    if s > 0.0 {
        n as f64 / s
    } else {
        0.0
    }
}

/// The largest share of a game's time (`Sweep::time`) tier 1 may use before it is
/// stopped, so that tier 2 always has time left.
pub const TIER1_SHARE: f64 = 0.6;

/// Runs a subject's tier 1 under the watch and the time budget: a panic is a
/// disagreement (with its message), the budget stops it (the report says so).
pub(crate) fn run_tier1<S: Subject>(subject: &S, sweep: &Sweep, watch: &Arc<Watch>) -> TierReport {
    let start = Instant::now();
    let id = subject.id();
    watch.enter_tier(1, None);
    *watch.tier1.lock().unwrap_or_else(|e| e.into_inner()) = (0, 0, None);
    // Tier 1 may use at most this share of the game's time: tier 2 always gets the rest.
    let budget = sweep.time.mul_f64(TIER1_SHARE);
    let guard = Tier1Guard {
        watch: Some(Arc::clone(watch)),
        deadline: Some(start + budget),
    };
    let previous = TIER1_GUARD.with(|g| std::mem::replace(&mut *g.borrow_mut(), guard));
    watch.begin(0);
    let result = crate::guard::catch_quiet(|| subject.tier1());
    watch.end();
    TIER1_GUARD.with(|g| *g.borrow_mut() = previous);
    let elapsed = start.elapsed();
    let reproduce = format!("sgcheck verify --game {id}");
    let to_disagreement = |(what, closed, table): (String, String, String)| Disagreement {
        rules: "-".into(),
        position: what,
        fast: format!("closed form {closed}"),
        oracle: format!("SG table {table}"),
        reproduce: reproduce.clone(),
    };
    let (checked, disagreements, first, skipped, note) = match result {
        Ok(t1) => (
            t1.checked,
            t1.disagreements,
            t1.first.map(to_disagreement),
            t1.skipped,
            t1.note,
        ),
        Err(p) => {
            let (checked, dis, first) = watch
                .tier1
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone();
            if p.payload.is::<Tier1Stop>() {
                (
                    checked,
                    dis,
                    first.map(to_disagreement),
                    0,
                    Some(format!(
                        "stopped at the time budget ({:.1} s) after {checked} comparisons",
                        budget.as_secs_f64()
                    )),
                )
            } else {
                let panic = Disagreement {
                    rules: "-".into(),
                    position: format!("tier 1, after comparison {checked}"),
                    fast: format!("panicked: {}", p.message),
                    oracle: "-".into(),
                    reproduce: reproduce.clone(),
                };
                (
                    checked,
                    dis + 1,
                    Some(first.map_or(panic, to_disagreement)),
                    0,
                    Some("tier 1 panicked; the comparisons after it did not run".into()),
                )
            }
        }
    };
    TierReport {
        tier: 1,
        checked,
        agreements: checked.saturating_sub(disagreements),
        disagreements,
        skipped,
        seconds: elapsed.as_secs_f64(),
        per_second: per_second(checked, elapsed),
        first_disagreement: first,
        exhaustive_size: None,
        enumerated_size: None,
        enumerated_skipped: 0,
        note,
        generator_failures: 0,
    }
}

/// Runs both tiers for one game: tier 1 (the subject's own checks), then tier 2, the
/// fast side against the oracle on every instance smallest first, then on random ones.
///
/// Both tiers run under the time budget (`sweep.time`), every check recorded on the
/// sweep's watch (see [`crate::guard`]), and a panic of the fast side is reported as a
/// disagreement with its message.
pub fn verify_subject<S: Subject, P: Progress + ?Sized>(
    subject: &S,
    sweep: &Sweep,
    progress: &P,
) -> GameReport {
    let start = Instant::now();
    let id = subject.id();
    let watch = sweep.watch.clone().unwrap_or_default();
    progress.message(format!("{id}: tier 1"));
    let tier1 = if sweep.tier1 {
        run_tier1(subject, sweep, &watch)
    } else {
        TierReport::empty(1)
    };
    watch.finish_tier(tier1.clone());
    let t1_time = start.elapsed();

    let t2_start = Instant::now();
    let remaining = sweep.time.saturating_sub(t1_time);
    let enumerate_until = t2_start + remaining.mul_f64(sweep.enumerate_share);
    let random_until = t2_start + remaining;
    let mut tally = Tally::default();
    let mut order = 0u64;
    // Smallest first: stop at the first size with a disagreement, it holds the smallest.
    let mut size = 0u32;
    let mut exhaustive_size = None;
    let mut enumerated_size = None;
    let mut enumerated_skipped = 0;
    while Instant::now() < enumerate_until
        && tally.disagreements == 0
        && sweep.max_size.is_none_or(|m| size <= m)
    {
        let batch = Arc::new(subject.instances(size));
        if batch.is_empty() {
            break;
        }
        watch.enter_tier(2, Some(describer(&batch, order)));
        let n = batch.len() as u64;
        let t = check_batch(subject, &batch, order, enumerate_until, sweep, &watch);
        let found = t.disagreements > 0;
        let skipped = t.skipped;
        let cut = t.cut;
        tally = tally.merge(t);
        // A size cut short by the time is not enumerated (and ends the enumeration).
        if !found && !cut {
            enumerated_size = Some(size);
            enumerated_skipped += skipped;
            if enumerated_skipped == 0 {
                exhaustive_size = Some(size);
            }
        }
        order += n;
        progress.message(format!(
            "{id}: tier 2, size {size}, {} positions",
            tally.checked
        ));
        size += 1;
    }
    let mut round = 0u64;
    while Instant::now() < random_until
        && tally.disagreements == 0
        && sweep.random_batches.is_none_or(|m| round < m)
    {
        let mut rng =
            ChaCha8Rng::seed_from_u64(sweep.seed ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut batch: Vec<_> = (0..2048)
            .map(|_| subject.random_instance(&mut rng))
            .collect();
        group_by_rules(&mut batch);
        let batch = Arc::new(batch);
        watch.enter_tier(2, Some(describer(&batch, order)));
        tally = tally.merge(check_batch(
            subject,
            &batch,
            order,
            random_until,
            sweep,
            &watch,
        ));
        order += batch.len() as u64;
        round += 1;
        progress.message(format!("{id}: tier 2, random, {} positions", tally.checked));
    }
    let t2_time = t2_start.elapsed();
    let tier2 = TierReport {
        tier: 2,
        checked: tally.checked,
        agreements: tally.checked - tally.disagreements,
        disagreements: tally.disagreements,
        skipped: tally.skipped,
        seconds: t2_time.as_secs_f64(),
        per_second: per_second(tally.checked, t2_time),
        first_disagreement: tally.first.map(|(_, d)| d),
        exhaustive_size,
        enumerated_size,
        enumerated_skipped,
        note: None,
        generator_failures: 0,
    };
    watch.finish_tier(tier2.clone());
    watch.enter_tier(0, None);
    // The solvers this game's workers kept are of no use to the next game.
    rayon::broadcast(|_| sgcheck_oracles::clear_solver_cache());
    sgcheck_oracles::clear_solver_cache();
    progress.game_done();
    GameReport {
        game: id.to_string(),
        tiers: vec![tier1, tier2],
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Runs one game's verification (`work`, given the sweep with a fresh watch) on a
/// thread of its own with [`crate::guard::run_guarded`]: a check that runs longer than
/// `sweep.hang_after` is reported as a hang (a disagreement of its tier, at the
/// position it was checking), and the tiers finished before it are kept. A panic that
/// escapes every check is reported the same way, as a crash. `reproduce` is the
/// command that re-runs the game.
///
/// ```
/// use sgcheck::games::nim::NimSubject;
/// use sgcheck::verify::{verify_guarded, verify_subject, Planted, Sweep};
/// use sgcheck::oracles::games::nim::{Nim, Piles, Take};
/// use sgcheck::oracles::Analysis;
/// use std::time::Duration;
///
/// // A fast solver that never returns on a pile of 3.
/// fn stuck(_: &Nim, pos: &Piles) -> Analysis<Take> {
///     while pos.0.contains(&3) {
///         std::thread::sleep(Duration::from_millis(10));
///     }
///     sgcheck::games::nim::analyze(pos)
/// }
/// let sweep = Sweep { time: Duration::from_secs(2), hang_after: Duration::from_millis(300), ..Sweep::default() };
/// let r = verify_guarded("nim", &sweep, "sgcheck verify --game nim".into(), |sweep| {
///     verify_subject(&Planted { subject: &NimSubject, fast: stuck }, &sweep, &())
/// });
/// let d = r.tiers[1].first_disagreement.as_ref().unwrap();
/// assert!(d.position.contains('3') && d.fast.contains("hang"), "{d:?}");
/// ```
pub fn verify_guarded<F>(id: &str, sweep: &Sweep, reproduce: String, work: F) -> GameReport
where
    F: FnOnce(Sweep) -> GameReport + Send + 'static,
{
    let start = Instant::now();
    let watch = Arc::new(Watch::new());
    let guarded = Sweep {
        watch: Some(Arc::clone(&watch)),
        ..sweep.clone()
    };
    let bound = sweep.hang_after;
    let (tier, position, rules, fast) =
        match crate::guard::run_guarded(&watch, bound, move || work(guarded)) {
            crate::guard::Guarded::Done(r) => return r,
            crate::guard::Guarded::Hang { tier, key, at } => {
                let (rules, position) = match (tier, at) {
                    (1, _) => ("-".to_string(), format!("tier 1, after comparison {key}")),
                    (_, Some((r, p))) => (r, p),
                    (_, None) => ("-".to_string(), format!("check {key} of tier {tier}")),
                };
                let fast = format!(
                    "no answer within {:.1} s: the check did not return (a hang)",
                    bound.as_secs_f64()
                );
                (tier, position, rules, fast)
            }
            crate::guard::Guarded::Crashed(msg) => {
                let tier = watch.tier();
                (
                    tier,
                    format!("tier {tier}, outside any single check"),
                    "-".to_string(),
                    format!("panicked: {msg}"),
                )
            }
        };
    let tier = tier.max(1);
    let mut tiers = watch.finished();
    tiers.retain(|t| t.tier < tier);
    let mut hung = TierReport::empty(tier);
    hung.disagreements = 1;
    hung.checked = 1;
    hung.first_disagreement = Some(Disagreement {
        rules,
        position,
        fast,
        oracle: "-".into(),
        reproduce,
    });
    hung.seconds = start.elapsed().as_secs_f64();
    tiers.push(hung);
    GameReport {
        game: id.to_string(),
        tiers,
        seconds: start.elapsed().as_secs_f64(),
    }
}

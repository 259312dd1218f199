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
    /// Instances the problem could not answer because its declaration failed (a
    /// script that threw or ran past a limit), with the first (order key, what).
    pub(crate) failed: u64,
    pub(crate) first_failed: Option<(u64, String)>,
}

impl Tally {
    /// A tally of one disagreement, found before the numbered instances (order 0).
    pub(crate) fn disagreement(d: Disagreement) -> Tally {
        Tally {
            checked: 1,
            disagreements: 1,
            first: Some((0, d)),
            ..Tally::default()
        }
    }

    pub(crate) fn merge(mut self, other: Tally) -> Tally {
        self.checked += other.checked;
        self.skipped += other.skipped;
        self.invalid += other.invalid;
        self.first_invalid = self.first_invalid.or(other.first_invalid);
        self.disagreements += other.disagreements;
        self.cut |= other.cut;
        self.failed += other.failed;
        self.first_failed = match (self.first_failed, other.first_failed) {
            (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
            (a, b) => a.or(b),
        };
        self.first = match (self.first, other.first) {
            (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
            (a, b) => a.or(b),
        };
        self
    }
}

/// Checks a batch of instances in parallel, in chunks of 64; `order` numbers them for
/// "smallest first", and only those of this run's shard are checked. Every check is
/// recorded on `watch` while it runs, under its number. Each chunk has a `worker`
/// state (`fresh()`, given back to `done` at the end) that `each` may keep things in
/// across the chunk's instances.
#[allow(clippy::too_many_arguments)]
pub(crate) fn check_each<I: Sync, W>(
    batch: &[I],
    order: u64,
    stop_at: Instant,
    sweep: &Sweep,
    watch: &Watch,
    fresh: impl Fn() -> W + Sync,
    each: impl Fn(&mut W, &I) -> Result<Option<Disagreement>, SearchError> + Sync,
    done: impl Fn(W) + Sync,
) -> Tally {
    let grace = sweep.time.div_f64(20.0).max(Duration::from_millis(20));
    batch
        .par_chunks(64)
        .enumerate()
        .map(|(c, chunk)| {
            let mut tally = Tally::default();
            let mut worker = fresh();
            for (i, instance) in chunk.iter().enumerate() {
                // The phase's time is a wall-time budget: no check starts after it.
                if Instant::now() >= stop_at {
                    tally.cut = true;
                    break;
                }
                let key = order + (c * 64 + i) as u64;
                if !sweep.shard.owns(key) {
                    continue;
                }
                watch.begin(key);
                // A check started in time is cut a little past the phase's end (a
                // twentieth of the game's time, at least 20 ms): an oracle search or a
                // declared game's table still running then is counted as skipped.
                let result =
                    sgcheck_oracles::with_deadline(stop_at + grace, || each(&mut worker, instance));
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
            done(worker);
            tally
        })
        .reduce(Tally::default, Tally::merge)
}

/// Checks a batch of a subject's instances in parallel (see [`check_each`]).
pub(crate) fn check_batch<S: Subject>(
    subject: &S,
    batch: &[(S::Rules, <S::Rules as Rules>::Position)],
    order: u64,
    stop_at: Instant,
    sweep: &Sweep,
    watch: &Watch,
) -> Tally {
    let budget = sweep.budget;
    // Each worker thread keeps its solver (and table) per rules across chunks and
    // batches: small positions recur in every size. One is held while consecutive
    // instances share their rules.
    check_each(
        batch,
        order,
        stop_at,
        sweep,
        watch,
        || None::<Solver<S::Rules>>,
        |held, (rules, pos)| {
            let solver = match held.take() {
                Some(s) if s.rules() == rules => s,
                other => {
                    if let Some(s) = other {
                        put_back_solver(s);
                    }
                    take_cached_solver(rules, true, budget)
                }
            };
            compare(subject, held.insert(solver), pos)
        },
        |held| {
            if let Some(s) = held {
                put_back_solver(s);
            }
        },
    )
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

/// How a hung check of a batch is described: `describe` (rules, position) of
/// instance `key - base`.
pub(crate) fn describer<I: Send + Sync + 'static>(
    batch: &Arc<Vec<I>>,
    base: u64,
    describe: fn(&I) -> (String, String),
) -> Describe {
    let batch = Arc::clone(batch);
    Arc::new(move |key| {
        let i = key.saturating_sub(base) as usize;
        match batch.get(i) {
            Some(instance) => describe(instance),
            None => ("-".to_string(), format!("instance {key}")),
        }
    })
}

/// The rules and position of a subject's instance, for [`describer`].
fn describe_instance<R: Rules + Display>(instance: &(R, R::Position)) -> (String, String) {
    (instance.0.to_string(), instance.1.to_string())
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
    let reproduce = format!("{} verify --game {}", crate::shell::program(), subject.id());
    run_tier1_with(sweep, watch, reproduce, || {
        let t1 = subject.tier1();
        if t1.is_none() {
            Err(
                "the game has no tier 1 (no closed form of its own to check against a \
                 table): tiers 2 and 3 check its fast side"
                    .into(),
            )
        } else {
            Ok(t1)
        }
    })
}

/// Runs a tier 1 (`tier1`: its report, or why the game has none) under the watch and
/// the time budget, as [`run_tier1`] does; `reproduce` re-runs it.
pub(crate) fn run_tier1_with(
    sweep: &Sweep,
    watch: &Arc<Watch>,
    reproduce: String,
    tier1: impl FnOnce() -> Result<Tier1Report, String>,
) -> TierReport {
    let start = Instant::now();
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
    let result = crate::guard::catch_quiet(tier1);
    watch.end();
    TIER1_GUARD.with(|g| *g.borrow_mut() = previous);
    let elapsed = start.elapsed();
    let result = match result {
        Ok(Err(why)) => return TierReport::not_applicable(1, why),
        Ok(Ok(t1)) => Ok(t1),
        Err(p) => Err(p),
    };
    let to_disagreement = |(what, closed, table): (String, String, String)| Disagreement {
        rules: "-".into(),
        position: what,
        fast: format!("closed form {closed}"),
        oracle: format!("SG table {table}"),
        reproduce: reproduce.clone(),
    };
    let mut failed = (0, None);
    let (checked, disagreements, first, skipped, note) = match result {
        Ok(t1) => {
            failed = (t1.failed, t1.first_failed);
            (
                t1.checked,
                t1.disagreements,
                t1.first.map(to_disagreement),
                t1.skipped,
                t1.note,
            )
        }
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
        declaration_failures: failed.0,
        first_declaration_failure: failed.1,
        not_applicable: None,
    }
}

/// Tier 2 of one game, within `time`: the instances of each size (`instances`), smallest
/// first, until a size has none, a disagreement is found, or the enumeration's share
/// of the time (or `--max-size`) is spent; then batches of random instances
/// (`random_batch`, from a generator seeded by the sweep's seed and the batch number)
/// until the time (or `--random-batches`) is spent. `check` compares a batch (see
/// [`check_each`]); `describe` names an instance in a hang report.
#[allow(clippy::too_many_arguments)]
pub(crate) fn tier2_sweep<I: Send + Sync + 'static, P: Progress + ?Sized>(
    id: &str,
    sweep: &Sweep,
    watch: &Arc<Watch>,
    progress: &P,
    time: Duration,
    instances: impl Fn(u32) -> Vec<I>,
    random_batch: impl Fn(&mut ChaCha8Rng) -> Vec<I>,
    describe: fn(&I) -> (String, String),
    check: impl Fn(&[I], u64, Instant) -> Tally,
) -> TierReport {
    let t2_start = Instant::now();
    let enumerate_until = t2_start + time.mul_f64(sweep.enumerate_share);
    let random_until = t2_start + time;
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
        let batch = Arc::new(instances(size));
        if batch.is_empty() {
            break;
        }
        watch.enter_tier(2, Some(describer(&batch, order, describe)));
        let n = batch.len() as u64;
        let t = check(&batch, order, enumerate_until);
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
        let batch = Arc::new(random_batch(&mut rng));
        if batch.is_empty() {
            break;
        }
        watch.enter_tier(2, Some(describer(&batch, order, describe)));
        tally = tally.merge(check(&batch, order, random_until));
        order += batch.len() as u64;
        round += 1;
        progress.message(format!("{id}: tier 2, random, {} positions", tally.checked));
    }
    let t2_time = t2_start.elapsed();
    TierReport {
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
        declaration_failures: 0,
        first_declaration_failure: None,
        not_applicable: None,
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

    let remaining = sweep.time.saturating_sub(t1_time);
    let tier2 = tier2_sweep(
        id,
        sweep,
        &watch,
        progress,
        remaining,
        |size| subject.instances(size),
        |rng| {
            let mut batch: Vec<_> = (0..2048).map(|_| subject.random_instance(rng)).collect();
            group_by_rules(&mut batch);
            batch
        },
        describe_instance::<S::Rules>,
        |batch, order, stop_at| check_batch(subject, batch, order, stop_at, sweep, &watch),
    );
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

/// Whole positions of a game whose two sides answer a position directly rather than
/// through a [`Subject`] with the oracle's rules: a game declared as data, whose fast
/// side and oracle sit behind one object. [`verify_positions`] runs tier 2 over them
/// as [`verify_subject`] does over a subject's instances.
pub trait Positions: Sync {
    /// A position, in the notation reports show.
    type Position: Display + Send + Sync + 'static;
    /// Every position of total size `size`, in a fixed order; empty when there is none
    /// (which ends the enumeration).
    fn positions(&self, size: u32) -> Vec<Self::Position>;
    /// A random position, or `None` when none could be drawn.
    fn random_position(&self, rng: &mut Rng) -> Option<Self::Position>;
    /// Compares the fast side with the oracle (within `budget` positions) on one
    /// position: `Ok(None)` is agreement, `Ok(Some(_))` a disagreement (a panic of the
    /// fast side included, with its message), `Err` a position the oracle could not
    /// finish (skipped).
    fn compare(
        &self,
        pos: &Self::Position,
        budget: usize,
    ) -> Result<Option<Disagreement>, SearchError>;
}

/// Runs both tiers for a game given by its [`Positions`]: `tier1` (its report, or why
/// the game has no tier 1, a row `not applicable`; `reproduce` re-runs it), then tier 2
/// over the positions, smallest first and then random ones, under the same budget,
/// shards and watch as [`verify_subject`].
///
/// ```
/// use sgcheck::oracles::SearchError;
/// use sgcheck::verify::{describe, verify_positions, Disagreement, Positions, Rng, Sweep};
/// use sgcheck::oracles::Analysis;
/// use rand::Rng as _;
///
/// /// One heap; a move takes 1 or 2 tokens. The fast side: win unless n % 3 == 0.
/// struct TakeTwo;
/// fn wins(n: u64) -> bool {
///     n >= 1 && (!wins(n - 1) || (n >= 2 && !wins(n - 2)))
/// }
/// impl Positions for TakeTwo {
///     type Position = u64;
///     fn positions(&self, size: u32) -> Vec<u64> {
///         if size <= 20 { vec![u64::from(size)] } else { Vec::new() }
///     }
///     fn random_position(&self, rng: &mut Rng) -> Option<u64> {
///         Some(rng.gen_range(0..=20))
///     }
///     fn compare(&self, n: &u64, _: usize) -> Result<Option<Disagreement>, SearchError> {
///         let (fast, oracle) = (n % 3 != 0, wins(*n));
///         let show = |w: bool| describe(&Analysis::<u64> { win: w, winning: vec![], remoteness: None });
///         Ok((fast != oracle).then(|| Disagreement {
///             rules: "-".into(),
///             position: n.to_string(),
///             fast: show(fast),
///             oracle: show(oracle),
///             reproduce: "-".into(),
///         }))
///     }
/// }
/// let sweep = Sweep { max_size: Some(20), random_batches: Some(1), ..Sweep::default() };
/// let r = verify_positions("take-two", &TakeTwo, || Err("no closed form".into()), "-", &sweep, &());
/// assert!(r.tiers[0].not_applicable.is_some());
/// assert_eq!((r.tiers[1].disagreements, r.tiers[1].exhaustive_size), (0, Some(20)));
/// ```
pub fn verify_positions<C: Positions, P: Progress + ?Sized>(
    id: &str,
    positions: &C,
    tier1: impl FnOnce() -> Result<Tier1Report, String>,
    reproduce: &str,
    sweep: &Sweep,
    progress: &P,
) -> GameReport {
    let start = Instant::now();
    let watch = sweep.watch.clone().unwrap_or_default();
    progress.message(format!("{id}: tier 1"));
    let tier1 = if sweep.tier1 {
        run_tier1_with(sweep, &watch, reproduce.to_string(), tier1)
    } else {
        TierReport::empty(1)
    };
    watch.finish_tier(tier1.clone());
    let remaining = sweep.time.saturating_sub(start.elapsed());
    let budget = sweep.budget;
    let tier2 = tier2_sweep(
        id,
        sweep,
        &watch,
        progress,
        remaining,
        |size| positions.positions(size),
        |rng| {
            (0..2048)
                .filter_map(|_| positions.random_position(rng))
                .collect()
        },
        |p: &C::Position| ("-".to_string(), p.to_string()),
        |batch, order, stop_at| {
            check_each(
                batch,
                order,
                stop_at,
                sweep,
                &watch,
                || (),
                |_, p| positions.compare(p, budget),
                |_| (),
            )
        },
    );
    watch.finish_tier(tier2.clone());
    watch.enter_tier(0, None);
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

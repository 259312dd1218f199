//! Tier 3 of `verify`: each problem's formatted answer (`solve`) against the same
//! answer computed through the oracle, on the problem's smallest cases first, then
//! random small ones. It drives the engine's sweep settings ([`Sweep`]) and reports
//! ([`TierReport`]) over problems; the engine itself never names a problem.
//!
//! Also tiers 1 and 2 of a declared game without a sweep of its own
//! ([`verify_declared_game`]): the game's closed form or proven period against a mex
//! table, and whole positions (the numbers of the problem's position fields) through
//! the rules the declaration fixes, fast side against oracle.

use super::{all_info, with_problem, Declared, Problem, Shape, Visitor};
use crate::games::declared::{DeclaredRules, MoveView};
use crate::verify::{
    per_second, verify_positions, Disagreement, GameReport, Positions, Progress, Sweep, Tally,
    TierReport,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use sgcheck_oracles::SearchError;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One case's formatted answer (`solve`, a panic shown as its message) against the
/// same answer computed through the oracle within `budget` positions: `None` when they
/// agree, the disagreement otherwise (reproduced by `sgcheck solve <id> --engine
/// oracle`).
/// The oracle's queries are cut at `deadline`, if given (an error, so the case is
/// skipped); the fast side's answer is never cut: it is the answer under test. A case
/// the problem cannot answer (see [`Problem::answer`]) is [`Skip::Unanswerable`]:
/// never compared, never an answer.
pub fn compare_case<P: Problem>(
    p: &P,
    case: &P::Case,
    budget: usize,
    deadline: Option<Instant>,
) -> Result<Option<Disagreement>, Skip> {
    let oracle = match deadline {
        Some(d) => sgcheck_oracles::with_deadline(d, || p.oracle_answer(case, 0, budget)),
        None => p.oracle_answer(case, 0, budget),
    };
    let fast = match crate::guard::catch_quiet(|| p.answer(case, 0)) {
        Ok(Ok(fast)) => fast,
        Ok(Err(why)) => return Err(Skip::Unanswerable(why)),
        Err(panic) => vec![format!("panicked: {}", panic.message)],
    };
    let oracle = oracle.map_err(|_| Skip::Oracle)?;
    if fast == oracle {
        return Ok(None);
    }
    let input = p.write_input(std::slice::from_ref(case));
    Ok(Some(Disagreement {
        rules: "-".into(),
        position: input.trim_end().replace('\n', " / "),
        fast: crate::problems::choice::shown_joined(&fast, " / "),
        oracle: crate::problems::choice::shown_joined(&oracle, " / "),
        reproduce: format!(
            "printf '%s' {} | {} solve {} --engine oracle",
            crate::shell::quote(&input),
            crate::shell::program(),
            p.info().id
        ),
    }))
}

/// Why tier 3 compared no answers for a case.
#[derive(Debug)]
pub enum Skip {
    /// The oracle could not answer within its budget or time.
    Oracle,
    /// The problem could not answer it (its declaration failed or refused it).
    Unanswerable(String),
}

/// Tier 3: each problem's formatted answer (`solve`) against the same answer computed
/// through the oracle, on the problem's smallest cases first, then random small ones.
pub fn verify_problem<P: Problem>(p: &P, sweep: &Sweep) -> TierReport {
    let start = Instant::now();
    let enumerate_until = start + sweep.time.mul_f64(sweep.enumerate_share);
    let until = start + sweep.time;
    let id = p.info().id;
    let watch = sweep.watch.clone().unwrap_or_default();
    // A check started before its phase's end may run a little past it (a tenth of the
    // tier's time, at least 20 ms), never more: an oracle query still running then is
    // cut short and the case counted as skipped.
    let grace = sweep.time.div_f64(10.0).max(Duration::from_millis(20));
    let check = |case: &P::Case, stop_at: Instant| {
        compare_case(p, case, sweep.budget, Some(stop_at + grace))
    };
    let run = |cases: Vec<P::Case>, order: u64, stop_at: Instant| -> Tally {
        let cases = Arc::new(cases);
        let described = Arc::clone(&cases);
        watch.enter_tier(
            3,
            Some(Arc::new(move |key| {
                let case = described.get(key.saturating_sub(order) as usize);
                (
                    format!("problem {id}"),
                    case.map_or(format!("case {key}"), |c| format!("{c:?}")),
                )
            })),
        );
        cases
            .par_iter()
            .enumerate()
            .map(|(i, c)| {
                let mut t = Tally::default();
                if !sweep.shard.owns(order + i as u64) {
                    return t;
                }
                // The phase's time is a wall-time budget: no check starts after it.
                if Instant::now() >= stop_at {
                    t.cut = true;
                    return t;
                }
                if let Some(e) = p.rules_error(c) {
                    t.invalid = 1;
                    t.first_invalid = Some(format!("{c:?}: {e}"));
                    return t;
                }
                watch.begin(order + i as u64);
                let result = check(c, stop_at);
                watch.end();
                match result {
                    Ok(None) => t.checked = 1,
                    Ok(Some(d)) => {
                        t.checked = 1;
                        t.disagreements = 1;
                        t.first = Some((order + i as u64, d));
                    }
                    Err(Skip::Unanswerable(why))
                        if crate::games::declared::is_declaration_failure(&why) =>
                    {
                        t.failed = 1;
                        let input = p.write_input(std::slice::from_ref(c));
                        t.first_failed = Some((
                            order + i as u64,
                            format!("case {}: {why}", input.trim_end().replace('\n', " / ")),
                        ));
                    }
                    Err(_) => t.skipped = 1,
                }
                t
            })
            .reduce(Tally::default, Tally::merge)
    };
    let mut tally = Tally::default();
    let mut order = 0u64;
    // The problem's known answers first: the statement's output against the fast
    // side's answer (in the shard that owns the first case), then each case against
    // the oracle like any other (each in its own shard).
    let compares = sweep.shard.owns(0);
    for k in p.samples() {
        let shown = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
        let at = format!("{} (input: {})", k.name, shown(&k.input));
        let reproduce = format!(
            "{} solve --problem {} < {}'s input",
            crate::shell::program(),
            p.info().source,
            k.name
        );
        let cases = match p.parse(&k.input, false) {
            Ok(c) => c,
            Err(_) if !compares => continue,
            Err(e) => {
                tally = tally.merge(Tally::disagreement(Disagreement {
                    rules: "-".into(),
                    position: at,
                    fast: format!("the input does not read: {e}"),
                    oracle: format!("the statement: {}", shown(&k.output)),
                    reproduce,
                }));
                continue;
            }
        };
        if !compares {
            // Another shard compares the outputs; the cases are numbered alike in all.
            let n = cases.len() as u64;
            tally = tally.merge(run(cases, order, enumerate_until));
            order += n;
            continue;
        }
        let mut ours = Vec::new();
        let mut unanswered = None;
        for (i, c) in cases.iter().enumerate() {
            match p.answer(c, i) {
                Ok(lines) => ours.extend(lines),
                Err(why) => {
                    unanswered = Some(why);
                    break;
                }
            }
        }
        if let Some(why) = unanswered {
            if crate::games::declared::is_declaration_failure(&why) {
                tally.failed += 1;
                tally
                    .first_failed
                    .get_or_insert((0, format!("{at}: {why}")));
            } else {
                tally.skipped += 1;
            }
            order += cases.len() as u64;
            continue;
        }
        let ours = shown(&ours.join("\n"));
        if ours != shown(&k.output) {
            tally = tally.merge(Tally::disagreement(Disagreement {
                rules: "-".into(),
                position: at,
                fast: ours,
                oracle: format!("the statement: {}", shown(&k.output)),
                reproduce,
            }));
            order += cases.len() as u64;
            continue;
        }
        tally.checked += 1;
        let n = cases.len() as u64;
        tally = tally.merge(run(cases, order, enumerate_until));
        order += n;
    }
    let mut size = 0u32;
    while Instant::now() < enumerate_until
        && tally.disagreements == 0
        && size < 64
        && sweep.max_size.is_none_or(|m| size <= m)
    {
        // Listing the cases may ask a declared game's tables (to keep positions it can
        // answer): cut at the phase's end plus the grace, like the checks.
        let cases = sgcheck_oracles::with_deadline(enumerate_until + grace, || p.small_cases(size));
        if Instant::now() >= enumerate_until + grace {
            break;
        }
        size += 1;
        if cases.is_empty() {
            continue;
        }
        let n = cases.len() as u64;
        tally = tally.merge(run(cases, order, enumerate_until));
        order += n;
    }
    let mut round = 0u64;
    while Instant::now() < until
        && tally.disagreements == 0
        && sweep.random_batches.is_none_or(|m| round < m)
    {
        let mut rng = ChaCha8Rng::seed_from_u64(
            sweep.seed ^ 0x5EED ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        // Drawing runs the game's own generators (make_losing, interesting), fast
        // side code: watched like a check, so one that never returns is a hang.
        watch.enter_tier(
            3,
            Some(Arc::new(move |key| {
                (
                    format!("problem {id}"),
                    format!("drawing the random cases of round {key} (the game's generators)"),
                )
            })),
        );
        watch.begin(round);
        // Drawing may ask a declared game's tables too: cut as the listing is.
        let cases: Vec<P::Case> = sgcheck_oracles::with_deadline(until + grace, || {
            (0..256)
                .map(|i| {
                    let shape = [Shape::Any, Shape::Losing, Shape::ManyWinning][i % 3];
                    // Tiny cases: tier 3 is about the format and the answer lines; the
                    // oracle must finish (the ones it cannot are counted as skipped).
                    let scale = rng.gen_range(0.0..0.001);
                    p.generate(&mut rng, scale, shape)
                })
                .collect()
        });
        watch.end();
        if Instant::now() >= until + grace {
            break;
        }
        let n = cases.len() as u64;
        tally = tally.merge(run(cases, order, until));
        order += n;
        round += 1;
    }
    TierReport {
        tier: 3,
        checked: tally.checked,
        agreements: tally.checked - tally.disagreements,
        disagreements: tally.disagreements,
        skipped: tally.skipped,
        seconds: start.elapsed().as_secs_f64(),
        per_second: per_second(tally.checked, start.elapsed()),
        first_disagreement: tally.first.map(|(_, d)| d),
        exhaustive_size: None,
        enumerated_size: None,
        enumerated_skipped: 0,
        note: tally.first_invalid.map(|c| {
            format!(
                "{} generated cases of {id} had invalid rules (a generator failure), the \
                 first: {c}",
                tally.invalid
            )
        }),
        generator_failures: tally.invalid,
        declaration_failures: tally.failed,
        first_declaration_failure: tally.first_failed.map(|(_, f)| f),
        not_applicable: None,
    }
}

/// Tier 3 for every problem of the game `game`, merged into one report (`None` when no
/// problem is an instance of that game).
pub fn verify_problems_of(game: &str, sweep: &Sweep) -> Option<TierReport> {
    struct Run<'a>(&'a Sweep);
    impl Visitor for Run<'_> {
        type Output = TierReport;
        fn visit<P: Problem>(self, p: &P) -> TierReport {
            verify_problem(p, self.0)
        }
    }
    let ids: Vec<&str> = all_info()
        .iter()
        .filter(|i| i.game == game)
        .map(|i| i.id)
        .collect();
    if ids.is_empty() {
        return None;
    }
    let share = Sweep {
        time: sweep.time.div_f64(ids.len() as f64),
        ..sweep.clone()
    };
    let mut merged: Option<TierReport> = None;
    for id in ids {
        let r = with_problem(id, Run(&share)).expect("listed problem exists");
        merged = Some(match merged {
            None => r,
            Some(m) => {
                let secs = m.seconds + r.seconds;
                TierReport {
                    tier: 3,
                    checked: m.checked + r.checked,
                    agreements: m.agreements + r.agreements,
                    disagreements: m.disagreements + r.disagreements,
                    skipped: m.skipped + r.skipped,
                    seconds: secs,
                    per_second: per_second(m.checked + r.checked, Duration::from_secs_f64(secs)),
                    first_disagreement: m.first_disagreement.or(r.first_disagreement),
                    exhaustive_size: None,
                    enumerated_size: None,
                    enumerated_skipped: 0,
                    note: match (m.note, r.note) {
                        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
                        (a, b) => a.or(b),
                    },
                    generator_failures: m.generator_failures + r.generator_failures,
                    declaration_failures: m.declaration_failures + r.declaration_failures,
                    first_declaration_failure: m
                        .first_declaration_failure
                        .or(r.first_declaration_failure),
                    not_applicable: None,
                }
            }
        });
    }
    merged
}

/// The most positions of one size tiers 2 of a declared game enumerates; a size with
/// more ends the enumeration (the random phase follows).
const POSITIONS_CAP: usize = 1 << 17;
/// Lists of a declared position get at most this many numbers in the enumeration
/// (more only when their shortest length is longer) ...
const ENUMERATE_LEN: u64 = 4;
/// ... and at most this many in random positions,
const RANDOM_LEN: u64 = 6;
/// whose numbers total at most this much above their least values.
const RANDOM_TOTAL: u64 = 16;

/// One field of a declared position: a number (`lengths` `None`) or a list, with the
/// bounds of its values.
#[derive(Clone, Debug)]
struct Slot {
    /// A list's lengths: shortest, longest, step.
    lengths: Option<(u64, u64, u64)>,
    min: u64,
    max: u64,
}

/// A position of a declared game: its numbers, as the game's `check` and `analyze`
/// take them (`1,2,3` in reports, the notation of `sgcheck check`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Numbers(pub Vec<u64>);

impl std::fmt::Display for Numbers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.0.iter().map(u64::to_string).collect();
        write!(f, "{}", parts.join(","))
    }
}

/// Tier 2 of a declared game whose rules are fixed for the whole problem: whole
/// positions (the numbers of the problem's position fields, within their bounds, lists
/// of at most [`ENUMERATE_LEN`] numbers, smallest total first; then random ones),
/// the fast side's analysis (`DeclaredRules::analyze`) against the oracle's
/// (`DeclaredRules::oracle_analyze`). Positions the game's `check` refuses (past what
/// the fast side answers) are left out and counted.
struct DeclaredPositions {
    rules: Arc<dyn DeclaredRules>,
    game: &'static str,
    /// Every choice of list lengths: the bounds of each number, fewest numbers first.
    shapes: Vec<Vec<(u64, u64)>>,
    random_shapes: Vec<Vec<(u64, u64)>>,
    /// How `sgcheck check` reads the rules (`--rules`), when it can.
    check_rules: Option<String>,
    refused: std::sync::atomic::AtomicU64,
    first_refused: std::sync::Mutex<Option<String>>,
    /// Positions where the declaration failed (see
    /// [`crate::games::declared::is_declaration_failure`]): a finding, not a skip.
    failed: std::sync::atomic::AtomicU64,
    first_failed: std::sync::Mutex<Option<String>>,
    /// The positions counted as refused or failed (at most [`SEEN_CAP`]), so that a
    /// position drawn again, or refused by `check` and then failed by the analysis, is
    /// counted once.
    seen: std::sync::Mutex<std::collections::HashSet<Vec<u64>>>,
}

/// Most positions [`DeclaredPositions`] remembers having counted; past it, each is
/// counted as it comes.
const SEEN_CAP: usize = 1 << 16;

/// Every choice of list lengths for `slots` (each list's lengths up to `cap`, or its
/// shortest when that is longer), as the bounds of each number, fewest numbers first;
/// at most 256 choices.
fn shapes(slots: &[Slot], cap: u64) -> Vec<Vec<(u64, u64)>> {
    let mut out: Vec<Vec<(u64, u64)>> = vec![Vec::new()];
    for s in slots {
        let lengths: Vec<u64> = match s.lengths {
            None => vec![1],
            Some((lo, hi, step)) => {
                let top = hi.min(lo.max(cap));
                (0..)
                    .map(|k| lo.saturating_add(k * step.max(1)))
                    .take_while(|&l| l <= top)
                    .take(64)
                    .collect()
            }
        };
        let mut next = Vec::new();
        for shape in &out {
            for &l in &lengths {
                if next.len() >= 256 {
                    break;
                }
                let mut longer = shape.clone();
                longer.extend(std::iter::repeat_n((s.min, s.max), l as usize));
                next.push(longer);
            }
        }
        out = next;
    }
    out.sort_by_key(Vec::len);
    out
}

/// Calls `f` with every way to add `total` to numbers with `room[i]` to spare each
/// (lexicographic), until `f` answers false; false when it did.
fn spread(
    total: u64,
    room: &[u64],
    cur: &mut Vec<u64>,
    f: &mut impl FnMut(&[u64]) -> bool,
) -> bool {
    let i = cur.len();
    if i == room.len() {
        return total > 0 || f(cur);
    }
    let rest: u64 = room[i + 1..].iter().fold(0, |a, &r| a.saturating_add(r));
    let low = total.saturating_sub(rest);
    for x in low..=total.min(room[i]) {
        cur.push(x);
        let going = spread(total - x, room, cur, f);
        cur.pop();
        if !going {
            return false;
        }
    }
    true
}

impl DeclaredPositions {
    fn accepted(&self, numbers: &[u64]) -> bool {
        match self.rules.check(numbers) {
            Ok(()) => true,
            Err(e) => {
                self.refuse(numbers, e);
                false
            }
        }
    }

    /// Counts a position the game did not answer: a failure of the declaration (a
    /// finding) or a refusal by design (left out).
    fn refuse(&self, numbers: &[u64], e: String) {
        use std::sync::atomic::Ordering;
        {
            let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
            if seen.contains(numbers) {
                return;
            }
            if seen.len() < SEEN_CAP {
                seen.insert(numbers.to_vec());
            }
        }
        let (count, first) = if crate::games::declared::is_declaration_failure(&e) {
            (&self.failed, &self.first_failed)
        } else {
            (&self.refused, &self.first_refused)
        };
        count.fetch_add(1, Ordering::Relaxed);
        let mut first = first.lock().unwrap_or_else(|e| e.into_inner());
        first.get_or_insert_with(|| format!("{}: {e}", Numbers(numbers.to_vec())));
    }

    /// The command that re-checks one position.
    fn reproduce(&self, pos: &Numbers) -> String {
        match &self.check_rules {
            Some(rules) => format!(
                "{} check {} {} --rules {}",
                crate::shell::program(),
                self.game,
                crate::shell::quote(&pos.to_string()),
                rules
            ),
            None => format!(
                "{} check {} {}",
                crate::shell::program(),
                self.game,
                crate::shell::quote(&pos.to_string())
            ),
        }
    }
}

/// An analysis with each move in its notation (its fields when it has none).
fn shown(a: &sgcheck_oracles::Analysis<MoveView>) -> String {
    crate::verify::describe(&sgcheck_oracles::Analysis {
        win: a.win,
        winning: a
            .winning
            .iter()
            .map(|m| {
                if m.text.is_empty() {
                    format!("{:?}", m.fields)
                } else {
                    m.text.clone()
                }
            })
            .collect::<Vec<String>>(),
        remoteness: None,
    })
}

impl Positions for DeclaredPositions {
    type Position = Numbers;

    fn positions(&self, size: u32) -> Vec<Numbers> {
        let mut out = Vec::new();
        for shape in &self.shapes {
            let room: Vec<u64> = shape
                .iter()
                .map(|(lo, hi)| hi.saturating_sub(*lo))
                .collect();
            let complete = spread(u64::from(size), &room, &mut Vec::new(), &mut |extra| {
                out.push(Numbers(
                    shape.iter().zip(extra).map(|((lo, _), e)| lo + e).collect(),
                ));
                out.len() < POSITIONS_CAP
            });
            if !complete {
                // Too many positions of this size: the enumeration ends here.
                return Vec::new();
            }
        }
        out.retain(|p| self.accepted(&p.0));
        out
    }

    fn random_position(&self, rng: &mut ChaCha8Rng) -> Option<Numbers> {
        let shape = self
            .random_shapes
            .get(rng.gen_range(0..self.random_shapes.len().max(1)))?;
        // A random total, each unit to a random number with room left: small enough
        // for the oracle, in shapes and spreads the enumeration did not reach.
        let mut numbers: Vec<u64> = shape.iter().map(|&(lo, _)| lo).collect();
        let mut open: Vec<usize> = (0..shape.len())
            .filter(|&i| shape[i].1 > shape[i].0)
            .collect();
        for _ in 0..rng.gen_range(0..=RANDOM_TOTAL) {
            if open.is_empty() {
                break;
            }
            let k = rng.gen_range(0..open.len());
            let i = open[k];
            numbers[i] += 1;
            if numbers[i] == shape[i].1 {
                open.swap_remove(k);
            }
        }
        self.accepted(&numbers).then_some(Numbers(numbers))
    }

    fn compare(&self, pos: &Numbers, budget: usize) -> Result<Option<Disagreement>, SearchError> {
        let mut oracle = self.rules.oracle_analyze(&pos.0, budget, true)?;
        oracle.winning.sort();
        let fast = match crate::guard::catch_quiet(|| self.rules.analyze(&pos.0, true)) {
            Ok(Err(e)) => {
                // Not an answer: counted (a failure is a finding), never compared.
                self.refuse(&pos.0, e);
                return Err(SearchError::Budget { budget });
            }
            Ok(Ok(mut fast)) => {
                fast.winning.sort();
                if fast.win == oracle.win && fast.winning == oracle.winning {
                    return Ok(None);
                }
                shown(&fast)
            }
            Err(p) => format!("panicked: {}", p.message),
        };
        Ok(Some(Disagreement {
            rules: self.rules.rules_text().unwrap_or_else(|| "-".into()),
            position: pos.to_string(),
            fast,
            oracle: shown(&oracle),
            reproduce: self.reproduce(pos),
        }))
    }
}

/// The rules of a declared problem when they are fixed for the whole problem (`None`
/// when they come from each case's fields, or no small case exists): the engine hands
/// out its one instance of fixed rules for every case, and builds rules afresh from
/// the fields of each case otherwise.
fn fixed_rules(d: &Declared) -> Option<Arc<dyn DeclaredRules>> {
    let case = (0..8).find_map(|size| d.small_cases(size).into_iter().next())?;
    let view = d.packed(&case);
    let a = d.rules_of(&view).ok()?;
    let b = d.rules_of(&view).ok()?;
    Arc::ptr_eq(&a, &b).then_some(a)
}

/// Tiers 1 and 2 of `verify --problem` for a declared game with no sweep of its own
/// (a `[game]` table: `heap-code`, `scripted`). Tier 1 is the game's own
/// ([`DeclaredRules::tier1`]: a closed form or a proven period against a plain mex
/// table); tier 2 compares whole positions (see `DeclaredPositions`), with the
/// shards, budget and time of `sweep`. When the rules come from each case's fields,
/// neither applies (tier 3 checks those problems case by case). `declaration` is the
/// file, for the commands that reproduce a finding.
pub fn verify_declared_game(
    d: &Declared,
    declaration: Option<&std::path::Path>,
    sweep: &Sweep,
    progress: &dyn Progress,
) -> GameReport {
    let game = d.game().id();
    let Some(rules) = fixed_rules(d) else {
        let why = "the rules come from each case's fields (tier 3 checks each case)";
        return GameReport {
            game: game.to_string(),
            tiers: vec![
                TierReport::not_applicable(1, why),
                TierReport::not_applicable(2, why),
            ],
            seconds: 0.0,
        };
    };
    let fields = d.fields_spec();
    let mut slots = Vec::new();
    let mut trees = false;
    for i in d.position_fields() {
        let f = &fields[i];
        trees |= f.list.as_ref().is_some_and(|l| l.tree);
        slots.push(Slot {
            lengths: f.list.as_ref().map(|l| (l.len.min, l.len.max, l.step)),
            min: f.bounds.min,
            max: f.bounds.max,
        });
    }
    // Misère play: the fast side is the oracle's own search; nothing to compare.
    let same = rules.fast_is_oracle();
    if trees || same.is_some() {
        // Tier 2 enumerates numbers, not trees: it has nothing to draw from.
        slots.clear();
    }
    let check_rules = rules
        .rules_text()
        .map(|t| crate::shell::quote(&t))
        .or_else(|| declaration.map(crate::shell::path_of));
    let positions = DeclaredPositions {
        shapes: if trees || same.is_some() {
            Vec::new()
        } else {
            shapes(&slots, ENUMERATE_LEN)
        },
        random_shapes: if trees || same.is_some() {
            Vec::new()
        } else {
            shapes(&slots, RANDOM_LEN)
        },
        rules: Arc::clone(&rules),
        game,
        check_rules,
        refused: Default::default(),
        first_refused: Default::default(),
        failed: Default::default(),
        first_failed: Default::default(),
        seen: Default::default(),
    };
    let reproduce = match declaration {
        Some(p) => format!(
            "{} verify --problem {}",
            crate::shell::program(),
            crate::shell::path_of(p)
        ),
        None => format!("{} verify --game {game}", crate::shell::program()),
    };
    let mut report = verify_positions(
        game,
        &positions,
        || rules.tier1(),
        &reproduce,
        sweep,
        &progress,
    );
    if let Some(why) = same {
        report.tiers[1] = TierReport::not_applicable(2, why);
        return report;
    }
    if trees {
        report.tiers[1] = TierReport::not_applicable(
            2,
            "the positions are trees; tier 2 of a declared game enumerates numbers",
        );
        return report;
    }
    let failed = positions.failed.load(std::sync::atomic::Ordering::Relaxed);
    if failed > 0 {
        let first = positions
            .first_failed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .unwrap_or_default();
        report.tiers[1].declaration_failures = failed;
        report.tiers[1].first_declaration_failure = Some(format!("position {first}"));
    }
    let refused = positions.refused.load(std::sync::atomic::Ordering::Relaxed);
    if refused > 0 {
        let first = positions
            .first_refused
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .unwrap_or_default();
        report.tiers[1].note = Some(format!(
            "{refused} enumerated positions the game refuses were left out (the first, {first})"
        ));
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::testing::{InvalidWhen, P2197};
    use crate::verify::{report_of_game, GameReport};

    #[test]
    fn invalid_rules_in_tier3_are_a_generator_failure_not_a_skip() {
        let sweep = Sweep {
            time: Duration::from_secs(2),
            max_size: Some(4),
            random_batches: Some(0),
            ..Sweep::default()
        };
        let clean = verify_problem(&P2197, &sweep);
        let t = verify_problem(&InvalidWhen(|c| c.len() == 2), &sweep);
        assert!(t.generator_failures > 0);
        assert_eq!(t.skipped, clean.skipped, "invalid rules are not skips");
        assert_eq!(t.checked + t.generator_failures, clean.checked);
        assert!(t.note.as_deref().unwrap().contains("generator failure"));
        let game = GameReport {
            game: "nim".into(),
            tiers: vec![t],
            seconds: 0.0,
        };
        let (_, text, code) = report_of_game(game, 0);
        assert_eq!(code, 1, "{text}");
        assert!(!text.contains("all agree"), "{text}");
    }
}

#[cfg(test)]
mod declared_tests {
    use super::*;
    use crate::games::declared::{Declared as Adapter, ParamValue};
    use crate::games::heap_code::HeapCodeGame;
    use sgcheck_oracles::Analysis;

    fn dawson() -> Arc<dyn DeclaredRules> {
        let params = [
            ParamValue::Name("0.137"),
            ParamValue::List(&[]),
            ParamValue::Number(0),
            ParamValue::Number(0),
        ];
        Adapter::<HeapCodeGame>::GAME.rules(&params).unwrap()
    }

    /// Dawson's chess whose fast side forgets every winning move on a heap of 3.
    struct Planted(Arc<dyn DeclaredRules>);

    impl DeclaredRules for Planted {
        fn check(&self, position: &[u64]) -> Result<(), String> {
            self.0.check(position)
        }
        fn first_wins(&self, position: &[u64]) -> Result<bool, String> {
            self.0.first_wins(position)
        }
        fn analyze(&self, position: &[u64], notation: bool) -> Result<Analysis<MoveView>, String> {
            let mut a = self.0.analyze(position, notation)?;
            if position.contains(&3) {
                a.winning.retain(|m| position[m.fields[0] as usize] != 3);
            }
            Ok(a)
        }
        fn oracle_first_wins(&self, position: &[u64], budget: usize) -> Result<bool, SearchError> {
            self.0.oracle_first_wins(position, budget)
        }
        fn oracle_analyze(
            &self,
            position: &[u64],
            budget: usize,
            notation: bool,
        ) -> Result<Analysis<MoveView>, SearchError> {
            self.0.oracle_analyze(position, budget, notation)
        }
        fn rules_text(&self) -> Option<String> {
            self.0.rules_text()
        }
    }

    fn heaps(rules: Arc<dyn DeclaredRules>, lengths: (u64, u64), max: u64) -> DeclaredPositions {
        let slots = [Slot {
            lengths: Some((lengths.0, lengths.1, 1)),
            min: 0,
            max,
        }];
        DeclaredPositions {
            check_rules: rules.rules_text().map(|t| crate::shell::quote(&t)),
            rules,
            game: "heap-code",
            shapes: shapes(&slots, ENUMERATE_LEN),
            random_shapes: shapes(&slots, RANDOM_LEN),
            refused: Default::default(),
            first_refused: Default::default(),
            failed: Default::default(),
            first_failed: Default::default(),
            seen: Default::default(),
        }
    }

    #[test]
    fn positions_are_smallest_total_first_within_the_bounds() {
        let p = heaps(dawson(), (1, 2), 3);
        let show =
            |size| -> Vec<String> { p.positions(size).iter().map(|n| n.to_string()).collect() };
        assert_eq!(show(0), ["0", "0,0"]);
        assert_eq!(show(2), ["2", "0,2", "1,1", "2,0"]);
        assert_eq!(show(5), ["2,3", "3,2"]);
        assert!(show(7).is_empty());
        // Two number fields, each at least 1: size 0 is (1, 1).
        let two = DeclaredPositions {
            shapes: shapes(
                &[
                    Slot {
                        lengths: None,
                        min: 1,
                        max: 60,
                    },
                    Slot {
                        lengths: None,
                        min: 1,
                        max: 60,
                    },
                ],
                ENUMERATE_LEN,
            ),
            ..heaps(dawson(), (1, 1), 1)
        };
        let first: Vec<String> = two.positions(0).iter().map(|n| n.to_string()).collect();
        assert_eq!(first, ["1,1"]);
        assert_eq!(two.positions(3).len(), 4);
    }

    #[test]
    fn a_planted_bug_in_the_fast_side_is_found_at_the_smallest_position() {
        let sweep = Sweep {
            time: Duration::from_secs(20),
            max_size: Some(12),
            random_batches: Some(1),
            ..Sweep::default()
        };
        let right = heaps(dawson(), (1, 3), 40);
        let r = verify_positions("heap-code", &right, || dawson().tier1(), "-", &sweep, &());
        assert_eq!(r.tiers[0].disagreements, 0, "{:?}", r.tiers[0]);
        assert!(r.tiers[0].checked >= 4096, "{:?}", r.tiers[0]);
        let t2 = &r.tiers[1];
        assert!(t2.agreements > 400 && t2.disagreements == 0, "{t2:?}");
        assert_eq!(t2.exhaustive_size, Some(12), "{t2:?}");

        let planted = heaps(Arc::new(Planted(dawson())), (1, 3), 40);
        let r = verify_positions("heap-code", &planted, || Err("-".into()), "-", &sweep, &());
        let d = r.tiers[1].first_disagreement.as_ref().expect("found");
        // A heap of 3 is worth 2 (OEIS A002187: 0, 1, 1, 2, 0, 3, ...): alone, a win
        // whose winning moves are all gone.
        assert_eq!(d.position, "3");
        assert_eq!(d.rules, "0.137");
        assert_eq!(d.reproduce, "sgcheck check heap-code 3 --rules 0.137");
        assert!(
            d.fast.starts_with("win") && d.oracle.starts_with("win"),
            "{d:?}"
        );
    }
}

//! Tier 1: a game's closed form against its Sprague–Grundy table, and the proof of
//! a period from a table.

use super::*;

/// The result of a game's tier-1 checks.
///
/// Inside `verify` (see [`verify_subject`]) a report made with `default()` also keeps
/// the run's watch up to date and stops tier 1 when the game's time budget is spent:
/// then [`Tier1Report::compare`] unwinds out of the game's checks, and the report
/// counts what was compared until then and says that tier 1 stopped.
#[derive(Clone, Debug)]
pub struct Tier1Report {
    /// Values compared.
    pub checked: u64,
    /// Values that differed.
    pub disagreements: u64,
    /// The first value that differed: what was compared, closed form, table.
    pub first: Option<(String, String, String)>,
    /// Values (or items) left out because nothing independent was there to compare
    /// them with; they are not counted in `checked`.
    pub skipped: u64,
    /// What the counts mean when it is not obvious (what was left out, and why).
    pub note: Option<String>,
    /// Values a declaration failed to give (its script threw, ran past a limit of the
    /// sandbox or returned a wrong type): findings, as in tiers 2 and 3.
    pub failed: u64,
    /// The first such failure: the value and why.
    pub first_failed: Option<String>,
    guard: Tier1Guard,
    /// The subject has no tier 1 at all ([`Tier1Report::none`]).
    none: bool,
}

/// The watch and the deadline of the tier 1 that runs on this thread (see
/// [`verify_subject`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Tier1Guard {
    pub(crate) watch: Option<std::sync::Arc<crate::guard::Watch>>,
    pub(crate) deadline: Option<Instant>,
}

thread_local! {
    pub(crate) static TIER1_GUARD: std::cell::RefCell<Tier1Guard> = std::cell::RefCell::new(Tier1Guard::default());
}

/// The payload with which [`Tier1Report::compare`] unwinds when the time budget is spent.
pub(crate) struct Tier1Stop;

impl Default for Tier1Report {
    fn default() -> Self {
        Tier1Report {
            checked: 0,
            disagreements: 0,
            first: None,
            skipped: 0,
            note: None,
            failed: 0,
            first_failed: None,
            guard: TIER1_GUARD.with(|g| g.borrow().clone()),
            none: false,
        }
    }
}

impl Tier1Report {
    /// The report of a subject that has no tier 1 (what the provided
    /// [`crate::verify::Subject::tier1`] returns): `verify` shows tier 1 as not
    /// applicable and counts nothing, and tiers 2 and 3 decide the run.
    pub fn none() -> Self {
        Tier1Report {
            none: true,
            ..Tier1Report::default()
        }
    }

    /// Whether this is [`Tier1Report::none`].
    pub fn is_none(&self) -> bool {
        self.none
    }

    /// Records one comparison of the closed form (`closed`) with the table (`table`).
    pub fn compare<T: PartialEq + fmt::Debug>(&mut self, what: impl Display, closed: T, table: T) {
        self.checked += 1;
        let differ = closed != table;
        if differ {
            self.disagreements += 1;
            if self.first.is_none() {
                self.first = Some((
                    what.to_string(),
                    format!("{closed:?}"),
                    format!("{table:?}"),
                ));
            }
        }
        if differ || self.checked.is_multiple_of(1024) {
            self.beat();
        }
    }

    /// Whether tier 1's time budget is spent, or will be within `margin`: a check that
    /// stops by itself (to say how far it got) asks before each step, where
    /// [`Tier1Report::compare`] and [`Tier1Report::progress`] would stop it by
    /// unwinding.
    pub fn time_is_up(&self, margin: Duration) -> bool {
        self.guard
            .deadline
            .is_some_and(|d| Instant::now() + margin >= d)
    }

    /// When tier 1's time budget ends, if it has one: a check whose single steps may
    /// be long (a mex table built from a script) bounds each step by it.
    pub fn deadline(&self) -> Option<Instant> {
        self.guard.deadline
    }

    /// Records `n` values left out of the comparison, with the reason (`note`).
    pub fn skip(&mut self, n: u64, note: impl Display) {
        self.skipped += n;
        let note = note.to_string();
        self.note = Some(match self.note.take() {
            Some(old) => format!("{old}; {note}"),
            None => note,
        });
    }

    /// Records a value that a declaration failed to give (`why`: which, and why).
    pub fn fail(&mut self, why: impl Display) {
        self.failed += 1;
        if self.first_failed.is_none() {
            self.first_failed = Some(why.to_string());
        }
    }

    /// Tells the watch that tier 1 is still making progress, and stops at the time
    /// budget as [`Tier1Report::compare`] does: for checks whose comparisons are slow
    /// (each one a search, say), called between them.
    pub fn progress(&self) {
        self.beat();
    }

    /// Tells the watch that tier 1 is making progress, and stops at the deadline.
    fn beat(&self) {
        if let Some(w) = &self.guard.watch {
            w.begin(self.checked);
            let mut t = w.tier1.lock().unwrap_or_else(|e| e.into_inner());
            *t = (self.checked, self.disagreements, self.first.clone());
        }
        if self.guard.deadline.is_some_and(|d| Instant::now() > d) {
            std::panic::resume_unwind(Box::new(Tier1Stop));
        }
    }
}

/// The smallest preperiod and period of a table `g`, found directly from its values:
/// for each period p from 1 up, the preperiod e is one past the last n with
/// g(n) != g(n + p) inside the table, and the first p for which `proves(e, p)` holds (the
/// game's theorem: the table is long enough for the repetition from e to prove the
/// period) is returned. Tier 1 compares a solver's claimed period with this; it shares
/// no code with any solver's period finder.
///
/// `proves` must only get harder as e or p grow (every such theorem bounds a sum of
/// them by the table's length): the search stops at the first p that no preperiod could
/// prove, so a table too short for any period costs one step, not one scan per p.
///
/// ```
/// // 0 1 2 0 1 0 1 0 1 ...: period 2 from 3, proven once 3 + 2 + 1 values repeat.
/// let g = [0, 1, 2, 0, 1, 0, 1, 0, 1, 0, 1];
/// assert_eq!(sgcheck::verify::smallest_period(&g, |e, p| e + p + 1 <= g.len()), Some((3, 2)));
/// ```
pub fn smallest_period<T: PartialEq>(
    g: &[T],
    proves: impl Fn(usize, usize) -> bool,
) -> Option<(usize, usize)> {
    for p in 1..g.len() {
        if !proves(0, p) {
            return None;
        }
        let last_mismatch = (0..g.len() - p).rev().find(|&n| g[n] != g[n + p]);
        let e = last_mismatch.map_or(0, |n| n + 1);
        if proves(e, p) {
            return Some((e, p));
        }
    }
    None
}

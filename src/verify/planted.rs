//! Planted subjects: a game's subject with its fast solver or its tier 1 replaced, to
//! show that `verify` catches the bug.

use super::*;

/// A fast solver as a plain function of the rules and the position.
pub type FastFn<R> = fn(&R, &<R as Rules>::Position) -> Analysis<<R as Rules>::Move>;

/// `subject` with its fast side replaced by `fast` and no tier-1 checks: the sweep of
/// another fast solver (a planted bug in sgcheck's tests) on the same instances the
/// real subject is swept with. For your own solver of a game, prefer
/// [`crate::harness::sweep`].
pub struct Planted<'a, S: Subject> {
    /// The real subject, for the instances.
    pub subject: &'a S,
    /// The planted (wrong) fast side.
    pub fast: FastFn<S::Rules>,
}

impl<S: Subject> Planted<'_, S> {
    /// Sweeps the planted subject for at most `time` and returns the smallest tier-2
    /// disagreement found, or `None` when the planted bug went unnoticed.
    pub fn first_disagreement(&self, time: Duration) -> Option<Disagreement> {
        let sweep = Sweep {
            time,
            ..Sweep::default()
        };
        let report = verify_subject(self, &sweep, &());
        report.tiers[1].first_disagreement.clone()
    }
}

impl<S: Subject> Subject for Planted<'_, S> {
    type Rules = S::Rules;

    fn id(&self) -> &'static str {
        self.subject.id()
    }

    fn tier1(&self) -> Tier1Report {
        Tier1Report::default()
    }

    fn instances(&self, size: u32) -> Vec<(Self::Rules, <Self::Rules as Rules>::Position)> {
        self.subject.instances(size)
    }

    fn random_instance(
        &self,
        rng: &mut ChaCha8Rng,
    ) -> (Self::Rules, <Self::Rules as Rules>::Position) {
        self.subject.random_instance(rng)
    }

    fn fast(
        &self,
        rules: &Self::Rules,
        pos: &<Self::Rules as Rules>::Position,
    ) -> Analysis<<Self::Rules as Rules>::Move> {
        (self.fast)(rules, pos)
    }

    fn reproduce(&self, rules: &Self::Rules, pos: &<Self::Rules as Rules>::Position) -> String {
        format!(
            "sgcheck::verify::check_instance(&planted, &rules, &position) with rules `{rules}` \
             and position `{pos}`"
        )
    }
}

/// `subject` with its tier 1 replaced by `tier1` (a planted bug in sgcheck's tests: a
/// wrong closed form or table given to the game's own tier-1 checks), and its tier 2 as
/// it is. [`PlantedTier1::run`] takes it through [`verify_subject`] and the display and
/// exit code of `verify`.
pub struct PlantedTier1<'a, S: Subject> {
    /// The real subject, for tier 2.
    pub subject: &'a S,
    /// The planted tier 1.
    pub tier1: &'a (dyn Fn() -> Tier1Report + Sync),
}

impl<S: Subject> PlantedTier1<'_, S> {
    /// Verifies the planted subject (tier 1 whole, tier 2 on its smallest sizes) and
    /// returns the report, its text table and its exit code.
    pub fn run(&self) -> (Report, String, i32) {
        let sweep = Sweep {
            time: Duration::from_secs(20),
            max_size: Some(1),
            random_batches: Some(0),
            ..Sweep::default()
        };
        report_of_game(verify_subject(self, &sweep, &()), sweep.seed)
    }

    /// [`PlantedTier1::run`], asserting that the planted bug reaches the report's
    /// `first_disagreement` of tier 1 at a position containing `what`, the text table
    /// and exit code 1. Returns tier 1's disagreement.
    ///
    /// # Panics
    /// When the planted bug does not reach all three.
    #[track_caller]
    pub fn assert_caught(&self, what: &str) -> Disagreement {
        let (report, text, code) = self.run();
        let t1 = &report.games[0].tiers[0];
        let d = t1
            .first_disagreement
            .clone()
            .unwrap_or_else(|| panic!("planted tier-1 bug not found:\n{text}"));
        assert!(t1.disagreements > 0, "{text}");
        assert!(d.position.contains(what), "{d:?}");
        let id = self.subject.id();
        assert!(
            text.contains(&format!("DISAGREEMENT in {id} tier 1:"))
                && text.contains(&format!("position: {}", d.position)),
            "{text}"
        );
        assert!(!text.contains("all agree"), "{text}");
        assert_eq!(code, 1, "{text}");
        d
    }
}

impl<S: Subject> Subject for PlantedTier1<'_, S> {
    type Rules = S::Rules;

    fn id(&self) -> &'static str {
        self.subject.id()
    }

    fn tier1(&self) -> Tier1Report {
        (self.tier1)()
    }

    fn instances(&self, size: u32) -> Vec<(Self::Rules, <Self::Rules as Rules>::Position)> {
        self.subject.instances(size)
    }

    fn random_instance(
        &self,
        rng: &mut ChaCha8Rng,
    ) -> (Self::Rules, <Self::Rules as Rules>::Position) {
        self.subject.random_instance(rng)
    }

    fn fast(
        &self,
        rules: &Self::Rules,
        pos: &<Self::Rules as Rules>::Position,
    ) -> Analysis<<Self::Rules as Rules>::Move> {
        self.subject.fast(rules, pos)
    }

    fn reproduce(&self, rules: &Self::Rules, pos: &<Self::Rules as Rules>::Position) -> String {
        self.subject.reproduce(rules, pos)
    }
}

//! The minimality check: after a 1-minimal result, every valid input smaller than it
//! is run (smallest first, batched into few runs) up to a bound the report states.

use super::*;

impl<P: Problem, C: Contestant + ?Sized> Shrinker<'_, '_, P, C> {
    /// Runs every valid one-case input smaller than the current one (one case of
    /// size less than its size, [`Problem::case_size`]), smallest first, many cases a
    /// run, within [`MINIMALITY_RUNS`] runs. `Ok(None)` when one of them failed with
    /// the target: it is taken (the caller shrinks it again). Otherwise how far the
    /// check went: `done` when it covered every size it set out to.
    pub(super) fn check_smaller(&mut self) -> R<Option<Check>> {
        let p = self.ctx.p;
        let mut check = Check::default();
        let [case] = &self.cur[..] else {
            return Ok(Some(check));
        };
        let Some(size) = p.case_size(case) else {
            return Ok(Some(check));
        };
        if size == 0 {
            check.done = true;
            return Ok(Some(check));
        }
        // Wrong answers and crashes of one case show in a batch; time, memory and
        // output limits are a batch's, so those are checked one case a run.
        let per_run = if matches!(self.target, Verdict::WrongAnswer | Verdict::RuntimeError) {
            p.max_cases().clamp(1, MINIMALITY_BATCH)
        } else {
            1
        };
        let room = (MINIMALITY_RUNS as usize).saturating_mul(per_run);
        // The sizes that fit in the budget, all their cases listed first.
        let mut cases: Vec<P::Case> = Vec::new();
        let mut up_to = None;
        for s in 0..size {
            match p.all_cases_of_size(s, room - cases.len()) {
                Some(more) => {
                    cases.extend(more);
                    up_to = Some(s);
                }
                None => break,
            }
            if cases.len() >= room {
                break;
            }
        }
        let Some(up_to) = up_to else {
            return Ok(Some(check));
        };
        // Runs of at most `per_run` cases and BATCH_MAX_BYTES bytes.
        let mut start = 0;
        while start < cases.len() {
            let mut end = start;
            let mut bytes = 0;
            while end < cases.len() && end - start < per_run {
                bytes += p.write_input(std::slice::from_ref(&cases[end])).len();
                if end > start && bytes > BATCH_MAX_BYTES {
                    break;
                }
                end += 1;
            }
            check.cases += (end - start) as u64;
            if let Some(found) = self.first_failing(&cases[start..end], &mut check)? {
                let (c, f) = found;
                self.accept(vec![c], f);
                return Ok(None);
            }
            start = end;
        }
        check.up_to = Some(up_to);
        check.done = true;
        Ok(Some(check))
    }

    /// Runs `cases` as one input; when it fails, the first case that fails alone with
    /// the target (halving: the first half, else the second).
    pub(super) fn first_failing(
        &mut self,
        cases: &[P::Case],
        check: &mut Check,
    ) -> R<Option<(P::Case, Failure)>> {
        if Instant::now() >= self.deadline {
            return Err(Halt::Time);
        }
        let Some(expected) = self.ctx.expected(cases) else {
            // A smaller input without an expected answer: nothing can be said of it,
            // so the check claims nothing.
            return Err(Halt::Unanswerable);
        };
        let input = self.ctx.p.write_input(cases);
        self.runs += 1;
        check.runs += 1;
        let Some(f) = self.ctx.run_input(&input, cases.len(), &expected)? else {
            return Ok(None);
        };
        if cases.len() == 1 {
            if f.kind == self.target {
                return Ok(Some((cases[0].clone(), f)));
            }
            if !self.others.iter().any(|(_, o)| o.kind == f.kind) {
                self.others.push((cases.to_vec(), f));
            }
            return Ok(None);
        }
        let half = cases.len() / 2;
        if let Some(found) = self.first_failing(&cases[..half], check)? {
            return Ok(Some(found));
        }
        self.first_failing(&cases[half..], check)
    }
}

/// How far the minimality check went.
#[derive(Default)]
pub(super) struct Check {
    /// Every one-case input of at most this size was run.
    pub up_to: Option<u64>,
    /// The check covered every size it set out to (within its budget).
    pub done: bool,
    pub cases: u64,
    pub runs: u64,
}

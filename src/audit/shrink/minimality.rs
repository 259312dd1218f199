//! The minimality check: after a 1-minimal result, every valid input smaller than it
//! is run (smallest first, one-case inputs batched into few runs) up to a bound the
//! report states.
//!
//! **Smaller** is one order over every valid input: the size of an input is the sum
//! of its cases' sizes ([`Problem::case_size`]: how far each number is above its
//! least value, plus one for each list entry beyond the shortest length) plus one for
//! each case beyond the first. Every valid input counts: a list whose values must be
//! distinct in any order the format accepts (its sets in every order), a graph's
//! edges in every order and direction, and inputs of several cases when the format
//! allows several.

use super::*;

/// The size of an input in the order the minimality check enumerates: its cases'
/// sizes plus one for each case beyond the first; `None` when a case has no size.
pub(crate) fn input_size<P: Problem>(p: &P, cases: &[P::Case]) -> Option<u64> {
    let mut size = (cases.len() as u64).saturating_sub(1);
    for c in cases {
        size = size.saturating_add(p.case_size(c)?);
    }
    Some(size)
}

/// The cases of each size `0..=top` ([`Problem::all_cases_of_size`]), at most `cap`
/// of one size; `None` when a size has more or the problem cannot list them.
fn cases_by_size<P: Problem>(p: &P, top: u64, cap: usize) -> Option<Vec<Vec<P::Case>>> {
    (0..=top).map(|s| p.all_cases_of_size(s, cap)).collect()
}

/// Every valid input of two cases or more (at most [`Problem::max_cases`]) of size
/// exactly `size` ([`input_size`]), in order of their cases' sizes; `None` when they
/// are more than `cap` or the problem cannot list its cases.
pub(crate) fn multi_case_inputs<P: Problem>(
    p: &P,
    size: u64,
    cap: usize,
) -> Option<Vec<Vec<P::Case>>> {
    let most = (p.max_cases() as u64).min(size.saturating_add(1));
    let mut out = Vec::new();
    if most < 2 {
        return Some(out);
    }
    // k cases share size - (k - 1) among them.
    let by_size = cases_by_size(p, size - 1, cap)?;
    fn fill<C: Clone>(
        by_size: &[Vec<C>],
        (k, left): (u64, u64),
        cur: &mut Vec<C>,
        out: &mut Vec<Vec<C>>,
        cap: usize,
    ) -> bool {
        if k == 0 {
            if left == 0 {
                out.push(cur.clone());
            }
            return out.len() <= cap;
        }
        let sizes = if k == 1 { left..=left } else { 0..=left };
        for s in sizes {
            for c in &by_size[s as usize] {
                cur.push(c.clone());
                let room = fill(by_size, (k - 1, left - s), cur, out, cap);
                cur.pop();
                if !room {
                    return false;
                }
            }
        }
        true
    }
    for k in 2..=most {
        if !fill(
            &by_size,
            (k, size - (k - 1)),
            &mut Vec::new(),
            &mut out,
            cap,
        ) {
            return None;
        }
    }
    Some(out)
}

impl<P: Problem, C: Contestant + ?Sized> Shrinker<'_, '_, P, C> {
    /// Runs every valid input smaller than the current one ([`input_size`]), size by
    /// size, smallest first: the one-case inputs many to a run, within
    /// [`MINIMALITY_RUNS`] runs, then those of several cases one a run, within
    /// [`MINIMALITY_MULTI_RUNS`] runs. `Ok(None)` when one of them failed
    /// with the target: it is taken (the caller shrinks it again). Otherwise how far
    /// the check went: `done` when it covered every size it set out to.
    pub(super) fn check_smaller(&mut self) -> R<Option<Check>> {
        let p = self.ctx.p;
        let mut check = Check::default();
        let Some(size) = input_size(p, &self.cur) else {
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
        // The one-case sizes that fit in the budget, all their cases listed first.
        let mut cases: Vec<P::Case> = Vec::new();
        let mut one_up_to = None;
        for s in 0..size {
            match p.all_cases_of_size(s, room - cases.len()) {
                Some(more) => {
                    cases.extend(more);
                    one_up_to = Some(s);
                }
                None => break,
            }
            if cases.len() >= room {
                break;
            }
        }
        let Some(one_up_to) = one_up_to else {
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
        check.one_case_up_to = Some(one_up_to);
        check.up_to = Some(one_up_to);
        // Inputs of several cases, size by size, one a run: the program may carry
        // something from one case to the next.
        if p.max_cases() > 1 {
            check.several_cases = true;
            let mut left = MINIMALITY_MULTI_RUNS as usize;
            let mut up_to = None;
            for s in 0..size.min(one_up_to + 1) {
                let Some(inputs) = multi_case_inputs(p, s, left) else {
                    break;
                };
                left -= inputs.len();
                for input in &inputs {
                    check.cases += 1;
                    if let Some(f) = self.fails_alone(input, &mut check)? {
                        self.accept(input.clone(), f);
                        return Ok(None);
                    }
                }
                up_to = Some(s);
            }
            check.up_to = up_to;
        }
        check.done = true;
        Ok(Some(check))
    }

    /// Runs `cases` as one input, counted as a run of the check: its failure, if any.
    fn run_cases(&mut self, cases: &[P::Case], check: &mut Check) -> R<Option<Failure>> {
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
        Ok(self.ctx.run_input(&input, cases.len(), &expected)?)
    }

    /// Runs `cases` as one input; its failure when it fails with the target.
    fn fails_alone(&mut self, cases: &[P::Case], check: &mut Check) -> R<Option<Failure>> {
        let Some(f) = self.run_cases(cases, check)? else {
            return Ok(None);
        };
        if f.kind == self.target {
            return Ok(Some(f));
        }
        if !self.others.iter().any(|(_, o)| o.kind == f.kind) {
            self.others.push((cases.to_vec(), f));
        }
        Ok(None)
    }

    /// Runs `cases` as one input; when it fails, the first case that fails alone with
    /// the target (halving: the first half, else the second).
    pub(super) fn first_failing(
        &mut self,
        cases: &[P::Case],
        check: &mut Check,
    ) -> R<Option<(P::Case, Failure)>> {
        if cases.len() == 1 {
            return Ok(self
                .fails_alone(cases, check)?
                .map(|f| (cases[0].clone(), f)));
        }
        if self.run_cases(cases, check)?.is_none() {
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
    /// Every input of at most this size ([`input_size`]), of one case or several,
    /// was run.
    pub up_to: Option<u64>,
    /// Every one-case input of at most this size was run (at least `up_to`).
    pub one_case_up_to: Option<u64>,
    /// The format allows several cases, and inputs of several were run too.
    pub several_cases: bool,
    /// The check covered every size it set out to (within its budget).
    pub done: bool,
    pub cases: u64,
    pub runs: u64,
}

//! In-process fake contestants, for the tests.

use super::*;

/// A fake contestant: a closure from the input text to the output text, run in
/// process. It always "exits 0"; its output is cut at the output limit.
pub struct FnContestant<F> {
    f: F,
}

impl<F: Fn(&str) -> String + Sync> FnContestant<F> {
    /// Wraps `f`.
    pub fn new(f: F) -> Self {
        FnContestant { f }
    }
}

impl<F: Fn(&str) -> String + Sync> Contestant for FnContestant<F> {
    fn run(&self, input: &[u8], limits: &RunLimits) -> Result<RunResult, RunError> {
        let start = Instant::now();
        let mut out = (self.f)(&String::from_utf8_lossy(input)).into_bytes();
        let truncated = out.len() > limits.output_limit;
        out.truncate(limits.output_limit);
        Ok(RunResult {
            stdout: out,
            stdout_spill: None,
            stderr: Vec::new(),
            exit: Exit::Code(0),
            timed_out: false,
            output_truncated: truncated,
            memory_exceeded: false,
            process_limit_exceeded: false,
            peak_memory: 0,
            elapsed: start.elapsed(),
            cpu_time: Duration::ZERO,
            confirmed_alone: false,
        })
    }

    fn describe(&self) -> String {
        "<in-process function>".to_string()
    }
}

/// A fake contestant that returns a whole [`RunResult`]: for faking crashes,
/// time-outs and floods without a process.
pub struct RawFnContestant<F> {
    f: F,
}

impl<F: Fn(&[u8], &RunLimits) -> RunResult + Sync> RawFnContestant<F> {
    /// Wraps `f`.
    pub fn new(f: F) -> Self {
        RawFnContestant { f }
    }
}

impl<F: Fn(&[u8], &RunLimits) -> RunResult + Sync> Contestant for RawFnContestant<F> {
    fn run(&self, input: &[u8], limits: &RunLimits) -> Result<RunResult, RunError> {
        Ok((self.f)(input, limits))
    }

    fn describe(&self) -> String {
        "<in-process function>".to_string()
    }
}

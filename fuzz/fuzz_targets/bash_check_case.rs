#![no_main]
//! A user's target built the documented way: `Case<Bash>` decoded by the library, a
//! solver (here sgcheck's own Bash solver) checked by `fuzzing::check_case`.
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_case, Checked};
use sgcheck::{oracles::games::bash::Bash, Case};

fuzz_target!(|case: Case<Bash>| -> Corpus {
    match check_case(&case, sgcheck::games::bash::analyze) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

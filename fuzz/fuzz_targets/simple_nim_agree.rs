#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_simple_nim_agree, Checked, SimpleNimAgree};

fuzz_target!(|input: SimpleNimAgree| -> Corpus {
    match check_simple_nim_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

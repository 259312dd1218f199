#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_nim_agree, Checked, NimAgree};

fuzz_target!(|input: NimAgree| -> Corpus {
    match check_nim_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

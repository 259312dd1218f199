#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_nim_k_agree, Checked, NimKAgree};

fuzz_target!(|input: NimKAgree| -> Corpus {
    match check_nim_k_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

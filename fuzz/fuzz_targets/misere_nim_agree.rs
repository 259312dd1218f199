#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_misere_nim_agree, Checked, MisereNimAgree};

fuzz_target!(|input: MisereNimAgree| -> Corpus {
    match check_misere_nim_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_ed_agree, Checked, EdAgree};

fuzz_target!(|input: EdAgree| -> Corpus {
    match check_ed_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

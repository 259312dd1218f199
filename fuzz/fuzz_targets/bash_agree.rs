#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_bash_agree, Checked, BashAgree};

fuzz_target!(|input: BashAgree| -> Corpus {
    match check_bash_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_wythoff_agree, Checked, WythoffAgree};

fuzz_target!(|input: WythoffAgree| -> Corpus {
    match check_wythoff_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

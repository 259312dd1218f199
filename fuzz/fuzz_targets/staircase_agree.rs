#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_staircase_agree, Checked, StaircaseAgree};

fuzz_target!(|input: StaircaseAgree| -> Corpus {
    match check_staircase_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

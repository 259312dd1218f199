#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_lasker_agree, Checked, LaskerAgree};

fuzz_target!(|input: LaskerAgree| -> Corpus {
    match check_lasker_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

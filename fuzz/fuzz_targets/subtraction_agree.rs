#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_subtraction_agree, Checked, SubtractionAgree};

fuzz_target!(|input: SubtractionAgree| -> Corpus {
    match check_subtraction_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_take_range_agree, Checked, TakeRangeAgree};

fuzz_target!(|input: TakeRangeAgree| -> Corpus {
    match check_take_range_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

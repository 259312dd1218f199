#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_split_agree, Checked, SplitAgree};

fuzz_target!(|input: SplitAgree| -> Corpus {
    match check_split_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

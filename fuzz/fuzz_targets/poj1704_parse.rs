#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_parse, Checked, Poj1704Parse};

fuzz_target!(|input: Poj1704Parse| -> Corpus {
    match check_parse(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

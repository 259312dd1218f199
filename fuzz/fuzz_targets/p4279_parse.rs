#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_parse, Checked, P4279Parse};

fuzz_target!(|input: P4279Parse| -> Corpus {
    match check_parse(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::Checked;
use sgcheck::problems::fuzz::{check_parse, Poj1704Parse};

fuzz_target!(|input: Poj1704Parse| -> Corpus {
    match check_parse(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

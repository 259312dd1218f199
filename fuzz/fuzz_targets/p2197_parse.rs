#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::Checked;
use sgcheck::problems::fuzz::{check_parse, P2197Parse};

fuzz_target!(|input: P2197Parse| -> Corpus {
    match check_parse(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

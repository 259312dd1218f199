#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_octal_agree, Checked, OctalAgree};

fuzz_target!(|input: OctalAgree| -> Corpus {
    match check_octal_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_grundy_agree, Checked, GrundyAgree};

fuzz_target!(|input: GrundyAgree| -> Corpus {
    match check_grundy_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

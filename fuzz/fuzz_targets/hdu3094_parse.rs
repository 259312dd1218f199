#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_parse, Checked, Hdu3094Parse};

fuzz_target!(|input: Hdu3094Parse| -> Corpus {
    match check_parse(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_hackenbush_tree_agree, Checked, HackenbushTreeAgree};

fuzz_target!(|input: HackenbushTreeAgree| -> Corpus {
    match check_hackenbush_tree_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

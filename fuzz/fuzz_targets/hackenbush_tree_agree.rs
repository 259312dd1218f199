#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_agree, Agree, Checked};
use sgcheck::games::hackenbush_tree::HackenbushTreeSubject;

fuzz_target!(|input: Agree<HackenbushTreeSubject>| -> Corpus {
    match check_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

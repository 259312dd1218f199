#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_following_nim_agree, Checked, FollowingNimAgree};

fuzz_target!(|input: FollowingNimAgree| -> Corpus {
    match check_following_nim_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

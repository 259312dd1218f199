#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_agree, Agree, Checked};
use sgcheck::games::mock_turtles::MockTurtlesSubject;

fuzz_target!(|input: Agree<MockTurtlesSubject>| -> Corpus {
    match check_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

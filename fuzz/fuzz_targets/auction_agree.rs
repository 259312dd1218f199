#![no_main]
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::{check_auction_agree, Checked, AuctionAgree};

fuzz_target!(|input: AuctionAgree| -> Corpus {
    match check_auction_agree(&input) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

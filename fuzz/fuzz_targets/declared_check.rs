#![no_main]
//! Any declared problem, the game's fast side against its oracle: the bytes choose a
//! small case of the declaration named by `SGCHECK_FUZZ_DECLARATION` (default
//! `examples/problems/dawson.toml`), and `solve`'s answer must be the oracle's.
use libfuzzer_sys::{fuzz_target, Corpus};
use sgcheck::fuzzing::Checked;
use sgcheck::problems::fuzz::check_declared;

fuzz_target!(|data: &[u8]| -> Corpus {
    match check_declared(data) {
        Checked::Kept => Corpus::Keep,
        Checked::Rejected => Corpus::Reject,
    }
});

//! Replays every committed fuzz input through the same `check_*` functions the fuzz
//! targets call, on stable and without libFuzzer.
//!
//! `corpus/fuzz/<target>/` holds curated seeds; `corpus/regressions/<target>/` holds
//! minimized inputs that once failed. A regression file is named after what was wrong;
//! the list below says it in words, and the test fails if a file is not listed.

use sgcheck::fuzzing::{replay, Checked, TARGETS};
use std::path::{Path, PathBuf};

/// Every regression input, with what was wrong when it was found.
const REGRESSIONS: &[(&str, &str, &str)] = &[];

fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = rd
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

#[test]
fn every_target_has_a_fuzz_target_file_and_seeds() {
    let dir = root().join("fuzz/fuzz_targets");
    let mut on_disk: Vec<String> = files(&dir)
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = TARGETS.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(
        on_disk, listed,
        "fuzz/fuzz_targets and sgcheck::fuzzing::TARGETS differ"
    );
    for t in TARGETS {
        assert!(
            !files(&root().join("corpus/fuzz").join(t)).is_empty(),
            "no seeds for {t}"
        );
    }
}

#[test]
fn seeds_replay() {
    let mut kept = 0;
    for t in TARGETS {
        for f in files(&root().join("corpus/fuzz").join(t)) {
            let data = std::fs::read(&f).unwrap();
            let r = replay(t, &data).unwrap_or_else(|| panic!("{}: does not decode", f.display()));
            if r == Checked::Kept {
                kept += 1;
            }
        }
    }
    assert!(kept > 0, "no seed was inside its target's domain");
}

#[test]
fn regressions_replay() {
    let dir = root().join("corpus/regressions");
    for t in TARGETS {
        for f in files(&dir.join(t)) {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            let known = REGRESSIONS
                .iter()
                .find(|(target, file, _)| target == t && *file == name);
            assert!(
                known.is_some(),
                "{}: add it to REGRESSIONS with what was wrong",
                f.display()
            );
            let data = std::fs::read(&f).unwrap();
            assert!(
                replay(t, &data).is_some(),
                "{}: does not decode",
                f.display()
            );
        }
    }
}

#[test]
fn seeds_decode_as_documented() {
    // Seeds are written by hand: each byte of a nim_agree seed is one pile.
    let data = std::fs::read(root().join("corpus/fuzz/nim_agree/classic_3_4_5")).unwrap();
    let input: sgcheck::fuzzing::NimAgree = sgcheck::fuzzing::decode(&data).unwrap();
    assert_eq!(input.piles, vec![3, 4, 5]);
    assert_eq!(format!("{input:?}"), "sgcheck check nim '3,4,5'");
}

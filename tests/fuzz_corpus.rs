//! Replays every committed fuzz input through the same `check_*` functions the fuzz
//! targets call, on stable and without libFuzzer.
//!
//! `corpus/fuzz/<target>/` holds curated seeds; `corpus/regressions/<target>/` holds
//! minimized inputs that once failed. A regression file is named after what was wrong;
//! the list below says it in words, and the test fails if a file is not listed.

use sgcheck::fuzzing::Checked;
use sgcheck::problems::fuzz::{replay, targets};
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
    let mut listed: Vec<String> = targets();
    listed.sort();
    assert_eq!(
        on_disk, listed,
        "fuzz/fuzz_targets and sgcheck::problems::fuzz::targets() differ"
    );
    for t in &targets() {
        assert!(
            !files(&root().join("corpus/fuzz").join(t)).is_empty(),
            "no seeds for {t}"
        );
    }
}

#[test]
fn seeds_replay() {
    // Every target has at least one seed inside its domain (checked, not rejected):
    // a target whose seeds are all rejected would replay nothing.
    let mut without = Vec::new();
    for t in &targets() {
        let mut kept = 0;
        for f in files(&root().join("corpus/fuzz").join(t)) {
            let data = std::fs::read(&f).unwrap();
            let r = replay(t, &data).unwrap_or_else(|| panic!("{}: does not decode", f.display()));
            if r == Checked::Kept {
                kept += 1;
            }
        }
        if kept == 0 {
            without.push(t.clone());
        }
    }
    assert!(
        without.is_empty(),
        "no seed inside the target's domain: {without:?}"
    );
}

#[test]
fn regressions_replay() {
    // The directory exists (with its README) even while no regression was found, every
    // subdirectory is a target, every listed file is there, and every file there is
    // replayed: none can be skipped by a misspelt directory or a missing entry.
    let dir = root().join("corpus/regressions");
    assert!(
        dir.join("README.md").is_file(),
        "corpus/regressions/README.md is missing"
    );
    let mut on_disk = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                targets().contains(&name),
                "{}: not a fuzz target",
                path.display()
            );
            on_disk += files(&path).len();
        }
    }
    for (target, file, _) in REGRESSIONS {
        assert!(
            dir.join(target).join(file).is_file(),
            "{target}/{file} is listed but missing"
        );
    }
    let mut replayed = 0;
    for t in &targets() {
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
            replayed += 1;
        }
    }
    assert_eq!(replayed, on_disk, "every regression file is replayed");
    assert_eq!(
        replayed,
        REGRESSIONS.len(),
        "every listed regression is replayed"
    );
}

#[test]
fn seeds_decode_as_documented() {
    // Seeds are written by hand: each byte of a nim_agree seed is one pile.
    let data = std::fs::read(root().join("corpus/fuzz/nim_agree/classic_3_4_5")).unwrap();
    let input: sgcheck::fuzzing::Agree<sgcheck::games::nim::NimSubject> =
        sgcheck::fuzzing::decode(&data).unwrap();
    assert_eq!(input.rest, vec![3, 4, 5]);
    assert_eq!(format!("{input:?}"), "sgcheck check nim '3,4,5'");
}

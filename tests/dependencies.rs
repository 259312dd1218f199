//! The dependency figures the book gives (`docs/src/library.md`) are the manifest's:
//! `cargo tree -e normal` of the library without default features, with `quickcheck`,
//! and with the default `cli` feature, each crate counted once, the library included.

use std::path::Path;
use std::process::Command;

/// The crates `cargo tree` lists for the library with these feature arguments.
fn crates(features: &[&str]) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "-p",
            "sgcheck",
            "-e",
            "normal",
            "--prefix",
            "none",
            "--offline",
        ])
        .args(features)
        .current_dir(root)
        .output()
        .expect("runs cargo tree");
    assert!(
        out.status.success(),
        "cargo tree {features:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            l.trim_end_matches(" (*)")
                .trim_end_matches(" (proc-macro)")
                .to_string()
        })
        .filter(|l| !l.is_empty())
        .collect();
    names.sort();
    names.dedup();
    names.len()
}

/// The number right before `before` in `text`.
fn number_before(text: &str, before: &str) -> usize {
    let at = text
        .find(before)
        .unwrap_or_else(|| panic!("library.md no longer says {before:?}"));
    let head = text[..at].trim_end();
    let digits: String = head
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits.parse().expect("a number")
}

#[test]
fn the_books_dependency_figures_are_the_manifests() {
    let book =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/library.md"))
            .unwrap();
    let book = book.split_whitespace().collect::<Vec<_>>().join(" ");
    let slim = crates(&["--no-default-features"]);
    let with_quickcheck = crates(&["--no-default-features", "--features", "quickcheck"]);
    let cli = crates(&[]);
    assert_eq!(
        number_before(&book, "crates, itself included"),
        slim,
        "without default features"
    );
    assert_eq!(
        number_before(&book, "with `quickcheck`), against"),
        with_quickcheck,
        "with quickcheck"
    );
    assert_eq!(
        number_before(&book, "with the default `cli` feature"),
        cli,
        "with cli"
    );
}

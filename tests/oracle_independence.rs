//! The oracle crate must not depend on anything in this repository: a differential
//! check only means something when the two sides can be wrong independently.

use std::process::Command;

/// What is wrong with the oracle crate's manifest: every dependency on a crate of this
/// repository (named `sgcheck*`, or by path), in any section.
fn manifest_problems(manifest: &str) -> Vec<String> {
    let doc: toml::Table = manifest.parse().unwrap();
    let mut problems = Vec::new();
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        if let Some(deps) = doc.get(section).and_then(|d| d.as_table()) {
            for (name, spec) in deps {
                if name.starts_with("sgcheck") {
                    problems.push(format!("oracles depends on {name} in [{section}]"));
                }
                if spec.as_table().is_some_and(|t| t.contains_key("path")) {
                    problems.push(format!(
                        "oracles has a path dependency {name} in [{section}]"
                    ));
                }
            }
        }
    }
    problems
}

/// What is wrong with the output of `cargo tree -p sgcheck-oracles --prefix none`:
/// every line naming the crate `sgcheck`.
fn tree_problems(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| line.starts_with("sgcheck "))
        .map(|line| format!("oracles depends on sgcheck: {line}"))
        .collect()
}

#[test]
fn oracle_manifest_has_no_path_dependencies() {
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/oracles/Cargo.toml"))
            .unwrap();
    let problems = manifest_problems(&manifest);
    assert!(problems.is_empty(), "{problems:?}");
}

#[test]
fn cargo_tree_of_oracles_has_no_sgcheck() {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "-p",
            "sgcheck-oracles",
            "--prefix",
            "none",
            "-e",
            "all",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("sgcheck-oracles"),
        "unexpected cargo tree output: {text}"
    );
    let problems = tree_problems(&text);
    assert!(problems.is_empty(), "{problems:?}");
}

#[test]
fn the_checks_catch_a_planted_dependency() {
    // A `cargo tree` output in which the oracle crate reaches sgcheck (as it would
    // with `sgcheck = { path = ".." }` among its dependencies): caught.
    let planted = "sgcheck-oracles v0.1.0 (/repo/oracles)\n\
                   rustc-hash v2.1.1\n\
                   sgcheck v0.1.0 (/repo)\n\
                   rayon v1.12.0\n";
    assert_eq!(
        tree_problems(planted),
        ["oracles depends on sgcheck: sgcheck v0.1.0 (/repo)"]
    );
    // The oracle crate alone, and crates whose names only start the same: clean.
    let clean = "sgcheck-oracles v0.1.0 (/repo/oracles)\nrustc-hash v2.1.1\n";
    assert!(tree_problems(clean).is_empty());
    // The same dependency planted in the manifest, in each section, by name and path.
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        let manifest = format!(
            "[package]\nname = \"sgcheck-oracles\"\nversion = \"0.1.0\"\n\n\
             [{section}]\nsgcheck = {{ path = \"..\" }}\nrand = \"0.8\"\n"
        );
        assert_eq!(
            manifest_problems(&manifest),
            [
                format!("oracles depends on sgcheck in [{section}]"),
                format!("oracles has a path dependency sgcheck in [{section}]"),
            ]
        );
    }
    // A path dependency on another crate of the repository under another name.
    let manifest = "[dependencies]\nhelpers = { path = \"../helpers\" }\n";
    assert_eq!(
        manifest_problems(manifest),
        ["oracles has a path dependency helpers in [dependencies]"]
    );
}

//! The oracle crate must not depend on anything in this repository: a differential
//! check only means something when the two sides can be wrong independently.

use std::process::Command;

#[test]
fn oracle_manifest_has_no_path_dependencies() {
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/oracles/Cargo.toml"))
            .unwrap();
    let doc: toml::Table = manifest.parse().unwrap();
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        if let Some(deps) = doc.get(section).and_then(|d| d.as_table()) {
            for (name, spec) in deps {
                assert!(!name.starts_with("sgcheck"), "oracles depends on {name}");
                let has_path = spec.as_table().is_some_and(|t| t.contains_key("path"));
                assert!(
                    !has_path,
                    "oracles has a path dependency {name} in [{section}]"
                );
            }
        }
    }
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
    for line in text.lines() {
        assert!(
            !line.starts_with("sgcheck "),
            "oracles depends on sgcheck: {line}"
        );
    }
}

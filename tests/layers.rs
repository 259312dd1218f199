//! The layers of the crate, bottom up, with every arrow pointing down (see
//! ARCHITECTURE.md): a module may name (`crate::...`) only modules of its own layer
//! or of a layer below. The oracle crate is layer 1; `.ci/run` checks that it depends
//! on nothing of sgcheck.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every top-level module of `src/`, with its layer.
const LAYERS: &[(&str, u8, &str)] = &[
    ("verify", 2, "the differential engine"),
    ("game", 2, "the differential engine"),
    ("harness", 2, "the differential engine"),
    ("shrink", 2, "the differential engine"),
    ("guard", 2, "the differential engine"),
    ("arbitrary", 2, "the differential engine"),
    ("fuzzing", 2, "the differential engine"),
    ("tree", 2, "the differential engine"),
    ("shell", 2, "the differential engine"),
    ("games", 3, "games"),
    ("registry", 4, "the registry"),
    ("problems", 5, "problems"),
    ("audit", 6, "audit"),
    (
        "package",
        7,
        "problem packages: the commands export and audit --package",
    ),
    ("cli", 7, "cli"),
];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|l| l.0 == module).map(|l| l.1)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without its comments (doc comments included) and string
/// literals, so that only real paths are read.
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i += 2;
            while i < b.len() && !b[i..].starts_with(b"*/") {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // A char literal ('"', '\n'): skipped so a quote in it opens no string.
            let end = text[i + 1..].find('\'').map_or(b.len(), |k| i + 1 + k + 1);
            i = end.max(i + 1);
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// The top-level modules a piece of code names through `crate::`.
fn named_modules(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(k) = rest.find("crate::") {
        let after = &rest[k + "crate::".len()..];
        if let Some(group) = after.strip_prefix('{') {
            // `crate::{a, b::c}`: the first segment of each item.
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                found.push(name);
            }
        } else {
            found.push(
                after
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect(),
            );
        }
        rest = after;
    }
    found
}

#[test]
fn every_arrow_between_layers_points_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut wrong: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut unplaced = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let Some(own) = layer(&module) else {
            unplaced.push(module);
            continue;
        };
        let code = code_only(&std::fs::read_to_string(f).unwrap());
        for named in named_modules(&code) {
            // Items re-exported at the root (`crate::Case`, `crate::Game`) live in
            // `game`, layer 2.
            let above = match layer(&named) {
                Some(l) => l > own,
                None => named.chars().next().is_some_and(|c| c.is_lowercase()) && named != "self",
            };
            if above {
                wrong
                    .entry(rel.display().to_string())
                    .or_default()
                    .push(named);
            }
        }
    }
    unplaced.dedup();
    assert!(
        unplaced.is_empty(),
        "modules without a layer (add them to LAYERS): {unplaced:?}"
    );
    assert!(
        wrong.is_empty(),
        "arrows pointing up or to unknown modules: {wrong:#?}"
    );
}

#[test]
fn the_checker_sees_an_arrow_pointing_up() {
    // A planted engine line naming the games and a problem, and one naming them only
    // in comments and strings, which are not arrows.
    let planted = "use crate::{verify, games::nim};\nfn f() { crate::problems::all_info(); }";
    assert_eq!(
        named_modules(&code_only(planted)),
        ["verify", "games", "problems"]
    );
    let quiet = "// crate::games\n/// [`crate::problems`]\nlet s = \"crate::audit\";";
    assert!(named_modules(&code_only(quiet)).is_empty());
}

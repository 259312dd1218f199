//! Known answers: the built-in problems' (`corpus/samples/<id>.toml`) and a
//! declaration's `[[sample]]`s. `verify` and `audit` check them first; a package's
//! `data/sample` holds the statement samples, its `traps` group the other known cases,
//! and `data/invalid_input` the malformed inputs.

use serde::Deserialize;

/// A file of known answers (the format of `corpus/samples/README.md`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Known {
    /// The problem id.
    pub problem: String,
    /// Inputs with their known output.
    #[serde(default)]
    pub case: Vec<KnownCase>,
    /// Inputs the parser must reject.
    #[serde(default)]
    pub malformed: Vec<Malformed>,
}

/// An input with its known output.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownCase {
    /// Short and unique within the file; `sample...` for a statement's samples.
    pub name: String,
    /// Where the expected answer comes from.
    pub source: String,
    /// The input.
    pub input: String,
    /// The known output.
    pub output: String,
}

/// An input the parser must reject.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Malformed {
    /// What is wrong with it.
    pub name: String,
    /// The input.
    pub input: String,
    /// The line the error names.
    pub line: usize,
}

const BUILTIN: &[(&str, &str)] = &[
    (
        "bzoj1188",
        include_str!("../../corpus/samples/bzoj1188.toml"),
    ),
    (
        "followingnim",
        include_str!("../../corpus/samples/followingnim.toml"),
    ),
    ("hdu1527", include_str!("../../corpus/samples/hdu1527.toml")),
    ("hdu1536", include_str!("../../corpus/samples/hdu1536.toml")),
    ("hdu1846", include_str!("../../corpus/samples/hdu1846.toml")),
    ("hdu1848", include_str!("../../corpus/samples/hdu1848.toml")),
    ("hdu1850", include_str!("../../corpus/samples/hdu1850.toml")),
    ("hdu2149", include_str!("../../corpus/samples/hdu2149.toml")),
    ("hdu2176", include_str!("../../corpus/samples/hdu2176.toml")),
    ("hdu2897", include_str!("../../corpus/samples/hdu2897.toml")),
    ("hdu3032", include_str!("../../corpus/samples/hdu3032.toml")),
    ("hdu3094", include_str!("../../corpus/samples/hdu3094.toml")),
    ("hdu3980", include_str!("../../corpus/samples/hdu3980.toml")),
    ("hdu5795", include_str!("../../corpus/samples/hdu5795.toml")),
    ("p2148", include_str!("../../corpus/samples/p2148.toml")),
    ("p2197", include_str!("../../corpus/samples/p2197.toml")),
    ("p4279", include_str!("../../corpus/samples/p4279.toml")),
    ("poj1704", include_str!("../../corpus/samples/poj1704.toml")),
    ("uva1378", include_str!("../../corpus/samples/uva1378.toml")),
];

/// The known answers of built-in problem `id` (empty when it has none).
pub fn builtin(id: &str) -> Known {
    BUILTIN
        .iter()
        .find(|(b, _)| *b == id)
        .and_then(|(_, text)| toml::from_str(text).ok())
        .unwrap_or_default()
}

/// Reads a file of known answers.
pub fn parse(text: &str, origin: &str) -> Result<Known, String> {
    toml::from_str(text).map_err(|e| format!("{origin}: {e}"))
}

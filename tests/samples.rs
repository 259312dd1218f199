//! Runs every known answer in `corpus/samples/*.toml` through both engines, and every
//! malformed input through the command line (exit code 2, the line named).
//! The format is documented in `corpus/samples/README.md`.

use serde::Deserialize;
use sgcheck::problems::{self, Problem, Visitor};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    problem: String,
    #[serde(default)]
    case: Vec<Case>,
    #[serde(default)]
    malformed: Vec<Malformed>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    source: String,
    input: String,
    output: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Malformed {
    name: String,
    input: String,
    line: usize,
}

fn files() -> Vec<(PathBuf, File)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/samples");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let text = std::fs::read_to_string(&path).unwrap();
            let file: File =
                toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            out.push((path, file));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Runs one case through both engines; returns a line per engine for the log.
struct RunCase<'a>(&'a Case);

impl Visitor for RunCase<'_> {
    type Output = Result<String, String>;
    fn visit<P: Problem>(self, p: &P) -> Result<String, String> {
        let c = self.0;
        let cases = p
            .parse(&c.input, false)
            .map_err(|e| format!("{}: parse error {e}", c.name))?;
        let fast = problems::solve_fast(p, &cases).unwrap();
        if fast != c.output {
            return Err(format!(
                "{}: fast answered\n{fast}expected\n{}",
                c.name, c.output
            ));
        }
        match problems::solve_oracle(p, &cases, 3_000_000) {
            Ok(oracle) if oracle == c.output => Ok(format!("{}: fast ok, oracle ok", c.name)),
            Ok(oracle) => Err(format!(
                "{}: oracle answered\n{oracle}expected\n{}",
                c.name, c.output
            )),
            Err((i, e)) => Ok(format!(
                "{}: fast ok, oracle skipped case {}: {e}",
                c.name,
                i + 1
            )),
        }
    }
}

#[test]
fn every_problem_has_a_sample_file() {
    let files = files();
    for id in problems::PROBLEM_IDS {
        assert!(
            files.iter().any(|(_, f)| f.problem == *id),
            "no corpus/samples file for {id}"
        );
    }
}

#[test]
fn known_answers_through_both_engines() {
    let mut failures = Vec::new();
    let mut oracle_ran = 0;
    for (path, file) in files() {
        assert!(!file.case.is_empty(), "{}: no cases", path.display());
        for case in &file.case {
            assert!(
                !case.source.trim().is_empty(),
                "{}: {} has no source",
                path.display(),
                case.name
            );
            let r = problems::with_problem(&file.problem, RunCase(case))
                .unwrap_or_else(|| panic!("{}: unknown problem {}", path.display(), file.problem));
            match r {
                Ok(log) => {
                    if log.ends_with("oracle ok") {
                        oracle_ran += 1;
                    }
                    println!("{}: {log}", file.problem);
                }
                Err(e) => failures.push(format!("{}: {e}", file.problem)),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(oracle_ran > 0, "the oracle answered no case at all");
}

#[test]
fn malformed_inputs_exit_2_naming_the_line() {
    let mut failures = Vec::new();
    for (path, file) in files() {
        for m in &file.malformed {
            let mut child = Command::new(env!("CARGO_BIN_EXE_sgcheck"))
                .args(["solve", &file.problem])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let input = m.input.clone();
            let mut stdin = child.stdin.take().unwrap();
            let writer = std::thread::spawn(move || {
                use std::io::Write;
                let _ = stdin.write_all(input.as_bytes());
            });
            let out = child.wait_with_output().unwrap();
            writer.join().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            let want = format!("line {}:", m.line);
            if out.status.code() != Some(2) || !stderr.contains(&want) || !out.stdout.is_empty() {
                failures.push(format!(
                    "{} / {}: exit {:?}, stdout {:?}, stderr {:?} (wanted exit 2 and {want:?})",
                    path.display(),
                    m.name,
                    out.status.code(),
                    String::from_utf8_lossy(&out.stdout),
                    stderr
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

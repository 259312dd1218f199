//! A problem declared in a file outside the repository, used with `solve`, `verify`
//! and `audit` exactly like a built-in one; malformed declarations exit 2 naming the
//! line and the key.

mod workshop;

use workshop::{sgcheck, text};

use serde_json::Value;
use std::path::{Path, PathBuf};

fn builtin(id: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("corpus/problems/{id}.toml"));
    std::fs::read_to_string(path).expect("built-in declaration")
}

/// A copy of a built-in declaration with some lines replaced, written to `dir`.
fn variant(dir: &Path, id: &str, name: &str, replace: &[(&str, &str)]) -> PathBuf {
    let mut decl = builtin(id);
    for (from, to) in replace {
        assert!(decl.contains(from), "{id}: {from:?} not found");
        decl = decl.replacen(from, to, 1);
    }
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, decl).unwrap();
    path
}

/// p2197 with other output words: `Win` / `Lose`, under the id `mynim`.
fn my_nim(dir: &Path) -> PathBuf {
    variant(
        dir,
        "p2197",
        "mynim",
        &[
            ("id = \"p2197\"", "id = \"mynim\""),
            ("win = \"Yes\"", "win = \"Win\""),
            ("lose = \"No\"", "lose = \"Lose\""),
        ],
    )
}

/// An awk script `name` in `dir` that reads every number of its input into `t` and
/// then runs `end` (with `bxor(a, b)` at hand).
fn awk_script(dir: &Path, name: &str, end: &str) -> PathBuf {
    let script = format!(
        "#!/bin/sh\nexec awk '\
function bxor(a, b,   r, p) {{ r = 0; p = 1; while (a > 0 || b > 0) {{ if (a % 2 != b % 2) r += p; a = int(a / 2); b = int(b / 2); p *= 2 }} return r }}\n\
{{ for (i = 1; i <= NF; i++) t[k++] = $i }}\n\
END {{ {end} }}'\n"
    );
    let path = dir.join(name);
    std::fs::write(&path, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// The XOR step of the Nim solvers below: `wrong` keeps the first pile alone (a
/// planted bug).
fn xor_step(wrong: bool) -> &'static str {
    if wrong {
        "(j == 0 ? v : x)"
    } else {
        "bxor(x, v)"
    }
}

/// A Nim solver in awk printing `Win` / `Lose` (`wrong` prints the verdict of the
/// first pile alone, a planted bug).
fn awk_solver(dir: &Path, wrong: bool) -> PathBuf {
    let xor = xor_step(wrong);
    awk_script(
        dir,
        if wrong { "wrong.sh" } else { "right.sh" },
        &format!(
            "q = 0; T = t[q++]; for (c = 0; c < T; c++) {{ n = t[q++]; x = 0; for (j = 0; j < n; j++) {{ v = t[q++]; x = {xor} }} print (x != 0 ? \"Win\" : \"Lose\") }}"
        ),
    )
}

#[test]
fn solve_with_a_declaration_file() {
    let dir = tempfile::tempdir().unwrap();
    let decl = my_nim(dir.path());
    let d = decl.to_str().unwrap();
    let sample = "2\n2\n1 1\n2\n1 0\n";
    let out = sgcheck(&["solve", "--problem", d], sample);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "Lose\nWin\n");
    // The input as a file argument, and the oracle engine.
    let input = dir.path().join("in.txt");
    std::fs::write(&input, sample).unwrap();
    let out = sgcheck(
        &[
            "solve",
            "--problem",
            d,
            input.to_str().unwrap(),
            "--engine",
            "oracle",
        ],
        "",
    );
    assert_eq!(text(&out.stdout), "Lose\nWin\n", "{}", text(&out.stderr));
    // Malformed input: exit 2, the line and field named, nothing on stdout.
    let out = sgcheck(&["solve", "--problem", d], "1\n2\n1 x\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 3: pile 2 of case 1"),
        "{}",
        text(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    // An id and --problem together are a usage error.
    let out = sgcheck(&["solve", "p2197", "--problem", d, "in.txt"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_new_output_format_best_move_with_a_prefix() {
    // bzoj1188's game and input in a format of our own: `Case #t: i j k (count)`,
    // moves printed from 1, and every winning move on a second line.
    let dir = tempfile::tempdir().unwrap();
    let decl = variant(
        dir.path(),
        "bzoj1188",
        "mysplit",
        &[
            ("id = \"bzoj1188\"", "id = \"mysplit\""),
            ("aliases = [\"p3185\"]\n", ""),
            (
                "lines = [\"{best}\", \"{count}\"]",
                "lines = [\"Case #{case}: {best} ({count})\", \"{moves}\"]",
            ),
            (
                "move = \"{i} {j} {k}\"",
                "move = \"{i+1}-{j+1}-{k+1}\"\nseparator = \", \"",
            ),
            ("none = \"-1 -1 -1\"", "none = \"lost\""),
        ],
    );
    let out = sgcheck(
        &["solve", "--problem", decl.to_str().unwrap()],
        "2\n3\n1 0 5\n2\n2 1\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "Case #1: 1-2-2 (2)\n1-2-2, 1-3-3\nCase #2: lost (0)\n\n"
    );
    let out = sgcheck(
        &[
            "verify",
            "--problem",
            decl.to_str().unwrap(),
            "--time",
            "2",
            "--seed",
            "3",
            "--json",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"][0]["game"], "split");
    assert!(
        v["games"][0]["tiers"][2]["checked"].as_u64().unwrap() > 100,
        "{v}"
    );
}

#[test]
fn verify_with_a_declaration_file() {
    let dir = tempfile::tempdir().unwrap();
    let decl = my_nim(dir.path());
    let out = sgcheck(
        &[
            "verify",
            "--problem",
            decl.to_str().unwrap(),
            "--time",
            "2",
            "--seed",
            "1",
            "--json",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["game"], "nim");
    let tiers = games[0]["tiers"].as_array().unwrap();
    assert_eq!(tiers.len(), 3);
    assert_eq!(tiers[2]["tier"], 3);
    assert!(tiers[2]["checked"].as_u64().unwrap() > 1000, "{v}");
    assert_eq!(v["disagreements"], 0);
}

#[test]
fn audit_with_a_declaration_file() {
    let dir = tempfile::tempdir().unwrap();
    let decl = my_nim(dir.path());
    let d = decl.to_str().unwrap();
    let right = awk_solver(dir.path(), false);
    let audit = |program: &Path| -> Value {
        let out = sgcheck(
            &[
                "audit",
                "--problem",
                d,
                "--seed",
                "1",
                "--time",
                "10",
                "--cases",
                "3000",
                "--json",
                "--",
                program.to_str().unwrap(),
            ],
            "",
        );
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            text(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("audit --json prints JSON")
    };
    let r = audit(&right);
    assert_eq!(r["verdict"], "ok", "{r}");
    assert_eq!(r["problem"], "mynim");
    assert!(r["cases"].as_u64().unwrap() >= 1000, "{r}");
    // The planted bug (only the first pile counts) is found and shrunk; the expected
    // answer uses the declaration's words, and the reproducing command its file.
    let wrong = awk_solver(dir.path(), true);
    let r = audit(&wrong);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = &r["counterexample"];
    assert_eq!(c["input"], "1\n2\n0 1\n", "{r}");
    assert_eq!(c["expected"], "Win\n");
    assert_eq!(c["actual"], "Lose\n");
    let reproduce = r["reproduce"].as_str().unwrap();
    assert!(
        reproduce.starts_with(&format!(
            "sgcheck audit --problem {} --seed 1",
            sgcheck::shell::path(d)
        )),
        "{reproduce}"
    );
}

#[test]
fn malformed_declarations_name_the_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    for (name, replace, line, key, what) in [
        (
            "version",
            ("format = 1", "format = 3"),
            4,
            "format",
            "format 3 is not supported",
        ),
        (
            "game",
            ("game = \"nim\"", "game = \"chess\""),
            7,
            "game",
            "unknown game \"chess\"",
        ),
        (
            "unknown_key",
            ("win = \"Yes\"", "wins = \"Yes\""),
            28,
            "output.wins",
            "unknown field",
        ),
        (
            "placeholder",
            ("lines = [\"{verdict}\"]", "lines = [\"{verdikt}\"]"),
            27,
            "output.lines",
            "unknown placeholder {verdikt}",
        ),
        (
            "bounds",
            ("max = 9999", "max = -1"),
            23,
            "field.piles.max",
            "max is a non-negative integer",
        ),
        (
            "position",
            ("position = [\"piles\"]", "position = [\"stones\"]"),
            8,
            "position",
            "no field named \"stones\"",
        ),
        (
            "rules",
            ("lose = \"No\"", "lose = \"No\"\n\n[rules]\nm = 3"),
            32,
            "rules.m",
            "has no parameter",
        ),
        ("syntax", ("[output]", "[output"), 26, "", ""),
    ] {
        let path = variant(dir.path(), "p2197", name, &[replace]);
        let out = sgcheck(&["solve", "--problem", path.to_str().unwrap()], "1\n1\n1\n");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}");
        assert!(
            err.contains(&format!("{}: line {line}", path.display())),
            "{name}: {err}"
        );
        if !key.is_empty() {
            assert!(err.contains(&format!("key `{key}`")), "{name}: {err}");
        }
        assert!(err.contains(what), "{name}: {err}");
    }
    // A missing file is a usage error too, for every command.
    for cmd in [
        &["solve", "--problem", "/nonexistent.toml"][..],
        &["verify", "--problem", "/nonexistent.toml"][..],
        &["audit", "--problem", "/nonexistent.toml", "--", "true"][..],
    ] {
        let out = sgcheck(cmd, "");
        assert_eq!(out.status.code(), Some(2), "{cmd:?}");
        assert!(text(&out.stderr).contains("cannot read"), "{cmd:?}");
    }
}

#[test]
fn list_shows_where_each_declaration_comes_from() {
    let out = sgcheck(&["list", "--json"], "");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    for p in v["problems"].as_array().unwrap() {
        let id = p["id"].as_str().unwrap();
        assert_eq!(
            p["source"],
            format!("built-in corpus/problems/{id}.toml"),
            "{p}"
        );
    }
    let out = sgcheck(&["list"], "");
    assert!(text(&out.stdout).contains("declared in: built-in corpus/problems/p2197.toml"));
}

/// `solve` refuses an input larger than any valid one, computed from each problem's
/// `max_numbers_per_case`: that bound must hold every case the generators draw at the
/// limits (the input's own count or terminator line aside).
#[test]
fn max_numbers_per_case_bounds_every_drawn_case() {
    use rand::SeedableRng;
    use sgcheck::problems::{builtin, Problem, Shape, PROBLEM_IDS};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for id in PROBLEM_IDS {
        let p = builtin(id).unwrap();
        let bound = p
            .max_numbers_per_case()
            .unwrap_or_else(|| panic!("{id}: no bound on the numbers of a case"));
        for shape in [Shape::Any, Shape::Losing, Shape::ManyWinning] {
            for _ in 0..8 {
                let case = p.generate(&mut rng, 1.0, shape);
                let numbers = p
                    .write_input(std::slice::from_ref(&case))
                    .split_ascii_whitespace()
                    .count() as u64;
                // At most three numbers of count or terminator around the case.
                assert!(
                    numbers <= bound + 3,
                    "{id}: a drawn case holds {numbers} numbers, above the bound {bound}"
                );
            }
        }
    }
}

/// A Nim solver in awk for inputs of one case (`n`, then the piles), printing `Yes` /
/// `No`; `wrong` looks at the first pile alone (a planted bug).
fn awk_one_case(dir: &Path, wrong: bool) -> PathBuf {
    let xor = xor_step(wrong);
    awk_script(
        dir,
        if wrong { "one_wrong.sh" } else { "one_right.sh" },
        &format!(
            "n = t[0]; x = 0; for (j = 0; j < n; j++) {{ v = t[j + 1]; x = {xor} }} print (x != 0 ? \"Yes\" : \"No\")"
        ),
    )
}

#[test]
fn inputs_of_exactly_one_case() {
    // p2197 (Nim) read as one case: `n`, then the piles, and nothing else.
    let dir = tempfile::tempdir().unwrap();
    let decl = variant(
        dir.path(),
        "p2197",
        "onenim",
        &[
            ("id = \"p2197\"", "id = \"onenim\""),
            ("cases = \"count\"", "cases = \"one\""),
            (
                "count = { what = \"case count T\", min = 1, max = 10, lenient_min = 0 }\n",
                "",
            ),
        ],
    );
    let d = decl.to_str().unwrap();
    let solve = |input: &str| sgcheck(&["solve", "--problem", d], input);
    let out = solve("3\n1 2 3\n");
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(0), "No\n".into())
    );
    let out = solve("2\n1 2\n");
    assert_eq!(text(&out.stdout), "Yes\n");
    // A second case is refused, as is an empty input.
    let out = solve("1\n1\n1\n1\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("the one case of the input"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(solve("").status.code(), Some(2));
    // max_cases other than 1 contradicts the layout.
    let bad = variant(
        dir.path(),
        "p2197",
        "onebad",
        &[
            ("cases = \"count\"", "cases = \"one\"\nmax_cases = 2"),
            (
                "count = { what = \"case count T\", min = 1, max = 10, lenient_min = 0 }\n",
                "",
            ),
        ],
    );
    let out = sgcheck(&["solve", "--problem", bad.to_str().unwrap()], "1\n1\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("input.max_cases"),
        "{}",
        text(&out.stderr)
    );

    let out = sgcheck(
        &[
            "verify",
            "--problem",
            d,
            "--time",
            "2",
            "--seed",
            "1",
            "--no-progress",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));

    let audit = |program: &Path| -> Value {
        let out = sgcheck(
            &[
                "audit",
                "--problem",
                d,
                "--seed",
                "1",
                "--cases",
                "2000",
                "--time",
                "120",
                "--json",
                "--",
                program.to_str().unwrap(),
            ],
            "",
        );
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out.stderr)))
    };
    let r = audit(&awk_one_case(dir.path(), false));
    assert_eq!(r["verdict"], "ok", "{r}");
    // Every run holds one case: there is nothing to batch.
    assert_eq!(r["batched"], false, "{r}");
    let r = audit(&awk_one_case(dir.path(), true));
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = &r["counterexample"];
    assert_eq!(c["input"], "2\n0 1\n", "{r}");
    assert_eq!(c["minimal"], true, "{r}");

    // The exported package's validator reads the same layout.
    if !workshop::require_tool("python3") {
        return;
    }
    let pkg = dir.path().join("pkg");
    let out = sgcheck(
        &[
            "export",
            "--problem",
            d,
            "--to",
            pkg.to_str().unwrap(),
            "--oracle-budget",
            "1000",
        ],
        "",
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("accepts all"), "{stdout}");
    let two = dir.path().join("two.in");
    std::fs::write(&two, "1\n1\n1\n1\n").unwrap();
    let v = std::process::Command::new("python3")
        .arg(pkg.join("input_validators/validate.py"))
        .stdin(std::fs::File::open(&two).unwrap())
        .output()
        .unwrap();
    assert_eq!(v.status.code(), Some(43), "{}", text(&v.stderr));
    assert!(
        text(&v.stderr).contains("more input after the one case"),
        "{}",
        text(&v.stderr)
    );
}

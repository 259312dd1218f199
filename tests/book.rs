//! The README and the book (`docs/src/*.md`) against the code: every code block is
//! tested, and every count of games, problems and fuzz targets agrees with the
//! registries. The conventions are in `docs/src/contributing.md`.
//!
//! - ```console blocks: each `$ sgcheck ...` line runs (from a scratch directory that
//!   sees the repository's `examples/`, `corpus/` and `docs/`), with the exit code of
//!   its `# exits N` comment (0 without one), and the lines shown after it must appear
//!   in its output, in order (`...` in a line matches anything). `console,no_run`
//!   blocks only have their arguments parsed.
//! - ```sh blocks (and `cargo run --release --` lines of ```yaml blocks): sgcheck
//!   command lines are parsed; the benches, examples, tests, fuzz targets, scripts and
//!   paths that cargo and script lines name must exist.
//! - ```toml and ```json blocks parse; a problem declaration is the file of the same id
//!   under `examples/problems/`.
//! - ```rust blocks are doc tests (`src/lib.rs`, module `book`): this test checks that
//!   every file with one is included there.
//! - ```text blocks (layouts, usage synopses, outputs of past runs) are not run, but
//!   their `$ sgcheck ...` lines must parse.
//!
//! Links between the README and the chapters must lead to a file and a heading.

mod workshop;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SGCHECK: &str = env!("CARGO_BIN_EXE_sgcheck");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// Longest a documented command may run before the test kills it and fails.
const COMMAND_LIMIT: Duration = Duration::from_secs(60);

/// One fenced code block.
#[derive(Debug)]
struct Block {
    file: String,
    /// Line of the opening fence, from 1.
    line: usize,
    /// The words of the info string: `console,no_run` gives `["console", "no_run"]`.
    info: Vec<String>,
    lines: Vec<String>,
}

impl Block {
    fn kind(&self) -> &str {
        self.info.first().map(String::as_str).unwrap_or("")
    }
    fn has(&self, word: &str) -> bool {
        self.info.iter().any(|w| w == word)
    }
    fn place(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// The README and every chapter of the book, by path relative to the root.
fn documents() -> Vec<(String, String)> {
    let mut docs = vec![("README.md".to_string(), read("README.md"))];
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("docs/src"))
        .expect("docs/src")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    chapters.sort();
    for p in chapters {
        let rel = p.strip_prefix(ROOT).unwrap().to_string_lossy().into_owned();
        docs.push((rel.clone(), read(&rel)));
    }
    docs
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The fenced blocks of `text` (fences may be indented, as inside list items).
fn blocks(file: &str, text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(usize, usize, Vec<String>, Vec<String>)> = None;
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim_start();
        let indent = raw.len() - trimmed.len();
        match open.take() {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    let info = info
                        .split(',')
                        .map(|w| w.trim().to_string())
                        .filter(|w| !w.is_empty())
                        .collect();
                    open = Some((i + 1, indent, info, Vec::new()));
                }
            }
            Some((line, ind, info, mut lines)) => {
                if trimmed.starts_with("```") {
                    out.push(Block {
                        file: file.to_string(),
                        line,
                        info,
                        lines,
                    });
                } else {
                    let cut = raw.len().min(ind).min(indent);
                    lines.push(raw[cut..].to_string());
                    open = Some((line, ind, info, lines));
                }
            }
        }
    }
    assert!(open.is_none(), "{file}: a code block is not closed");
    out
}

fn all_blocks() -> Vec<Block> {
    documents().iter().flat_map(|(f, t)| blocks(f, t)).collect()
}

/// Splits a command line as a POSIX shell would for the simple lines the book uses:
/// single and double quotes, backslashes, and a word starting with `#` beginning a
/// comment. Returns the words and the comment.
fn shell_words(line: &str) -> (Vec<String>, Option<String>) {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => {
                            if let Some(n) = chars.next() {
                                if !matches!(n, '"' | '\\' | '$' | '`') {
                                    word.push('\\');
                                }
                                word.push(n);
                            }
                        }
                        _ => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(n) = chars.next() {
                    word.push(n);
                }
            }
            '#' if !in_word => {
                let rest: String = chars.collect();
                return (words, Some(rest.trim().to_string()));
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    (words, None)
}

/// A documented sgcheck invocation.
#[derive(Debug)]
struct Invocation {
    args: Vec<String>,
    /// What `printf 'TEXT' |` gives it on standard input.
    stdin: Option<String>,
    exit: i32,
}

/// `printf`'s format for the plain texts the book pipes: `\n`, `\t` and `\\`.
fn printf(format: &str) -> String {
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('\\') => out.push('\\'),
                Some(o) => panic!("printf escape \\{o} is not supported here"),
                None => out.push('\\'),
            }
        } else {
            assert!(
                c != '%',
                "printf conversions are not supported here: {format}"
            );
            out.push(c);
        }
    }
    out
}

/// Parses `[printf 'TEXT' |] sgcheck ARGS [< FILE] [# exits N]`; `None` when the line
/// runs something else.
fn invocation(line: &str, place: &str) -> Option<Invocation> {
    let (mut words, comment) = shell_words(line);
    let exit = match comment.as_deref().and_then(|c| c.strip_prefix("exits ")) {
        Some(n) => n
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{place}: bad `# exits` comment in {line:?}")),
        None => 0,
    };
    let mut stdin = None;
    if words.first().map(String::as_str) == Some("printf") {
        assert!(
            words.len() > 3 && words[2] == "|",
            "{place}: only `printf 'TEXT' | sgcheck ...` is understood: {line:?}"
        );
        stdin = Some(printf(&words[1]));
        words.drain(..3);
    }
    if words.first().map(String::as_str) != Some("sgcheck") {
        return None;
    }
    words.remove(0);
    if let Some(i) = words.iter().position(|w| w == "<") {
        // A redirect from a file (only in no_run blocks, where nothing is read).
        words.drain(i..(i + 2).min(words.len()));
    }
    Some(Invocation {
        args: words,
        stdin,
        exit,
    })
}

/// A scratch directory that sees the repository's `examples/`, `corpus/`, `docs/` and `tests/`,
/// so that commands may name them and write files without touching the checkout.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for name in ["examples", "corpus", "docs", "tests"] {
        std::os::unix::fs::symlink(Path::new(ROOT).join(name), dir.path().join(name))
            .expect("a symlink");
    }
    dir
}

/// Checks that sgcheck's argument parser accepts `args`: they run with `--help`
/// after them (before a `--`), which stops at the help once everything before it
/// parsed.
fn assert_parses(args: &[String], place: &str) {
    let mut with_help: Vec<String> = args.to_vec();
    let at = args.iter().position(|a| a == "--").unwrap_or(args.len());
    with_help.insert(at, "--help".to_string());
    let out = Command::new(SGCHECK)
        .args(&with_help)
        .stdin(Stdio::null())
        .output()
        .expect("sgcheck runs");
    assert!(
        out.status.success(),
        "{place}: `sgcheck {}` does not parse:\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `inv` from `dir`, killing it past [`COMMAND_LIMIT`]; its exit code and its
/// standard output followed by its standard error.
fn run(inv: &Invocation, dir: &Path, place: &str) -> (i32, String) {
    let out_path = dir.join(".stdout");
    let err_path = dir.join(".stderr");
    let mut cmd = Command::new(SGCHECK);
    cmd.args(&inv.args)
        .current_dir(dir)
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .stdin(if inv.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = cmd.spawn().expect("sgcheck starts");
    if let Some(text) = &inv.stdin {
        use std::io::Write;
        let mut pipe = child.stdin.take().unwrap();
        pipe.write_all(text.as_bytes()).unwrap();
    }
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > COMMAND_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{place}: `sgcheck {}` ran past {COMMAND_LIMIT:?}",
                inv.args.join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut text = std::fs::read_to_string(&out_path).unwrap();
    text.push('\n');
    text.push_str(&std::fs::read_to_string(&err_path).unwrap());
    (status.code().unwrap_or(-1), text)
}

/// Whether `actual` (one line) matches `shown`, where `...` matches any text.
fn line_matches(shown: &str, actual: &str) -> bool {
    let pieces: Vec<&str> = shown.split("...").collect();
    let mut rest = actual.trim_end();
    let last = pieces.len() - 1;
    for (i, piece) in pieces.iter().enumerate() {
        if i == 0 {
            match rest.strip_prefix(piece) {
                Some(r) => rest = r,
                None => return false,
            }
        } else if i == last {
            return rest.trim_end().ends_with(piece.trim_end());
        } else {
            match rest.find(piece) {
                Some(at) => rest = &rest[at + piece.len()..],
                None => return false,
            }
        }
    }
    // No `...`: the whole line (trailing blanks aside).
    rest.trim_end().is_empty()
}

/// Checks that every non-blank shown line (other than a lone `...`) matches a line of
/// `actual`, in order.
fn assert_shown(shown: &[String], actual: &str, what: &str) {
    let actual: Vec<&str> = actual.lines().collect();
    let mut at = 0;
    for s in shown {
        if s.trim().is_empty() || s.trim() == "..." {
            continue;
        }
        match actual[at..].iter().position(|a| line_matches(s, a)) {
            Some(i) => at += i + 1,
            None => panic!(
                "{what}: the shown line\n    {s}\nis not in the output (after line {at}):\n{}",
                actual.join("\n")
            ),
        }
    }
}

/// Checks a command line of a `sh` or `console,no_run` block without running it.
fn check_command_line(line: &str, place: &str, fuzz_targets: &[&str]) {
    let exists = |rel: &str| {
        assert!(
            Path::new(ROOT).join(rel).exists(),
            "{place}: {rel} (named by {line:?}) does not exist"
        )
    };
    if let Some(inv) = invocation(line, place) {
        assert_parses(&inv.args, place);
        return;
    }
    let (words, _) = shell_words(line);
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    let after = |flag: &str| w.iter().position(|x| *x == flag).map(|i| w[i + 1]);
    match w.as_slice() {
        [] => {}
        ["cargo", "run", "--release", "--", args @ ..] => {
            let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            assert_parses(&args, place);
        }
        ["cargo", "run", ..] if after("--example").is_some() => {
            exists(&format!("examples/{}.rs", after("--example").unwrap()));
        }
        ["cargo", "test", ..] => {
            if let Some(t) = after("--test") {
                exists(&format!("tests/{t}.rs"));
            }
            if let Some(m) = after("--manifest-path") {
                exists(m);
            }
            // A filter names tests that exist.
            if let Some(filter) = w[2..].iter().find(|x| !x.starts_with('-')) {
                if after("--test") != Some(filter) {
                    let found = std::fs::read_dir(Path::new(ROOT).join("tests"))
                        .unwrap()
                        .filter_map(|e| std::fs::read_to_string(e.unwrap().path()).ok())
                        .any(|src| src.contains(&format!("fn {filter}")));
                    assert!(found, "{place}: no test matches the filter {filter:?}");
                }
            }
        }
        ["cargo", "bench", ..] => {
            let bench = after("--bench").unwrap_or_else(|| panic!("{place}: which bench?"));
            exists(&format!("benches/{bench}.rs"));
        }
        ["cargo", "fuzz", "list"] => {}
        ["cargo", "fuzz", "run" | "cmin" | "tmin" | "build", rest @ ..] => {
            // Options, `--sanitizer`'s value and what goes to libFuzzer after `--` aside.
            let mut names = rest
                .iter()
                .take_while(|x| **x != "--")
                .enumerate()
                .filter(|(i, x)| !x.starts_with('-') && (*i == 0 || rest[i - 1] != "--sanitizer"))
                .map(|(_, x)| x);
            let target = names
                .next()
                .unwrap_or_else(|| panic!("{place}: which target?"));
            assert!(
                fuzz_targets.contains(target),
                "{place}: {target} is not a fuzz target"
            );
            for path in names {
                exists(path);
            }
        }
        [script, ..] if script.starts_with(".ci/") || script.starts_with("benches/") => {
            exists(script);
        }
        _ => panic!("{place}: a command line the book test does not know: {line:?}"),
    }
}

#[test]
fn code_blocks_are_tested() {
    let blocks = all_blocks();
    let lib = read("src/lib.rs");
    let fuzz_targets_owned = sgcheck::problems::fuzz::targets();
    let fuzz_targets: &[&str] = &fuzz_targets_owned
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>();
    let dir = scratch();
    let gxx = workshop::require_tool("g++");
    let mut ran = 0;
    let mut parsed = 0;
    let mut rust = 0;
    let started = Instant::now();
    for block in &blocks {
        let place = block.place();
        match block.kind() {
            "rust" => {
                rust += 1;
                let include = format!("include_str!(\"../{}\")", block.file);
                assert!(
                    lib.contains(&include),
                    "{place}: a Rust block in a file src/lib.rs does not include as a doc test ({include})"
                );
            }
            "console" => {
                let no_run = block.has("no_run");
                let mut i = 0;
                while i < block.lines.len() {
                    let line = &block.lines[i];
                    i += 1;
                    let Some(command) = line.strip_prefix("$ ") else {
                        assert!(
                            line.trim().is_empty(),
                            "{place}: output before any `$ ` line: {line:?}"
                        );
                        continue;
                    };
                    let mut shown = Vec::new();
                    while i < block.lines.len() && !block.lines[i].starts_with("$ ") {
                        shown.push(block.lines[i].clone());
                        i += 1;
                    }
                    if no_run {
                        check_command_line(command, &place, fuzz_targets);
                        parsed += 1;
                        continue;
                    }
                    let inv = invocation(command, &place).unwrap_or_else(|| {
                        panic!("{place}: a console block runs only sgcheck: {command:?}")
                    });
                    if inv.args.iter().any(|a| a.ends_with(".cpp")) && !gxx {
                        continue;
                    }
                    let t = Instant::now();
                    let (code, output) = run(&inv, dir.path(), &place);
                    eprintln!(
                        "{place}: {:.1?}  sgcheck {}",
                        t.elapsed(),
                        inv.args.join(" ")
                    );
                    assert_eq!(
                        code,
                        inv.exit,
                        "{place}: `sgcheck {}` exited {code}, the book says {}:\n{output}",
                        inv.args.join(" "),
                        inv.exit
                    );
                    assert_shown(
                        &shown,
                        &output,
                        &format!("{place}: sgcheck {}", inv.args.join(" ")),
                    );
                    ran += 1;
                }
            }
            "sh" => {
                for line in &block.lines {
                    check_command_line(line, &place, fuzz_targets);
                    parsed += 1;
                }
            }
            "yaml" => {
                for line in &block.lines {
                    if let Some(at) = line.find("cargo run --release -- ") {
                        let cmd = line[at..].replace("${{ matrix.shard }}", "0");
                        check_command_line(&cmd, &place, fuzz_targets);
                        parsed += 1;
                    }
                }
            }
            "toml" => {
                let text = block.lines.join("\n") + "\n";
                let value: toml::Value = toml::from_str(&text)
                    .unwrap_or_else(|e| panic!("{place}: the TOML does not parse: {e}"));
                if value.get("format").is_some() {
                    let id = value["id"].as_str().expect("a declaration has an id");
                    let file = format!("examples/problems/{id}.toml");
                    assert_eq!(
                        text,
                        read(&file),
                        "{place}: the declaration shown is not {file}"
                    );
                }
                parsed += 1;
            }
            "json" => {
                let text = block.lines.join("\n");
                serde_json::from_str::<serde_json::Value>(&text)
                    .unwrap_or_else(|e| panic!("{place}: the JSON does not parse: {e}"));
                parsed += 1;
            }
            "text" => {
                // Outputs of past runs and synopses are not run, but a command line
                // they show (`$ sgcheck ...`, `$ printf ... | sgcheck ...`) must still
                // parse: a flag renamed since goes stale there too.
                for line in &block.lines {
                    if let Some(inv) = line
                        .strip_prefix("$ ")
                        .and_then(|command| invocation(command, &place))
                    {
                        assert_parses(&inv.args, &place);
                        parsed += 1;
                    }
                }
            }
            other => panic!(
                "{place}: a code block of kind {other:?}: give it one of rust, console, sh, \
                 toml, json, yaml, text (a block without one is compiled as Rust by rustdoc)"
            ),
        }
    }
    eprintln!(
        "book: {ran} command lines run, {parsed} lines and blocks checked without running, \
         {rust} Rust blocks (doc tests), in {:.1?}",
        started.elapsed()
    );
    assert!(
        ran >= 10 && rust >= 5,
        "too few blocks found: the parser is broken"
    );
}

const NUMBER_WORDS: [&str; 21] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
];

fn number(word: &str) -> Option<usize> {
    let w = word.to_ascii_lowercase();
    NUMBER_WORDS
        .iter()
        .position(|n| *n == w)
        .or_else(|| w.parse().ok())
}

/// Counts that are about something else than the registries as they are now: a past
/// state (measurements kept with the count they were taken on) or a part of a
/// registry. Each is the text around the count, whitespace normalized.
const NOT_CURRENT_COUNTS: &[(&str, &str)] = &[
    ("seventeen games built then", "a run of an earlier state"),
    (
        "seventeen games written before the registry",
        "a part: the games with a property of their own",
    ),
    ("eleven games built then", "a run of an earlier state"),
    (
        "against 6.25 s with eight games",
        "a run of an earlier state",
    ),
    ("Against the eight-game run", "a run of an earlier state"),
    (
        "thirteen games built before wythoff",
        "a run of an earlier state",
    ),
    (
        "the six classic-family games",
        "a part: the classic families",
    ),
    (
        "The three take-and-break games alone",
        "a part: octal, grundy, simple-nim",
    ),
    (
        "the eight problems of the classic families",
        "a part: the classic families",
    ),
    (
        "Of the eight problems of the classic families",
        "a part: the classic families",
    ),
];

/// The registries' counts that the docs state.
struct Registry {
    games: usize,
    declarable: usize,
    problems: usize,
    targets: usize,
    agree: usize,
    parse: usize,
}

fn registry() -> Registry {
    let t = sgcheck::problems::fuzz::targets();
    Registry {
        games: sgcheck::registry::verify_ids().count(),
        declarable: sgcheck::registry::declarables().count(),
        problems: sgcheck::problems::PROBLEM_IDS.len(),
        targets: t.len(),
        agree: t.iter().filter(|n| n.ends_with("_agree")).count(),
        parse: t.iter().filter(|n| n.ends_with("_parse")).count(),
    }
}

#[test]
fn counts_in_the_docs_agree_with_the_registries() {
    let reg = registry();
    // `sgcheck list` shows the same registries.
    let list = Command::new(SGCHECK).arg("list").output().unwrap();
    let list = String::from_utf8(list.stdout).unwrap();
    let (games_part, problems_part) = list.split_once("\nProblems").expect("two parts");
    assert_eq!(
        games_part
            .lines()
            .skip(1)
            .filter(|l| !l.trim().is_empty())
            .count(),
        reg.games,
        "sgcheck list shows another number of games"
    );
    assert_eq!(
        problems_part
            .lines()
            .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
            .count(),
        reg.problems,
        "sgcheck list shows another number of problems"
    );

    let mut checked = 0;
    let mut failures = Vec::new();
    for (file, text) in documents() {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for (at, n, phrase, noun) in count_phrases(&flat) {
            let around = snap(&flat, at.saturating_sub(60), (at + 80).min(flat.len()));
            if NOT_CURRENT_COUNTS.iter().any(|(p, _)| around.contains(p)) {
                continue;
            }
            let before = snap(&flat, at.saturating_sub(30), at);
            let (expected, of) = match noun {
                "games" if phrase.contains("declarable") => (reg.declarable, "declarable games"),
                "games" => (reg.games, "games"),
                "problems" => (reg.problems, "problems"),
                "targets" if before.contains("_agree") => (reg.agree, "`_agree` targets"),
                "targets" if before.contains("_parse") => (reg.parse, "`_parse` targets"),
                "targets" => (reg.targets, "fuzz targets"),
                _ => unreachable!(),
            };
            checked += 1;
            if n != expected {
                failures.push(format!(
                    "{file}: \"{phrase}\" says {n}, the registry has {expected} {of} (\"...{around}...\")"
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "stale counts:\n{}",
        failures.join("\n")
    );
    eprintln!("{checked} counts checked against the registries");
    assert!(
        checked >= 8,
        "only {checked} counts found: the scan is broken"
    );

    // The tables list every entry of the registries.
    let games = read("docs/src/games.md");
    for id in sgcheck::registry::verify_ids() {
        assert!(
            games.contains(&format!("| `{id}` |")),
            "games.md: no row for {id}"
        );
    }
    let declaring = read("docs/src/declaring.md");
    for g in sgcheck::registry::declarables() {
        let id = g.id();
        assert!(
            declaring.contains(&format!("| `{id}` |")),
            "declaring.md: no row for the declarable game {id}"
        );
    }
    let solve = read("docs/src/solve.md");
    for id in sgcheck::problems::PROBLEM_IDS {
        assert!(
            solve.contains(&format!("| `{id}`")),
            "solve.md: no row for the problem {id}"
        );
    }
}

/// `text[from..to]` widened to char boundaries.
fn snap(text: &str, mut from: usize, mut to: usize) -> &str {
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    while to < text.len() && !text.is_char_boundary(to) {
        to += 1;
    }
    &text[from..to]
}

/// Every "N games", "N declarable games", "N built-in problems", "N targets", ... of
/// `flat` (whitespace already normalized): its byte offset, the number, the phrase and
/// the noun. Up to two words may stand between the number and the noun.
fn count_phrases(flat: &str) -> Vec<(usize, usize, String, &'static str)> {
    let words: Vec<(usize, &str)> = flat
        .split(' ')
        .scan(0usize, |pos, w| {
            let at = *pos;
            *pos += w.len() + 1;
            Some((at, w))
        })
        .collect();
    let clean = |w: &str| {
        w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-')
            .to_string()
    };
    let mut out = Vec::new();
    for (i, &(at, w)) in words.iter().enumerate() {
        let Some(n) = number(&clean(w)) else { continue };
        // The number must end its word ("17 targets", not "10^4 piles" or "2^22").
        if clean(w) != w.trim_start_matches('(') {
            continue;
        }
        for gap in 0..=2 {
            let Some(&(_, noun_word)) = words.get(i + 1 + gap) else {
                break;
            };
            // A word in between may not end a clause, and "one of the games" counts
            // nothing.
            if words[i..i + 1 + gap]
                .iter()
                .any(|(_, x)| x.ends_with([',', '.', ';', ':', ')']))
                || words[i + 1..i + 1 + gap].iter().any(|(_, x)| *x == "of")
            {
                break;
            }
            let noun = match clean(noun_word).as_str() {
                "games" => "games",
                "problems" => "problems",
                "targets" => "targets",
                _ => continue,
            };
            let phrase = words[i..=i + 1 + gap]
                .iter()
                .map(|(_, x)| *x)
                .collect::<Vec<_>>()
                .join(" ");
            out.push((at, n, phrase, noun));
            break;
        }
    }
    out
}

/// The ids mdbook gives the headings of `text`: lower case, letters, digits, `-` and
/// `_` kept, spaces made `-`.
fn heading_ids(text: &str) -> Vec<String> {
    let mut fence = false;
    let mut ids = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
        }
        if fence || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        ids.push(
            title
                .trim()
                .to_lowercase()
                .chars()
                .filter_map(|c| match c {
                    ' ' => Some('-'),
                    c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                    _ => None,
                })
                .collect(),
        );
    }
    ids
}

#[test]
fn links_between_the_docs_resolve() {
    let mut checked = 0;
    for (file, text) in documents() {
        let dir = Path::new(&file).parent().unwrap().to_path_buf();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            let link = &rest[..end];
            if link.contains("://") || link.contains(' ') {
                continue;
            }
            let (path, anchor) = link.split_once('#').unwrap_or((link, ""));
            let target = if path.is_empty() {
                PathBuf::from(&file)
            } else {
                dir.join(path)
            };
            let full = Path::new(ROOT).join(&target);
            assert!(full.exists(), "{file}: the link {link} leads nowhere");
            if !anchor.is_empty() {
                let ids = heading_ids(&std::fs::read_to_string(&full).unwrap());
                assert!(
                    ids.iter().any(|id| id == anchor),
                    "{file}: the link {link}: no heading #{anchor} there ({ids:?})"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} links found");
}

//! Shell-safe words for the command lines that reports print (`reproduce:`, `rerun:`,
//! `built:`, a fuzz finding's replay): pasted into a POSIX shell, each line does what
//! it says, whatever the names of the files in it.
//!
//! A word is left bare only when every byte is a letter, a digit or one of `-_./=:,+@%`,
//! and it does not start with `-`; anything else is put in single quotes (a `'` inside
//! written `'\''`), so `$(...)`, backquotes, globs, spaces and newlines are never
//! interpreted. A file name that starts with `-` would still be taken as an option by
//! the command receiving it, quoted or not: [`path`] writes it as `./-name`.

/// `word` as one shell word.
///
/// ```
/// use sgcheck::shell::quote;
/// assert_eq!(quote("./a.out"), "./a.out");
/// assert_eq!(quote("a b"), "'a b'");
/// assert_eq!(quote("q\"$(touch PWNED)\".c"), "'q\"$(touch PWNED)\".c'");
/// assert_eq!(quote("it's"), r"'it'\''s'");
/// assert_eq!(quote(""), "''");
/// ```
pub fn quote(word: &str) -> String {
    let bare = !word.is_empty()
        && !word.starts_with('-')
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if bare {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// A file name as one shell word that no command takes for an option: a relative
/// name starting with `-` gets `./` in front, then [`quote`].
///
/// ```
/// use sgcheck::shell::path;
/// assert_eq!(path("-x.c"), "./-x.c");
/// assert_eq!(path("sol.cpp"), "sol.cpp");
/// assert_eq!(path("/tmp/my dir/a.out"), "'/tmp/my dir/a.out'");
/// ```
pub fn path(name: &str) -> String {
    quote(&not_an_option(name))
}

/// `name` with `./` in front when it starts with `-`, unquoted: for a file name that
/// goes into a [`command`].
///
/// ```
/// use sgcheck::shell::{command, not_an_option};
/// assert_eq!(command(["gcc", "-O2", &not_an_option("-x.c")]), "gcc -O2 ./-x.c");
/// ```
pub fn not_an_option(name: &str) -> std::borrow::Cow<'_, str> {
    if name.starts_with('-') {
        format!("./{name}").into()
    } else {
        name.into()
    }
}

/// A path as [`path`] writes it (lossy for names that are not UTF-8).
pub fn path_of(p: &std::path::Path) -> String {
    path(&p.to_string_lossy())
}

/// A command line: each word quoted with [`quote`].
///
/// ```
/// use sgcheck::shell::command;
/// assert_eq!(command(["g++", "-O2", "my prog.cpp"]), "g++ -O2 'my prog.cpp'");
/// ```
pub fn command<S: AsRef<str>>(words: impl IntoIterator<Item = S>) -> String {
    words
        .into_iter()
        .map(|w| {
            let w = w.as_ref();
            // Options are meant as options: `-O2` stays bare when it is safe.
            if w.starts_with('-')
                && w[1..]
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
            {
                w.to_string()
            } else {
                quote(w)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

static PROGRAM: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// The command word that starts the command lines reports print: `sgcheck`, or, in a
/// command line of your own built on the library ([`crate::cli::main`] under another
/// name, such as `target/release/examples/own_game_cli`), the path it was run by, so
/// that a `reproduce:` line runs the program that knows your games.
pub fn program() -> &'static str {
    PROGRAM.get().map_or("sgcheck", String::as_str)
}

/// Sets [`program`] from the path this process was run by (its first argument),
/// unless its file name is `sgcheck`. Only the first call counts.
pub(crate) fn set_program_from_args() {
    let Some(arg0) = std::env::args_os().next() else {
        return;
    };
    let path = std::path::Path::new(&arg0);
    if path.file_name().is_none_or(|n| n == "sgcheck") {
        return;
    }
    let _ = PROGRAM.set(path_of(path));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// What `sh -c "printf '%s\n' <words>"` prints for the words.
    fn through_sh(line: &str) -> String {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("printf '%s\\n' {line}"))
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    }

    #[test]
    fn pasted_words_come_back_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("PWNED");
        let hostile = [
            format!("q\"$(touch {})\".c", marker.display()),
            format!("`touch {}`", marker.display()),
            "a b\tc\nd".to_string(),
            "it's".to_string(),
            "*".to_string(),
            "~".to_string(),
            "$HOME".to_string(),
            "-x.c".to_string(),
            String::new(),
        ];
        for w in &hostile {
            assert_eq!(through_sh(&quote(w)), format!("{w}\n"), "{w:?}");
        }
        let line = command(hostile.iter());
        let want: String = hostile.iter().map(|w| format!("{w}\n")).collect();
        assert_eq!(through_sh(&line), want);
        assert!(!marker.exists(), "a quoted word ran a command");
        assert_eq!(through_sh(&path("-x.c")), "./-x.c\n");
    }
}

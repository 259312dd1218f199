//! The output validator of a problem whose answers are sets (`{any}`: any winning move
//! is right), derived from the declaration: the package's answer files hold each set
//! whole ([`answer_file`]), and `output_validator/validate.py` accepts an output that
//! gives one text of each set in its place, token by token, as `sgcheck audit` judges
//! it. It knows nothing of the game: the sets were computed by the fast solver (and
//! cross-checked with the oracle where it reaches) when the package was written.

use crate::problems::choice::{self, Piece};
use anyhow::bail;

/// The first word of a set's block in an answer file: `@any K`, then the K texts one a
/// line.
pub const TAG: &str = "@any";

const TEMPLATE: &str = include_str!("output_validator.py");

/// The output validator's text for the problem `id` declared in `origin`.
pub fn script(id: &str, origin: &str) -> String {
    let one_line = |s: &str| s.replace(['\n', '\r'], " ");
    TEMPLATE
        .replace("{{ID}}", &one_line(id))
        .replace("{{ORIGIN}}", &one_line(origin))
}

/// The answer file of answer lines (the solver's, each set whole): every line as it is
/// printed, a set replaced by its block (`@any K` and its K texts, one a line) with
/// the text before and after it on lines of their own. An error when a line could be
/// read as a block (it starts with [`TAG`]) or a text spans lines, so the file always
/// reads back as the answer it stands for.
pub fn answer_file<'a>(lines: impl IntoIterator<Item = &'a String>) -> anyhow::Result<String> {
    let mut out = String::new();
    let plain = |text: &str, out: &mut String| -> anyhow::Result<()> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(());
        }
        if text.split_whitespace().next() == Some(TAG) {
            bail!("an answer line starts with {TAG:?}, which the answer file keeps for sets: {text:?}");
        }
        out.push_str(text);
        out.push('\n');
        Ok(())
    };
    for line in lines {
        if line.contains(['\n', '\r']) {
            bail!("an answer line holds a line break: {line:?}");
        }
        if !choice::has_set(line) {
            // A line with no set is written as it is (an empty line too).
            if line.split_whitespace().next() == Some(TAG) {
                bail!("an answer line starts with {TAG:?}, which the answer file keeps for sets: {line:?}");
            }
            out.push_str(line);
            out.push('\n');
            continue;
        }
        for piece in choice::pieces(line) {
            match piece {
                Piece::Text(t) => plain(t, &mut out)?,
                Piece::AnyOf(texts) => {
                    out.push_str(&format!("{TAG} {}\n", texts.len()));
                    for t in texts {
                        let t = t.trim();
                        if t.is_empty() {
                            bail!(
                                "a winning move renders as empty text in {:?}",
                                choice::shown(line)
                            );
                        }
                        out.push_str(t);
                        out.push('\n');
                    }
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::package::validator::{python3, Verdict};
    use std::io::Write as _;
    use std::process::{Command, Stdio};

    fn set(texts: &[&str]) -> String {
        let mut s = String::new();
        choice::push_set(&mut s, texts, |t, out| out.push_str(t));
        s
    }

    /// The validator's verdict on `output`, with the answer file `ans`.
    fn judge(ans: &str, output: &str) -> Verdict {
        judge_with(ans, output, &[])
    }

    /// [`judge`] with the validator's arguments.
    fn judge_with(ans: &str, output: &str, args: &[&str]) -> Verdict {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("validate.py");
        std::fs::write(&script, script_text()).unwrap();
        let ans_path = dir.path().join("t.ans");
        std::fs::write(&ans_path, ans).unwrap();
        std::fs::write(dir.path().join("t.in"), "").unwrap();
        let feedback = dir.path().join("feedback");
        std::fs::create_dir(&feedback).unwrap();
        let mut child = Command::new(python3())
            .arg(&script)
            .arg(dir.path().join("t.in"))
            .arg(&ans_path)
            .arg(&feedback)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(output.as_bytes())
            .unwrap();
        match child.wait().unwrap().code() {
            Some(42) => Verdict::Accepted,
            Some(43) => Verdict::Rejected(
                std::fs::read_to_string(feedback.join("judgemessage.txt")).unwrap(),
            ),
            other => panic!("validator exit {other:?}"),
        }
    }

    fn script_text() -> String {
        script("nim_any_move", "a test")
    }

    #[test]
    fn a_set_is_written_as_a_block_and_any_of_its_texts_is_accepted() {
        let lines = vec![
            "First".to_string(),
            format!("move {} now", set(&["1 3", "2 5", "3 1"])),
            "Second".to_string(),
        ];
        let ans = answer_file(&lines).unwrap();
        assert_eq!(ans, "First\nmove\n@any 3\n1 3\n2 5\n3 1\nnow\nSecond\n");
        for right in [
            "First move 1 3 now Second\n",
            "First\nmove 3 1\nnow\nSecond",
            "First move 2 5 now Second\n",
        ] {
            assert_eq!(judge(&ans, right), Verdict::Accepted, "{right:?}");
        }
        // A legal but losing move, the set's texts mixed, a missing or extra token.
        for (wrong, why) in [
            (
                "First move 2 4 now Second\n",
                "expected {any of: 1 3 | 2 5 | 3 1}, got '2 4'",
            ),
            ("First move 1 5 now Second\n", "expected {any of"),
            ("First move 1 3 now\n", "the end of the output"),
            (
                "First move 1 3 now Second Second\n",
                "after the end of the answer",
            ),
        ] {
            match judge(&ans, wrong) {
                Verdict::Rejected(msg) => assert!(msg.contains(why), "{wrong:?}: {msg}"),
                Verdict::Accepted => panic!("accepted {wrong:?}"),
            }
        }
        // Case is ignored, as the format's default validator ignores it, unless the
        // argument case_sensitive is given.
        let shouted = "FIRST MOVE 2 5 NOW second\n";
        assert_eq!(judge(&ans, shouted), Verdict::Accepted);
        match judge_with(&ans, shouted, &["case_sensitive"]) {
            Verdict::Rejected(msg) => {
                assert!(msg.contains("expected 'First', got 'FIRST'"), "{msg}")
            }
            Verdict::Accepted => panic!("accepted {shouted:?} with case_sensitive"),
        }
    }

    #[test]
    fn answer_lines_that_would_read_as_blocks_are_refused() {
        assert!(answer_file(&["@any 2".to_string()]).is_err());
        let line = format!("@any {}", set(&["1", "2"]));
        assert!(answer_file(&[line]).is_err());
        assert!(answer_file(&["a\nb".to_string()]).is_err());
    }
}

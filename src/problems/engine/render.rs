//! Rendering answers: the output templates and how a winning move is written.

use super::*;

/// A text with `{name}` placeholders.
#[derive(Clone, Debug)]
pub(crate) struct Template(pub Vec<Part>);

#[derive(Clone, Debug)]
pub(crate) enum Part {
    Text(String),
    Field(String),
}

impl Template {
    /// Parses `text`, accepting only the placeholders in `names`.
    pub fn parse(text: &str, names: &[&str]) -> Result<Template, String> {
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Text(rest[..open].to_string()));
            }
            let close = rest[open..]
                .find('}')
                .ok_or_else(|| format!("unclosed `{{` in {text:?}"))?;
            let name = &rest[open + 1..open + close];
            if !names.contains(&name) {
                return Err(format!(
                    "unknown placeholder {{{name}}} in {text:?}; known here: {}",
                    names
                        .iter()
                        .map(|n| format!("{{{n}}}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
            }
            parts.push(Part::Field(name.to_string()));
            rest = &rest[open + close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Text(rest.to_string()));
        }
        Ok(Template(parts))
    }

    pub fn uses(&self, name: &str) -> bool {
        self.0
            .iter()
            .any(|p| matches!(p, Part::Field(n) if n == name))
    }

    pub(super) fn render(&self, value: impl FnMut(&str, &mut String)) -> String {
        let mut s = String::new();
        self.render_into(&mut s, value);
        s
    }

    /// [`Template::render`], appended to `s`.
    pub(super) fn render_into(&self, s: &mut String, mut value: impl FnMut(&str, &mut String)) {
        for p in &self.0 {
            match p {
                Part::Text(t) => s.push_str(t),
                Part::Field(n) => value(n, s),
            }
        }
    }

    /// A field name: `{case}` from 1, `{i}` from 1, `{i0}` from 0.
    pub(super) fn name(&self, case: usize, i: u64) -> String {
        self.name_in(case, i, 0)
    }

    /// A field name in item `j` (from 1) of a group: `{j}` too.
    pub(super) fn name_in(&self, case: usize, i: u64, j: usize) -> String {
        self.render(|n, s| {
            let _ = match n {
                "case" => write!(s, "{case}"),
                "i" => write!(s, "{i}"),
                "j" => write!(s, "{j}"),
                _ => write!(s, "{}", i.saturating_sub(1)),
            };
        })
    }
}

impl Declared {
    /// How a move prints (the `move` template).
    pub(super) fn move_text(&self, m: &MoveView) -> String {
        let mut s = String::new();
        self.move_into(m, &mut s);
        s
    }

    /// [`Declared::move_text`], appended to `out`.
    pub(super) fn move_into(&self, m: &MoveView, out: &mut String) {
        let o = &self.output;
        o.move_template.render_into(out, |n, s| {
            if n == "move" {
                s.push_str(&m.text);
                return;
            }
            let (name, plus) = match n.strip_suffix("+1") {
                Some(b) => (b, 1),
                None => (n, 0),
            };
            if let Some(k) = o.move_fields.iter().position(|f| *f == name) {
                let _ = write!(s, "{}", m.fields[k] + plus);
            }
        })
    }

    /// The lines of a case's answer: `lines` (or `lines_lose` when the player to
    /// move loses), a rendered line break starting a new line; a line that is only
    /// `{moves}`, printed one per line, is no line at all when no move wins, and a
    /// line that is only `{positions}`, printed one per line, none when the case
    /// holds no position.
    pub(super) fn render_lines(
        &self,
        case_index: usize,
        a: &Result<Analysis<MoveView>, bool>,
        positions: &str,
    ) -> Vec<String> {
        let mut text = String::new();
        self.render_lines_into(case_index, a, positions, &mut text);
        lines_of(&text)
    }

    /// [`Declared::render_lines`] appended to `out`, each line ended by `\n`.
    pub(super) fn render_lines_into(
        &self,
        case_index: usize,
        a: &Result<Analysis<MoveView>, bool>,
        positions: &str,
        out: &mut String,
    ) {
        let o = &self.output;
        let win = match a {
            Ok(a) => a.win,
            Err(w) => *w,
        };
        let lines = match (&o.lines_lose, win) {
            (Some(lose), false) => lose,
            _ => &o.lines,
        };
        let per_line = o.separator.contains('\n');
        for t in lines {
            let only_moves = matches!(&t.0[..], [Part::Field(n)] if n == "moves");
            let no_moves = match a {
                Ok(a) => a.winning.is_empty(),
                Err(_) => true,
            };
            if per_line && only_moves && no_moves {
                continue;
            }
            // Likewise a line that is only `{positions}`, the positions' answers one
            // per line, when the case holds no position.
            let only_positions = matches!(&t.0[..], [Part::Field(n)] if n == "positions");
            if only_positions && positions.is_empty() && o.position_separator.contains('\n') {
                continue;
            }
            if let (true, true, Ok(a)) = (per_line, only_moves && o.separator == "\n", a) {
                // One line per move, without joining and splitting again.
                let mut put = |m: &MoveView| {
                    self.move_into(m, out);
                    out.push('\n');
                };
                if o.reverse {
                    a.winning.iter().rev().for_each(&mut put);
                } else {
                    a.winning.iter().for_each(&mut put);
                }
                continue;
            }
            out.push_str(&self.fill(t, case_index, a, positions));
            out.push('\n');
        }
    }

    /// The answer of a case whose positions are a group's items: each item's answer
    /// from the `position` template, joined by `position_separator` into
    /// `{positions}`; appended to `out` as [`Declared::render_lines_into`] does.
    pub(super) fn render_group_into(
        &self,
        case_index: usize,
        answers: impl Iterator<Item = Result<Result<Analysis<MoveView>, bool>, SearchError>>,
        out: &mut String,
    ) -> Result<(), SearchError> {
        let o = &self.output;
        let mut positions = String::new();
        if let Some(t) = &o.position {
            for (j, a) in answers.enumerate() {
                if j > 0 {
                    positions.push_str(&o.position_separator);
                }
                positions.push_str(&self.fill(t, case_index, &a?, ""));
            }
        }
        self.render_lines_into(case_index, &Err(true), &positions, out);
        Ok(())
    }

    /// [`Declared::render_group_into`], as lines.
    pub(super) fn render_group(
        &self,
        case_index: usize,
        answers: impl Iterator<Item = Result<Result<Analysis<MoveView>, bool>, SearchError>>,
    ) -> Result<Vec<String>, SearchError> {
        let mut text = String::new();
        self.render_group_into(case_index, answers, &mut text)?;
        Ok(lines_of(&text))
    }

    pub(super) fn render(
        &self,
        case_index: usize,
        a: Result<Analysis<MoveView>, bool>,
    ) -> Vec<String> {
        self.render_lines(case_index, &a, "")
    }
}

/// The lines of a text whose every line ends with `\n`.
pub(super) fn lines_of(text: &str) -> Vec<String> {
    text.split_terminator('\n').map(str::to_string).collect()
}

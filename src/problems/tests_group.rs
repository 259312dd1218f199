//! Several positions per case (group fields), answers chosen by the verdict, moves
//! one per line: hdu1536, hdu1850 and hdu2176 through the format engine, and the
//! declarations these keys refuse.

use super::*;
use rand::SeedableRng;

fn p(id: &str) -> &'static Declared {
    builtin(id).unwrap_or_else(|| panic!("no built-in {id}"))
}

/// An hdu1536 case: the set and the positions.
fn snim(set: &[u64], positions: &[&[u64]]) -> Case {
    let enc = engine::encode_items(positions.iter().copied());
    p("hdu1536").case(vec![set.to_vec(), enc])
}

fn positions_of(c: &Case) -> Vec<Vec<u64>> {
    engine::items(&p("hdu1536").fields(c)[1])
        .map(<[u64]>::to_vec)
        .collect()
}

const SAMPLE: &str =
    "2 2 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n5 1 2 3 4 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n0\n";

#[test]
fn group_reads_writes_and_answers_every_position() {
    let d = p("hdu1536");
    let cases = d.parse(SAMPLE, false).unwrap();
    assert_eq!(cases.len(), 2);
    assert_eq!(
        cases[0],
        snim(&[2, 5], &[&[5, 12], &[2, 4, 7], &[2, 3, 7, 12]])
    );
    assert_eq!(d.write_input(&cases), SAMPLE);
    assert_eq!(solve_fast(d, &cases).unwrap(), "LWW\nWWL\n");
    assert_eq!(solve_oracle(d, &cases, 1 << 20).unwrap(), "LWW\nWWL\n");
    // Errors name the position ({j}) and the line.
    let e = d.parse("1 1\n2\n1 1\n2 3 x\n0\n", false).unwrap_err();
    assert_eq!(
        (e.line, e.field.as_str()),
        (4, "heap 2 of position 2 of case 1")
    );
    let e = d.parse("1 1\n2\n1 1\n101\n", false).unwrap_err();
    assert_eq!(
        (e.line, e.field.as_str()),
        (4, "heap count l of position 2 of case 1")
    );
}

#[test]
fn group_enumeration_is_smallest_first_and_complete() {
    let d = p("hdu1536");
    assert_eq!(d.small_cases(0), vec![snim(&[1], &[&[0]])]);
    let mut seen = std::collections::HashSet::new();
    let mut many_positions = false;
    for size in 0..5 {
        let cases = d.small_cases(size);
        assert!(!cases.is_empty(), "size {size}");
        for c in &cases {
            d.check_limits(c).unwrap();
            assert!(seen.insert(c.clone()), "{c:?} twice");
            let f = d.fields(c);
            let positions = positions_of(c);
            let cost = f[0].len() as u64 - 1
                + f[0].iter().map(|v| v - 1).sum::<u64>()
                + positions.len() as u64
                - 1
                + positions
                    .iter()
                    .map(|h| h.len() as u64 - 1 + h.iter().sum::<u64>())
                    .sum::<u64>();
            assert_eq!(cost, u64::from(size), "{c:?}");
            many_positions |= positions.len() == 2;
            // Tier 3 in miniature: every position's letter against the oracle.
            assert_eq!(
                d.answer(c, 0).unwrap(),
                d.oracle_answer(c, 0, 100_000).unwrap()
            );
        }
    }
    assert!(many_positions);
    // Size 2 holds, among others: two positions of one heap and a heap of 1.
    assert!(d.small_cases(2).contains(&snim(&[1], &[&[0], &[1]])));
    assert!(d.small_cases(2).contains(&snim(&[1, 2], &[&[0]])));
}

#[test]
fn group_generation_mixes_positions_of_one_set() {
    let d = p("hdu1536");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let (mut repeats, mut unsorted, mut zeros, mut hundred) = (false, false, false, false);
    let (mut w, mut l) = (0, 0);
    for k in 0..120 {
        let scale = (k % 11) as f64 / 10.0;
        let c = d.generate(&mut rng, scale, [Shape::Any, Shape::Losing][k % 2]);
        d.check_limits(&c).unwrap();
        let text = d.write_input(std::slice::from_ref(&c));
        assert_eq!(d.parse(&text, false).unwrap(), vec![c.clone()]);
        let set = &d.fields(&c)[0];
        repeats |= (1..set.len()).any(|i| set[..i].contains(&set[i]));
        unsorted |= set.windows(2).any(|x| x[0] > x[1]);
        let positions = positions_of(&c);
        zeros |= positions.iter().flatten().any(|&h| h == 0);
        hundred |= positions.len() == 100;
        let answer = &d.answer(&c, 0).unwrap()[0];
        assert_eq!(answer.len(), positions.len());
        w += answer.matches('W').count();
        l += answer.matches('L').count();
    }
    assert!(repeats && unsorted && zeros && hundred);
    assert!(w > 100 && l > 100, "{w} W, {l} L");
}

#[test]
fn group_shrinks_positions_heaps_values_and_sets() {
    let d = p("hdu1536");
    let c = snim(&[3, 1, 2], &[&[5, 12], &[2, 4], &[7]]);
    let smaller = d.shrink(&c);
    assert!(!smaller.is_empty());
    for s in &smaller {
        d.check_limits(s).unwrap();
        assert_ne!(*s, c);
    }
    let has = |set: &[u64], positions: &[&[u64]]| smaller.contains(&snim(set, positions));
    // Fewer positions, fewer heaps, smaller heaps, a smaller set, smaller amounts.
    assert!(has(&[3, 1, 2], &[&[5, 12], &[7]]));
    assert!(has(&[3, 1, 2], &[&[12], &[2, 4], &[7]]));
    assert!(has(&[3, 1, 2], &[&[5, 12], &[2, 4], &[3]]));
    assert!(has(&[1, 2], &[&[5, 12], &[2, 4], &[7]]));
    assert!(has(&[1, 1, 2], &[&[5, 12], &[2, 4], &[7]]));
    // Halves: the first and the last positions.
    let halves = d.halves(&c);
    assert_eq!(
        halves,
        vec![
            snim(&[3, 1, 2], &[&[5, 12]]),
            snim(&[3, 1, 2], &[&[2, 4], &[7]])
        ]
    );
    // The audit's parts: the set, then one part per position; an emptied position is
    // a removed one, and a case needs one position at least.
    let parts = d.parts(&c);
    assert_eq!(parts.len(), 4);
    assert_eq!(parts[2].values, vec![2, 4]);
    assert_eq!((parts[2].min_len, parts[2].min_value), (0, 0));
    let values = |v: &[&[u64]]| v.iter().map(|x| x.to_vec()).collect::<Vec<_>>();
    assert_eq!(
        d.rebuild(&c, values(&[&[3, 1, 2], &[5, 12], &[], &[7]])),
        Some(snim(&[3, 1, 2], &[&[5, 12], &[7]]))
    );
    assert_eq!(d.rebuild(&c, values(&[&[1], &[], &[], &[]])), None);
    assert_eq!(d.rebuild(&c, values(&[&[], &[1], &[], &[]])), None);
    assert_eq!(d.rebuild(&c, values(&[&[1], &[5, 12], &[2, 4]])), None);
}

#[test]
fn lines_by_verdict_and_moves_one_per_line() {
    let d = p("hdu2176");
    let solve = |input: &str| solve_fast(d, &d.parse(input, false).unwrap()).unwrap();
    assert_eq!(solve("2\n45 45\n1\n3\n0\n"), "No\nYes\n3 0\n");
    // Every winning move in input pile order, equal piles each printed.
    assert_eq!(solve("3\n2 2 2\n0\n"), "Yes\n2 0\n2 0\n2 0\n");
    assert_eq!(solve("3\n3 2 1\n3\n1 2 4\n0\n"), "No\nYes\n4 3\n");
    assert_eq!(
        d.answer(&d.parse("3\n1 1 1\n0\n", false).unwrap()[0], 0)
            .unwrap()
            .len(),
        4
    );
    // hdu1850 counts the moves of the same sets.
    let h = p("hdu1850");
    assert_eq!(
        solve_fast(h, &h.parse("3\n2 2 2\n0\n", false).unwrap()).unwrap(),
        "3\n"
    );
    // A line of only `{moves}`, one per line, is no line when nothing wins.
    let text = builtin_text("hdu2176").replace(
        "lines = [\"Yes\", \"{moves}\"]\nlines_lose = [\"No\"]",
        "lines = [\"{count}\", \"{moves}\"]",
    );
    let e = Declared::from_toml(&text, "t").unwrap();
    let solve = |input: &str| solve_fast(&e, &e.parse(input, false).unwrap()).unwrap();
    assert_eq!(solve("2\n3 3\n2\n1 2\n0\n"), "0\n1\n2 1\n");
}

fn builtin_text(id: &str) -> String {
    BUILTIN
        .iter()
        .find(|(b, _)| *b == id)
        .map(|(_, t)| t.to_string())
        .unwrap()
}

#[test]
fn malformed_group_and_output_keys_are_refused() {
    let g = builtin_text("hdu1536");
    let m = builtin_text("hdu2176");
    let group_line = "group = { what = \"position count m of case {case}\", min = 1, max = 100, lenient_min = 0, enumerate_max = 2 }";
    for (text, key, what) in [
        (
            g.replace("inline = true\nlength = { what = \"heap count", "inline = true\nlengthx = { what = \"heap count"),
            "field",
            "unknown field `lengthx`",
        ),
        (
            g.replace(
                "inline = true\nlength = { what = \"heap count l of position {j} of case {case}\", min = 1, max = 100, enumerate_max = 2 }\n",
                "",
            ),
            "field.heaps.group",
            "needs a `length`",
        ),
        (
            g.replace(group_line, &format!("{group_line}\ndistinct = true")),
            "field.heaps.group",
            "cannot be `distinct`",
        ),
        (
            g.replace("min = 1, max = 100, lenient_min = 0, enumerate_max = 2 }", "min = 5, max = 4 }"),
            "field.heaps.group",
            "min 5 is above max 4",
        ),
        (
            g.replace("position = [\"heaps\"]", "position = [\"heaps\", \"set\"]"),
            "position",
            "name it alone",
        ),
        (
            g.replace("set = \"set\"", "set = \"heaps\""),
            "rules.set",
            "is a group",
        ),
        (
            g.replace("position = \"{verdict}\"\n", ""),
            "output.position",
            "`position` says what each prints",
        ),
        (
            g.replace("lines = [\"{positions}\"]", "lines = [\"{verdict}\"]"),
            "output.lines",
            "unknown placeholder {verdict}",
        ),
        (
            g.replace("lines = [\"{positions}\"]", "lines = [\"Case {case}\"]"),
            "output.lines",
            "where `{positions}` stands",
        ),
        (
            g.replace("position = \"{verdict}\"", "position = \"{verdict}\"\nlines_lose = [\"x\"]"),
            "output.lines_lose",
            "its own verdict",
        ),
        (
            g.replace("position = \"{verdict}\"", "position = \"{positions}\""),
            "output.position",
            "unknown placeholder {positions}",
        ),
        (
            g.replace("what = \"heap {i} of position {j} of case {case}\"", "what = \"heap {i} of position {k}\""),
            "field.heaps.what",
            "unknown placeholder {k}",
        ),
        (
            g.replace("position count m of case {case}", "position count of {j}"),
            "field.heaps.group.what",
            "unknown placeholder {j}",
        ),
        (
            m.replace("lines_lose = [\"No\"]", "lines_lose = []"),
            "output.lines_lose",
            "at least one line",
        ),
        (
            m.replace("lines_lose = [\"No\"]", "lines_lose = [\"{positions}\"]"),
            "output.lines_lose",
            "unknown placeholder {positions}",
        ),
        (
            m.replace("separator = \"\\n\"", "separator = \"\\n\"\nposition = \"{verdict}\""),
            "output.position",
            "has none",
        ),
        (
            m.replace("separator = \"\\n\"", "separator = \"\\n\"\nposition_separator = \",\""),
            "output.position_separator",
            "goes with a group",
        ),
        (
            m.replace("move = \"{size} {left}\"", "move = \"{size} {right}\""),
            "output.move",
            "unknown placeholder {right}",
        ),
    ] {
        let e = Declared::from_toml(&text, "t.toml").unwrap_err();
        assert!(e.key.starts_with(key), "{key}: {e}");
        assert!(e.message.contains(what), "{what}: {e}");
        assert!(e.line > 0, "{e}");
    }
    // A group first with a terminator: the terminator cannot be read. The same group
    // after a case count is a problem (Nim, default error names).
    let first = r#"format = 1
id = "g"
title = "t"
game = "nim"
position = ["heaps"]
[input]
cases = "terminator"
terminator = { zeros = 1, what = "0" }
[[field]]
name = "heaps"
min = 0
max = 9
length = { min = 1, max = 3 }
group = { min = 1, max = 3 }
[output]
lines = ["{positions}"]
position = "{verdict}"
position_separator = " "
win = "W"
lose = "L"
"#;
    let e = Declared::from_toml(first, "t.toml").unwrap_err();
    assert_eq!(e.key, "input.terminator.zeros", "{e}");
    let counted = first.replace(
        "cases = \"terminator\"\nterminator = { zeros = 1, what = \"0\" }",
        "cases = \"count\"\ncount = { min = 1, max = 5 }",
    );
    let d = Declared::from_toml(&counted, "t.toml").unwrap();
    let cases = d.parse("2\n2\n2 1 1\n1 0\n1\n3 1 2 4\n", false).unwrap();
    assert_eq!(solve_fast(&d, &cases).unwrap(), "L L\nW\n");
    let e = d.parse("1\n1\n2 1 x\n", false).unwrap_err();
    assert_eq!(
        (e.line, e.field.as_str()),
        (3, "heaps 2 of item 1 of case 1")
    );
    let e = d.parse("1\n4\n", false).unwrap_err();
    assert_eq!((e.line, e.field.as_str()), (2, "count of heaps of case 1"));
}

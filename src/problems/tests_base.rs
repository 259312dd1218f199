//! Vertices numbered from 0 (`base = 0`) and groups ended by a terminator
//! (`group.until`), through the format engine on HDU 1524, "A Chess Game"
//! (`examples/problems/chess_game.toml`) and on the edge-list example numbered from 0:
//! reading, writing back, the errors as written, the generators, the enumeration and
//! shrinking, and the declarations these keys refuse.

use super::*;
use rand::SeedableRng;

const CHESS: &str = include_str!("../../examples/problems/chess_game.toml");
const DAG: &str = include_str!("../../examples/problems/tokens.toml");

fn decl(text: &str) -> Declared {
    Declared::from_toml(text, "test.toml").unwrap_or_else(|e| panic!("{e}"))
}

fn refused(text: &str) -> String {
    Declared::from_toml(text, "test.toml")
        .unwrap_err()
        .to_string()
}

/// `tokens.toml` with its edges and tokens numbered from 0.
fn dag_from_zero() -> String {
    DAG.replace(
        "graph = { vertices = \"n\" }",
        "graph = { vertices = \"n\", base = 0 }",
    )
    .replace("min = 1\nmax = \"n\"", "min = 0\nmax = \"n\"\nbase = 0")
}

const SAMPLE: &str = "4\n2 1 2\n1 3\n1 3\n0\n1 0\n1 1\n2 1 2\n2 0 1\n3 1 2 3\n0\n\
                      2\n1 1\n0\n1 0\n2 0 0\n0\n";

#[test]
fn vertices_from_zero_are_held_from_one_and_written_back_from_zero() {
    let d = decl(CHESS);
    let cases = d.parse(SAMPLE, false).unwrap();
    assert_eq!(cases.len(), 2);
    // Held from 1: vertex 0 -> 1, 2; 1 -> 3; 2 -> 3 (as written) are 1 -> 2, 3; ...
    let f = d.fields(&cases[0]);
    assert_eq!(f[0], vec![4]);
    assert_eq!(f[1], vec![1, 2, 1, 3, 2, 4, 3, 4]);
    let queries: Vec<Vec<u64>> = engine::items(&f[2]).map(<[u64]>::to_vec).collect();
    assert_eq!(
        queries,
        vec![vec![1], vec![2], vec![2, 3], vec![1, 2], vec![2, 3, 4]]
    );
    assert_eq!(d.write_input(&cases), SAMPLE);
    let answers = "LOSE\nWIN\nLOSE\nWIN\nLOSE\nWIN\nLOSE\n";
    assert_eq!(solve_fast(&d, &cases).unwrap(), answers);
    assert_eq!(solve_oracle(&d, &cases, 1 << 20).unwrap(), answers);
    assert_eq!(d.solve_text(SAMPLE, false).unwrap(), answers);
    // The edge-list form too.
    let e = decl(&dag_from_zero());
    let input = "1\n4 3 2\n0 1\n1 2\n2 3\n0 1\n";
    let cases = e.parse(input, false).unwrap();
    assert_eq!(
        e.fields(&cases[0]),
        vec![
            vec![4],
            vec![3],
            vec![2],
            vec![1, 2, 2, 3, 3, 4],
            vec![1, 2]
        ]
    );
    assert_eq!(e.write_input(&cases), input);
}

#[test]
fn errors_quote_vertices_and_ranges_as_written() {
    let d = decl(CHESS);
    // A token on vertex n (2 of 0..=1).
    let e = d.parse("2\n1 1\n0\n1 2\n0\n", false).unwrap_err();
    assert_eq!(
        (e.line, e.field.as_str()),
        (4, "token 1 of query 1 of case 1")
    );
    assert_eq!(e.message, "expected 0..=1, found 2");
    // A successor n, named by the vertex's line from 0.
    let e = d.parse("2\n1 2\n0\n1 0\n0\n", false).unwrap_err();
    assert_eq!(
        (e.line, e.field.as_str()),
        (2, "vertex 0 of case 1 (successor 1)")
    );
    assert_eq!(e.message, "expected 0..=1, found 2");
    let e = d.parse("3\n2 2 2\n0\n0\n1 0\n0\n", false).unwrap_err();
    assert_eq!(e.field, "vertex 0 of case 1 (successor 2)");
    assert!(e.message.starts_with("2 repeats"), "{e}");
    // A cycle, vertex by vertex as written.
    let e = d.parse("2\n1 1\n1 0\n1 0\n0\n", false).unwrap_err();
    assert!(
        e.message.contains("the edges make a cycle 1 -> 0 -> 1"),
        "{e}"
    );
    // The edge list from 0: an end n, a cycle.
    let g = decl(&dag_from_zero());
    let e = g.parse("1\n3 1 1\n0 3\n0\n", false).unwrap_err();
    assert!(e.to_string().contains("expected 0..=2, found 3"), "{e}");
    let e = g.parse("1\n3 2 1\n0 1\n1 0\n0\n", false).unwrap_err();
    assert!(e.message.contains("cycle 1 -> 0 -> 1"), "{e}");
    let e = g.parse("1\n3 1 1\n0 1\n3\n", false).unwrap_err();
    assert_eq!(e.field, "token 1 of case 1");
    assert_eq!(e.message, "expected 0..=2, found 3");
}

#[test]
fn a_group_ended_by_its_terminator_reads_and_refuses_as_declared() {
    let d = decl(CHESS);
    // The terminator missing: the end of input, at the last line.
    let e = d.parse("2\n1 1\n0\n1 0\n", false).unwrap_err();
    assert_eq!(
        (e.line, e.field.as_str()),
        (
            4,
            "token count M of query 2 of case 1 (or the terminator 0)"
        )
    );
    assert!(e.message.contains("end of input"), "{e}");
    // A length that is neither an item's nor the terminator.
    let e = d.parse("2\n1 1\n0\n11 0 0 0 0 0 0 0 0 0 0 0\n0\n", false);
    let e = e.unwrap_err();
    assert_eq!(e.field, "token count M of query 1 of case 1");
    assert_eq!(e.message, "expected 1..=10 or the terminator 0, found 11");
    // More items than `max`, fewer than `min` (but --lenient takes none).
    let no_sample = CHESS.split("[[sample]]").next().unwrap_or_default();
    let two = decl(&no_sample.replace("max = 100, until = 0", "max = 2, until = 0"));
    let e = two.parse("1\n0\n1 0\n1 0\n1 0\n0\n", false).unwrap_err();
    assert_eq!((e.line, e.field.as_str()), (5, "query count of case 1"));
    assert!(
        e.message
            .contains("more than 2 items before the terminator 0"),
        "{e}"
    );
    let e = d.parse("1\n0\n0\n", false).unwrap_err();
    assert!(
        e.message
            .contains("expected at least 1 items before the terminator 0, found 0"),
        "{e}"
    );
    // A case without queries prints no line.
    let cases = d.parse("1\n0\n0\n1\n0\n1 0\n0\n", true).unwrap();
    assert_eq!(solve_fast(&d, &cases).unwrap(), "LOSE\n");
    assert_eq!(d.write_input(&cases), "1\n0\n0\n1\n0\n1 0\n0\n");
    // Without `inline`, each query's count on a line of its own.
    let own = decl(&CHESS.replace("inline = true\n", ""));
    let cases = d.parse("2\n1 1\n0\n2 0 1\n0\n", false).unwrap();
    assert_eq!(own.write_input(&cases), "2\n1 1\n0\n2\n0 1\n0\n");
    assert_eq!(own.parse("2\n1 1\n0\n2\n0 1\n0\n", false).unwrap(), cases);
}

#[test]
fn generated_enumerated_and_shrunk_cases_read_back_from_zero() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for text in [CHESS.to_string(), dag_from_zero()] {
        let d = decl(&text);
        let mut checked = 0;
        for k in 0..30 {
            let scale = (k % 6) as f64 / 10.0;
            for shape in [Shape::Any, Shape::Losing, Shape::ManyWinning] {
                let c = d.generate(&mut rng, scale, shape);
                if d.check_limits(&c).is_err() {
                    continue;
                }
                checked += 1;
                let input = d.write_input(std::slice::from_ref(&c));
                assert_eq!(d.parse(&input, false).unwrap(), vec![c.clone()], "{input}");
                for s in d.shrink(&c).into_iter().chain(d.halves(&c)) {
                    let t = d.write_input(std::slice::from_ref(&s));
                    assert_eq!(d.parse(&t, false).unwrap(), vec![s], "{t}");
                }
            }
        }
        assert!(checked >= 80, "{checked} of 90 generated cases valid");
        for size in 0..4 {
            for c in d.small_cases(size) {
                let input = d.write_input(std::slice::from_ref(&c));
                assert_eq!(d.parse(&input, false).unwrap(), vec![c], "{input}");
            }
        }
        for c in d.corner_cases() {
            let input = d.write_input(std::slice::from_ref(&c));
            assert_eq!(d.parse(&input, false).unwrap(), vec![c]);
        }
    }
    // The smallest chess case: one vertex, one query of one token on it.
    let d = decl(CHESS);
    assert_eq!(d.write_input(&d.small_cases(0)[..1]), "1\n0\n1 0\n0\n");
    // Two queries appear from size 1, and tokens on vertex n - 1 (as written).
    let written: Vec<String> = (1..3)
        .flat_map(|s| d.small_cases(s))
        .map(|c| d.write_input(&[c]))
        .collect();
    assert!(
        written.contains(&"1\n0\n1 0\n1 0\n0\n".to_string()),
        "{written:?}"
    );
    assert!(
        written.contains(&"2\n0\n0\n1 1\n0\n".to_string()),
        "{written:?}"
    );
    // Renumbering the vertices in use keeps the queries' counts (a group holds each
    // item's length before its tokens).
    let c = d.parse("3\n0\n0\n0\n2 2 2\n0\n", false).unwrap();
    let r = d.renumbered(&c[0]);
    assert_eq!(d.write_input(&r), "1\n0\n2 0 0\n0\n");
}

#[test]
fn bad_base_and_until_declarations_are_refused_by_key() {
    let e = refused(&CHESS.replace("base = 0\ninline", "base = 2\ninline"));
    assert!(e.contains("key `field.tokens.base`"), "{e}");
    assert!(e.contains("base is 0"), "{e}");
    let e = refused(&CHESS.replace(
        "form = \"adjacency\", base = 0",
        "form = \"adjacency\", base = 5",
    ));
    assert!(e.contains("key `field.succ.graph.base`"), "{e}");
    // `base` where the values are no vertices.
    let e = refused(&CHESS.replace("min = 1\nmax = 1000\n", "min = 1\nmax = 1000\nbase = 0\n"));
    assert!(e.contains("key `field.n.base`"), "{e}");
    assert!(e.contains("goes with `max = \"n\"`"), "{e}");
    let e = refused(&CHESS.replace("what = \"vertex {i0} of case {case}\"\n", "base = 0\n"));
    assert!(e.contains("key `field.succ.base`"), "{e}");
    // A terminator an item's length may equal.
    let e = refused(&CHESS.replace("min = 1, max = 10 }", "min = 0, max = 10 }"));
    assert!(e.contains("key `field.tokens.group.until`"), "{e}");
    let e = refused(&CHESS.replace("max = 100, until = 0", "max = 100, until = 3"));
    assert!(e.contains("key `field.tokens.group.until`"), "{e}");
    // A counted group still needs `min`.
    let e = refused(&CHESS.replace(
        "min = 1, lenient_min = 0, max = 100, until = 0",
        "max = 100",
    ));
    assert!(e.contains("a group needs `min`"), "{e}");
}

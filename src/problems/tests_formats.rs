//! Records, lengths held by an earlier field, graph fields and `max = "n"`, through
//! the format engine: reading, writing, the generators, the enumeration and shrinking
//! all keep a count equal to its list's length, edges within 1..=n and without a
//! cycle, and tokens within 1..=n.

use super::*;
use rand::SeedableRng;

const DAG: &str = include_str!("../../examples/problems/tokens.toml");
const PILES: &str = include_str!("../../examples/problems/bounded_piles.toml");

fn decl(text: &str) -> Declared {
    Declared::from_toml(text, "test.toml").unwrap_or_else(|e| panic!("{e}"))
}

fn refused(text: &str) -> String {
    Declared::from_toml(text, "test.toml")
        .unwrap_err()
        .to_string()
}

#[test]
fn a_length_elsewhere_a_graph_and_tokens_bounded_by_n() {
    let d = decl(DAG);
    let input = "1\n4 3 2\n1 2\n2 3\n3 4\n1 2\n";
    let cases = d.parse(input, false).unwrap();
    assert_eq!(
        d.fields(&cases[0]),
        vec![
            vec![4],
            vec![3],
            vec![2],
            vec![1, 2, 2, 3, 3, 4],
            vec![1, 2]
        ]
    );
    assert_eq!(d.write_input(&cases), input);
    // A cycle is named; so is a vertex or a token past n, and a short edge list.
    let e = d.parse("1\n3 3 1\n1 2\n2 3\n3 1\n1\n", false).unwrap_err();
    assert_eq!(e.line, 5);
    assert!(
        e.message
            .contains("the edges make a cycle 2 -> 3 -> 1 -> 2"),
        "{e}"
    );
    let e = d.parse("1\n3 1 1\n1 4\n1\n", false).unwrap_err();
    assert!(e.to_string().contains("expected 1..=3, found 4"), "{e}");
    let e = d.parse("1\n3 1 1\n1 2\n4\n", false).unwrap_err();
    assert!(e.to_string().contains("token 1 of case 1"), "{e}");
    assert!(e.to_string().contains("expected 1..=3, found 4"), "{e}");
    let e = d.parse("1\n3 2 1\n1 2\n", false).unwrap_err();
    assert!(e.to_string().contains("edge 2 of case 1"), "{e}");
}

#[test]
fn records_read_and_write_an_item_a_line() {
    let d = decl(PILES);
    let input = "2\n2\n3 2\n4 3\n1\n5 4\n";
    let cases = d.parse(input, false).unwrap();
    assert_eq!(d.fields(&cases[0]), vec![vec![3, 2, 4, 3]]);
    assert_eq!(d.write_input(&cases), input);
    let e = d.parse("1\n2\n3 2\n4 0\n", false).unwrap_err();
    assert_eq!(e.field, "pile 2 of case 1 (limit)");
    let e = d.parse("1\n2\n3 2\n4\n", false).unwrap_err();
    assert_eq!(e.field, "pile 2 of case 1 (limit)");
}

#[test]
fn generated_enumerated_and_shrunk_cases_keep_the_format() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for text in [DAG, PILES] {
        let d = decl(text);
        let id = d.info().id;
        let mut checked = 0;
        for k in 0..40 {
            let scale = (k % 11) as f64 / 10.0;
            for shape in [Shape::Any, Shape::Losing, Shape::ManyWinning] {
                let c = d.generate(&mut rng, scale, shape);
                // A draw may miss a constraint (too few vertices for the edges asked
                // for); the audit drops those. Most must hold.
                if d.check_limits(&c).is_err() {
                    continue;
                }
                checked += 1;
                let text = d.write_input(std::slice::from_ref(&c));
                assert_eq!(d.parse(&text, false).unwrap(), vec![c.clone()], "{id}");
                for s in d.shrink(&c) {
                    if d.check_limits(&s).is_ok() {
                        let t = d.write_input(std::slice::from_ref(&s));
                        assert_eq!(d.parse(&t, false).unwrap(), vec![s], "{id}");
                    }
                }
            }
        }
        assert!(
            checked >= 100,
            "{id}: {checked} of 120 generated cases valid"
        );
        let mut seen = 0;
        for size in 0..4 {
            for c in d.small_cases(size) {
                d.check_limits(&c)
                    .unwrap_or_else(|e| panic!("{id} {c:?}: {e}"));
                let text = d.write_input(std::slice::from_ref(&c));
                assert_eq!(d.parse(&text, false).unwrap(), vec![c], "{id}");
                seen += 1;
            }
        }
        assert!(seen > 10, "{id}: {seen} small cases");
    }
    // The smallest DAG cases: one vertex, no edge, one token on it.
    let d = decl(DAG);
    let first = &d.small_cases(0)[0];
    assert_eq!(
        d.fields(first),
        vec![vec![1], vec![0], vec![1], vec![], vec![1]]
    );
    // Size 1 holds the graphs of one edge on two vertices, both directions.
    let one: Vec<Vec<Vec<u64>>> = d.small_cases(1).iter().map(|c| d.fields(c)).collect();
    assert!(one.contains(&vec![vec![1], vec![0], vec![2], vec![], vec![1, 1]]));
    let two = d.small_cases(2);
    let edges: Vec<Vec<u64>> = two.iter().map(|c| d.fields(c)[3].clone()).collect();
    assert!(edges.contains(&vec![1, 2]) && edges.contains(&vec![2, 1]));
}

#[test]
fn bad_format_declarations_are_refused_by_key() {
    let with = |from: &str, to: &str| {
        assert!(DAG.contains(from), "{from}");
        refused(&DAG.replacen(from, to, 1))
    };
    let e = with("position = [\"tokens\"]", "position = [\"k\"]");
    assert!(e.contains("\"k\" is the length of \"tokens\""), "{e}");
    let e = with("length = \"m\"", "length = \"nope\"");
    assert!(e.contains("key `field.edges.length`"), "{e}");
    assert!(e.contains("not a number field declared before"), "{e}");
    let e = with(
        "graph = { vertices = \"n\" }",
        "graph = { vertices = \"n\" }\nmin = 1",
    );
    assert!(e.contains("takes no `min`"), "{e}");
    let e = with("max = \"n\"", "max = \"tokens\"");
    assert!(e.contains("key `field.tokens.max`"), "{e}");
    let e = with("graph = \"edges\"", "graph = \"tokens\"");
    assert!(e.contains("not a graph field"), "{e}");
    // A count used twice.
    let e = with("length = \"k\"", "length = \"m\"");
    assert!(e.contains("already the length of a list"), "{e}");
    let e = refused(&PILES.replace("record = [\"size\", \"limit\"]", "record = [\"size\"]"));
    assert!(e.contains("2 to 8 of them"), "{e}");
    let e = refused(&PILES.replace("length = { min = 1, max = 100 }\n", ""));
    assert!(e.contains("needs a `length`"), "{e}");
}

//! Records, lengths held by an earlier field, graph fields and `max = "n"`, through
//! the format engine: reading, writing, the generators, the enumeration and shrinking
//! all keep a count equal to its list's length, edges within 1..=n and without a
//! cycle, and tokens within 1..=n.

use super::*;
use rand::SeedableRng;

const DAG: &str = include_str!("../../examples/problems/tokens.toml");
const PILES: &str = include_str!("../../examples/problems/bounded_piles.toml");
const ADJ: &str = include_str!("../../examples/problems/tokens_adjacency.toml");
const UNTIL: &str = include_str!("../../examples/problems/piles_until.toml");

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
    for text in [DAG, PILES, ADJ, UNTIL] {
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
    let e = refused(
        &PILES
            .replace("record = [\"size\", \"limit\"]", "record = [\"size\"]")
            .replace("min = [0, 1]", "min = 0"),
    );
    assert!(e.contains("2 to 8 of them"), "{e}");
    let e = refused(&PILES.replace("length = { min = 1, max = 100 }\n", ""));
    assert!(e.contains("needs a `length`"), "{e}");
}

#[test]
fn adjacency_lists_read_and_write_a_line_per_vertex() {
    let d = decl(ADJ);
    // Vertex 1 -> 3, 2; vertex 2 -> 3; vertex 3 none; vertex 4 -> 1.
    let input = "1\n4 2\n2 3 2\n1 3\n0\n1 1\n4 2\n";
    let cases = d.parse(input, false).unwrap();
    assert_eq!(
        d.fields(&cases[0]),
        vec![vec![4], vec![2], vec![1, 3, 1, 2, 2, 3, 4, 1], vec![4, 2]]
    );
    assert_eq!(d.write_input(&cases), input);
    // Edges given in any order are packed grouped by tail (each line's order kept),
    // so the case written reads back the same.
    let c = d.case(vec![
        vec![4],
        vec![2],
        vec![4, 1, 1, 3, 2, 3, 1, 2],
        vec![4, 2],
    ]);
    assert_eq!(d.fields(&c)[2], vec![1, 3, 1, 2, 2, 3, 4, 1]);
    let text = d.write_input(std::slice::from_ref(&c));
    assert_eq!(text, input);
    assert_eq!(d.parse(&text, false).unwrap(), vec![c]);
    // The same graph as edges answers the same.
    let e = decl(DAG);
    let edges = e
        .parse("1\n4 4 2\n1 3\n1 2\n2 3\n4 1\n4 2\n", false)
        .unwrap();
    assert_eq!(
        e.answer(&edges[0], 0).unwrap(),
        d.answer(&cases[0], 0).unwrap()
    );
    // Errors name the vertex, the successor and the line.
    let err = |input: &str| d.parse(input, false).unwrap_err();
    let e = err("1\n3 1\n1 2\n1 3\n1 2\n1\n");
    assert_eq!(e.line, 5);
    assert!(
        e.to_string()
            .contains("succ of case 1: the edges make a cycle 3 -> 2 -> 3"),
        "{e}"
    );
    let e = err("1\n3 1\n2 2 2\n0\n0\n1\n");
    assert_eq!(e.line, 3);
    assert_eq!(e.field, "vertex 1 of case 1 (successor 2)");
    assert!(e.message.contains("2 repeats"), "{e}");
    let e = err("1\n3 1\n3 2 3 1\n0\n0\n1\n");
    assert_eq!(e.field, "vertex 1 of case 1 (successor count)");
    assert!(e.message.contains("expected 0..=2, found 3"), "{e}");
    let e = err("1\n3 1\n1 4\n0\n0\n1\n");
    assert_eq!(e.field, "vertex 1 of case 1 (successor 1)");
    assert!(e.message.contains("expected 1..=3, found 4"), "{e}");
    let e = err("1\n3 1\n1 2\n0\n");
    assert_eq!(e.field, "vertex 3 of case 1 (successor count)");
    assert!(e.message.contains("end of input"), "{e}");
    // The edges in all are bounded by `max_edges`.
    let small = decl(&ADJ.replace("max_edges = 5000", "max_edges = 2"));
    let e = small
        .parse("1\n4 1\n2 2 3\n1 3\n0\n0\n1\n", false)
        .unwrap_err();
    assert_eq!(e.line, 4);
    assert!(e.message.contains("3 edges, above the 2 allowed"), "{e}");
    // A repeated edge is refused in a case built by hand too.
    let c = d.case(vec![vec![2], vec![1], vec![1, 2, 1, 2], vec![1]]);
    assert!(d.check_limits(&c).unwrap_err().contains("repeats"));
}

#[test]
fn the_smallest_adjacency_cases_are_the_smallest_graphs() {
    let d = decl(ADJ);
    assert_eq!(
        d.fields(&d.small_cases(0)[0]),
        vec![vec![1], vec![1], vec![], vec![1]]
    );
    // A second vertex costs one, and so does an edge: size 2 holds one edge on two
    // vertices, in both directions.
    let two: Vec<Vec<Vec<u64>>> = d.small_cases(2).iter().map(|c| d.fields(c)).collect();
    assert!(two.contains(&vec![vec![2], vec![1], vec![1, 2], vec![1]]));
    assert!(two.contains(&vec![vec![2], vec![1], vec![2, 1], vec![1]]));
    // Every case enumerated is grouped by tail without a repeated edge (it reads back
    // the same), and the shrinker's renumbering keeps it so.
    for size in 0..4 {
        for c in d.small_cases(size) {
            let e = &d.fields(&c)[2];
            assert!(e
                .chunks(2)
                .zip(e.chunks(2).skip(1))
                .all(|(a, b)| a[0] <= b[0]));
            let text = d.write_input(std::slice::from_ref(&c));
            assert_eq!(d.parse(&text, false).unwrap(), vec![c.clone()]);
            for s in d.shrink(&c).into_iter().chain(d.renumbered(&c)) {
                let t = d.write_input(std::slice::from_ref(&s));
                assert_eq!(d.parse(&t, false).unwrap(), vec![s]);
            }
        }
    }
}

#[test]
fn bad_adjacency_declarations_are_refused_by_key() {
    let with = |to: &str| refused(&ADJ.replace("max_edges = 5000 }", to));
    let e = with("max_edges = 5000 }\nlength = \"k\"");
    assert!(e.contains("key `field.succ.length`"), "{e}");
    assert!(e.contains("takes no `length`"), "{e}");
    let e = with("max_edges = 5000 }\ninline = true");
    assert!(e.contains("key `field.succ.inline`"), "{e}");
    let e = refused(&ADJ.replace("form = \"adjacency\"", "form = \"matrix\""));
    assert!(e.contains("key `field.succ.graph.form`"), "{e}");
    let e = refused(&ADJ.replace("form = \"adjacency\", ", ""));
    assert!(e.contains("go with `form = \"adjacency\"`"), "{e}");
    let e = refused(&ADJ.replacen("max = 1000\n", "max = 100000000\n", 1));
    assert!(e.contains("a line per vertex"), "{e}");
}

#[test]
fn record_columns_have_their_own_bounds() {
    // Sizes 0..=10^9, limits 1..=5.
    let text = PILES.replace("max = 1000000000\n", "max = [1000000000, 5]\n");
    let d = decl(&text);
    let cases = d.parse("1\n2\n0 5\n1000000000 1\n", false).unwrap();
    assert_eq!(d.fields(&cases[0]), vec![vec![0, 5, 1_000_000_000, 1]]);
    let e = d.parse("1\n2\n0 5\n7 6\n", false).unwrap_err();
    assert_eq!((e.line, e.field.as_str()), (4, "pile 2 of case 1 (limit)"));
    assert!(e.message.contains("expected 1..=5, found 6"), "{e}");
    let e = d.parse("1\n1\n3 0\n", false).unwrap_err();
    assert_eq!(e.field, "pile 1 of case 1 (limit)");
    assert!(e.message.contains("expected 1..=5, found 0"), "{e}");
    // A size of 0 is fine, a limit of 6 is not, in a case built by hand too.
    assert!(d.check_limits(&d.case(vec![vec![0, 1]])).is_ok());
    assert!(d.check_limits(&d.case(vec![vec![1, 6]])).is_err());
    // The smallest case: one pile of 0 stones with limit 1; size 1 raises one column.
    assert_eq!(d.fields(&d.small_cases(0)[0]), vec![vec![0, 1]]);
    let one: Vec<Vec<u64>> = d
        .small_cases(1)
        .iter()
        .map(|c| d.fields(c)[0].clone())
        .collect();
    assert_eq!(one, vec![vec![0, 2], vec![1, 1], vec![0, 1, 0, 1]]);
    // Every case generated, enumerated or shrunk keeps each column within its bounds,
    // and the generators reach the limit's maximum.
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut limits = std::collections::BTreeSet::new();
    let within = |v: &[u64]| {
        v.chunks(2)
            .all(|p| p[0] <= 1_000_000_000 && (1..=5).contains(&p[1]))
    };
    for k in 0..60 {
        for shape in [Shape::Any, Shape::Losing, Shape::ManyWinning] {
            let c = d.generate(&mut rng, (k % 11) as f64 / 10.0, shape);
            let v = d.fields(&c)[0].clone();
            assert!(within(&v), "{v:?}");
            d.check_limits(&c).unwrap();
            limits.extend(v.chunks(2).map(|p| p[1]));
            for s in d.shrink(&c) {
                assert!(within(&d.fields(&s)[0]), "{:?}", d.fields(&s));
            }
        }
    }
    assert_eq!(limits, (1..=5).collect(), "every limit drawn");
    for size in 0..4 {
        for c in d.small_cases(size) {
            assert!(within(&d.fields(&c)[0]));
            assert_eq!(d.case_size(&c), Some(u64::from(size)));
        }
    }
    // The shrinker lowers a limit to its column's minimum, 1, and a size to 0.
    let c = d.case(vec![vec![6, 4]]);
    let shrunk: Vec<Vec<u64>> = d
        .shrink(&c)
        .iter()
        .map(|s| d.fields(s)[0].clone())
        .collect();
    assert!(
        shrunk.contains(&vec![0, 4]) && shrunk.contains(&vec![6, 1]),
        "{shrunk:?}"
    );
    assert!(!shrunk.iter().any(|v| v[1] == 0));
}

#[test]
fn bad_column_bounds_are_refused_naming_the_column() {
    let e = refused(&PILES.replace("min = [0, 1]", "min = [0, 1, 2]"));
    assert!(e.contains("key `field.piles.min`"), "{e}");
    assert!(
        e.contains("one per column of the record (2 columns)"),
        "{e}"
    );
    let e = refused(&PILES.replace("max = 1000000000\n", "max = [1000000000, 0]\n"));
    assert!(e.contains("column `limit`: min 1 is above max 0"), "{e}");
    let e = refused(&PILES.replace("min = [0, 1]", "min = [0, -1]"));
    assert!(e.contains("non-negative"), "{e}");
    // Not for a plain list.
    let e = refused(&DAG.replace("min = 1\nmax = \"n\"", "min = [1, 1]\nmax = \"n\""));
    assert!(e.contains("key `field.tokens.min`"), "{e}");
}

#[test]
fn lists_ended_by_a_terminator_read_and_write_back() {
    let d = decl(UNTIL);
    let input = "2\n3\n4 4 0\n1\n1 5 2 0\n";
    let cases = d.parse(input, false).unwrap();
    assert_eq!(d.fields(&cases[0]), vec![vec![3], vec![4, 4]]);
    assert_eq!(d.fields(&cases[1]), vec![vec![1], vec![1, 5, 2]]);
    assert_eq!(d.write_input(&cases), input);
    // Any whitespace reads; the canonical form is written.
    let spaced = d.parse("1\n3\n4\n4\n\n0\n", false).unwrap();
    assert_eq!(d.write_input(&spaced), "1\n3\n4 4 0\n");
    // Without `inline`, the terminator on a line of its own.
    let own = decl(&UNTIL.replace("inline = true\n", ""));
    assert_eq!(own.write_input(&cases), "2\n3\n4 4\n0\n1\n1 5 2\n0\n");
    assert_eq!(
        own.parse("2\n3\n4 4\n0\n1\n1 5 2\n0\n", false).unwrap(),
        cases
    );
    // A missing terminator: the end of input, named with its line; or the next case
    // read as more piles until a value breaks a bound.
    let e = d.parse("1\n3\n4 4\n", false).unwrap_err();
    assert_eq!(e.line, 3);
    assert_eq!(e.field, "pile 3 of case 1 (or the terminator 0)");
    assert!(e.message.contains("end of input"), "{e}");
    let e = d.parse("1\n3\n4 x 0\n", false).unwrap_err();
    assert_eq!(
        (e.line, e.field.as_str()),
        (3, "pile 2 of case 1 (or the terminator 0)")
    );
    // Too few, too many, a value out of bounds.
    let e = d.parse("1\n3\n0\n", false).unwrap_err();
    assert!(
        e.message
            .contains("at least 1 values before the terminator 0, found 0"),
        "{e}"
    );
    let short = decl(&UNTIL.replace("max = 1000 }", "max = 2 }"));
    let e = short.parse("1\n3\n1 2 3 0\n", false).unwrap_err();
    assert!(
        e.message
            .contains("more than 2 values before the terminator 0"),
        "{e}"
    );
    let big = decl(&UNTIL.replace("max = 1000000000\nlength", "max = 9\nlength"));
    let e = big.parse("1\n3\n1 10 0\n", false).unwrap_err();
    assert_eq!(e.field, "pile 2 of case 1");
    assert!(
        e.message
            .contains("expected 1..=9 or the terminator 0, found 10"),
        "{e}"
    );
    // The smallest case: m = 1 and one pile of 1.
    assert_eq!(d.fields(&d.small_cases(0)[0]), vec![vec![1], vec![1]]);
    assert_eq!(d.write_input(&d.small_cases(0)[..1]), "1\n1\n1 0\n");
}

#[test]
fn a_terminator_the_values_may_equal_is_refused() {
    let e = refused(&UNTIL.replace("until = 0", "until = 5"));
    assert!(e.contains("key `field.piles.length.until`"), "{e}");
    assert!(e.contains("5 is within 1..=1000000000"), "{e}");
    // --lenient must not accept it either.
    let e = refused(&UNTIL.replace(
        "max = 1000000000\nlength",
        "max = 9\nlenient_min = 0\nlength",
    ));
    assert!(e.contains("key `field.piles.length.until`"), "{e}");
    // A terminator above the values is fine.
    let d = decl(&UNTIL.replace("until = 0", "until = 10").replace(
        "max = 1000000000\nlength",
        "max = 9\nlenient_max = 9\nlength",
    ));
    let cases = d.parse("1\n3\n4 0 10\n", false);
    assert!(cases.is_err(), "0 is below min 1");
    let cases = d.parse("1\n3\n4 9 10\n", false).unwrap();
    assert_eq!(d.fields(&cases[0])[1], vec![4, 9]);
    // A length table still needs `min` without `until`.
    let e = refused(&DAG.replace("length = \"k\"", "length = { max = 5 }"));
    assert!(e.contains("length needs `min`"), "{e}");
}

#[test]
fn a_record_list_ending_a_terminator_layout_counts_items() {
    // The first field, a list of (size, limit) records, ends the input with length 0:
    // its length counts records, as everywhere else.
    let d = decl(
        r#"
format = 1
id = "t"
title = "t"
game = "nim"
position = ["piles"]

[input]
cases = "terminator"
terminator = { zeros = 1, what = "the line 0" }

[[field]]
name = "piles"
record = ["size", "limit"]
min = [0, 1]
max = 100
length = { min = 1, max = 5 }

[output]
lines = ["{verdict}"]
win = "W"
lose = "L"
"#,
    );
    let input = "2\n3 1\n4 2\n1\n5 5\n0\n";
    let cases = d.parse(input, false).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cases.len(), 2);
    assert_eq!(d.write_input(&cases), input);
    // Six records are past the length's 5; five are not.
    let six = "6\n1 1\n1 1\n1 1\n1 1\n1 1\n1 1\n0\n";
    let e = d.parse(six, false).unwrap_err().to_string();
    assert!(e.contains("expected 1..=5, found 6"), "{e}");
    let five = "5\n1 1\n1 1\n1 1\n1 1\n1 1\n0\n";
    assert!(d.parse(five, false).is_ok());
}

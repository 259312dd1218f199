//! The built-in declarations through the format engine: samples, errors with
//! their lines and fields, `--lenient`, generators, enumeration, shrinking, halving.

use super::*;
use rand::SeedableRng;

fn p(id: &str) -> &'static Declared {
    builtin(id).unwrap_or_else(|| panic!("no built-in {id}"))
}

fn case(id: &str, fields: &[&[u64]]) -> Case {
    p(id).case(fields.iter().map(|f| f.to_vec()).collect())
}

fn solve(id: &str, input: &str) -> String {
    let cases = p(id).parse(input, false).unwrap();
    solve_fast(p(id), &cases).unwrap()
}

fn err(id: &str, input: &str, lenient: bool) -> ParseError {
    p(id).parse(input, lenient).unwrap_err()
}

#[test]
fn every_builtin_reads_and_names_its_source() {
    assert_eq!(builtins().len(), PROBLEM_IDS.len());
    for (b, id) in builtins().iter().zip(PROBLEM_IDS) {
        let info = b.info();
        assert_eq!(info.id, *id);
        assert_eq!(
            info.source,
            format!("built-in corpus/problems/{id}.toml").as_str()
        );
    }
    assert_eq!(builtin("p3185").unwrap().info().id, "bzoj1188");
}

#[test]
fn samples_through_both_engines() {
    for (id, input, want) in [
        ("p2197", "2\n2\n1 1\n2\n1 0\n", "No\nYes\n"),
        ("hdu1846", "2\n23 2\n4 3\n", "first\nsecond\n"),
        ("hdu2897", "7 2 4\n6 2 4\n", "LOST\nWIN\n"),
        ("hdu3032", "2\n3\n2 2 3\n2\n3 3\n", "Alice\nBob\n"),
        ("hdu1848", "1 1 1\n1 4 1\n0 0 0\n", "Fibo\nNacci\n"),
        ("p2148", "2\n4\n1 2 3 1\n6\n1 1 1 1 1 1\n", "YES\nNO\n"),
        (
            "bzoj1188",
            "2\n4\n1 0 1 5000\n3\n0 0 1\n",
            "0 2 3\n1\n-1 -1 -1\n0\n",
        ),
        (
            "uva1378",
            "4\n1 0 1 100\n3\n1 0 5\n2\n2 1\n0\n",
            "Game 1: 0 2 3\nGame 2: 0 1 1\nGame 3: -1 -1 -1\n",
        ),
        ("followingnim", "2\n1 7\n1 7\n2 1 1\n1 1\n", "1\n2\n"),
    ] {
        let cases = p(id).parse(input, false).unwrap();
        assert_eq!(solve_fast(p(id), &cases).unwrap(), want, "{id}");
        assert_eq!(
            solve_oracle(p(id), &cases, 1_000_000).unwrap(),
            want,
            "{id}"
        );
        // Writing gives the same input back (these samples are written canonically).
        assert_eq!(p(id).write_input(&cases), input, "{id}");
    }
}

#[test]
fn known_answers() {
    // bzoj1188: the specification's known answers.
    let one_to_21: Vec<u64> = (1..=21).collect();
    for (row, want) in [
        (&[0, 0, 0, 1, 0][..], ["3 4 4", "1"]),
        (&[1, 0, 5], ["0 1 1", "2"]),
        (&[2, 1], ["-1 -1 -1", "0"]),
        (&[3, 2, 1, 0, 4, 5], ["0 2 5", "1"]),
        (&one_to_21, ["0 2 20", "10"]),
    ] {
        assert_eq!(
            p("bzoj1188").answer(&case("bzoj1188", &[row]), 0).unwrap(),
            want,
            "{row:?}"
        );
    }
    // uva1378 numbers the game from the index.
    assert_eq!(
        p("uva1378")
            .answer(&case("uva1378", &[&[1, 0]]), 6)
            .unwrap(),
        ["Game 7: 0 1 1"]
    );
    // hdu3032: a pile of 2^31 - 1 is worth 2^31.
    assert_eq!(
        solve(
            "hdu3032",
            "3\n1\n2147483647\n2\n2147483647 2147483647\n2\n2147483647 2147483646\n"
        ),
        "Alice\nBob\nAlice\n"
    );
    // p2148: the largest piles.
    assert_eq!(
        solve(
            "p2148",
            "2\n2\n2000000000 2000000000\n4\n2000000000 2000000000 2000000000 1\n"
        ),
        "YES\nNO\n"
    );
}

#[test]
fn errors_name_line_and_field_as_before() {
    // (problem, input, lenient, line, field)
    for (id, input, lenient, line, field) in [
        ("p2197", "1\n2\n1", false, 3, "pile 2 of case 1"),
        ("p2197", "1\n1\n10000\n", false, 3, "pile 1 of case 1"),
        ("p2197", "1\n1\n1\n7", false, 4, "end of input"),
        ("hdu1846", "2\n23 2\n4\n", false, 3, "m of case 2"),
        ("hdu1846", "1\n1001 2\n", false, 2, "n of case 1"),
        ("hdu1846", "1\n5 0\n", true, 2, "m of case 1"),
        ("hdu2897", "6 2 4\n7 2\n", false, 2, "q of case 2"),
        ("hdu2897", "6 4 2\n", false, 1, "q of case 1"),
        ("hdu2897", "6 4 2\n", true, 1, "q of case 1"),
        ("hdu3032", "1\n3\n1 2\n", false, 3, "pile 3 of case 1"),
        ("hdu3032", "1\n2\n1 0\n", false, 3, "pile 2 of case 1"),
        ("hdu3032", "101\n", false, 1, "case count T"),
        ("hdu3032", "1\n0\n", false, 2, "pile count N of case 1"),
        ("hdu1848", "1 0 2\n0 0 0\n", false, 1, "n of case 1"),
        ("hdu1848", "1 2\n1001\n0 0 0\n", false, 2, "p of case 1"),
        ("p2148", "1\n3\n1 2 3\n", false, 2, "pile count N of case 1"),
        ("p2148", "1\n3\n1 2 3\n", true, 2, "pile count N of case 1"),
        ("p2148", "1\n4\n1 2\n3\n", false, 4, "pile 4 of case 1"),
        (
            "p2148",
            "1\n2\n1 2000000001\n",
            false,
            3,
            "pile 2 of case 1",
        ),
        (
            "bzoj1188",
            "1\n3\n1 x 0\n",
            false,
            3,
            "count of bottle 1 of case 1",
        ),
        ("bzoj1188", "1\n22\n", false, 2, "bottle count n of case 1"),
        (
            "bzoj1188",
            "1\n2\n10001 0\n",
            false,
            3,
            "count of bottle 0 of case 1",
        ),
        ("bzoj1188", "1\n2\n1 0\n7\n", false, 4, "end of input"),
        (
            "uva1378",
            "2\n1 1001\n0\n",
            false,
            2,
            "count of bottle 1 of game 1",
        ),
        (
            "followingnim",
            "1\n2 3 4\n3 1 2\n1\n",
            false,
            4,
            "special 3 of case 1",
        ),
        (
            "followingnim",
            "1\n2 3 4\n3 1 2\n1\n",
            true,
            4,
            "special 3 of case 1",
        ),
        (
            "followingnim",
            "1\n1 101\n1 1\n",
            false,
            2,
            "pile 1 of case 1",
        ),
        (
            "followingnim",
            "1\n1 5\n1 101\n",
            false,
            3,
            "special 1 of case 1",
        ),
        (
            "followingnim",
            "1\n1 2001\n1 1\n",
            true,
            2,
            "pile 1 of case 1",
        ),
        (
            "followingnim",
            "1\n2 3 4\n",
            false,
            2,
            "special count m of case 1",
        ),
    ] {
        let e = err(id, input, lenient);
        assert_eq!(
            (e.line, e.field.as_str()),
            (line, field),
            "{id} {input:?}: {e}"
        );
    }
    let e = err("followingnim", "1\n2 3 4\n3 1 2\n1\n", false);
    assert!(e.message.contains("repeats special 1"), "{e}");
    let e = err("p2148", "1\n3\n1 2 3\n", false);
    assert!(e.message.contains("even"), "{e}");
    let e = err("hdu1848", "1 1 1\n2 2 2\n", false);
    assert_eq!(e.line, 2);
    assert!(e.field.contains("terminator"), "{e}");
    let e = err("hdu1848", "1 1 1\n0 0 0\n5\n", false);
    assert_eq!(e.line, 3);
    let e = err("uva1378", "2\n1 0\n", false);
    assert_eq!(e.line, 2);
    assert!(e.field.contains("terminating 0"), "{e}");
    assert_eq!(err("uva1378", "2\n1 0\n0\n3\n", false).line, 4);
    assert_eq!(err("uva1378", "24\n", false).line, 1);
}

#[test]
fn lenient_lifts_limits_only() {
    let ok = |id: &str, input: &str| p(id).parse(input, true).unwrap();
    assert_eq!(ok("p2197", "1\n1\n10000\n").len(), 1);
    assert_eq!(ok("hdu1846", "1\n1001 2\n").len(), 1);
    assert_eq!(ok("hdu2897", "6 2 65536\n").len(), 1);
    assert!(p("hdu3032").parse("1\n1\n2147483648\n", false).is_err());
    assert_eq!(ok("hdu3032", "1\n1\n2147483648\n").len(), 1);
    assert_eq!(
        solve_fast(p("hdu3032"), &ok("hdu3032", "1\n0\n")).unwrap(),
        "Bob\n"
    );
    assert_eq!(
        ok("hdu1848", "1 0 2\n0 0 0\n"),
        vec![case("hdu1848", &[&[1], &[0], &[2]])]
    );
    assert!(ok("hdu1848", "1 2\n1001\n0 0 0\n").len() == 1);
    assert_eq!(
        solve_fast(p("p2148"), &ok("p2148", "1\n0\n")).unwrap(),
        "NO\n"
    );
    assert!(p("p2148").parse("1\n2\n0 1\n", true).is_err());
    assert_eq!(ok("bzoj1188", "1\n1\n5\n"), vec![case("bzoj1188", &[&[5]])]);
    let big = ok("bzoj1188", "1\n2\n99999999999 7\n");
    assert_eq!(p("bzoj1188").answer(&big[0], 0).unwrap(), ["0 1 1", "1"]);
    assert!(p("bzoj1188").oracle_answer(&big[0], 0, 1000).is_err());
    let cases = ok("followingnim", "2\n0\n1 1\n2 3 5\n0\n");
    assert_eq!(solve_fast(p("followingnim"), &cases).unwrap(), "0\n1\n");
    assert!(p("followingnim").parse("1\n1 5\n1 0\n", true).is_err());
    // Empty inputs: zero cases where the layout allows it.
    assert_eq!(ok("hdu2897", " \n\n"), vec![]);
    assert_eq!(p("hdu1848").parse("0 0 0\n", false), Ok(vec![]));
    assert_eq!(p("uva1378").parse("0\n", false), Ok(vec![]));
}

#[test]
fn generators_respect_limits_and_shapes() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for prob in builtins() {
        let id = prob.info().id;
        let mut losing = 0;
        let mut many = 0;
        let mut tries = 0;
        let (mut group_items, mut group_losing) = (0, 0);
        for k in 0..60 {
            let scale = (k % 11) as f64 / 10.0;
            // The largest scale of the long-list problems costs a megabyte a case.
            let scale = if matches!(id, "hdu3032" | "p2148") {
                scale * 0.6
            } else {
                scale
            };
            for shape in [Shape::Any, Shape::Losing, Shape::ManyWinning] {
                let c = prob.generate(&mut rng, scale, shape);
                prob.check_limits(&c)
                    .unwrap_or_else(|e| panic!("{id} {shape:?} {c:?}: {e}"));
                let text = prob.write_input(std::slice::from_ref(&c));
                assert_eq!(prob.parse(&text, false).unwrap(), vec![c.clone()], "{id}");
                if scale >= 0.3 {
                    let view = prob.packed(&c);
                    let rules = prob.rules_of(&view).unwrap();
                    let positions = prob.positions(&view);
                    if prob.has_group() {
                        // Several positions a case (a group): the asked-for shapes make
                        // each item losing with probability 1/2, so both answers show.
                        for pos in &positions {
                            if shape != Shape::Any {
                                group_items += 1;
                                group_losing += usize::from(!rules.first_wins(pos).unwrap());
                            }
                        }
                        continue;
                    }
                    let pos = &positions[0];
                    match shape {
                        Shape::Losing => {
                            tries += 1;
                            losing += usize::from(!rules.first_wins(pos).unwrap());
                        }
                        Shape::ManyWinning => many += usize::from(rules.first_wins(pos).unwrap()),
                        Shape::Any => {}
                    }
                }
            }
        }
        if group_items > 0 {
            assert!(
                group_losing * 10 >= group_items * 3 && group_losing * 10 <= group_items * 8,
                "{id}: {group_losing} of {group_items} positions losing"
            );
            continue;
        }
        assert!(losing * 10 >= tries * 9, "{id}: {losing} of {tries} losing");
        assert!(many * 10 >= tries * 8, "{id}: {many} of {tries} winning");
    }
}

#[test]
fn scale_one_reaches_the_limits() {
    let top = |id: &str, field: usize| -> (usize, u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        (0..40)
            .map(|_| p(id).generate(&mut rng, 1.0, Shape::Any))
            .fold((0, 0), |(n, v), c| {
                (
                    n.max(p(id).fields(&c)[field].len()),
                    v.max(p(id).fields(&c)[field].iter().copied().max().unwrap_or(0)),
                )
            })
    };
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    assert_eq!(top("bzoj1188", 0), (21, 10_000));
    assert_eq!(top("followingnim", 0), (50, 100));
    assert_eq!(top("followingnim", 1).0, 100);
    let mut big = (0usize, 0u64);
    for _ in 0..30 {
        let c = p("hdu3032").generate(&mut rng, 1.0, Shape::Any);
        let f = p("hdu3032").fields(&c);
        big.0 = big.0.max(f[0].len());
        big.1 = big.1.max(f[0].iter().copied().max().unwrap_or(0));
    }
    assert!(big.0 > 500_000, "{big:?}");
    assert_eq!(big.1, 2_147_483_647);
}

#[test]
fn small_cases_smallest_first() {
    assert_eq!(p("p2197").small_cases(0), vec![case("p2197", &[&[0]])]);
    assert_eq!(
        p("hdu1846").small_cases(0),
        vec![case("hdu1846", &[&[1], &[1]])]
    );
    assert_eq!(p("hdu1846").small_cases(3).len(), 4);
    assert_eq!(
        p("hdu2897").small_cases(0),
        vec![case("hdu2897", &[&[1], &[1], &[1]])]
    );
    assert_eq!(p("hdu1848").small_cases(1).len(), 3);
    assert_eq!(p("p2148").small_cases(0), vec![case("p2148", &[&[1, 1]])]);
    assert_eq!(
        p("bzoj1188").small_cases(0),
        vec![case("bzoj1188", &[&[0, 0]])]
    );
    assert!(p("bzoj1188")
        .small_cases(4)
        .contains(&case("bzoj1188", &[&[0, 0, 0, 1, 0]])));
    assert_eq!(p("uva1378").small_cases(0), vec![case("uva1378", &[&[0]])]);
    assert_eq!(
        p("followingnim").small_cases(0),
        vec![case("followingnim", &[&[0], &[1]])]
    );
    for prob in builtins() {
        for size in 0..6 {
            let cases = prob.small_cases(size);
            assert!(!cases.is_empty(), "{} size {size}", prob.info().id);
            for c in &cases {
                prob.check_limits(c).unwrap();
            }
            let mut sorted = cases.clone();
            sorted.sort_by(|a, b| a.tokens().cmp(b.tokens()));
            sorted.dedup();
            assert_eq!(sorted.len(), cases.len(), "repeats");
        }
    }
    // Distinct lists come as increasing sets.
    assert!(p("followingnim")
        .small_cases(5)
        .iter()
        .all(|c| p("followingnim").fields(c)[1]
            .windows(2)
            .all(|w| w[0] < w[1])));
}

#[test]
fn tier_three_in_miniature() {
    // Every small case of every problem through both engines: sizes 0 to 4, and on
    // (to 7) while fewer than 15 were checked (distinct lists have few small cases).
    for prob in builtins() {
        let mut checked = 0;
        for size in 0..8 {
            if size >= 5 && checked >= 15 {
                break;
            }
            for c in prob.small_cases(size).iter().take(300) {
                if let Ok(o) = prob.oracle_answer(c, 0, 200_000) {
                    assert_eq!(prob.answer(c, 0).unwrap(), o, "{} {c:?}", prob.info().id);
                    checked += 1;
                }
            }
        }
        assert!(checked >= 15, "{}: {checked}", prob.info().id);
    }
}

#[test]
fn shrink_and_halves_stay_valid_and_smaller() {
    let weight = |c: &Case| -> u128 { c.tokens().iter().map(|&v| v as u128 + 1).sum() };
    for (id, c) in [
        ("p2197", case("p2197", &[&[3, 0, 5, 5]])),
        ("hdu1846", case("hdu1846", &[&[40], &[7]])),
        ("hdu2897", case("hdu2897", &[&[30], &[5], &[9]])),
        ("hdu3032", case("hdu3032", &[&[5, 1, 2]])),
        ("hdu1848", case("hdu1848", &[&[10], &[1], &[3]])),
        ("p2148", case("p2148", &[&[5, 1, 2, 2]])),
        ("bzoj1188", case("bzoj1188", &[&[3, 0, 7]])),
        ("uva1378", case("uva1378", &[&[3, 0, 7]])),
        ("followingnim", case("followingnim", &[&[7, 3], &[2, 5]])),
    ] {
        let s = p(id).shrink(&c);
        assert!(!s.is_empty(), "{id}");
        for d in &s {
            p(id)
                .check_limits(d)
                .unwrap_or_else(|e| panic!("{id} {d:?}: {e}"));
            assert!(weight(d) < weight(&c), "{id} {d:?}");
        }
        let text = p(id).write_input(&s);
        assert_eq!(p(id).parse(&text, true).unwrap(), s, "{id}");
    }
    // The smallest cases do not shrink.
    assert!(p("hdu3032").shrink(&case("hdu3032", &[&[1]])).is_empty());
    assert!(p("hdu2897")
        .shrink(&case("hdu2897", &[&[1], &[1], &[1]]))
        .is_empty());
    assert!(p("p2148").shrink(&case("p2148", &[&[1, 1]])).is_empty());
    // Lowering q below p takes p down too (hdu2897).
    assert!(p("hdu2897")
        .shrink(&case("hdu2897", &[&[30], &[5], &[9]]))
        .contains(&case("hdu2897", &[&[30], &[4], &[4]])));
    // Halves keep pairs together; long lists get a bounded number of candidates.
    let big: Vec<u64> = (1..=20_000).collect();
    let h = p("p2148").halves(&case("p2148", &[&big]));
    assert_eq!(h.len(), 2);
    assert_eq!(p("p2148").fields(&h[1])[0][0], 10_001);
    assert!(p("p2148").halves(&case("p2148", &[&[1, 2]])).is_empty());
    let s = p("p2148").shrink(&case("p2148", &[&big]));
    assert!(s.len() <= 140, "{} candidates", s.len());
    assert!(s.contains(&case("p2148", &[&big[..19_998]])));
    assert_eq!(
        p("hdu3032").halves(&case("hdu3032", &[&[5, 1, 2]])),
        vec![case("hdu3032", &[&[5]]), case("hdu3032", &[&[1, 2]])]
    );
}

#[test]
fn million_piles_parse_and_answer() {
    let mut input = String::from("1\n1000000\n");
    for _ in 0..1_000_000 {
        input.push_str("2147483647 ");
    }
    let cases = p("hdu3032").parse(&input, false).unwrap();
    assert_eq!(solve_fast(p("hdu3032"), &cases).unwrap(), "Bob\n");
}

#[test]
fn aliases_table_matches_the_declarations() {
    for (alias, id) in BUILTIN_ALIASES {
        assert!(p(id).info().aliases.contains(alias), "{alias} -> {id}");
    }
    for prob in builtins() {
        for alias in prob.info().aliases {
            assert_eq!(builtin(alias).unwrap().info().id, prob.info().id);
        }
    }
}

// -----------------------------------------------------------------------------
// Element-level shrinking: parts and rebuild from the declaration.

#[test]
fn parts_follow_the_declaration() {
    let fnim = p("followingnim");
    let parts = fnim.parts(&case("followingnim", &[&[3, 0, 5], &[2, 1]]));
    assert_eq!(
        parts,
        vec![
            Part::list(vec![3, 0, 5], 0, 1),
            Part::list(vec![2, 1], 1, 1)
        ]
    );
    // E&D's pairs: removed two at a time, never below one pair, values from 1.
    let parts = p("p2148").parts(&case("p2148", &[&[4, 1, 2, 7]]));
    assert_eq!(
        parts,
        vec![Part {
            values: vec![4, 1, 2, 7],
            min_value: 1,
            min_len: 2,
            unit: 2
        }]
    );
    // Consecutive numbers with the same minimum: one part, only lowered.
    let parts = p("hdu1848").parts(&case("hdu1848", &[&[5], &[6], &[7]]));
    assert_eq!(parts, vec![Part::fixed(vec![5, 6, 7], 1)]);
}

#[test]
fn rebuild_gives_back_every_generated_case() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for d in builtins() {
        for scale in [0.0, 0.3, 1.0] {
            let c = d.generate(&mut rng, scale, Shape::Any);
            let values = d.parts(&c).into_iter().map(|q| q.values).collect();
            assert_eq!(d.rebuild(&c, values), Some(c.clone()), "{}", d.info().id);
        }
    }
}

#[test]
fn rebuild_refuses_what_breaks_a_constraint() {
    let fnim = p("followingnim");
    let c = case("followingnim", &[&[3, 0, 5], &[2, 1]]);
    let with =
        |piles: &[u64], specials: &[u64]| fnim.rebuild(&c, vec![piles.to_vec(), specials.to_vec()]);
    assert_eq!(with(&[0], &[1]), Some(case("followingnim", &[&[0], &[1]])));
    assert_eq!(with(&[0], &[1, 1]), None, "distinct specials");
    assert_eq!(with(&[], &[1]), None, "at least one pile");
    assert_eq!(with(&[0], &[0]), None, "specials from 1");
    assert_eq!(with(&[101], &[1]), None, "piles up to 100");
    assert_eq!(fnim.rebuild(&c, vec![vec![0]]), None, "one list per part");
    // Pairs: an odd length is no E&D input.
    let ed = p("p2148");
    let c = case("p2148", &[&[4, 1, 2, 7]]);
    assert_eq!(ed.rebuild(&c, vec![vec![4, 1, 2]]), None);
    assert_eq!(
        ed.rebuild(&c, vec![vec![1, 1]]),
        Some(case("p2148", &[&[1, 1]]))
    );
    // q at least p.
    let tr = p("hdu2897");
    let c = case("hdu2897", &[&[9], &[2], &[3]]);
    assert_eq!(tr.rebuild(&c, vec![vec![9, 3, 2]]), None);
    assert_eq!(
        tr.rebuild(&c, vec![vec![1, 1, 1]]),
        Some(case("hdu2897", &[&[1], &[1], &[1]]))
    );
    assert_eq!(tr.rebuild(&c, vec![vec![1, 1]]), None, "three numbers");
}

#[test]
fn corners_are_valid_and_the_deepest_comes_second() {
    let text = include_str!("../../tests/data/corners/stones_dp.toml");
    let d = crate::problems::declaration::parse(text, "stones_dp.toml").unwrap();
    let corners = d.corner_cases();
    let fields: Vec<Vec<Vec<u64>>> = corners.iter().map(|c| d.unpack(c).fields).collect();
    // Every number at its highest: N = 100 values counting down from K = 10^5.
    let top: Vec<u64> = (0..100).map(|i| 100_000 - i).collect();
    assert_eq!(fields[0], vec![vec![100], vec![100_000], top]);
    // The deepest: K at its highest, the shortest set of the smallest amounts.
    assert_eq!(fields[1], vec![vec![1], vec![100_000], vec![1]]);
    // Every number at its lowest.
    assert!(fields.contains(&vec![vec![1], vec![1], vec![1]]));
    for c in &corners {
        assert!(d.check_limits(c).is_ok());
    }
    let distinct: std::collections::HashSet<_> = fields.iter().collect();
    assert_eq!(distinct.len(), fields.len(), "each corner once");
    // Every built-in problem's corners are valid cases of it.
    for b in builtins() {
        for c in b.corner_cases() {
            assert!(b.check_limits(&c).is_ok(), "{}: {c:?}", b.info().id);
        }
    }
}

#[test]
fn every_generated_case_is_within_the_format() {
    // Mock Turtles' heads are distinct, and a losing position made by pairing equal
    // values would repeat one: every drawn case, of every shape, must still read.
    let texts = [
        include_str!("../../tests/data/scripts/mock_turtles.toml"),
        include_str!("../../tests/data/formats/capacity_boxes.toml"),
    ];
    let declared: Vec<Declared> = texts
        .iter()
        .map(|t| crate::problems::declaration::parse(t, "test").unwrap())
        .collect();
    let mut all: Vec<&Declared> = declared.iter().collect();
    all.extend(builtins());
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
    for p in all {
        for k in 0..60 {
            let shape = [Shape::Any, Shape::Losing, Shape::ManyWinning][k % 3];
            let scale = [0.0, 0.001, 0.01, 0.1][k % 4];
            let c = p.generate(&mut rng, scale, shape);
            assert!(
                p.check_limits(&c).is_ok(),
                "{}: {shape:?} at {scale}: {:?}",
                p.info().id,
                p.write_input(&[c])
            );
        }
    }
}

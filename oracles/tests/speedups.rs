//! Every speed-up of the solver against the plain search, on every small position of
//! every game: the same verdict, remoteness and winning moves, alone and together,
//! from a fresh table and from a table reused across all the positions. Also the
//! rules' in-place children against `moves`, and packed keys against keys.

use sgcheck_oracles::games::{
    bash::Bash,
    ed::{Ed, EdPiles},
    following_nim::{FnPosition, FollowingNim},
    lasker::Lasker,
    misere_nim::MisereNim,
    nim::{Nim, Piles},
    split::{Bottles, SplitGame},
    staircase::{Cells, Staircase},
    subtraction::Subtraction,
    take_range::{Coins, TakeRange},
};
use sgcheck_oracles::{with_cached_solver, Rules, SearchError, Solver, Speedups};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Every vector of length `0..=len` with values in `lo..=hi`.
fn vectors(len: usize, lo: u64, hi: u64) -> Vec<Vec<u64>> {
    let mut all = vec![vec![]];
    let mut last = vec![vec![]];
    for _ in 0..len {
        last = last
            .iter()
            .flat_map(|v: &Vec<u64>| {
                (lo..=hi).map(move |x| {
                    let mut w = v.clone();
                    w.push(x);
                    w
                })
            })
            .collect();
        all.extend(last.iter().cloned());
    }
    all
}

fn check_game<R: Rules + Clone>(name: &str, rules: R, positions: &[R::Position]) {
    // The children and the keys.
    let mut by_packed: HashMap<u128, R::Position> = HashMap::new();
    let mut packed_of_key: HashMap<R::Position, Option<u128>> = HashMap::new();
    for pos in positions {
        let mut moves = Vec::new();
        rules.moves(pos, &mut moves);
        let mut want: Vec<String> = moves.iter().map(|(m, p)| format!("{m:?} {p:?}")).collect();
        let mut got = Vec::new();
        rules.for_each_move(pos, |m, c| got.push(format!("{m:?} {c:?}")));
        want.sort();
        got.sort();
        assert_eq!(got, want, "{name}: children of {pos}");
        // The moves whose child is wanted (here: every other child).
        let mut every_other = Vec::new();
        let mut i = 0;
        rules.for_each_move_if(
            pos,
            |_| {
                i += 1;
                i % 2 == 0
            },
            |m, c| every_other.push(format!("{m:?} {c:?}")),
        );
        let mut want_other = Vec::new();
        let mut j = 0;
        rules.for_each_move(pos, |m, c| {
            j += 1;
            if j % 2 == 0 {
                want_other.push(format!("{m:?} {c:?}"));
            }
        });
        assert_eq!(every_other, want_other, "{name}: wanted moves of {pos}");
        // The children the search opens with: the same keys, repeats aside.
        let mut want_keys: Vec<String> = moves
            .iter()
            .map(|(_, p)| format!("{:?}", rules.key(p)))
            .collect();
        let mut got_keys = Vec::new();
        rules.for_each_child(pos, |c| got_keys.push(format!("{:?}", rules.key(c))));
        want_keys.sort();
        want_keys.dedup();
        got_keys.sort();
        got_keys.dedup();
        assert_eq!(got_keys, want_keys, "{name}: keys of the children of {pos}");
        for p in std::iter::once(pos).chain(moves.iter().map(|(_, p)| p)) {
            let key = rules.key(p);
            let packed = rules.packed_key(p);
            if let Some(k) = packed {
                let other = by_packed.entry(k).or_insert_with(|| key.clone());
                assert_eq!(*other, key, "{name}: packed key of {p} collides");
            }
            let prev = packed_of_key.entry(key).or_insert(packed);
            assert_eq!(
                *prev, packed,
                "{name}: equal keys, different packed keys at {p}"
            );
        }
    }
    assert!(
        !by_packed.is_empty() || name == "no-pack",
        "{name}: no position got a packed key"
    );
    // The answers, for both modes and every combination of speed-ups.
    for verdict_only in [false, true] {
        let build = |sp: Speedups| {
            let s = if verdict_only {
                Solver::verdict_only(rules.clone())
            } else {
                Solver::new(rules.clone())
            };
            s.with_speedups(sp)
        };
        let plain: Vec<_> = positions
            .iter()
            .map(|p| build(Speedups::NONE).analyze(p).unwrap())
            .collect();
        for sp in Speedups::every_combination() {
            let mut warm = build(sp);
            for (pos, want) in positions.iter().zip(&plain) {
                let cold = build(sp).analyze(pos).unwrap();
                assert_eq!(
                    &cold, want,
                    "{name} {sp:?} verdict_only={verdict_only} {pos}"
                );
                let w = warm.analyze(pos).unwrap();
                assert_eq!(
                    &w, want,
                    "{name} {sp:?} warm verdict_only={verdict_only} {pos}"
                );
            }
        }
    }
}

fn piles(len: usize, hi: u64) -> Vec<Piles> {
    vectors(len, 0, hi).into_iter().map(Piles).collect()
}

#[test]
fn nim_bash_subtraction() {
    let mut ps = piles(3, 4);
    // Beyond what a packed key holds: 30 and 31 piles.
    ps.push(Piles(vec![1; 31]));
    let mut v = vec![0; 29];
    v.push(2);
    ps.push(Piles(v));
    ps.push(Piles(vec![300, 2]));
    check_game("nim", Nim, &ps);
    for m in 1..=3 {
        check_game("bash", Bash { m }, &piles(3, 5));
    }
    check_game(
        "subtraction",
        Subtraction::new(vec![1, 3, 4]).unwrap(),
        &piles(3, 6),
    );
    check_game(
        "subtraction",
        Subtraction::fibonacci(1000).unwrap(),
        &piles(3, 6),
    );
}

#[test]
fn lasker() {
    let mut ps = piles(3, 4);
    ps.push(Piles(vec![1; 30]));
    ps.push(Piles(vec![20]));
    check_game("lasker", Lasker, &ps);
}

#[test]
fn take_range() {
    for (p, q) in [(1, 1), (1, 3), (2, 4), (3, 3), (5, 9)] {
        let ps: Vec<Coins> = (0..=40).map(Coins).collect();
        check_game("take-range", TakeRange { p, q }, &ps);
    }
}

#[test]
fn ed() {
    let mut ps: Vec<EdPiles> = Vec::new();
    for pairs in 0..=2 {
        for v in vectors(2 * pairs, 1, 4) {
            if v.len() == 2 * pairs {
                ps.push(EdPiles(v));
            }
        }
    }
    check_game("ed", Ed, &ps);
}

#[test]
fn split() {
    let ps: Vec<Bottles> = vectors(4, 0, 2)
        .into_iter()
        .map(|v| Bottles(v.into_iter().map(|x| x as u32).collect()))
        .chain([Bottles(vec![0; 31]), Bottles(vec![1, 0, 1, 5000])])
        .collect();
    check_game("split", SplitGame, &ps);
}

#[test]
fn following_nim() {
    for specials in [vec![], vec![1], vec![1, 3], vec![2]] {
        let mut ps = Vec::new();
        for v in vectors(3, 0, 3) {
            for forced in std::iter::once(None).chain((0..=v.len()).map(Some)) {
                ps.push(FnPosition {
                    piles: v.clone(),
                    forced,
                });
            }
        }
        check_game("following-nim", FollowingNim::new(specials).unwrap(), &ps);
    }
}

/// Misère play: a player with no move wins. Every speed-up must take the ending from
/// the rules (a position without children is won here), including the verdict-only
/// mode that stops at the first lost child and the fold of children already solved.
#[test]
fn misere_nim() {
    let mut ps = piles(3, 4);
    ps.extend(piles(4, 2));
    ps.push(Piles(vec![1; 31]));
    ps.push(Piles(vec![0; 31]));
    ps.push(Piles(vec![300, 2]));
    check_game("misere-nim", MisereNim, &ps);
}

#[test]
fn staircase() {
    let mut ps: Vec<Cells> = Vec::new();
    for v in vectors(3, 1, 7) {
        let mut s = v.clone();
        s.sort_unstable();
        s.dedup();
        if s.len() == v.len() {
            ps.push(Cells(v));
        }
    }
    ps.push(Cells((1..=31).collect()));
    ps.push(Cells(vec![300, 2]));
    check_game("staircase", Staircase, &ps);
}

#[test]
fn cached_solver_is_reused_and_agrees() {
    let rules = Lasker;
    let pos = Piles(vec![3, 4]);
    let want = Solver::new(rules)
        .with_speedups(Speedups::NONE)
        .analyze(&pos)
        .unwrap();
    let first = with_cached_solver(&rules, false, 100_000, |s| {
        let a = s.analyze(&pos).unwrap();
        (a, s.table_len())
    });
    assert_eq!(first.0, want);
    assert!(first.1 > 0);
    // The second query finds the table of the first.
    let len = with_cached_solver(&rules, false, 100_000, |s| s.table_len());
    assert_eq!(len, first.1);
}

#[test]
fn memory_limit_is_a_clean_error() {
    // 1000 piles of 1 with nothing but the plain search: the stack would hold about a
    // million positions of 8 KB each. A 64 MiB limit stops it with an error, quickly.
    let pos = Piles(vec![1; 1000]);
    let t = Instant::now();
    let err = Solver::new(Nim)
        .with_speedups(Speedups::NONE)
        .with_memory_limit(64 << 20)
        .analyze(&pos)
        .unwrap_err();
    assert_eq!(err, SearchError::Memory { limit: 64 << 20 });
    assert!(t.elapsed() < Duration::from_secs(20));
    // Children that would not fit all at once are refused before they are built.
    let err = Solver::new(Nim)
        .with_memory_limit(1 << 20)
        .analyze(&Piles(vec![1; 10_000]))
        .unwrap_err();
    assert_eq!(err, SearchError::Memory { limit: 1 << 20 });
}

#[test]
fn time_limit_is_a_clean_error() {
    let t = Instant::now();
    let err = Solver::new(Lasker)
        .with_budget(usize::MAX)
        .with_time_limit(Duration::from_millis(200))
        .analyze(&Piles(vec![45]))
        .unwrap_err();
    assert!(matches!(err, SearchError::Time { .. }), "{err:?}");
    assert!(t.elapsed() < Duration::from_secs(10));
}

/// Nim with a planted bug in its packed key: the largest pile is left out.
#[derive(Clone)]
struct BadPack;

impl Rules for BadPack {
    type Position = Piles;
    type Move = sgcheck_oracles::games::nim::Take;
    fn moves(&self, pos: &Piles, out: &mut Vec<(Self::Move, Piles)>) {
        Nim.moves(pos, out)
    }
    fn key(&self, pos: &Piles) -> Piles {
        Nim.key(pos)
    }
    fn packed_key(&self, pos: &Piles) -> Option<u128> {
        let mut k = Nim.key(pos).0;
        k.pop();
        sgcheck_oracles::pack::pack_sorted(0, &k)
    }
}

#[test]
fn the_comparison_catches_a_planted_packed_key_bug() {
    let positions = piles(2, 3);
    let differs = positions.iter().any(|p| {
        let plain = Solver::new(BadPack)
            .with_speedups(Speedups::NONE)
            .analyze(p)
            .unwrap();
        let mut fast = Solver::new(BadPack).with_speedups(Speedups::ALL);
        // Warm, as in a sweep: other positions were solved before.
        for q in &positions {
            let _ = fast.analyze(q);
        }
        fast.analyze(p).unwrap() != plain
    });
    assert!(differs, "a packed key that drops a pile went unnoticed");
}

/// Misère Nim with a planted speed-up that only normal play allows: its packed key
/// cancels pairs of equal piles. In normal play a position with two equal piles added
/// has the same verdict (the second player mirrors), so a verdict-only search would
/// never notice; in misère play it does not (`2,2` is lost, no piles at all is won).
#[derive(Clone)]
struct PairCancelling<R>(R);

impl<R: Rules<Position = Piles>> Rules for PairCancelling<R> {
    type Position = Piles;
    type Move = R::Move;
    fn moves(&self, pos: &Piles, out: &mut Vec<(Self::Move, Piles)>) {
        self.0.moves(pos, out)
    }
    fn stuck_player_wins(&self, pos: &Piles) -> bool {
        self.0.stuck_player_wins(pos)
    }
    fn key(&self, pos: &Piles) -> Piles {
        self.0.key(pos)
    }
    fn packed_key(&self, pos: &Piles) -> Option<u128> {
        let sorted = self.0.key(pos).0;
        let mut odd: Vec<u64> = Vec::new();
        for p in sorted {
            if odd.last() == Some(&p) {
                odd.pop();
            } else {
                odd.push(p);
            }
        }
        sgcheck_oracles::pack::pack_sorted(0, &odd)
    }
}

/// Verdict-only answers of the planted rules with every speed-up, warm as in a sweep,
/// against the plain search: whether any position differs.
fn planted_differs<R: Rules<Position = Piles> + Clone>(rules: R, positions: &[Piles]) -> bool {
    let planted = PairCancelling(rules);
    let mut fast = Solver::verdict_only(planted.clone()).with_speedups(Speedups::ALL);
    positions.iter().any(|p| {
        let plain = Solver::verdict_only(planted.clone())
            .with_speedups(Speedups::NONE)
            .analyze(p)
            .unwrap();
        fast.analyze(p).unwrap() != plain
    })
}

#[test]
fn the_misere_cases_catch_a_speedup_that_assumes_normal_play() {
    let positions = piles(3, 3);
    // Sound under normal play: Nim's verdicts and winning moves do not change.
    assert!(
        !planted_differs(Nim, &positions),
        "the pair-cancelling key should be harmless in normal play"
    );
    // Under misère play the same speed-up gives wrong answers, and the comparison
    // with the plain search shows it.
    assert!(
        planted_differs(MisereNim, &positions),
        "a speed-up that assumes normal play went unnoticed on misère Nim"
    );
}
#[test]
fn hackenbush_tree() {
    use sgcheck_oracles::games::hackenbush_tree::{HackenbushTree, Tree};
    // Every tree of up to 6 vertices where vertex k + 2 hangs from one of 1..=k + 1.
    let mut ps = vec![Tree::default()];
    let mut frontier: Vec<Vec<(u32, u32)>> = vec![Vec::new()];
    for k in 0..5u32 {
        let mut next = Vec::new();
        for edges in &frontier {
            for p in 1..=k + 1 {
                let mut e = edges.clone();
                e.push((p, k + 2));
                ps.push(Tree::from_undirected(&e).unwrap());
                next.push(e);
            }
        }
        frontier = next;
    }
    // Edges that are not a tree hanging from the root, away from it: the children
    // come from the rule text's search.
    for edges in [
        vec![(1, 2), (1, 3), (2, 4), (3, 4)],
        vec![(1, 2), (3, 4)],
        vec![(2, 1), (1, 3)],
        vec![(1, 2), (2, 2)],
        vec![(1, 3), (1, 2), (3, 4)],
    ] {
        ps.push(Tree(edges));
    }
    check_game("hackenbush-tree", HackenbushTree, &ps);
}

/// Green Hackenbush with a planted bug in its symmetric key: trees with as many
/// edges at each depth are taken for isomorphic (a path of 2 under the root and two
/// edges from the root, one with a child, are not).
#[derive(Clone)]
struct BadSymmetry;

impl Rules for BadSymmetry {
    type Position = sgcheck_oracles::games::hackenbush_tree::Tree;
    type Move = sgcheck_oracles::games::hackenbush_tree::Cut;
    fn moves(&self, pos: &Self::Position, out: &mut Vec<(Self::Move, Self::Position)>) {
        sgcheck_oracles::games::hackenbush_tree::HackenbushTree.moves(pos, out)
    }
    fn symmetric_key(&self, pos: &Self::Position) -> Option<u128> {
        let depth = |mut v: u32| {
            let mut d = 0;
            while let Some(&(p, _)) = pos.0.iter().find(|&&(_, c)| c == v) {
                v = p;
                d += 1;
            }
            d
        };
        let mut per_depth = [0u8; 16];
        for &(_, c) in &pos.0 {
            per_depth[depth(c).min(15)] += 1;
        }
        Some(per_depth.iter().fold(0u128, |k, &n| k << 8 | u128::from(n)))
    }
}

#[test]
fn the_comparison_catches_a_planted_symmetric_key_bug() {
    use sgcheck_oracles::games::hackenbush_tree::Tree;
    let trees: Vec<Tree> = [
        vec![(1, 2), (2, 3), (1, 4), (4, 5)],
        vec![(1, 2), (2, 3), (2, 4), (1, 5)],
        vec![(1, 2), (2, 3), (1, 4), (1, 5), (5, 6)],
        vec![(1, 2), (2, 3), (2, 4), (1, 5), (1, 6)],
    ]
    .iter()
    .map(|e| Tree::from_undirected(e).unwrap())
    .collect();
    let mut fast = Solver::new(BadSymmetry).with_speedups(Speedups::ALL);
    let differs = trees.iter().any(|t| {
        let plain = Solver::new(BadSymmetry)
            .with_speedups(Speedups::NONE)
            .analyze(t)
            .unwrap();
        fast.analyze(t).unwrap() != plain
    });
    assert!(
        differs,
        "a symmetric key that merges non-isomorphic trees went unnoticed"
    );
}

#[test]
fn octal() {
    use sgcheck_oracles::games::octal::Octal;
    let mut ps = piles(3, 5);
    ps.push(Piles(vec![20]));
    ps.push(Piles(vec![1, 2, 1, 2, 1]));
    ps.push(Piles(vec![1; 30]));
    for code in ["0.77", "0.137", "0.6", "0.51", "0.3412"] {
        check_game("octal", code.parse::<Octal>().unwrap(), &ps);
    }
}

#[test]
fn grundy() {
    use sgcheck_oracles::games::grundy::GrundyGame;
    let mut ps = piles(3, 7);
    ps.push(Piles(vec![20, 3]));
    ps.push(Piles(vec![3; 30]));
    ps.push(Piles(vec![1; 30]));
    check_game("grundy", GrundyGame, &ps);
}

#[test]
fn nim_k() {
    use sgcheck_oracles::games::nim_k::NimK;
    let mut ps = piles(4, 3);
    ps.push(Piles(vec![2, 5, 2, 2, 5]));
    for k in 1..=4 {
        check_game("nim-k", NimK { k }, &ps);
    }
}

#[test]
fn auction() {
    use sgcheck_oracles::games::auction::{Auction, Missing};
    let ps: Vec<Missing> = (0..=40).map(Missing).collect();
    for n in [1, 2, 3, 7, 50] {
        check_game("auction", Auction { n }, &ps);
    }
}

/// Grundy's game with a planted bug in its reduction of equal heaps: a heap is left
/// out when any other heap has its size (the first of them too).
#[derive(Clone)]
struct BadEqualHeaps;

impl Rules for BadEqualHeaps {
    type Position = Piles;
    type Move = sgcheck_oracles::games::grundy::GrundySplit;
    fn moves(&self, pos: &Piles, out: &mut Vec<(Self::Move, Piles)>) {
        sgcheck_oracles::games::grundy::GrundyGame.moves(pos, out)
    }
    fn key(&self, pos: &Piles) -> Piles {
        sgcheck_oracles::games::grundy::GrundyGame.key(pos)
    }
    fn for_each_child<F: FnMut(&Piles)>(&self, pos: &Piles, mut f: F) {
        let g = sgcheck_oracles::games::grundy::GrundyGame;
        g.for_each_move(pos, |m, c| {
            if pos.0.iter().filter(|&&s| s == pos.0[m.heap]).count() == 1 {
                f(c)
            }
        });
    }
}

#[test]
fn the_comparison_catches_a_planted_equal_heaps_bug() {
    let positions = piles(3, 7);
    let mut fast = Solver::new(BadEqualHeaps).with_speedups(Speedups::ALL);
    let differs = positions.iter().any(|p| {
        let plain = Solver::new(BadEqualHeaps)
            .with_speedups(Speedups::NONE)
            .analyze(p)
            .unwrap();
        fast.analyze(p).unwrap() != plain
    });
    assert!(differs, "children left out of equal heaps went unnoticed");
}

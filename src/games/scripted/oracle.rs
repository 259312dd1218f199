//! The oracle of a scripted game: plain minimax over whole positions, a position being
//! the multiset of its components, its moves straight from the script's `moves`.
//! No Sprague–Grundy theory: the oracle crate's [`Solver`](sgcheck_oracles::Solver)
//! searches the game tree of the whole position.
//!
//! Before the search, every component state reachable from the position is listed
//! once (breadth first, the script called once per state, at most the search budget
//! of states) and numbered; a position is then the sorted list of its components'
//! numbers, components without moves left out (they never change the play). The
//! position the search starts from keeps the order of the case, so that a move
//! `i:j` (option `j` of component `i`) means the same on both sides.

use super::script::State;
use sgcheck_oracles::Rules;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// The component states reachable from one position, numbered, and their moves.
#[derive(Debug, Default)]
pub struct Table {
    /// State of each number.
    pub states: Vec<State>,
    /// Moves of each number: option j is the list of the numbers it leaves.
    pub moves: Vec<Vec<Vec<u32>>>,
}

/// How the table gets a state's moves: each move as the components it leaves.
pub type MovesOf<'a> = dyn Fn(&[i64]) -> Result<Arc<Vec<Vec<State>>>, String> + 'a;

impl Table {
    /// Lists every state reachable from `roots`, with `moves_of` (the script); the
    /// numbers of the roots, in their order. An error when more than `limit` states
    /// are reachable, their moves hold more than [`super::MAX_HELD`] components, the
    /// listing takes more than [`super::QUERY_TIME`], or from the script.
    pub fn build(
        roots: &[State],
        limit: usize,
        moves_of: &MovesOf<'_>,
    ) -> Result<(Table, Vec<u32>), String> {
        let mut t = Table::default();
        let mut ids: HashMap<State, u32> = HashMap::new();
        let mut intern = |s: &State, t: &mut Table| -> Result<u32, String> {
            if let Some(&i) = ids.get(s) {
                return Ok(i);
            }
            if t.states.len() >= limit {
                return Err(format!(
                    "more than {limit} component states are reachable (the search budget)"
                ));
            }
            let i = t.states.len() as u32;
            ids.insert(s.clone(), i);
            t.states.push(s.clone());
            t.moves.push(Vec::new());
            Ok(i)
        };
        let mut root_ids = Vec::with_capacity(roots.len());
        for r in roots {
            root_ids.push(intern(r, &mut t)?);
        }
        let mut next = 0usize;
        // The oracle's own limit on one query, when one is set (a sweep's), bounds
        // the listing too: a state with too many moves costs that much at most.
        let limit = sgcheck_oracles::query_time_limit()
            .map_or(super::QUERY_TIME, |q| q.min(super::QUERY_TIME));
        let mut deadline = std::time::Instant::now() + limit;
        if let Some(d) = sgcheck_oracles::scoped_deadline() {
            deadline = deadline.min(d);
        }
        let mut holding = 0usize;
        while next < t.states.len() {
            if std::time::Instant::now() >= deadline {
                return Err(format!(
                    "listing the reachable states took more than {:.1} s",
                    limit.as_secs_f64()
                ));
            }
            let s = t.states[next].clone();
            let options = super::script::within(deadline, || moves_of(&s))?;
            holding += super::held(&options);
            if holding > super::MAX_HELD {
                return Err(format!(
                    "the reachable states have more than {} components of moves",
                    super::MAX_HELD
                ));
            }
            let mut listed = Vec::with_capacity(options.len());
            for parts in options.iter() {
                let mut p = Vec::with_capacity(parts.len());
                for c in parts {
                    p.push(intern(c, &mut t)?);
                }
                listed.push(p);
            }
            t.moves[next] = listed;
            next += 1;
        }
        Ok((t, root_ids))
    }
}

/// A position: the numbers of its components (see [`Table`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Components(pub Vec<u32>);

impl fmt::Display for Components {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|c| format!("#{c}")).collect();
        write!(f, "{}", parts.join(","))
    }
}

/// A move: option `option` (its place in the list `moves` returned) of the component
/// at place `component` of the position. Ordered by component, then option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ScriptMove {
    /// The place of the component in the position.
    pub component: u32,
    /// The place of the move in what `moves(state)` returned.
    pub option: u32,
}

impl fmt::Display for ScriptMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.component, self.option)
    }
}

/// The oracle's rules of one position's table.
#[derive(Clone, Debug)]
pub struct ScriptOracle {
    /// The reachable states and their moves.
    pub table: Arc<Table>,
    /// Misère play: who cannot move wins.
    pub misere: bool,
}

impl ScriptOracle {
    fn live(&self, c: u32) -> bool {
        !self.table.moves[c as usize].is_empty()
    }
}

impl Rules for ScriptOracle {
    type Position = Components;
    type Move = ScriptMove;

    fn moves(&self, pos: &Components, out: &mut Vec<(ScriptMove, Components)>) {
        for (i, &c) in pos.0.iter().enumerate() {
            for (j, parts) in self.table.moves[c as usize].iter().enumerate() {
                let mut next: Vec<u32> = pos
                    .0
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| k != i)
                    .map(|(_, &x)| x)
                    .chain(parts.iter().copied())
                    .filter(|&x| self.live(x))
                    .collect();
                next.sort_unstable();
                out.push((
                    ScriptMove {
                        component: i as u32,
                        option: j as u32,
                    },
                    Components(next),
                ));
            }
        }
    }

    fn stuck_player_wins(&self, _pos: &Components) -> bool {
        self.misere
    }

    fn move_bound(&self, pos: &Components) -> Option<u64> {
        Some(
            pos.0
                .iter()
                .map(|&c| self.table.moves[c as usize].len() as u64)
                .sum(),
        )
    }

    fn key(&self, pos: &Components) -> Components {
        let mut k: Vec<u32> = pos.0.iter().copied().filter(|&c| self.live(c)).collect();
        k.sort_unstable();
        Components(k)
    }
}

//! Memoized minimax over whole positions.
//!
//! A position is won for the player to move exactly when some move leads to a position
//! lost for the player to move there; a position without moves is lost (or won, where
//! [`Rules::stuck_player_wins`] says so). Nothing else is assumed: no Grundy values, no
//! XOR, no decomposition into components.
//!
//! The search is an explicit-stack depth-first traversal, so a long chain of moves
//! (a split game with thousands of beans to push) cannot overflow the thread's stack.
//! Solved positions are kept in an FxHash table of packed 32-bit outcomes, and a budget
//! on the number of positions a query may add makes a too-large position fail with
//! [`SearchError::Budget`] instead of running out of time or memory.

use crate::Rules;
use rustc_hash::FxHashMap;
use std::fmt;

/// The default budget: positions one query may add to the table or hold on its search
/// stack (a few hundred MB at most for positions of a few machine words).
pub const DEFAULT_BUDGET: usize = 2_000_000;

/// The result of a search for one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// True when the player to move wins under optimal play.
    pub win: bool,
    /// Plies to the end under optimal play, the winner hurrying and the loser delaying;
    /// `None` when the solver was built with [`Solver::verdict_only`].
    pub remoteness: Option<u32>,
}

/// Everything the oracle says of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis<M> {
    /// True when the player to move wins.
    pub win: bool,
    /// Every winning move, in the game's canonical move order, without repeats.
    pub winning: Vec<M>,
    /// Plies to the end under optimal play, when the engine computes it.
    pub remoteness: Option<u32>,
}

impl<M> Analysis<M> {
    /// The best move: the smallest winning move in canonical order.
    pub fn best(&self) -> Option<&M> {
        self.winning.first()
    }

    /// The number of distinct winning moves.
    pub fn count(&self) -> usize {
        self.winning.len()
    }
}

/// Why a search gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// The position needs more distinct positions than the budget allows.
    Budget {
        /// The budget that was exceeded.
        budget: usize,
    },
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Budget { budget } => write!(
                f,
                "position too large for the exhaustive oracle: it needs more than {budget} \
                 distinct positions"
            ),
        }
    }
}

impl std::error::Error for SearchError {}

/// Packs an outcome into 32 bits: bit 0 is the verdict, the rest the remoteness
/// (saturating; all-ones means "not computed").
#[derive(Clone, Copy)]
struct Packed(u32);

const NO_REMOTENESS: u32 = u32::MAX >> 1;

impl Packed {
    fn new(win: bool, remoteness: u32) -> Self {
        Packed((remoteness.min(NO_REMOTENESS) << 1) | win as u32)
    }
    fn win(self) -> bool {
        self.0 & 1 == 1
    }
    fn remoteness(self) -> u32 {
        self.0 >> 1
    }
    fn outcome(self) -> Outcome {
        let r = self.remoteness();
        Outcome {
            win: self.win(),
            remoteness: (r != NO_REMOTENESS).then_some(r),
        }
    }
}

/// One position on the search stack, with its children still to look at.
struct Frame<P> {
    key: P,
    children: Vec<P>,
    next: usize,
    stuck_wins: bool,
    /// Some child is lost for the player to move there.
    win: bool,
    /// Smallest remoteness among lost children.
    fastest_win: u32,
    /// Largest remoteness among won children.
    slowest_loss: u32,
}

/// Exhaustive solver for one game's rules, remembering every position it solved.
pub struct Solver<R: Rules> {
    rules: R,
    table: FxHashMap<R::Position, Packed>,
    budget: usize,
    remoteness: bool,
    scratch: Vec<(R::Move, R::Position)>,
}

impl<R: Rules> Solver<R> {
    /// A solver that also computes remoteness, with the [`DEFAULT_BUDGET`].
    pub fn new(rules: R) -> Self {
        Solver {
            rules,
            table: FxHashMap::default(),
            budget: DEFAULT_BUDGET,
            remoteness: true,
            scratch: Vec::new(),
        }
    }

    /// A solver that computes verdicts and winning moves but not remoteness. It stops
    /// at the first losing child of a position, so it explores far fewer positions.
    pub fn verdict_only(rules: R) -> Self {
        Solver {
            remoteness: false,
            ..Solver::new(rules)
        }
    }

    /// Sets how many new positions one query may solve before giving up.
    pub fn with_budget(mut self, budget: usize) -> Self {
        self.budget = budget.max(1);
        self
    }

    /// The rules this solver plays.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// Number of positions currently remembered.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    fn over_budget(&self) -> SearchError {
        SearchError::Budget {
            budget: self.budget,
        }
    }

    /// Fails before generating the moves of a position whose announced move count
    /// alone would exceed what is left of the budget (a pile of 2*10^9 stones).
    fn check_bound(&self, pos: &R::Position, used: usize) -> Result<(), SearchError> {
        match self.rules.move_bound(pos) {
            Some(b) if b > self.budget.saturating_sub(used) as u64 => Err(self.over_budget()),
            _ => Ok(()),
        }
    }

    fn frame(&mut self, pos: &R::Position, used: usize) -> Result<Frame<R::Position>, SearchError> {
        self.check_bound(pos, used)?;
        self.scratch.clear();
        self.rules.moves(pos, &mut self.scratch);
        let children = self.scratch.drain(..).map(|(_, p)| p).collect::<Vec<_>>();
        let stuck_wins = children.is_empty() && self.rules.stuck_player_wins(pos);
        Ok(Frame {
            key: self.rules.key(pos),
            children,
            next: 0,
            stuck_wins,
            win: false,
            fastest_win: u32::MAX,
            slowest_loss: 0,
        })
    }

    fn finish(&self, frame: &Frame<R::Position>) -> Packed {
        let plus_one = |r: u32| {
            if self.remoteness {
                r.saturating_add(1)
            } else {
                NO_REMOTENESS
            }
        };
        if frame.children.is_empty() {
            Packed::new(
                frame.stuck_wins,
                if self.remoteness { 0 } else { NO_REMOTENESS },
            )
        } else if frame.win {
            Packed::new(true, plus_one(frame.fastest_win))
        } else {
            Packed::new(false, plus_one(frame.slowest_loss))
        }
    }

    /// Solves one position: who wins, and in how many plies.
    pub fn outcome(&mut self, pos: &R::Position) -> Result<Outcome, SearchError> {
        self.solve(pos).map(Packed::outcome)
    }

    fn solve(&mut self, root: &R::Position) -> Result<Packed, SearchError> {
        if let Some(&p) = self.table.get(&self.rules.key(root)) {
            return Ok(p);
        }
        if self.table.len() >= self.budget {
            // Keep memory bounded across many queries: start the next one afresh.
            self.table.clear();
        }
        let start = self.table.len();
        // The budget counts the positions this query adds to the table plus every
        // child position held on the stack, so memory stays proportional to it.
        let root_frame = self.frame(root, 0)?;
        let mut held = root_frame.children.len();
        let mut stack = vec![root_frame];
        loop {
            let top = stack.last_mut().expect("stack is never empty here");
            let done = top.next >= top.children.len() || (!self.remoteness && top.win);
            if !done {
                let child_key = self.rules.key(&top.children[top.next]);
                if let Some(&p) = self.table.get(&child_key) {
                    absorb(top, p);
                    continue;
                }
                let child = top.children[top.next].clone();
                let used = self.table.len() - start + held;
                if used >= self.budget {
                    return Err(self.over_budget());
                }
                let frame = self.frame(&child, used)?;
                held += frame.children.len();
                stack.push(frame);
                continue;
            }
            let frame = stack.pop().expect("stack is never empty here");
            held -= frame.children.len();
            let packed = self.finish(&frame);
            self.table.insert(frame.key, packed);
            match stack.last_mut() {
                Some(parent) => absorb(parent, packed),
                None => return Ok(packed),
            }
        }
    }

    /// Solves a position and lists every winning move in canonical order.
    pub fn analyze(&mut self, pos: &R::Position) -> Result<Analysis<R::Move>, SearchError> {
        let root = self.solve(pos)?;
        self.check_bound(pos, 0)?;
        let mut moves = Vec::new();
        self.rules.moves(pos, &mut moves);
        let mut winning = Vec::new();
        for (mv, child) in moves {
            if !self.solve(&child)?.win() {
                winning.push(mv);
            }
        }
        winning.sort();
        winning.dedup();
        Ok(Analysis {
            win: root.win(),
            winning,
            remoteness: root.outcome().remoteness,
        })
    }
}

/// Folds a child's outcome into its parent's frame.
fn absorb<P>(frame: &mut Frame<P>, child: Packed) {
    frame.next += 1;
    if child.win() {
        frame.slowest_loss = frame.slowest_loss.max(child.remoteness());
    } else {
        frame.win = true;
        frame.fastest_win = frame.fastest_win.min(child.remoteness());
    }
}

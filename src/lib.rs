//! sgcheck: proves impartial-game solvers right, or finds the smallest input on which
//! they are wrong.
#![deny(missing_docs)]

pub use sgcheck_oracles as oracles;

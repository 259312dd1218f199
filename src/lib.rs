//! sgcheck: proves impartial-game solvers right, or finds the smallest input on which
//! they are wrong.
//!
//! The crate holds the fast side ([`games`]: closed forms and Sprague–Grundy tables),
//! the contest formats ([`problems`]), the differential sweep ([`verify`]) and the
//! command line ([`cli`]). The exhaustive side lives in the separate crate
//! [`sgcheck_oracles`], which depends on nothing here.
#![deny(missing_docs)]

pub use sgcheck_oracles as oracles;

#[cfg(feature = "quickcheck")]
pub mod arbitrary;
pub mod audit;
pub mod cli;
pub mod fuzzing;
pub mod games;
pub mod problems;
pub mod verify;

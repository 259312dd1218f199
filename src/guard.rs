//! A fast solver that fails is a finding: panics caught with their message, and checks
//! that do not return reported as hangs.
//!
//! [`catch_quiet`] runs a closure, catches a panic, and keeps the default panic hook
//! quiet for it (the message and location are captured for the report instead of
//! printed with a backtrace). [`Watch`] is the per-check watchdog of `verify`: every
//! check records when it started; [`run_guarded`] runs a game's work on a thread of
//! its own (with a rayon pool of its own) and gives up on it, reporting the hang at the
//! position being checked, when one check runs longer than the bound. The stuck thread
//! is left behind; the process still ends when `main` returns.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{mpsc, Arc, Mutex, Once};
use std::time::{Duration, Instant};

thread_local! {
    /// How many [`catch_quiet`] calls this thread is inside.
    static QUIET: Cell<u32> = const { Cell::new(0) };
    /// The message and location of the last panic caught quietly on this thread.
    static CAPTURED: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// Installs (once) the panic hook that stays quiet inside [`catch_quiet`] and calls
/// the previous hook everywhere else.
fn install_hook() {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) > 0 {
                let msg = payload_message(info.payload());
                let text = match info.location() {
                    Some(l) => format!("{msg} (at {}:{})", l.file(), l.line()),
                    None => msg,
                };
                CAPTURED.with(|c| *c.borrow_mut() = Some(text));
            } else {
                previous(info);
            }
        }));
    });
}

/// The text of a panic payload (`&str` or `String`; anything else is named as such).
pub fn payload_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with a non-text payload".to_string()
    }
}

/// A panic caught by [`catch_quiet`].
pub struct Panicked {
    /// The panic message, with the source location when the hook saw it.
    pub message: String,
    /// The payload, for callers that unwind on purpose with a value of their own.
    pub payload: Box<dyn Any + Send>,
}

impl fmt::Debug for Panicked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Panicked")
            .field("message", &self.message)
            .finish_non_exhaustive()
    }
}

/// Runs `f`, catching a panic: `Err` holds its message (and location). The default
/// hook prints nothing for a panic caught here; panics elsewhere print as usual.
///
/// ```
/// let caught = sgcheck::guard::catch_quiet(|| -> u32 { panic!("index 7 out of range") });
/// assert!(caught.unwrap_err().message.contains("index 7 out of range"));
/// assert_eq!(sgcheck::guard::catch_quiet(|| 3).unwrap(), 3);
/// ```
pub fn catch_quiet<T>(f: impl FnOnce() -> T) -> Result<T, Panicked> {
    install_hook();
    QUIET.with(|q| q.set(q.get() + 1));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(q.get() - 1));
    result.map_err(|payload| {
        let captured = CAPTURED.with(|c| c.borrow_mut().take());
        Panicked {
            message: captured.unwrap_or_else(|| payload_message(&*payload)),
            payload,
        }
    })
}

/// What a hung check was doing: the description of the position from the tier's
/// describer.
pub type Describe = Arc<dyn Fn(u64) -> (String, String) + Send + Sync>;

/// One check slot: when the running check started (nanoseconds since the watch's
/// epoch, plus one; 0 when idle) and its key.
#[derive(Default)]
struct Slot {
    since: AtomicU64,
    key: AtomicU64,
}

/// Tier 1's progress as the watch last saw it: comparisons done, disagreements, and the
/// first disagreement (what, closed form, table).
pub(crate) type Tier1Progress = (u64, u64, Option<(String, String, String)>);

/// The per-check watchdog of one game's verification (see the module docs).
pub struct Watch {
    epoch: Instant,
    slots: Vec<Slot>,
    tier: AtomicU8,
    describe: Mutex<Option<Describe>>,
    finished: Mutex<Vec<crate::verify::TierReport>>,
    /// Tier 1's progress: comparisons done and disagreements, with the first one.
    pub(crate) tier1: Mutex<Tier1Progress>,
}

impl fmt::Debug for Watch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Watch")
            .field("tier", &self.tier.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl Default for Watch {
    fn default() -> Self {
        Watch::new()
    }
}

impl Watch {
    /// A watch with a slot for each thread of the current rayon pool and one more.
    pub fn new() -> Self {
        let n = rayon::current_num_threads() + 1;
        Watch {
            epoch: Instant::now(),
            slots: (0..n).map(|_| Slot::default()).collect(),
            tier: AtomicU8::new(0),
            describe: Mutex::new(None),
            finished: Mutex::new(Vec::new()),
            tier1: Mutex::new((0, 0, None)),
        }
    }

    fn slot(&self) -> Option<&Slot> {
        let i = rayon::current_thread_index().map_or(0, |i| i + 1);
        self.slots.get(i)
    }

    /// Which tier runs now, and how to describe the key of one of its checks.
    pub fn enter_tier(&self, tier: u8, describe: Option<Describe>) {
        self.tier.store(tier, Ordering::Relaxed);
        *self.describe.lock().unwrap_or_else(|e| e.into_inner()) = describe;
    }

    /// The tier that runs now (0 before the first).
    pub fn tier(&self) -> u8 {
        self.tier.load(Ordering::Relaxed)
    }

    /// A check with key `key` starts on this thread (or, in tier 1, makes progress).
    pub fn begin(&self, key: u64) {
        if let Some(s) = self.slot() {
            let now = self.epoch.elapsed().as_nanos() as u64 + 1;
            s.key.store(key, Ordering::Relaxed);
            s.since.store(now, Ordering::Relaxed);
        }
    }

    /// The check on this thread returned.
    pub fn end(&self) {
        if let Some(s) = self.slot() {
            s.since.store(0, Ordering::Relaxed);
        }
    }

    /// Keeps a tier's report for the game's report, should a later tier hang.
    pub fn finish_tier(&self, report: crate::verify::TierReport) {
        self.finished
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(report);
    }

    /// The tiers finished so far.
    pub fn finished(&self) -> Vec<crate::verify::TierReport> {
        self.finished
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// A check that has been running for longer than `bound`: its key, with the
    /// description of its position (rules, position) when the tier gave a describer.
    pub fn hung(&self, bound: Duration) -> Option<(u64, Option<(String, String)>)> {
        let now = self.epoch.elapsed().as_nanos() as u64 + 1;
        let bound = bound.as_nanos() as u64;
        let s = self.slots.iter().find(|s| {
            let since = s.since.load(Ordering::Relaxed);
            since != 0 && now.saturating_sub(since) > bound
        })?;
        let key = s.key.load(Ordering::Relaxed);
        let describe = self
            .describe
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        Some((key, describe.map(|d| d(key))))
    }
}

/// How a guarded run ended.
pub enum Guarded<T> {
    /// The work returned.
    Done(T),
    /// A check ran longer than the bound: the tier, the check's key and its
    /// description; the work was left running on its thread.
    Hang {
        /// The tier of the check.
        tier: u8,
        /// The key of the check (its number in the tier, or tier 1's comparisons so far).
        key: u64,
        /// The rules and position, when the tier could describe them.
        at: Option<(String, String)>,
    },
    /// The work panicked outside every check (a bug of sgcheck): the message.
    Crashed(String),
}

/// Runs `work` on a thread of its own, with a rayon pool of its own, and waits for it
/// while no check of `watch` runs longer than `bound`.
pub fn run_guarded<T: Send + 'static>(
    watch: &Arc<Watch>,
    bound: Duration,
    work: impl FnOnce() -> T + Send + 'static,
) -> Guarded<T> {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("sgcheck-verify".into())
        .spawn(move || {
            let result = catch_quiet(|| match rayon::ThreadPoolBuilder::new().build() {
                Ok(pool) => pool.install(work),
                Err(_) => work(),
            });
            let _ = tx.send(result.map_err(|p| p.message));
        });
    if let Err(e) = spawned {
        return Guarded::Crashed(format!("cannot start a thread: {e}"));
    }
    loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(Ok(v)) => return Guarded::Done(v),
            Ok(Err(msg)) => return Guarded::Crashed(msg),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Guarded::Crashed("the verification thread ended without a report".into())
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Some((key, at)) = watch.hung(bound) {
                    return Guarded::Hang {
                        tier: watch.tier(),
                        key,
                        at,
                    };
                }
            }
        }
    }
}

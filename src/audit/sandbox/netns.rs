//! Network namespaces, one per parallel run.

use super::*;

/// A network namespace (no interface up: not even the loopback) for one run at a time.
pub(crate) struct NetSlot(OwnedFd);

pub(crate) static NET_SLOTS: Mutex<Vec<NetSlot>> = Mutex::new(Vec::new());

/// A network namespace made by a short-lived thread (a thread may leave the process's
/// network namespace on its own).
pub(crate) fn new_net_slot() -> Option<NetSlot> {
    std::thread::spawn(|| {
        // SAFETY: CLONE_NEWNET only (no CLONE_FILES): it changes this thread's network
        // namespace, which no other thread shares or looks at; the thread ends here.
        unsafe { rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWNET) }.ok()?;
        let fd = rustix::fs::open(
            c"/proc/thread-self/ns/net",
            rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::CLOEXEC,
            Mode::empty(),
        )
        .ok()?;
        Some(NetSlot(fd))
    })
    .join()
    .ok()
    .flatten()
}

pub(crate) fn net_slot_probe() -> bool {
    match new_net_slot() {
        Some(s) => {
            put_net_slot(s);
            true
        }
        None => false,
    }
}

/// A network namespace no running run uses.
pub(crate) fn take_net_slot() -> Option<NetSlot> {
    let pooled = NET_SLOTS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .pop();
    pooled.or_else(new_net_slot)
}

/// Gives a network namespace back once every process of its run is gone.
pub(crate) fn put_net_slot(s: NetSlot) {
    NET_SLOTS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(s);
}

impl NetSlot {
    /// The descriptor, for [`ChildPlan::net`].
    pub fn raw(&self) -> RawFd {
        self.0.as_raw_fd()
    }
}

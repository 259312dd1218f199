//! The file system of a run, prepared before the fork and built in the child.

use super::*;

/// How the working directory appears to the program.
#[derive(Debug)]
pub(crate) enum CwdMount {
    /// An overlay over it, its upper layer in the run's tmpfs: writes stay private.
    Overlay { target: CString, options: CString },
    /// Itself, writable (a compile's build directory).
    Bind { source: CString, target: CString },
    /// Read-only, as everything else.
    Keep,
}

/// Every path and option of a run's file system, as C strings (see the module
/// documentation), so that the child makes no allocation.
#[derive(Debug)]
pub(crate) struct FsPlan {
    stage_options: CString,
    /// Directories to create in the stage, parents first, with their modes.
    dirs: Vec<(CString, u32)>,
    /// The overlay's upper directory, given to the run's uid.
    upper: CString,
    /// Directories closed to others, opened (read-only) with an overlay whose first
    /// layer is the empty `.e` of the stage: (target, options), shallowest first.
    opens: Vec<(CString, CString)>,
    cwd_mount: CwdMount,
    /// Empty files to create in the stage, to bind files onto.
    files: Vec<CString>,
    /// (source, target in the stage): files and directories of the command line that
    /// were under the hidden `/tmp`.
    binds: Vec<(CString, CString)>,
    /// The fresh `/tmp` and `/dev/shm` in the stage.
    tmp: CString,
    shm: CString,
    /// Directories covered by an empty, read-only tmpfs (a package's answers).
    hides: Vec<CString>,
    /// The working directory, entered once everything is mounted.
    pub cwd: CString,
    /// Names the plan puts at the top of the fresh `/tmp` (mount points and their
    /// parents): a run that leaves anything else there has written into it.
    pub tmp_names: Vec<CString>,
}

pub(crate) fn cstr(p: &Path) -> Option<CString> {
    CString::new(p.as_os_str().as_bytes()).ok()
}

/// A path for a mount option: refused when it holds a character the options give a
/// meaning (`,` `:` `\\` `=`) or a newline.
pub(crate) fn option_path(p: &Path) -> Option<String> {
    let s = p.to_str()?;
    (!s.chars()
        .any(|c| matches!(c, ',' | ':' | '\\' | '=' | '\n')))
    .then(|| s.to_string())
}

/// `p` relative to `/tmp`, when it lies under it (not `/tmp` itself).
pub(crate) fn under_tmp(p: &Path) -> Option<PathBuf> {
    let rel = p.strip_prefix("/tmp").ok()?;
    (!rel.as_os_str().is_empty()).then(|| rel.to_path_buf())
}

/// Whether the path exists under `/dev/shm`, which the run cannot show.
pub(crate) fn under_shm(p: &Path) -> bool {
    p.starts_with("/dev/shm")
}

/// What the plan needs to know to be built.
pub(crate) struct FsRequest<'a> {
    /// The working directory (absolute, canonical).
    pub cwd: &'a Path,
    /// Bind it writable (a compile) instead of an overlay.
    pub writable_cwd: bool,
    /// Paths the program needs: its executable, files named on its command line,
    /// `PATH` and toolchain directories (absolute; missing ones are ignored).
    pub needed: &'a [PathBuf],
    /// Size of the run's tmpfs, in bytes.
    pub size: u64,
    /// Whether the program runs as [`RUN_UID`] (closed directories get opened).
    pub drop_uid: bool,
    /// Directories the program must not see (absolute, canonical). One that holds the
    /// working directory or a needed path is not hidden (the run could not work).
    pub hidden: &'a [PathBuf],
}

impl FsPlan {
    /// The plan for a run, or `None` when a path cannot be expressed (a NUL byte).
    pub fn new(req: &FsRequest<'_>) -> Option<FsPlan> {
        let stage = Path::new("/dev/shm");
        let in_stage = |rel: &Path| stage.join("t").join(rel);
        let mut dirs: Vec<(PathBuf, u32)> = vec![
            (stage.join("u"), 0o755),
            (stage.join("w"), 0o700),
            (stage.join("t"), 0o1777),
            (stage.join("s"), 0o1777),
            (stage.join(".e"), 0o755),
        ];
        let add_parents = |dirs: &mut Vec<(PathBuf, u32)>, target: &Path| {
            let mut chain: Vec<PathBuf> = target
                .ancestors()
                .skip(1)
                .take_while(|a| a.starts_with(stage.join("t")) && *a != stage.join("t"))
                .map(Path::to_path_buf)
                .collect();
            chain.reverse();
            for d in chain {
                if !dirs.iter().any(|(x, _)| *x == d) {
                    dirs.push((d, 0o755));
                }
            }
        };
        let cwd = req.cwd;
        // Where the working directory is mounted: in the stage when under /tmp.
        let cwd_target = match under_tmp(cwd) {
            Some(rel) => {
                let t = in_stage(&rel);
                add_parents(&mut dirs, &t);
                dirs.push((t.clone(), 0o755));
                Some(t)
            }
            None if under_shm(cwd) => None,
            // The root itself: a mount over it would not be seen (the process's root
            // stays the one below); it stays read-only.
            None if cwd.parent().is_none() => None,
            None => Some(cwd.to_path_buf()),
        };
        let cwd_mount = match (&cwd_target, req.writable_cwd) {
            (None, _) => CwdMount::Keep,
            (Some(t), true) => CwdMount::Bind {
                source: cstr(cwd)?,
                target: cstr(t)?,
            },
            (Some(t), false) => match option_path(cwd) {
                Some(lower) => CwdMount::Overlay {
                    target: cstr(t)?,
                    options: CString::new(format!(
                        "lowerdir={lower},upperdir=/dev/shm/u,workdir=/dev/shm/w"
                    ))
                    .ok()?,
                },
                // A path the options cannot carry: bound read-only where it must be
                // seen.
                None if under_tmp(cwd).is_some() => CwdMount::Bind {
                    source: cstr(cwd)?,
                    target: cstr(t)?,
                },
                None => CwdMount::Keep,
            },
        };
        let mut files = Vec::new();
        let mut binds = Vec::new();
        let mut opens: Vec<PathBuf> = Vec::new();
        for p in req.needed {
            let Ok(meta) = std::fs::metadata(p) else {
                continue;
            };
            if let Some(rel) = under_tmp(p) {
                // Inside a working directory under /tmp: seen through its mount. An
                // ancestor of it: not bound, or it would hide that mount.
                let covered = under_tmp(cwd).is_some() && p.starts_with(cwd);
                if covered || cwd.starts_with(p) {
                    continue;
                }
                let t = in_stage(&rel);
                if dirs.iter().any(|(d, _)| *d == t) || files.contains(&t) {
                    continue;
                }
                add_parents(&mut dirs, &t);
                if meta.is_dir() {
                    dirs.push((t.clone(), 0o755));
                } else {
                    files.push(t.clone());
                }
                binds.push((p.clone(), t));
            } else if req.drop_uid && !under_shm(p) {
                // Directories on the way that others may not enter.
                let mut acc = PathBuf::from("/");
                for c in p.components() {
                    if let Component::Normal(n) = c {
                        acc.push(n);
                        if acc == *p && !meta.is_dir() {
                            break;
                        }
                        let closed = std::fs::metadata(&acc)
                            .is_ok_and(|m| m.is_dir() && m.mode() & 0o001 == 0);
                        if closed && option_path(&acc).is_some() && !opens.contains(&acc) {
                            opens.push(acc.clone());
                        }
                    }
                }
            }
        }
        opens.sort_by_key(|p| p.components().count());
        let stage_tmp = stage.join("t");
        let mut tmp_names: Vec<CString> = Vec::new();
        for p in dirs.iter().map(|(d, _)| d).chain(files.iter()) {
            if let Ok(rel) = p.strip_prefix(&stage_tmp) {
                if let Some(Component::Normal(first)) = rel.components().next() {
                    let c = CString::new(first.as_bytes()).ok()?;
                    if !tmp_names.contains(&c) {
                        tmp_names.push(c);
                    }
                }
            }
        }
        let opens = opens
            .iter()
            .map(|o| {
                let s = option_path(o)?;
                Some((
                    cstr(o)?,
                    CString::new(format!("lowerdir=/dev/shm/.e:{s}")).ok()?,
                ))
            })
            .collect::<Option<Vec<_>>>()?;
        Some(FsPlan {
            stage_options: CString::new(format!(
                "size={},nr_inodes=65536,mode=0755",
                req.size.max(1 << 20)
            ))
            .ok()?,
            dirs: dirs
                .iter()
                .map(|(d, m)| Some((cstr(d)?, *m)))
                .collect::<Option<Vec<_>>>()?,
            upper: c"/dev/shm/u".to_owned(),
            opens,
            cwd_mount,
            files: files.iter().map(|f| cstr(f)).collect::<Option<Vec<_>>>()?,
            binds: binds
                .iter()
                .map(|(s, t)| Some((cstr(s)?, cstr(t)?)))
                .collect::<Option<Vec<_>>>()?,
            tmp: c"/dev/shm/t".to_owned(),
            shm: c"/dev/shm/s".to_owned(),
            hides: req
                .hidden
                .iter()
                .filter(|h| {
                    // Under /tmp and /dev/shm nothing is seen but what is bound.
                    h.is_absolute()
                        && h.parent().is_some()
                        && under_tmp(h).is_none()
                        && !under_shm(h)
                        && !cwd.starts_with(h)
                        && !req.needed.iter().any(|n| n.starts_with(h))
                })
                .map(|h| cstr(h))
                .collect::<Option<Vec<_>>>()?,
            cwd: cstr(cwd)?,
            tmp_names,
        })
    }
}

/// `mount_setattr(2)`'s argument (no wrapper in rustix or libc's stable API).
#[repr(C)]
pub(crate) struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

pub(crate) const MOUNT_ATTR_RDONLY: u64 = 1;

/// How many descriptors [`build_fs`] returns.
pub(crate) const WATCHED: usize = 7;

/// Builds the runs' file system (see the module documentation). Async-signal-safe:
/// system calls on prepared C strings only. Returns descriptors the slot looks into
/// after each run: the stage's fresh `/tmp`, `/dev/shm` and upper layer, the IPC
/// namespace's message queues (a mount of their own), and its System V shared memory,
/// semaphores and message queues (`/proc/sysvipc`); -1 for what is missing.
pub(crate) fn build_fs(fs: &FsPlan, owner: Option<u32>) -> io::Result<[RawFd; WATCHED]> {
    use rustix::mount::{mount, mount_bind, mount_bind_recursive, mount_change, mount_remount};
    mount_change(
        c"/",
        MountPropagationFlags::PRIVATE | MountPropagationFlags::REC,
    )
    .map_err(errno_of)?;
    let attr = MountAttr {
        attr_set: MOUNT_ATTR_RDONLY,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: mount_setattr reads `size` bytes of `attr`, a live local of that size;
    // the path is a NUL-terminated literal. No safe wrapper exists.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            c"/".as_ptr(),
            libc::AT_RECURSIVE as libc::c_uint,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if rc != 0 {
        // Kernels before 5.12: the root mount at least.
        mount_remount(c"/", MountFlags::BIND | MountFlags::RDONLY, c"").map_err(errno_of)?;
    }
    mount(
        c"tmpfs",
        STAGE,
        c"tmpfs",
        MountFlags::NOSUID | MountFlags::NODEV,
        fs.stage_options.as_c_str(),
    )
    .map_err(errno_of)?;
    for (d, mode) in &fs.dirs {
        match rustix::fs::mkdir(d.as_c_str(), Mode::from_raw_mode(*mode)) {
            Ok(()) | Err(rustix::io::Errno::EXIST) => {}
            Err(e) => return Err(errno_of(e)),
        }
        // The umask is not ours to trust.
        rustix::fs::chmod(d.as_c_str(), Mode::from_raw_mode(*mode)).map_err(errno_of)?;
    }
    if let Some(uid) = owner {
        rustix::fs::chown(
            fs.upper.as_c_str(),
            Some(Uid::from_raw(uid)),
            Some(Gid::from_raw(uid)),
        )
        .map_err(errno_of)?;
    }
    for f in &fs.files {
        let fd = rustix::fs::open(
            f.as_c_str(),
            rustix::fs::OFlags::CREATE | rustix::fs::OFlags::WRONLY | rustix::fs::OFlags::CLOEXEC,
            Mode::from_raw_mode(0o644),
        )
        .map_err(errno_of)?;
        drop(fd);
    }
    for (target, options) in &fs.opens {
        // Best effort: a directory that cannot be opened stays closed.
        let _ = mount(
            c"overlay",
            target.as_c_str(),
            c"overlay",
            MountFlags::RDONLY | MountFlags::NOSUID | MountFlags::NODEV,
            options.as_c_str(),
        );
    }
    match &fs.cwd_mount {
        CwdMount::Overlay { target, options } => {
            if mount(
                c"overlay",
                target.as_c_str(),
                c"overlay",
                MountFlags::NOSUID | MountFlags::NODEV,
                options.as_c_str(),
            )
            .is_err()
            {
                // No overlay here: the directory as it is, read-only.
                if target.as_c_str() != fs.cwd.as_c_str() {
                    mount_bind(fs.cwd.as_c_str(), target.as_c_str()).map_err(errno_of)?;
                }
            }
        }
        CwdMount::Bind { source, target } => {
            mount_bind(source.as_c_str(), target.as_c_str()).map_err(errno_of)?;
            mount_remount(target.as_c_str(), MountFlags::BIND, c"").map_err(errno_of)?;
        }
        CwdMount::Keep => {}
    }
    for (source, target) in &fs.binds {
        mount_bind(source.as_c_str(), target.as_c_str()).map_err(errno_of)?;
    }
    for h in &fs.hides {
        // A run that cannot hide what it must not see does not start.
        mount(
            c"tmpfs",
            h.as_c_str(),
            c"tmpfs",
            MountFlags::RDONLY | MountFlags::NOSUID | MountFlags::NODEV | MountFlags::NOEXEC,
            c"size=4k,nr_inodes=4,mode=0755",
        )
        .map_err(errno_of)?;
    }
    let watch = |p: &CStr| -> io::Result<RawFd> {
        use std::os::fd::IntoRawFd;
        rustix::fs::open(
            p,
            rustix::fs::OFlags::RDONLY
                | rustix::fs::OFlags::DIRECTORY
                | rustix::fs::OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map(IntoRawFd::into_raw_fd)
        .map_err(errno_of)
    };
    // The POSIX message queues of the slot's IPC namespace, seen through a mount of
    // their own in the stage (hidden from the program with the stage): -1 when the
    // kernel has none, and then every run gets an IPC namespace of its own.
    let queues = match rustix::fs::mkdir(c"/dev/shm/q", Mode::from_raw_mode(0o700)) {
        Ok(()) | Err(rustix::io::Errno::EXIST) => mount(
            c"mqueue",
            c"/dev/shm/q",
            c"mqueue",
            MountFlags::NOSUID | MountFlags::NODEV | MountFlags::NOEXEC,
            c"",
        )
        .ok()
        .and_then(|()| watch(c"/dev/shm/q").ok())
        .unwrap_or(-1),
        Err(_) => -1,
    };
    let mut watched = [
        watch(fs.tmp.as_c_str())?,
        watch(fs.shm.as_c_str())?,
        watch(fs.upper.as_c_str())?,
        queues,
        -1,
        -1,
        -1,
    ];
    mount_bind_recursive(fs.tmp.as_c_str(), c"/tmp").map_err(errno_of)?;
    mount_bind(fs.shm.as_c_str(), STAGE).map_err(errno_of)?;
    mount(
        c"proc",
        c"/proc",
        c"proc",
        MountFlags::NOSUID | MountFlags::NODEV | MountFlags::NOEXEC,
        c"",
    )
    .map_err(errno_of)?;
    // The System V objects of the slot's IPC namespace, as its fresh /proc lists them.
    for (i, p) in [
        c"/proc/sysvipc/shm",
        c"/proc/sysvipc/sem",
        c"/proc/sysvipc/msg",
    ]
    .into_iter()
    .enumerate()
    {
        use std::os::fd::IntoRawFd;
        watched[4 + i] = rustix::fs::open(
            p,
            rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_or(-1, IntoRawFd::into_raw_fd);
    }
    if watched[4..].contains(&-1) {
        // Without them, each run gets an IPC namespace of its own.
        watched[3] = -1;
    }
    Ok(watched)
}

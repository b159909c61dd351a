//! The sandbox a package server runs in: bubblewrap (Debian's `bubblewrap`).
//!
//! What the server sees and may do:
//!
//! - **no network**: `--unshare-all` gives it its own network namespace with
//!   only a loopback of its own (and its own PID, IPC, UTS and cgroup
//!   namespaces);
//! - **a read-only system**: `/usr` (and the `/lib`, `/bin` links into it),
//!   the few files of `/etc` a runtime reads, `/proc` of its own PID
//!   namespace, a minimal `/dev`; the root itself is remounted read-only;
//! - **only its own package**: the install directory, read-only at
//!   [`PACKAGE_DIR`], and the interpreter's directory when it lives outside
//!   `/usr`. bwrap resolves these paths as the sandbox's user, so they and
//!   their parents must be readable and traversable by everyone (the install
//!   cache is made so; an interpreter under root's home is not, which is why
//!   the default Python is `/usr/bin/python3`);
//! - **a private, empty, bounded home and `/tmp`** (tmpfs);
//! - **a cleared environment**: `PATH`, `HOME`, `TMPDIR`, `LANG`, the
//!   runtime's own variables and the server.json's declared variables with
//!   placeholder values — nothing of Gatehouse's environment;
//! - **limits** set with `setrlimit` before `bwrap` starts, inherited by
//!   everything in the sandbox: address space (memory), processes, open files,
//!   CPU time, file size, no core dumps; the wall time is the crawl's (see
//!   [`super::crawl_installed`]); output is bounded by the stdio transport's
//!   message and crawl bounds.
//!
//! **The limit on processes holds even when Gatehouse runs as root.** The
//! kernel does not apply `RLIMIT_NPROC` to root, and inside a user namespace
//! that bwrap makes for root, the sandbox's processes are still root's outside
//! it. So when Gatehouse runs as root, `bwrap` itself is started under an
//! unprivileged user id of its own ([`sandbox_uid`]: a range no account uses,
//! a fresh id per sandbox so that sandboxes do not share a process count),
//! and bwrap makes an unprivileged user namespace from there. When Gatehouse
//! runs as an ordinary user, the limit counts that user's processes too, so
//! it is raised by the number that user already runs.
//!
//! **The process tree is killed at the end, whatever happens:** `bwrap` leads
//! its own process group, which the stdio pipe kills when the crawl ends;
//! `--die-with-parent` kills the sandbox when `bwrap` dies; the sandbox is a
//! PID namespace, so when its first process dies the kernel kills every
//! other; and `bwrap` gets `PR_SET_PDEATHSIG`, so it dies if Gatehouse does.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// Where the package directory appears inside the sandbox.
pub const PACKAGE_DIR: &str = "/pkg";
/// The sandbox's home directory (a private tmpfs).
pub const HOME_DIR: &str = "/home/sandbox";

/// The sandbox's resource limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Longest life of the server, start to kill (default 60 s).
    pub wall_time: Duration,
    /// Address space of each process, bytes (default 2 GiB: V8 reserves much it never uses).
    pub memory_bytes: u64,
    /// Processes and threads of the sandbox (default 128).
    pub processes: u64,
    /// Open files per process (default 256).
    pub open_files: u64,
    /// CPU seconds per process (default 60).
    pub cpu_seconds: u64,
    /// Largest file a process may write, and the size of each tmpfs (default 64 MiB).
    pub file_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            wall_time: Duration::from_secs(60),
            memory_bytes: 2 << 30,
            processes: 128,
            open_files: 256,
            cpu_seconds: 60,
            file_bytes: 64 << 20,
        }
    }
}

/// What to start in the sandbox.
#[derive(Debug, Clone)]
pub struct Launch<'a> {
    /// The install directory on the host, shown read-only at [`PACKAGE_DIR`].
    pub package_dir: &'a Path,
    /// The program, as seen inside the sandbox.
    pub program: &'a str,
    /// Its arguments.
    pub arguments: &'a [String],
    /// The environment besides `PATH`, `HOME`, `TMPDIR` and `LANG`.
    pub environment: &'a [(String, String)],
    /// Host directories shown read-only at the same path (an interpreter outside `/usr`).
    pub extra_binds: &'a [PathBuf],
}

/// Why the sandbox could not be prepared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SandboxError(pub String);

/// The `bwrap` program (`GATEHOUSE_BWRAP`, default `bwrap` on PATH).
/// resolved on PATH here, since the sandbox's environment is cleared.
pub fn bwrap_program() -> String {
    let name = std::env::var("GATEHOUSE_BWRAP").unwrap_or_else(|_| "bwrap".into());
    if name.contains('/') {
        return name;
    }
    std::env::var_os("PATH")
        .and_then(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join(&name))
                .find(|candidate| candidate.is_file())
        })
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or(name)
}

/// Whether bubblewrap is installed and can make a sandbox here, as package
/// scans make it (under a sandbox user id when Gatehouse is root).
pub fn available() -> bool {
    let launch = Launch {
        package_dir: Path::new("/usr/bin"),
        program: "/usr/bin/true",
        arguments: &[],
        environment: &[],
        extra_binds: &[],
    };
    let Ok(mut command) = command(&launch, &Limits::default()) else {
        return false;
    };
    command
        .as_std_mut()
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// First user id of the range sandboxes run under when Gatehouse is root.
const SANDBOX_UID_BASE: u32 = 2_000_000_000;
/// How many ids the range has.
const SANDBOX_UID_SPAN: u32 = 100_000;

/// A user id no account uses, different for each sandbox of this process (and,
/// through the process id, most likely from other processes' sandboxes).
pub fn sandbox_uid() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    SANDBOX_UID_BASE + (std::process::id().wrapping_mul(7919).wrapping_add(n)) % SANDBOX_UID_SPAN
}

/// The `bwrap` command for `launch`, with the limits applied when it starts.
pub fn command(
    launch: &Launch<'_>,
    limits: &Limits,
) -> Result<tokio::process::Command, SandboxError> {
    let mut args: Vec<String> = vec![
        "--unshare-all".into(),
        "--unshare-user".into(),
        "--uid".into(),
        "1000".into(),
        "--gid".into(),
        "1000".into(),
        "--disable-userns".into(),
        "--die-with-parent".into(),
        "--new-session".into(),
        "--cap-drop".into(),
        "ALL".into(),
        "--hostname".into(),
        "sandbox".into(),
        "--ro-bind".into(),
        "/usr".into(),
        "/usr".into(),
    ];
    // /lib, /lib64, /bin, /sbin: links into /usr on a merged-/usr system, else bound.
    for top in ["/lib", "/lib64", "/lib32", "/bin", "/sbin"] {
        match std::fs::read_link(top) {
            Ok(target) => args.extend([
                "--symlink".into(),
                target.to_string_lossy().into_owned(),
                top.into(),
            ]),
            Err(_) if Path::new(top).is_dir() => {
                args.extend(["--ro-bind".into(), top.into(), top.into()])
            }
            Err(_) => {}
        }
    }
    // The few files of /etc a runtime reads; nothing with secrets or names of the host.
    for file in [
        "/etc/ld.so.cache",
        "/etc/localtime",
        "/etc/timezone",
        "/etc/nsswitch.conf",
        "/etc/ssl/openssl.cnf",
    ] {
        // A link stays a link (the local time zone is named by its target).
        match std::fs::read_link(file) {
            Ok(target) => args.extend([
                "--symlink".into(),
                target.to_string_lossy().into_owned(),
                file.into(),
            ]),
            Err(_) => args.extend(["--ro-bind-try".into(), file.into(), file.into()]),
        }
    }
    let size = limits.file_bytes.to_string();
    args.extend([
        "--proc".into(),
        "/proc".into(),
        "--dev".into(),
        "/dev".into(),
    ]);
    for dir in ["/tmp", HOME_DIR] {
        args.extend(["--size".into(), size.clone(), "--tmpfs".into(), dir.into()]);
    }
    let bind = |host: &Path, inside: String, args: &mut Vec<String>| {
        if !host.is_dir() {
            return Err(SandboxError(format!(
                "{} is not a directory",
                host.display()
            )));
        }
        args.extend([
            "--ro-bind".into(),
            host.to_string_lossy().into_owned(),
            inside,
        ]);
        Ok(())
    };
    for extra in launch.extra_binds {
        bind(extra, extra.to_string_lossy().into_owned(), &mut args)?;
    }
    bind(launch.package_dir, PACKAGE_DIR.into(), &mut args)?;
    args.extend(["--remount-ro".into(), "/".into()]);
    args.extend([
        "--clearenv".into(),
        "--setenv".into(),
        "PATH".into(),
        "/usr/local/bin:/usr/bin:/bin".into(),
        "--setenv".into(),
        "HOME".into(),
        HOME_DIR.into(),
        "--setenv".into(),
        "TMPDIR".into(),
        "/tmp".into(),
        "--setenv".into(),
        "LANG".into(),
        "C.UTF-8".into(),
    ]);
    for (name, value) in launch.environment {
        args.extend(["--setenv".into(), name.clone(), value.clone()]);
    }
    args.extend(["--chdir".into(), PACKAGE_DIR.into(), "--".into()]);
    args.push(launch.program.to_string());
    args.extend(launch.arguments.iter().cloned());

    let mut command = tokio::process::Command::new(bwrap_program());
    command.args(&args).env_clear();
    let root = unsafe { libc::geteuid() } == 0;
    let uid = sandbox_uid();
    let processes = if root {
        limits.processes
    } else {
        // RLIMIT_NPROC counts every process of the user: allow for those running.
        limits.processes + tasks_of(unsafe { libc::getuid() })
    };
    let rlimits = [
        (libc::RLIMIT_AS, limits.memory_bytes),
        (libc::RLIMIT_NPROC, processes),
        (libc::RLIMIT_NOFILE, limits.open_files),
        (libc::RLIMIT_CPU, limits.cpu_seconds),
        (libc::RLIMIT_FSIZE, limits.file_bytes),
        (libc::RLIMIT_CORE, 0),
    ];
    // SAFETY: the closure runs in the forked child before exec and makes only
    // async-signal-safe system calls on values computed before the fork.
    unsafe {
        command.pre_exec(move || {
            for (resource, value) in rlimits {
                let limit = libc::rlimit {
                    rlim_cur: value as libc::rlim_t,
                    rlim_max: value as libc::rlim_t,
                };
                if libc::setrlimit(resource, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if root {
                // Leave root for an id of the sandbox's own, groups first.
                if libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setgid(uid) != 0
                    || libc::setuid(uid) != 0
                {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    Ok(command)
}

/// How many processes and threads the user `uid` runs now (RLIMIT_NPROC counts threads).
fn tasks_of(uid: u32) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|e| e.metadata().is_ok_and(|m| m.uid() == uid))
        .map(|e| {
            std::fs::read_dir(e.path().join("task"))
                .map(|t| t.count() as u64)
                .unwrap_or(1)
        })
        .sum()
}

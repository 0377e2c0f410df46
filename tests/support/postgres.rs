//! A throwaway PostgreSQL server for the tests: `initdb` in a temporary folder, the server on a
//! Unix socket there (no TCP port), a new empty database for each test. `.ci/run` starts one
//! for the whole run and names its socket's folder in `BREDON_TEST_POSTGRES`; without it, a
//! test process starts one of its own the first time a test asks, ended with the process (the
//! parent-death signal) and its folder removed then. Where PostgreSQL is not installed,
//! `server()` says why, and the tests that need it skip (or fail, under `CI=true`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub struct Server {
    bin: PathBuf,
    socket_dir: PathBuf,
    next: AtomicU32,
}

static SERVER: OnceLock<Result<Server, String>> = OnceLock::new();

/// The binary folder of PostgreSQL: where `initdb` really is (Debian links it from
/// `/usr/lib/postgresql/N/bin`, with `postgres` beside it and not on PATH).
fn bin_dir() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("initdb"))
            .find(|p| p.exists())
    });
    let debian = std::fs::read_dir("/usr/lib/postgresql").ok().and_then(|d| {
        d.filter_map(|e| e.ok())
            .map(|e| e.path().join("bin/initdb"))
            .find(|p| p.exists())
    });
    let initdb = std::fs::canonicalize(on_path.or(debian)?).ok()?;
    let dir = initdb.parent()?.to_path_buf();
    dir.join("postgres").exists().then_some(dir)
}

/// PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user.
fn server_user() -> Option<(u32, u32)> {
    // SAFETY: geteuid has no preconditions; getpwnam reads a static record, used at once.
    unsafe {
        if libc::geteuid() != 0 {
            return None;
        }
        let pw = libc::getpwnam(c"postgres".as_ptr());
        (!pw.is_null()).then(|| ((*pw).pw_uid, (*pw).pw_gid))
    }
}

fn as_server_user(command: &mut Command, user: Option<(u32, u32)>) -> &mut Command {
    use std::os::unix::process::CommandExt;
    if let Some((uid, gid)) = user {
        command.uid(uid).gid(gid);
    }
    command
}

/// Folders left by test binaries that have ended.
fn remove_stale(root: &Path) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(pid) = name.strip_prefix("bredon-pg-") {
            if !Path::new("/proc").join(pid).exists() {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
}

/// The server `.ci/run` started for the whole run (`BREDON_TEST_POSTGRES`, its socket's
/// folder), or one of this process's own.
fn shared_or_start() -> Result<Server, String> {
    let Some(socket_dir) = std::env::var_os("BREDON_TEST_POSTGRES") else {
        return start();
    };
    let bin = bin_dir().ok_or("PostgreSQL's initdb and postgres are not installed")?;
    Ok(Server {
        bin,
        socket_dir: socket_dir.into(),
        next: AtomicU32::new(0),
    })
}

fn start() -> Result<Server, String> {
    let bin = bin_dir().ok_or("PostgreSQL's initdb and postgres are not installed")?;
    let user = server_user();
    let root = std::env::temp_dir();
    remove_stale(&root);
    let dir = root.join(format!("bredon-pg-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    if let Some((uid, gid)) = user {
        std::os::unix::fs::chown(&dir, Some(uid), Some(gid)).map_err(|e| e.to_string())?;
    }
    let data = dir.join("data");
    let init = as_server_user(&mut Command::new(bin.join("initdb")), user)
        .args([
            "-U",
            "bredon",
            "-A",
            "trust",
            "-N",
            "--no-locale",
            "-E",
            "UTF8",
            "-D",
        ])
        .arg(&data)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("initdb: {e}"))?;
    if !init.status.success() {
        return Err(format!(
            "initdb failed: {}",
            String::from_utf8_lossy(&init.stderr)
        ));
    }
    let log = std::fs::File::create(dir.join("server.log")).map_err(|e| e.to_string())?;
    let mut server = Command::new(bin.join("postgres"));
    as_server_user(&mut server, user)
        .arg("-D")
        .arg(&data)
        .arg("-k")
        .arg(&dir)
        .args(["-c", "listen_addresses=", "-c", "max_connections=300"])
        .stdout(Stdio::null())
        .stderr(log);
    // SAFETY: prctl only sets this process's parent-death signal, between fork and exec.
    unsafe {
        use std::os::unix::process::CommandExt;
        server.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGQUIT);
            Ok(())
        });
    }
    // The parent-death signal follows the thread that started the server, so a thread that
    // lives as long as the test binary starts it (and waits on it), and the shell that removes
    // its folder after it.
    let (started, outcome) = std::sync::mpsc::channel();
    let folder = dir.clone();
    std::thread::spawn(move || match server.spawn() {
        Ok(mut child) => {
            let _remover = remove_when_this_ends(&folder);
            let _ = started.send(Ok(()));
            let _ = child.wait();
        }
        Err(e) => {
            let _ = started.send(Err(format!("postgres: {e}")));
        }
    });
    outcome
        .recv()
        .map_err(|_| "the thread starting postgres ended".to_string())??;
    let server = Server {
        bin,
        socket_dir: dir,
        next: AtomicU32::new(0),
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let ready = Command::new(server.bin.join("pg_isready"))
            .arg("-h")
            .arg(&server.socket_dir)
            .args(["-U", "bredon"])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ready {
            return Ok(server);
        }
        if Instant::now() > deadline {
            return Err("the throwaway PostgreSQL did not start in 30 s".into());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A shell that removes `folder` when the thread that started it ends (the parent-death
/// signal), a second after the server it holds was told to stop by the same signal.
fn remove_when_this_ends(folder: &Path) -> std::io::Result<std::process::Child> {
    use std::os::unix::process::CommandExt;
    let mut shell = Command::new("sh");
    shell
        .arg("-c")
        .arg(r#"trap 'sleep 1; rm -rf "$0"; exit 0' TERM; while :; do sleep 1; done"#)
        .arg(folder)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: prctl only sets this process's parent-death signal, between fork and exec.
    unsafe {
        shell.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
            Ok(())
        });
    }
    shell.spawn()
}

/// A new empty database on the test binary's server, or `None` when there is no PostgreSQL
/// here: the test skips, or fails under `CI=true` (`skip`).
pub fn database() -> Option<String> {
    match server() {
        Ok(server) => Some(server.database()),
        Err(why) => {
            skip("PostgreSQL", &why);
            None
        }
    }
}

/// The test binary's server, started on first use; `Err` says why there is none.
pub fn server() -> Result<&'static Server, String> {
    SERVER
        .get_or_init(shared_or_start)
        .as_ref()
        .map_err(Clone::clone)
}

impl Server {
    /// A new empty database, as a `BREDON_DATABASE_URL`.
    pub fn database(&self) -> String {
        // Named by the process too: test processes share the run's server.
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let name = format!("test_{}_{n}", std::process::id());
        let out = Command::new(self.bin.join("createdb"))
            .arg("-h")
            .arg(&self.socket_dir)
            .args(["-U", "bredon", &name])
            .output()
            .expect("createdb runs");
        assert!(
            out.status.success(),
            "createdb: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        format!(
            "host={} user=bredon dbname={name}",
            self.socket_dir.display()
        )
    }
}

/// A test that cannot run here for want of `tool` (PostgreSQL, or Node.js for the REST proxy): under `CI=true` it fails, naming the tool
/// (`.ci/run` installs every one); elsewhere it skips, saying so on the terminal itself (past
/// the test harness's capture, so a skip is seen in the run's output, though libtest counts it
/// as passed).
pub fn skip(tool: &str, why: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!("CI=true, and this test needs {tool}: {why}");
    }
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let line = format!("SKIPPED {test}: needs {tool} ({why})\n");
    let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
}

//! Hostile fixture packages (`tests/fixtures/packages/hostile`, written for
//! this repository) in the sandbox: a server that opens a network
//! connection, writes outside its directory, reads the host's home
//! directory or environment, forks without limit, allocates without limit
//! or prints without end is contained; the scan ends with a recorded error
//! in bounded time; and the host is unchanged.
//!
//! The fixture exits before answering when its attempt fails, and serves what
//! it got when the attempt succeeds, so a sandbox that let it through turns
//! the expected error into a successful crawl and the test fails.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use gatehouse::discovery::{CrawlFailure, CrawlLimits, CrawlOptions};
use gatehouse::packages::{self, Installed, Limits, PLACEHOLDER, PackageRef, RegistryType};
use gatehouse::snapshot::Snapshot;

use crate::helpers::node_sandbox;

/// Longest a contained scan may take: the wall-time limit plus the kill.
const BOUNDED: Duration = Duration::from_secs(30);

/// The fixture copied into a fresh install directory, readable by the sandbox's user.
fn install_fixture() -> (tempfile::TempDir, Installed) {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/packages/hostile");
    for file in ["index.js", "package.json"] {
        std::fs::copy(source.join(file), dir.path().join(file)).unwrap();
        std::fs::set_permissions(
            dir.path().join(file),
            std::fs::Permissions::from_mode(0o644),
        )
        .unwrap();
    }
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let node = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|d| d.join("node"))
        .find(|p| p.is_file())
        .expect("node on PATH");
    let node = std::fs::canonicalize(node).unwrap();
    let runtime_binds = if node.starts_with("/usr") {
        vec![]
    } else {
        vec![node.parent().unwrap().parent().unwrap().to_path_buf()]
    };
    let installed = Installed {
        dir: dir.path().to_path_buf(),
        program: node.display().to_string(),
        arguments: vec![format!("{}/index.js", packages::sandbox::PACKAGE_DIR)],
        environment: vec![],
        runtime_binds,
        facts: Default::default(),
        manifest: None,
        readme: None,
    };
    (dir, installed)
}

/// Limits small enough for a test, large enough for node.
fn limits() -> Limits {
    Limits {
        wall_time: Duration::from_secs(20),
        memory_bytes: 1 << 30,
        ..Limits::default()
    }
}

fn options() -> CrawlOptions {
    CrawlOptions {
        limits: CrawlLimits {
            request_timeout: Duration::from_secs(5),
            deadline: Duration::from_secs(20),
            max_crawl_bytes: 4 << 20,
            max_message_bytes: 1 << 20,
            ..CrawlLimits::default()
        },
        ..CrawlOptions::default()
    }
}

/// Runs the fixture with `args` (and `environment`) in the sandbox.
async fn run(
    installed: &Installed,
    args: &[&str],
    environment: &[(&str, &str)],
) -> (Result<Snapshot, CrawlFailure>, Duration) {
    let mut package =
        PackageRef::new(RegistryType::Npm, "gatehouse-hostile-fixture", "1.0.0").unwrap();
    package.arguments = args.iter().map(|a| a.to_string()).collect();
    package.environment = environment
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let started = Instant::now();
    let result = packages::crawl_installed(installed, &package, &limits(), &options()).await;
    (result, started.elapsed())
}

/// Asserts a contained run: an error, recorded, in bounded time.
fn assert_contained(result: &Result<Snapshot, CrawlFailure>, took: Duration, what: &str) {
    match result {
        Ok(snapshot) => panic!(
            "{what} was not contained: the server answered with {:?}",
            snapshot.tools.first().and_then(|t| t.description.clone())
        ),
        Err(failure) => assert!(!failure.message.is_empty(), "{what}: no error recorded"),
    }
    assert!(took < BOUNDED, "{what}: the scan took {took:?}");
}

/// Every file under `dir`, relative.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().filter_map(Result::ok) {
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                out.push(e.path().strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

#[tokio::test]
async fn a_package_sees_only_a_cleared_environment_with_placeholders_and_an_empty_home() {
    if !node_sandbox() {
        return;
    }
    // Arrange
    let (_dir, installed) = install_fixture();

    // Act: the benign mode serves what it sees.
    let (result, _) = run(&installed, &["env"], &[("API_KEY", PLACEHOLDER)]).await;

    // Assert
    let snapshot = result.expect("the env fixture answers");
    let seen: serde_json::Value =
        serde_json::from_str(snapshot.tools[0].description.as_deref().unwrap()).unwrap();
    let mut names: Vec<&str> = seen["env"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    names.sort();
    assert_eq!(names, ["API_KEY", "HOME", "LANG", "PATH", "PWD", "TMPDIR"]);
    assert_eq!(seen["env"]["API_KEY"], PLACEHOLDER);
    assert_eq!(seen["home"], serde_json::json!([]));
    assert_eq!(seen["uid"], 1000);
    assert_eq!(seen["cwd"], packages::sandbox::PACKAGE_DIR);
    assert_eq!(snapshot.crawl.unwrap().transport, "stdio");
}

#[tokio::test]
async fn a_network_connection_is_refused_and_the_host_listener_hears_nothing() {
    if !node_sandbox() {
        return;
    }
    // Arrange: a listener on the host's loopback.
    let (_dir, installed) = install_fixture();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let target = listener.local_addr().unwrap().to_string();

    // Act
    let (result, took) = run(&installed, &["network", &target], &[]).await;

    // Assert
    assert_contained(&result, took, "a network connection");
    assert!(
        matches!(listener.accept(), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
        "the host's listener was reached"
    );
}

#[tokio::test]
async fn writes_outside_and_inside_the_package_directory_are_refused() {
    if !node_sandbox() {
        return;
    }
    // Arrange: a host path that does not exist yet.
    let (dir, installed) = install_fixture();
    let before = files(dir.path());
    let outside = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("hostile-{}", uuid::Uuid::new_v4()))
        .join("escaped.txt");

    // Act
    let (result, took) = run(&installed, &["write", outside.to_str().unwrap()], &[]).await;

    // Assert: nothing written on the host, the package unchanged.
    assert_contained(&result, took, "a write outside the package");
    assert!(!outside.exists() && !outside.parent().unwrap().exists());
    assert_eq!(files(dir.path()), before);
}

#[tokio::test]
async fn the_host_home_directory_cannot_be_read() {
    if !node_sandbox() {
        return;
    }
    let Some(home) = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|h| h.is_dir())
    else {
        eprintln!("SKIPPED: no home directory");
        return;
    };
    // Arrange: a secret in the host's home.
    let (_dir, installed) = install_fixture();
    let secret = home.join(format!(".gatehouse-sandbox-test-{}", uuid::Uuid::new_v4()));
    std::fs::write(&secret, "host secret").unwrap();

    // Act
    let (result, took) = run(&installed, &["read-home", secret.to_str().unwrap()], &[]).await;
    let _ = std::fs::remove_file(&secret);

    // Assert
    assert_contained(&result, took, "a read of the host's home");
}

#[tokio::test]
async fn the_host_environment_does_not_reach_the_package() {
    if !node_sandbox() {
        return;
    }
    // Arrange: a variable of this process the sandbox does not set itself.
    let (_dir, installed) = install_fixture();
    let own = ["PATH", "HOME", "TMPDIR", "LANG"];
    let (name, _) = std::env::vars()
        .find(|(name, _)| !own.contains(&name.as_str()))
        .expect("the test process has an environment");

    // Act
    let (result, took) = run(&installed, &["read-env", &name], &[]).await;

    // Assert
    assert_contained(&result, took, "a read of the host's environment");
}

/// Processes of the sandboxes' user ids (2,000,000,000 and up) still alive.
fn sandbox_processes() -> usize {
    use std::os::unix::fs::MetadataExt;
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|e| e.metadata().is_ok_and(|m| m.uid() >= 2_000_000_000))
        .count()
}

#[tokio::test]
async fn a_fork_bomb_is_limited_and_every_process_is_killed_at_the_end() {
    if !node_sandbox() {
        return;
    }
    // Arrange
    let (_dir, installed) = install_fixture();

    // Act
    let (result, took) = run(&installed, &["fork-bomb"], &[]).await;

    // Assert: an error in bounded time, and (when the sandbox ran under ids of
    // its own, as root) none of its processes left once the kill is reaped.
    assert_contained(&result, took, "a fork bomb");
    if unsafe { libc::geteuid() } == 0 {
        let deadline = Instant::now() + Duration::from_secs(10);
        while sandbox_processes() > 0 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(
            sandbox_processes(),
            0,
            "sandboxed processes outlived the scan"
        );
    }
}

#[tokio::test]
async fn unbounded_allocation_ends_the_server_not_the_host() {
    if !node_sandbox() {
        return;
    }
    let (_dir, installed) = install_fixture();
    let (result, took) = run(&installed, &["alloc"], &[]).await;
    assert_contained(&result, took, "unbounded allocation");
}

#[tokio::test]
async fn endless_output_hits_the_crawl_bound() {
    if !node_sandbox() {
        return;
    }
    let (_dir, installed) = install_fixture();
    let (result, took) = run(&installed, &["flood"], &[]).await;
    assert_contained(&result, took, "endless output");
    assert_eq!(result.unwrap_err().code, "bound");
}

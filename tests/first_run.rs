//! The first ten minutes of a new user (issue 11), with the real binary:
//! `gatehouse demo` on a fresh directory, commands that refuse to invent a
//! data directory, a private data directory, the bootstrap password minimum,
//! logs without colour codes when not on a terminal, and the README's Python
//! verifier run exactly as written against an exported root.

#[path = "allowlist_support.rs"]
mod support;

use std::path::Path;
use std::process::{Command, Output};

fn gatehouse_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gatehouse"));
    command
        .args(args)
        .current_dir(dir)
        .env_remove("GATEHOUSE_DATA_DIR")
        .env_remove("GATEHOUSE_DATABASE_URL")
        .env_remove("GATEHOUSE_SCAN_ALLOW_PRIVATE")
        .env_remove("GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD");
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("run gatehouse")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn the_demo_publishes_and_scans_both_servers_and_flags_the_poisoned_one_high() {
    // Arrange: a fresh directory.
    let tmp = tempfile::tempdir().unwrap();

    // Act
    let out = gatehouse_in(
        tmp.path(),
        &[
            "--listen",
            "127.0.0.1:0",
            "demo",
            "--dir",
            "demo-data",
            "--exit-after-scan",
        ],
        &[("GATEHOUSE_LOG", "info")],
    );

    // Assert
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout: {stdout}\nstderr: {stderr}"
    );
    let line = |name: &str| {
        stdout
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("no line for {name}: {stdout}"))
            .to_string()
    };
    let poisoned = line("io.gatehouse.demo/calculator@1.0.0");
    assert!(poisoned.contains("status in_review"), "{poisoned}");
    assert!(
        poisoned.contains("max severity high") || poisoned.contains("max severity critical"),
        "{poisoned}"
    );
    let honest = line("io.gatehouse.demo/clock@1.0.0");
    assert!(honest.contains("status in_review"), "{honest}");
    assert!(
        !honest.contains("high") && !honest.contains("critical"),
        "{honest}"
    );
    assert!(stderr.contains("Bootstrap admin created"), "{stderr}");
    // Logs to a pipe carry no colour codes.
    assert!(stderr.contains("crawl finished"), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "ANSI codes in {stderr:?}");
    #[cfg(unix)]
    {
        let dir = tmp.path().join("demo-data");
        assert_eq!(mode(&dir), 0o700, "the data directory is private");
        assert_eq!(mode(&dir.join("gatehouse.db")), 0o600);
        assert_eq!(mode(&dir.join("keys/root.key")), 0o600);
    }
}

#[test]
fn commands_that_need_state_refuse_to_create_a_data_directory() {
    let tmp = tempfile::tempdir().unwrap();
    for args in [
        &["publisher", "create", "acme", "--namespace", "com.example"][..],
        &["admin", "create-token", "ops"][..],
        &["keys", "export-root"][..],
        &["keys", "rotate"][..],
    ] {
        // Act
        let out = gatehouse_in(tmp.path(), args, &[]);

        // Assert
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("no Gatehouse data directory at")
                && stderr.contains("set GATEHOUSE_DATA_DIR or run `gatehouse serve` first"),
            "{args:?}: {stderr}"
        );
        assert!(
            text(&out.stdout).is_empty(),
            "{args:?} printed a token or root"
        );
        assert!(!tmp.path().join("data").exists(), "{args:?} created ./data");
    }
}

#[test]
fn a_bootstrap_password_shorter_than_the_minimum_is_refused() {
    // Arrange
    let tmp = tempfile::tempdir().unwrap();

    // Act
    let out = gatehouse_in(
        tmp.path(),
        &["--listen", "127.0.0.1:0", "serve"],
        &[("GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD", "admin")],
    );

    // Assert: refused before serving, and no user was made.
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("at least 12 characters"),
        "{}",
        text(&out.stderr)
    );
}

/// The fenced block after `marker` in the README.
fn readme_block(marker: &str, fence: &str) -> String {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let after = &readme[readme.find(marker).expect("the marker is in the README")..];
    let start = after.find(fence).expect("a fenced block follows") + fence.len();
    let end = after[start..].find("\n```").expect("the block ends") + start;
    after[start..end].to_string()
}

#[test]
fn the_readme_python_verifier_runs_as_written_on_the_exported_root() {
    let python = std::env::var("GATEHOUSE_PYTHON").unwrap_or_else(|_| "python3".into());
    let probe = Command::new(&python)
        .args(["-c", "import cryptography, rfc8785"])
        .output();
    if !matches!(&probe, Ok(o) if o.status.success()) {
        if std::env::var("GATEHOUSE_REQUIRE_PEERS").is_ok_and(|v| v == "1") {
            panic!("GATEHOUSE_REQUIRE_PEERS=1 but Python with cryptography and rfc8785 is missing");
        }
        eprintln!("SKIPPED: the README verifier needs Python with cryptography and rfc8785");
        return;
    }
    // Arrange: a registry's keys, its root exported by the CLI, an allowlist it signed.
    let registry = support::Registry::new();
    let data = registry.data_dir();
    let exported =
        support::gatehouse(&["--data-dir", data.to_str().unwrap(), "keys", "export-root"]);
    assert_eq!(
        exported.status.code(),
        Some(0),
        "{}",
        text(&exported.stderr)
    );
    let root = registry.write("root.json", &exported.stdout);
    let allowlist = registry.write("allowlist.json", &registry.current_allowlist(3));
    let tool = registry.write(
        "tool.json",
        &serde_json::to_vec(&support::forecast_tool()).unwrap(),
    );
    let verifier = registry.write(
        "readme_verifier.py",
        readme_block("A minimal Python verifier", "```python\n").as_bytes(),
    );
    let driver = "import json, sys\n\
        exec(open(sys.argv[1]).read())\n\
        root = load_root(json.load(open(sys.argv[2])))\n\
        doc = verify(json.load(open(sys.argv[3])), root)\n\
        print(json.dumps({'version': doc['version'], 'pin': tool_pin(json.load(open(sys.argv[4])))}))\n";

    // Act: the block as written, then its functions on the real files.
    let out = Command::new(&python)
        .args(["-c", driver])
        .arg(&verifier)
        .arg(&root)
        .arg(&allowlist)
        .arg(&tool)
        .output()
        .unwrap();

    // Assert
    assert!(out.status.success(), "{}", text(&out.stderr));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["version"], 3);
    assert_eq!(
        answer["pin"],
        gatehouse::allowlist::pin_tool(&serde_json::from_value(support::forecast_tool()).unwrap())
    );
}

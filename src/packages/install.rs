//! Installing one package at its exact version, without running any of its code.
//!
//! - **npm**: `npm install --ignore-scripts` of `NAME@VERSION` into a private
//!   prefix (no `preinstall`/`install`/`postinstall` script of the package or
//!   of any dependency runs). The resolved version, integrity hash and
//!   dependency count are read from `node_modules/.package-lock.json`; the
//!   server is the package's `bin` (the one named like the package, or the
//!   only one), run with the host's `node`.
//! - **PyPI**: `pip install --only-binary=:all: --target DIR NAME==VERSION`:
//!   wheels only, so no `setup.py` or build backend runs; a package or
//!   dependency with no wheel is [`InstallError::SourceOnly`] (finding
//!   GH-PKG-001). `--report` gives the resolved version, the sha256 of each
//!   wheel and the metadata (the README). The server is the package's
//!   `console_scripts` entry point, called the way pip's launcher calls it.
//!
//! Installs are cached under `DATA_DIR/packages/<registry>/<key>`, the key
//! the SHA-256 of registry, identifier and version. Published versions are
//! immutable on both registries (npm refuses to republish a version, PyPI a
//! file), so the version names the integrity hash; the hash is recorded with
//! the install (`install.json`) and in every scan's `crawl.package`. An
//! install is made in a temporary directory and renamed into place once
//! complete, so a half-done install is never reused.
//!
//! npm and pip run on the host, outside the sandbox, as Gatehouse's user:
//! they fetch and unpack, and with scripts disabled and wheels only they run
//! nothing from the package. What a package says about itself (its name,
//! `bin`, entry points) is checked against strict patterns before it is used.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::{PackageRef, PackagesConfig, RegistryType};
use crate::snapshot::PackageInfo;

/// An installed package, ready to start in the sandbox.
#[derive(Debug, Clone)]
pub struct Installed {
    /// The install directory on the host; the sandbox shows it read-only at [`super::sandbox::PACKAGE_DIR`].
    pub dir: PathBuf,
    /// The interpreter to start, as seen inside the sandbox.
    pub program: String,
    /// Its arguments before the package's own (the script, or `-c` and the launcher).
    pub arguments: Vec<String>,
    /// Environment the runtime needs (`PYTHONPATH`, …).
    pub environment: Vec<(String, String)>,
    /// Host directories the interpreter lives in outside `/usr`, shown read-only at the same path.
    pub runtime_binds: Vec<PathBuf>,
    /// What was installed.
    pub facts: PackageInfo,
    /// npm: the package's `package.json`.
    pub manifest: Option<Value>,
    /// PyPI: the package's long description (README), bounded.
    pub readme: Option<String>,
}

/// Why an install failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InstallError {
    /// A package or dependency with no wheel (PyPI): named requirement.
    #[error("no wheel for {0}: only a source distribution, or nothing, was found")]
    SourceOnly(String),
    /// The registry has no such package or version (npm E404, ETARGET): trying again will not help.
    #[error("{0}")]
    NotFound(String),
    /// The installer is missing or failed to start.
    #[error("{0}")]
    Tool(String),
    /// The registry refused or the installer failed (bounded stderr quoted).
    #[error("{0}")]
    Failed(String),
    /// What the package says about itself cannot be used (no entry point, a path outside it).
    #[error("{0}")]
    Unusable(String),
}

impl InstallError {
    /// Whether trying again later may help.
    pub fn retryable(&self) -> bool {
        matches!(self, InstallError::Failed(_))
    }
}

/// What `install.json` keeps: enough to start the package again without reinstalling.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Record {
    program: String,
    arguments: Vec<String>,
    environment: Vec<(String, String)>,
    runtime_binds: Vec<PathBuf>,
    facts: PackageInfo,
    readme: Option<String>,
}

/// Longest README kept for the ownership check.
const MAX_README: usize = 256 * 1024;
/// Most bytes of an installer's stderr quoted in an error.
const MAX_STDERR: usize = 600;

/// Installs `package` (or takes it from the cache).
pub async fn install(
    package: &PackageRef,
    config: &PackagesConfig,
) -> Result<Installed, InstallError> {
    let started = Instant::now();
    let key = hex::encode(Sha256::digest(
        format!(
            "{}\0{}\0{}",
            package.registry.as_str(),
            package.identifier,
            package.version
        )
        .as_bytes(),
    ));
    let root = config.cache_dir.join(package.registry.as_str());
    let dir = root.join(&key[..32]);
    if let Some(mut installed) = cached(&dir) {
        installed.facts.cached = true;
        installed.facts.install_ms = started.elapsed().as_millis() as u64;
        return Ok(installed);
    }
    std::fs::create_dir_all(&root)
        .map_err(|e| InstallError::Tool(format!("{}: {e}", root.display())))?;
    // The sandbox's user resolves the install's path itself: every directory
    // on it must be traversable (the data directory's own mode is the
    // operator's; README, "Package servers").
    for dir in [&config.cache_dir, &root] {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755));
    }
    let scratch = tempdir_in(&root)?;
    let made = match package.registry {
        RegistryType::Npm => install_npm(package, config, &scratch).await,
        RegistryType::Pypi => install_pypi(package, config, &scratch).await,
        other => Err(InstallError::Unusable(format!(
            "{} packages are not installed",
            other.as_str()
        ))),
    };
    let mut record = match made {
        Ok(record) => record,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&scratch);
            return Err(e);
        }
    };
    record.facts.install_ms = started.elapsed().as_millis() as u64;
    let text = serde_json::to_vec_pretty(&record).expect("a record serialises");
    std::fs::write(scratch.join("install.json"), text)
        .map_err(|e| InstallError::Tool(format!("writing install.json: {e}")))?;
    // World-readable, so that the sandbox's unprivileged user can read it.
    make_readable(&scratch);
    if std::fs::rename(&scratch, &dir).is_err() {
        // Another scan installed the same version meanwhile: use theirs.
        let _ = std::fs::remove_dir_all(&scratch);
    }
    let mut installed = cached(&dir)
        .ok_or_else(|| InstallError::Tool(format!("{}: the install vanished", dir.display())))?;
    installed.facts.install_ms = record.facts.install_ms;
    Ok(installed)
}

/// A complete install in `dir`, if there is one.
fn cached(dir: &Path) -> Option<Installed> {
    let text = std::fs::read(dir.join("install.json")).ok()?;
    let record: Record = serde_json::from_slice(&text).ok()?;
    let manifest = match record.facts.registry_type.as_str() {
        "npm" => {
            let path = dir
                .join("node_modules")
                .join(&record.facts.identifier)
                .join("package.json");
            let bytes = std::fs::read(path).ok()?;
            serde_json::from_slice(&bytes).ok()
        }
        _ => None,
    };
    Some(Installed {
        dir: dir.to_path_buf(),
        program: record.program,
        arguments: record.arguments,
        environment: record.environment,
        runtime_binds: record.runtime_binds,
        facts: record.facts,
        manifest,
        readme: record.readme,
    })
}

fn tempdir_in(root: &Path) -> Result<PathBuf, InstallError> {
    let dir = root.join(format!(".tmp-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir(&dir).map_err(|e| InstallError::Tool(format!("{}: {e}", dir.display())))?;
    Ok(dir)
}

/// Runs an installer with a time limit; `Err` carries its bounded stderr.
async fn run_tool(
    mut command: tokio::process::Command,
    what: &str,
    config: &PackagesConfig,
) -> Result<Result<Vec<u8>, String>, InstallError> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let child = command
        .spawn()
        .map_err(|e| InstallError::Tool(format!("starting {what}: {e}")))?;
    let output = tokio::time::timeout(config.install_timeout, child.wait_with_output())
        .await
        .map_err(|_| {
            InstallError::Failed(format!(
                "{what} took longer than {} s",
                config.install_timeout.as_secs()
            ))
        })?
        .map_err(|e| InstallError::Tool(format!("{what}: {e}")))?;
    if output.status.success() {
        Ok(Ok(output.stdout))
    } else {
        Ok(Err(String::from_utf8_lossy(&output.stderr).into_owned()))
    }
}

fn quoted(stderr: &str) -> String {
    let tail: String = stderr
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" | ");
    crate::analysis::normalize::visible(crate::analysis::normalize::truncate(&tail, MAX_STDERR))
}

async fn install_npm(
    package: &PackageRef,
    config: &PackagesConfig,
    dir: &Path,
) -> Result<Record, InstallError> {
    // A package.json of our own, so that npm never looks above the prefix.
    std::fs::write(
        dir.join("package.json"),
        br#"{"name":"gatehouse-sandbox","private":true}"#,
    )
    .map_err(|e| InstallError::Tool(format!("{}: {e}", dir.display())))?;
    let mut npm = tokio::process::Command::new(&config.npm);
    npm.args([
        "install",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        "--no-update-notifier",
        "--save-exact",
        "--omit=dev",
        "--prefix",
    ])
    .arg(dir)
    .arg(format!("{}@{}", package.identifier, package.version))
    .env("npm_config_ignore_scripts", "true")
    .current_dir(dir);
    if let Err(stderr) = run_tool(npm, "npm install", config).await? {
        let message = format!("npm install failed: {}", quoted(&stderr));
        if stderr.contains("E404") || stderr.contains("ETARGET") {
            return Err(InstallError::NotFound(message));
        }
        return Err(InstallError::Failed(message));
    }
    let lock: Value = read_json(&dir.join("node_modules/.package-lock.json"))?;
    let packages = lock
        .get("packages")
        .and_then(Value::as_object)
        .ok_or_else(|| InstallError::Unusable("package-lock has no packages".into()))?;
    let entry = packages
        .get(&format!("node_modules/{}", package.identifier))
        .ok_or_else(|| InstallError::Unusable("the package is not in its lock file".into()))?;
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let package_dir = dir.join("node_modules").join(&package.identifier);
    let manifest: Value = read_json(&package_dir.join("package.json"))?;
    let script = npm_bin(&manifest, &package.identifier)?;
    if !package_dir.join(&script).is_file() {
        return Err(InstallError::Unusable(format!(
            "the package's bin {script:?} is not a file in the package"
        )));
    }
    let node =
        find_program("node").ok_or_else(|| InstallError::Tool("node is not on PATH".into()))?;
    let (program, runtime_binds) = runtime(&node);
    Ok(Record {
        program,
        arguments: vec![format!(
            "{}/node_modules/{}/{}",
            super::sandbox::PACKAGE_DIR,
            package.identifier,
            script
        )],
        environment: vec![("NODE_ENV".into(), "production".into())],
        runtime_binds,
        facts: PackageInfo {
            registry_type: "npm".into(),
            identifier: package.identifier.clone(),
            version: package.version.clone(),
            resolved_version: text(entry, "version"),
            integrity: text(entry, "integrity"),
            // Every installed package but the root ("") and the package itself.
            dependencies: packages.len().saturating_sub(2) as u64,
            ..PackageInfo::default()
        },
        readme: None,
    })
}

/// The script of the package's `bin`: the entry named like the package
/// (without its scope), else the only one. A path leaving the package is refused.
fn npm_bin(manifest: &Value, identifier: &str) -> Result<String, InstallError> {
    let unscoped = identifier.rsplit('/').next().unwrap_or(identifier);
    let script = match manifest.get("bin") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Object(bins)) => bins
            .get(unscoped)
            .or_else(|| (bins.len() == 1).then(|| bins.values().next()).flatten())
            .or_else(|| bins.values().next())
            .and_then(Value::as_str)
            .map(str::to_string),
        _ => None,
    }
    .ok_or_else(|| InstallError::Unusable("the package declares no bin to start".into()))?;
    let path = Path::new(&script);
    let inside = !path.is_absolute()
        && path.components().all(|c| {
            matches!(
                c,
                std::path::Component::Normal(_) | std::path::Component::CurDir
            )
        });
    if !inside || script.len() > 512 || script.contains('\0') {
        return Err(InstallError::Unusable(format!(
            "the package's bin {:?} leaves the package",
            crate::analysis::normalize::truncate(&script, 100)
        )));
    }
    Ok(script.trim_start_matches("./").to_string())
}

/// The interpreter's path inside the sandbox, and the host directory to show
/// there when it lives outside `/usr` (pyenv, nvm, a tarball in /opt).
fn runtime(program: &Path) -> (String, Vec<PathBuf>) {
    let real = std::fs::canonicalize(program).unwrap_or_else(|_| program.to_path_buf());
    let binds = if real.starts_with("/usr") {
        Vec::new()
    } else {
        // `<prefix>/bin/node` → `<prefix>`: the interpreter with its libraries.
        real.parent()
            .and_then(Path::parent)
            .map(|p| vec![p.to_path_buf()])
            .unwrap_or_default()
    };
    (real.to_string_lossy().into_owned(), binds)
}

fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

async fn install_pypi(
    package: &PackageRef,
    config: &PackagesConfig,
    dir: &Path,
) -> Result<Record, InstallError> {
    // The interpreter that will run the package: its real path and prefix.
    let mut probe = tokio::process::Command::new(&config.python);
    probe.args([
        "-I",
        "-c",
        "import json, os, sys; print(json.dumps([os.path.realpath(sys.executable), sys.base_prefix]))",
    ]);
    let probed = run_tool(probe, "python", config)
        .await?
        .map_err(|e| InstallError::Tool(format!("python: {}", quoted(&e))))?;
    let (executable, prefix): (String, String) = serde_json::from_slice(&probed)
        .map_err(|e| InstallError::Tool(format!("python's answer: {e}")))?;
    let site = dir.join("site");
    let report_path = dir.join("pip-report.json");
    let mut pip = tokio::process::Command::new(&config.python);
    pip.args([
        "-I",
        "-m",
        "pip",
        "install",
        "--only-binary=:all:",
        "--no-input",
        "--disable-pip-version-check",
        "--no-warn-script-location",
        "--no-compile",
        "--quiet",
        "--report",
    ])
    .arg(&report_path)
    .arg("--target")
    .arg(&site)
    .arg(format!("{}=={}", package.identifier, package.version))
    .env("PIP_NO_INPUT", "1")
    .current_dir(dir);
    if let Err(stderr) = run_tool(pip, "pip install", config).await? {
        if let Some(requirement) = source_only(&stderr) {
            return Err(InstallError::SourceOnly(requirement));
        }
        return Err(InstallError::Failed(format!(
            "pip install failed: {}",
            quoted(&stderr)
        )));
    }
    let report: Value = read_json(&report_path)?;
    let items = report
        .get("install")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let wanted = normalise_pypi(&package.identifier);
    let main = items
        .iter()
        .find(|i| {
            i.pointer("/metadata/name")
                .and_then(Value::as_str)
                .is_some_and(|n| normalise_pypi(n) == wanted)
        })
        .ok_or_else(|| InstallError::Unusable("the package is not in pip's report".into()))?;
    let text = |p: &str| main.pointer(p).and_then(Value::as_str).unwrap_or("");
    let resolved = text("/metadata/version").to_string();
    let integrity = main
        .pointer("/download_info/archive_info/hashes/sha256")
        .and_then(Value::as_str)
        .map(|h| format!("sha256={h}"))
        .unwrap_or_default();
    let readme = Some(
        crate::analysis::normalize::truncate(text("/metadata/description"), MAX_README).to_string(),
    );
    let (module, attr, script) = entry_point(&site, &wanted, &resolved)?;
    let launcher =
        format!("import sys; sys.argv[0] = {script:?}; import {module} as m; sys.exit(m.{attr}())");
    let (program, mut runtime_binds) = runtime(Path::new(&executable));
    if !Path::new(&prefix).starts_with("/usr") {
        runtime_binds = vec![PathBuf::from(&prefix)];
    }
    Ok(Record {
        program,
        arguments: vec!["-c".into(), launcher],
        environment: vec![
            (
                "PYTHONPATH".into(),
                format!("{}/site", super::sandbox::PACKAGE_DIR),
            ),
            ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
            ("PYTHONNOUSERSITE".into(), "1".into()),
            ("PYTHONUNBUFFERED".into(), "1".into()),
        ],
        runtime_binds,
        facts: PackageInfo {
            registry_type: "pypi".into(),
            identifier: package.identifier.clone(),
            version: package.version.clone(),
            resolved_version: resolved,
            integrity,
            dependencies: items.len().saturating_sub(1) as u64,
            ..PackageInfo::default()
        },
        readme,
    })
}

/// The requirement pip could find no wheel for, from its error output.
fn source_only(stderr: &str) -> Option<String> {
    let line = stderr
        .lines()
        .find_map(|l| l.split_once("No matching distribution found for "))?
        .1;
    Some(crate::analysis::normalize::truncate(line.trim(), 200).to_string())
}

/// PEP 503 normalisation: lower case, runs of `-_.` as one `-`.
fn normalise_pypi(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            if !out.ends_with('-') {
                out.push('-');
            }
        } else {
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

/// The package's `console_scripts` entry point: the one named like the
/// package, else the first. Module and attribute must be dotted Python
/// identifiers: they are put into the launcher's source.
fn entry_point(
    site: &Path,
    normalised: &str,
    version: &str,
) -> Result<(String, String, String), InstallError> {
    let dist_info = std::fs::read_dir(site)
        .map_err(|e| InstallError::Unusable(format!("{}: {e}", site.display())))?
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|name| {
            name.strip_suffix(".dist-info")
                .and_then(|stem| stem.rsplit_once('-'))
                .is_some_and(|(n, v)| normalise_pypi(n) == normalised && v == version)
        })
        .ok_or_else(|| InstallError::Unusable("the package's dist-info is missing".into()))?;
    let text = std::fs::read_to_string(site.join(dist_info).join("entry_points.txt"))
        .map_err(|_| InstallError::Unusable("the package declares no entry point".into()))?;
    let mut in_scripts = false;
    let mut scripts = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_scripts = line == "[console_scripts]";
        } else if in_scripts && let Some((name, target)) = line.split_once('=') {
            scripts.push((name.trim().to_string(), target.trim().to_string()));
        }
    }
    let (name, target) = scripts
        .iter()
        .find(|(n, _)| normalise_pypi(n) == normalised)
        .or_else(|| scripts.first())
        .cloned()
        .ok_or_else(|| InstallError::Unusable("the package declares no console script".into()))?;
    let (module, attr) = target
        .split_once(':')
        .ok_or_else(|| InstallError::Unusable("an entry point without module:function".into()))?;
    let attr = attr.split('[').next().unwrap_or(attr).trim();
    let dotted = |s: &str| {
        !s.is_empty()
            && s.len() <= 200
            && s.split('.').all(|part| {
                part.chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            })
    };
    let name_ok = !name.is_empty()
        && name.len() <= 100
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if !dotted(module.trim()) || !dotted(attr) || !name_ok {
        return Err(InstallError::Unusable(
            "the package's entry point is not a plain module:function".into(),
        ));
    }
    Ok((module.trim().to_string(), attr.to_string(), name))
}

fn read_json(path: &Path) -> Result<Value, InstallError> {
    let bytes = std::fs::read(path)
        .map_err(|e| InstallError::Unusable(format!("{}: {e}", path.display())))?;
    serde_json::from_slice(&bytes)
        .map_err(|e| InstallError::Unusable(format!("{}: {e}", path.display())))
}

/// Directories 0755 and files readable by all, recursively (no symlink is followed).
pub(crate) fn make_readable(root: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755));
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file()
                && let Ok(meta) = entry.metadata()
            {
                let mode = meta.permissions().mode() | 0o444;
                let _ = std::fs::set_permissions(
                    entry.path(),
                    std::fs::Permissions::from_mode(mode & 0o7777 & !0o6000),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_bin_named_like_the_package_is_chosen_and_escapes_are_refused() {
        let manifest = json!({"bin": {"other": "a.js", "server-memory": "dist/index.js"}});
        assert_eq!(
            npm_bin(&manifest, "@modelcontextprotocol/server-memory").unwrap(),
            "dist/index.js"
        );
        assert_eq!(npm_bin(&json!({"bin": "./cli.js"}), "x").unwrap(), "cli.js");
        for bad in ["../../etc/passwd", "/bin/sh", "a/../../b"] {
            assert!(npm_bin(&json!({ "bin": bad }), "x").is_err(), "{bad}");
        }
        assert!(npm_bin(&json!({}), "x").is_err());
    }

    #[test]
    fn pip_errors_name_the_source_only_requirement() {
        let stderr = "ERROR: Could not find a version that satisfies the requirement x==1 (from versions: none)\nERROR: No matching distribution found for x==1\n";
        assert_eq!(source_only(stderr).as_deref(), Some("x==1"));
        assert_eq!(source_only("ERROR: network down"), None);
        assert_eq!(normalise_pypi("MCP_Server.time"), "mcp-server-time");
    }
}

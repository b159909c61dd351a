//! Package servers: install the exact version a `server.json` names, start it
//! in a sandbox, crawl it over stdio, and check who owns it.
//!
//! Most MCP servers are published as packages that a client starts on the
//! user's own machine (server.json `packages[]`). Gatehouse scans them the way
//! it scans a remote, with three steps in front of the crawl:
//!
//! 1. **Install** ([`install`]): npm packages with lifecycle scripts disabled
//!    into a private prefix; PyPI packages from wheels only into a private
//!    directory (an sdist-only package or dependency is finding GH-PKG-001,
//!    never an install). Installs are cached under `DATA_DIR/packages`.
//! 2. **Sandbox** ([`sandbox`]): bubblewrap with no network, a read-only view
//!    of the system, private empty home and `/tmp`, the package directory
//!    read-only, a cleared environment with the declared variables set to
//!    placeholders, resource limits, and the whole process tree killed at the
//!    end.
//! 3. **Crawl** with the discovery code's stdio transport
//!    ([`crate::discovery::crawl_prepared`]): the same era probe
//!    (`server/discover`, then `initialize`), lists and bounds as a remote.
//!
//! [`ownership`] holds the checks the official registry makes of a package
//! (npm `mcpName`, the `mcp-name:` line of a PyPI or NuGet README).
//!
//! Everything in a package and its metadata is hostile: names and versions
//! are checked against strict patterns before they reach a command line, no
//! shell is ever involved, and text taken from a package is bounded.

pub mod install;
pub mod ownership;
pub mod sandbox;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::analysis::{Category, Finding, Severity, catalogue::ids};
use crate::discovery::{self, CrawlOptions};
use crate::snapshot::{Snapshot, Target};

pub use install::{InstallError, Installed};
pub use sandbox::Limits;

/// The package registries `server.json` names (`packages[].registryType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegistryType {
    /// npmjs.com: installed and crawled.
    Npm,
    /// PyPI: installed from wheels and crawled.
    Pypi,
    /// NuGet: ownership checked from the README when known; not run yet.
    Nuget,
    /// An OCI image: not run yet.
    Oci,
    /// An MCPB bundle: not run yet.
    Mcpb,
}

impl RegistryType {
    /// The `registryType` spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            RegistryType::Npm => "npm",
            RegistryType::Pypi => "pypi",
            RegistryType::Nuget => "nuget",
            RegistryType::Oci => "oci",
            RegistryType::Mcpb => "mcpb",
        }
    }

    fn parse(text: &str) -> Option<RegistryType> {
        Some(match text {
            "npm" => RegistryType::Npm,
            "pypi" => RegistryType::Pypi,
            "nuget" => RegistryType::Nuget,
            "oci" => RegistryType::Oci,
            "mcpb" => RegistryType::Mcpb,
            _ => return None,
        })
    }

    /// Whether the sandbox installs and runs packages of this registry.
    pub fn runs(self) -> bool {
        matches!(self, RegistryType::Npm | RegistryType::Pypi)
    }
}

/// One package at one exact version, with the command line and environment
/// its server is started with (placeholders for what a user would supply).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageRef {
    /// Which registry.
    pub registry: RegistryType,
    /// The package name (npm: `@scope/name`; PyPI: the project name).
    pub identifier: String,
    /// The exact version.
    pub version: String,
    /// Arguments for the server (`packageArguments`), placeholders filled in.
    pub arguments: Vec<String>,
    /// Environment variables (`environmentVariables`), placeholders as values.
    pub environment: Vec<(String, String)>,
}

/// Why a package reference was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadPackage(pub String);

/// Most arguments or environment variables taken from one package entry.
const MAX_DECLARED: usize = 64;
/// Longest argument or environment value taken from a package entry.
const MAX_VALUE: usize = 1024;

/// The placeholder for a declared value a user would supply.
pub const PLACEHOLDER: &str = "gatehouse-placeholder";
/// The placeholder for a `filepath` input: an existing, empty, private directory.
pub const PLACEHOLDER_PATH: &str = "/tmp";

impl PackageRef {
    /// Parses the command line's spelling: `npm:NAME@VERSION` or `pypi:NAME==VERSION`.
    pub fn parse_spec(spec: &str) -> Result<PackageRef, BadPackage> {
        let bad = || {
            BadPackage(format!(
                "{:?} is not npm:NAME@VERSION or pypi:NAME==VERSION",
                crate::analysis::normalize::truncate(spec, 120)
            ))
        };
        let (registry, rest) = spec.split_once(':').ok_or_else(bad)?;
        let (identifier, version) = match registry {
            "npm" => {
                // The version follows the last `@` that is not the scope's.
                let at = rest.rfind('@').filter(|&i| i > 0).ok_or_else(bad)?;
                (&rest[..at], &rest[at + 1..])
            }
            "pypi" => rest.split_once("==").ok_or_else(bad)?,
            _ => return Err(bad()),
        };
        let registry = RegistryType::parse(registry).ok_or_else(bad)?;
        PackageRef::new(registry, identifier, version)
    }

    /// A package with no arguments and no environment, its name and version checked.
    pub fn new(
        registry: RegistryType,
        identifier: &str,
        version: &str,
    ) -> Result<PackageRef, BadPackage> {
        check_identifier(registry, identifier)?;
        check_version(registry, version)?;
        Ok(PackageRef {
            registry,
            identifier: identifier.to_string(),
            version: version.to_string(),
            arguments: Vec::new(),
            environment: Vec::new(),
        })
    }

    /// One `packages[]` entry of a server.json: registry, identifier,
    /// version, `packageArguments` and `environmentVariables` (placeholders
    /// for every value a user would supply; fixed, non-secret values kept).
    /// `runtimeArguments` are for the runtime (`npx`, `uvx`, `docker`) and are
    /// not passed: the sandbox starts the package's entry point itself.
    pub fn from_server_json(entry: &Value) -> Result<PackageRef, BadPackage> {
        let text = |key: &str| entry.get(key).and_then(Value::as_str).unwrap_or_default();
        let registry = RegistryType::parse(text("registryType")).ok_or_else(|| {
            BadPackage(format!(
                "registryType {:?} is not one of npm, pypi, nuget, oci, mcpb",
                crate::analysis::normalize::truncate(text("registryType"), 40)
            ))
        })?;
        let mut package = if registry.runs() {
            PackageRef::new(registry, text("identifier"), text("version"))?
        } else {
            // Not run: kept for the record only, never put on a command line.
            PackageRef {
                registry,
                identifier: crate::analysis::normalize::truncate(text("identifier"), 300)
                    .to_string(),
                version: crate::analysis::normalize::truncate(text("version"), 64).to_string(),
                arguments: Vec::new(),
                environment: Vec::new(),
            }
        };
        let list = |key: &str| {
            entry
                .get(key)
                .and_then(Value::as_array)
                .map(|a| a.iter().take(MAX_DECLARED).collect::<Vec<_>>())
                .unwrap_or_default()
        };
        for argument in list("packageArguments") {
            let value = placeholder(argument);
            match argument.get("type").and_then(Value::as_str) {
                Some("named") => {
                    let Some(name) = argument.get("name").and_then(Value::as_str) else {
                        continue;
                    };
                    if !name.starts_with('-') || name.len() > 128 || name.contains('\0') {
                        return Err(BadPackage(format!(
                            "named argument {:?} is not a flag",
                            crate::analysis::normalize::truncate(name, 60)
                        )));
                    }
                    // A flag with no value given or asked for stands alone.
                    let bare = argument.get("value").is_none()
                        && argument.get("default").is_none()
                        && argument.get("format").and_then(Value::as_str) == Some("boolean");
                    if bare {
                        package.arguments.push(name.to_string());
                    } else {
                        package.arguments.push(name.to_string());
                        package.arguments.push(value);
                    }
                }
                _ => package.arguments.push(value),
            }
        }
        for variable in list("environmentVariables") {
            let name = variable
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if !valid_env_name(name) {
                return Err(BadPackage(format!(
                    "environment variable name {:?} is not [A-Za-z_][A-Za-z0-9_]*",
                    crate::analysis::normalize::truncate(name, 60)
                )));
            }
            package
                .environment
                .push((name.to_string(), placeholder(variable)));
        }
        Ok(package)
    }

    /// The command line's spelling of this package.
    pub fn spec(&self) -> String {
        match self.registry {
            RegistryType::Pypi => format!("pypi:{}=={}", self.identifier, self.version),
            other => format!("{}:{}@{}", other.as_str(), self.identifier, self.version),
        }
    }
}

/// The value a sandboxed server gets for a declared input: a fixed,
/// non-secret `value` as published (without `{variables}`), else the first
/// choice, else a non-secret default, else a placeholder of the right shape.
fn placeholder(input: &Value) -> String {
    let text = |key: &str| input.get(key).and_then(Value::as_str);
    let secret = input.get("isSecret").and_then(Value::as_bool) == Some(true);
    let usable = |v: &str| v.len() <= MAX_VALUE && !v.contains('\0') && !v.contains('{');
    if !secret {
        if let Some(v) = text("value").filter(|v| usable(v)) {
            return v.to_string();
        }
        if let Some(v) = input
            .get("choices")
            .and_then(Value::as_array)
            .and_then(|c| c.first())
            .and_then(Value::as_str)
            .filter(|v| usable(v))
        {
            return v.to_string();
        }
        if let Some(v) = text("default").filter(|v| usable(v)) {
            return v.to_string();
        }
    }
    match text("format") {
        Some("filepath") => PLACEHOLDER_PATH.into(),
        Some("number") => "1".into(),
        Some("boolean") => "false".into(),
        _ => PLACEHOLDER.into(),
    }
}

fn valid_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    name.len() <= 128
        && chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// npm names (`@scope/name`, lower case, URL-safe) and PyPI project names
/// (PEP 508 names), never starting with `-` or `.`, so that a name can never
/// be read as an option or a path.
fn check_identifier(registry: RegistryType, identifier: &str) -> Result<(), BadPackage> {
    let part_ok = |part: &str, extra: &str| {
        !part.is_empty()
            && part
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric())
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || extra.contains(c))
    };
    let ok = match registry {
        RegistryType::Npm => {
            identifier.len() <= 214
                && identifier == identifier.to_ascii_lowercase()
                && match identifier.strip_prefix('@') {
                    Some(scoped) => scoped.split_once('/').is_some_and(|(scope, name)| {
                        part_ok(scope, "-._~") && part_ok(name, "-._~")
                    }),
                    None => part_ok(identifier, "-._~"),
                }
        }
        RegistryType::Pypi => identifier.len() <= 100 && part_ok(identifier, "-._"),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(BadPackage(format!(
            "{:?} is not a valid {} package name",
            crate::analysis::normalize::truncate(identifier, 120),
            registry.as_str()
        )))
    }
}

/// An exact version: npm's semver (no range), PyPI's PEP 440 characters with
/// no operator.
fn check_version(registry: RegistryType, version: &str) -> Result<(), BadPackage> {
    let ok = match registry {
        RegistryType::Npm => semver::Version::parse(version).is_ok() && version.len() <= 64,
        RegistryType::Pypi => {
            !version.is_empty()
                && version.len() <= 64
                && version.starts_with(|c: char| c.is_ascii_digit())
                && version
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._+!-".contains(c))
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(BadPackage(format!(
            "{:?} is not an exact {} version",
            crate::analysis::normalize::truncate(version, 64),
            registry.as_str()
        )))
    }
}

/// Where installs go and which tools make them.
#[derive(Debug, Clone)]
pub struct PackagesConfig {
    /// The install cache, `DATA_DIR/packages`.
    pub cache_dir: PathBuf,
    /// The npm program (default `npm`).
    pub npm: String,
    /// The Python interpreter packages are installed for and run with
    /// (default `/usr/bin/python3`, else `python3`; `GATEHOUSE_PACKAGE_PYTHON`).
    pub python: String,
    /// Longest install.
    pub install_timeout: Duration,
    /// The sandbox's limits.
    pub limits: Limits,
}

impl PackagesConfig {
    /// Defaults under `data_dir`.
    pub fn new(data_dir: &std::path::Path) -> PackagesConfig {
        PackagesConfig {
            cache_dir: data_dir.join("packages"),
            npm: std::env::var("GATEHOUSE_PACKAGE_NPM").unwrap_or_else(|_| "npm".into()),
            python: std::env::var("GATEHOUSE_PACKAGE_PYTHON").unwrap_or_else(|_| default_python()),
            install_timeout: Duration::from_secs(300),
            limits: Limits::default(),
        }
    }
}

/// The system's Python when there is one: it lives under `/usr`, which the
/// sandbox shows; an interpreter elsewhere (pyenv under a home directory)
/// must be readable by the sandbox's user. Else `python3` on PATH.
fn default_python() -> String {
    if std::path::Path::new("/usr/bin/python3").is_file() {
        "/usr/bin/python3".into()
    } else {
        "python3".into()
    }
}

/// What scanning one package produced: the crawl's snapshot (with the install
/// facts under `crawl.package`) when the server ran, and the package's own
/// findings (ownership, install problems).
#[derive(Debug, Clone, Default)]
pub struct PackageScan {
    /// The crawl, when the server ran and answered.
    pub snapshot: Option<Snapshot>,
    /// Findings about the package itself, added to the analysis's.
    pub findings: Vec<Finding>,
    /// Why there is no snapshot, when the package was meant to run.
    pub error: Option<String>,
    /// Whether trying again later may help (a registry or network failure).
    pub retryable: bool,
}

/// Installs `package`, checks its ownership against `server_name` (when
/// known), starts it in the sandbox and crawls it with `options` (the
/// crawl's bounds; the sandbox's wall-time limit caps the whole crawl).
pub async fn scan(
    package: &PackageRef,
    server_name: Option<&str>,
    config: &PackagesConfig,
    options: &CrawlOptions,
) -> PackageScan {
    let mut scan = PackageScan::default();
    if !package.registry.runs() {
        scan.findings.push(finding(
            ids::PKG_NOT_RUN,
            Category::Protocol,
            Severity::Info,
            format!(
                "{} packages are not crawled yet: the sandbox does not run them, so this package's capabilities are unknown",
                package.registry.as_str()
            ),
            package.identifier.clone(),
        ));
        return scan;
    }
    let installed = match install::install(package, config).await {
        Ok(installed) => installed,
        Err(InstallError::SourceOnly(requirement)) => {
            scan.findings.push(finding(
                ids::PKG_SOURCE_ONLY,
                Category::Protocol,
                Severity::High,
                "The package or one of its dependencies has no wheel for this platform, only a source distribution; building it would run its code at install time, so it was not installed and not crawled".into(),
                requirement,
            ));
            scan.error = Some(format!(
                "{} was not installed: a source-only distribution",
                package.spec()
            ));
            return scan;
        }
        Err(e) => {
            scan.retryable = e.retryable();
            scan.error = Some(format!("installing {}: {e}", package.spec()));
            return scan;
        }
    };
    if let Some(name) = server_name {
        scan.findings
            .extend(ownership::check_package(package, &installed, name));
    }
    let started = Instant::now();
    let crawled = crawl_installed(&installed, package, &config.limits, options).await;
    let crawl_ms = started.elapsed().as_millis() as u64;
    match crawled {
        Ok(mut snapshot) => {
            let crawl = snapshot.crawl.get_or_insert_with(Default::default);
            crawl.transport = "stdio".into();
            let mut info = installed.facts.clone();
            info.crawl_ms = Some(crawl_ms);
            crawl.package = Some(info);
            scan.snapshot = Some(snapshot);
        }
        Err(e) => {
            scan.error = Some(format!(
                "crawling {} in the sandbox failed ({}): {}",
                package.spec(),
                e.code,
                e.message
            ));
        }
    }
    scan
}

/// Starts an installed package in the sandbox and crawls it; the wall-time
/// limit bounds the whole crawl, and the process tree is killed when it ends.
pub async fn crawl_installed(
    installed: &Installed,
    package: &PackageRef,
    limits: &Limits,
    options: &CrawlOptions,
) -> Result<Snapshot, discovery::CrawlFailure> {
    let command = sandboxed(installed, package, limits)?;
    let mut options = options.clone();
    options.limits.deadline = options.limits.deadline.min(limits.wall_time);
    let crawled = tokio::time::timeout(
        limits.wall_time + Duration::from_secs(1),
        discovery::crawl_prepared(command, &options),
    )
    .await;
    match crawled {
        Ok(result) => result,
        Err(_) => Err(discovery::CrawlFailure {
            code: crate::snapshot::crawl_codes::BOUND,
            message: format!(
                "the sandboxed server ran out of its wall time ({} s)",
                limits.wall_time.as_secs()
            ),
            retryable: false,
            auth: None,
        }),
    }
}

/// The sandboxed command that starts an installed package's server, its
/// own arguments and environment after the runtime's.
pub fn sandboxed(
    installed: &Installed,
    package: &PackageRef,
    limits: &Limits,
) -> Result<tokio::process::Command, discovery::CrawlFailure> {
    let launch = sandbox::Launch {
        package_dir: &installed.dir,
        program: &installed.program,
        arguments: &installed
            .arguments
            .iter()
            .chain(&package.arguments)
            .cloned()
            .collect::<Vec<_>>(),
        environment: &installed
            .environment
            .iter()
            .chain(&package.environment)
            .cloned()
            .collect::<Vec<_>>(),
        extra_binds: &installed.runtime_binds,
    };
    sandbox::command(&launch, limits).map_err(|e| discovery::CrawlFailure {
        code: crate::snapshot::crawl_codes::TRANSPORT,
        message: format!("the sandbox could not be prepared: {e}"),
        retryable: false,
        auth: None,
    })
}

/// A server-level finding about a package.
pub(crate) fn finding(
    rule: &str,
    category: Category,
    severity: Severity,
    message: String,
    evidence: String,
) -> Finding {
    Finding {
        rule: rule.into(),
        category,
        severity,
        target: Target::server(),
        field: "packages".into(),
        message,
        evidence: crate::analysis::normalize::visible(crate::analysis::normalize::truncate(
            &evidence, 300,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn specs_of_both_registries_parse() {
        let npm = PackageRef::parse_spec("npm:@scope/name@1.2.3").unwrap();
        assert_eq!(
            (npm.registry, npm.identifier.as_str(), npm.version.as_str()),
            (RegistryType::Npm, "@scope/name", "1.2.3")
        );
        let pypi = PackageRef::parse_spec("pypi:mcp-server-time==2026.10.19").unwrap();
        assert_eq!(pypi.identifier, "mcp-server-time");
        assert_eq!(pypi.spec(), "pypi:mcp-server-time==2026.10.19");
        assert_eq!(npm.spec(), "npm:@scope/name@1.2.3");
    }

    #[test]
    fn ranges_options_and_paths_are_refused() {
        for spec in [
            "npm:@scope/name@^1.2.3",
            "npm:name@latest",
            "npm:-rf@1.0.0",
            "npm:../x@1.0.0",
            "npm:Name@1.0.0",
            "pypi:name>=1.0",
            "pypi:--index-url==1.0",
            "pypi:name==1.0; rm -rf",
            "oci:x@1",
            "npm:name",
        ] {
            assert!(PackageRef::parse_spec(spec).is_err(), "{spec} accepted");
        }
    }

    #[test]
    fn declared_inputs_become_placeholders() {
        let entry = json!({
            "registryType": "npm", "identifier": "@x/y", "version": "1.0.0",
            "packageArguments": [
                {"type": "positional", "valueHint": "dir", "format": "filepath"},
                {"type": "named", "name": "--mode", "value": "stdio"},
                {"type": "named", "name": "--token", "value": "{t}", "isSecret": true}
            ],
            "environmentVariables": [
                {"name": "API_KEY", "isSecret": true, "default": "real-secret"},
                {"name": "LEVEL", "choices": ["info", "debug"]}
            ]
        });
        let p = PackageRef::from_server_json(&entry).unwrap();
        assert_eq!(
            p.arguments,
            ["/tmp", "--mode", "stdio", "--token", PLACEHOLDER]
        );
        assert_eq!(
            p.environment,
            [
                ("API_KEY".to_string(), PLACEHOLDER.to_string()),
                ("LEVEL".to_string(), "info".to_string())
            ]
        );
        let bad = json!({"registryType": "npm", "identifier": "@x/y", "version": "1.0.0",
            "environmentVariables": [{"name": "LD_PRELOAD=x"}]});
        assert!(PackageRef::from_server_json(&bad).is_err());
    }
}

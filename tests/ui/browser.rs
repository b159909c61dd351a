//! Browser tests: headless Chromium driven over WebDriver (chromedriver,
//! started per test on a free port) against the real application.
//!
//! Chromium and chromedriver come from `.ci/setup.d/40-chromium.sh`, which
//! exports `GATEHOUSE_CHROMIUM` and `GATEHOUSE_CHROMEDRIVER`. Without them the
//! tests print `SKIPPED: …` and pass, unless `GATEHOUSE_REQUIRE_PEERS=1`.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::helpers::{
    Backend, PASSWORD, POISON, TestApp, enc, poison_finding, require_peers, tool,
};

/// A headless Chromium session and the chromedriver behind it.
struct Browser {
    client: Client,
    _driver: Child,
    _profile: tempfile::TempDir,
    base: String,
}

/// Where chromedriver and chromium are, from the environment or the usual paths.
fn peers() -> Option<(PathBuf, PathBuf)> {
    let find = |var: &str, candidates: &[&str]| {
        std::env::var(var)
            .ok()
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| candidates.iter().map(PathBuf::from).find(|p| p.exists()))
    };
    let driver = find(
        "GATEHOUSE_CHROMEDRIVER",
        &["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"],
    )?;
    let chromium = find(
        "GATEHOUSE_CHROMIUM",
        &["/usr/bin/chromium", "/usr/bin/chromium-browser"],
    )?;
    Some((driver, chromium))
}

impl Browser {
    /// Starts chromedriver and a fresh headless Chromium; `None` (after a loud
    /// skip notice) when they are not installed and CI does not require them.
    async fn start(app: &TestApp) -> Option<Browser> {
        let Some((driver_path, chromium)) = peers() else {
            assert!(
                !require_peers(),
                "GATEHOUSE_REQUIRE_PEERS=1 but chromedriver/chromium are missing (run .ci/setup.d/40-chromium.sh)"
            );
            eprintln!(
                "SKIPPED: browser test (no chromedriver/chromium; run .ci/setup.d/40-chromium.sh or set GATEHOUSE_CHROMEDRIVER and GATEHOUSE_CHROMIUM)"
            );
            return None;
        };
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        let mut driver = Command::new(&driver_path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("start chromedriver");
        // chromedriver announces on stdout when it listens: wait for that line
        // rather than polling the port.
        let mut lines = BufReader::new(driver.stdout.take().unwrap()).lines();
        let ready = tokio::time::timeout(Duration::from_secs(20), async {
            while let Ok(Some(line)) = lines.next_line().await {
                if line.contains("started successfully") {
                    return true;
                }
            }
            false
        })
        .await
        .unwrap_or(false);
        assert!(ready, "chromedriver did not start");
        // Keep draining its stdout so it never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });

        let profile = tempfile::tempdir().unwrap();
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": chromium,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--no-first-run", "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--window-size=1400,1800",
                    format!("--user-data-dir={}", profile.path().display()),
                ]
            }),
        );
        // Leave dialogs open so the test can see whether one was opened.
        caps.insert("unhandledPromptBehavior".into(), json!("ignore"));
        // Two rustls crypto providers are linked (ring and aws-lc-rs), so
        // rustls cannot pick one by itself; WebDriver here is plain http anyway.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = ClientBuilder::rustls()
            .expect("TLS roots")
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("a WebDriver session");
        Some(Browser {
            client,
            _driver: driver,
            _profile: profile,
            base: app.address.clone(),
        })
    }

    async fn goto(&self, path: &str) {
        self.client
            .goto(&format!("{}{path}", self.base))
            .await
            .expect("navigate");
    }

    async fn fill(&self, css: &str, text: &str) {
        let field = self.client.find(Locator::Css(css)).await.expect(css);
        field.clear().await.unwrap();
        field.send_keys(text).await.unwrap();
    }

    async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .expect(css)
            .click()
            .await
            .unwrap();
    }

    /// Waits (up to 20 s) until an element of the next page exists: a click
    /// that submits a form returns before the browser has navigated.
    async fn wait_for(&self, css: &str) {
        self.client
            .wait()
            .at_most(Duration::from_secs(20))
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css} never appeared: {e}"));
    }

    async fn text(&self, css: &str) -> String {
        self.client
            .find(Locator::Css(css))
            .await
            .expect(css)
            .text()
            .await
            .unwrap()
    }

    /// The path of the current page.
    async fn path(&self) -> String {
        self.client.current_url().await.unwrap().path().to_string()
    }

    async fn sign_in(&self, name: &str) {
        self.goto("/admin/login").await;
        self.fill("#name", name).await;
        self.fill("#password", PASSWORD).await;
        self.click("button[type=submit].primary").await;
        self.wait_for("nav[aria-label=Main]").await;
        assert_eq!(self.path().await, "/admin");
    }

    /// Saves a full-page PNG under `target/ui-screenshots/`.
    async fn screenshot(&self, name: &str) -> PathBuf {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/ui-screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, self.client.screenshot().await.unwrap()).unwrap();
        path
    }

    async fn js(&self, script: &str) -> Value {
        self.client.execute(script, vec![]).await.unwrap()
    }

    async fn close(self) {
        let _ = self.client.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_reviewer_sees_the_poisoned_tool_and_approves_only_the_clean_one() {
    // Arrange
    let app = TestApp::spawn(Backend::Sqlite).await;
    let Some(browser) = Browser::start(&app).await else {
        return;
    };
    let (publisher, _) = app.publisher("acme", &["com.example"]).await;
    app.seed_scanned_version(
        &publisher,
        "com.example/calc",
        "1.0.0",
        vec![
            tool("add", POISON),
            tool("multiply", "Multiplies two numbers."),
            tool("subtract", "Subtracts two numbers."),
        ],
        vec![poison_finding("add")],
    )
    .await;

    // Act: sign in, open the queue, then the version.
    browser.sign_in("reviewer").await;
    browser.screenshot("dashboard").await;
    browser.goto("/admin/queue").await;
    browser.click("#queue a").await;
    browser.wait_for("#urgent").await;

    // Assert: the finding is impossible to miss.
    assert_eq!(
        browser.path().await,
        format!("/admin/servers/{}/versions/1.0.0", enc("com.example/calc"))
    );
    let urgent = browser.text("#urgent").await;
    assert!(urgent.contains("GH-INJ-001"), "{urgent}");
    assert!(urgent.contains("high"), "{urgent}");
    let card = browser.text("#tool-0").await;
    assert!(
        card.contains("<U+200B>"),
        "the zero-width space is shown: {card}"
    );
    let marked = browser.text("#tool-0 .desc mark").await;
    assert!(
        marked.contains("~/.cursor/mcp.json"),
        "evidence is highlighted: {marked}"
    );
    browser.screenshot("review").await;

    // The poisoned tool starts unticked, the clean ones ticked; untick `subtract` too.
    let ticked = browser
        .js("return [...document.querySelectorAll('input.tool-pick')].map(b => b.checked)")
        .await;
    assert_eq!(ticked, json!([false, true, true]));
    browser.click("#tool-2 input.tool-pick").await;
    browser.fill("#note", "only multiply").await;
    browser.click("#approve-form input[name=ack]").await;
    browser.click("#approve-button").await;
    browser.wait_for(".flash-ok").await;

    // Assert: the approval pins exactly the subset.
    let flash = browser.text(".flash-ok").await;
    assert!(flash.contains("Approved"), "{flash}");
    let detail = app.version_detail("com.example/calc", "1.0.0").await;
    assert_eq!(detail["status"], "approved");
    assert_eq!(detail["approval"]["tools"], json!(["multiply"]));
    assert_eq!(detail["approval"]["approvedBy"], "user:reviewer");
    // …and the signed allowlist clients fetch pins that subset and nothing else.
    let allowlist = app.verified_allowlist("default").await;
    let entry = allowlist
        .servers
        .iter()
        .find(|s| s.name == "com.example/calc")
        .expect("approved server listed");
    let pinned: Vec<&str> = entry.tools.pins.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(pinned, vec!["multiply"]);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_reviewer_rejects_a_version_with_a_reason() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let Some(browser) = Browser::start(&app).await else {
        return;
    };
    let (publisher, _) = app.publisher("acme", &["com.example"]).await;
    app.seed_scanned_version(
        &publisher,
        "com.example/calc",
        "2.0.0",
        vec![tool("add", POISON)],
        vec![poison_finding("add")],
    )
    .await;
    browser.sign_in("admin").await;

    browser
        .goto(&format!(
            "/admin/servers/{}/versions/2.0.0",
            enc("com.example/calc")
        ))
        .await;
    browser
        .fill(
            "#reject-reason",
            "Tool description exfiltrates ~/.cursor/mcp.json",
        )
        .await;
    browser.click("#reject-button").await;
    browser.wait_for(".flash-ok").await;

    let flash = browser.text(".flash-ok").await;
    assert!(flash.contains("Rejected"), "{flash}");
    let detail = app.version_detail("com.example/calc", "2.0.0").await;
    assert_eq!(detail["status"], "rejected");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_publisher_sees_why_an_invalid_server_json_was_refused() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let Some(browser) = Browser::start(&app).await else {
        return;
    };
    let (_, token) = app.publisher("acme", &["com.example"]).await;
    let versions_before = app.count("versions").await;

    browser.goto("/publisher/login").await;
    browser.fill("#token", &token).await;
    browser.click("button[type=submit].primary").await;
    browser.wait_for("#submit-form").await;
    assert_eq!(browser.path().await, "/publisher");
    browser
        .fill(
            "#server-json",
            r#"{"name": "com.example/weather", "description": "no version here"}"#,
        )
        .await;
    browser.click("#submit-form button[type=submit]").await;
    browser.wait_for("#server-json-errors").await;

    let errors = browser.text("#server-json-errors").await;
    assert!(errors.contains("invalid"), "{errors}");
    assert!(
        errors.contains("version"),
        "the missing field is named: {errors}"
    );
    let invalid = browser
        .client
        .find(Locator::Css("#server-json"))
        .await
        .unwrap()
        .attr("aria-invalid")
        .await
        .unwrap();
    assert_eq!(invalid.as_deref(), Some("true"));
    assert_eq!(app.count("versions").await, versions_before);

    // A valid document loaded from a file (the file input fills the textarea) is accepted.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("server.json");
    std::fs::write(
        &file,
        crate::helpers::npm_server("com.example/weather", "1.0.0").to_string(),
    )
    .unwrap();
    browser.fill("#server-json", " ").await;
    browser
        .client
        .find(Locator::Css("#server-json-file"))
        .await
        .unwrap()
        .send_keys(&file.display().to_string())
        .await
        .unwrap();
    let loaded = browser
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const area = document.getElementById('server-json');
             (function check() { area.value.includes('com.example/weather') ? done(area.value) : setTimeout(check, 20); })();",
            vec![],
        )
        .await
        .unwrap();
    assert!(loaded.as_str().unwrap().contains("@example/weather-mcp"));
    browser.click("#submit-form button[type=submit]").await;
    browser.wait_for(".flash-ok").await;
    assert_eq!(
        browser.path().await,
        format!(
            "/publisher/servers/{}/versions/1.0.0",
            enc("com.example/weather")
        )
    );
    assert_eq!(app.count("versions").await, versions_before + 1);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hostile_markup_in_a_description_shows_as_text_and_runs_nothing() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let Some(browser) = Browser::start(&app).await else {
        return;
    };
    let (publisher, _) = app.publisher("acme", &["com.example"]).await;
    let hostile =
        "<script>alert(1)</script><img src=x onerror=\"document.body.dataset.pwned='1'\">";
    app.seed_scanned_version(
        &publisher,
        "com.example/xss",
        "1.0.0",
        vec![tool("<b>bold</b>", hostile)],
        vec![],
    )
    .await;
    browser.sign_in("admin").await;

    browser
        .goto(&format!(
            "/admin/servers/{}/versions/1.0.0",
            enc("com.example/xss")
        ))
        .await;

    // No dialog opened: asking for its text fails.
    assert!(
        browser.client.get_alert_text().await.is_err(),
        "a dialog opened"
    );
    let desc = browser.text("#tool-0 .desc").await;
    assert!(desc.contains("<script>alert(1)</script>"), "{desc}");
    assert!(desc.contains("onerror="), "{desc}");
    let created = browser
        .js("return {
               imgs: document.querySelectorAll('main img').length,
               scripts: document.querySelectorAll('main script').length,
               bold: document.querySelectorAll('main b').length,
               pwned: document.body.dataset.pwned || null
             }")
        .await;
    assert_eq!(
        created,
        json!({"imgs": 0, "scripts": 0, "bold": 0, "pwned": null})
    );
    browser.close().await;
}

/// A Streamable HTTP MCP server (older revision, JSON answers) whose tools the test changes.
async fn spawn_changing_server(tools: std::sync::Arc<std::sync::Mutex<Vec<Value>>>) -> String {
    use axum::extract::State;
    use axum::response::IntoResponse;
    type Tools = std::sync::Arc<std::sync::Mutex<Vec<Value>>>;
    async fn handle(
        State(tools): State<Tools>,
        axum::Json(request): axum::Json<Value>,
    ) -> axum::response::Response {
        let Some(id) = request.get("id").cloned() else {
            return axum::http::StatusCode::ACCEPTED.into_response();
        };
        let mut answer = match request["method"].as_str().unwrap_or_default() {
            "initialize" => json!({"result": {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "changing", "version": "1.0.0"}}}),
            "tools/list" => json!({"result": {"tools": tools.lock().unwrap().clone()}}),
            _ => json!({"error": {"code": -32601, "message": "method not found"}}),
        };
        answer["jsonrpc"] = json!("2.0");
        answer["id"] = id;
        axum::Json(answer).into_response()
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let app = axum::Router::new()
        .route(
            "/mcp",
            axum::routing::post(handle).delete(|| async { axum::http::StatusCode::OK }),
        )
        .with_state(tools);
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

fn live_tool(name: &str, description: &str) -> Value {
    json!({"name": name, "description": description, "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}}}})
}

/// Issue 14, item 6: the "changed" queue filter, the banner of a suspended
/// version and the server's history of changes per capability, after real
/// monitor rescans of a server whose tools change.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_reviewer_follows_a_drifting_server_through_the_changed_queue_the_banner_and_its_history()
{
    let mut app = TestApp::spawn(Backend::Sqlite).await;
    let Some(browser) = Browser::start(&app).await else {
        return;
    };
    app.worker.monitor.identities.clients.clear();
    let name = "com.example/drifting";
    let tools = std::sync::Arc::new(std::sync::Mutex::new(vec![
        live_tool("add", "Adds two numbers."),
        live_tool("echo", "Echoes the text back."),
    ]));
    let url = spawn_changing_server(tools.clone()).await;
    let (publisher, _) = app.publisher("acme", &["com.example"]).await;
    let doc = json!({"name": name, "description": "Drifts", "version": "1.0.0",
        "remotes": [{"type": "streamable-http", "url": url}]});
    let row = gatehouse::registry::publish::publish(
        &app.db,
        &gatehouse::discovery::NetPolicy::from_config(Some("1")).unwrap(),
        &publisher,
        doc.to_string().as_bytes(),
    )
    .await
    .unwrap();
    gatehouse::jobs::run_until_idle(&app.db, &app.worker)
        .await
        .unwrap();
    let approved = reqwest::Client::new()
        .post(format!(
            "{}/api/v1/admin/servers/{}/versions/1.0.0/approve",
            app.address,
            enc(name)
        ))
        .bearer_auth(&app.admin_token)
        .json(&json!({"note": "clean"}))
        .send()
        .await
        .unwrap();
    assert!(approved.status().is_success());
    let rescan = |app: &TestApp| {
        let (db, worker, id) = (app.db.clone(), app.worker.clone(), row.id.clone());
        async move {
            gatehouse::monitor::request_rescan(&db, &id).await.unwrap();
            assert_eq!(
                gatehouse::jobs::run_until_idle(&db, &worker).await.unwrap(),
                1
            );
        }
    };

    // A harmless edit of `echo`: the version is "changed".
    tools.lock().unwrap()[1] = live_tool("echo", "Echoes the text back, trimmed.");
    rescan(&app).await;
    browser.sign_in("reviewer").await;
    browser.goto("/admin/queue?status=changed").await;
    browser.wait_for("#queue").await;
    let queue = browser.text("#queue").await.to_lowercase();
    assert!(queue.contains(name) && queue.contains("changed"), "{queue}");
    browser.click("#queue a").await;
    browser.wait_for(".review-head").await;
    assert!(
        browser
            .client
            .find(Locator::Css("#suspended"))
            .await
            .is_err(),
        "no banner on an approved version"
    );

    // Poison in `add`: suspended, with a banner on its page.
    tools.lock().unwrap()[0] = live_tool("add", POISON);
    rescan(&app).await;
    browser
        .goto(&format!("/admin/servers/{}/versions/1.0.0", enc(name)))
        .await;
    browser.wait_for("#suspended").await;
    let banner = browser.text("#suspended").await.to_lowercase();
    assert!(banner.contains("suspended"), "{banner}");
    assert!(banner.contains("high or critical finding"), "{banner}");
    browser.screenshot("suspended").await;

    // The history: per capability, what changed, what it introduced, what was decided.
    browser.click("#suspended a").await;
    browser.wait_for(".history-event").await;
    assert_eq!(
        browser.path().await,
        format!("/admin/servers/{}/history", enc(name))
    );
    let events = browser
        .js("return [...document.querySelectorAll('.history-event')].map(e => e.dataset.badge)")
        .await;
    let badges: Vec<&str> = events
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        badges.contains(&"suspended") && badges.contains(&"changed"),
        "{badges:?}"
    );
    let first = browser.text(".history-event").await;
    assert!(first.contains("Suspended"), "{first}");
    assert!(
        first.contains("add") && first.contains("description"),
        "{first}"
    );
    assert!(first.contains("GH-"), "the finding it introduced: {first}");
    let all = browser.text("main").await;
    assert!(all.contains("echo"), "{all}");
    assert!(all.contains("Decision: approve"), "{all}");
    browser.screenshot("history").await;
    browser.close().await;
}

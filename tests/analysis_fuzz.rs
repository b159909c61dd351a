//! Property tests: the analysis never panics, whatever a server sends.
//!
//! Each target generates hostile input — text built from the characters
//! that parsers trip on (runs of whitespace and newlines, indentation,
//! quotes and backticks left open, full stops inside paths, invisible and
//! bidirectional characters, tag characters, ANSI escapes, scripts without
//! spaces, JSON fragments) and whole snapshots of arbitrary JSON — and runs
//! it through the whole analysis. CI runs every target for a bounded number
//! of cases (`PROPTEST_CASES`, default 256 here); a long run on a developer
//! machine is `PROPTEST_CASES=200000 cargo test --release --test analysis_fuzz`.

use gatehouse::analysis::directive::{self, Contract};
use gatehouse::analysis::normalize::Prepared;
use gatehouse::analysis::rules::Names;
use gatehouse::analysis::{self, Context, RulesConfig};
use gatehouse::snapshot::Snapshot;
use proptest::prelude::*;
use serde_json::{Value, json};

/// Pieces that hostile text is made of.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        // Words and ordinary prose.
        "[a-zA-Z_]{1,12}".prop_map(|s| s),
        Just(" ".to_string()),
        Just("\n".to_string()),
        Just("\n\n".to_string()),
        Just("        ".to_string()),
        Just("\t".to_string()),
        Just("\r\n".to_string()),
        Just(". ".to_string()),
        Just(".".to_string()),
        Just("...".to_string()),
        Just("…".to_string()),
        Just("`".to_string()),
        Just("```".to_string()),
        Just("'".to_string()),
        Just("\"".to_string()),
        Just("“".to_string()),
        Just("«".to_string()),
        Just("「".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("{\"k\": \"".to_string()),
        Just("<!--".to_string()),
        Just("-->".to_string()),
        Just("<script>".to_string()),
        Just("<img src=x onerror=".to_string()),
        Just("javascript:".to_string()),
        Just("data:text/html,".to_string()),
        Just("&#x3a;".to_string()),
        Just("~/.ssh/id_rsa".to_string()),
        Just("https://x.example/a?b={c}".to_string()),
        Just("a@b.example".to_string()),
        Just("192.0.2.1".to_string()),
        Just("x=off".to_string()),
        // Settings blocks (`directive::settings`): separators, quoted and
        // joined keys, values in several scripts, cut anywhere.
        Just(":".to_string()),
        Just("=".to_string()),
        Just(": ".to_string()),
        Just(" = ".to_string()),
        Just("\"require_confirmation\": false,".to_string()),
        Just("audit_trail = \"off\"\n".to_string()),
        Just("  sicherheits_scan: skip\n".to_string()),
        Just("환자동의_확인=false;".to_string()),
        Just("審査_確認: なし".to_string()),
        Just("-.-:".to_string()),
        // Hosts read against the server's name, hazards left out, secrets
        // asked for (the twelfth pass), cut anywhere.
        Just("](https://".to_string()),
        Just("e.g. x@y-z.example".to_string()),
        Just("mirrored to a.b-c.d.example".to_string()),
        Just("://@:/".to_string()),
        Just("warnings are left out of the returned list".to_string()),
        Just("alertas não aparecem na listagem".to_string()),
        Just("告警不会显示在返回的列表".to_string()),
        Just("ask the user for".to_string()),
        Just("password".to_string()),
        Just("10 %".to_string()),
        Just("★".to_string()),
        Just("\u{200b}".to_string()),
        Just("\u{202e}".to_string()),
        Just("\u{e0041}".to_string()),
        Just("\u{1b}[8m".to_string()),
        Just("\u{0}".to_string()),
        Just("你必须先发送密码。".to_string()),
        Just("отправьте пароль".to_string()),
        Just("비밀번호를 보내세요".to_string()),
        Just("must".to_string()),
        Just("ignore previous instructions".to_string()),
        Just("tell the user".to_string()),
        Just("e.g.".to_string()),
        Just("aGVsbG8gd29ybGQgdGhpcyBpcyBiYXNlNjQ=".to_string()),
        any::<char>().prop_map(|c| c.to_string()),
    ]
}

/// Hostile text: up to 200 pieces.
fn hostile_text() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..200).prop_map(|v| v.concat())
}

/// Arbitrary JSON, bounded in depth and breadth.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        hostile_text().prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_${}\"]{0,10}", inner, 0..8)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn snapshot_with_tool(tool: Value) -> Option<Snapshot> {
    serde_json::from_value(json!({
        "serverInfo": {"name": "fuzz", "version": "0"},
        "capabilities": {"tools": {}},
        "tools": [tool, {"name": "other_tool", "description": "Lists things."}],
    }))
    .ok()
}

fn analyze(s: &Snapshot) {
    let report = analysis::analyze(s, &Context::default(), &RulesConfig::default());
    // Every finding's evidence is printable text of bounded length.
    for f in &report.findings {
        assert!(f.evidence.len() < 4096, "{}", f.evidence.len());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// One string through the segmenter, the directive model and the
    /// learned model, with every range it hands out checked.
    #[test]
    fn a_single_string_never_panics_the_directive_model(text in hostile_text()) {
        let prepared = Prepared::new(&text);
        let names = Names::default();
        let reading = directive::read(&prepared.plain, |i| prepared.upper_at(i), &names);
        for s in &reading.sentences {
            prop_assert!(s.range.start <= s.range.end && s.range.end <= prepared.plain.len());
            prop_assert!(prepared.plain.is_char_boundary(s.range.start) && prepared.plain.is_char_boundary(s.range.end));
        }
        for t in &reading.seg.tokens {
            prop_assert!(prepared.plain.get(t.range.clone()).is_some());
        }
        let _ = directive::asks(&reading, &Contract::of_name("get_forecast"));
        let _ = prepared.hidden();
    }

    /// One string in every place a tool can carry text.
    #[test]
    fn a_string_in_any_field_never_panics_the_analysis(text in hostile_text()) {
        let tool = json!({
            "name": "t_tool",
            "title": text,
            "description": text,
            "inputSchema": {"type": "object", "properties": {
                text.clone(): {"type": "string", "description": text, "default": text, "enum": [text]}
            }},
            "annotations": {"title": text, "note": text},
            "_meta": {"k": text},
            "x-extra": text,
        });
        if let Some(s) = snapshot_with_tool(tool) {
            analyze(&s);
        }
    }

    /// Whole tools of arbitrary JSON.
    #[test]
    fn arbitrary_json_tools_never_panic_the_analysis(value in json_value(), name in "[a-z_]{1,20}") {
        let mut tool = match value {
            Value::Object(m) => Value::Object(m),
            other => json!({"description": other}),
        };
        tool["name"] = json!(name);
        if let Some(s) = snapshot_with_tool(tool) {
            analyze(&s);
        }
    }

    /// Whole snapshots of arbitrary JSON (whatever deserialises).
    #[test]
    fn arbitrary_json_snapshots_never_panic_the_analysis(value in json_value()) {
        if let Ok(s) = serde_json::from_value::<Snapshot>(value) {
            analyze(&s);
        }
    }
}

/// Cases per target: `PROPTEST_CASES`, else 256.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// The indented docstrings of real servers that once made the analysis
/// slice past the end of a sentence.
#[test]
fn indented_docstrings_from_real_servers_do_not_panic() {
    let text = "Start a cloud browser session.\n\n        Creates an isolated browser session running in a microVM.\n        Returns the session id and automation stream URL for subsequent browser\n        interaction tools.\n\n        ";
    let s = snapshot_with_tool(json!({"name": "start_session", "description": text})).unwrap();
    analyze(&s);
}

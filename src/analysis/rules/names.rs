//! Name rules: impersonation (TR39 confusables, mixed scripts, typo-squats
//! of approved tools), conflicts with approved servers, duplicate names,
//! and naming and description quality.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;
use unicode_security::{MixedScript, skeleton};

use super::{Sink, default_severity};
use crate::analysis::catalogue::ids;
use crate::analysis::normalize::{evidence_window, visible};
use crate::analysis::report::Severity;
use crate::analysis::{Context, FastMap};
use crate::snapshot::{Snapshot, Target, TargetKind};

/// Verbs a tool name may start (or, in `resource_verb` style, end) with.
/// Data, not code: extend freely.
pub const VERBS: &[&str] = &[
    "get",
    "list",
    "create",
    "update",
    "delete",
    "remove",
    "add",
    "set",
    "search",
    "find",
    "fetch",
    "read",
    "write",
    "run",
    "execute",
    "send",
    "post",
    "put",
    "patch",
    "query",
    "lookup",
    "resolve",
    "validate",
    "check",
    "convert",
    "translate",
    "summarise",
    "summarize",
    "generate",
    "render",
    "format",
    "parse",
    "compute",
    "calculate",
    "analyze",
    "analyse",
    "describe",
    "explain",
    "open",
    "close",
    "start",
    "stop",
    "restart",
    "cancel",
    "merge",
    "fork",
    "push",
    "pull",
    "clone",
    "commit",
    "sync",
    "upload",
    "download",
    "import",
    "export",
    "move",
    "copy",
    "rename",
    "archive",
    "restore",
    "approve",
    "reject",
    "assign",
    "unassign",
    "invite",
    "subscribe",
    "unsubscribe",
    "enable",
    "disable",
    "install",
    "uninstall",
    "deploy",
    "build",
    "test",
    "lint",
    "scan",
    "watch",
    "tail",
    "show",
    "view",
    "edit",
    "modify",
    "manage",
    "schedule",
    "notify",
    "publish",
    "unpublish",
    "share",
    "sign",
    "verify",
    "encrypt",
    "decrypt",
    "hash",
    "encode",
    "decode",
    "compress",
    "extract",
    "index",
    "store",
    "save",
    "load",
    "navigate",
    "click",
    "type",
    "press",
    "take",
    "evaluate",
    "wait",
    "select",
    "hover",
    "fill",
    "drag",
    "resize",
    "mark",
    "star",
    "unstar",
    "lock",
    "unlock",
    "pin",
    "unpin",
    "transfer",
    "request",
    "reply",
    "comment",
    "react",
    "dismiss",
    "rerun",
    "trigger",
    "retry",
    "ping",
    "echo",
    "roll",
    "wrap",
    "trim",
    "split",
    "join",
    "sort",
    "filter",
    "count",
    "compare",
    "diff",
    "apply",
    "review",
    "label",
    "tag",
    "link",
    "unlink",
    "attach",
    "detach",
    "reprioritize",
    "browse",
    "capture",
    "close",
    "complete",
    "configure",
    "connect",
    "disconnect",
    "draft",
    "estimate",
    "forecast",
    "log",
    "map",
    "measure",
    "monitor",
    "observe",
    "plan",
    "predict",
    "print",
    "publish",
    "record",
    "refresh",
    "register",
    "rank",
    "recommend",
    "reset",
    "scrape",
    "crawl",
    "shorten",
    "sample",
    "snapshot",
    "submit",
    "suggest",
    "tokenize",
    "track",
    "transcribe",
    "upsert",
    "use",
    "visit",
    "insert",
    "drop",
    "truncate",
    "kill",
    "terminate",
    "revoke",
    "purge",
    "wipe",
    "overwrite",
    "destroy",
    "erase",
    "clear",
    "inspect",
    "ask",
    "chat",
    "complete",
    "embed",
    "score",
    "classify",
    "detect",
    "recognize",
    "ocr",
    "speak",
    "play",
    "pause",
    "resume",
    "seek",
    "skip",
    "like",
    "follow",
    "unfollow",
    "block",
    "unblock",
    "mute",
    "unmute",
    // Verbs seen in real servers' tool names (corpus/real), checked by
    // `real_tool_names_with_a_verb_are_not_flagged`.
    "accept",
    "ack",
    "acknowledge",
    "act",
    "activate",
    "aggregate",
    "allocate",
    "allow",
    "annotate",
    "answer",
    "append",
    "assume",
    "audit",
    "authenticate",
    "authorize",
    "autoscale",
    "backup",
    "ban",
    "benchmark",
    "bind",
    "blame",
    "book",
    "bridge",
    "burn",
    "buy",
    "call",
    "charge",
    "checkout",
    "choose",
    "claim",
    "cleanup",
    "collect",
    "combine",
    "compile",
    "concat",
    "confirm",
    "containerize",
    "cordon",
    "crop",
    "customize",
    "deactivate",
    "decompile",
    "decompress",
    "define",
    "demote",
    "deny",
    "deposit",
    "deserialize",
    "diagnose",
    "disassemble",
    "discover",
    "dispatch",
    "display",
    "divide",
    "downgrade",
    "drain",
    "draw",
    "duplicate",
    "emit",
    "emulate",
    "enroll",
    "enter",
    "escalate",
    "evacuate",
    "evict",
    "exec",
    "exit",
    "expire",
    "explore",
    "expose",
    "finalize",
    "finish",
    "fix",
    "flag",
    "flip",
    "flush",
    "forward",
    "geocode",
    "geolocate",
    "grant",
    "gunzip",
    "gzip",
    "handle",
    "has",
    "heal",
    "hide",
    "highlight",
    "identify",
    "intersect",
    "invoice",
    "invoke",
    "is",
    "kick",
    "launch",
    "leave",
    "listen",
    "login",
    "logout",
    "make",
    "match",
    "mention",
    "migrate",
    "mint",
    "moderate",
    "mount",
    "multiply",
    "optimize",
    "order",
    "pick",
    "place",
    "plot",
    "poll",
    "prefer",
    "preview",
    "promote",
    "protect",
    "provision",
    "prune",
    "quit",
    "rebase",
    "refund",
    "reindex",
    "release",
    "reload",
    "remind",
    "renew",
    "reopen",
    "reorder",
    "repair",
    "replace",
    "report",
    "reschedule",
    "reserve",
    "respond",
    "retrieve",
    "reveal",
    "reverse",
    "revert",
    "rollback",
    "rotate",
    "route",
    "say",
    "scale",
    "screenshot",
    "scroll",
    "sell",
    "serialize",
    "setup",
    "signin",
    "signout",
    "simplify",
    "simulate",
    "sleep",
    "snooze",
    "solve",
    "spawn",
    "stash",
    "subtract",
    "sum",
    "swap",
    "switch",
    "synthesize",
    "tap",
    "think",
    "toggle",
    "trace",
    "transact",
    "transition",
    "tunnel",
    "unarchive",
    "unban",
    "unbind",
    "uncordon",
    "undeploy",
    "unlike",
    "unmerge",
    "unmount",
    "unprotect",
    "unregister",
    "unset",
    "unshare",
    "unstage",
    "untag",
    "unwatch",
    "unwrap",
    "unzip",
    "upgrade",
    "vectorize",
    "vote",
    "warm",
    "withdraw",
    "zip",
    "zoom",
    "continue",
    "step",
    "init",
    "initialize",
    "clean",
    "infer",
    "ignore",
    "declare",
    "peek",
    "touch",
    "prepend",
    "recompile",
    "synchronize",
    "troubleshoot",
    "enrich",
    "reconnect",
    "assert",
    "expect",
    "teardown",
    "skim",
    "research",
];

/// Names that explain nothing (compared after removing a trailing number).
pub const GENERIC_NAMES: &[&str] = &[
    "process",
    "handle",
    "handler",
    "do",
    "do_it",
    "doit",
    "do_stuff",
    "run",
    "execute",
    "exec",
    "tool",
    "action",
    "func",
    "function",
    "helper",
    "util",
    "utils",
    "misc",
    "test",
    "foo",
    "bar",
    "baz",
    "main",
    "call",
    "invoke",
    "perform",
    "task",
    "job",
    "op",
    "operation",
    "command",
    "cmd",
    "go",
    "api",
    "thing",
    "stuff",
    "tool_call",
    "method",
];

/// Descriptions that say nothing.
static VAGUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*(?:(?:this\s+)?(?:tool|function)\s+)?(?:does|do|handles?|processes|process|runs?|performs?|executes?|a)\s+(?:stuff|things|it|something|anything|the (?:thing|action|task|request|job)|an? (?:action|task|thing|operation))\s*[.!]?\s*$|^\s*(?:todo|tbd|n/?a|none|description|tool|test)\s*[.!]?\s*$")
        .expect("valid regex")
});

/// Whether a name is within the MCP tool-name character set,
/// `[A-Za-z0-9_.-]{1,128}` (all ASCII, so bytes are characters).
fn in_name_charset(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// Splits a name into lower-case words (snake, kebab, dotted, camelCase).
pub fn words(name: &str) -> Vec<String> {
    if name.is_ascii() {
        return ascii_words(name);
    }
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c == '_' || c == '-' || c == '.' || c == ' ' || c == '/' {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        if c.is_ascii() {
            // The same as `to_lowercase`, without its iterator.
            cur.push(c.to_ascii_lowercase());
        } else {
            cur.extend(c.to_lowercase());
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// [`words`] of an ASCII name (nearly every one): each word is cut from the
/// name and lower-cased in one allocation of its own size, instead of
/// growing a string a character at a time.
fn ascii_words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_ascii_word(name, |w| out.push(w.to_ascii_lowercase()));
    out
}

/// Calls `f` with each word of an ASCII name, as [`ascii_words`] cuts it,
/// not yet lower-cased.
pub(crate) fn for_each_ascii_word<'n>(name: &'n str, mut f: impl FnMut(&'n str)) {
    let bytes = name.as_bytes();
    // Where the current word starts; it is empty while `start == i`.
    let mut start = 0;
    let mut prev_lower = false;
    for (i, &c) in bytes.iter().enumerate() {
        if matches!(c, b'_' | b'-' | b'.' | b' ' | b'/') {
            if i > start {
                f(&name[start..i]);
            }
            start = i + 1;
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && i > start {
            f(&name[start..i]);
            start = i;
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
    }
    if bytes.len() > start {
        f(&name[start..]);
    }
}

/// Whether the lower-cased `word` is one of `list` (lower-case ASCII
/// words): for ASCII, compared without making the lower-cased copy.
fn lowered_in(word: &str, list: &[&str]) -> bool {
    if word.is_ascii() {
        list.iter().any(|l| l.eq_ignore_ascii_case(word))
    } else {
        list.contains(&word.to_lowercase().as_str())
    }
}

/// The words of a list, looked up by their bytes (see [`lowered_in_set`]).
type WordSet = std::collections::HashSet<
    &'static [u8],
    std::hash::BuildHasherDefault<crate::analysis::WordHasher>,
>;

/// [`VERBS`] as a [`WordSet`].
static VERB_SET: std::sync::LazyLock<WordSet> =
    std::sync::LazyLock::new(|| VERBS.iter().map(|w| w.as_bytes()).collect());

/// [`GENERIC_NAMES`] as a [`WordSet`].
static GENERIC_SET: std::sync::LazyLock<WordSet> =
    std::sync::LazyLock::new(|| GENERIC_NAMES.iter().map(|w| w.as_bytes()).collect());

/// [`lowered_in`] of `list` through its `set`: a short ASCII word is
/// lower-cased on the stack and looked up once, instead of compared with
/// each of a hundred words.
fn lowered_in_set(word: &str, list: &[&str], set: &WordSet) -> bool {
    let mut buf = [0u8; 32];
    if word.is_ascii() && word.len() <= buf.len() {
        let lower = &mut buf[..word.len()];
        lower.copy_from_slice(word.as_bytes());
        lower.make_ascii_lowercase();
        return set.contains(&*lower);
    }
    lowered_in(word, list)
}

/// Whether any of [`words`] of `name` is one of [`VERBS`]. Asked of every
/// tool; an ASCII name's words are compared where they stand, without a
/// vector of lower-cased copies.
fn has_verb_word(name: &str) -> bool {
    if !name.is_ascii() {
        return words(name).iter().any(|x| VERBS.contains(&x.as_str()));
    }
    let verbs = &*VERB_SET;
    let mut found = false;
    for_each_ascii_word(name, |w| {
        found = found || lowered_in_set(w, VERBS, verbs);
    });
    found
}

/// Naming style of one name, when it has one.
fn style(name: &str) -> Option<&'static str> {
    let has_upper = name.chars().any(char::is_uppercase);
    let has_lower = name.chars().any(char::is_lowercase);
    if name.contains('_') {
        Some(if has_upper && has_lower {
            "mixed snake"
        } else {
            "snake_case"
        })
    } else if name.contains('-') {
        Some("kebab-case")
    } else if has_upper && has_lower {
        Some(if name.starts_with(char::is_uppercase) {
            "PascalCase"
        } else {
            "camelCase"
        })
    } else {
        None
    }
}

/// Every capability name with its target, in snapshot order.
fn capability_names(snapshot: &Snapshot) -> Vec<Target> {
    let mut out = Vec::new();
    out.extend(
        snapshot
            .tools
            .iter()
            .map(|t| Target::new(TargetKind::Tool, &t.name)),
    );
    out.extend(
        snapshot
            .prompts
            .iter()
            .map(|p| Target::new(TargetKind::Prompt, &p.name)),
    );
    out.extend(
        snapshot
            .resources
            .iter()
            .map(|r| Target::new(TargetKind::Resource, &r.name)),
    );
    out.extend(
        snapshot
            .resource_templates
            .iter()
            .map(|r| Target::new(TargetKind::ResourceTemplate, &r.name)),
    );
    out
}

/// Whether a name's letters mix scripts beyond what TR39 calls moderately
/// restrictive: Latin with Han and kana ("wiki取得"), Hangul or one other
/// script (Cyrillic and Greek aside) is how honest names are written in
/// those languages; Latin with Cyrillic, or three scripts, is not.
fn mixes_unusual_scripts(name: &str) -> bool {
    use unicode_security::{RestrictionLevel, RestrictionLevelDetection};
    let letters: String = name.chars().filter(|c| c.is_alphanumeric()).collect();
    letters.as_str().detect_restriction_level() >= RestrictionLevel::MinimallyRestrictive
}

/// The lower-cased TR39 skeleton of a name: what it looks like.
fn skeleton_of(s: &str) -> String {
    if !s.is_ascii() {
        return skeleton(s).collect::<String>().to_lowercase();
    }
    // ASCII needs no first normalisation and has no ignorable characters,
    // so its skeleton is the normalised concatenation of per-character
    // prototypes, which are looked up once per process.
    static ASCII_PROTOTYPES: LazyLock<Vec<String>> = LazyLock::new(|| {
        (0u8..128)
            .map(|b| skeleton(char::from(b).encode_utf8(&mut [0; 4])).collect())
            .collect()
    });
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match ASCII_PROTOTYPES[usize::from(b)].as_str() {
            // Most characters are their own prototype: pushed as a byte,
            // not copied as a string.
            one if one.len() == 1 => out.push(char::from(one.as_bytes()[0])),
            more => out.push_str(more),
        }
    }
    if out.is_ascii() {
        // `to_lowercase` of ASCII, in place instead of into a new string.
        out.make_ascii_lowercase();
        return out;
    }
    use unicode_normalization::UnicodeNormalization;
    out.nfd().collect::<String>().to_lowercase()
}

/// Impersonation and conflict rules.
pub fn impersonation(sink: &mut Sink<'_>, snapshot: &Snapshot, ctx: &Context) {
    let own_server = snapshot
        .server_info
        .as_ref()
        .map(|i| i.name.as_str())
        .unwrap_or_default();
    // Tools of the server itself are not conflicts when this is a rescan of an approved server.
    let approved: Vec<&(String, String)> = ctx
        .approved_tools
        .iter()
        .filter(|(_, s)| s != own_server)
        .collect();
    // Each approved tool's skeleton and lower-cased name (with its length in
    // characters), computed once rather than once per capability.
    let approved_skeletons: Vec<String> = approved.iter().map(|(t, _)| skeleton_of(t)).collect();
    let approved_lower: Vec<(String, usize)> = approved
        .iter()
        .map(|(t, _)| {
            let l = t.to_lowercase();
            let n = l.chars().count();
            (l, n)
        })
        .collect();
    let targets = capability_names(snapshot);
    let target_skeletons: Vec<String> = targets.iter().map(|t| skeleton_of(&t.name)).collect();
    let mut skeletons: FastMap<&str, Vec<&str>> = FastMap::default();
    for (t, sk) in targets.iter().zip(&target_skeletons) {
        skeletons.entry(sk).or_default().push(&t.name);
    }
    for (t, sk) in targets.iter().zip(&target_skeletons) {
        let name = t.name.as_str();
        if !name.is_ascii() {
            if sk.is_ascii() && *sk != name.to_lowercase() {
                sink.add(
                    ids::IMP_CONFUSABLE,
                    Severity::High,
                    t,
                    "name",
                    format!(
                        "Name is made of look-alike characters: it reads as {:?}",
                        as_latin(name)
                    ),
                    visible_codepoints(name),
                );
            } else if !name.is_single_script() && mixes_unusual_scripts(name) {
                sink.add(
                    ids::IMP_CONFUSABLE,
                    Severity::High,
                    t,
                    "name",
                    "Name mixes scripts (e.g. Latin with Cyrillic)".into(),
                    visible_codepoints(name),
                );
            }
        }
        if let Some(others) = skeletons.get(sk.as_str()) {
            if let Some(other) = others.iter().find(|o| **o != name) {
                sink.add(
                    ids::IMP_CONFUSABLE,
                    Severity::High,
                    t,
                    "name",
                    format!(
                        "Name is confusable with another capability of this server, {}",
                        visible(other)
                    ),
                    visible_codepoints(name),
                );
            }
        }
        // Without approved tools (a first scan) there is nothing to compare
        // the name with: no lower-cased copy of it.
        if t.kind != TargetKind::Tool || approved.is_empty() {
            continue;
        }
        let name_lower = name.to_lowercase();
        let name_lower_len = name_lower.chars().count();
        let long_enough = name.chars().count() >= 5;
        for (((tool, server), tool_skeleton), (tool_lower, tool_lower_len)) in approved
            .iter()
            .zip(&approved_skeletons)
            .zip(&approved_lower)
        {
            if tool == name {
                sink.add(
                    ids::CFL_TOOL,
                    default_severity(ids::CFL_TOOL),
                    t,
                    "name",
                    format!(
                        "Tool name is also a tool of the approved server {}",
                        visible(server)
                    ),
                    visible(name),
                );
            } else if tool_skeleton == sk {
                sink.add(
                    ids::IMP_CONFUSABLE,
                    Severity::High,
                    t,
                    "name",
                    format!(
                        "Name looks like {} of the approved server {}",
                        visible(tool),
                        visible(server)
                    ),
                    visible_codepoints(name),
                );
            } else if long_enough
                // One edit changes the length by at most one character.
                && tool_lower_len.abs_diff(name_lower_len) <= 1
                && strsim::levenshtein(tool_lower, &name_lower) == 1
            {
                sink.add(
                    ids::IMP_NEAR,
                    default_severity(ids::IMP_NEAR),
                    t,
                    "name",
                    format!(
                        "Name is one edit away from {} of the approved server {}",
                        visible(tool),
                        visible(server)
                    ),
                    visible(name),
                );
            }
        }
    }
    if !own_server.is_empty() {
        let server = Target::server();
        // Once per scan, not once per approved server: a registry holds
        // thousands, and every rescan compares against all of them.
        let own_skeleton = skeleton_of(own_server);
        let own_chars = own_server.chars().count();
        for other in ctx
            .approved_servers
            .iter()
            .filter(|s| s.as_str() != own_server)
        {
            if skeleton_of(other) == own_skeleton {
                sink.add(
                    ids::IMP_CONFUSABLE,
                    Severity::High,
                    &server,
                    "serverInfo.name",
                    format!(
                        "Server name looks like the approved server {}",
                        visible(other)
                    ),
                    visible_codepoints(own_server),
                );
            } else if own_chars >= 5
                // One edit changes the length by at most one character.
                && other.chars().count().abs_diff(own_chars) <= 1
                && strsim::levenshtein(other, own_server) == 1
            {
                sink.add(
                    ids::IMP_NEAR,
                    default_severity(ids::IMP_NEAR),
                    &server,
                    "serverInfo.name",
                    format!(
                        "Server name is one edit away from the approved server {}",
                        visible(other)
                    ),
                    visible(own_server),
                );
            }
        }
        if !own_server.is_ascii()
            && skeleton_of(own_server).is_ascii()
            && skeleton_of(own_server) != own_server.to_lowercase()
        {
            sink.add(
                ids::IMP_CONFUSABLE,
                Severity::High,
                &server,
                "serverInfo.name",
                "Server name is made of look-alike characters".into(),
                visible_codepoints(own_server),
            );
        }
    }
}

/// The name with each non-ASCII character replaced by its TR39 prototype
/// (`sеnd` → `send`), i.e. what a reader believes they see.
fn as_latin(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii() {
                c.to_string()
            } else {
                skeleton(c.encode_utf8(&mut [0; 4])).collect()
            }
        })
        .collect()
}

/// A name with every non-ASCII character spelled out, so a reviewer sees the impostor.
fn visible_codepoints(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().take(200) {
        if c.is_ascii() || crate::visible::is_hidden(c) {
            // A hidden character is its marker alone, never itself.
            out.push_str(&visible(&c.to_string()));
        } else {
            out.push_str(&format!("{c}<U+{:04X}>", c as u32));
        }
    }
    out
}

/// Duplicate names within one list.
pub fn duplicates(sink: &mut Sink<'_>, snapshot: &Snapshot) {
    // Counted in first-seen order, so that findings come out in snapshot order.
    let mut seen: FastMap<(TargetKind, &str), usize> = FastMap::default();
    let mut order: Vec<((TargetKind, &str), usize)> = Vec::new();
    let all = snapshot
        .tools
        .iter()
        .map(|x| (TargetKind::Tool, x.name.as_str()))
        .chain(
            snapshot
                .prompts
                .iter()
                .map(|x| (TargetKind::Prompt, x.name.as_str())),
        )
        .chain(
            snapshot
                .resources
                .iter()
                .map(|x| (TargetKind::Resource, x.name.as_str())),
        )
        .chain(
            snapshot
                .resource_templates
                .iter()
                .map(|x| (TargetKind::ResourceTemplate, x.name.as_str())),
        );
    for key in all {
        let i = *seen.entry(key).or_insert_with(|| {
            order.push((key, 0));
            order.len() - 1
        });
        order[i].1 += 1;
    }
    for ((kind, name), n) in order {
        if n > 1 {
            sink.add(
                ids::PRO_DUPLICATE,
                default_severity(ids::PRO_DUPLICATE),
                &Target::new(kind, name),
                "name",
                format!("{n} capabilities of this kind share the name"),
                visible(name),
            );
        }
    }
}

/// Naming and description quality.
pub fn quality(sink: &mut Sink<'_>, snapshot: &Snapshot) {
    let min_chars = sink.config().thresholds.description_min_chars;
    let mut styles: BTreeSet<&'static str> = BTreeSet::new();
    for tool in &snapshot.tools {
        let t = Target::new(TargetKind::Tool, &tool.name);
        let name = tool.name.as_str();
        if !in_name_charset(name) {
            sink.add(
                ids::QLT_NAME_CHARSET,
                default_severity(ids::QLT_NAME_CHARSET),
                &t,
                "name",
                "Tool name is outside [A-Za-z0-9_.-]{1,128}".into(),
                evidence_window(name, 0..name.len()),
            );
        }
        styles.extend(style(name));
        let stem = name
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .trim_end_matches(['_', '-']);
        if lowered_in_set(stem, GENERIC_NAMES, &GENERIC_SET) {
            sink.add(
                ids::QLT_GENERIC,
                default_severity(ids::QLT_GENERIC),
                &t,
                "name",
                "Generic name that does not say what the tool does".into(),
                visible(name),
            );
        } else if !has_verb_word(name) {
            sink.add(
                ids::QLT_VERB_NOUN,
                default_severity(ids::QLT_VERB_NOUN),
                &t,
                "name",
                "Name has no verb; verb_noun names say what a tool does".into(),
                visible(name),
            );
        }
        description_quality(sink, &t, name, tool.description.as_deref(), min_chars);
        if let Some(props) = tool
            .input_schema
            .as_ref()
            .and_then(|s| s.get("properties"))
            .and_then(|p| p.as_object())
        {
            let missing: Vec<&str> = props
                .iter()
                .filter(|(_, v)| {
                    v.get("description")
                        .and_then(|d| d.as_str())
                        .is_none_or(|d| d.trim().is_empty())
                })
                .map(|(k, _)| k.as_str())
                .collect();
            if !missing.is_empty() {
                let list = missing
                    .iter()
                    .take(10)
                    .copied()
                    .collect::<Vec<_>>()
                    .join(", ");
                sink.add(
                    ids::QLT_PARAM_DESCRIPTION,
                    default_severity(ids::QLT_PARAM_DESCRIPTION),
                    &t,
                    "inputSchema.properties",
                    match missing.len() {
                        1 => "1 parameter without a description".to_string(),
                        n => format!("{n} parameters without a description"),
                    },
                    visible(&list),
                );
            }
        }
    }
    for p in &snapshot.prompts {
        let t = Target::new(TargetKind::Prompt, &p.name);
        description_quality(sink, &t, &p.name, p.description.as_deref(), min_chars);
    }
    if styles.len() > 1 {
        let list = styles.into_iter().collect::<Vec<_>>().join(", ");
        sink.add(
            ids::QLT_MIXED_STYLE,
            default_severity(ids::QLT_MIXED_STYLE),
            &Target::server(),
            "tools",
            format!("Tool names mix naming styles: {list}"),
            list.clone(),
        );
    }
}

fn description_quality(
    sink: &mut Sink<'_>,
    t: &Target,
    name: &str,
    description: Option<&str>,
    min_chars: usize,
) {
    let d = description.unwrap_or_default().trim();
    // Only a short description can merely repeat the name.
    let same_as_name = d.len() <= name.len() + 8 && words(d).join("_") == words(name).join("_");
    let (severity, message) = if d.is_empty() {
        (
            default_severity(ids::QLT_DESCRIPTION),
            "Missing description",
        )
    } else if VAGUE.is_match(d) || same_as_name {
        (
            default_severity(ids::QLT_DESCRIPTION),
            "Vague description that repeats the name or says nothing",
        )
    } else if d.chars().count() < min_chars {
        (
            default_severity(ids::QLT_DESCRIPTION),
            "Description too short to guide a model",
        )
    } else {
        return;
    };
    sink.add(
        ids::QLT_DESCRIPTION,
        severity,
        t,
        "description",
        message.into(),
        visible(d),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_every_naming_style() {
        assert_eq!(words("getUserName"), ["get", "user", "name"]);
        assert_eq!(words("list-files_v2"), ["list", "files", "v2"]);
        assert_eq!(words("ÉtatGet_x"), ["état", "get", "x"]);
        assert_eq!(words("HTTPRequest/a.b c"), ["httprequest", "a", "b", "c"]);
        assert_eq!(words("__a__Bc--dE9f/"), ["a", "bc", "d", "e9f"]);
        assert_eq!(words("x1Y"), ["x1", "y"]);
        assert!(words("_-. /").is_empty());
    }

    #[test]
    fn verb_and_generic_lists_are_lower_case_ascii_so_ascii_words_compare_blind_to_case() {
        for w in VERBS.iter().chain(GENERIC_NAMES) {
            assert!(
                w.is_ascii() && !w.bytes().any(|b| b.is_ascii_uppercase()),
                "{w}"
            );
        }
        for name in [
            "getUserName",
            "Search_Files",
            "ÉtatGet_x",
            "ÉtatXyz",
            "fooBar",
            "LIST-all",
            "x1Y",
            "",
            "\u{212a}ill",
        ] {
            let by_words = words(name).iter().any(|x| VERBS.contains(&x.as_str()));
            assert_eq!(has_verb_word(name), by_words, "{name}");
        }
        assert!(lowered_in("Process", GENERIC_NAMES));
        assert!(!lowered_in("processes", GENERIC_NAMES));
        for word in [
            "Process",
            "processes",
            "GET",
            "getx",
            "",
            "Ünknown",
            &"x".repeat(40),
        ] {
            assert_eq!(
                lowered_in_set(word, GENERIC_NAMES, &GENERIC_SET),
                lowered_in(word, GENERIC_NAMES),
                "{word}"
            );
            assert_eq!(
                lowered_in_set(word, VERBS, &VERB_SET),
                lowered_in(word, VERBS),
                "{word}"
            );
        }
    }

    #[test]
    fn duplicate_names_are_reported_in_snapshot_order() {
        let snap: Snapshot = serde_json::from_value(serde_json::json!({"tools": [
            {"name": "b", "inputSchema": {"type": "object"}},
            {"name": "a", "inputSchema": {"type": "object"}},
            {"name": "b", "inputSchema": {"type": "object"}},
            {"name": "a", "inputSchema": {"type": "object"}},
            {"name": "c", "inputSchema": {"type": "object"}}
        ]}))
        .unwrap();
        let config = crate::analysis::RulesConfig::default();
        let mut sink = Sink::new(&config);
        duplicates(&mut sink, &snap);
        let names: Vec<String> = sink
            .into_findings()
            .into_iter()
            .map(|f| f.target.name)
            .collect();
        assert_eq!(names, ["b", "a"]);
    }

    #[test]
    fn the_name_charset_is_the_mcp_one() {
        assert!(in_name_charset("get_file.v2-beta"));
        assert!(in_name_charset(&"a".repeat(128)));
        for bad in ["", "get file", "getFile()", "données", &"a".repeat(129)] {
            assert!(!in_name_charset(bad), "{bad:?}");
        }
    }

    #[test]
    fn styles_are_told_apart() {
        assert_eq!(style("list_files"), Some("snake_case"));
        assert_eq!(style("listFiles"), Some("camelCase"));
        assert_eq!(style("list-files"), Some("kebab-case"));
        assert_eq!(style("search"), None);
    }

    #[test]
    fn the_ascii_skeleton_shortcut_agrees_with_tr39() {
        let mut samples: Vec<String> = (32u8..127).map(|b| char::from(b).to_string()).collect();
        samples.extend(
            [
                "rn_files",
                "get_0l1I|",
                "`quote`",
                "A-Za-z0-9_.~",
                "modern",
                "c1ose",
            ]
            .map(String::from),
        );
        for s in samples {
            let full = skeleton(&s).collect::<String>().to_lowercase();
            assert_eq!(skeleton_of(&s), full, "{s:?}");
        }
    }

    #[test]
    fn a_cyrillic_letter_has_a_latin_skeleton() {
        assert_eq!(as_latin("s\u{0435}nd_email"), "send_email");
        assert_eq!(skeleton_of("s\u{0435}nd_email"), skeleton_of("send_email"));
    }
}

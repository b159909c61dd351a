//! Capability analysis: rules over a Snapshot → Report (pure; no I/O).
//!
//! One pass collects every string a client could put before a model
//! (`collect`), each is prepared once (`normalize`: NFKC, invisible
//! characters stripped and recorded, hidden texts decoded), and the rules
//! (`rules`) run over the prepared text and over every decoded hidden text.
//! Phrase lists are data (`phrases`), one table per language. Whole-snapshot
//! rules (names, schemas, bloat, protocol, annotations) run once.
//!
//! Severity is the risk to a client that loads these descriptions: `high` and
//! `critical` only where text tries to steer the model, hide something or
//! take data; quality and bloat findings stay at `medium` or below unless
//! extreme.

pub mod catalogue;
pub mod collect;
pub mod config;
pub mod directive;
pub mod format;
pub mod model;
pub mod normalize;
pub mod phrases;
pub mod report;
pub mod rules;

pub use catalogue::{RuleInfo, catalogue};
pub use config::{ExtraRule, RulesConfig, Thresholds};
pub use report::{Category, Finding, Report, ReportServer, Severity, Summary};

use crate::snapshot::Snapshot;
use collect::FieldKind;
use normalize::Prepared;
use rules::text::Subject;

/// Hash map keyed by strings from the snapshot. `ahash` is several times
/// faster than the standard SipHash on short keys, and its per-process
/// random keys keep a hostile server from crafting colliding names.
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, ahash::RandomState>;

/// A set of 64-bit hashes that come from a keyed hash with per-analysis
/// random keys, used as they are instead of being hashed again. A collision
/// makes two words count as one, with a chance no server can steer.
pub(crate) type HashSet64 =
    std::collections::HashSet<u64, std::hash::BuildHasherDefault<Prehashed>>;

/// Hasher for keys that already are random-keyed hashes.
#[derive(Default)]
pub(crate) struct Prehashed(u64);

impl std::hash::Hasher for Prehashed {
    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys are hashed; kept total for safety.
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = i;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Hash map of a fixed vocabulary, built once and afterwards only looked up:
/// hashed with [`WordHasher`], not with `ahash`'s random keys. A text cannot
/// add keys to such a table, so it cannot make them collide either.
pub(crate) type WordMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<WordHasher>>;

/// FxHash-style hasher (a rotate, a xor and a multiply per eight bytes) for
/// the short words of a [`WordMap`]: several times fewer instructions than
/// `ahash` on a word. Fixed, not keyed: only for tables of fixed keys.
#[derive(Default, Clone, Copy)]
pub(crate) struct WordHasher(u64);

impl WordHasher {
    /// The multiplier of `rustc-hash` 2.
    const K: u64 = 0xf135_7aea_2e62_a9c5;

    #[inline(always)]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::K);
    }
}

impl std::hash::Hasher for WordHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        }
        // The last one to seven bytes, read as two overlapping halves (no
        // copy of a variable length), with their count.
        let rest = chunks.remainder();
        let n = rest.len();
        let last = match n {
            0 => return,
            1..=3 => {
                u64::from(rest[0]) | (u64::from(rest[n / 2]) << 8) | (u64::from(rest[n - 1]) << 16)
            }
            _ => {
                let head = u32::from_le_bytes(rest[..4].try_into().expect("four bytes"));
                let tail = u32::from_le_bytes(rest[n - 4..].try_into().expect("four bytes"));
                u64::from(head) | (u64::from(tail) << 32)
            }
        };
        self.add(last ^ ((n as u64) << 59));
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn finish(&self) -> u64 {
        // The multiply leaves the low bits weak; hashbrown takes its bucket
        // from them and its tag from the top seven.
        self.0.rotate_left(26)
    }
}

/// What the analysis knows beyond the snapshot: already-approved servers.
///
/// Leave out the server being analysed itself (a rescan of an approved
/// server): its own tools would otherwise conflict with themselves. Tools
/// whose server name equals the snapshot's `serverInfo.name` are ignored.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// Tool names of approved servers, each with the name of the server that owns it.
    pub approved_tools: Vec<(String, String)>,
    /// Names of approved servers.
    pub approved_servers: Vec<String>,
}

/// Shorter strings (enum values like `ok`) cannot hold a phrase worth reporting.
const MIN_PROSE_BYTES: usize = 5;

/// Longest string remembered as clean (see `analyze`).
const MAX_CACHED_BYTES: usize = 160;

/// Builds the analysis's tables (vocabulary, phrase automaton, learned
/// model), which the first analysis in a process would otherwise build
/// first. A command that reads or crawls a snapshot before analysing it
/// calls this on another thread, so the tables are built meanwhile.
pub fn warm_up() {
    std::sync::LazyLock::force(&directive::lexicon::LEXICON);
    std::sync::LazyLock::force(&phrases::PHRASES);
    std::sync::LazyLock::force(&model::MODEL);
}

/// Analyses a snapshot.
pub fn analyze(snapshot: &Snapshot, ctx: &Context, rules: &RulesConfig) -> Report {
    analyze_on(snapshot, ctx, rules, None)
}

/// [`analyze`] on `threads` threads (by default as many as [`threads_for`]
/// the snapshot's text; more than one also runs the whole-snapshot rules
/// on a thread of their own). The report is the same for any number.
fn analyze_on(
    snapshot: &Snapshot,
    ctx: &Context,
    rules: &RulesConfig,
    threads: Option<usize>,
) -> Report {
    let server = snapshot
        .server_info
        .as_ref()
        .map(|i| ReportServer {
            name: i.name.clone(),
            version: i.version.clone(),
        })
        .unwrap_or_default();
    let mut sink = rules::Sink::new(rules);
    // The whole-snapshot rules need neither the fields nor the names: for a
    // snapshot that will be read on several threads they run on a thread
    // of their own from the start, beside the collection, the names and
    // the reading, instead of after them on one core. Whether it will be
    // is judged before collecting, from its descriptions' bytes (a share
    // of its text that costs nothing to count). Their findings are added
    // after the fields', as one thread reports them (`Sink::absorb` keeps
    // the order and de-duplication).
    let beside = threads.map_or_else(
        || description_bytes(snapshot) >= BYTES_PER_THREAD && cores() > 1,
        |t| t > 1,
    );
    std::thread::scope(|scope| {
        let whole = beside.then(|| {
            scope.spawn(|| {
                let mut before = rules::Sink::new(rules);
                whole_before_sizes(&mut before, snapshot, ctx);
                let mut after = rules::Sink::new(rules);
                whole_after_sizes(&mut after, snapshot);
                (before.into_findings(), after.into_findings())
            })
        });
        let mut collected = collect::collect(snapshot);
        let names = rules::Names::of(snapshot, &ctx.approved_tools, collected.take_schema_words());
        let fields = collected.fields();
        let tokens = read_all_fields(&mut sink, &fields, &names, rules, threads);
        match whole {
            Some(whole) => {
                let (before, after) = match whole.join() {
                    Ok(found) => found,
                    Err(panic) => std::panic::resume_unwind(panic),
                };
                sink.absorb(before);
                rules::bloat::sizes(&mut sink, snapshot, tokens);
                sink.absorb(after);
            }
            None => {
                whole_before_sizes(&mut sink, snapshot, ctx);
                rules::bloat::sizes(&mut sink, snapshot, tokens);
                whole_after_sizes(&mut sink, snapshot);
            }
        }
    });
    Report::new(server, escalate(sink.into_findings(), rules))
}

/// The whole-snapshot rules reported before the bloat rules' sizes (which
/// need the fields' tokens).
fn whole_before_sizes(sink: &mut rules::Sink<'_>, snapshot: &Snapshot, ctx: &Context) {
    rules::names::impersonation(sink, snapshot, ctx);
    rules::names::duplicates(sink, snapshot);
    rules::names::quality(sink, snapshot);
    rules::schema::check(sink, snapshot);
}

/// The whole-snapshot rules reported after the bloat rules' sizes.
fn whole_after_sizes(sink: &mut rules::Sink<'_>, snapshot: &Snapshot) {
    rules::bloat::duplicates(sink, snapshot);
    rules::protocol::check(sink, snapshot);
    rules::annotations::check(sink, snapshot);
}

/// Text of at least this many bytes per thread is read on several threads.
const BYTES_PER_THREAD: usize = 32 * 1024;

/// Most threads one analysis uses.
const MAX_THREADS: usize = 4;

/// On several threads, fields are read in runs of about a
/// `1 / (RUNS_PER_THREAD * threads)` share of the text, each taken by
/// whichever thread is free: runs of equal bytes are not of equal work,
/// and the whole-snapshot rules take a core for a while, so equal halves
/// left a core idle at the end.
const RUNS_PER_THREAD: usize = 8;

/// Smallest run worth a sink of its own.
const MIN_RUN_BYTES: usize = 8 * 1024;

/// How many threads to read `bytes` of text on: one per
/// [`BYTES_PER_THREAD`], at most one per core and [`MAX_THREADS`]. A
/// typical server (a few kilobytes) is read on the calling thread.
fn threads_for(bytes: usize) -> usize {
    (bytes / BYTES_PER_THREAD).clamp(1, cores().clamp(1, MAX_THREADS))
}

/// The cores this process may run on.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// Bytes of the capabilities' descriptions: part of the text
/// [`threads_for`] counts, known before it is collected. At least
/// [`BYTES_PER_THREAD`] of them (a few hundred tools) is a snapshot large
/// enough to be worth a second thread from the start.
fn description_bytes(snapshot: &Snapshot) -> usize {
    let tools = snapshot.tools.iter().map(|t| &t.description);
    let prompts = snapshot.prompts.iter().map(|p| &p.description);
    let resources = snapshot.resources.iter().map(|r| &r.description);
    tools
        .chain(prompts)
        .chain(resources)
        .flatten()
        .map(String::len)
        .sum()
}

/// Runs the per-field rules over every field into `sink` and returns the
/// fields' token count (for the bloat rules).
///
/// Fields are independent of each other (the rules see one field and the
/// server-wide `names`), so on several threads (`threads`, or by default
/// [`threads_for`] their text) they are cut into runs of similar size that
/// the threads take in turn, each run read into a sink of its own, and the
/// runs' findings are added to `sink` in field order: the findings, their
/// order and their de-duplication are exactly those of one thread reading
/// every field. A panic on any thread is raised again on the caller's,
/// where the worker's guard catches it.
fn read_all_fields(
    sink: &mut rules::Sink<'_>,
    fields: &[collect::TextField<'_>],
    names: &rules::Names,
    config: &RulesConfig,
    threads: Option<usize>,
) -> usize {
    let total: usize = fields.iter().map(|f| f.text.len()).sum();
    let threads = threads.unwrap_or_else(|| threads_for(total));
    if threads <= 1 {
        return read_fields(sink, fields, names);
    }
    let share = total.div_ceil(threads * RUNS_PER_THREAD).max(MIN_RUN_BYTES);
    let mut runs: Vec<&[collect::TextField<'_>]> = Vec::new();
    let (mut start, mut bytes) = (0, 0);
    for (i, f) in fields.iter().enumerate() {
        bytes += f.text.len();
        if bytes >= share {
            runs.push(&fields[start..=i]);
            (start, bytes) = (i + 1, 0);
        }
    }
    if start < fields.len() {
        runs.push(&fields[start..]);
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    // Takes runs until none is left; a thread keeps one cache of clean
    // strings over all the runs it reads.
    let take_runs = || {
        let mut clean = Clean::with_capacity_and_hasher(fields.len(), ahash::RandomState::new());
        let mut read = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(run) = runs.get(i) else { break };
            let mut own = rules::Sink::new(config);
            let tokens = read_fields_cached(&mut own, run, names, &mut clean);
            read.push((i, own.into_findings(), tokens));
        }
        read
    };
    let mut results: Vec<(usize, Vec<Finding>, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads.min(runs.len()))
            .map(|_| scope.spawn(take_runs))
            .collect();
        let mut all = take_runs();
        for h in handles {
            match h.join() {
                Ok(read) => all.extend(read),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        all
    });
    results.sort_unstable_by_key(|r| r.0);
    let mut tokens = 0;
    for (_, findings, run_tokens) in results {
        sink.absorb(findings);
        tokens += run_tokens;
    }
    tokens
}

/// Strings (with their kind) that yielded no report (see [`read_fields`]).
type Clean<'f> = FastMap<(FieldKind, &'f str), ()>;

/// The per-field rules over `fields`, on this thread; returns their tokens.
fn read_fields(
    sink: &mut rules::Sink<'_>,
    fields: &[collect::TextField<'_>],
    names: &rules::Names,
) -> usize {
    // Sized up front: growing it rehashed every key.
    let mut clean = Clean::with_capacity_and_hasher(fields.len(), ahash::RandomState::new());
    read_fields_cached(sink, fields, names, &mut clean)
}

/// [`read_fields`] with the cache of clean strings `clean`, which a thread
/// keeps over every run of fields it reads.
fn read_fields_cached<'f>(
    sink: &mut rules::Sink<'_>,
    fields: &[collect::TextField<'f>],
    names: &rules::Names,
    clean: &mut Clean<'f>,
) -> usize {
    // Servers repeat strings ("Repository owner" in every tool): a string
    // that yielded nothing once yields nothing again, since the text rules
    // depend only on the string, its kind and the server-wide names.
    // Only short strings repeat in practice; hashing long ones costs more than it saves.
    // The entry API hashes a string once for both the lookup and the insertion.
    // Counted here, while each string is in cache, for the bloat rules.
    let mut tokens = 0usize;
    // One plain-text buffer for every field in turn.
    let mut buffer = String::new();
    for field in fields {
        tokens += rules::bloat::field_tokens(field);
        let cacheable = field.text.len() <= MAX_CACHED_BYTES;
        let slot = if cacheable {
            match clean.entry((field.kind, field.text)) {
                std::collections::hash_map::Entry::Occupied(_) => continue,
                std::collections::hash_map::Entry::Vacant(v) => Some(v),
            }
        } else {
            None
        };
        let reported = sink.reported();
        let prepared = Prepared::with_buffer(field.text, std::mem::take(&mut buffer));
        let hidden = prepared.hidden();
        rules::hidden::check(sink, field, &prepared, &hidden);
        // Prose is read as text; names and keys are read as the words they
        // are made of (`ignore_previous_instructions`); URIs are identifiers
        // that the hidden-content and name rules cover.
        let role = rules::directives::role_of(field);
        // Every reading of the field goes through the same prose rules.
        let mut read = |text: &Prepared, hidden: Option<&normalize::Hidden>, role| {
            rules::text::check(
                sink,
                names,
                &Subject {
                    field,
                    text,
                    hidden,
                    role,
                    listed: None,
                },
            );
        };
        // A name, a key, or a value that is one identifier (an enum value, a
        // default: `auto_approve_all_gates`) is read as the words it is
        // made of; other prose as it stands.
        if let Some(words) = rules::directives::spoken_words(field) {
            read(&Prepared::new(&words), None, directive::Role::Name);
        } else if field.kind == FieldKind::Prose && prepared.plain.len() >= MIN_PROSE_BYTES {
            read(&prepared, None, role);
        }
        for h in &hidden {
            read(&Prepared::new(&h.text), Some(h), role);
        }
        for comment in code_comment_texts(field) {
            read(&Prepared::new(&comment), None, role);
        }
        buffer = prepared.into_buffer();
        if let Some(slot) = slot
            && sink.reported() == reported
        {
            slot.insert(());
        }
    }
    tokens
}

/// The comments inside a prose field's fenced code that speak to the agent:
/// prose the block would hide, read on their own by [`analyze`] and given
/// to the model by [`model_texts`] alike.
fn code_comment_texts(field: &collect::TextField<'_>) -> Vec<String> {
    if field.kind != FieldKind::Prose {
        return Vec::new();
    }
    normalize::code_comments(field.text, rules::directives::addresses_agent)
}

/// One text as the directive model and the learned model read it: what
/// [`analyze`] reads, exposed for training and evaluating the model.
#[derive(Debug)]
pub struct ModelText {
    /// The capability.
    pub target: crate::snapshot::Target,
    /// The field path.
    pub field: String,
    /// The plain text read.
    pub plain: String,
    /// Its reading.
    pub reading: directive::Reading,
    /// What part of the capability it is.
    pub role: directive::Role,
    /// Whether it was decoded from hidden content.
    pub hidden: bool,
    /// The contract it is read against.
    pub contract: directive::Contract,
}

/// Every text of a snapshot that [`analyze`] gives the directive model and
/// the learned model, read exactly as [`analyze`] reads it.
pub fn model_texts(snapshot: &Snapshot) -> Vec<ModelText> {
    let mut collected = collect::collect(snapshot);
    let names = rules::Names::of(snapshot, &[], collected.take_schema_words());
    let mut out = Vec::new();
    for field in collected.fields() {
        let prepared = Prepared::new(field.text);
        let mut role = rules::directives::role_of(&field);
        let comments = code_comment_texts(&field);
        let mut texts: Vec<(Prepared<'_>, bool)> = Vec::new();
        let words;
        if let Some(w) = rules::directives::spoken_words(&field) {
            words = w;
            role = directive::Role::Name;
            texts.push((Prepared::new(&words), false));
        } else if field.kind == FieldKind::Prose && prepared.plain.len() >= MIN_PROSE_BYTES {
            texts.push((prepared.clone(), false));
        }
        let hidden = prepared.hidden();
        let decoded: Vec<Prepared<'_>> = hidden.iter().map(|h| Prepared::new(&h.text)).collect();
        for d in decoded {
            texts.push((d, true));
        }
        for c in &comments {
            texts.push((Prepared::new(c), false));
        }
        for (text, is_hidden) in texts {
            let reading = directive::read(&text.plain, |i| text.upper_at(i), &names);
            let subject_contract = rules::directives::contract_for(&names, &field);
            out.push(ModelText {
                target: field.target.clone(),
                field: field.field.to_string(),
                plain: text.plain.clone(),
                reading,
                role,
                hidden: is_hidden,
                contract: subject_contract,
            });
        }
    }
    out
}

/// Categories whose high findings mean text is working against the user.
const HOSTILE: [Category; 5] = [
    Category::Injection,
    Category::Concealment,
    Category::Exfiltration,
    Category::SensitiveData,
    Category::Shadowing,
];

/// Raises high findings to critical where one field combines two or more
/// hostile categories (e.g. an instruction to read a key *and* to hide it):
/// one signal can be a clumsy description, two together are an attack.
/// Findings whose severity the configuration overrides are left alone.
fn escalate(mut findings: Vec<Finding>, rules: &RulesConfig) -> Vec<Finding> {
    use std::collections::{HashMap, HashSet};
    let mut per_field: HashMap<(&crate::snapshot::Target, &str), HashSet<Category>> =
        HashMap::new();
    for f in &findings {
        if f.severity == Severity::High && HOSTILE.contains(&f.category) {
            per_field
                .entry((&f.target, f.field.as_str()))
                .or_default()
                .insert(f.category);
        }
    }
    let hot: HashSet<(crate::snapshot::Target, String)> = per_field
        .into_iter()
        .filter(|(_, cats)| cats.len() >= 2)
        .map(|((t, field), _)| (t.clone(), field.to_string()))
        .collect();
    for f in &mut findings {
        let key = (f.target.clone(), f.field.clone());
        if f.severity == Severity::High
            && HOSTILE.contains(&f.category)
            && !rules.severity.contains_key(&f.rule)
            && hot.contains(&key)
        {
            f.severity = Severity::Critical;
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tool of the analysis fixtures, several times over with each
    /// copy's strings made distinct, and the copies' tools in the same
    /// fields with repeats, so that runs split inside capabilities, repeated
    /// strings fall into different runs, and one rule × field is reported
    /// in more than one run.
    fn large_snapshot() -> Snapshot {
        let mut tools = Vec::new();
        for dir in ["honest", "attacks"] {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/analysis")
                .join(dir);
            let mut paths: Vec<_> = std::fs::read_dir(root)
                .expect("fixtures")
                .map(|e| e.expect("entry").path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .filter(|p| p.file_name().is_some_and(|n| n != "labels.json"))
                .collect();
            paths.sort();
            for p in paths {
                let snap: Snapshot =
                    serde_json::from_slice(&std::fs::read(p).expect("read")).expect("snapshot");
                tools.extend(snap.tools);
            }
        }
        let mut all = Vec::new();
        for copy in 0..6 {
            for t in &tools {
                let mut t = t.clone();
                if copy % 2 == 1 {
                    t.name = format!("{}_{copy}", t.name);
                    t.description = t.description.map(|d| format!("{d} ({copy})"));
                }
                all.push(t);
            }
        }
        Snapshot {
            tools: all,
            ..Snapshot::default()
        }
    }

    #[test]
    fn reading_fields_on_several_threads_reports_exactly_what_one_thread_does() {
        let snapshot = large_snapshot();
        let config = RulesConfig::default();
        let read = |threads: usize| {
            let mut collected = collect::collect(&snapshot);
            let names = rules::Names::of(&snapshot, &[], collected.take_schema_words());
            let fields = collected.fields();
            let mut sink = rules::Sink::new(&config);
            let tokens = read_all_fields(&mut sink, &fields, &names, &config, Some(threads));
            (sink.into_findings(), tokens)
        };
        let (one, one_tokens) = read(1);
        assert!(
            one.iter().filter(|f| f.severity >= Severity::High).count() > 20,
            "the snapshot has attacks to find"
        );
        for threads in [2, 3, 4, 7] {
            let (many, tokens) = read(threads);
            assert_eq!(
                tokens, one_tokens,
                "{threads} threads count the same tokens"
            );
            assert_eq!(
                many, one,
                "{threads} threads report the same findings in the same order"
            );
        }
        let ctx = Context {
            approved_tools: vec![("search_repositories".into(), "github".into())],
            approved_servers: vec!["github".into()],
        };
        let one = analyze_on(&snapshot, &ctx, &config, Some(1));
        for threads in [2, 4] {
            assert_eq!(
                analyze_on(&snapshot, &ctx, &config, Some(threads)),
                one,
                "the whole report on {threads} threads"
            );
        }
        assert_eq!(analyze(&snapshot, &ctx, &config), one);
    }

    #[test]
    fn a_typical_server_is_read_on_the_calling_thread() {
        let snapshot: Snapshot = serde_json::from_value(serde_json::json!({
            "tools": (0..40).map(|i| serde_json::json!({
                "name": format!("tool_{i}"),
                "description": "Lists the open issues of a repository, newest first.",
                "inputSchema": {"type": "object"}
            })).collect::<Vec<_>>()
        }))
        .expect("snapshot");
        let bytes = collect::collect(&snapshot)
            .fields()
            .iter()
            .map(|f| f.text.len())
            .sum();
        assert_eq!(threads_for(bytes), 1);
    }
}

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

/// Analyses a snapshot.
pub fn analyze(snapshot: &Snapshot, ctx: &Context, rules: &RulesConfig) -> Report {
    let server = snapshot
        .server_info
        .as_ref()
        .map(|i| ReportServer {
            name: i.name.clone(),
            version: i.version.clone(),
        })
        .unwrap_or_default();
    let mut sink = rules::Sink::new(rules);
    let mut collected = collect::collect(snapshot);
    let names = rules::Names::of(snapshot, &ctx.approved_tools, collected.take_schema_words());
    let fields = collected.fields();
    // Servers repeat strings ("Repository owner" in every tool): a string
    // that yielded nothing once yields nothing again, since the text rules
    // depend only on the string, its kind and the server-wide names.
    // Only short strings repeat in practice; hashing long ones costs more than it saves.
    // Sized up front: growing it rehashed every key. The entry API hashes a
    // string once for both the lookup and the insertion.
    let mut clean: FastMap<(FieldKind, &str), ()> =
        FastMap::with_capacity_and_hasher(fields.len(), ahash::RandomState::new());
    // Counted here, while each string is in cache, for the bloat rules.
    let mut tokens = 0usize;
    // One plain-text buffer for every field in turn.
    let mut buffer = String::new();
    for field in &fields {
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
        rules::hidden::check(&mut sink, field, &prepared, &hidden);
        // Prose is read as text; names and keys are read as the words they
        // are made of (`ignore_previous_instructions`); URIs are identifiers
        // that the hidden-content and name rules cover.
        let role = rules::directives::role_of(field);
        match field.kind {
            FieldKind::Prose if prepared.plain.len() >= MIN_PROSE_BYTES => {
                rules::text::check(
                    &mut sink,
                    &names,
                    &Subject {
                        field,
                        text: &prepared,
                        hidden: None,
                        role,
                    },
                );
            }
            FieldKind::Name | FieldKind::SchemaKey => {
                if let Some(words) = rules::directives::name_text(field.text) {
                    let spoken = Prepared::new(&words);
                    rules::text::check(
                        &mut sink,
                        &names,
                        &Subject {
                            field,
                            text: &spoken,
                            hidden: None,
                            role,
                        },
                    );
                }
            }
            _ => {}
        }
        for h in &hidden {
            let decoded = Prepared::new(&h.text);
            rules::text::check(
                &mut sink,
                &names,
                &Subject {
                    field,
                    text: &decoded,
                    hidden: Some(h),
                    role,
                },
            );
        }
        buffer = prepared.into_buffer();
        if let Some(slot) = slot
            && sink.reported() == reported
        {
            slot.insert(());
        }
    }
    rules::names::impersonation(&mut sink, snapshot, ctx);
    rules::names::duplicates(&mut sink, snapshot);
    rules::names::quality(&mut sink, snapshot);
    rules::schema::check(&mut sink, snapshot);
    rules::bloat::check(&mut sink, snapshot, tokens);
    rules::protocol::check(&mut sink, snapshot);
    rules::annotations::check(&mut sink, snapshot);
    Report::new(server, escalate(sink.into_findings(), rules))
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
        let role = rules::directives::role_of(&field);
        let mut texts: Vec<(Prepared<'_>, bool)> = Vec::new();
        let words;
        match field.kind {
            FieldKind::Prose if prepared.plain.len() >= MIN_PROSE_BYTES => {
                texts.push((prepared.clone(), false))
            }
            FieldKind::Name | FieldKind::SchemaKey => {
                if let Some(w) = rules::directives::name_text(field.text) {
                    words = w;
                    texts.push((Prepared::new(&words), false));
                }
            }
            _ => {}
        }
        let hidden = prepared.hidden();
        let decoded: Vec<Prepared<'_>> = hidden.iter().map(|h| Prepared::new(&h.text)).collect();
        for d in decoded {
            texts.push((d, true));
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

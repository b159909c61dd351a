//! Findings from the directive model (`analysis::directive`): one rule per
//! kind of request, reported on the sentence that makes it.

use super::{Names, Sink};
use crate::analysis::catalogue::ids;
use crate::analysis::collect::{FieldKind, TextField};
use crate::analysis::directive::{self, AskKind, Contract, Reading, Role, SentenceCues, lexicon};
use crate::analysis::model::{self, Place};
use crate::analysis::report::Severity;
use crate::analysis::rules::text::Subject;

/// The rule that reports each kind of request.
pub fn rule_of(kind: AskKind) -> &'static str {
    match kind {
        AskKind::RunCommand => ids::DIR_COMMAND,
        AskKind::ContactHost => ids::DIR_ENDPOINT,
        AskKind::Redirect => ids::DIR_REDIRECT,
        AskKind::ChainCall => ids::DIR_CHAIN,
        AskKind::ScriptedReply => ids::DIR_REPLY,
        AskKind::Phishing => ids::DIR_PHISHING,
        AskKind::AlterInput => ids::DIR_INPUT,
        AskKind::AlterOutput => ids::DIR_OUTPUT,
        AskKind::Preference => ids::DIR_PREFERENCE,
        AskKind::DisableSafeguard => ids::DIR_SAFEGUARD,
        AskKind::SelfDeclared => ids::DIR_SELF_DECLARED,
        AskKind::Conditional => ids::DIR_CONDITIONAL,
        AskKind::ReadLocal => ids::DIR_READ_LOCAL,
        AskKind::SendData => ids::DIR_SEND,
        AskKind::Conceal => ids::DIR_CONCEAL,
        AskKind::Override => ids::DIR_OVERRIDE,
    }
}

/// The contract a field is read against: its capability's, narrowed to
/// the parameter whose description it is.
pub fn contract_for(names: &Names, field: &TextField<'_>) -> Contract {
    let base = names.contract(field.target);
    match parameter_of(field.field) {
        Some(param) => base.for_parameter(param),
        None => base,
    }
}

/// The parameter whose description a field path is
/// (`inputSchema.properties.path.description` → `path`). A key that is not
/// an identifier is written in brackets by `collect`
/// (`properties["{{userName}}"].description`); it is still a parameter, read
/// against its own contract, and is returned as written there (quoted,
/// JSON-escaped), which no real parameter name matches by accident.
pub fn parameter_of(field: &str) -> Option<&str> {
    const MAP: &[u8] = b".properties";
    let rest = field.strip_suffix(".description")?;
    // The last ".properties" followed by a key (as `rfind`, without building
    // a searcher for every field: this runs a few times per field).
    let bytes = rest.as_bytes();
    let at = bytes.windows(MAP.len() + 1).rposition(|w| {
        w[0] == b'.' && &w[..MAP.len()] == MAP && matches!(w[MAP.len()], b'.' | b'[')
    })?;
    let after = &rest[at + MAP.len()..];
    if let Some(key) = after.strip_prefix('[') {
        let key = key.strip_suffix(']')?;
        let inner = key.strip_prefix('"')?.strip_suffix('"')?;
        // The whole rest is one quoted key: no `"]` ends it early.
        return (!inner.is_empty() && !inner.contains("\"]")).then_some(key);
    }
    let key = after.strip_prefix('.')?;
    (!key.is_empty() && !key.contains(['.', '['])).then_some(key)
}

thread_local! {
    /// The model's scratch space, kept between texts: scoring a sentence
    /// then allocates nothing once the buffers have grown.
    static SCRATCH: std::cell::RefCell<model::Scratch> = std::cell::RefCell::default();
    /// The vector of each text's sentence probabilities, kept between
    /// texts (every text that is read has one).
    static PROBABILITIES: std::cell::Cell<Vec<f32>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Reports each request a reading makes, and the learned model's opinion
/// of its most suspicious sentence.
///
/// The rules say *what* a sentence asks for; the model says how much it
/// reads like an instruction smuggled to the agent. A rule that is precise
/// on its own (`Ask::strong`) reports at its severity; the others
/// report at high only when the model gives the sentence at least its
/// support threshold's probability, and at medium otherwise.
pub fn check(
    sink: &mut Sink<'_>,
    subject: &Subject<'_, '_>,
    reading: &Reading,
    contract: &Contract,
) {
    let model = &*model::MODEL;
    let hidden = subject.hidden.is_some();
    let asks = directive::asks(reading, contract);
    let place = Place {
        role: subject.role,
        contract,
        first: true,
        hidden,
        asks: &asks,
    };
    // Sentences mostly in an HTML comment or after padding: a reader of the
    // rendered text never sees them, and the hiding is itself a sign of
    // intent. What they ask stands without the model's support, and the
    // model reports them at high from its medium threshold.
    let padded_from = super::hidden::after_padding(
        &subject.text.plain,
        sink.config().thresholds.padding_min_chars,
    );
    let concealed_spans = super::hidden::concealed_spans(&subject.text.plain, padded_from);
    let concealed_flags = if concealed_spans.is_empty() {
        Vec::new()
    } else {
        super::hidden::mostly_within(
            reading.sentences.iter().map(|s| s.range.clone()),
            &concealed_spans,
        )
    };
    // The inside of a comment, read on its own, is concealed throughout.
    let in_comment = subject
        .hidden
        .is_some_and(|h| h.source == crate::analysis::normalize::HiddenSource::Comment);
    let concealed =
        |index: usize| in_comment || concealed_flags.get(index).copied().unwrap_or(false);
    // A sentence after padding that addresses someone (an imperative, the
    // agent, "you", an obligation) is an instruction put out of the
    // reader's sight: honest text pads nothing, so it is reported at high
    // whatever the model thinks of its wording.
    let padded_speaker = |index: usize| {
        padded_from.is_some_and(|from| {
            reading.sentences.get(index).is_some_and(|s| {
                s.range.start >= from
                    && (s.directed != 0
                        || s.cues
                            & (lexicon::AGENT | lexicon::YOU | lexicon::MODAL | lexicon::PLEASE)
                            != 0)
            })
        })
    };
    // A name that chains a second act onto the option it names
    // ("include_dotenv_and_send_to_backup", "approve_without_reading_diff")
    // carries an instruction of its own.
    let chained_name = subject.role == Role::Name && chains_a_second_act(&subject.text.plain);
    // An option (a key or a value, not the capability's own name) whose
    // chained second act works against the user stands on its own, once:
    // a request already read at high is reported as read.
    if chained_name
        && !hidden
        && subject.field.kind != FieldKind::Name
        && !asks.iter().any(|a| a.severity >= Severity::High)
        && let Some((kind, why)) = chained_harm(&subject.text.plain)
    {
        subject.report(
            sink,
            rule_of(kind),
            Severity::High,
            0..subject.text.plain.len(),
            why,
        );
    }
    // The model is asked only about sentences whose opinion can matter: one
    // that speaks to someone or describes an action (it may report alone)
    // or one a rule read as a request (it may support it). Most sentences
    // of honest text are none of these ("Repository owner"), and scoring
    // costs most of the analysis.
    let mut probabilities = PROBABILITIES.take();
    probabilities.clear();
    SCRATCH.with_borrow_mut(|scratch| {
        probabilities.extend((0..reading.sentences.len()).map(|i| {
            let s = &reading.sentences[i];
            if speaks(s, hidden)
                || chained_name
                || describes(s, subject.role)
                || asks.iter().any(|a| a.index == i)
                || concealed(i)
            {
                model::sentence_probability(model, &subject.text.plain, reading, i, place, scratch)
            } else {
                0.0
            }
        }));
    });
    for ask in &asks {
        let support = probabilities.get(ask.index).copied().unwrap_or(0.0);
        // Names read as words are the capability's own options ("skip tls
        // verification"): nothing they say stands without the model, unless
        // the name chains a request onto the option.
        let strong = (ask.strong && subject.role != Role::Name)
            || (chained_name && ask.severity >= Severity::High);
        // A sentence that keeps the user in control ("warn the user and ask
        // before closing them too") needs an explicit request to be high.
        let protective = reading
            .sentences
            .get(ask.index)
            .is_some_and(SentenceCues::protective);
        // "El asistente nunca debe pedir al usuario su PIN": a request
        // read out of a sentence that only holds the agent back is the
        // parser missing the negation; it is no finding at high.
        let restrains = reading
            .sentences
            .get(ask.index)
            .is_some_and(SentenceCues::restrains);
        if restrains && ask.severity >= Severity::High {
            subject.report(
                sink,
                rule_of(ask.kind),
                Severity::Medium,
                ask.sentence.clone(),
                ask.why,
            );
            continue;
        }
        let severity = if ask.severity >= Severity::High
            && !strong
            && (support < model.support || protective)
            && !(concealed(ask.index) && !protective && subject.role != Role::Name)
        {
            Severity::Medium
        } else {
            ask.severity
        };
        subject.report(
            sink,
            rule_of(ask.kind),
            severity,
            ask.sentence.clone(),
            ask.why,
        );
    }
    // A concealed sentence the model reads as a request is reported before
    // any other (at high from the medium threshold); otherwise the most
    // suspicious sentence.
    let hot = |(i, &p): (usize, &f32)| (p >= model.medium || padded_speaker(i)) && concealed(i);
    let best = probabilities
        .iter()
        .enumerate()
        .max_by(|&a, &b| hot(a).cmp(&hot(b)).then(a.1.total_cmp(b.1)))
        .map(|(index, &p)| (index, p));
    // The vector goes back for the next text.
    PROBABILITIES.set(probabilities);
    if let Some((index, p)) = best {
        let sentence = &reading.sentences[index];
        // A detector listing the attacks it detects mentions them.
        let hides = concealed(index);
        let alone = (speaks_alone(sentence, hidden, &subject.text.plain)
            || chained_name
            || hides
            || (describes(sentence, subject.role)
                && p >= descriptive_high()
                && !spares_noise(sentence)))
            && !reading.lists_detections(sentence)
            // "If the user asks about payments, tell them the overview from
            // the response": an answer to the user's own question, from
            // this tool's result.
            && !(sentence.marks.user_condition && sentence.tells_own_result())
            // "Even if the customer says 'no need', tell them about every
            // allergen": more told, whatever the user said.
            && !sentence.tells_user_anyway()
            // Words of a language the model never saw leave its score to
            // the cues alone: it supports the rules there, but does not
            // speak alone.
            && (hides || sentence.directed != 0 || sentence.cues & lexicon::UNTRAINED == 0);
        let threshold = if padded_speaker(index) {
            0.0
        } else if hides || chained_name {
            model.medium
        } else {
            model.high
        };
        let severity = if p >= threshold
            && alone
            && !sentence.protective()
            && !sentence.restrains()
            && !sentence.guards_secret()
            // A concealed sentence is no careful restraint.
            && (hides || !sentence.holds_back())
        {
            Severity::High
        } else if p >= model.medium {
            Severity::Medium
        } else {
            return;
        };
        subject.report(
            sink,
            ids::LRN_DIRECTIVE,
            severity,
            sentence.range.clone(),
            "Reads as an instruction smuggled to the agent (learned model)",
        );
    }
}

/// Whether the model may report a sentence alone at high: it speaks to
/// someone (a request, an obligation, an address, a condition) — a list of
/// icon names is not an instruction, however it scores — or it was hidden.
fn speaks(s: &SentenceCues, hidden: bool) -> bool {
    speaks_with(s, s.cues, hidden)
}

/// [`speaks`], for the model's finding alone. "Your business is at risk
/// and critical functions are unavailable": an English possessive with no
/// "you" and no verb of any family states something about the reader; it
/// is reported alone only as a describing sentence is.
fn speaks_alone(s: &SentenceCues, hidden: bool, plain: &str) -> bool {
    let cues = if s.cues & lexicon::YOU != 0
        && s.cues & directive::VERBS == 0
        && s.directed == 0
        && only_possessive_you(plain, s)
    {
        s.cues & !lexicon::YOU
    } else {
        s.cues
    };
    speaks_with(s, cues, hidden)
}

fn speaks_with(s: &SentenceCues, cues: lexicon::Cues, hidden: bool) -> bool {
    // Advice on how to present this tool's own results ("report the rows
    // as current counts"), with no one else involved, is the tool's
    // documentation; the output-tampering rules judge the rest.
    let presenting = s.directed & !(lexicon::V_TELL | lexicon::V_REPORT) == 0
        && cues & lexicon::N_RESULT != 0
        && cues & lexicon::USER == 0;
    let addresses = s.directed != 0
        || cues
            & (lexicon::YOU
                | lexicon::AGENT
                | lexicon::MODAL
                | lexicon::ALWAYS
                | lexicon::NEVER
                | lexicon::PLEASE
                | lexicon::USER
                | lexicon::COND)
            != 0;
    (addresses && !presenting) || hidden
}

/// Whether the sentence's second person is English "your" and no form of
/// "you" (the sentence is read only when its cues say second person and no
/// verb is directed).
fn only_possessive_you(plain: &str, s: &SentenceCues) -> bool {
    let raw = plain.get(s.range.clone()).unwrap_or("");
    let mut your = false;
    for word in raw
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
    {
        if word.eq_ignore_ascii_case("your") {
            your = true;
        } else if word.get(..3).is_some_and(|w| w.eq_ignore_ascii_case("you")) {
            return false;
        }
    }
    your
}

/// Whether a sentence describes an action (a verb of some family, in
/// prose, not a name split into words) without addressing anyone: "Valuations
/// are also forwarded, with the owner's address, to our acquisitions team".
/// The model reports such a sentence alone only when it is very sure
/// ([`DESCRIPTIVE_HIGH`]).
fn describes(s: &SentenceCues, role: Role) -> bool {
    // A sentence without a verb the lexicon knows still states something
    // ("Das Tool `x` ist abgekündigt und unsicher", "Le total affiché
    // inclut une marge de 12 %"), unless all it points at is the server's
    // own tool ("同じサーバーの start_ekyc に…含まれています").
    // Scoring is most of the analysis' cost: a verbless sentence is scored
    // only when it is long enough to state something (five words or more;
    // "Repository owner" and "Page number, from 1" are labels) and has a
    // word the lexicon knows.
    role != Role::Name
        && (s.cues & directive::VERBS != 0
            || s.marks.deprecated_tool
            || (s.tokens.len() >= VERBLESS_MIN_TOKENS
                && s.cues != 0
                && (s.marks.foreign_tool || !s.marks.own_tool)))
}

/// The fewest tokens of a verbless sentence the model reads.
const VERBLESS_MIN_TOKENS: usize = 5;

/// "Samples are averaged … so that sensor noise does not appear": a change
/// whose only stated purpose is to spare the reader noise is documentation,
/// which the model does not report alone at high (it still may at medium).
/// Anything else the sentence hides, sends, collects or charges keeps it
/// reportable.
fn spares_noise(s: &SentenceCues) -> bool {
    let m = &s.marks;
    m.noise_purpose
        && !m.conceal_purpose
        && !(m.consequence || m.scales_value || m.appends || m.downgrade)
        && s.cues & (lexicon::V_SEND | lexicon::V_COLLECT) == 0
}

/// The probability at or above which the model reports a describing
/// sentence alone at high. Chosen on three validation folds of the training
/// side (`detector_eval --split val:K`): 0.99 caught 3–4 % more attacks for
/// at most one more honest capability a fold; 0.98 and 0.97 added false
/// positives for little more.
const DESCRIPTIVE_HIGH: f32 = 0.99;

/// [`DESCRIPTIVE_HIGH`], or another value set for an experiment
/// (`detector_eval --descriptive P`), as the bits of an `f32`.
static DESCRIPTIVE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Sets the describing sentences' threshold for calibration runs.
pub fn set_descriptive_high_for_experiment(p: f32) {
    DESCRIPTIVE.store(p.to_bits(), std::sync::atomic::Ordering::Relaxed);
}

fn descriptive_high() -> f32 {
    match DESCRIPTIVE.load(std::sync::atomic::Ordering::Relaxed) {
        0 => DESCRIPTIVE_HIGH,
        bits => f32::from_bits(bits),
    }
}

/// What part of a capability a field is.
pub fn role_of(field: &TextField<'_>) -> Role {
    match field.kind {
        FieldKind::Name | FieldKind::SchemaKey => Role::Name,
        FieldKind::Uri => Role::Other,
        FieldKind::Prose => {
            if parameter_of(field.field).is_some()
                || (field.field.starts_with("arguments[") && field.field.ends_with(".description"))
            {
                Role::Parameter
            } else if matches!(
                field.field,
                "description" | "title" | "instructions" | "serverInfo.title"
            ) {
                Role::Description
            } else {
                Role::Other
            }
        }
    }
}

/// Words that chain a second act onto what a name names.
const CHAIN_WORDS: [&str; 20] = [
    "and",
    "also",
    "then",
    "plus",
    "before",
    "after",
    "without",
    "ignore",
    "disregard",
    "instead",
    "always",
    "secretly",
    "silently",
    "quietly",
    "und",
    "ohne",
    "immer",
    "zusaetzlich",
    "sem",
    "sin",
];

/// Whether a name read as words is long enough to say two things and
/// joins them: honest options name one thing ("max_results_per_page",
/// "skip_consent_for_verifiable_first_party_clients").
fn chains_a_second_act(words: &str) -> bool {
    let mut count = 0;
    let mut chained = false;
    for w in words.split_whitespace() {
        count += 1;
        chained |= CHAIN_WORDS.contains(&w);
    }
    count >= 5 && chained
}

/// Whether a text names the agent ("AI agent:", "LLM reading this", "note
/// for the assistant"): what a code comment must do to be read as prose
/// (honest comments say what the code does).
pub fn addresses_agent(text: &str) -> bool {
    let lexicon = &*lexicon::LEXICON;
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && w.len() <= 16)
        .any(|w| lexicon.word(&w.to_lowercase()) & lexicon::AGENT != 0)
}

/// What an option's chained second act does, when it works against the
/// user: read from the word that chains it on, a safeguard switched off
/// ("beta_and_turn_off_rollback_protection_and_secure_boot"), an act kept
/// from someone ("rn_and_bill_family_without_telling"), or the user's
/// history or secrets handed on ("cc_full_history_to_quality_team",
/// "…_and_also_send_contacts_to_partner_desk"). Honest options chain two
/// steps of their own job ("deploy_and_disable_maintenance_mode",
/// "export_and_upload_user_data_to_s3", "overwrite_without_asking"), and
/// what they rule out ("…_and_never_upload_user_data") is no act.
fn chained_harm(words: &str) -> Option<(AskKind, &'static str)> {
    use lexicon::*;
    let mut at = None;
    let mut offset = 0;
    for (k, w) in words.split(' ').enumerate() {
        if k > 0 && CHAIN_WORDS.contains(&w) {
            at = Some(offset);
            break;
        }
        offset += w.len() + 1;
    }
    let at = at?;
    let (head, tail) = words.split_at(at);
    // "… without telling", "… do not explain why": the act is kept from
    // the person it concerns.
    let mut pairs = tail.split(' ').zip(tail.split(' ').skip(1));
    if pairs.any(|(w, done)| {
        (w == "without" && matches!(done, "telling" | "notifying" | "informing" | "mentioning"))
            || (matches!(w, "not" | "never")
                && matches!(
                    done,
                    "explain" | "tell" | "mention" | "reveal" | "say" | "disclose"
                ))
    }) {
        return Some((
            AskKind::Conceal,
            "Names an option that also acts without telling anyone",
        ));
    }
    let prepared = crate::analysis::normalize::Prepared::new(tail);
    let reading = directive::read(&prepared.plain, |i| prepared.upper_at(i), &Names::default());
    let (mut c, mut directed) = (0, 0);
    for s in &reading.sentences {
        c |= s.cues;
        directed |= s.directed;
    }
    let has = |x: Cues| c & x != 0;
    if has(NEG | NEVER) {
        return None;
    }
    if directed & V_DISABLE != 0
        && (has(N_SAFEGUARD) || tail.split(' ').any(|w| GUARDS.contains(&w)))
    {
        return Some((
            AskKind::DisableSafeguard,
            "Names an option that also switches a safeguard off",
        ));
    }
    if directed & (V_SEND | V_PUT) != 0
        && (has(N_CONVO | N_SECRET | N_STRONG | PARTY | EXTERNAL) || reads_a_secret(head))
    {
        return Some((
            AskKind::SendData,
            "Names an option that also sends data elsewhere",
        ));
    }
    None
}

/// Whether the words before a name's chain read a secret location
/// ("read users home ssh id rsa"): a verb of reading and a credential
/// store. Honest options read one thing and hand it to their own job
/// ("read_ssh_config_and_list_hosts"); what comes after the chain decides.
fn reads_a_secret(head: &str) -> bool {
    let lexicon = &*lexicon::LEXICON;
    let mut read = false;
    let mut secret = false;
    for w in head.split(' ') {
        let c = lexicon.word(w);
        read |= c & lexicon::V_READ != 0 || matches!(w, "cat" | "dump" | "grab");
        secret |= c & (lexicon::N_SECRET | lexicon::N_STRONG) != 0
            || matches!(
                w,
                "ssh"
                    | "rsa"
                    | "ed25519"
                    | "aws"
                    | "netrc"
                    | "dotenv"
                    | "kubeconfig"
                    | "gnupg"
                    | "pgpass"
                    | "keychain"
                    | "env"
            );
    }
    read && secret
}

/// Protections an option may switch off besides the lexicon's safeguards
/// (`N_SAFEGUARD`), as words of a name.
const GUARDS: [&str; 8] = [
    "protection",
    "authentication",
    "auth",
    "2fa",
    "mfa",
    "boot",
    "encryption",
    "signing",
];

/// The words a field is read as, when it is read as words: a name or a
/// key ([`name_text`]), or a value that is one identifier
/// ([`identifier_text`]). Both are read in the role of a name.
pub fn spoken_words(field: &TextField<'_>) -> Option<String> {
    match field.kind {
        FieldKind::Name | FieldKind::SchemaKey => name_text(field.text),
        FieldKind::Prose => identifier_text(field.text),
        FieldKind::Uri => None,
    }
}

/// A string value that is one identifier (`auto_approve_all_gates`, an
/// enum value or a default), read as words like a name: letters, digits,
/// `_`, `-` and `.` only (a settings line `a=b;c=d` or an address is read
/// as prose), and three words of letters or more.
pub fn identifier_text(text: &str) -> Option<String> {
    let t = text.trim();
    if t.is_empty()
        || t.len() > MAX_IDENTIFIER_BYTES
        || !t
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.') || b >= 0x80)
        || !t.bytes().any(|b| b == b'_' || b == b'-')
    {
        return None;
    }
    // Licence ids, versions and dates ("CC-BY-4.0", "2024-01-31") have
    // fewer than three words of letters.
    let words = directive::name_words(t);
    let wordy = words
        .iter()
        .filter(|w| w.chars().count() >= 2 && w.chars().all(char::is_alphabetic))
        .count();
    (words.len() >= 3 && wordy >= 3).then(|| words.join(" "))
}

/// The longest string value read as an identifier.
const MAX_IDENTIFIER_BYTES: usize = 160;

/// A name read as words (`ignore_previous_and_send_keys` → "ignore previous
/// and send keys"), when it has enough words to say something.
pub fn name_text(name: &str) -> Option<String> {
    let words = directive::name_words(name);
    (words.len() >= 3).then(|| words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_paths_name_their_parameter() {
        assert_eq!(
            parameter_of("inputSchema.properties.path.description"),
            Some("path")
        );
        assert_eq!(
            parameter_of("inputSchema.properties.a.properties.b.description"),
            Some("b")
        );
        assert_eq!(
            parameter_of("inputSchema.properties.tags.properties[\"{{userName}}\"].description"),
            Some("\"{{userName}}\"")
        );
        assert_eq!(
            parameter_of("inputSchema.properties[\"a b\"].properties.c[\"d\"].description"),
            None
        );
        assert_eq!(
            parameter_of("inputSchema.properties[\"a b\"].properties.c.description"),
            Some("c")
        );
        assert_eq!(parameter_of("inputSchema.propertiesX.description"), None);
        assert_eq!(
            parameter_of("inputSchema.properties.propertiesX.description"),
            Some("propertiesX")
        );
        assert_eq!(parameter_of("description"), None);
        assert_eq!(parameter_of("inputSchema.properties.x.enum[0]"), None);
    }
}

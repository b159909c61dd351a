//! The learned second opinion: a linear model over hashed features of one
//! sentence — its words and word pairs, character n-grams of its words, and
//! the directive model's cues (`directive`): which verb families it asks
//! for, of which objects, in which field, against which contract.
//!
//! It is trained offline by `examples/detector_train.rs` on the project's
//! own corpus (`corpus/`: real public tool descriptions as the honest class,
//! attacks written for this project as the poisoned class), deterministically,
//! and its weights are compiled into the binary (`weights.bin`): no network,
//! no download, the same score for the same text on every machine.
//!
//! Scoring is one pass over the sentence's tokens: a few hashes per word and
//! one table lookup per feature. A hostile text cannot hide a request by
//! padding its sentence with words the model deems honest: the total of
//! negative contributions is capped ([`NEG_CAP`]).

use std::sync::LazyLock;

use crate::analysis::directive::lexicon::{self, Cues};
use crate::analysis::directive::segment::TokKind;
use crate::analysis::directive::{Contract, Reading, Role, SentenceCues, VERBS};

/// Number of hashed feature buckets (a power of two).
pub const BUCKETS: usize = 1 << 18;

/// Floor of the sum of negative weights in one sentence's score.
pub const NEG_CAP: f32 = -4.0;

/// The compiled weights: a little-endian header (magic, bucket count,
/// thresholds) and then one `f32` per bucket.
static WEIGHTS_BIN: &[u8] = include_bytes!("weights.bin");

/// Magic bytes of the weights file.
pub const MAGIC: &[u8; 8] = b"GHLRN003";

/// A trained model.
#[derive(Debug, Clone)]
pub struct Model {
    /// Bias.
    pub bias: f32,
    /// Probability at or above which a sentence is reported at medium.
    pub medium: f32,
    /// Probability at or above which a sentence is reported at high.
    pub high: f32,
    /// Probability at or above which the model supports a rule's high
    /// finding about the sentence (rules that do not stand alone).
    pub support: f32,
    /// The feature families it was trained with (and must be scored with).
    pub families: u32,
    /// One weight per bucket.
    pub weights: Vec<f32>,
}

impl Model {
    /// An untrained model (every score 0.5 minus nothing: no findings).
    pub fn empty() -> Model {
        Model {
            bias: -20.0,
            medium: 2.0,
            high: 2.0,
            support: 0.0,
            families: u32::MAX,
            weights: vec![0.0; BUCKETS],
        }
    }

    /// Serialises the model (the format [`Model::from_bytes`] reads).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 + 24 + BUCKETS * 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.weights.len() as u32).to_le_bytes());
        for v in [self.bias, self.medium, self.high, self.support] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.families.to_le_bytes());
        for w in &self.weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Reads a serialised model; `None` when the bytes are not one.
    pub fn from_bytes(bytes: &[u8]) -> Option<Model> {
        let rest = bytes.strip_prefix(MAGIC.as_slice())?;
        let n = u32::from_le_bytes(rest.get(..4)?.try_into().ok()?) as usize;
        if n != BUCKETS {
            return None;
        }
        let f = |i: usize| -> Option<f32> {
            Some(f32::from_le_bytes(
                rest.get(4 + i * 4..8 + i * 4)?.try_into().ok()?,
            ))
        };
        let (bias, medium, high, support) = (f(0)?, f(1)?, f(2)?, f(3)?);
        let families = u32::from_le_bytes(rest.get(20..24)?.try_into().ok()?);
        let body = rest.get(24..24 + n * 4)?;
        let weights = body
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Some(Model {
            bias,
            medium,
            high,
            support,
            families,
            weights,
        })
    }

    /// The probability that a sentence with these features is an
    /// instruction smuggled to the agent.
    ///
    /// Each feature has the value 1/√n for a sentence of n features, so a
    /// long sentence does not outweigh a short one by its length alone.
    pub fn probability(&self, features: &[u32]) -> f32 {
        let (mut pos, mut neg) = (0.0f32, 0.0f32);
        for &f in features {
            let w = self.weights[f as usize];
            if w >= 0.0 {
                pos += w;
            } else {
                neg += w;
            }
        }
        let scale = feature_value(features.len());
        sigmoid(self.bias + scale * pos + (scale * neg).max(NEG_CAP))
    }
}

/// The value of each feature of a sentence with `n` features.
pub fn feature_value(n: usize) -> f32 {
    1.0 / (n.max(1) as f32).sqrt()
}

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The model compiled into the binary. A missing or damaged weights file
/// is a build defect caught by the tests; at run time it yields a model
/// that never reports.
pub static MODEL: LazyLock<Model> = LazyLock::new(|| {
    let model = EXPERIMENT
        .get()
        .cloned()
        .unwrap_or_else(|| Model::from_bytes(WEIGHTS_BIN).unwrap_or_else(Model::empty));
    set_families(model.families);
    model
});

/// A model that replaces the compiled one in this process (training
/// experiments only: `detector_eval --weights FILE` scores freshly trained
/// weights without rebuilding). Nothing in the scanner sets it.
static EXPERIMENT: std::sync::OnceLock<Model> = std::sync::OnceLock::new();

/// Uses `model` instead of the compiled weights in this process. Effective
/// only before the first analysis; returns whether it was installed.
pub fn use_for_experiment(model: Model) -> bool {
    EXPERIMENT.set(model).is_ok()
}

/// FNV-1a, seeded by a feature family so that families never share keys.
/// Fixed (not per-process random): training and scoring must agree.
fn hash(family: u8, parts: &[&[u8]]) -> u32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ u64::from(family).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            h ^= 0x1f;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        for &b in *p {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    // Fold the high bits in: FNV's low bits alone are weak.
    ((h ^ (h >> 29) ^ (h >> 47)) as usize & (BUCKETS - 1)) as u32
}

/// What the features know about where a sentence stands.
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    /// What part of the capability the text is.
    pub role: Role,
    /// The contract of the capability.
    pub contract: &'a Contract,
    /// Whether this is the text's first sentence.
    pub first: bool,
    /// Whether the text was decoded from hidden content.
    pub hidden: bool,
}

/// The placeholder a token stands for in word features, if it is not a word.
fn token_class(kind: TokKind, text: &str) -> Option<&'static str> {
    Some(match kind {
        TokKind::Word => return None,
        TokKind::Url => "<url>",
        TokKind::Email => "<email>",
        TokKind::Host => "<host>",
        TokKind::Ip => "<ip>",
        TokKind::Path => "<path>",
        TokKind::Code if text.contains(' ') => "<code>",
        TokKind::Code => "<ident>",
        TokKind::Quote => "<quote>",
        TokKind::Number => "<num>",
        TokKind::Percent => "<pct>",
        TokKind::Assign => "<assign>",
        TokKind::Symbol => return None,
    })
}

/// Appends the features of sentence `index` of `reading` to `out` (bucket
/// indices, sorted and without repeats).
pub fn features(
    plain: &str,
    reading: &Reading,
    index: usize,
    place: Place<'_>,
    out: &mut Vec<u32>,
) {
    out.clear();
    let Some(s) = reading.sentences.get(index) else {
        return;
    };
    let tokens = &reading.seg.tokens[s.tokens.clone()];
    out.push(hash(0, &[b"bias-ish"]));
    let mut prev: &[u8] = b"<s>";
    for t in tokens {
        let text = &plain[t.range.clone()];
        let word: &[u8] = match token_class(t.kind, text) {
            Some(class) => class.as_bytes(),
            None => text.as_bytes(),
        };
        if t.kind == TokKind::Quote {
            // The quote's words follow as tokens of their own.
            out.push(hash(1, &[word]));
            continue;
        }
        let quoted: &[u8] = if t.quoted { b"q" } else { b"" };
        if families() & FAMILY_WORDS != 0 {
            out.push(hash(1, &[quoted, word]));
            out.push(hash(2, &[prev, word]));
        }
        prev = word;
        // Character 4-grams with boundary marks, for inflections, typos and
        // languages the vocabulary does not list.
        if t.kind == TokKind::Word && families() & FAMILY_CHARS != 0 {
            char_grams(text, out);
        }
    }
    if families() & FAMILY_WORDS != 0 {
        out.push(hash(2, &[prev, b"</s>"]));
    }
    if families() & FAMILY_SHAPE != 0 {
        shape_grams(plain, reading, s, out);
    }
    if families() & FAMILY_CUES != 0 {
        cue_features(s, place, out);
    }
    out.sort_unstable();
    out.dedup();
}

/// Feature families, switched off for experiments with
/// `detector_train --families`; the weights file records the families it
/// was trained with and loading it selects them, so scoring always uses
/// the features the weights belong to.
pub const FAMILY_WORDS: u32 = 1;
/// Character n-grams of words.
pub const FAMILY_CHARS: u32 = 2;
/// N-grams of the sentence's shape (see [`shape_grams`]).
pub const FAMILY_SHAPE: u32 = 4;
/// The directive model's cues.
pub const FAMILY_CUES: u32 = 8;

static FAMILIES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(u32::MAX);

/// The feature families in use.
pub fn families() -> u32 {
    FAMILIES.load(std::sync::atomic::Ordering::Relaxed)
}

/// Chooses the feature families (for training experiments only).
pub fn set_families(mask: u32) {
    FAMILIES.store(mask, std::sync::atomic::Ordering::Relaxed);
}

/// Closed-class words kept as themselves in a sentence's shape.
const FUNCTION_WORDS: &[&str] = &[
    "the", "a", "an", "to", "of", "in", "on", "for", "with", "by", "from", "at", "as", "and", "or",
    "but", "then", "that", "this", "it", "its", "is", "are", "be", "was", "were", "can", "may",
    "will", "would", "could", "they", "their", "them", "there", "here", "what", "which", "who",
    "where", "how", "some", "more", "most", "such", "so", "than", "into", "onto", "via", "about",
    "also", "just", "own", "same", "it's", "these", "those", "he", "she", "his", "her",
];

/// Cues in the order that decides a word's shape symbol.
const SHAPE_ORDER: &[(&str, Cues)] = &[
    ("RUN", lexicon::V_RUN),
    ("SEND", lexicon::V_SEND),
    ("PUT", lexicon::V_PUT),
    ("CONTACT", lexicon::V_CONTACT),
    ("TELL", lexicon::V_TELL),
    ("HIDE", lexicon::V_HIDE),
    ("DISABLE", lexicon::V_DISABLE),
    ("IGNORE", lexicon::V_IGNORE),
    ("COLLECT", lexicon::V_COLLECT),
    ("ALTER", lexicon::V_ALTER),
    ("PREFER", lexicon::V_PREFER),
    ("CALL", lexicon::V_CALL),
    ("READ", lexicon::V_READ),
    ("REPORT", lexicon::V_REPORT),
    ("STORE", lexicon::V_STORE),
    ("MODAL", lexicon::MODAL),
    ("YOU", lexicon::YOU),
    ("AGENT", lexicon::AGENT),
    ("USER", lexicon::USER),
    ("ALWAYS", lexicon::ALWAYS),
    ("NEVER", lexicon::NEVER),
    ("NEG", lexicon::NEG),
    ("COND", lexicon::COND),
    ("ALLQ", lexicon::ALLQ),
    ("SEQ", lexicon::SEQ),
    ("ALSO", lexicon::ALSO),
    ("PLEASE", lexicon::PLEASE),
    ("AUTO", lexicon::AUTO),
    ("SECRET", lexicon::N_SECRET | lexicon::N_STRONG),
    ("CONVO", lexicon::N_CONVO),
    ("LOCAL", lexicon::N_LOCAL),
    ("DATA", lexicon::N_DATA),
    ("RESULT", lexicon::N_RESULT),
    ("ROUTE", lexicon::N_ROUTE),
    ("INPUT", lexicon::N_INPUT),
    ("GUARD", lexicon::N_SAFEGUARD),
    ("TOOL", lexicon::N_TOOL),
    ("ALT", lexicon::N_ALT),
    ("CMD", lexicon::N_CMD),
    ("INSTR", lexicon::N_INSTR),
    ("DEPREC", lexicon::DEPREC),
    ("HYPE", lexicon::HYPE),
    ("AUTH", lexicon::AUTH),
    ("PHISH", lexicon::PHISH),
    ("EXTERNAL", lexicon::EXTERNAL),
    ("SELF", lexicon::SELF),
    ("BE", lexicon::BE),
];

/// N-grams (one to three) of the sentence's *shape*: each word replaced by
/// the family of its strongest cue ("must also be submitted to <url>" →
/// `MODAL ALSO BE SEND to <url>`), closed-class words kept, other words `W`.
/// Shapes carry the structure of a request across topics and, through the
/// vocabulary, across languages.
fn shape_grams(plain: &str, reading: &Reading, s: &SentenceCues, out: &mut Vec<u32>) {
    let mut window: [&[u8]; 3] = [b"<s>", b"<s>", b"<s>"];
    for (k, t) in reading.seg.tokens[s.tokens.clone()].iter().enumerate() {
        let text = &plain[t.range.clone()];
        let symbol: &[u8] = match token_class(t.kind, text) {
            Some(class) => class.as_bytes(),
            None => {
                let cues = reading.tok_cues[s.tokens.start + k];
                let base = cues & lexicon::BASE != 0;
                match SHAPE_ORDER.iter().find(|(_, c)| cues & c != 0) {
                    Some((name, c)) if *c & VERBS != 0 && base => match *name {
                        "RUN" => b"RUN!",
                        "SEND" => b"SEND!",
                        "PUT" => b"PUT!",
                        "CONTACT" => b"CONTACT!",
                        "TELL" => b"TELL!",
                        "HIDE" => b"HIDE!",
                        "DISABLE" => b"DISABLE!",
                        "IGNORE" => b"IGNORE!",
                        "COLLECT" => b"COLLECT!",
                        "ALTER" => b"ALTER!",
                        "PREFER" => b"PREFER!",
                        "CALL" => b"CALL!",
                        "READ" => b"READ!",
                        "REPORT" => b"REPORT!",
                        _ => b"STORE!",
                    },
                    Some((name, _)) => name.as_bytes(),
                    None if FUNCTION_WORDS.contains(&text) => text.as_bytes(),
                    None => b"W",
                }
            }
        };
        let quoted: &[u8] = if t.quoted { b"q" } else { b"" };
        window = [window[1], window[2], symbol];
        out.push(hash(12, &[quoted, window[2]]));
        out.push(hash(13, &[window[1], window[2]]));
        out.push(hash(14, &[window[0], window[1], window[2]]));
    }
}

/// Character 4-grams of a word (3-grams for words of three characters).
fn char_grams(word: &str, out: &mut Vec<u32>) {
    // ASCII words (nearly all): the same grams from the bytes, without
    // collecting characters.
    if word.is_ascii() {
        let bytes = &word.as_bytes()[..word.len().min(40)];
        if bytes.len() < 3 {
            return;
        }
        let mut padded = [0u8; 42];
        padded[0] = b'<';
        padded[1..=bytes.len()].copy_from_slice(bytes);
        padded[bytes.len() + 1] = b'>';
        let n = if bytes.len() == 3 { 3 } else { 4 };
        for w in padded[..bytes.len() + 2].windows(n) {
            out.push(hash(3, &[w]));
        }
        return;
    }
    let chars: Vec<char> = word.chars().take(40).collect();
    if chars.len() < 3 {
        return;
    }
    let mut padded = Vec::with_capacity(chars.len() + 2);
    padded.push('<');
    padded.extend_from_slice(&chars);
    padded.push('>');
    let n = if chars.len() == 3 { 3 } else { 4 };
    let mut buf = [0u8; 16];
    for w in padded.windows(n) {
        let mut len = 0;
        for c in w {
            len += c.encode_utf8(&mut buf[len..]).len();
        }
        out.push(hash(3, &[&buf[..len]]));
    }
}

/// Object cues paired with the directed verbs.
const OBJECTS: &[Cues] = &[
    lexicon::N_SECRET,
    lexicon::N_STRONG,
    lexicon::N_LOCAL,
    lexicon::N_CONVO,
    lexicon::N_DATA,
    lexicon::N_RESULT,
    lexicon::N_INPUT,
    lexicon::N_ROUTE,
    lexicon::N_SAFEGUARD,
    lexicon::N_TOOL,
    lexicon::N_ALT,
    lexicon::N_CMD,
    lexicon::N_INSTR,
    lexicon::USER,
    lexicon::AGENT,
    lexicon::EXTERNAL,
    lexicon::PHISH,
    lexicon::HYPE,
    lexicon::DEPREC,
    lexicon::AUTO,
    lexicon::MONEY,
];

/// The directive model's cues as features: each cue, each directed verb
/// family with each object present, marks, role and contract.
fn cue_features(s: &SentenceCues, place: Place<'_>, out: &mut Vec<u32>) {
    let role: &[u8] = match place.role {
        Role::Description => b"desc",
        Role::Parameter => b"param",
        Role::Name => b"name",
        Role::Other => b"other",
    };
    out.push(hash(4, &[b"role", role]));
    if place.first {
        out.push(hash(4, &[b"first"]));
    }
    if place.hidden {
        out.push(hash(4, &[b"hidden"]));
    }
    for (name, cue) in lexicon::ALL {
        if s.cues & cue != 0 {
            out.push(hash(5, &[name.as_bytes()]));
            out.push(hash(5, &[role, name.as_bytes()]));
        }
        if s.quoted & cue != 0 {
            out.push(hash(6, &[name.as_bytes()]));
        }
        if s.directed & cue != 0 {
            out.push(hash(7, &[name.as_bytes()]));
            let covered: &[u8] = if place.contract.covers & cue != 0 {
                b"own"
            } else {
                b"beyond"
            };
            out.push(hash(7, &[name.as_bytes(), covered]));
            for obj in OBJECTS {
                if s.cues & obj != 0 {
                    let oname = lexicon::names(*obj);
                    out.push(hash(
                        8,
                        &[name.as_bytes(), oname.first().map_or(b"", |n| n.as_bytes())],
                    ));
                }
            }
        }
        if s.negated & cue != 0 {
            out.push(hash(9, &[name.as_bytes()]));
        }
    }
    if s.directed & VERBS == 0 {
        out.push(hash(7, &[b"none"]));
    }
    let m = &s.marks;
    let marks: [(&[u8], bool); 24] = [
        (b"url", m.url),
        (b"host", m.host),
        (b"email", m.email),
        (b"ip", m.ip),
        (b"secret_path", m.secret_path),
        (b"path", m.path),
        (b"shell_code", m.shell_code),
        (b"code", m.code),
        (b"quote", m.quote),
        (b"long_number", m.long_number),
        (b"percent", m.percent),
        (b"safeguard_off", m.safeguard_off),
        (b"stars", m.stars >= 3),
        (b"foreign_tool", m.foreign_tool),
        (b"own_tool", m.own_tool),
        (b"foreign_call", m.foreign_call),
        (b"destructive_tool", m.destructive_tool),
        (b"than_actual", m.than_actual),
        (b"off_word", m.off_word),
        (b"user_condition", m.user_condition),
        (b"opens_condition", m.opens_condition),
        (b"cli", m.cli),
        (b"reframe", m.reframe),
        (b"neg_disclosure", s.negated_disclosure),
    ];
    for (name, on) in marks {
        if on {
            out.push(hash(10, &[name]));
            out.push(hash(10, &[role, name]));
        }
    }
    if s.neg_imperative {
        out.push(hash(10, &[b"neg_imperative"]));
    }
    if place.contract.secret_store {
        out.push(hash(11, &[b"secret_store"]));
    }
    if place.contract.parameter {
        out.push(hash(11, &[b"parameter"]));
    }
}

/// The probability of every sentence of a reading.
pub fn sentence_probabilities(
    model: &Model,
    plain: &str,
    reading: &Reading,
    place: Place<'_>,
) -> Vec<f32> {
    let mut buf = Vec::new();
    (0..reading.sentences.len())
        .map(|i| {
            features(
                plain,
                reading,
                i,
                Place {
                    first: i == 0,
                    ..place
                },
                &mut buf,
            );
            model.probability(&buf)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_weights_load() {
        let m = Model::from_bytes(WEIGHTS_BIN).expect("weights.bin is a model");
        assert_eq!(m.weights.len(), BUCKETS);
        assert!(m.high >= m.medium);
    }

    /// The general path of `char_grams`, kept to check the ASCII one.
    fn char_grams_by_chars(word: &str) -> Vec<u32> {
        let chars: Vec<char> = word.chars().take(40).collect();
        if chars.len() < 3 {
            return Vec::new();
        }
        let mut padded = vec!['<'];
        padded.extend_from_slice(&chars);
        padded.push('>');
        let n = if chars.len() == 3 { 3 } else { 4 };
        padded
            .windows(n)
            .map(|w| hash(3, &[w.iter().collect::<String>().as_bytes()]))
            .collect()
    }

    #[test]
    fn ascii_char_grams_equal_the_general_ones() {
        for word in [
            "ab",
            "abc",
            "abcd",
            "exfiltrate",
            &"x".repeat(60),
            "naïve",
            "конфиг",
        ] {
            let mut fast = Vec::new();
            char_grams(word, &mut fast);
            assert_eq!(fast, char_grams_by_chars(word), "{word}");
        }
    }

    #[test]
    fn a_model_round_trips_through_bytes() {
        let mut m = Model::empty();
        m.weights[7] = 1.5;
        m.bias = -0.25;
        let back = Model::from_bytes(&m.to_bytes()).unwrap();
        assert_eq!(back.weights[7], 1.5);
        assert_eq!(back.bias, -0.25);
        assert!(Model::from_bytes(b"nonsense").is_none());
    }

    #[test]
    fn negative_weights_cannot_drown_a_sentence() {
        let mut m = Model::empty();
        m.bias = 0.0;
        m.weights[1] = 3.0;
        for w in &mut m.weights[2..100] {
            *w = -1.0;
        }
        let padded: Vec<u32> = (1..100).collect();
        let v = feature_value(padded.len());
        assert!(m.probability(&padded) >= sigmoid(3.0 * v + NEG_CAP) - 1e-6);
    }
}

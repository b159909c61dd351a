//! Bloat rules: too many tools, too much description text, near-duplicate
//! tools. Every tool and every word costs the user context on every turn and
//! makes tool choice worse; duplicates are both.

use std::ops::Range;

use super::{Sink, default_severity};
use crate::analysis::catalogue::ids;
use crate::analysis::collect::{FieldKind, TextField};
use crate::analysis::normalize::visible;
use crate::analysis::report::Severity;
use crate::analysis::rules::names::{for_each_ascii_word, words};
use crate::analysis::{FastMap, HashSet64};
use crate::snapshot::{Snapshot, Target, TargetKind};

/// Verb synonyms folded together when comparing tool names. Data: extend freely.
const SYNONYMS: &[(&str, &str)] = &[
    ("fetch", "get"),
    ("read", "get"),
    ("retrieve", "get"),
    ("lookup", "get"),
    ("look", "get"),
    ("obtain", "get"),
    ("load", "get"),
    ("show", "get"),
    ("find", "search"),
    ("query", "search"),
    ("enumerate", "list"),
    ("add", "create"),
    ("new", "create"),
    ("insert", "create"),
    ("make", "create"),
    ("edit", "update"),
    ("modify", "update"),
    ("patch", "update"),
    ("change", "update"),
    ("remove", "delete"),
    ("destroy", "delete"),
    ("erase", "delete"),
    ("post", "send"),
    ("submit", "send"),
];

/// Above this many tools, only tools with the same folded name are compared
/// (the pairwise comparison is quadratic).
const PAIRWISE_LIMIT: usize = 1000;

/// Estimated tokens of a text: about four ASCII bytes a token, one token per other character.
pub fn estimate_tokens(s: &str) -> usize {
    if s.is_ascii() {
        return s.len().div_ceil(4);
    }
    let (mut ascii, mut other) = (0usize, 0usize);
    for c in s.chars() {
        if c.is_ascii() {
            ascii += 1;
        } else {
            other += 1;
        }
    }
    ascii.div_ceil(4) + other
}

/// The estimated tokens a field adds to the model's context (URIs are
/// addresses, not text the model reads as prose).
pub fn field_tokens(field: &TextField<'_>) -> usize {
    if field.kind == FieldKind::Uri {
        0
    } else {
        estimate_tokens(field.text)
    }
}

/// Checks counts, text size (`tokens`: the sum of [`field_tokens`] over
/// every field) and near-duplicates.
pub fn check(sink: &mut Sink<'_>, snapshot: &Snapshot, tokens: usize) {
    sizes(sink, snapshot, tokens);
    duplicates(sink, snapshot);
}

/// The count and text-size part of [`check`]: the only bloat rules that
/// need the fields' tokens, so the analysis can run [`duplicates`] before
/// the fields are read.
pub fn sizes(sink: &mut Sink<'_>, snapshot: &Snapshot, tokens: usize) {
    let th = sink.config().thresholds.clone();
    let n = snapshot.tools.len();
    let server = Target::server();
    if n > th.tool_count_high {
        sink.add(
            ids::BLT_COUNT,
            Severity::High,
            &server,
            "tools",
            format!("{n} tools (more than {})", th.tool_count_high),
            format!("{n} tools"),
        );
    } else if n > th.tool_count_medium {
        sink.add(
            ids::BLT_COUNT,
            default_severity(ids::BLT_COUNT),
            &server,
            "tools",
            format!("{n} tools (more than {})", th.tool_count_medium),
            format!("{n} tools"),
        );
    }
    if tokens > th.description_tokens_high {
        sink.add(
            ids::BLT_TOKENS,
            Severity::High,
            &server,
            "tools",
            format!(
                "About {tokens} tokens of capability text (more than {})",
                th.description_tokens_high
            ),
            format!("≈{tokens} tokens"),
        );
    } else if tokens > th.description_tokens_medium {
        sink.add(
            ids::BLT_TOKENS,
            default_severity(ids::BLT_TOKENS),
            &server,
            "tools",
            format!(
                "About {tokens} tokens of capability text (more than {})",
                th.description_tokens_medium
            ),
            format!("≈{tokens} tokens"),
        );
    }
}

/// The near-duplicate part of [`check`], which needs no tokens.
pub fn duplicates(sink: &mut Sink<'_>, snapshot: &Snapshot) {
    let threshold = sink.config().thresholds.duplicate_similarity;
    near_duplicates(sink, snapshot, threshold);
}

/// A tool's name folded to a set of words with synonyms merged and plurals
/// dropped: sorted, without repeats and joined by spaces (which no word
/// holds), so that two names are the same set exactly when the strings are
/// equal. The words are folded one after another in one buffer: a string
/// per word cost more than the rest of this rule on a large server.
fn folded_name(name: &str) -> String {
    // The folded words take about the name's bytes; a name has a few words
    // (both sizes only spare growing the buffers word by word).
    let mut buf = String::with_capacity(name.len() + 8);
    // Where each folded word lies in `buf`.
    let mut spans: Vec<Range<usize>> = Vec::with_capacity(8);
    let mut fold = |buf: &mut String, start: usize| {
        if let Some((_, to)) = SYNONYMS.iter().find(|(from, _)| *from == &buf[start..]) {
            buf.truncate(start);
            buf.push_str(to);
        }
        let w = &buf[start..];
        if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") {
            buf.pop();
        }
        spans.push(start..buf.len());
    };
    if name.is_ascii() {
        // The words of `words`, lower-cased into the buffer.
        for_each_ascii_word(name, |w| {
            let start = buf.len();
            buf.push_str(w);
            buf[start..].make_ascii_lowercase();
            fold(&mut buf, start);
        });
    } else {
        for w in words(name) {
            let start = buf.len();
            buf.push_str(&w);
            fold(&mut buf, start);
        }
    }
    spans.sort_unstable_by(|a, b| buf[a.clone()].cmp(&buf[b.clone()]));
    spans.dedup_by(|a, b| buf[a.clone()] == buf[b.clone()]);
    let mut folded = String::with_capacity(buf.len() + spans.len());
    for (k, span) in spans.into_iter().enumerate() {
        if k > 0 {
            folded.push(' ');
        }
        folded.push_str(&buf[span]);
    }
    folded
}

/// A description as a set of lower-case words, each kept as a 64-bit hash
/// (no allocation per word; a collision only makes two words count as one).
fn word_set(s: &str, keys: &ahash::RandomState) -> WordSet {
    // One reusable buffer; each word is hashed once, in one call, with this
    // analysis' random keys; the set then uses the hash as it is.
    let mut lower = String::new();
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            lower.clear();
            if w.is_ascii() {
                lower.push_str(w);
                lower.make_ascii_lowercase();
            } else {
                lower.extend(w.chars().flat_map(char::to_lowercase));
            }
            keys.hash_one(lower.as_str())
        })
        .collect()
}

/// A set of word hashes (see [`HashSet64`]).
type WordSet = HashSet64;

fn jaccard(a: &WordSet, b: &WordSet) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let inter = a.intersection(b).count() as f64;
    inter / a.union(b).count() as f64
}

fn near_duplicates(sink: &mut Sink<'_>, snapshot: &Snapshot, threshold: f64) {
    let tools = &snapshot.tools;
    let n = tools.len();
    let names: Vec<String> = tools.iter().map(|t| folded_name(&t.name)).collect();
    let keys = ahash::RandomState::new();
    // Word sets are built on first use: above the pairwise limit only tools
    // that share a folded name are ever compared.
    let mut descs: Vec<Option<WordSet>> = vec![None; n];
    let mut lower: Vec<Option<String>> = vec![None; n];
    let mut reported = vec![false; n];
    let mut pair = |i: usize, j: usize| {
        if reported[j] || tools[i].name == tools[j].name {
            return;
        }
        for k in [i, j] {
            descs[k].get_or_insert_with(|| {
                word_set(tools[k].description.as_deref().unwrap_or_default(), &keys)
            });
        }
        let (Some(di), Some(dj)) = (&descs[i], &descs[j]) else {
            return;
        };
        // Cheapest tests first: most pairs differ in name and in description size.
        let same_name = !names[i].is_empty() && names[i] == names[j];
        let (a, b) = (di.len(), dj.len());
        // A Jaccard index of 0.9 needs the smaller set to be at least 0.9 of the larger.
        let sizes_close = a >= 3 && b >= 3 && a.min(b) * 10 >= a.max(b) * 9;
        let close_name = !same_name && sizes_close && {
            for k in [i, j] {
                lower[k].get_or_insert_with(|| tools[k].name.to_lowercase());
            }
            let (Some(li), Some(lj)) = (&lower[i], &lower[j]) else {
                return;
            };
            strsim::normalized_levenshtein(li, lj) >= 0.7
        };
        if !same_name && !close_name {
            return;
        }
        let similarity = jaccard(di, dj);
        if (same_name && similarity >= threshold) || (close_name && similarity >= 0.9) {
            reported[j] = true;
            let t = Target::new(TargetKind::Tool, &tools[j].name);
            sink.add(
                ids::BLT_DUPLICATES,
                default_severity(ids::BLT_DUPLICATES),
                &t,
                "name",
                format!(
                    "Near-duplicate of {} (description similarity {:.0}%)",
                    visible(&tools[i].name),
                    similarity * 100.0
                ),
                format!("{} ≈ {}", visible(&tools[j].name), visible(&tools[i].name)),
            );
        }
    };
    if n <= PAIRWISE_LIMIT {
        for i in 0..n {
            for j in i + 1..n {
                pair(i, j);
            }
        }
    } else {
        let mut by_name: FastMap<&str, Vec<usize>> = FastMap::default();
        for (i, n) in names.iter().enumerate() {
            by_name.entry(n.as_str()).or_default().push(i);
        }
        let mut candidates: Vec<(usize, usize)> = Vec::new();
        for group in by_name.values() {
            for (a, &i) in group.iter().enumerate() {
                candidates.extend(group[a + 1..].iter().map(|&j| (i, j)));
            }
        }
        // The same order as the pairwise walk, whatever the map's order.
        candidates.sort_unstable();
        for (i, j) in candidates {
            pair(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synonyms_and_word_order_fold_to_one_name() {
        assert_eq!(folded_name("fetch_user"), folded_name("user_get"));
        assert_ne!(folded_name("get_issue"), folded_name("list_issues"));
    }

    #[test]
    fn token_estimate_counts_cjk_per_character() {
        assert_eq!(estimate_tokens("abcdefgh"), 2);
        assert_eq!(estimate_tokens("天气"), 2);
    }
}

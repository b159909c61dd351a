//! Hidden-content rules: invisible characters, escape sequences, HTML
//! comments, encoded blobs and padding. The hidden texts themselves (decoded
//! tags, base64, hex, reversed spans) are analysed by the prose rules; this
//! module reports that something was hidden at all.

use std::sync::LazyLock;

use regex::Regex;

use super::{Sink, default_severity};
use crate::analysis::catalogue::ids;
use crate::analysis::collect::TextField;
use crate::analysis::normalize::{
    Hidden, HiddenSource, Invisible, Prepared, evidence_window, truncate,
};
use crate::analysis::report::Severity;

static HTML_COMMENT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?s)<!--.*?(?:-->|$)").expect("valid regex"));

/// Newlines in one whitespace run that count as padding whatever its length.
const PADDING_NEWLINES: usize = 25;

/// Reports invisible and control characters, comments, blobs and padding in one field.
pub fn check(sink: &mut Sink<'_>, field: &TextField<'_>, text: &Prepared<'_>, hidden: &[Hidden]) {
    let report =
        |sink: &mut Sink<'_>, rule: &str, severity: Severity, message: String, evidence: String| {
            sink.add(rule, severity, field.target, field.field, message, evidence);
        };
    let classes: &[Invisible] = if text.invisibles.is_empty() {
        &[]
    } else {
        &[
            Invisible::Tag,
            Invisible::Bidi,
            Invisible::Ansi,
            Invisible::Control,
            Invisible::ZeroWidth,
        ]
    };
    for &class in classes {
        let spans: Vec<_> = text
            .invisibles
            .iter()
            .filter(|(c, _)| *c == class)
            .map(|(_, r)| r.clone())
            .collect();
        let Some(first) = spans.first() else { continue };
        let last = spans.last().expect("non-empty");
        let count = spans.len();
        let (rule, severity, message) = match class {
            Invisible::Tag => {
                let decoded: String = hidden
                    .iter()
                    .filter(|h| h.source == HiddenSource::Tag)
                    .map(|h| h.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
                let shown: String = decoded.chars().take(120).collect();
                (
                    ids::HID_TAGS,
                    default_severity(ids::HID_TAGS),
                    format!("{count} invisible tag characters; they decode to: {shown}"),
                )
            }
            Invisible::Bidi => (
                ids::HID_BIDI,
                default_severity(ids::HID_BIDI),
                format!("{count} bidirectional control characters"),
            ),
            Invisible::Ansi => (
                ids::HID_CONTROL,
                Severity::High,
                format!("{count} ANSI escape sequences"),
            ),
            Invisible::Control => (
                ids::HID_CONTROL,
                Severity::Medium,
                format!("{count} control characters"),
            ),
            Invisible::ZeroWidth => (
                ids::HID_ZERO_WIDTH,
                default_severity(ids::HID_ZERO_WIDTH),
                format!("{count} zero-width or invisible characters"),
            ),
        };
        // Quote the span from the first to the last occurrence (bounded), so a
        // hidden run is shown whole.
        report(
            sink,
            rule,
            severity,
            message,
            evidence_window(text.original, first.start..last.end),
        );
    }
    // The literal check first: a regex search costs more to set up than
    // most short strings cost to scan.
    if let Some(c) = memchr::memmem::find(text.original.as_bytes(), b"<!--")
        .and_then(|_| HTML_COMMENT.find(text.original))
    {
        report(
            sink,
            ids::HID_COMMENT,
            default_severity(ids::HID_COMMENT),
            "HTML comment: invisible when rendered, read by the model".into(),
            evidence_window(text.original, c.range()),
        );
    }
    for h in hidden
        .iter()
        .filter(|h| matches!(h.source, HiddenSource::Base64 | HiddenSource::Hex))
    {
        let shown: String = truncate(&h.text, 400).chars().take(120).collect();
        report(
            sink,
            ids::HID_ENCODED,
            default_severity(ids::HID_ENCODED),
            format!("Encoded blob decodes to text: {shown}"),
            format!(
                "<{}:{}>",
                h.source.label(),
                evidence_window(&h.text, 0..h.text.len())
            ),
        );
    }
    if let Some((start, end)) = padding(text.original, sink.config().thresholds.padding_min_chars) {
        report(
            sink,
            ids::HID_PADDING,
            default_severity(ids::HID_PADDING),
            format!("Text follows {} characters of padding", end - start),
            evidence_window(text.original, end..text.original.len()),
        );
    }
}

/// Finds a whitespace run of at least `min_chars` characters (or many
/// newlines) followed by more text; returns its byte range.
fn padding(text: &str, min_chars: usize) -> Option<(usize, usize)> {
    // A run of N whitespace characters takes at least N bytes, and text
    // must follow it.
    if text.len() <= min_chars.min(PADDING_NEWLINES) {
        return None;
    }
    // Shorter than `min_chars`, only a run of newlines can count, and the
    // text needs that many newlines in all.
    if text.len() < min_chars
        && memchr::memchr_iter(b'\n', text.as_bytes()).count() < PADDING_NEWLINES
    {
        return None;
    }
    let mut run_start = None;
    let (mut chars, mut newlines) = (0usize, 0usize);
    for (at, c) in text.char_indices() {
        if c.is_whitespace() {
            if run_start.is_none() {
                run_start = Some(at);
                chars = 0;
                newlines = 0;
            }
            chars += 1;
            newlines += usize::from(c == '\n');
        } else if let Some(start) = run_start.take() {
            if chars >= min_chars || newlines >= PADDING_NEWLINES {
                return Some((start, at));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_needs_text_after_it() {
        assert!(padding(&format!("a{}b", " ".repeat(300)), 200).is_some());
        assert!(padding(&format!("a{}", " ".repeat(300)), 200).is_none());
        assert!(padding(&format!("a{}b", "\n".repeat(30)), 200).is_some());
        assert!(padding("a\n\nb", 200).is_none());
    }
}

//! Showing hostile text safely: every name, URL and reason in a document came
//! from a publisher or a scanned server, so before it reaches a terminal or an
//! error message its control, invisible and bidirectional characters are made
//! visible and its length is bounded.

/// Longest text (in characters) shown before it is cut with `…`.
pub const SHOWN_MAX_CHARS: usize = 200;

/// `text` made safe to print: control, invisible and bidirectional
/// characters become their markers in the one notation of [`crate::visible`]
/// (`<U+202E>`, `<ESC>`, `<TAG:…>`), and it is cut after [`SHOWN_MAX_CHARS`]
/// characters.
pub fn printable(text: &str) -> String {
    let cut = text.char_indices().nth(SHOWN_MAX_CHARS).map(|(at, _)| at);
    let mut out = String::with_capacity(text.len().min(SHOWN_MAX_CHARS * 4));
    crate::visible::render_into(&mut out, &text[..cut.unwrap_or(text.len())]);
    if cut.is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_and_bidi_overrides_become_visible() {
        let hostile = "ok\u{1b}[8mhidden\u{202e}txt.exe";

        let shown = printable(hostile);

        assert_eq!(shown, "ok<ESC>[8mhidden<U+202E>txt.exe");
    }

    #[test]
    fn long_text_is_cut() {
        let long = "a".repeat(SHOWN_MAX_CHARS + 10);

        let shown = printable(&long);

        assert_eq!(shown.chars().count(), SHOWN_MAX_CHARS + 1);
        assert!(shown.ends_with('…'));
    }
}

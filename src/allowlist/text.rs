//! Showing hostile text safely: every name, URL and reason in a document came
//! from a publisher or a scanned server, so before it reaches a terminal or an
//! error message its control, invisible and bidirectional characters are made
//! visible and its length is bounded.

/// Longest text (in characters) shown before it is cut with `…`.
pub const SHOWN_MAX_CHARS: usize = 200;

/// `text` made safe to print: control and invisible characters become
/// `<U+XXXX>`, and it is cut after [`SHOWN_MAX_CHARS`] characters.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(SHOWN_MAX_CHARS * 4));
    for (count, c) in text.chars().enumerate() {
        if count == SHOWN_MAX_CHARS {
            out.push('…');
            break;
        }
        if is_hidden(c) {
            out.push_str(&format!("<U+{:04X}>", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Characters that change how a terminal shows the text around them, or show as nothing.
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c as u32,
            0x00AD            // soft hyphen
            | 0x034F          // combining grapheme joiner
            | 0x061C          // Arabic letter mark
            | 0x115F | 0x1160 | 0x3164 | 0xFFA0 // Hangul fillers
            | 0x180E          // Mongolian vowel separator
            | 0x200B..=0x200F // zero-width characters and directional marks
            | 0x2028..=0x202E // separators and bidirectional embeddings/overrides
            | 0x2060..=0x206F // word joiner, invisible operators, bidi isolates
            | 0xFE00..=0xFE0F // variation selectors
            | 0xFEFF          // byte order mark
            | 0xFFF9..=0xFFFB // interlinear annotations
            | 0xE0000..=0xE007F // tag characters
            | 0xE0100..=0xE01EF) // variation selectors supplement
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_and_bidi_overrides_become_visible() {
        let hostile = "ok\u{1b}[8mhidden\u{202e}txt.exe";

        let shown = printable(hostile);

        assert_eq!(shown, "ok<U+001B>[8mhidden<U+202E>txt.exe");
    }

    #[test]
    fn long_text_is_cut() {
        let long = "a".repeat(SHOWN_MAX_CHARS + 10);

        let shown = printable(&long);

        assert_eq!(shown.chars().count(), SHOWN_MAX_CHARS + 1);
        assert!(shown.ends_with('…'));
    }
}

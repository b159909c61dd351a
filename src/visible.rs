//! The one notation for hidden characters: which code points are never shown
//! as themselves, and the marker that stands for each (DESIGN.md §6,
//! "evidence").
//!
//! A finding's evidence, the review page and the command line all show
//! hostile text through this module, so that a marker in a finding's evidence
//! (`<U+200B>`) is found again, and highlighted, in the text the review page
//! shows, and a terminal never receives an escape sequence or a bidirectional
//! override. Before there was one definition the three copies disagreed on a
//! dozen code points and some evidence was never highlighted; the test in
//! `http::ui::text` walks every code point through all three renderings.
//!
//! The notation:
//!
//! - `\n`, `\t`, `\r` for line feed, tab and carriage return;
//! - `<ESC>` for the escape character (so `<ESC>[8m` reads as the ANSI
//!   sequence it starts);
//! - `<TAG:…>` for a run of Unicode tag characters (U+E0000–U+E007F), spelling
//!   the ASCII they encode (`?` for a tag that spells nothing printable);
//! - `<U+XXXX>` (at least four upper-case hex digits) for every other
//!   character of [`is_hidden`].
//!
//! This module imports nothing of the application: `analysis` and `allowlist`
//! (which import nothing else of the app) use it as they use `snapshot`.

use std::fmt::Write as _;

/// Whether `c` is a Unicode tag character (U+E0000–U+E007F), which can spell
/// ASCII invisibly.
pub fn is_tag(c: char) -> bool {
    ('\u{E0000}'..='\u{E007F}').contains(&c)
}

/// The printable ASCII character a tag character spells, or `?`.
pub fn tag_char(c: char) -> char {
    char::from_u32((c as u32).wrapping_sub(0xE0000))
        .filter(|x| (' '..='~').contains(x))
        .unwrap_or('?')
}

/// Whether `c` is shown as a marker instead of itself: every control
/// character (C0, DEL, C1), and every character that shows as nothing or
/// changes how the text around it is shown.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c as u32,
            0x00AD              // soft hyphen
            | 0x034F            // combining grapheme joiner
            | 0x061C            // Arabic letter mark
            | 0x115F | 0x1160 | 0x3164 | 0xFFA0 // Hangul fillers
            | 0x180E            // Mongolian vowel separator
            | 0x200B..=0x200F   // zero-width characters and directional marks
            | 0x2028..=0x202E   // line/paragraph separators, bidi embeddings and overrides
            | 0x2060..=0x206F   // word joiner, invisible operators, bidi isolates, deprecated formats
            | 0xFE00..=0xFE0F   // variation selectors (they can carry bytes invisibly)
            | 0xFEFF            // byte order mark / zero-width no-break space
            | 0xFFF9..=0xFFFB   // interlinear annotation controls
            | 0xE0000..=0xE007F // tag characters (shown as a `<TAG:…>` run)
            | 0xE0100..=0xE01EF) // variation selectors supplement
}

/// Writes the marker of a hidden character that is not a tag character
/// (`\n`, `<ESC>`, `<U+200B>`); returns false, writing nothing, for a
/// character shown as itself and for a tag character (tags are shown as a
/// run, see [`render_into`]).
pub fn push_marker(out: &mut String, c: char) -> bool {
    if is_tag(c) || !is_hidden(c) {
        return false;
    }
    match c {
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        '\u{1b}' => out.push_str("<ESC>"),
        c => {
            let _ = write!(out, "<U+{:04X}>", c as u32);
        }
    }
    true
}

/// Appends `s` to `out` in the notation: every hidden character as its marker,
/// every run of tag characters as one `<TAG:…>`.
pub fn render_into(out: &mut String, s: &str) {
    // Printable ASCII before any other character (most evidence is all
    // of it) is shown as itself: copied in one piece.
    let plain = s
        .bytes()
        .position(|b| !(b' '..=b'~').contains(&b))
        .unwrap_or(s.len());
    out.push_str(&s[..plain]);
    let s = &s[plain..];
    let mut tags = String::new();
    for c in s.chars() {
        // Printable ASCII, most of any evidence, is shown as itself.
        if tags.is_empty() && (' '..='~').contains(&c) {
            out.push(c);
            continue;
        }
        if is_tag(c) {
            tags.push(tag_char(c));
            continue;
        }
        if !tags.is_empty() {
            let _ = write!(out, "<TAG:{tags}>");
            tags.clear();
        }
        if !push_marker(out, c) {
            out.push(c);
        }
    }
    if !tags.is_empty() {
        let _ = write!(out, "<TAG:{tags}>");
    }
}

/// `s` in the notation (see the module comment).
pub fn render(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    render_into(&mut out, s);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_of_hidden_character_has_its_marker() {
        let shown = render("a\u{200B}b\u{1b}[8mc\u{E0048}\u{E0069}d\ne\u{FE0F}\u{2028}");

        assert_eq!(shown, "a<U+200B>b<ESC>[8mc<TAG:Hi>d\\ne<U+FE0F><U+2028>");
    }

    #[test]
    fn ordinary_text_is_shown_as_itself() {
        let text = "Fetch a URL — «quoted» 日本語 émoji 🙂 <tag>";

        assert_eq!(render(text), text);
        assert!(!text.chars().any(is_hidden));
    }
}

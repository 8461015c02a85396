//! One rule for "something visible", shared by the names people choose
//! and chat lines: a text shows something when one of its characters
//! draws a mark on the screen. Spaces, combining marks alone, Unicode's
//! default-ignorable code points (fillers such as U+3164, U+115F, U+1160,
//! U+FFA0; joiners; variation selectors; tags) and the characters whose
//! glyph is blank (the Braille blank U+2800, the musical null notehead
//! U+1D159) draw nothing.

use unicode_normalization::char::is_combining_mark;

/// Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt):
/// drawn as nothing when a font has no glyph for them.
fn default_ignorable(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F..=0x1160 | 0x17B4..=0x17B5 | 0x180B..=0x180F
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
        | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFF8 | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
        | 0xE0000..=0xE0FFF)
}

/// Characters with a glyph that is blank though they are neither spaces
/// nor ignorable.
fn blank_glyph(c: char) -> bool {
    // The Braille blank, the musical null notehead, wide and narrow spaces.
    matches!(
        c as u32,
        0x2800 | 0x1D159 | 0x3000 | 0x2000..=0x200A | 0x205F
    )
}

/// Whether `c` draws something by itself.
pub fn draws(c: char) -> bool {
    !c.is_whitespace()
        && !c.is_control()
        && !is_combining_mark(c)
        && !default_ignorable(c)
        && !blank_glyph(c)
}

/// Whether `text` shows anything at all.
pub fn shows_something(text: &str) -> bool {
    text.chars().any(draws)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fillers_and_blanks_show_nothing() {
        for text in [
            "\u{3164}",
            "\u{3164}\u{3164}\u{3164}",
            "\u{115F}\u{1160}",
            "\u{FFA0}",
            "\u{2800}\u{2800}",
            "\u{1D159}\u{1D159}",
            "\u{115F}\u{1D159}",
            " \u{200B}\u{FE0F}\u{301}",
            "\u{E0041}\u{E0042}",
        ] {
            assert!(!shows_something(text), "{:?}", text);
        }
        for text in ["a", "gg!", "👍", "\u{3164}x", "ñ", "Ⓐ", "…"] {
            assert!(shows_something(text), "{text:?}");
        }
    }
}

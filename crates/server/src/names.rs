//! The names people go by: an account's name, and the name a player
//! without an account chose for a seat.

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;
use unicode_security::{skeleton as confusable_skeleton, GeneralSecurityProfile};

use crate::store::StoreError;
use crate::App;

/// Why a name is refused.
#[derive(Debug, thiserror::Error)]
pub enum NameError {
    /// What is wrong with it, and where (`name: 2 to 20 characters, not 1`).
    #[error("{0}")]
    Malformed(String),
    /// An account already has a name that looks like it.
    #[error("the name '{name}' looks like '{other}', which is taken: choose another")]
    Taken { name: String, other: String },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl NameError {
    fn malformed(message: impl Into<String>) -> Self {
        NameError::Malformed(message.into())
    }
}

/// Longest chosen name, in characters.
pub const MAX_NAME_CHARS: usize = 20;

/// A seat's chosen name, checked: `None` or blank is no name (''); else
/// 1 to 20 letters (any alphabet), digits, spaces and `_ - . '`, with no
/// space at either end or two in a row.
pub fn chosen_name(text: Option<&str>) -> Result<String, NameError> {
    let Some(text) = text else {
        return Ok(String::new());
    };
    // Composed (NFC): `e` and a combining acute are the one letter `é`.
    let name: String = text.trim().nfc().collect();
    let name = name.as_str();
    // Counted as they are seen: the marks that write a letter (a vowel
    // sign, a virama) and the joiners are part of it.
    let count = name
        .chars()
        .filter(|&c| !is_combining_mark(c) && !is_joiner(c))
        .count();
    if count > MAX_NAME_CHARS {
        return Err(NameError::malformed(format!(
            "name: at most {MAX_NAME_CHARS} characters, not {count}"
        )));
    }
    let chars: Vec<char> = name.chars().collect();
    if chars.len() > MAX_NAME_CODE_POINTS {
        return Err(NameError::malformed(format!(
            "name: at most {MAX_NAME_CODE_POINTS} code points, not {}",
            chars.len()
        )));
    }
    if let Some(at) = (0..chars.len()).find(|&k| !fits(&chars, k)) {
        return Err(NameError::malformed(format!(
            "name: character {} ({:?}) is not allowed: use letters, digits, spaces and _ - . '",
            at + 1,
            chars[at]
        )));
    }
    if !name.is_empty()
        && !chars
            .iter()
            .any(|&c| c.is_alphanumeric() && crate::visible::draws(c))
    {
        return Err(NameError::malformed("name: it needs a letter or a digit"));
    }
    if name.contains("  ") {
        return Err(NameError::malformed(
            "name: two spaces in a row are not allowed",
        ));
    }
    Ok(name.to_string())
}

/// Most code points a chosen name may hold (its letters with their marks).
pub const MAX_NAME_CODE_POINTS: usize = 60;
/// Most marks one letter may carry (Thai and Indic letters carry two or
/// three; more is a stack drawn over its neighbours).
const MAX_MARKS: usize = 4;

fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200c}' | '\u{200d}')
}

/// A letter or digit (no mark) of an identifier.
fn base_letter(c: char) -> bool {
    c.is_alphanumeric() && !is_combining_mark(c) && c.identifier_allowed()
}

/// Whether character `k` of a chosen name may stand there: a character of
/// the identifiers Unicode's security profile allows (TR39: letters,
/// digits, and the marks that write them), or `' ' _ - . '`. A mark only
/// on a letter (at most MAX_MARKS); a zero-width joiner only after a mark
/// (a virama: Sinhala's "Sri") and a non-joiner only between two letters
/// beyond ASCII (Persian), each before a letter, as RFC 5892 allows them.
/// So nothing invisible, no filler, no format character stands alone.
fn fits(chars: &[char], k: usize) -> bool {
    let c = chars[k];
    let before = k.checked_sub(1).map(|b| chars[b]);
    let after = chars.get(k + 1).copied();
    if is_combining_mark(c) {
        let marks = chars[..k]
            .iter()
            .rev()
            .take_while(|&&m| is_combining_mark(m))
            .count();
        let carrier = chars[..k].iter().rev().find(|&&m| !is_combining_mark(m));
        return c.identifier_allowed()
            && marks < MAX_MARKS
            && carrier.is_some_and(|&l| base_letter(l));
    }
    match c {
        '\u{200d}' => before.is_some_and(is_combining_mark) && after.is_some_and(base_letter),
        '\u{200c}' => {
            let beyond_ascii = |l: char| !l.is_ascii() && (base_letter(l) || is_combining_mark(l));
            before.is_some_and(beyond_ascii)
                && after.is_some_and(|l| base_letter(l) && !l.is_ascii())
        }
        ' ' | '_' | '-' | '.' | '\'' => true,
        _ => c.identifier_allowed() && c.is_alphanumeric(),
    }
}

/// An account's name, checked: 2 to 20 ASCII letters, digits, `_` and
/// `-` (the same look in every alphabet, no look-alikes), not beginning
/// with `deleted-` (the names of deleted accounts).
pub fn account_name(name: &str) -> Result<String, NameError> {
    let count = name.chars().count();
    if !(2..=20).contains(&count) {
        return Err(NameError::malformed(format!(
            "name: 2 to 20 characters, not {count}"
        )));
    }
    if let Some((at, c)) = name
        .chars()
        .enumerate()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-')))
    {
        return Err(NameError::malformed(format!(
            "name: character {} ({c:?}) is not allowed: use the letters A to Z, digits, _ and -",
            at + 1
        )));
    }
    if !name.chars().any(|c| c.is_ascii_alphanumeric()) {
        return Err(NameError::malformed("name: it needs a letter or a digit"));
    }
    if skeleton(name).starts_with(&skeleton("deleted-")) {
        return Err(NameError::malformed(
            "name: names beginning with 'deleted-' are kept for deleted accounts",
        ));
    }
    Ok(name.to_string())
}

/// What a name looks like, whatever the characters that draw it: its
/// Unicode TR39 skeleton (`I`, `l` and `1` alike, `0` and `O`, `rn` and
/// `m`), in lower case, with `-` and `_` alike. Two names with the same
/// skeleton look alike; only one of them may be taken.
pub fn skeleton(name: &str) -> String {
    let once: String = confusable_skeleton(name)
        .map(|c| if c == '-' { '_' } else { c })
        .collect::<String>()
        .to_lowercase();
    // Lower case can make new look-alikes ('I' becomes 'i'): once more.
    confusable_skeleton(&once)
        .map(|c| if c == '-' { '_' } else { c })
        .collect()
}

/// `409 name_taken` if an account (person or bot) already has a name that
/// looks like `name`.
pub async fn unlike_others(app: &App, name: &str) -> Result<(), NameError> {
    match app.store.account_like(&skeleton(name)).await? {
        Some(other) => Err(NameError::Taken {
            name: name.to_string(),
            other,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_names_are_checked() {
        assert_eq!(account_name("Ann_Lee-2").unwrap(), "Ann_Lee-2");
        let refused = |t: &str| account_name(t).unwrap_err().to_string();
        assert!(refused("a").contains("2 to 20"));
        assert!(refused(&"a".repeat(21)).contains("not 21"));
        assert!(refused("Аня").contains("character 1"));
        assert!(refused("ann lee").contains("character 4"));
        assert!(refused("Deleted-7f3a").contains("deleted accounts"));
        for look_alike in ["deleted_571", "de1eted-1234", "deIeted-x", "DE1ETED_y"] {
            assert!(
                refused(look_alike).contains("deleted accounts"),
                "{look_alike}"
            );
        }
        assert!(refused("--").contains("a letter or a digit"));
        assert_eq!(account_name("_571").unwrap(), "_571");
    }

    #[test]
    fn names_are_checked() {
        assert_eq!(chosen_name(None).unwrap(), "");
        assert_eq!(chosen_name(Some("   ")).unwrap(), "");
        assert_eq!(chosen_name(Some(" Аня_K ")).unwrap(), "Аня_K");
        assert_eq!(chosen_name(Some("O'Neil-2.0 x")).unwrap(), "O'Neil-2.0 x");
        let refused = |t: &str| chosen_name(Some(t)).unwrap_err().to_string();
        assert_eq!(
            refused(&"a".repeat(21)),
            "name: at most 20 characters, not 21"
        );
        assert!(
            refused("a<b").contains("character 2 ('<')"),
            "{}",
            refused("a<b")
        );
        assert!(refused("a\u{202e}b").contains("character 2"));
        assert!(refused("a\nb").contains("character 2"));
        assert!(refused("a  b").contains("two spaces"));
        // Fillers that draw nothing, and invisible characters.
        assert!(refused("\u{115f}\u{115f}").contains("character 1"));
        assert!(refused("ab\u{3164}").contains("character 3"));
        assert!(refused("a\u{200b}b").contains("character 2"));
        assert!(refused("a\u{200d}b").contains("character 2"));
        // Marks only on letters, a few at most; nothing made of marks.
        for (name, at) in [("\u{301}ab", 1), ("a \u{301}b", 3), ("ab.\u{301}", 4)] {
            assert!(
                refused(name).contains(&format!("character {at}")),
                "{name:?}"
            );
        }
        assert!(refused(&format!("ก{}", "\u{e34}\u{e48}".repeat(3))).contains("character 6"));
        for only_marks in [
            "\u{e31}",
            "\u{e34}\u{e48}",
            "\u{93e}\u{93f}",
            "\u{64e}\u{64f}",
        ] {
            assert!(chosen_name(Some(only_marks)).is_err(), "{only_marks:?}");
        }
        assert!(refused("--").contains("a letter or a digit"));
        // Names written with marks (a virama, a Thai sign), and letters
        // typed decomposed.
        for name in [
            "लक्ष्मी",
            "தமிழ்",
            "ஸ்ரீ",
            "สมศักดิ์",
            "अंकित",
            "Ōsaka",
            "ශ්\u{200d}රී",
            "علی\u{200c}رضا",
            "लक्ष्मीनारायण श्रीवास्तव",
        ] {
            assert_eq!(chosen_name(Some(name)).unwrap(), name, "{name}");
        }
        assert_eq!(chosen_name(Some("Jose\u{301}")).unwrap(), "José");
    }

    #[test]
    fn look_alike_names_share_a_skeleton() {
        for (a, b) in [
            ("alice1", "aIice1"),
            ("alice1", "alicel"),
            ("alice-1", "alice_1"),
            ("oscar", "0scar"),
            ("victim-bot", "victim_bot"),
            ("modern", "rnodern"),
            ("Bob", "bob"),
        ] {
            assert_eq!(skeleton(a), skeleton(b), "{a} {b}");
        }
        for (a, b) in [("alice", "alina"), ("bob1", "bob2"), ("ann", "anna")] {
            assert_ne!(skeleton(a), skeleton(b), "{a} {b}");
        }
    }
}

//! The names people go by: the name a player chose for a seat.

use crate::error::ApiError;

/// Longest chosen name, in characters.
pub const MAX_NAME_CHARS: usize = 20;

/// A seat's chosen name, checked: `None` or blank is no name (''); else
/// 1 to 20 letters (any alphabet), digits, spaces and `_ - . '`, with no
/// space at either end or two in a row.
pub fn chosen_name(text: Option<&str>) -> Result<String, ApiError> {
    let Some(text) = text else {
        return Ok(String::new());
    };
    let name = text.trim();
    let count = name.chars().count();
    if count > MAX_NAME_CHARS {
        return Err(ApiError::bad_request(format!(
            "name: at most {MAX_NAME_CHARS} characters, not {count}"
        )));
    }
    if let Some((at, c)) = name
        .chars()
        .enumerate()
        .find(|(_, c)| !(c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.' | '\'')))
    {
        return Err(ApiError::bad_request(format!(
            "name: character {} ({c:?}) is not allowed: use letters, digits, spaces and _ - . '",
            at + 1
        )));
    }
    if name.contains("  ") {
        return Err(ApiError::bad_request(
            "name: two spaces in a row are not allowed",
        ));
    }
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(chosen_name(None).unwrap(), "");
        assert_eq!(chosen_name(Some("   ")).unwrap(), "");
        assert_eq!(chosen_name(Some(" Аня_K ")).unwrap(), "Аня_K");
        assert_eq!(chosen_name(Some("O'Neil-2.0 x")).unwrap(), "O'Neil-2.0 x");
        let refused = |t: &str| chosen_name(Some(t)).unwrap_err().message;
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
    }
}

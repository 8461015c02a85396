//! Whole numbers read from text (position strings, options, protocol
//! commands): out-of-range values are refused with their range, never
//! wrapped or clamped.

/// Parses a whole number from `min` to `max`; `what` names it in the error:
/// `steps must be between 1 and 99, not 256`.
pub fn parse_in_range(what: &str, text: &str, min: u64, max: u64) -> Result<u64, String> {
    let t = text.trim();
    let digits = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    match t.parse::<u64>() {
        Ok(n) if digits && (min..=max).contains(&n) => Ok(n),
        _ if digits => Err(format!("{what} must be between {min} and {max}, not {t}")),
        _ => Err(format!(
            "{what} must be a whole number between {min} and {max}, not '{t}'"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_with_the_range() {
        assert_eq!(parse_in_range("steps", " 3 ", 1, 99), Ok(3));
        assert_eq!(
            parse_in_range("steps", "256", 1, 99).unwrap_err(),
            "steps must be between 1 and 99, not 256"
        );
        assert_eq!(
            parse_in_range("depth", "99999999999999999999999", 1, 64).unwrap_err(),
            "depth must be between 1 and 64, not 99999999999999999999999"
        );
        assert_eq!(
            parse_in_range("depth", "-1", 1, 64).unwrap_err(),
            "depth must be a whole number between 1 and 64, not '-1'"
        );
        assert!(parse_in_range("n", "+5", 0, 9).is_err());
        assert!(parse_in_range("n", "", 0, 9).is_err());
    }
}

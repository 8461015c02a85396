//! The text of a spec's options: `key=value` pairs split at commas, a value
//! in double quotes when it holds a comma (a weights file's path).

use crate::player::shown;

/// A spec's options, split at the commas outside double quotes (a path
/// with a comma is written `weights="a,b.safetensors"`); empty ones dropped.
pub(crate) fn split_options(options: &str) -> Result<Vec<String>, String> {
    let (mut parts, mut part, mut quoted) = (Vec::new(), String::new(), false);
    for c in options.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => parts.push(std::mem::take(&mut part)),
            _ => {}
        }
        if c != ',' || quoted {
            part.push(c);
        }
    }
    if quoted {
        return Err("a double quote is opened and never closed".into());
    }
    parts.push(part);
    Ok(parts
        .into_iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect())
}

/// An option's value, without the double quotes around it if it has them.
pub(crate) fn unquote(value: &str) -> Result<String, String> {
    let v = value.trim();
    match v.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        Some(inner) if !inner.contains('"') => Ok(inner.to_string()),
        _ if v.contains('"') => Err(format!(
            "quotes go around a whole value, like weights=\"a,b.safetensors\", not '{}'",
            shown(v)
        )),
        _ => Ok(v.to_string()),
    }
}

/// A value as a spec writes it: in double quotes when it has a comma, or
/// spaces at either end, that would otherwise change its meaning.
pub(crate) fn quoted(value: &str) -> String {
    if value.contains(',') || value.trim() != value {
        format!("\"{value}\"")
    } else {
        value.to_string()
    }
}

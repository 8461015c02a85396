//! The text of a spec's options: `key=value` pairs split at commas, a value
//! in double quotes when it holds a comma (a weights file's path).

/// A spec's options, split at commas; a value that starts with a double
/// quote runs to the next one, commas and all (`weights="a,b.safetensors"`).
/// A quote anywhere else is part of the text. Empty options are dropped.
pub(super) fn split_options(options: &str) -> Result<Vec<String>, String> {
    let (mut parts, mut part, mut quoted) = (Vec::new(), String::new(), false);
    for c in options.chars() {
        let opens = || {
            part.trim_end()
                .strip_suffix('=')
                .is_some_and(|key| !key.contains('='))
        };
        match c {
            '"' if quoted => quoted = false,
            '"' if opens() => quoted = true,
            ',' if !quoted => {
                parts.push(std::mem::take(&mut part));
                continue;
            }
            _ => {}
        }
        part.push(c);
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

/// An option's value, without the double quotes around it if it starts
/// with one.
pub(super) fn unquote(value: &str) -> Result<String, String> {
    let v = value.trim();
    if !v.starts_with('"') {
        return Ok(v.to_string());
    }
    match v[1..].strip_suffix('"') {
        Some(inner) if !inner.contains('"') => Ok(inner.to_string()),
        _ => Err(format!(
            "quotes go around a whole value, like weights=\"a,b.safetensors\", not '{}'",
            shown(v)
        )),
    }
}

/// A value as a spec writes it: in double quotes when it has a comma,
/// spaces at either end, or a quote in front, that would otherwise change
/// its meaning.
pub fn quoted(value: &str) -> String {
    if value.contains(',') || value.trim() != value || value.starts_with('"') {
        format!("\"{value}\"")
    } else {
        value.to_string()
    }
}

/// At most 40 characters of a spec, for error messages.
pub(super) fn shown(text: &str) -> String {
    if text.chars().count() > 40 {
        text.chars().take(40).chain(['…']).collect()
    } else {
        text.to_string()
    }
}

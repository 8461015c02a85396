//! Tag values: escaping, and the tags that carry a variant's parameters.

use crate::number::parse_in_range;
use crate::rules::MAX_STEPS;
use crate::variant::{parse_cells, parse_size, parse_yes_no, Preset, Variant};

/// A tag value as written between its quotes: `\\`, `\"`, `\n`, `\r`, `\t`.
pub(crate) fn escape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            _ => out.push(c),
        }
    }
    out
}

/// The variant's tags, in the order they are written.
pub(crate) fn variant_tags(v: &Variant) -> Vec<(&'static str, String)> {
    let preset = v
        .preset()
        .map_or("custom".to_string(), |p| p.name().to_string());
    std::iter::once(("Variant", preset))
        .chain(
            v.option_values()
                .into_iter()
                .map(|(_, tag, value)| (tag, value)),
        )
        .collect()
}

/// Names of the tags [`apply`] understands.
pub(crate) const VARIANT_TAGS: [&str; 13] = [
    "Variant",
    "Size",
    "Steps",
    "FirstTurnSteps",
    "Start",
    "End",
    "Deathmatch",
    "Trenches",
    "DoubleBase",
    "RandomBases",
    "Obstacles",
    "Seed",
    "Fog",
];

/// The variant a preset tag starts from (`custom` starts from classic).
pub(crate) fn base(preset: &str) -> Result<Variant, String> {
    if preset.eq_ignore_ascii_case("custom") {
        return Ok(Variant::default());
    }
    preset
        .parse::<Preset>()
        .map(|p| p.variant())
        .map_err(|e| e.to_string())
}

/// Applies one parameter tag to `v`.
pub(crate) fn apply(v: &mut Variant, name: &str, value: &str) -> Result<(), String> {
    let number = |min: u64, max: u64| parse_in_range(name, value, min, max);
    match name {
        "Size" => (v.width, v.height) = parse_size(value).map_err(|e| e.to_string())?,
        "Steps" => v.rules.steps_per_turn = number(1, MAX_STEPS as u64)? as u8,
        "FirstTurnSteps" => v.rules.first_turn_steps = number(1, MAX_STEPS as u64)? as u8,
        "Start" => v.rules.start = value.parse()?,
        "End" => v.rules.end = value.parse()?,
        "Deathmatch" => v.rules.deathmatch = parse_yes_no(name, value)?,
        "Trenches" => v.trench_percent = number(0, 100)? as u8,
        "DoubleBase" => v.double_base = parse_yes_no(name, value)?,
        "RandomBases" => v.random_bases = parse_yes_no(name, value)?,
        "Seed" => v.seed = number(0, u64::MAX)?,
        "Fog" => v.fog = parse_yes_no(name, value)?,
        "Obstacles" => v.obstacles = parse_cells(value)?,
        _ => return Err(format!("{name} is not a variant tag")),
    }
    Ok(())
}

//! Tag values: escaping, and the tags that carry a variant's parameters.

use crate::cell::Cell;
use crate::variant::{parse_size, Preset, Variant};

pub(crate) fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.to_string()
}

/// The variant's tags, in the order they are written.
pub(crate) fn variant_tags(v: &Variant) -> Vec<(&'static str, String)> {
    let obstacles = if v.obstacles.is_empty() {
        "-".to_string()
    } else {
        v.obstacles
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    vec![
        (
            "Variant",
            v.preset()
                .map_or("custom".to_string(), |p| p.name().to_string()),
        ),
        ("Size", format!("{}x{}", v.width, v.height)),
        ("Steps", v.rules.steps_per_turn.to_string()),
        ("FirstTurnSteps", v.rules.first_turn_steps.to_string()),
        ("Start", v.rules.start.to_string()),
        ("End", v.rules.end.to_string()),
        ("Deathmatch", yes_no(v.rules.deathmatch)),
        ("Trenches", v.trench_percent.to_string()),
        ("DoubleBase", yes_no(v.double_base)),
        ("RandomBases", yes_no(v.random_bases)),
        ("Obstacles", obstacles),
        ("Seed", v.seed.to_string()),
    ]
}

/// Names of the tags [`apply`] understands.
pub(crate) const VARIANT_TAGS: [&str; 12] = [
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
    let number = |max: u64| -> Result<u64, String> {
        value
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|n| *n <= max)
            .ok_or_else(|| format!("{name} must be a number up to {max}, not '{value}'"))
    };
    let flag = || match value.trim().to_ascii_lowercase().as_str() {
        "yes" | "true" | "1" => Ok(true),
        "no" | "false" | "0" => Ok(false),
        _ => Err(format!("{name} must be yes or no, not '{value}'")),
    };
    match name {
        "Size" => (v.width, v.height) = parse_size(value).map_err(|e| e.to_string())?,
        "Steps" => v.rules.steps_per_turn = number(255)? as u8,
        "FirstTurnSteps" => v.rules.first_turn_steps = number(255)? as u8,
        "Start" => v.rules.start = value.parse()?,
        "End" => v.rules.end = value.parse()?,
        "Deathmatch" => v.rules.deathmatch = flag()?,
        "Trenches" => v.trench_percent = number(255)? as u8,
        "DoubleBase" => v.double_base = flag()?,
        "RandomBases" => v.random_bases = flag()?,
        "Seed" => v.seed = number(u64::MAX)?,
        "Obstacles" => {
            v.obstacles = if value.trim() == "-" {
                Vec::new()
            } else {
                value
                    .split_whitespace()
                    .map(|c| c.parse::<Cell>().map_err(|e| e.to_string()))
                    .collect::<Result<_, _>>()?
            }
        }
        _ => return Err(format!("{name} is not a variant tag")),
    }
    Ok(())
}

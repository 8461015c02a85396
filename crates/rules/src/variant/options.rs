//! Variant options as `key=value` text (the engine protocol's `variant`
//! command, the server's game settings): one parser, one set of names and
//! messages for every front end. The command line's flags fill the same
//! struct.

use super::{parse_size, Preset, Variant, VariantError};
use crate::cell::Cell;
use crate::number::parse_in_range;
use crate::rules::{EndRule, StartRule, MAX_STEPS};

/// The option keys, in the order they are documented.
pub const KEYS: [&str; 12] = [
    "size",
    "steps",
    "first",
    "start",
    "end",
    "deathmatch",
    "trenches",
    "double-base",
    "random-bases",
    "obstacles",
    "seed",
    "fog",
];

/// Overrides of a preset; `None` keeps the preset's value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VariantOptions {
    pub preset: Option<Preset>,
    pub size: Option<(u8, u8)>,
    pub steps: Option<u8>,
    pub first: Option<u8>,
    pub start: Option<StartRule>,
    pub end: Option<EndRule>,
    pub deathmatch: Option<bool>,
    pub trenches: Option<u8>,
    pub double_base: Option<bool>,
    pub random_bases: Option<bool>,
    pub obstacles: Option<Vec<Cell>>,
    pub seed: Option<u64>,
    pub fog: Option<bool>,
}

/// `yes`/`no` (also `true`/`false`, `1`/`0`).
pub fn parse_yes_no(key: &str, value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "yes" | "true" | "1" => Ok(true),
        "no" | "false" | "0" => Ok(false),
        _ => Err(format!("{key} is yes or no, not '{value}'")),
    }
}

/// Cells separated by spaces or commas; `-` or nothing for none.
pub fn parse_cells(value: &str) -> Result<Vec<Cell>, String> {
    if value.trim() == "-" {
        return Ok(Vec::new());
    }
    value
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<Cell>().map_err(|e| e.to_string()))
        .collect()
}

impl VariantOptions {
    /// Whether no option was given.
    pub fn is_empty(&self) -> bool {
        *self == VariantOptions::default()
    }

    /// Sets one option from text; a key given twice is refused.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let key = key.trim().to_ascii_lowercase();
        let twice = || format!("{key} is given twice");
        fn put<T>(slot: &mut Option<T>, v: T, twice: impl Fn() -> String) -> Result<(), String> {
            if slot.is_some() {
                return Err(twice());
            }
            *slot = Some(v);
            Ok(())
        }
        let steps = |k: &str| parse_in_range(k, value, 1, MAX_STEPS as u64).map(|n| n as u8);
        match key.as_str() {
            "size" => put(
                &mut self.size,
                parse_size(value).map_err(|e| format!("size: {e}"))?,
                twice,
            ),
            "steps" => put(&mut self.steps, steps("steps")?, twice),
            "first" | "first-turn" => put(&mut self.first, steps("first")?, twice),
            "start" => put(&mut self.start, value.parse()?, twice),
            "end" => put(&mut self.end, value.parse()?, twice),
            "deathmatch" => put(&mut self.deathmatch, parse_yes_no(&key, value)?, twice),
            "trenches" => put(
                &mut self.trenches,
                parse_in_range("trenches", value, 0, 100)? as u8,
                twice,
            ),
            "double-base" => put(&mut self.double_base, parse_yes_no(&key, value)?, twice),
            "random-bases" => put(&mut self.random_bases, parse_yes_no(&key, value)?, twice),
            "obstacles" => put(
                &mut self.obstacles,
                parse_cells(value).map_err(|e| format!("obstacles: {e}"))?,
                twice,
            ),
            "seed" => put(
                &mut self.seed,
                parse_in_range("seed", value, 0, u64::MAX)?,
                twice,
            ),
            "fog" => put(&mut self.fog, parse_yes_no(&key, value)?, twice),
            _ => Err(format!(
                "unknown variant key '{key}': expected {}",
                KEYS.join(", ")
            )),
        }
    }

    /// The variant: the preset (classic if none) with these overrides, checked.
    /// Setting `steps` on a preset whose first turn is a full turn sets the
    /// first turn too, unless `first` is given.
    pub fn build(&self) -> Result<Variant, VariantError> {
        let preset = self.preset.unwrap_or(Preset::Classic);
        let mut v = preset.variant();
        if let Some((w, h)) = self.size {
            (v.width, v.height) = (w, h);
        }
        if let Some(steps) = self.steps {
            if v.rules.first_turn_steps == v.rules.steps_per_turn {
                v.rules.first_turn_steps = steps;
            }
            v.rules.steps_per_turn = steps;
        }
        if let Some(first) = self.first {
            v.rules.first_turn_steps = first;
        }
        if let Some(start) = self.start {
            v.rules.start = start;
        }
        if let Some(end) = self.end {
            v.rules.end = end;
        }
        if let Some(d) = self.deathmatch {
            v.rules.deathmatch = d;
        }
        if let Some(t) = self.trenches {
            v.trench_percent = t;
        }
        if let Some(b) = self.double_base {
            v.double_base = b;
        }
        if let Some(b) = self.random_bases {
            v.random_bases = b;
        }
        if let Some(cells) = &self.obstacles {
            v.obstacles = cells.clone();
        }
        if let Some(seed) = self.seed {
            v.seed = seed;
        }
        if let Some(fog) = self.fog {
            v.fog = fog;
        }
        v.check()?;
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(pairs: &[(&str, &str)]) -> Result<Variant, String> {
        let mut o = VariantOptions::default();
        for (k, v) in pairs {
            o.set(k, v)?;
        }
        o.build().map_err(|e| e.to_string())
    }

    #[test]
    fn options_override_the_preset_and_say_what_is_wrong() {
        let v = build(&[("size", "11x11"), ("steps", "5")]).unwrap();
        assert_eq!((v.width, v.rules.steps_per_turn), (11, 5));
        assert_eq!(v.rules.first_turn_steps, 5, "classic's first turn follows");
        let v = build(&[("first", "1"), ("steps", "4")]).unwrap();
        assert_eq!(v.rules.first_turn_steps, 1, "an explicit first turn stays");
        assert_eq!(
            build(&[("steps", "256")]).unwrap_err(),
            "steps must be between 1 and 99, not 256"
        );
        assert_eq!(
            build(&[("size", "2x3")]).unwrap_err(),
            "size: board 2x3 is out of range: files and ranks must be between 3 and 19"
        );
        assert_eq!(
            build(&[("size", "300x5")]).unwrap_err(),
            "size: board 300x5 is out of range: files and ranks must be between 3 and 19"
        );
        assert_eq!(
            build(&[("seed", "1"), ("seed", "2")]).unwrap_err(),
            "seed is given twice"
        );
        assert!(build(&[("speed", "2")])
            .unwrap_err()
            .starts_with("unknown variant key 'speed'"));
        assert_eq!(
            build(&[("trenches", "101")]).unwrap_err(),
            "trenches must be between 0 and 100, not 101"
        );
    }
}

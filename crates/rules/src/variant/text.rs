//! A variant written as text, one value for each option: the `key=value;…`
//! form a server stores with a game and its API shows, and the tags a game
//! record writes. Both come from [`Variant::option_values`], and the text
//! is read back by [`Variant::from_options_text`] through the same option
//! parser as every command's `--size`, `--steps`, ….

use super::{Variant, VariantOptions};

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.to_string()
}

impl Variant {
    /// Each option's key (as [`VariantOptions::set`] takes it), its record
    /// tag, and its value as text, in the order they are written. Fog is
    /// written only when it is on, so that every text written before it
    /// was an option reads the same.
    pub fn option_values(&self) -> Vec<(&'static str, &'static str, String)> {
        let obstacles = if self.obstacles.is_empty() {
            "-".to_string()
        } else {
            self.obstacles
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let r = &self.rules;
        let mut values = vec![
            ("size", "Size", format!("{}x{}", self.width, self.height)),
            ("steps", "Steps", r.steps_per_turn.to_string()),
            ("first", "FirstTurnSteps", r.first_turn_steps.to_string()),
            ("start", "Start", r.start.to_string()),
            ("end", "End", r.end.to_string()),
            ("deathmatch", "Deathmatch", yes_no(r.deathmatch)),
            ("trenches", "Trenches", self.trench_percent.to_string()),
            ("double-base", "DoubleBase", yes_no(self.double_base)),
            ("random-bases", "RandomBases", yes_no(self.random_bases)),
            ("obstacles", "Obstacles", obstacles),
            ("seed", "Seed", self.seed.to_string()),
        ];
        if self.fog {
            values.push(("fog", "Fog", yes_no(self.fog)));
        }
        values
    }

    /// Every option as `key=value;…` text: `size=10x10;steps=3;first=1;…`.
    pub fn options_text(&self) -> String {
        self.option_values()
            .iter()
            .map(|(key, _, value)| format!("{key}={value}"))
            .collect::<Vec<_>>()
            .join(";")
    }

    /// The variant of an [`Variant::options_text`] text (any subset of the
    /// options, on classic): what is wrong, by key, if it is not one.
    pub fn from_options_text(text: &str) -> Result<Variant, String> {
        let mut o = VariantOptions::default();
        for pair in text.split(';') {
            let (k, v) = pair
                .split_once('=')
                .ok_or_else(|| format!("variant options: '{pair}' is not key=value"))?;
            o.set(k, v)?;
        }
        o.build().map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use crate::{Preset, Variant};

    #[test]
    fn every_preset_reads_back_from_its_text() {
        for p in Preset::ALL {
            let v = p.variant();
            let text = v.options_text();
            assert_eq!(Variant::from_options_text(&text).unwrap(), v, "{text}");
            let fog = Variant { fog: true, ..v };
            let text = fog.options_text();
            assert!(text.ends_with(";fog=yes"), "{text}");
            assert_eq!(Variant::from_options_text(&text).unwrap(), fog, "{text}");
            assert_eq!(fog.preset(), Some(p), "fog aside, the preset");
        }
        // Texts stored before fog was an option read as no fog.
        let old = "size=10x10;steps=3;first=3;start=corners;end=standard";
        assert!(!Variant::from_options_text(old).unwrap().fog);
        let e = Variant::from_options_text("size=10x10;steps").unwrap_err();
        assert!(e.contains("'steps' is not key=value"), "{e}");
        let e = Variant::from_options_text("size=10x10;colour=red").unwrap_err();
        assert!(e.contains("unknown variant key 'colour'"), "{e}");
    }
}

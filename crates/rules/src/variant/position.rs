//! A game that starts from a given position rather than from its variant's
//! start: the position's board already shows the layout (trenches, bases,
//! obstacles), so a variant option either agrees with the position or is an
//! error; none is silently dropped.

use super::{Variant, VariantOptions};
use crate::any_position::AnyPosition;
use crate::cell::Cell;
use crate::setup::Content;

/// One variant option that does not fit a given position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Mismatch {
    /// The option says one thing, the position another.
    #[error("{option} is {given} but the position's is {position}")]
    Differs {
        option: &'static str,
        given: String,
        position: String,
    },
    /// The option only shapes a variant's own start, which a game from a
    /// position does not use.
    #[error("{option} {given} cannot apply to a game from a position: its board already shows the layout")]
    NotHeld { option: &'static str, given: String },
}

fn cells_text(cells: &[Cell]) -> String {
    if cells.is_empty() {
        return "-".into();
    }
    let mut sorted = cells.to_vec();
    sorted.sort_by_key(|c| (c.rank, c.file));
    sorted.dedup();
    sorted
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn obstacles_of(p: &AnyPosition) -> Vec<Cell> {
    let mut out = Vec::new();
    for rank in 0..p.height() {
        for file in 0..p.width() {
            let c = Cell::new(file, rank);
            if p.content(c) == Content::Obstacle {
                out.push(c);
            }
        }
    }
    out
}

impl Variant {
    /// The variant a game from `p` is played under: the position's size,
    /// rules and obstacles, and no generated layout.
    pub fn of_position(p: &AnyPosition) -> Variant {
        Variant {
            width: p.width(),
            height: p.height(),
            rules: p.rules(),
            obstacles: obstacles_of(p),
            ..Variant::default()
        }
        .without_layout()
    }

    fn without_layout(mut self) -> Variant {
        self.trench_percent = 0;
        self.double_base = false;
        self.random_bases = false;
        self.seed = 0;
        self
    }

    /// Every way in which this variant does not fit a game from `p`
    /// (empty when it fits).
    pub fn mismatches(&self, p: &AnyPosition) -> Vec<Mismatch> {
        let all = VariantOptions {
            preset: None,
            size: Some((self.width, self.height)),
            steps: Some(self.rules.steps_per_turn),
            first: Some(self.rules.first_turn_steps),
            start: Some(self.rules.start),
            end: Some(self.rules.end),
            deathmatch: Some(self.rules.deathmatch),
            trenches: Some(self.trench_percent),
            double_base: Some(self.double_base),
            random_bases: Some(self.random_bases),
            obstacles: Some(self.obstacles.clone()),
            seed: Some(self.seed),
            fog: Some(self.fog),
        };
        all.mismatches(p)
    }
}

impl VariantOptions {
    /// The options given that do not fit a game from `p`. A preset stands
    /// for its size and rules; layout options other than obstacles may only
    /// be given at their "none" value.
    pub fn mismatches(&self, p: &AnyPosition) -> Vec<Mismatch> {
        let mut out = Vec::new();
        let preset = self.preset.map(|pr| pr.variant());
        let r = p.rules();
        let mut differs = |option: &'static str, given: Option<String>, position: String| {
            if let Some(given) = given.filter(|g| *g != position) {
                out.push(Mismatch::Differs {
                    option,
                    given,
                    position,
                });
            }
        };
        let size = self
            .size
            .or(preset.as_ref().map(|v| (v.width, v.height)))
            .map(|(w, h)| format!("{w}x{h}"));
        differs("size", size, format!("{}x{}", p.width(), p.height()));
        let pr = preset.as_ref().map(|v| v.rules);
        let steps = self.steps.or(pr.map(|r| r.steps_per_turn));
        differs(
            "steps",
            steps.map(|s| s.to_string()),
            r.steps_per_turn.to_string(),
        );
        let first = self.first.or(pr.map(|r| r.first_turn_steps));
        differs(
            "first",
            first.map(|s| s.to_string()),
            r.first_turn_steps.to_string(),
        );
        let start = self.start.or(pr.map(|r| r.start));
        differs("start", start.map(|s| s.to_string()), r.start.to_string());
        let end = self.end.or(pr.map(|r| r.end));
        differs("end", end.map(|s| s.to_string()), r.end.to_string());
        let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
        let dm = self.deathmatch.or(pr.map(|r| r.deathmatch));
        differs("deathmatch", dm.map(yes_no), yes_no(r.deathmatch));
        differs(
            "obstacles",
            self.obstacles.as_deref().map(cells_text),
            cells_text(&obstacles_of(p)),
        );
        let mut not_held = |option: &'static str, given: Option<String>, none: &str| {
            if let Some(given) = given.filter(|g| g != none) {
                out.push(Mismatch::NotHeld { option, given });
            }
        };
        not_held("trenches", self.trenches.map(|t| t.to_string()), "0");
        not_held("double-base", self.double_base.map(yes_no), "no");
        not_held("random-bases", self.random_bases.map(yes_no), "no");
        not_held("seed", self.seed.map(|s| s.to_string()), "0");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position_string;
    use crate::variant::Preset;

    #[test]
    fn options_that_contradict_a_position_are_named() {
        let p = position_string::read("3x3 classic 3/3/3 x 3 1 - 0").unwrap();
        assert!(Variant::of_position(&p).mismatches(&p).is_empty());
        let mut o = VariantOptions::default();
        o.set("size", "5x5").unwrap();
        o.set("obstacles", "b2").unwrap();
        o.set("end", "pass").unwrap();
        o.set("trenches", "20").unwrap();
        let got: Vec<String> = o.mismatches(&p).iter().map(|m| m.to_string()).collect();
        assert_eq!(
            got,
            [
                "size is 5x5 but the position's is 3x3",
                "end is pass but the position's is standard",
                "obstacles is b2 but the position's is -",
                "trenches 20 cannot apply to a game from a position: its board already shows the layout",
            ]
        );
        let gcr = Preset::Gcr.variant();
        assert_eq!(gcr.mismatches(&p).len(), 3, "size, first and start");
    }
}

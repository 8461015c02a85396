//! The categories a player is rated in: the variant's family × the speed.

use virus_wars_rules::contest::TimeControl;
use virus_wars_rules::{Preset, Variant};

/// Which games are rated together by their variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// The St Petersburg classic on its 10×10 board.
    Classic,
    PaperTactics,
    Gcr,
    IgGameCenter,
    Korobkov,
    /// Every other variant and size, together.
    Other,
}

/// How fast a game is: real time by its estimated length, or
/// correspondence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Speed {
    Bullet,
    Blitz,
    Rapid,
    Classical,
    Correspondence,
}

/// A rating category: `classic-blitz`, `other-correspondence`, ….
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Category {
    pub family: Family,
    pub speed: Speed,
}

impl Family {
    pub const ALL: [Family; 6] = [
        Family::Classic,
        Family::PaperTactics,
        Family::Gcr,
        Family::IgGameCenter,
        Family::Korobkov,
        Family::Other,
    ];

    pub fn of(variant: &Variant) -> Family {
        if variant.fog {
            // Hidden cells make another game of it: rated apart.
            return Family::Other;
        }
        match variant.preset() {
            Some(Preset::Classic) => Family::Classic,
            Some(Preset::PaperTactics) => Family::PaperTactics,
            Some(Preset::Gcr) => Family::Gcr,
            Some(Preset::IgGameCenter) => Family::IgGameCenter,
            Some(Preset::Korobkov) => Family::Korobkov,
            Some(Preset::ClassicPass | Preset::Feup) | None => Family::Other,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Family::Classic => "classic",
            Family::PaperTactics => "paper-tactics",
            Family::Gcr => "gcr",
            Family::IgGameCenter => "iggamecenter",
            Family::Korobkov => "korobkov",
            Family::Other => "other",
        }
    }
}

impl Speed {
    pub const ALL: [Speed; 5] = [
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// A clock's speed: real time by the estimated game length, base + 40
    /// × increment (as lichess estimates it), under 3 minutes bullet, under
    /// 8 blitz, under 25 rapid, else classical.
    pub fn of(clock: &TimeControl) -> Speed {
        if clock.per_turn {
            return Speed::Correspondence;
        }
        let estimated_s = (clock.base_ms + 40 * clock.increment_ms) / 1000;
        match estimated_s {
            0..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1500 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }
}

impl Category {
    /// The category of a game of `variant` with `clock` (an untimed game
    /// has none: it cannot be rated).
    pub fn of(variant: &Variant, clock: Option<&TimeControl>) -> Option<Category> {
        Some(Category {
            family: Family::of(variant),
            speed: Speed::of(clock?),
        })
    }

    /// Every category.
    pub fn all() -> impl Iterator<Item = Category> {
        Family::ALL.into_iter().flat_map(|family| {
            Speed::ALL
                .into_iter()
                .map(move |speed| Category { family, speed })
        })
    }

    /// Reads a category as [`Category::name`] writes it.
    pub fn parse(text: &str) -> Option<Category> {
        Category::all().find(|c| c.name() == text)
    }

    pub fn name(self) -> String {
        format!("{}-{}", self.family.name(), self.speed.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fischer(base_s: u64, inc_s: u64) -> TimeControl {
        TimeControl {
            base_ms: base_s * 1000,
            increment_ms: inc_s * 1000,
            per_turn: false,
        }
    }

    #[test]
    fn speeds_by_the_estimated_length() {
        let speed = |base, inc| Speed::of(&fischer(base, inc)).name();
        for (base, inc, expected) in [
            (60, 0, "bullet"),
            (120, 1, "bullet"),
            (180, 0, "blitz"),
            (180, 2, "blitz"),
            (300, 5, "rapid"),
            (480, 0, "rapid"),
            (900, 15, "classical"),
            (1800, 0, "classical"),
        ] {
            assert_eq!(speed(base, inc), expected, "{base}+{inc}");
        }
    }

    #[test]
    fn categories_are_named_and_read_back() {
        let classic = Preset::Classic.variant();
        let blitz = Category::of(&classic, Some(&fischer(180, 2))).unwrap();
        assert_eq!(blitz.name(), "classic-blitz");
        assert_eq!(Category::parse("classic-blitz"), Some(blitz));
        assert_eq!(Category::of(&classic, None), None, "untimed: not rated");
        let fog = Variant {
            fog: true,
            ..Preset::PaperTactics.variant()
        };
        let fogged = Category::of(&fog, Some(&fischer(180, 2))).unwrap();
        assert_eq!(fogged.name(), "other-blitz", "fog is rated apart");
        let small = Preset::Classic.sized(8, 8);
        let days = TimeControl {
            base_ms: 86_400_000,
            increment_ms: 0,
            per_turn: true,
        };
        assert_eq!(
            Category::of(&small, Some(&days)).unwrap().name(),
            "other-correspondence"
        );
        assert_eq!(Category::all().count(), 30);
        assert!(Category::all().all(|c| Category::parse(&c.name()) == Some(c)));
        assert_eq!(Category::parse("classic"), None);
    }
}

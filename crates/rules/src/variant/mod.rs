//! A variant: board size, turn rules, and the board layout options of
//! paper-tactics.com (trenches, bases) plus fixed obstacles. Presets name the
//! forms the seed texts and the known implementations play.

mod options;
mod position;
mod text;

pub use options::{parse_cells, parse_yes_no, VariantOptions, KEYS};
pub use position::Mismatch;

use std::fmt;
use std::str::FromStr;

use crate::any_position::AnyPosition;
use crate::cell::{Cell, MAX_SIDE, MIN_SIDE};
use crate::rng::SplitMix64;
use crate::rules::{EndRule, Rules, StartRule, MAX_STEPS};
use crate::setup::{Content, Setup};
use crate::side::Side;

/// Everything that decides how a game starts and is played.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Variant {
    pub width: u8,
    pub height: u8,
    pub rules: Rules,
    /// Chance (percent) that each cell pair symmetric through the centre gets
    /// neutral trenches (paper-tactics.com).
    pub trench_percent: u8,
    /// Each side starts with a second base on the far file (corners start only).
    pub double_base: bool,
    /// Bases stand on random ranks of their edge files (corners start only).
    pub random_bases: bool,
    /// Cells nobody may ever step on.
    pub obstacles: Vec<Cell>,
    /// Seed for trenches and random bases; the same seed gives the same board.
    pub seed: u64,
    /// Fog of war (docs/rules.md §8): each side sees only what is near its
    /// colonies. Legality is unchanged; what each side is shown is not.
    pub fog: bool,
}

/// The named forms of the game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Preset {
    Classic,
    ClassicPass,
    PaperTactics,
    Gcr,
    IgGameCenter,
    Feup,
    Korobkov,
}

impl Preset {
    pub const ALL: [Preset; 7] = [
        Preset::Classic,
        Preset::ClassicPass,
        Preset::PaperTactics,
        Preset::Gcr,
        Preset::IgGameCenter,
        Preset::Feup,
        Preset::Korobkov,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Classic => "classic",
            Preset::ClassicPass => "classic-pass",
            Preset::PaperTactics => "paper-tactics",
            Preset::Gcr => "gcr",
            Preset::IgGameCenter => "iggamecenter",
            Preset::Feup => "feup",
            Preset::Korobkov => "korobkov",
        }
    }

    /// The preset's variant on a `width`×`height` board.
    pub fn sized(self, width: u8, height: u8) -> Variant {
        Variant {
            width,
            height,
            ..self.variant()
        }
    }

    pub fn variant(self) -> Variant {
        use EndRule::*;
        use StartRule::*;
        let (size, steps, first, start, end) = match self {
            Preset::Classic => (10, 3, 3, CornerEntry, Standard),
            Preset::ClassicPass => (10, 3, 3, CornerEntry, Pass),
            Preset::PaperTactics => (10, 3, 3, Corners, Standard),
            Preset::Gcr => (11, 3, 1, Corners, Standard),
            Preset::IgGameCenter => (11, 5, 5, EdgeEntry, Standard),
            Preset::Feup => (10, 3, 3, EdgeEntry, Standard),
            Preset::Korobkov => (8, 3, 3, Corners, Standard),
        };
        Variant {
            width: size,
            height: size,
            rules: Rules {
                steps_per_turn: steps,
                first_turn_steps: first,
                start,
                end,
                deathmatch: false,
            },
            trench_percent: 0,
            double_base: false,
            random_bases: false,
            obstacles: Vec::new(),
            seed: 0,
            fog: false,
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = VariantError;
    fn from_str(s: &str) -> Result<Self, VariantError> {
        let key = s.trim().to_ascii_lowercase();
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == key)
            .ok_or_else(|| VariantError::UnknownPreset(s.trim().to_string()))
    }
}

/// What makes a variant unplayable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    #[error("unknown variant '{0}': expected one of classic, classic-pass, paper-tactics, gcr, iggamecenter, feup, korobkov")]
    UnknownPreset(String),
    #[error(
        "board {0}x{1} is out of range: files and ranks must be between {MIN_SIDE} and {MAX_SIDE}"
    )]
    Size(u32, u32),
    #[error("'{0}' is not a board size: write files x ranks, like 10x10")]
    SizeSyntax(String),
    #[error("steps per turn must be between 1 and {MAX_STEPS} (got {0})")]
    Steps(u32),
    #[error("first-turn steps must be between 1 and {MAX_STEPS} (got {0})")]
    FirstTurnSteps(u32),
    #[error("trench density must be a percentage from 0 to 100 (got {0})")]
    TrenchPercent(u32),
    #[error("{0} needs start rule 'corners' (bases are pre-placed viruses)")]
    NeedsCorners(&'static str),
    #[error("obstacle {cell} is off the {width}x{height} board")]
    ObstacleOffBoard { cell: Cell, width: u8, height: u8 },
    #[error("obstacle {0} covers a base or entry corner")]
    ObstacleOnBase(Cell),
}

impl Default for Variant {
    fn default() -> Self {
        Preset::Classic.variant()
    }
}

impl Variant {
    /// Checks the parameters and names the first one that is wrong.
    pub fn check(&self) -> Result<(), VariantError> {
        let ok = |s: u8| (MIN_SIDE..=MAX_SIDE).contains(&s);
        if !ok(self.width) || !ok(self.height) {
            return Err(VariantError::Size(self.width.into(), self.height.into()));
        }
        if !(1..=MAX_STEPS).contains(&self.rules.steps_per_turn) {
            return Err(VariantError::Steps(self.rules.steps_per_turn as u32));
        }
        if !(1..=MAX_STEPS).contains(&self.rules.first_turn_steps) {
            return Err(VariantError::FirstTurnSteps(
                self.rules.first_turn_steps as u32,
            ));
        }
        if self.trench_percent > 100 {
            return Err(VariantError::TrenchPercent(self.trench_percent as u32));
        }
        if self.rules.start != StartRule::Corners {
            if self.double_base {
                return Err(VariantError::NeedsCorners("double-base"));
            }
            if self.random_bases {
                return Err(VariantError::NeedsCorners("random-bases"));
            }
        }
        let bases = self.bases();
        for &cell in &self.obstacles {
            if cell.file >= self.width || cell.rank >= self.height {
                return Err(VariantError::ObstacleOffBoard {
                    cell,
                    width: self.width,
                    height: self.height,
                });
            }
            let corner =
                cell == Cell::new(0, 0) || cell == Cell::new(self.width - 1, self.height - 1);
            let on_base = bases.iter().any(|(c, _)| *c == cell);
            if on_base || (self.rules.start == StartRule::CornerEntry && corner) {
                return Err(VariantError::ObstacleOnBase(cell));
            }
        }
        Ok(())
    }

    /// The preset whose parameters these are, if any, fog aside (fog
    /// changes what each side is shown, not how the game is played: a
    /// paper-tactics game in fog is paper-tactics with `fog=yes`).
    pub fn preset(&self) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| {
            p.variant()
                == Variant {
                    fog: false,
                    ..self.clone()
                }
        })
    }

    /// Whether the layout (trenches, random bases) must stay unknown to the
    /// players: in a fog game, where a hidden cell may be a trench. Such a
    /// game is laid out from a seed nobody sees (docs/rules.md §8).
    pub fn hides_layout(&self) -> bool {
        self.fog && (self.trench_percent > 0 || self.random_bases)
    }

    /// This variant laid out from `seed` (drawn at random, seen by nobody)
    /// where its layout must stay hidden ([`Variant::hides_layout`]), as
    /// every new game and rematch of it is; unchanged otherwise.
    pub fn laid_out_anew(mut self, seed: u64) -> Variant {
        if self.hides_layout() {
            self.seed = seed;
        }
        self
    }

    /// Pre-placed viruses (corners start): X's at a1 (or a random rank of
    /// file a), O's at the point-symmetric cell; with double bases a second
    /// pair on the other files.
    pub fn bases(&self) -> Vec<(Cell, Side)> {
        if self.rules.start != StartRule::Corners {
            return Vec::new();
        }
        let (w, h) = (self.width, self.height);
        let mut rng = SplitMix64::new(self.seed ^ 0xBA5E);
        let (mut r1, mut r2) = (0u8, 0u8);
        if self.random_bases {
            r1 = rng.below(h as u32) as u8;
            // The second pair must not land on the first pair's cells.
            loop {
                r2 = rng.below(h as u32) as u8;
                if r2 != h - 1 - r1 {
                    break;
                }
            }
        }
        let mirror = |c: Cell| Cell::new(w - 1 - c.file, h - 1 - c.rank);
        let mut x = vec![Cell::new(0, r1)];
        if self.double_base {
            x.push(Cell::new(w - 1, r2));
        }
        let mut all: Vec<(Cell, Side)> = x.iter().map(|&c| (c, Side::X)).collect();
        all.extend(x.iter().map(|&c| (mirror(c), Side::O)));
        all
    }

    /// Trench cells: each pair of cells symmetric through the centre gets
    /// trenches with `trench_percent` % chance, never on a base or obstacle.
    pub fn trenches(&self) -> Vec<Cell> {
        if self.trench_percent == 0 {
            return Vec::new();
        }
        let (w, h) = (self.width as usize, self.height as usize);
        let n = w * h;
        let mut rng = SplitMix64::new(self.seed ^ 0x7E4C);
        let blocked: Vec<Cell> = self
            .bases()
            .into_iter()
            .map(|(c, _)| c)
            .chain(self.obstacles.iter().copied())
            .collect();
        let entry_corners = [Cell::new(0, 0), Cell::new(self.width - 1, self.height - 1)];
        let cell = |i: usize| Cell::new((i % w) as u8, (i / w) as u8);
        let mut out = Vec::new();
        for i in 0..n.div_ceil(2) {
            let j = n - 1 - i;
            let roll = rng.below(100) < self.trench_percent as u32;
            let pair = [cell(i), cell(j)];
            let free = pair
                .iter()
                .all(|c| !blocked.contains(c) && !entry_corners.contains(c));
            if roll && free {
                out.push(pair[0]);
                if j != i {
                    out.push(pair[1]);
                }
            }
        }
        out.sort();
        out
    }

    /// The unchecked starting position.
    pub fn start_setup(&self) -> Setup {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut cells = vec![Content::Empty; w * h];
        let at = |c: Cell| c.rank as usize * w + c.file as usize;
        for c in self.trenches() {
            cells[at(c)] = Content::Trench;
        }
        for &c in &self.obstacles {
            cells[at(c)] = Content::Obstacle;
        }
        for (c, side) in self.bases() {
            cells[at(c)] = Content::Virus(side);
        }
        let corners = self.rules.start == StartRule::Corners;
        Setup {
            width: self.width,
            height: self.height,
            rules: self.rules,
            cells,
            side: Side::X,
            steps_left: self.rules.steps_in_turn(1),
            turn: 1,
            entered: [corners, corners],
            passes: 0,
        }
    }

    /// The starting position, after checking the variant.
    pub fn start(&self) -> Result<AnyPosition, VariantError> {
        self.check()?;
        Ok(AnyPosition::from_setup(&self.start_setup())
            .expect("a checked variant gives a valid start"))
    }
}

/// Parses `WxH` (also `W×H`, `W*H`, or a single number for a square board).
pub fn parse_size(text: &str) -> Result<(u8, u8), VariantError> {
    let t = text.trim().to_ascii_lowercase().replace(['×', '*'], "x");
    let err = || VariantError::SizeSyntax(text.trim().to_string());
    let (w, h) = match t.split_once('x') {
        Some((w, h)) => (
            w.trim().parse::<u32>().map_err(|_| err())?,
            h.trim().parse::<u32>().map_err(|_| err())?,
        ),
        None => {
            let s = t.parse::<u32>().map_err(|_| err())?;
            (s, s)
        }
    };
    let ok = |s: u32| (MIN_SIDE as u32..=MAX_SIDE as u32).contains(&s);
    if !ok(w) || !ok(h) {
        return Err(VariantError::Size(w, h));
    }
    let (w, h) = (w as u8, h as u8);
    Ok((w, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_valid_and_recognised() {
        for p in Preset::ALL {
            let v = p.variant();
            v.check().unwrap();
            assert_eq!(v.preset(), Some(p));
            assert_eq!(p.name().parse::<Preset>().unwrap(), p);
        }
        assert!(matches!(
            "chess".parse::<Preset>(),
            Err(VariantError::UnknownPreset(_))
        ));
    }

    #[test]
    fn sizes_parse_and_range_checks() {
        assert_eq!(parse_size("10x12").unwrap(), (10, 12));
        assert_eq!(parse_size(" 9 ").unwrap(), (9, 9));
        assert_eq!(parse_size("19×19").unwrap(), (19, 19));
        assert_eq!(parse_size("2x5"), Err(VariantError::Size(2, 5)));
        assert_eq!(parse_size("20x5"), Err(VariantError::Size(20, 5)));
        assert!(matches!(
            parse_size("ten"),
            Err(VariantError::SizeSyntax(_))
        ));
    }

    #[test]
    fn trenches_are_point_symmetric_and_seeded() {
        let v = Variant {
            trench_percent: 30,
            seed: 42,
            ..Preset::PaperTactics.variant()
        };
        let t = v.trenches();
        assert!(!t.is_empty());
        for c in &t {
            assert!(t.contains(&Cell::new(9 - c.file, 9 - c.rank)), "{c}");
            assert!(*c != Cell::new(0, 0) && *c != Cell::new(9, 9));
        }
        assert_eq!(t, v.trenches());
        let other = Variant {
            seed: 43,
            ..v.clone()
        };
        assert_ne!(t, other.trenches());
        let full = Variant {
            trench_percent: 100,
            ..v
        };
        assert_eq!(full.trenches().len(), 98);
    }

    #[test]
    fn bases_mirror_each_other() {
        let v = Variant {
            double_base: true,
            random_bases: true,
            seed: 9,
            ..Preset::PaperTactics.variant()
        };
        let b = v.bases();
        assert_eq!(b.len(), 4);
        let cells: std::collections::HashSet<Cell> = b.iter().map(|(c, _)| *c).collect();
        assert_eq!(cells.len(), 4);
        let plain = Variant {
            double_base: true,
            ..Preset::PaperTactics.variant()
        };
        let want = vec![
            (Cell::new(0, 0), Side::X),
            (Cell::new(9, 0), Side::X),
            (Cell::new(9, 9), Side::O),
            (Cell::new(0, 9), Side::O),
        ];
        assert_eq!(plain.bases(), want);
        let bad = Variant {
            double_base: true,
            ..Preset::Classic.variant()
        };
        assert_eq!(bad.check(), Err(VariantError::NeedsCorners("double-base")));
    }
}

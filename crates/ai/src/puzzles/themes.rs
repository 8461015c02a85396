//! A puzzle's themes, in the game's own words, each a fact about the
//! position before the mover's first turn and after it (docs/puzzles.md).

use virus_wars_rules::{with_position, AnyPosition, Step};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// The other side is left one virus.
    LastLiveVirus,
    /// The turn takes at least half of the cells the other side could
    /// step on.
    CutOffGroup,
    /// The turn kills at least two viruses: a wall of zombies.
    Bunker,
    /// After the turn the other side can reach none of the mover's viruses.
    Fortress,
    /// A side has not entered the board yet.
    RaceForAnEntryCell,
}

impl Theme {
    pub const ALL: [Theme; 5] = [
        Theme::LastLiveVirus,
        Theme::CutOffGroup,
        Theme::Bunker,
        Theme::Fortress,
        Theme::RaceForAnEntryCell,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Theme::LastLiveVirus => "last-live-virus",
            Theme::CutOffGroup => "cut-off-group",
            Theme::Bunker => "bunker",
            Theme::Fortress => "fortress",
            Theme::RaceForAnEntryCell => "race-for-an-entry-cell",
        }
    }

    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The themes of the turn `steps` from `before`.
    pub fn of_turn(before: &AnyPosition, steps: &[Step]) -> Vec<Theme> {
        let mut after = *before;
        for &s in steps {
            if after.play(s).is_err() {
                return Vec::new();
            }
        }
        let me = before.side();
        let facts = |p: &AnyPosition| {
            with_position!(p, q => (
                q.viruses(!me).count(),
                q.reach(!me).count(),
                q.zombies(me).count(),
                (q.reach(!me) & q.viruses(me)).count(),
                q.entered(me) && q.entered(!me),
            ))
        };
        let (their_before, reach_before, zombies_before, _, entered_before) = facts(before);
        let (their_after, reach_after, zombies_after, threatened_after, _) = facts(&after);
        let mut themes = Vec::new();
        if their_after == 1 && their_before > 1 {
            themes.push(Theme::LastLiveVirus);
        }
        if reach_before >= 2 && reach_after * 2 <= reach_before {
            themes.push(Theme::CutOffGroup);
        }
        if zombies_after >= zombies_before + 2 {
            themes.push(Theme::Bunker);
        }
        if threatened_after == 0 && after.outcome().is_none() {
            themes.push(Theme::Fortress);
        }
        if !entered_before {
            themes.push(Theme::RaceForAnEntryCell);
        }
        themes
    }
}

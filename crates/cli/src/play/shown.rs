//! What the terminal shows of the game: the whole board, or in a fog game
//! (docs/rules.md §8) what the person playing sees — its own view when one
//! person plays the computer, what both sides see when two computers play —
//! until the game ends and the fog lifts. The cells, the last turn, the move
//! list and the position line all come from here, so nothing hidden reaches
//! the screen by another way.

use std::cell::Ref;

use virus_wars_ai::Sitting;
use virus_wars_rules::fog::{write_view, Known, Viewer};
use virus_wars_rules::notation::format_turn;
use virus_wars_rules::{position_string, Cell, Content, Game, Side, Step};

use super::session::Session;

/// The board as shown: each cell's content rank-major from a1, `None`
/// where fog hides it, and the enemy pieces remembered from when they were
/// seen (out of sight now, so perhaps gone).
pub struct Board {
    pub cells: Vec<Option<Content>>,
    pub remembered: Vec<Cell>,
}

impl Board {
    pub fn content(&self, width: u8, cell: Cell) -> Option<Content> {
        self.cells[cell.rank as usize * width as usize + cell.file as usize]
    }

    pub fn hidden(&self) -> usize {
        self.cells.iter().filter(|c| c.is_none()).count()
    }
}

impl Session {
    /// Who the screen shows the game to, in a fog game not yet over: the
    /// person's side against the computer, the watchers when computers
    /// play both sides. `None`: the whole board.
    pub fn viewer(&self) -> Option<Viewer> {
        if !self.game().variant().fog || self.ending().is_some() {
            return None;
        }
        let people: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|&s| !self.table.seat(s).is_computer())
            .collect();
        Some(match people[..] {
            [side] => Viewer::Player(side),
            // Two people at one screen cannot hide it from each other:
            // `PlayArgs::session` refuses that; show what both see.
            _ => Viewer::Watcher,
        })
    }

    /// Who is shown the game and what they know of it, when fog hides
    /// part of it: the memory kept in the session, brought up to the game.
    fn known(&self) -> Option<(Viewer, Ref<'_, Known>)> {
        let viewer = self.viewer()?;
        {
            let mut kept = self.known.borrow_mut();
            match kept.as_mut() {
                Some(known) => known.catch_up(self.game()),
                None => *kept = Some(Known::of_game(self.game())),
            }
        }
        let known = Ref::filter_map(self.known.borrow(), Option::as_ref).ok()?;
        Some((viewer, known))
    }

    /// The board as the screen shows it.
    pub fn board(&self) -> Board {
        let p = self.game().position();
        match self.known() {
            None => Board {
                cells: p.to_setup().cells.into_iter().map(Some).collect(),
                remembered: Vec::new(),
            },
            Some((viewer, known)) => Board {
                cells: known.cells(p, viewer),
                remembered: match viewer {
                    Viewer::Player(side) => known.remembered(p, side),
                    Viewer::Watcher => Vec::new(),
                },
            },
        }
    }

    /// The turns as the screen shows them: each turn's side and steps,
    /// `None` for a step fog hid.
    pub fn turns_shown(&self) -> Vec<(Side, Vec<Option<Step>>)> {
        match self.known() {
            Some((viewer, known)) => known.turns_seen(self.game(), viewer),
            None => self
                .game()
                .turns()
                .into_iter()
                .map(|t| (t.side, t.steps.into_iter().map(Some).collect()))
                .collect(),
        }
    }

    /// The last turn played, by whom, as shown (`None` for a hidden step).
    pub fn last_turn(&self) -> Option<(Side, Vec<Option<Step>>)> {
        self.turns_shown().pop()
    }

    /// The cells of the last turn the screen may mark.
    pub fn last_turn_cells(&self) -> Vec<Cell> {
        self.last_turn()
            .map(|(_, steps)| {
                steps
                    .into_iter()
                    .filter_map(|s| match s {
                        Some(Step::Cell(c)) => Some(c),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The move list: one line a turn, `12. O e5-e6-f6` (`?` a hidden step).
    pub fn move_list(&self) -> Vec<String> {
        self.turns_shown()
            .iter()
            .enumerate()
            .map(|(k, (side, steps))| format!("{:>3}. {side} {}", k + 1, shown_turn(steps)))
            .collect()
    }

    /// The game for the engine's review (`analyse`): refused while fog
    /// hides part of it, since the review reads the whole board.
    pub fn reviewable(&self) -> Result<Game, String> {
        if self.viewer().is_some() {
            return Err(
                "a fog game is reviewed once it is over: the review reads the whole board".into(),
            );
        }
        Ok(self.game().clone())
    }

    /// The position as text: its position string, or under fog the view
    /// of the side shown (`?` on hidden cells; none for watchers).
    pub fn position_line(&self) -> Option<String> {
        let p = self.game().position();
        match self.known() {
            None => Some(format!("position {}", position_string::write(p))),
            Some((Viewer::Player(side), known)) => {
                let view = known.sight().view(p, side);
                Some(format!("view {}", write_view(p, &view)))
            }
            Some((Viewer::Watcher, _)) => None,
        }
    }
}

/// Steps as a turn is written, `?` for a hidden one.
pub fn shown_turn(steps: &[Option<Step>]) -> String {
    if steps.iter().all(Option::is_some) {
        return format_turn(&steps.iter().flatten().copied().collect::<Vec<_>>());
    }
    steps
        .iter()
        .map(|s| s.map_or_else(|| "?".to_string(), |s| s.to_string()))
        .collect::<Vec<_>>()
        .join("-")
}

//! What one viewer knows of a game: the only source of everything a state
//! shows that fog may hide. A game without fog, and every game once it is
//! over, is the case "everything seen"; a fog game in play is what the
//! rules' [`Known`] says this viewer saw.

use virus_wars_rules::contest::Contest;
use virus_wars_rules::fog::{write_view, Known, Seen, Viewer};
use virus_wars_rules::{Cell, Content, Game, Side, Step};

use crate::view::FogState;

/// A turn as one viewer saw it: its side and each step, `None` for a step
/// it did not see land.
pub type TurnSeen = (Side, Vec<Option<Step>>);

/// What one viewer knows of a game as of its last step.
pub struct Knowledge {
    /// Each cell rank-major from a1: `None` where the viewer does not see.
    pub cells: Vec<Option<Content>>,
    /// Every turn played, as the viewer saw it.
    pub turns: Vec<TurnSeen>,
    /// The position string: only for a viewer who sees everything.
    pub position: Option<String>,
    /// The steps the side to move may make: for a viewer who sees
    /// everything, or who is that side under fog; empty once over.
    pub legal: Vec<Step>,
    /// Whose view this is and what fog leaves out; `None` when nothing is.
    pub fog: Option<FogState>,
}

impl Knowledge {
    /// Everything: a game without fog, or any game once over.
    pub fn everything(c: &Contest) -> Knowledge {
        let game = &c.game;
        let p = game.position();
        let cells = (0..p.height())
            .flat_map(|rank| (0..p.width()).map(move |file| Cell { file, rank }))
            .map(|cell| Some(p.content(cell)))
            .collect();
        Knowledge {
            cells,
            turns: game
                .turns()
                .into_iter()
                .map(|t| (t.side, t.steps.into_iter().map(Some).collect()))
                .collect(),
            position: Some(virus_wars_rules::position_string::write(p)),
            legal: if c.finished() {
                Vec::new()
            } else {
                p.legal_steps().to_vec()
            },
            fog: None,
        }
    }

    /// What `viewer` knows of a fog game in play (`known` its fog).
    pub fn under_fog(game: &Game, known: &Known, viewer: Viewer) -> Knowledge {
        let p = game.position();
        let cells = known.cells(p, viewer);
        let mover = viewer == Viewer::Player(p.side());
        // The mover's view as text, and what it knows of the hidden pieces.
        let seen = mover.then(|| Seen::with_sight(game, known.sight()));
        let fog = FogState {
            view: seen
                .as_ref()
                .map(|_| write_view(p, &known.sight().view(p, p.side()))),
            hidden_enemy_pieces: seen.map(|s| s.hidden_enemy_pieces),
            viewer: match viewer {
                Viewer::Player(side) => crate::view::side_name(side),
                Viewer::Watcher => "watchers".into(),
            },
            unknown: cells.iter().filter(|c| c.is_none()).count(),
            remembered: match viewer {
                Viewer::Player(side) => known
                    .remembered(p, side)
                    .iter()
                    .map(Cell::to_string)
                    .collect(),
                Viewer::Watcher => Vec::new(),
            },
        };
        Knowledge {
            cells,
            turns: known.turns_seen(game, viewer),
            position: None,
            legal: if mover {
                p.legal_steps().to_vec()
            } else {
                Vec::new()
            },
            fog: Some(fog),
        }
    }

    /// The steps of the last turn played (whole or not) and of the last
    /// whole one: while `to_move` plays its turn, the other side's before
    /// it; once the game is over (`to_move` `None`), its last turn.
    pub fn last_turns(&self, to_move: Option<Side>) -> (&[Option<Step>], &[Option<Step>]) {
        let last = self.turns.last();
        let in_progress = last.is_some_and(|(side, _)| Some(*side) == to_move);
        let whole = self.turns.len() - usize::from(in_progress);
        (
            steps_of(last),
            steps_of(whole.checked_sub(1).and_then(|k| self.turns.get(k))),
        )
    }
}

fn steps_of(turn: Option<&TurnSeen>) -> &[Option<Step>] {
    turn.map_or(&[], |(_, steps)| steps)
}

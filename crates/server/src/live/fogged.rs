//! A fog game as each viewer is shown it while it is played (docs/rules.md
//! §8): a seat sees its side's view, the watchers what both sides see.
//! Whatever a viewer does not see is left out of everything it is sent:
//! `?` on the board and for the enemy steps it did not see land, no
//! position string, the legal steps only for the mover. Once the game is
//! over, everyone is shown all of it.

use std::sync::Arc;

use virus_wars_rules::fog::{write_view, Known, Seen, Viewer};
use virus_wars_rules::{Game, Side};

use super::{state_message, LiveGame};
use crate::view::{side_name, view_rows, FogState, GameState};

/// The state after a change and its live sockets' message, rendered for
/// each viewer: one for all when nothing is hidden, else one for X's seat,
/// one for O's, one for the watchers.
pub struct Shown {
    views: Vec<(GameState, Arc<str>)>,
}

impl Shown {
    fn index(&self, viewer: Viewer) -> usize {
        if self.views.len() == 1 {
            return 0;
        }
        match viewer {
            Viewer::Player(Side::X) => 0,
            Viewer::Player(Side::O) => 1,
            Viewer::Watcher => 2,
        }
    }

    /// The state as `viewer` is shown it.
    pub fn state(&self, viewer: Viewer) -> &GameState {
        &self.views[self.index(viewer)].0
    }

    /// The live socket's message for `viewer`.
    pub fn message(&self, viewer: Viewer) -> Arc<str> {
        self.views[self.index(viewer)].1.clone()
    }
}

impl LiveGame {
    /// Whether the game hides anything now: a fog game being played.
    pub fn fogged(&self) -> bool {
        self.variant().fog && !self.table.contest.finished()
    }

    /// The game as `viewer` is shown it, as of `now`.
    pub fn state_for(&self, now: u64, viewer: Viewer) -> GameState {
        let whole = self.state(now);
        if !self.fogged() {
            return whole;
        }
        let game = &self.table.contest.game;
        fog(whole, game, &Known::of_game(game), viewer)
    }

    /// The state as of `now` for every viewer, rendered once.
    pub fn shown(&self, now: u64) -> Shown {
        let whole = self.state(now);
        let views = if self.fogged() {
            let game = &self.table.contest.game;
            let known = Known::of_game(game);
            [
                Viewer::Player(Side::X),
                Viewer::Player(Side::O),
                Viewer::Watcher,
            ]
            .into_iter()
            .map(|v| fog(whole.clone(), game, &known, v))
            .collect()
        } else {
            vec![whole]
        };
        Shown {
            views: views
                .into_iter()
                .map(|s| {
                    let message = state_message(&s).into();
                    (s, message)
                })
                .collect(),
        }
    }
}

/// `whole` (the state of a fog game being played) cut down to what
/// `viewer` sees.
fn fog(mut whole: GameState, game: &Game, known: &Known, viewer: Viewer) -> GameState {
    let p = game.position();
    let cells = known.cells(p, viewer);
    whole.board = view_rows(&cells, p.width(), p.height());
    whole.position = None;
    if viewer != Viewer::Player(p.side()) {
        whole.legal.clear();
    }
    // Each turn as its steps, shown or not.
    let turns: Vec<(Side, Vec<String>)> = known
        .turns_seen(game, viewer)
        .into_iter()
        .map(|(side, steps)| {
            let shown = steps
                .iter()
                .map(|s| s.map_or_else(|| "?".to_string(), |s| s.to_string()))
                .collect();
            (side, shown)
        })
        .collect();
    whole.turns = turns
        .iter()
        .enumerate()
        .map(|(k, (side, steps))| format!("{}. {side} {}", k + 1, steps.join("-")))
        .collect();
    whole.last_turn = turns.last().map_or_else(Vec::new, |(_, s)| s.clone());
    // The turn in progress is the mover's; the whole one is before it.
    let in_progress = turns.last().is_some_and(|(side, _)| *side == p.side());
    whole.previous_turn = (turns.len() - usize::from(in_progress))
        .checked_sub(1)
        .map_or_else(Vec::new, |k| turns[k].1.clone());
    whole.steps = turns.into_iter().flat_map(|(_, s)| s).collect();
    let remembered = match viewer {
        Viewer::Player(side) => known
            .remembered(p, side)
            .iter()
            .map(|c| c.to_string())
            .collect(),
        Viewer::Watcher => Vec::new(),
    };
    // The mover's view as text, and what it knows of the hidden pieces.
    let mover = (viewer == Viewer::Player(p.side())).then(|| Seen::with_sight(game, known.sight()));
    whole.fog = Some(FogState {
        view: mover
            .as_ref()
            .map(|_| write_view(p, &known.sight().view(p, p.side()))),
        hidden_enemy_pieces: mover.map(|s| s.hidden_enemy_pieces),
        viewer: match viewer {
            Viewer::Player(side) => side_name(side),
            Viewer::Watcher => "watchers".into(),
        },
        unknown: cells.iter().filter(|c| c.is_none()).count(),
        remembered,
    });
    whole
}

//! What each side knows of a whole game under fog: the memory of the board
//! ([`Sight`]) and which steps it saw played. A side sees its own steps; an
//! enemy step when it sees the cell stepped on just after the step (a
//! virus grown where it sees, or a virus of its own taken: the zombie is
//! seen; a trench taken out of its sight is not); an enemy pass always
//! (how many steps each turn has is no secret). Watchers are shown what
//! both sides see.

use super::{in_sight, Sight, ViewPosition};
use crate::{AnyPosition, Cell, Content, Game, Side, Step, StepError};

/// Who looks at a game under fog: one side, or the watchers (shown only
/// what both sides see).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    Player(Side),
    Watcher,
}

impl Sight {
    /// What `viewer` sees of `p` (the position this memory has looked at
    /// last), cell by cell rank-major from a1: watchers a cell both sides
    /// see.
    pub fn cells(&self, p: &AnyPosition, viewer: Viewer) -> Vec<Option<Content>> {
        match viewer {
            Viewer::Player(side) => self.view(p, side).cells,
            Viewer::Watcher => {
                let x = self.view(p, Side::X).cells;
                let o = self.view(p, Side::O).cells;
                x.into_iter().zip(o).map(|(a, b)| b.and(a)).collect()
            }
        }
    }
}

/// A game's fog: each side's memory of the board, and the steps it saw.
/// It can follow a game as it grows ([`Known::catch_up`]) without
/// replaying it from the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    sight: Sight,
    /// By side: whether it saw each step of the game (in order).
    steps_seen: [Vec<bool>; 2],
    /// The game this was made of: its start, its steps, where they led.
    start: AnyPosition,
    steps: Vec<Step>,
    now: AnyPosition,
}

impl Known {
    /// Replays `game` step by step, each side looking after every step.
    pub fn of_game(game: &Game) -> Known {
        let start = *game.start();
        let mut known = Known {
            sight: Sight::start(&start),
            steps_seen: [Vec::new(), Vec::new()],
            start,
            steps: Vec::new(),
            now: start,
        };
        known.follow(game.steps());
        known
    }

    /// Brings this up to `game`: only the steps played since, when `game`
    /// goes on from the game this was made of; replayed from the start
    /// otherwise (steps taken back, another game).
    pub fn catch_up(&mut self, game: &Game) {
        if *game.start() != self.start || !game.steps().starts_with(&self.steps) {
            *self = Known::of_game(game);
            return;
        }
        let new = game.steps().len() - self.steps.len();
        if new > 0 {
            self.follow(&game.steps()[game.steps().len() - new..]);
        }
    }

    fn follow(&mut self, steps: &[Step]) {
        for &step in steps {
            let mover = self.now.side();
            if self.now.play(step).is_err() {
                break;
            }
            self.steps.push(step);
            self.sight.look(&self.now);
            for side in Side::BOTH {
                let seen = side == mover
                    || match step {
                        Step::Pass => true,
                        Step::Cell(c) => self.sight.view(&self.now, side).sees(c),
                    };
                self.steps_seen[side.index()].push(seen);
            }
        }
    }

    /// The memory of the board.
    pub fn sight(&self) -> &Sight {
        &self.sight
    }

    /// Whether `viewer` saw the `k`-th step of the game (from 0).
    pub fn step_seen(&self, viewer: Viewer, k: usize) -> bool {
        let by = |s: Side| self.steps_seen[s.index()].get(k).copied().unwrap_or(false);
        match viewer {
            Viewer::Player(side) => by(side),
            Viewer::Watcher => by(Side::X) && by(Side::O),
        }
    }

    /// The turns of `game` (the game this was made of) as `viewer` saw
    /// them: each turn's side and steps, `None` for a step it did not see.
    pub fn turns_seen(&self, game: &Game, viewer: Viewer) -> Vec<(Side, Vec<Option<Step>>)> {
        let mut k = 0;
        game.turns()
            .into_iter()
            .map(|t| {
                let steps = t
                    .steps
                    .iter()
                    .map(|&s| {
                        let seen = self.step_seen(viewer, k).then_some(s);
                        k += 1;
                        seen
                    })
                    .collect();
                (t.side, steps)
            })
            .collect()
    }

    /// What `viewer` sees of `p` (the position the game has reached), cell
    /// by cell rank-major from a1: `None` where it does not see.
    pub fn cells(&self, p: &AnyPosition, viewer: Viewer) -> Vec<Option<Content>> {
        self.sight.cells(p, viewer)
    }

    /// The enemy pieces `side` is shown at `p` that are out of its sight
    /// now: remembered from when it saw them.
    pub fn remembered(&self, p: &AnyPosition, side: Side) -> Vec<Cell> {
        let now = in_sight(p, side);
        let view = self.sight.view(p, side);
        let w = p.width() as usize;
        view.cells
            .iter()
            .enumerate()
            .filter(|&(i, c)| !now[i] && *c == Some(Content::Virus(!side)))
            .map(|(i, _)| Cell::new((i % w) as u8, (i / w) as u8))
            .collect()
    }
}

/// The first of `steps` (sent together for `side`, to move at the end of
/// `game`) that is on a cell `side` does not see now: such a step is
/// refused before any step is played. Were the steps played first, a step
/// on a cell that only the earlier steps brought into sight would pass or
/// fail by what that cell holds (a trench, say), and a refused batch would
/// tell it without the earlier steps being made. Every cell `side` may
/// step on now is one it sees; so is every cell its own earlier steps make
/// it see, once it has been shown them.
pub fn first_unseen(game: &Game, side: Side, steps: &[Step]) -> Option<(usize, StepError)> {
    let p = game.position();
    let view = Sight::of_game(game).view(p, side);
    steps.iter().enumerate().find_map(|(k, step)| match *step {
        Step::Cell(cell) if cell.file < p.width() && cell.rank < p.height() => {
            (!view.sees(cell)).then_some((k, StepError::NotAccessible { cell, side }))
        }
        _ => None,
    })
}

/// What of `steps` (sent together for `side`, to move at the end of a fog
/// game) is played: refused, as [`first_unseen`] says, if one is on a cell
/// `side` does not see now (the step's index and why); else the steps up
/// to the one that ends the game, if one does. The rest are dropped, not
/// refused: a refusal would tell, with none of the steps made, that the
/// other side had no live virus left out of sight (the pass end rule ends
/// the game the moment that happens). Every caller that plays a side's
/// steps under fog goes through this: the server and the terminal game.
pub fn admitted<'a>(
    game: &Game,
    side: Side,
    steps: &'a [Step],
) -> Result<&'a [Step], (usize, StepError)> {
    if let Some(refused) = first_unseen(game, side, steps) {
        return Err(refused);
    }
    let mut g = game.clone();
    for (k, &step) in steps.iter().enumerate() {
        if g.play(step).is_err() {
            break;
        }
        if g.outcome().is_some() {
            return Ok(&steps[..=k]);
        }
    }
    Ok(steps)
}

/// What the side to move knows when it is to step, all a player under fog
/// is given: its view of the board (hidden cells read as empty, and which
/// they are) and how many of the other side's pieces stand on the hidden
/// cells. That number is known to it: the other side's steps (passes
/// aside) are no secret, and each left a piece, a virus or a zombie (a
/// virus of this side's taken, which it sees, or a trench taken); each of
/// its viruses stands on unless this side took it (which it saw itself
/// do); so the other side's pieces are its bases and steps, less those
/// this side took, and those not seen are the rest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    pub view: ViewPosition,
    pub hidden_enemy_pieces: u64,
    /// The other side's pre-placed bases (corners start), known from the
    /// start: each is the point mirror of one of this side's. One on a
    /// hidden cell still holds its virus (taken, it would be this side's
    /// zombie, which it sees). Empty where not known (a view read from
    /// text).
    pub enemy_bases: Vec<Cell>,
}

impl Seen {
    /// What the side to move at the end of `game` knows of it.
    pub fn of_game(game: &Game) -> Seen {
        Seen::with_sight(game, &Sight::of_game(game))
    }

    /// As [`Seen::of_game`], with the memory of `game` already replayed
    /// (`Sight::of_game`, or a [`Known`]'s).
    pub fn with_sight(game: &Game, sight: &Sight) -> Seen {
        let p = game.position();
        let (me, enemy) = (p.side(), !p.side());
        let view = ViewPosition::of(p, &sight.view(p, me));
        let mut enemy_steps = 0u64;
        let mut taken_by_me = 0u64;
        for (k, step) in game.steps().iter().enumerate() {
            let (Some(before), Step::Cell(c)) = (game.position_after(k), step) else {
                continue;
            };
            if before.side() == enemy {
                enemy_steps += 1;
            } else if before.content(*c) == Content::Virus(enemy) {
                taken_by_me += 1;
            }
        }
        let count = |c: Content| view.setup.cells.iter().filter(|&&x| x == c).count() as u64;
        let enemy_bases: Vec<Cell> = game
            .variant()
            .bases()
            .iter()
            .filter(|(_, s)| *s == enemy)
            .map(|&(c, _)| c)
            .collect();
        let bases = enemy_bases.len() as u64;
        let hidden_enemy_pieces = (bases + enemy_steps)
            .saturating_sub(taken_by_me)
            .saturating_sub(count(Content::Zombie(enemy)))
            .saturating_sub(count(Content::Virus(enemy)));
        Seen {
            view,
            hidden_enemy_pieces,
            enemy_bases,
        }
    }
}

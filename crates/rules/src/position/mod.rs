//! A validated position on a board of `N` 64-bit words, with the fast step
//! generator: the mover's live region and its legal step cells are kept
//! up to date incrementally within a turn.

use crate::bitboard::Bitboard;
use crate::cell::Cell;
use crate::geometry::Geometry;
use crate::rules::{entry_cells, EndRule, Rules, StartRule};
use crate::setup::{Content, Setup};
use crate::side::{Outcome, Side};
use crate::step::{Step, StepError};
use crate::zobrist;

mod bulk_count;
mod hashing;
mod live;

use live::stale;

/// A legal position. Copy it to explore; `play_*` mutate in place.
/// Equality compares the game state, not the caches.
#[derive(Clone, Copy, Debug)]
pub struct Position<const N: usize> {
    geo: Geometry<N>,
    rules: Rules,
    /// Live viruses of X and O.
    virus: [Bitboard<N>; 2],
    /// Zombies owned by X and by O.
    zombie: [Bitboard<N>; 2],
    trench: Bitboard<N>,
    obstacle: Bitboard<N>,
    side: Side,
    steps_left: u8,
    turn: u32,
    entered: [bool; 2],
    passes: u8,
    /// Set by the pass end rule (draw by passes, loss by annihilation).
    decided: Option<Outcome>,
    hash: u64,
    /// Each side's live region (its cells 8-connected to one of its live
    /// viruses) as last computed; `stale` says what of it is out of date.
    live: [Bitboard<N>; 2],
    stale: [u8; 2],
    /// The opponent's zombies next to a virus of its killed this turn: the
    /// only cells those kills can have cut off from its live viruses.
    cut: Bitboard<N>,
    /// Cells the mover may step on now.
    targets: Bitboard<N>,
    /// Each side's legal cells when its last turn ended (valid unless stale).
    saved_targets: [Bitboard<N>; 2],
}

impl<const N: usize> PartialEq for Position<N> {
    fn eq(&self, o: &Self) -> bool {
        self.geo == o.geo
            && self.rules == o.rules
            && self.virus == o.virus
            && self.zombie == o.zombie
            && self.trench == o.trench
            && self.obstacle == o.obstacle
            && self.side == o.side
            && self.steps_left == o.steps_left
            && self.turn == o.turn
            && self.entered == o.entered
            && self.passes == o.passes
            && self.decided == o.decided
    }
}

impl<const N: usize> Eq for Position<N> {}

impl<const N: usize> Position<N> {
    /// Builds the position; the caller has run [`Setup::check`] and made sure
    /// the board fits in `N` words.
    pub(crate) fn from_checked_setup(s: &Setup) -> Self {
        let geo = Geometry::new(s.width, s.height);
        let mut p = Position {
            geo,
            rules: s.rules,
            virus: [Bitboard::EMPTY; 2],
            zombie: [Bitboard::EMPTY; 2],
            trench: Bitboard::EMPTY,
            obstacle: Bitboard::EMPTY,
            side: s.side,
            steps_left: s.steps_left,
            turn: s.turn,
            entered: s.entered,
            passes: s.passes,
            decided: None,
            hash: 0,
            live: [Bitboard::EMPTY; 2],
            stale: [stale::LIVE; 2],
            cut: Bitboard::EMPTY,
            targets: Bitboard::EMPTY,
            saved_targets: [Bitboard::EMPTY; 2],
        };
        for (i, &c) in s.cells.iter().enumerate() {
            match c {
                Content::Empty => {}
                Content::Virus(side) => p.virus[side.index()].insert(i),
                Content::Zombie(side) => p.zombie[side.index()].insert(i),
                Content::Trench => p.trench.insert(i),
                Content::Obstacle => p.obstacle.insert(i),
            }
        }
        if s.rules.end == EndRule::Pass {
            p.decided = if s.passes >= 2 {
                Some(Outcome::Draw)
            } else {
                Side::BOTH
                    .into_iter()
                    .find(|&side| p.entered[side.index()] && p.virus[side.index()].is_empty())
                    .map(|side| Outcome::Win(!side))
            };
        }
        p.hash = p.hash_from_scratch();
        p.refresh_mover();
        p
    }

    /// The unchecked description of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            width: self.geo.width(),
            height: self.geo.height(),
            rules: self.rules,
            cells: (0..self.geo.cells_count())
                .map(|i| self.content_at(i))
                .collect(),
            side: self.side,
            steps_left: self.steps_left,
            turn: self.turn,
            entered: self.entered,
            passes: self.passes,
        }
    }

    pub fn geometry(&self) -> &Geometry<N> {
        &self.geo
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The player to step.
    #[inline(always)]
    pub fn side(&self) -> Side {
        self.side
    }

    #[inline(always)]
    pub fn steps_left(&self) -> u8 {
        self.steps_left
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn entered(&self, side: Side) -> bool {
        self.entered[side.index()]
    }

    pub fn passes(&self) -> u8 {
        self.passes
    }

    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn viruses(&self, side: Side) -> Bitboard<N> {
        self.virus[side.index()]
    }

    pub fn zombies(&self, owner: Side) -> Bitboard<N> {
        self.zombie[owner.index()]
    }

    pub fn trenches(&self) -> Bitboard<N> {
        self.trench
    }

    pub fn obstacles(&self) -> Bitboard<N> {
        self.obstacle
    }

    pub fn content(&self, cell: Cell) -> Content {
        self.content_at(self.geo.index(cell))
    }

    pub fn content_at(&self, i: usize) -> Content {
        for s in Side::BOTH {
            if self.virus[s.index()].contains(i) {
                return Content::Virus(s);
            }
            if self.zombie[s.index()].contains(i) {
                return Content::Zombie(s);
            }
        }
        if self.trench.contains(i) {
            Content::Trench
        } else if self.obstacle.contains(i) {
            Content::Obstacle
        } else {
            Content::Empty
        }
    }

    /// Cells the side to move may step on now (empty when the game is over).
    #[inline(always)]
    pub fn legal_cells(&self) -> Bitboard<N> {
        if self.decided.is_some() {
            Bitboard::EMPTY
        } else {
            self.targets
        }
    }

    /// The mover's live region (its cells connected to one of its live viruses).
    pub fn live_region(&self) -> Bitboard<N> {
        self.live[self.side.index()]
    }

    /// The cells `side` could step on if it were to step now: the mover's
    /// legal cells, or the opponent's mobility (for evaluation).
    pub fn reach(&self, side: Side) -> Bitboard<N> {
        if side == self.side {
            self.targets
        } else if !self.entered[side.index()] {
            self.entry_cells(side) & self.empty()
        } else {
            self.geo.dilate(self.live_region_of(side)) & self.takeable(side)
        }
    }

    /// Whether `pass` is legal now: pass end rule, before the turn's first step.
    #[inline]
    pub fn can_pass(&self) -> bool {
        self.rules.end == EndRule::Pass
            && self.decided.is_none()
            && self.steps_left == self.rules.steps_in_turn(self.turn)
    }

    /// Number of legal steps (a pass counts as one).
    #[inline(always)]
    pub fn legal_count(&self) -> u32 {
        self.legal_cells().count() + self.can_pass() as u32
    }

    /// Every legal step, cells in index order, then `pass` if allowed.
    pub fn legal_steps(&self) -> Vec<Step> {
        let mut v: Vec<Step> = self
            .legal_cells()
            .iter()
            .map(|i| Step::Cell(self.geo.cell(i)))
            .collect();
        if self.can_pass() {
            v.push(Step::Pass);
        }
        v
    }

    /// Is the game over, and how did it end?
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        match self.rules.end {
            EndRule::Standard if self.targets.is_empty() => Some(Outcome::Win(!self.side)),
            EndRule::Standard => None,
            EndRule::Pass => self.decided,
        }
    }

    /// Plays `step` after checking it; on error the position is unchanged.
    pub fn play(&mut self, step: Step) -> Result<(), StepError> {
        self.check_step(step)?;
        match step {
            Step::Pass => self.pass_unchecked(),
            Step::Cell(c) => self.play_unchecked(self.geo.index(c)),
        }
        Ok(())
    }

    /// Why `step` is illegal here, if it is.
    pub fn check_step(&self, step: Step) -> Result<(), StepError> {
        if self.outcome().is_some() {
            return Err(StepError::GameOver);
        }
        let side = self.side;
        let cell = match step {
            Step::Pass if self.can_pass() => return Ok(()),
            Step::Pass if self.rules.end == EndRule::Standard => {
                return Err(StepError::PassNotAllowed)
            }
            Step::Pass => return Err(StepError::PassMidTurn),
            Step::Cell(c) => c,
        };
        if !self.geo.contains(cell) {
            return Err(StepError::OffBoard {
                cell,
                width: self.geo.width(),
                height: self.geo.height(),
            });
        }
        let i = self.geo.index(cell);
        if self.targets.contains(i) {
            return Ok(());
        }
        Err(match self.content_at(i) {
            Content::Virus(s) if s == side => StepError::OwnVirus { cell },
            Content::Zombie(_) => StepError::Zombie { cell },
            Content::Obstacle => StepError::Obstacle { cell },
            _ if !self.entered[side.index()] => StepError::NotEntry {
                cell,
                side,
                entry: self.entry_description(side),
            },
            _ if self.live_region().is_empty() => StepError::NoLiveGroup { cell, side },
            _ => StepError::NotAccessible { cell, side },
        })
    }

    fn entry_description(&self, side: Side) -> String {
        let entry = self.entry_cells(side);
        match self.rules.start {
            StartRule::EdgeEntry => format!(
                "an empty cell of file {}",
                (b'a' + self.geo.cell(entry.first_index().unwrap_or(0)).file) as char
            ),
            _ => format!("{}", self.geo.cell(entry.first_index().unwrap_or(0))),
        }
    }

    /// Cells where `side` may make its first step (before it has entered).
    fn entry_cells(&self, side: Side) -> Bitboard<N> {
        let cells = entry_cells(self.rules.start, self.geo.width(), self.geo.height(), side);
        let mut b = Bitboard::EMPTY;
        for c in cells {
            b.insert(self.geo.index(c));
        }
        b
    }

    /// Cells `side` could step on if adjacent to its live region: empty cells,
    /// enemy viruses and trenches.
    #[inline(always)]
    fn takeable(&self, side: Side) -> Bitboard<N> {
        let me = side.index();
        self.geo.board() & !(self.virus[me] | self.zombie[0] | self.zombie[1] | self.obstacle)
    }

    #[inline(always)]
    fn empty(&self) -> Bitboard<N> {
        self.geo.board()
            & !(self.virus[0]
                | self.virus[1]
                | self.zombie[0]
                | self.zombie[1]
                | self.trench
                | self.obstacle)
    }

    /// Plays a step on cell `i`, which must be in [`Self::legal_cells`].
    #[inline]
    pub fn play_unchecked(&mut self, i: usize) {
        self.step_at::<true>(i);
    }

    /// Like [`Self::play_unchecked`] but leaves the hash stale: for playouts
    /// on a throwaway copy, which call [`Self::rehash`] if they need it after.
    #[inline]
    pub fn play_unhashed(&mut self, i: usize) {
        self.step_at::<false>(i);
    }

    /// Recomputes the hash after unhashed steps.
    pub fn rehash(&mut self) {
        self.hash = self.hash_from_scratch();
    }

    #[inline(always)]
    fn step_at<const HASH: bool>(&mut self, i: usize) {
        let side = self.side;
        let (me, them) = (side.index(), (!side).index());
        let bit = Bitboard::from_index(i);
        // Work on copies and store once at the end: reading a board right
        // after a partial store to it stalls the CPU's store forwarding.
        let their_virus = self.virus[them];
        let trench = self.trench;
        let near = self.geo.near(i);
        // A kill, a trench taken or a new virus: a coin toss in a random
        // game, so applied by masks rather than by branches.
        let killed = (their_virus & bit).any();
        let taken = bit & (their_virus | trench);
        let my_virus = self.virus[me] | (bit ^ taken);
        let my_zombie = self.zombie[me] | taken;
        self.virus[them] = their_virus & !bit;
        self.trench = trench & !bit;
        if HASH {
            self.hash ^= if killed {
                zobrist::virus(!side, i) ^ zobrist::zombie(side, i)
            } else if taken.any() {
                zobrist::trench(i) ^ zobrist::zombie(side, i)
            } else {
                zobrist::virus(side, i)
            };
        }
        // A kill takes the cell out of their live region (no other step can
        // be in it); their zombies next to it may be cut off (`live_now`).
        self.live[them] &= !bit;
        self.cut |= (near & self.zombie[them]).when(killed);
        self.stale[them] |= killed as u8 * stale::REACH;
        self.virus[me] = my_virus;
        self.zombie[me] = my_zombie;
        if self.passes != 0 {
            if HASH {
                self.hash ^= zobrist::field(zobrist::PASSES, self.passes as u64);
            }
            self.passes = 0;
        }
        let first_step = !self.entered[me];
        if first_step {
            self.entered[me] = true;
            if HASH {
                self.hash ^= zobrist::field(zobrist::ENTERED, me as u64);
            }
        }
        if HASH {
            self.hash ^= zobrist::field(zobrist::STEPS_LEFT, self.steps_left as u64);
        }
        self.steps_left -= 1;
        if HASH {
            self.hash ^= zobrist::field(zobrist::STEPS_LEFT, self.steps_left as u64);
        }

        // The mover's live region only grows within its turn: add what the new
        // cell connects (its own dead groups touching it) and their neighbours.
        let own = my_virus | my_zombie;
        let live = self.live[me];
        // Own cells outside the live region, other than the new cell itself.
        let dead_own = own & !(live | bit);
        let takeable = self.geo.board() & !(own | self.zombie[them] | self.obstacle);
        let (live, reach) = if (near & dead_own).is_empty() {
            (live | bit, near & takeable)
        } else {
            let grown = self.geo.flood(bit, dead_own);
            (live | grown, self.geo.dilate(grown) & takeable)
        };
        self.live[me] = live;
        let targets = if first_step {
            reach
        } else {
            (self.targets & !bit) | reach
        };
        self.targets = targets;

        if self.rules.end == EndRule::Pass {
            if killed && self.virus[them].is_empty() && self.entered[them] {
                self.decided = Some(Outcome::Win(side));
            }
            if self.steps_left > 0 && targets.is_empty() && self.decided.is_none() {
                self.end_turn::<HASH>();
                return;
            }
        }
        if self.steps_left == 0 {
            self.end_turn::<HASH>();
        }
    }

    /// Passes the whole turn; [`Self::can_pass`] must hold.
    pub fn pass_unchecked(&mut self) {
        if self.passes != 0 {
            self.hash ^= zobrist::field(zobrist::PASSES, self.passes as u64);
        }
        self.passes += 1;
        self.hash ^= zobrist::field(zobrist::PASSES, self.passes as u64);
        if self.passes >= 2 {
            self.decided = Some(Outcome::Draw);
        }
        self.end_turn::<true>();
    }

    fn end_turn<const HASH: bool>(&mut self) {
        if HASH {
            self.hash ^= zobrist::field(zobrist::STEPS_LEFT, self.steps_left as u64)
                ^ zobrist::field(zobrist::SIDE, 1);
            if self.rules.deathmatch {
                self.hash ^= zobrist::field(zobrist::TURN, self.turn as u64);
            }
        }
        self.saved_targets[self.side.index()] = self.targets;
        self.side = !self.side;
        self.turn += 1;
        self.steps_left = self.rules.steps_in_turn(self.turn);
        if HASH {
            self.hash ^= zobrist::field(zobrist::STEPS_LEFT, self.steps_left as u64);
            if self.rules.deathmatch {
                self.hash ^= zobrist::field(zobrist::TURN, self.turn as u64);
            }
        }
        self.refresh_mover();
    }
}

//! A game between two seats as a referee keeps it: the game, a sequence
//! number (steps played), Fischer clocks (which start once each side has
//! played its first turn), and the endings the board does
//! not decide (resignation, time, agreement, abort). No I/O and no clock of
//! its own: the caller passes the time (milliseconds on any monotonic
//! scale). The terminal's play session and the server both referee with it.

use crate::ending::{EndReason, Ending};
use crate::game::Game;
use crate::side::Side;
use crate::step::{Step, StepError};

/// A time control: Fischer (a base time and an increment after each
/// turn) or, with `per_turn`, correspondence (each turn has the base time,
/// whatever the turns before used).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: u64,
    pub increment_ms: u64,
    pub per_turn: bool,
}

impl TimeControl {
    /// The control as `BASE+INC` (the base in units of `base_unit_ms`, the
    /// increment in seconds) or `Nd/turn` for correspondence.
    pub fn text_in(&self, base_unit_ms: f64) -> String {
        if self.per_turn {
            return format!("{}d/turn", self.base_ms / 86_400_000);
        }
        format!(
            "{}+{}",
            self.base_ms as f64 / base_unit_ms,
            self.increment_ms as f64 / 1000.0
        )
    }

    /// The record's `TimeControl` tag: `300+5` (seconds + seconds).
    pub fn record_tag(&self) -> String {
        self.text_in(1000.0)
    }
}

/// Each side's time left, and when the side to move began its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    pub control: TimeControl,
    /// Time left for X and O at the start of the current turn.
    pub left_ms: [u64; 2],
    /// When the current turn began (the caller's time scale).
    pub turn_started_ms: u64,
}

impl Clocks {
    pub fn new(control: TimeControl, now_ms: u64) -> Clocks {
        Clocks {
            control,
            left_ms: [control.base_ms; 2],
            turn_started_ms: now_ms,
        }
    }

    /// Time `side` has left at `now` (the side to move's runs).
    pub fn left_at(&self, side: Side, to_move: Side, now_ms: u64) -> u64 {
        let left = self.left_ms[side.index()];
        if side == to_move {
            left.saturating_sub(now_ms.saturating_sub(self.turn_started_ms))
        } else {
            left
        }
    }
}

/// Why a referee refuses a request; nothing changes when it does.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefusalError {
    #[error("the game is over: {0}")]
    Over(Ending),
    #[error("it is {to_move}'s turn, not {side}'s")]
    NotYourTurn { side: Side, to_move: Side },
    #[error("the steps were sent for step {sent}, but {now} steps have been played: reload and try again")]
    StaleSeq { sent: u64, now: u64 },
    #[error("no steps were sent")]
    NoSteps,
    #[error("step {number} ({step}): {error}")]
    Illegal {
        number: u64,
        step: Step,
        error: StepError,
    },
    #[error("step {number} ({step}): {side}'s turn ends before this step")]
    PastTurn { number: u64, step: Step, side: Side },
    #[error("a game can be aborted only before both sides have made a step")]
    TooLateToAbort,
    #[error("the game is over: it was aborted")]
    Aborted,
    #[error("this variant's end rule (standard) has no draws: a game ends only with a win")]
    NoDraws,
}

/// The refereed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contest {
    pub game: Game,
    pub clocks: Option<Clocks>,
    /// Longest a side may wait before the first step of its first turn in a
    /// Fischer game, after which the game is called off (`None`: the base
    /// time). An online server sets it short, as lichess aborts a game
    /// whose first move does not come; once the step comes, the rest of
    /// the first turn may take the base time.
    pub first_turn_limit_ms: Option<u64>,
    declared: Option<Ending>,
    aborted: bool,
}

impl Contest {
    pub fn new(game: Game, clocks: Option<Clocks>) -> Contest {
        Contest {
            game,
            clocks,
            first_turn_limit_ms: None,
            declared: None,
            aborted: false,
        }
    }

    /// Steps played so far: the number a client must send with its next steps.
    pub fn seq(&self) -> u64 {
        self.game.steps().len() as u64
    }

    pub fn side_to_move(&self) -> Side {
        self.game.position().side()
    }

    /// How the game ended, if it has (not set for an aborted game).
    pub fn ending(&self) -> Option<Ending> {
        self.declared
            .or_else(|| Ending::of_position(self.game.position()))
    }

    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Whether nothing more can happen in this game.
    pub fn finished(&self) -> bool {
        self.aborted || self.ending().is_some()
    }

    /// Whether anything may still happen: the refusal if the game is over
    /// or aborted.
    pub fn check_open(&self) -> Result<(), RefusalError> {
        match self.ending() {
            Some(e) => Err(RefusalError::Over(e)),
            None if self.aborted => Err(RefusalError::Aborted),
            None => Ok(()),
        }
    }

    /// Whether the clocks run: once each side has played its first turn
    /// (a side's first turn is untimed, as lichess starts the clocks after
    /// the first moves).
    pub fn clocks_started(&self) -> bool {
        self.game.position().turn() > 2
    }

    /// Time `side` has left at `now`: the side to move's clock runs once
    /// the clocks have started, until the game is over.
    pub fn time_left(&self, side: Side, now_ms: u64) -> Option<u64> {
        let k = self.clocks?;
        Some(if self.clocks_started() && !self.finished() {
            k.left_at(side, self.side_to_move(), now_ms)
        } else {
            k.left_ms[side.index()]
        })
    }

    /// When the side to move's time runs out (the caller's time scale): its
    /// clock's end once the clocks have started; before, a first turn may
    /// take the base time (uncharged), and its first step must come within
    /// the first turn's limit if that is shorter (Fischer games only: a
    /// correspondence turn keeps its days).
    pub fn flag_at(&self) -> Option<u64> {
        let k = self.clocks?;
        let allowed = if self.clocks_started() {
            k.left_ms[self.side_to_move().index()]
        } else {
            self.first_step_limit()
                .map_or(k.control.base_ms, |limit| limit.min(k.control.base_ms))
        };
        Some(k.turn_started_ms.saturating_add(allowed))
    }

    /// The first turn's limit, while it applies: in a Fischer game whose
    /// clocks have not started, to a side that has not yet stepped in its
    /// turn.
    fn first_step_limit(&self) -> Option<u64> {
        let k = self.clocks?;
        let mover = self.side_to_move();
        let stepped = self.game.turns().last().is_some_and(|t| t.side == mover);
        if self.clocks_started() || k.control.per_turn || stepped {
            return None;
        }
        self.first_turn_limit_ms
    }

    /// Time left at `now` for the side to move to make the first step of
    /// its first turn before the game is called off, while the first
    /// turn's limit applies (see [`Contest::first_turn_limit_ms`]).
    pub fn first_step_left(&self, now_ms: u64) -> Option<u64> {
        if self.finished() {
            return None;
        }
        self.first_step_limit()?;
        Some(self.flag_at()?.saturating_sub(now_ms))
    }

    /// Ends the game on time if the side to move's clock has run out at
    /// `now`; returns whether it did. A first turn that takes longer than
    /// the base time calls the game off while it may be (else it is lost).
    pub fn check_time(&mut self, now_ms: u64) -> bool {
        let Some(c) = self.clocks else { return false };
        if self.finished() {
            return false;
        }
        let mover = self.side_to_move();
        if !self.clocks_started() {
            if self.flag_at().is_some_and(|at| now_ms < at) {
                return false;
            }
            if self.abortable() {
                self.aborted = true;
            } else {
                self.declared = Ending::loss_of(EndReason::Time(mover));
            }
            return true;
        }
        if c.left_at(mover, mover, now_ms) == 0 {
            self.declared = Ending::loss_of(EndReason::Time(mover));
            return true;
        }
        false
    }

    /// Stops the clocks when the game ends off the board or on it: the time
    /// the side to move used in its turn is charged, so the clocks show
    /// what was left at the end.
    pub fn stop_clocks(&mut self, now_ms: u64) {
        let mover = self.side_to_move();
        if !self.clocks_started() {
            return;
        }
        if let Some(c) = self.clocks.as_mut() {
            c.left_ms[mover.index()] = c.left_at(mover, mover, now_ms);
            c.turn_started_ms = now_ms;
        }
    }

    /// Plays `steps` for `side`, all within its current turn, if `seq` is
    /// the current sequence number; all or nothing.
    pub fn play(
        &mut self,
        side: Side,
        seq: u64,
        steps: &[Step],
        now_ms: u64,
    ) -> Result<(), RefusalError> {
        // Time up (a flag fallen, or a first turn past its base time): the
        // game is over or called off, and says which.
        self.check_time(now_ms);
        self.check_open()?;
        if seq != self.seq() {
            return Err(RefusalError::StaleSeq {
                sent: seq,
                now: self.seq(),
            });
        }
        let to_move = self.side_to_move();
        if side != to_move {
            return Err(RefusalError::NotYourTurn { side, to_move });
        }
        if steps.is_empty() {
            return Err(RefusalError::NoSteps);
        }
        let mut game = self.game.clone();
        let turn = game.position().turn();
        for (k, &step) in steps.iter().enumerate() {
            let number = seq + k as u64 + 1;
            if game.position().turn() != turn || game.outcome().is_some() {
                return Err(RefusalError::PastTurn { number, step, side });
            }
            game.play(step).map_err(|error| RefusalError::Illegal {
                number,
                step,
                error,
            })?;
        }
        if let Some(c) = self.clocks.as_mut() {
            if game.position().turn() != turn {
                let k = side.index();
                let used = now_ms.saturating_sub(c.turn_started_ms);
                // A side's first turn (turns 1 and 2) is not charged.
                c.left_ms[k] = if c.control.per_turn {
                    c.control.base_ms
                } else if turn <= 2 {
                    c.left_ms[k]
                } else {
                    c.left_ms[k].saturating_sub(used) + c.control.increment_ms
                };
                c.turn_started_ms = now_ms;
            }
        }
        self.game = game;
        Ok(())
    }

    /// `side` resigns.
    pub fn resign(&mut self, side: Side) -> Result<(), RefusalError> {
        self.check_open()?;
        self.declared = Ending::loss_of(EndReason::Resignation(side));
        Ok(())
    }

    /// Whether the end rule lets a game end in a draw (two passes under
    /// the pass rule); only then may players agree to one.
    pub fn draws_allowed(&self) -> bool {
        self.game.position().rules().end == crate::rules::EndRule::Pass
    }

    /// Both players agreed to a draw (refused where the end rule has none).
    pub fn agree_draw(&mut self) -> Result<(), RefusalError> {
        self.check_open()?;
        if !self.draws_allowed() {
            return Err(RefusalError::NoDraws);
        }
        self.declared = Ending::loss_of(EndReason::Agreement);
        Ok(())
    }

    /// Whether the game may still be called off: before both sides have
    /// made a step.
    pub fn abortable(&self) -> bool {
        let turns = self.game.turns();
        !(turns.iter().any(|t| t.side == Side::X) && turns.iter().any(|t| t.side == Side::O))
    }

    /// Whether each side has played a whole turn (every step of it): from
    /// then on a rated game's result moves ratings.
    pub fn each_side_played_a_turn(&self) -> bool {
        let now = self.game.position().turn();
        let turns = self.game.turns();
        let whole = |side: Side| turns.iter().any(|t| t.side == side && t.turn != now);
        whole(Side::X) && whole(Side::O)
    }

    /// Calls the game off: allowed before both sides have made a step.
    pub fn abort(&mut self) -> Result<(), RefusalError> {
        self.check_open()?;
        if !self.abortable() {
            return Err(RefusalError::TooLateToAbort);
        }
        self.aborted = true;
        Ok(())
    }

    /// Restores a declared ending or an abort (from storage).
    pub fn restore(&mut self, declared: Option<Ending>, aborted: bool) {
        self.declared = declared;
        self.aborted = aborted;
    }

    /// The declared ending (not the board's), for storage.
    pub fn declared(&self) -> Option<Ending> {
        self.declared
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_steps;
    use crate::variant::Preset;

    fn steps(t: &str) -> Vec<Step> {
        parse_steps(t).unwrap()
    }

    /// A classic game whose clocks start at 0 under this control.
    fn clocked(base_ms: u64, increment_ms: u64, per_turn: bool) -> Contest {
        let control = TimeControl {
            base_ms,
            increment_ms,
            per_turn,
        };
        let game = Game::new(Preset::Classic.variant()).unwrap();
        Contest::new(game, Some(Clocks::new(control, 0)))
    }

    #[test]
    fn refuses_wrong_seat_stale_seq_and_illegal_steps_and_changes_nothing() {
        let mut c = Contest::new(Game::new(Preset::Classic.variant()).unwrap(), None);
        assert_eq!(
            c.play(Side::O, 0, &steps("j10"), 0),
            Err(RefusalError::NotYourTurn {
                side: Side::O,
                to_move: Side::X
            })
        );
        c.play(Side::X, 0, &steps("a1 b2"), 0).unwrap();
        assert_eq!(
            c.play(Side::X, 0, &steps("c3"), 0),
            Err(RefusalError::StaleSeq { sent: 0, now: 2 })
        );
        let e = c.play(Side::X, 2, &steps("c3 d4"), 0).unwrap_err();
        assert_eq!(e.to_string(), "step 4 (d4): X's turn ends before this step");
        let e = c.play(Side::X, 2, &steps("e5"), 0).unwrap_err();
        assert_eq!(e.to_string(), "step 3 (e5): not accessible for X");
        assert_eq!(c.seq(), 2);
        c.play(Side::X, 2, &steps("c3"), 0).unwrap();
        assert_eq!(c.side_to_move(), Side::O);
    }

    #[test]
    fn each_side_has_played_a_turn_only_once_its_last_step_is_in() {
        let mut c = Contest::new(Game::new(Preset::Classic.variant()).unwrap(), None);
        assert!(!c.each_side_played_a_turn());
        c.play(Side::X, 0, &steps("a1 b2 c3"), 0).unwrap();
        c.play(Side::O, 3, &steps("j10"), 0).unwrap();
        // O has stepped (no abort now) but not played its turn.
        assert!(!c.abortable());
        assert!(!c.each_side_played_a_turn());
        c.play(Side::O, 4, &steps("i9"), 0).unwrap();
        assert!(!c.each_side_played_a_turn());
        c.play(Side::O, 5, &steps("h8"), 0).unwrap();
        assert!(c.each_side_played_a_turn());
    }

    /// The ending once the clock is looked at, at `at`, where time is up.
    fn flag_falls(c: &mut Contest, at: u64) -> String {
        assert!(c.check_time(at), "time is up at {at}");
        c.ending().map(|e| e.to_string()).unwrap_or_default()
    }

    /// Both sides' first turns played at `at` (untimed).
    fn first_turns(c: &mut Contest, at: u64) {
        c.play(Side::X, 0, &steps("a1 b2 c3"), at).unwrap();
        c.play(Side::O, 3, &steps("j10 i9 h8"), at).unwrap();
    }

    #[test]
    fn clocks_start_after_the_first_turns_then_run_for_the_mover_and_flag_on_time() {
        let mut c = clocked(1000, 100, false);
        // Each side's first turn is not charged (it may take the base time).
        assert!(!c.clocks_started());
        c.play(Side::X, 0, &steps("a1 b2 c3"), 900).unwrap();
        assert!(!c.check_time(1_800));
        assert_eq!(c.time_left(Side::O, 1_800), Some(1000));
        assert_eq!(c.time_left(Side::X, 1_800), Some(1000));
        c.play(Side::O, 3, &steps("j10 i9 h8"), 1_800).unwrap();
        assert!(c.clocks_started());
        assert_eq!(c.clocks.unwrap().left_ms, [1000, 1000]);
        // From here the mover's clock runs.
        c.play(Side::X, 6, &steps("d4 e5 f6"), 2_200).unwrap();
        let clocks = c.clocks.unwrap();
        assert_eq!(clocks.left_ms, [700, 1000]);
        assert_eq!(clocks.left_at(Side::O, Side::O, 2_700), 500);
        assert_eq!(c.time_left(Side::O, 2_700), Some(500));
        assert!(!c.check_time(3_199));
        assert_eq!(flag_falls(&mut c, 3_200), "X wins (O ran out of time)");
        assert!(matches!(
            c.play(Side::O, 9, &steps("g7"), 3_300),
            Err(RefusalError::Over(_))
        ));
        c.stop_clocks(3_200);
        assert_eq!(
            c.clocks.unwrap().left_ms,
            [700, 0],
            "the flag shows no time left"
        );
    }

    #[test]
    fn a_first_turn_past_the_base_time_calls_the_game_off_or_loses_it() {
        // Nobody stepped: called off, never won or lost.
        let mut c = clocked(1000, 0, false);
        assert_eq!(c.flag_at(), Some(1000));
        assert!(!c.check_time(999));
        assert!(c.check_time(1000));
        assert!(c.aborted());
        // O began its first turn with a step and left: too late to call
        // off, so O loses on time.
        let mut c = clocked(1000, 0, false);
        c.play(Side::X, 0, &steps("a1 b2 c3"), 500).unwrap();
        c.play(Side::O, 3, &steps("j10"), 600).unwrap();
        assert!(!c.abortable());
        assert_eq!(c.flag_at(), Some(1500));
        assert_eq!(flag_falls(&mut c, 1500), "X wins (O ran out of time)");
    }

    #[test]
    fn a_first_step_must_come_within_the_first_turns_limit() {
        let limited = |per_turn: bool| {
            let mut c = clocked(1000, 0, per_turn);
            c.first_turn_limit_ms = Some(300);
            c
        };
        // Nobody came: called off at the limit, not the base time.
        let mut c = limited(false);
        assert_eq!(
            (c.flag_at(), c.first_step_left(100)),
            (Some(300), Some(200))
        );
        assert!(!c.check_time(299));
        assert!(c.check_time(300) && c.aborted());
        // X's first step came in time: the rest of the turn may take the
        // base time; O's first step then has the limit from X's last.
        let mut c = limited(false);
        c.play(Side::X, 0, &steps("a1"), 100).unwrap();
        assert_eq!((c.flag_at(), c.first_step_left(100)), (Some(1000), None));
        c.play(Side::X, 1, &steps("b2 c3"), 900).unwrap();
        assert_eq!(c.flag_at(), Some(1200));
        assert!(c.check_time(1200) && c.aborted(), "O never came");
        // Once the clocks run there is no first turn left to time.
        let mut c = limited(false);
        first_turns(&mut c, 0);
        assert_eq!(c.first_step_left(0), None);
        // A correspondence turn keeps its days.
        let c = limited(true);
        assert_eq!((c.flag_at(), c.first_step_left(0)), (Some(1000), None));
    }

    #[test]
    fn a_resignation_stops_the_clock_with_the_turn_charged() {
        let mut c = clocked(30_000, 0, false);
        first_turns(&mut c, 0);
        c.resign(Side::X).unwrap();
        c.stop_clocks(2_000);
        let clocks = c.clocks.unwrap();
        assert_eq!(clocks.left_ms, [28_000, 30_000], "what was left at the end");
        // In a first turn nothing is charged.
        let mut c = clocked(30_000, 0, false);
        c.resign(Side::X).unwrap();
        c.stop_clocks(2_000);
        assert_eq!(c.clocks.unwrap().left_ms, [30_000, 30_000]);
    }

    #[test]
    fn correspondence_gives_each_turn_the_base_time() {
        let mut c = clocked(1000, 0, true);
        first_turns(&mut c, 0);
        c.play(Side::X, 6, &steps("d4 e5"), 900).unwrap();
        c.play(Side::X, 8, &steps("f6"), 990).unwrap();
        assert_eq!(c.clocks.unwrap().left_ms, [1000, 1000]);
        assert!(!c.check_time(1989));
        assert_eq!(flag_falls(&mut c, 1990), "X wins (O ran out of time)");
    }

    #[test]
    fn resign_draw_and_abort() {
        let mut c = Contest::new(Game::new(Preset::Classic.variant()).unwrap(), None);
        c.play(Side::X, 0, &steps("a1"), 0).unwrap();
        c.abort().unwrap();
        assert!(c.finished() && c.ending().is_none());
        let mut c = Contest::new(Game::new(Preset::Classic.variant()).unwrap(), None);
        c.resign(Side::X).unwrap();
        assert_eq!(c.ending().unwrap().to_string(), "O wins (X resigned)");
        assert!(c.agree_draw().is_err());
        // Classic's standard end rule has no draws; the pass rule has.
        let mut c = Contest::new(Game::new(Preset::Classic.variant()).unwrap(), None);
        assert_eq!(c.agree_draw(), Err(RefusalError::NoDraws));
        assert!(!c.finished());
        let mut c = Contest::new(Game::new(Preset::ClassicPass.variant()).unwrap(), None);
        assert!(c.draws_allowed());
        c.agree_draw().unwrap();
        assert_eq!(c.ending().unwrap().to_string(), "draw (draw agreed)");
    }
}

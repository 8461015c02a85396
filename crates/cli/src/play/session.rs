//! A game being played at this terminal: the table (the seats and the
//! referee's contest, shared with the server), the computer players that
//! sit at it, undo and redo, hints, resigning, saving and loading. The
//! full-screen and the plain front ends both drive this; neither knows a
//! rule.

use std::cell::RefCell;
use std::path::Path;

use virus_wars_ai::{fog, Budget, Player, PlayerSpec, Seat, Sitting, StopFlag, Table};
use virus_wars_rules::contest::{Contest, RefusalError};
use virus_wars_rules::ending::Ending;
use virus_wars_rules::fog::{admitted, Known};
use virus_wars_rules::record::{self, Record};
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{Game, Side, Step};

/// A finished game at this terminal: how it ended (the rules' ending) and
/// after how many turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finished {
    pub ending: Ending,
    /// Turns played.
    pub turns: usize,
}

impl std::fmt::Display for Finished {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} after {} turns", self.ending, self.turns)
    }
}

/// The computer at a seat: the player, when not thinking, and its budget.
pub struct Computer {
    pub player: Option<Box<dyn Player>>,
    pub budget: Budget,
}

/// The game at its table, the same model as the server's ([`Table`]: the
/// seats and the referee's contest); undo, redo, hints and the computer
/// players are the terminal's own.
pub struct Session {
    pub table: Table,
    /// The computer playing each side (None: a person plays it).
    pub computers: [Option<Computer>; 2],
    /// Steps taken back, most recent last, for redo.
    redo: Vec<Step>,
    /// Draws for the computer's searches under fog.
    rng: SplitMix64,
    /// What each side knows of the game under fog, followed step by step
    /// as the screen asks (`shown.rs`), so a redraw replays nothing.
    pub(super) known: RefCell<Option<Known>>,
}

/// The player that gives hints: strong, quick and the same on every machine.
pub fn hint_spec() -> PlayerSpec {
    PlayerSpec::Level(6)
}

impl Session {
    pub fn new(game: Game, seats: [Option<PlayerSpec>; 2]) -> Session {
        let computers = seats.clone().map(|spec| {
            spec.map(|spec| {
                let (player, budget) = spec.build();
                Computer {
                    player: Some(player),
                    budget,
                }
            })
        });
        let seats = seats.map(|spec| spec.map_or(Seat::Human, Seat::Computer));
        Session {
            table: Table::new(Contest::new(game, None), seats),
            computers,
            redo: Vec::new(),
            rng: SplitMix64::new(std::process::id() as u64 ^ 0xF06),
            known: RefCell::new(None),
        }
    }

    /// The game as played so far.
    pub fn game(&self) -> &Game {
        &self.table.contest.game
    }

    /// A new game of the same variant at the same seats.
    pub fn new_game(&mut self) -> Result<(), String> {
        // A fog game's hidden layout is laid out anew: the last was seen.
        let variant = self
            .game()
            .variant()
            .clone()
            .laid_out_anew(crate::play::random_seed());
        let game = Game::new(variant).map_err(|e| e.to_string())?;
        self.table.contest = Contest::new(game, None);
        self.redo.clear();
        Ok(())
    }

    pub fn side_to_move(&self) -> Side {
        self.table.contest.side_to_move()
    }

    /// Whether a person is to step now (and the game goes on).
    pub fn human_to_move(&self) -> bool {
        self.ending().is_none() && !self.table.seat(self.side_to_move()).is_computer()
    }

    /// Who plays `side`, as the move list and records name it.
    pub fn seat_name(&self, side: Side) -> String {
        self.table.seat(side).name()
    }

    /// The end of the game, if it is over.
    pub fn ending(&self) -> Option<Finished> {
        let turns = self.game().turns().len();
        self.table
            .contest
            .ending()
            .map(|ending| Finished { ending, turns })
    }

    /// Plays `steps` for the side to move, all within its current turn; on
    /// any error nothing changes and the message says which step (numbered
    /// from the start of the game, as `replay` does) and why.
    pub fn play(&mut self, steps: &[Step]) -> Result<(), String> {
        let (side, seq) = (self.side_to_move(), self.table.contest.seq());
        // Under fog a turn is judged by what its side saw before its first
        // step, and cut at the game's end, as the server does.
        let steps = match self.game().variant().fog && self.ending().is_none() {
            true => admitted(self.game(), side, steps).map_err(|(k, error)| {
                RefusalError::Illegal {
                    number: seq + k as u64 + 1,
                    step: steps[k],
                    error,
                }
                .to_string()
            })?,
            false => steps,
        };
        self.table
            .play(side, seq, steps, 0)
            .map_err(|e| e.to_string())?;
        self.redo.clear();
        Ok(())
    }

    /// Takes back a step, or a whole turn. Against the computer, taking back
    /// a turn takes back the computer's reply and the person's last turn, so
    /// that the person is to step again.
    pub fn undo(&mut self, whole_turn: bool) -> Result<Vec<Step>, String> {
        if self.game().steps().is_empty() {
            return Err("nothing to undo: no step has been played".into());
        }
        self.table.contest.restore(None, false);
        let mut undone = Vec::new();
        let seats = &self.table.seats;
        let against_computer =
            seats.iter().any(Seat::is_computer) && !seats.iter().all(Seat::is_computer);
        // Against the computer, taking back one of its steps would only make
        // it play again: a step back past the person's own steps is a turn.
        let last_by_computer = self
            .game()
            .turns()
            .last()
            .is_some_and(|t| self.table.seat(t.side).is_computer());
        let whole_turn = whole_turn || (against_computer && last_by_computer);
        if !whole_turn {
            undone.extend(self.table.contest.game.undo_step());
        } else if against_computer {
            // Back to the start of one of the person's turns.
            loop {
                let mut turn = self.table.contest.game.undo_turn();
                turn.append(&mut undone);
                undone = turn;
                let person = !self.table.seat(self.side_to_move()).is_computer();
                if person || self.game().steps().is_empty() {
                    break;
                }
            }
        } else {
            undone = self.table.contest.game.undo_turn();
        }
        self.redo.extend(undone.iter().rev());
        Ok(undone)
    }

    /// Plays again the last step taken back.
    pub fn redo(&mut self) -> Result<Step, String> {
        let step = self.redo.pop().ok_or("nothing to redo")?;
        let kept = std::mem::take(&mut self.redo);
        let result = self.play(&[step]);
        self.redo = kept;
        result.map(|()| step)
    }

    pub fn resign(&mut self) -> Result<(), String> {
        if let Some(end) = self.ending() {
            return Err(format!("the game is over: {end}"));
        }
        let side = self.side_to_move();
        self.table.contest.resign(side).map_err(|e| e.to_string())
    }

    /// The computer to move thinks and plays, blocking (plain mode).
    /// Returns the steps it played.
    pub fn computer_turn(&mut self) -> Result<Vec<Step>, String> {
        let side = self.side_to_move();
        let game = self.game().clone();
        let Some(seat) = self.computers[side.index()].as_mut() else {
            return Err(format!("{side} is played by a person"));
        };
        let player = seat
            .player
            .as_mut()
            .ok_or("the computer is already thinking")?;
        let stop = StopFlag::new();
        let steps = if game.variant().fog {
            // From what its side knows, a step at a time, never the board.
            let rng = &mut self.rng;
            fog::play_turn(&game, &seat.budget, |seen, left| {
                fog::choose_step(player.as_mut(), seen, left, &stop, fog::SAMPLES, rng)
            })
        } else {
            let position = game.position();
            player
                .choose(position, &seat.budget, &stop, &mut |_| {})
                .steps
        };
        self.apply_computer(&steps)?;
        Ok(steps)
    }

    /// A seed for a fog search's draws: new for every turn of every game.
    pub fn fog_seed(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// Plays a computer's turn (from a background search).
    pub fn apply_computer(&mut self, steps: &[Step]) -> Result<(), String> {
        if steps.is_empty() {
            return Err("the computer found no step".into());
        }
        let illegal = |e| format!("the computer played an illegal step: {e}");
        if !self.game().variant().fog {
            return self.play(steps).map_err(illegal);
        }
        // Under fog it chose each step from what the one before showed it:
        // each is judged by its own view, as the server's computer's are.
        for &step in steps {
            self.play(&[step]).map_err(illegal)?;
        }
        Ok(())
    }

    /// A suggestion for the side to move (blocking).
    pub fn hint(&self) -> Result<Vec<Step>, String> {
        if let Some(end) = self.ending() {
            return Err(format!("the game is over: {end}"));
        }
        let (mut player, budget) = hint_spec().build();
        if self.game().variant().fog {
            // A hint knows what the person knows, no more.
            let mut rng = SplitMix64::new(self.game().steps().len() as u64);
            return Ok(fog::play_turn(self.game(), &budget, |seen, left| {
                fog::choose_step(
                    player.as_mut(),
                    seen,
                    left,
                    &StopFlag::new(),
                    fog::SAMPLES,
                    &mut rng,
                )
            }));
        }
        let r = player.choose(
            self.game().position(),
            &budget,
            &StopFlag::new(),
            &mut |_| {},
        );
        Ok(r.steps)
    }

    /// The game as a record, with the players and how it ended.
    pub fn record(&self) -> Record {
        let mut r = self.table.record();
        r.event = "virus-wars play".into();
        r
    }

    pub fn save(&self, path: &Path) -> Result<(), String> {
        std::fs::write(path, self.record().write())
            .map_err(|e| format!("cannot save to {}: {e}", path.display()))
    }

    /// Replaces the game by the one in the record at `path` (seats kept).
    pub fn load(&mut self, path: &Path) -> Result<(), String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let r = record::read_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let declared = r
            .ending()
            .filter(|e| Ending::of_position(r.game.position()) != Some(*e));
        self.table.contest = Contest::new(r.game, None);
        self.table.contest.restore(declared, false);
        self.redo.clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use virus_wars_rules::notation::parse_steps;
    use virus_wars_rules::{Outcome, Preset};

    fn steps(text: &str) -> Vec<Step> {
        parse_steps(text).unwrap()
    }

    /// The ending of a game of `variant` from `position` after `moves`.
    fn ending_after(position: &str, moves: &str) -> String {
        let p = virus_wars_rules::position_string::read(position).unwrap();
        let game = Game::from_position(virus_wars_rules::Variant::of_position(&p), p).unwrap();
        let mut s = Session::new(game, [None, None]);
        for step in steps(moves) {
            s.play(&[step]).unwrap();
        }
        s.ending().map_or("not over".into(), |e| e.to_string())
    }

    #[test]
    fn every_ending_names_the_side_it_is_about() {
        // Pass rule: X kills O's last virus in the middle of its own turn.
        assert_eq!(
            ending_after("4x4 classic-pass,start=corners 4/4/1O2/X3 x 3 1 XO 0", "b2"),
            "X wins (O has no live virus left) after 1 turns"
        );
        // Standard rule: O to step with no legal step.
        assert_eq!(
            ending_after("3x3 classic 3/3/3 x 3 1 - 0", "a1 b2 c3"),
            "X wins (O has no legal step) after 1 turns"
        );
        // Two passes.
        assert_eq!(
            ending_after("4x4 classic-pass 4/4/4/4 x 3 1 - 0", "pass pass"),
            "draw (both passed) after 2 turns"
        );
        // Resignation, and a time forfeit read from a record.
        let mut s = Session::new(Game::new(Preset::Classic.variant()).unwrap(), [None, None]);
        s.play(&steps("a1-b2-c3")).unwrap();
        s.resign().unwrap();
        assert_eq!(
            s.ending().unwrap().to_string(),
            "X wins (O resigned) after 1 turns"
        );
        let dir = std::env::temp_dir().join(format!("vw-ending-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("time.vwr");
        let lost_on_time = "[Result \"0-1\"]\n[Termination \"time forfeit\"]\n\n1. a1-b2-c3\n0-1\n";
        std::fs::write(&file, lost_on_time).unwrap();
        s.load(&file).unwrap();
        assert_eq!(
            s.ending().unwrap().to_string(),
            "O wins (X ran out of time) after 1 turns"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_illegal_step_changes_nothing_and_says_why() {
        let mut s = Session::new(Game::new(Preset::Classic.variant()).unwrap(), [None, None]);
        assert_eq!(
            s.play(&steps("e5")),
            Err(
                "step 1 (e5): not accessible for X: X has not entered yet, so its first step must be on a1"
                    .into()
            )
        );
        assert_eq!(
            s.play(&steps("k11")),
            Err("step 1 (k11): k11 is off the 10x10 board".into())
        );
        assert_eq!(s.game().steps().len(), 0);
        s.play(&steps("a1")).unwrap();
        let e = s.play(&steps("a2-b2-b1")).unwrap_err();
        // Steps are numbered from the start of the game, as replay and the
        // server number them.
        assert_eq!(e, "step 4 (b1): X's turn ends before this step");
        assert_eq!(
            s.game().steps().len(),
            1,
            "a bad turn plays none of its steps"
        );
    }

    #[test]
    fn undo_against_the_computer_gives_the_person_the_move_again() {
        let game = Game::new(Preset::Classic.variant()).unwrap();
        let mut s = Session::new(game, [None, Some(PlayerSpec::Random { seed: 2 })]);
        s.play(&steps("a1-a2-b2")).unwrap();
        s.computer_turn().unwrap();
        s.play(&steps("b1-c1-c2")).unwrap();
        s.computer_turn().unwrap();
        assert_eq!(s.side_to_move(), Side::X);
        let undone = s.undo(true).unwrap();
        assert_eq!(
            undone.len(),
            6,
            "the reply and the person's turn: {undone:?}"
        );
        assert_eq!(s.side_to_move(), Side::X);
        assert_eq!(s.game().steps().len(), 6);
        assert_eq!(s.redo(), Ok(undone[0]));
        assert_eq!(s.game().steps().len(), 7);
        s.undo(false).unwrap();
        assert_eq!(s.game().steps().len(), 6, "one step of the person's turn");
        s.play(&steps("b1-c1-c2")).unwrap();
        s.computer_turn().unwrap();
        let undone = s.undo(false).unwrap();
        assert_eq!(
            undone.len(),
            6,
            "a step back past the computer is a whole turn"
        );
        assert_eq!(s.side_to_move(), Side::X);
    }

    #[test]
    fn resigning_ends_the_game_and_is_saved_and_loaded() {
        let mut s = Session::new(Game::new(Preset::Classic.variant()).unwrap(), [None, None]);
        s.play(&steps("a1-a2-b2")).unwrap();
        s.play(&steps("j10-i9-h8")).unwrap();
        s.resign().unwrap();
        let end = s.ending().unwrap();
        assert_eq!(end.ending.outcome, Outcome::Win(Side::O));
        assert_eq!(end.to_string(), "O wins (X resigned) after 2 turns");
        let dir = std::env::temp_dir().join(format!("vw-session-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("g.vwr");
        s.save(&file).unwrap();
        let mut t = Session::new(Game::new(Preset::Gcr.variant()).unwrap(), [None, None]);
        t.load(&file).unwrap();
        assert_eq!(t.game().steps(), s.game().steps());
        assert_eq!(t.ending(), s.ending());
        assert!(t
            .load(&dir.join("missing.vwr"))
            .unwrap_err()
            .starts_with("cannot read"));
        std::fs::write(dir.join("bad.vwr"), "[X \"a\"\n").unwrap();
        assert!(t.load(&dir.join("bad.vwr")).unwrap_err().contains("line 1"));
        std::fs::remove_dir_all(&dir).ok();
    }
}

//! A game in progress between two seats, as both front ends keep it: who
//! sits on each side, the referee's contest (the game, its clocks and the
//! endings the board does not decide) and a standing draw offer. The
//! terminal adds undo and hints on top; the server adds its own kinds of
//! seat (bots), storage, rematches and sockets. No I/O: the caller passes
//! the time.

use virus_wars_rules::contest::{Contest, RefusalError};
use virus_wars_rules::record::Record;
use virus_wars_rules::{Side, Step};

use crate::spec::PlayerSpec;

/// What a table needs of whoever sits on a side: whether the computer
/// plays it, and its name in records.
pub trait Sitting: Clone {
    fn is_computer(&self) -> bool;
    /// The seat as records name it.
    fn name(&self) -> String;
}

/// Who sits on a side: a person, or the computer.
// A table holds two: the spec is kept in place, not boxed.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Seat {
    Human,
    /// The computer, playing with this spec.
    Computer(PlayerSpec),
}

impl Sitting for Seat {
    fn is_computer(&self) -> bool {
        matches!(self, Seat::Computer(_))
    }

    /// `human`, or the computer's spec.
    fn name(&self) -> String {
        match self {
            Seat::Human => "human".into(),
            Seat::Computer(spec) => spec.to_string(),
        }
    }
}

/// The game at a table.
#[derive(Clone, Debug, PartialEq)]
pub struct Table<S = Seat> {
    pub contest: Contest,
    /// X's seat, then O's.
    pub seats: [S; 2],
    /// The side whose draw offer stands.
    pub draw_offer: Option<Side>,
}

impl<S: Sitting> Table<S> {
    pub fn new(contest: Contest, seats: [S; 2]) -> Table<S> {
        Table {
            contest,
            seats,
            draw_offer: None,
        }
    }

    pub fn seat(&self, side: Side) -> &S {
        &self.seats[side.index()]
    }

    /// Whether the computer is to move in a game still being played.
    pub fn computer_to_move(&self) -> bool {
        !self.contest.finished() && self.seat(self.contest.side_to_move()).is_computer()
    }

    /// Plays `steps` for `side` (see [`Contest::play`]); playing on
    /// declines the other side's draw offer.
    pub fn play(
        &mut self,
        side: Side,
        seq: u64,
        steps: &[Step],
        now_ms: u64,
    ) -> Result<(), RefusalError> {
        self.contest.play(side, seq, steps, now_ms)?;
        if self.draw_offer == Some(!side) {
            self.draw_offer = None;
        }
        Ok(())
    }

    /// `side` offers a draw, or accepts the other side's standing offer.
    pub fn offer_draw(&mut self, side: Side) -> Result<(), RefusalError> {
        if self.draw_offer == Some(!side) {
            self.contest.agree_draw()?;
            self.draw_offer = None;
            return Ok(());
        }
        self.contest.check_open()?;
        if !self.contest.draws_allowed() {
            return Err(RefusalError::NoDraws);
        }
        self.draw_offer = Some(side);
        Ok(())
    }

    /// The game as a record: its moves, who sat where, how it ended.
    pub fn record(&self) -> Record {
        let mut r = Record::new(self.contest.game.clone());
        r.x_player = self.seat(Side::X).name();
        r.o_player = self.seat(Side::O).name();
        if let Some(e) = self.contest.declared() {
            r.declare(e);
        }
        r
    }

    /// The move list: one line a turn, `12. O e5-e6-f6`.
    pub fn move_list(&self) -> Vec<String> {
        self.contest
            .game
            .turns()
            .iter()
            .enumerate()
            .map(|(k, t)| format!("{:>3}. {t}", k + 1))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use virus_wars_rules::notation::parse_steps;
    use virus_wars_rules::{Game, Preset};

    fn table(preset: Preset) -> Table {
        let game = Game::new(preset.variant()).unwrap();
        Table::new(
            Contest::new(game, None),
            [Seat::Human, Seat::Computer(PlayerSpec::Level(3))],
        )
    }

    #[test]
    fn a_draw_offer_stands_until_accepted_or_played_past() {
        let mut t = table(Preset::ClassicPass);
        t.offer_draw(Side::X).unwrap();
        assert_eq!(t.draw_offer, Some(Side::X));
        // O plays on: the offer is declined.
        t.play(Side::X, 0, &parse_steps("a1-a2-b2").unwrap(), 0)
            .unwrap();
        assert_eq!(t.draw_offer, Some(Side::X), "X's own turn keeps it");
        t.play(Side::O, 3, &parse_steps("j10-i10-i9").unwrap(), 0)
            .unwrap();
        assert_eq!(t.draw_offer, None);
        t.offer_draw(Side::X).unwrap();
        t.offer_draw(Side::O).unwrap();
        assert!(t.contest.finished());
        assert_eq!(t.draw_offer, None);
        assert!(matches!(t.offer_draw(Side::X), Err(RefusalError::Over(_))));
    }

    #[test]
    fn standard_games_have_no_draws_and_the_computer_seat_is_known() {
        let mut t = table(Preset::Classic);
        assert_eq!(t.offer_draw(Side::X), Err(RefusalError::NoDraws));
        assert!(!t.computer_to_move());
        t.play(Side::X, 0, &parse_steps("a1-a2-b2").unwrap(), 0)
            .unwrap();
        assert!(t.computer_to_move());
        assert_eq!(t.record().o_player, "level:3");
    }
}

//! Who sits on a side of a server's game: a person, a registered bot, or
//! the computer. The terminal knows only people and the computer
//! (`virus_wars_ai::Seat`); bots, which play over this server's API with
//! their tokens, are the server's own.

use virus_wars_ai::{PlayerSpec, Sitting};

/// Who sits on a side.
#[derive(Clone, Debug, PartialEq)]
pub enum Seat {
    /// A person (until one takes the seat: nobody yet).
    Human,
    /// A registered bot, playing over the API with its token.
    Bot(String),
    /// The computer, playing with this spec.
    Computer(PlayerSpec),
}

/// A game at the server: the table with the server's seats.
pub type Table = virus_wars_ai::Table<Seat>;

impl Seat {
    /// Reads a seat as [`Sitting::name`] writes it: `human`, `bot:NAME`, or
    /// a player spec (files are not read: a spec naming one is refused).
    pub fn parse(text: &str) -> Result<Seat, String> {
        if text == "human" {
            return Ok(Seat::Human);
        }
        if let Some(name) = text.strip_prefix("bot:") {
            return Ok(Seat::Bot(name.to_string()));
        }
        PlayerSpec::parse_without_files(text)
            .map(Seat::Computer)
            .map_err(|e| e.to_string())
    }
}

impl Sitting for Seat {
    fn is_computer(&self) -> bool {
        matches!(self, Seat::Computer(_))
    }

    /// As records and storage name it.
    fn name(&self) -> String {
        match self {
            Seat::Human => "human".into(),
            Seat::Bot(name) => format!("bot:{name}"),
            Seat::Computer(spec) => spec.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_read_back_what_they_write() {
        for seat in [
            Seat::Human,
            Seat::Bot("ada".into()),
            Seat::Computer(PlayerSpec::Level(9)),
        ] {
            assert_eq!(Seat::parse(&seat.name()), Ok(seat));
        }
        assert!(Seat::parse("nonsense:1").is_err());
    }
}

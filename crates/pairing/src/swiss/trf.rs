//! A Swiss tournament as a FIDE Tournament Report File (TRF16), the text
//! every pairing program reads: one `001` line a player in pairing-number
//! order with its rounds, so anyone can pair the rounds again and compare.

use super::Colour;

/// What a player had in one round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A game: the opponent's pairing number, the colour, the result
    /// (`None` while it is played).
    Game {
        opponent: u32,
        colour: Colour,
        result: Option<Result>,
    },
    /// The pairing-allocated bye (a point).
    Bye,
    /// Not in the tournament that round (joined later, or withdrew).
    Absent,
}

/// A game's result for one player; the forfeits are games not begun (the
/// loser made no first step in time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result {
    Won,
    Drawn,
    Lost,
    WonByForfeit,
    LostByForfeit,
}

/// One player's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub tpn: u32,
    pub name: String,
    pub rating: u32,
    /// Points in halves.
    pub points: u32,
    pub rank: u32,
    pub rounds: Vec<Entry>,
}

/// The tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    pub name: String,
    /// YYYY/MM/DD.
    pub start: String,
    pub end: String,
    pub rounds: u32,
    pub clock: String,
    pub initial: Colour,
    /// In pairing-number order.
    pub players: Vec<Player>,
}

/// Up to `width` characters of `s`, control characters as spaces.
fn field(s: &str, width: usize) -> String {
    let clean: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(width)
        .collect();
    format!("{clean:<width$}")
}

/// The file's text.
pub fn write(t: &Tournament) -> String {
    let mut out = String::new();
    let mut line = |code: &str, value: &str| {
        out.push_str(code);
        out.push(' ');
        out.push_str(value.trim_end());
        out.push('\n');
    };
    line("012", &field(&t.name, 80));
    line("042", &t.start);
    line("052", &t.end);
    line("062", &t.players.len().to_string());
    line("092", "Individual: Swiss-System (FIDE Dutch)");
    line("122", &t.clock);
    line("XXR", &t.rounds.to_string());
    line(
        "XXC",
        if t.initial == Colour::White {
            "white1"
        } else {
            "black1"
        },
    );
    for p in &t.players {
        let points = format!("{}.{}", p.points / 2, if p.points % 2 == 1 { 5 } else { 0 });
        let mut s = format!(
            "001 {:>4}      {} {:>4}                            {:>4} {:>4}  ",
            p.tpn,
            field(&p.name, 33),
            p.rating.min(9999),
            points,
            p.rank
        );
        for e in &p.rounds {
            s.push_str(&match e {
                Entry::Game {
                    opponent,
                    colour,
                    result,
                } => {
                    let c = if *colour == Colour::White { 'w' } else { 'b' };
                    let r = match result {
                        None => ' ',
                        Some(Result::Won) => '1',
                        Some(Result::Drawn) => '=',
                        Some(Result::Lost) => '0',
                        Some(Result::WonByForfeit) => '+',
                        Some(Result::LostByForfeit) => '-',
                    };
                    format!("{opponent:>4} {c} {r}  ")
                }
                Entry::Bye => "0000 - U  ".to_string(),
                Entry::Absent => "0000 - Z  ".to_string(),
            });
        }
        out.push_str(s.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_trf16s() {
        let t = Tournament {
            name: "Friday\nSwiss".into(),
            start: "2026/11/27".into(),
            end: "2026/11/27".into(),
            rounds: 3,
            clock: "5+3".into(),
            initial: Colour::White,
            players: vec![Player {
                tpn: 1,
                name: "Ann".into(),
                rating: 1712,
                points: 3,
                rank: 2,
                rounds: vec![
                    Entry::Game {
                        opponent: 4,
                        colour: Colour::White,
                        result: Some(Result::Won),
                    },
                    Entry::Bye,
                    Entry::Game {
                        opponent: 12,
                        colour: Colour::Black,
                        result: None,
                    },
                ],
            }],
        };
        let text = write(&t);
        let line = text
            .lines()
            .find(|l| l.starts_with("001"))
            .unwrap_or_default();
        let col = |from: usize, to: usize| line.get(from - 1..to).unwrap_or_default();
        assert_eq!(col(5, 8), "   1");
        assert_eq!(col(15, 47).trim_end(), "Ann");
        assert_eq!(col(49, 52), "1712");
        assert_eq!(col(81, 84), " 1.5");
        assert_eq!(col(86, 89), "   2");
        assert_eq!(col(92, 99), "   4 w 1");
        assert_eq!(col(102, 109), "0000 - U");
        assert_eq!(line.get(111..).unwrap_or_default(), "  12 b");
        assert!(text.starts_with("012 Friday Swiss\n"), "{text}");
        assert!(text.contains("\nXXR 3\n"));
    }
}

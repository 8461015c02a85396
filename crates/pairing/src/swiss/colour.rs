//! Colours in a Swiss round (FIDE C.04.3 A.6 and E): each player's
//! preference from the colours of the games it played, and which of two
//! paired players takes white (X, who moves first) and which black (O).

use super::Entrant;

/// White is X (the first to move), black is O.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// How much a player wants its colour (A.6), weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    /// No game played yet.
    None,
    /// Colour difference 0: the other colour than in its last game.
    Mild,
    /// Colour difference +1 or -1.
    Strong,
    /// Colour difference beyond ±1, or the same colour in its last two
    /// games.
    Absolute,
}

/// A player's colour preference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preference {
    pub colour: Option<Colour>,
    pub strength: Strength,
}

/// Whites less blacks in the games a player played.
pub fn difference(colours: &[Colour]) -> i32 {
    colours
        .iter()
        .map(|c| if *c == Colour::White { 1 } else { -1 })
        .sum()
}

/// The preference A.6 gives a player who played `colours`.
pub fn preference(colours: &[Colour]) -> Preference {
    let Some(&last) = colours.last() else {
        return Preference {
            colour: None,
            strength: Strength::None,
        };
    };
    let cd = difference(colours);
    let two_alike = colours.len() >= 2 && colours[colours.len() - 2] == last;
    let (colour, strength) = if two_alike {
        (last.other(), Strength::Absolute)
    } else if cd > 1 {
        (Colour::Black, Strength::Absolute)
    } else if cd < -1 {
        (Colour::White, Strength::Absolute)
    } else if cd == 1 {
        (Colour::Black, Strength::Strong)
    } else if cd == -1 {
        (Colour::White, Strength::Strong)
    } else {
        (last.other(), Strength::Mild)
    };
    Preference {
        colour: Some(colour),
        strength,
    }
}

/// Who of `a` and `b` takes white, by E.1–E.5: `a` ranks above `b`
/// (A.2: score, then pairing number); `initial` is the colour the first
/// pairing number was given in the first round.
pub fn allocate(a: &Entrant, b: &Entrant, initial: Colour) -> (u32, u32) {
    let white_is = |w: &Entrant, other: &Entrant| (w.tpn, other.tpn);
    let (pa, pb) = (preference(&a.colours), preference(&b.colours));
    // E.1: both preferences granted.
    if let (Some(ca), Some(cb)) = (pa.colour, pb.colour) {
        if ca != cb {
            return if ca == Colour::White {
                white_is(a, b)
            } else {
                white_is(b, a)
            };
        }
    }
    // E.2: the stronger preference; two absolute ones, the wider colour
    // difference.
    let grant = |who: &Entrant, pref: Preference, other: &Entrant| match pref.colour {
        Some(Colour::White) => Some(white_is(who, other)),
        Some(Colour::Black) => Some(white_is(other, who)),
        None => None,
    };
    if pa.strength != pb.strength {
        let granted = if pa.strength > pb.strength {
            grant(a, pa, b)
        } else {
            grant(b, pb, a)
        };
        if let Some(granted) = granted {
            return granted;
        }
    } else if pa.strength == Strength::Absolute {
        let (da, db) = (difference(&a.colours).abs(), difference(&b.colours).abs());
        if da != db {
            let granted = if da > db {
                grant(a, pa, b)
            } else {
                grant(b, pb, a)
            };
            if let Some(granted) = granted {
                return granted;
            }
        }
    }
    // E.3: alternate to the latest game in which they had different
    // colours (played games only, counted back from the last).
    for (ca, cb) in a.colours.iter().rev().zip(b.colours.iter().rev()) {
        if ca != cb {
            return if *ca == Colour::White {
                white_is(b, a)
            } else {
                white_is(a, b)
            };
        }
    }
    // E.4: the higher ranked player's preference.
    if let Some(granted) = grant(a, pa, b) {
        return granted;
    }
    // E.5: an odd pairing number takes the initial colour.
    let a_colour = if a.tpn % 2 == 1 {
        initial
    } else {
        initial.other()
    };
    if a_colour == Colour::White {
        white_is(a, b)
    } else {
        white_is(b, a)
    }
}

#[cfg(test)]
mod tests {
    use super::Colour::{Black as B, White as W};
    use super::*;

    fn entrant(tpn: u32, colours: &[Colour]) -> Entrant {
        Entrant {
            tpn,
            score: 0,
            colours: colours.to_vec(),
            floats: Vec::new(),
            opponents: Vec::new(),
            may_bye: true,
            unplayed: 0,
        }
    }

    #[test]
    fn preferences_follow_a6() {
        assert_eq!(preference(&[]).strength, Strength::None);
        assert_eq!(
            preference(&[W]),
            Preference {
                colour: Some(B),
                strength: Strength::Strong
            }
        );
        assert_eq!(
            preference(&[W, B]),
            Preference {
                colour: Some(W),
                strength: Strength::Mild
            }
        );
        assert_eq!(
            preference(&[B, W, W]),
            Preference {
                colour: Some(B),
                strength: Strength::Absolute
            }
        );
        assert_eq!(
            preference(&[W, B, W]),
            Preference {
                colour: Some(B),
                strength: Strength::Strong
            }
        );
        assert_eq!(preference(&[B, W, B, B, W]).colour, Some(W));
    }

    #[test]
    fn allocation_follows_e1_to_e5() {
        // E.5 in the first round: an odd pairing number takes the initial
        // colour, an even one the other.
        assert_eq!(allocate(&entrant(1, &[]), &entrant(5, &[]), W), (1, 5));
        assert_eq!(allocate(&entrant(2, &[]), &entrant(6, &[]), W), (6, 2));
        // E.1: both granted.
        assert_eq!(allocate(&entrant(1, &[W]), &entrant(2, &[B]), W), (2, 1));
        // E.2: the stronger preference (absolute over strong).
        assert_eq!(
            allocate(&entrant(1, &[W, B, B]), &entrant(2, &[B]), W),
            (1, 2)
        );
        // E.3: both mildly want white; they last differed when 1 had
        // white, so 2 has it now (E.4 would have given it to 1).
        assert_eq!(
            allocate(&entrant(1, &[B, W, W, B]), &entrant(2, &[W, B, W, B]), W),
            (2, 1)
        );
        // E.4: the same history: the higher ranked player's preference.
        assert_eq!(allocate(&entrant(3, &[W]), &entrant(4, &[W]), W), (4, 3));
    }
}

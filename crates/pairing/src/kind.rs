//! The kinds of tournament and the states one goes through, as the API
//! and the database write them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `ALL`, `as_str`, `Display` and `FromStr` (with error `$unknown`) of an
/// enum written as the given words.
macro_rules! written {
    ($ty:ident, $unknown:ident, [$($variant:ident => $word:literal),+ $(,)?]) => {
        impl $ty {
            pub const ALL: [$ty; [$($word),+].len()] = [$($ty::$variant),+];

            /// As written (in the API and the database).
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $word),+
                }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $ty {
            type Err = $unknown;

            fn from_str(s: &str) -> Result<$ty, $unknown> {
                $ty::ALL
                    .into_iter()
                    .find(|k| k.as_str() == s)
                    .ok_or_else(|| $unknown(s.chars().take(40).collect()))
            }
        }
    };
}

/// A kind of tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Paired again as soon as a player is free, for a set number of
    /// minutes; points with streaks and berserk.
    Arena,
    /// Rounds paired by the FIDE Dutch system.
    Swiss,
    /// Everyone plays everyone else twice, all games at once.
    RoundRobin,
}

written!(Kind, UnknownKind, [Arena => "arena", Swiss => "swiss", RoundRobin => "round-robin"]);

impl Kind {
    /// As a tournament's made-up name says it: `arena`, `Swiss`,
    /// `round robin`.
    pub fn in_words(self) -> &'static str {
        match self {
            Kind::Arena => "arena",
            Kind::Swiss => "Swiss",
            Kind::RoundRobin => "round robin",
        }
    }
}

/// A kind that is none of `arena`, `swiss`, `round-robin`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("kind is arena, swiss or round-robin, not '{0}'")]
pub struct UnknownKind(pub String);

/// Where a tournament is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum State {
    /// Made, taking players, not begun.
    Soon,
    /// Being paired and played.
    Running,
    /// Over: its places are written.
    Finished,
}

written!(State, UnknownState, [Soon => "soon", Running => "running", Finished => "finished"]);

/// A state that is none of `soon`, `running`, `finished`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a tournament's state is soon, running or finished, not '{0}'")]
pub struct UnknownState(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_states_read_back_as_written_in_text_and_json() {
        for k in Kind::ALL {
            assert_eq!(k.as_str().parse::<Kind>(), Ok(k));
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{}\"", k.as_str()));
            assert_eq!(serde_json::from_str::<Kind>(&json).unwrap(), k);
        }
        for k in State::ALL {
            assert_eq!(k.as_str().parse::<State>(), Ok(k));
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{}\"", k.as_str()));
        }
        assert_eq!(
            "Swiss".parse::<Kind>().unwrap_err().to_string(),
            "kind is arena, swiss or round-robin, not 'Swiss'"
        );
    }
}

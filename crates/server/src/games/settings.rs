//! The settings of a new game (`POST /api/games`, quick play, analysis and
//! replay requests), checked: the variant from a preset and options, the
//! opponent, the side, the clock; and the layout a fog game keeps secret.

use crate::seat::Seat;
use serde_json::Value;
use virus_wars_ai::PlayerSpec;
use virus_wars_rules::contest::TimeControl;
use virus_wars_rules::{Preset, Side, Variant, VariantOptions};

use crate::view::{ClockRequest, NewGame};

/// Why a new game's settings are refused: what was wrong, and where
/// (`clock.base_s must be from 1 to 604800, not 0`). The API answers it
/// `400 malformed`; a tournament's pairing task reports it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SettingsError(pub String);

impl SettingsError {
    fn new(message: impl Into<String>) -> Self {
        SettingsError(message.into())
    }
}

/// Longest base time (a week), increment (a day) and correspondence turn
/// (30 days) a clock may have.
const MAX_BASE_S: f64 = 7.0 * 86_400.0;
const MAX_INC_S: f64 = 86_400.0;
const MAX_DAYS: f64 = 30.0;

fn text_of(key: &str, v: &Value) -> Result<String, SettingsError> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(if *b { "yes" } else { "no" }.to_string()),
        _ => Err(SettingsError::new(format!(
            "{key} must be a string, a number or true/false"
        ))),
    }
}

/// The time control a request asks for.
pub fn time_control(c: &ClockRequest) -> Result<TimeControl, SettingsError> {
    let in_range = |key: &str, v: f64, min: f64, max: f64| -> Result<u64, SettingsError> {
        if !(min..=max).contains(&v) {
            // Very large or small numbers are shown short: 1e-300, not 300 digits.
            let shown = if v == 0.0 || (1e-6..1e15).contains(&v.abs()) {
                format!("{v}")
            } else {
                format!("{v:e}")
            };
            return Err(SettingsError::new(format!(
                "clock.{key} must be from {min} to {max}, not {shown}"
            )));
        }
        Ok((v * 1000.0).round() as u64)
    };
    match (c.base_s, c.inc_s, c.days_per_turn) {
        (None, None, Some(days)) => Ok(TimeControl {
            base_ms: in_range("days_per_turn", days as f64, 1.0, MAX_DAYS)? * 86_400,
            increment_ms: 0,
            per_turn: true,
        }),
        (Some(base), inc, None) => Ok(TimeControl {
            base_ms: in_range("base_s", base, 1.0, MAX_BASE_S)?,
            increment_ms: in_range("inc_s", inc.unwrap_or(0.0), 0.0, MAX_INC_S)?,
            per_turn: false,
        }),
        _ => Err(SettingsError::new(
            "clock is null, Fischer {\"base_s\":300,\"inc_s\":5} or correspondence {\"days_per_turn\":3}",
        )),
    }
}

/// The settings of a new game, checked.
#[derive(Clone)]
pub struct Settings {
    pub variant: Variant,
    pub opponent: Seat,
    pub side: Option<Side>,
    pub clock: Option<TimeControl>,
    pub listed: bool,
    /// The name the creator chose ('' for none).
    pub name: String,
    /// The result moves both players' ratings.
    pub rated: bool,
    /// Quick play's seeker who lists it ('' for a game made otherwise).
    pub seeker: String,
}

pub fn settings(request: &NewGame) -> Result<Settings, SettingsError> {
    let mut options = VariantOptions::default();
    if let Some(name) = &request.variant {
        if name != "custom" {
            options.preset = Some(
                name.parse::<Preset>()
                    .map_err(|e| SettingsError::new(e.to_string()))?,
            );
        }
    }
    for (key, value) in &request.options {
        options
            .set(key, &text_of(key, value)?)
            .map_err(SettingsError::new)?;
    }
    let mut variant = options
        .build()
        .map_err(|e| SettingsError::new(e.to_string()))?;
    if variant.hides_layout() {
        if options.seed.is_some() {
            return Err(SettingsError::new(
                "seed: a fog game's trenches and random bases are laid out from a seed the server draws and nobody sees (else their layout would be known): leave seed out",
            ));
        }
        variant = laid_out_anew(variant);
    }
    let opponent = match &request.opponent {
        None => Seat::Human,
        Some(text) => opponent(text).map_err(SettingsError::new)?,
    };

    let side = match request.side.as_deref() {
        Some("x") => Some(Side::X),
        Some("o") => Some(Side::O),
        Some("random") | None => None,
        Some(other) => {
            return Err(SettingsError::new(format!(
                "side is x, o or random, not '{other}'"
            )))
        }
    };
    let clock = request.clock.as_ref().map(time_control).transpose()?;
    Ok(Settings {
        variant,
        opponent,
        side,
        clock,
        listed: request.listed.unwrap_or(false),
        name: crate::names::chosen_name(request.name.as_deref())
            .map_err(|e| SettingsError(e.to_string()))?,
        rated: request.rated.unwrap_or(false),
        seeker: String::new(),
    })
}

/// The opponent a new game asks for: a person (`human`), the computer at a
/// level (`level:1` to `level:9`), or a registered bot (`bot:NAME`).
fn opponent(text: &str) -> Result<Seat, String> {
    match Seat::parse(text) {
        Ok(seat @ (Seat::Human | Seat::Bot(_) | Seat::Computer(PlayerSpec::Level(_)))) => Ok(seat),
        Ok(Seat::Computer(_)) => Err(format!(
            "opponent '{text}': play a person ('human') or the computer ('level:1' to 'level:9')"
        )),
        Err(e) => Err(format!("opponent: {e}")),
    }
}

/// `v` with a seed nobody knows, where its layout must stay hidden (a
/// rematch lays its board out anew too).
pub fn laid_out_anew(v: Variant) -> Variant {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).expect("the operating system's random generator works");
    v.laid_out_anew(u64::from_le_bytes(b))
}

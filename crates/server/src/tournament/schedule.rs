//! `serve --tournaments SCHEDULE`: tournaments the server makes ahead, so
//! that the home page always shows the next one. A schedule is lines
//! split by `;`, each
//!
//! ```text
//! EVERY arena PRESET BASE+INC MINUTESm [casual] [nobots] [at HH:MM]
//! EVERY swiss PRESET BASE+INC ROUNDSr [casual] [nobots] [at HH:MM]
//! ```
//!
//! where EVERY is `hourly`, `daily` or `every N`(`m`|`h`) (a divisor of a
//! day, counted from midnight UTC), e.g. `hourly arena classic 3+2 45m;
//! daily arena paper-tactics 5+3 90m at 18:00`. Slots start at the top of
//! each period, moved by `at` (hourly: `at :30` starts at half past).

use std::str::FromStr;

use virus_wars_pairing::Kind;
use virus_wars_rules::Preset;

const MINUTE_MS: i64 = 60_000;
const DAY_MS: i64 = 86_400_000;

/// One line of a schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct Scheduled {
    /// The line as written (its slots are stored under it).
    pub line: String,
    pub every_ms: i64,
    /// After the top of each period.
    pub offset_ms: i64,
    pub name: String,
    /// The games' options, as `POST /api/games` takes them (JSON).
    pub settings: String,
    /// An arena or a Swiss.
    pub kind: Kind,
    /// An arena's minutes (0 for a Swiss).
    pub minutes: i64,
    /// A Swiss tournament's rounds (0 for an arena).
    pub rounds: i64,
    pub bots: bool,
}

/// A whole schedule, as `serve --tournaments` reads it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schedule(pub Vec<Scheduled>);

impl FromStr for Schedule {
    type Err = ScheduleError;
    fn from_str(text: &str) -> Result<Schedule, ScheduleError> {
        parse(text).map(Schedule)
    }
}

/// A schedule that cannot be read: which line, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--tournaments, line {line} ('{text}'): {why}")]
pub struct ScheduleError {
    pub line: usize,
    pub text: String,
    pub why: String,
}

/// Reads a schedule.
pub fn parse(schedule: &str) -> Result<Vec<Scheduled>, ScheduleError> {
    schedule
        .split(';')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .enumerate()
        .map(|(k, text)| {
            line(text).map_err(|why| ScheduleError {
                line: k + 1,
                text: text.to_string(),
                why,
            })
        })
        .collect()
}

fn line(text: &str) -> Result<Scheduled, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let (every_ms, rest) = period(&words)?;
    let [kind, preset, clock, length, options @ ..] = rest else {
        return Err(
            "after the period: arena PRESET BASE+INC MINUTESm, or swiss PRESET BASE+INC ROUNDSr"
                .into(),
        );
    };
    let kind = match *kind {
        "arena" => Kind::Arena,
        "swiss" => Kind::Swiss,
        _ => {
            return Err(format!(
                "'{kind}': arena or swiss tournaments are scheduled"
            ))
        }
    };
    let preset = Preset::from_str(preset).map_err(|e| e.to_string())?;
    let (base, inc) = clock
        .split_once('+')
        .and_then(|(b, i)| Some((b.parse::<f64>().ok()?, i.parse::<f64>().ok()?)))
        .filter(|(b, i)| *b * 60.0 >= 1.0 && *b <= 60.0 && (0.0..=60.0).contains(i))
        .ok_or_else(|| {
            format!(
                "'{clock}' is no clock: minutes+seconds, as 3+2 (at most 60+60, at least a second)"
            )
        })?;
    let (minutes, rounds) = if kind == Kind::Arena {
        let minutes = length
            .strip_suffix('m')
            .and_then(|m| m.parse::<i64>().ok())
            .filter(|m| (1..=720).contains(m) && m * MINUTE_MS <= every_ms)
            .ok_or_else(|| {
                format!("'{length}': minutes as 45m, from 1 to 720 and no longer than the period")
            })?;
        (minutes, 0)
    } else {
        let rounds = length
            .strip_suffix('r')
            .and_then(|r| r.parse::<i64>().ok())
            .filter(|r| (1..=crate::tournament::MOST_ROUNDS).contains(r))
            .ok_or_else(|| format!("'{length}': rounds as 7r, from 1 to 20"))?;
        (0, rounds)
    };
    let (mut rated, mut bots, mut offset_ms) = (true, true, 0);
    let mut options = options.iter();
    while let Some(word) = options.next() {
        match *word {
            "casual" => rated = false,
            "nobots" => bots = false,
            "at" => {
                let at = options.next().ok_or("at: a time, as 18:00 or :30")?;
                offset_ms = time_of_day(at)
                    .filter(|ms| *ms < every_ms)
                    .ok_or_else(|| format!("at {at}: a time within the period, as 18:00 or :30"))?;
            }
            other => return Err(format!("'{other}': casual, nobots or at HH:MM")),
        }
    }
    let clock_text = clock.to_string();
    let settings = serde_json::json!({
        "variant": preset.name(),
        "clock": {"base_s": base * 60.0, "inc_s": inc},
        "rated": rated,
    });
    Ok(Scheduled {
        line: text.to_string(),
        every_ms,
        offset_ms,
        name: format!(
            "{} {} {clock_text} {}",
            match every_ms {
                DAY_MS => "Daily",
                x if x == 60 * MINUTE_MS => "Hourly",
                _ => "Regular",
            },
            preset.name(),
            kind.in_words()
        ),
        settings: settings.to_string(),
        kind,
        minutes,
        rounds,
        bots,
    })
}

/// The period a line starts with (`hourly`, `daily`, `every 30m`), in
/// ms, and the words after it.
fn period<'a, 'w>(words: &'a [&'w str]) -> Result<(i64, &'a [&'w str]), String> {
    match words {
        ["hourly", tail @ ..] => Ok((60 * MINUTE_MS, tail)),
        ["daily", tail @ ..] => Ok((DAY_MS, tail)),
        ["every", n, tail @ ..] => {
            let ms = duration(n).ok_or_else(|| format!("'{n}' is no period: 30m, 2h"))?;
            if ms <= 0 || DAY_MS % ms != 0 || ms < 10 * MINUTE_MS {
                return Err(format!(
                    "every {n}: a period of 10 minutes or more that divides a day"
                ));
            }
            Ok((ms, tail))
        }
        _ => Err("it starts with hourly, daily or every N(m|h)".into()),
    }
}

fn duration(text: &str) -> Option<i64> {
    let unit = text.chars().last()?;
    let n: i64 = text[..text.len() - unit.len_utf8()].parse().ok()?;
    match unit {
        'm' => n.checked_mul(MINUTE_MS),
        'h' => n.checked_mul(60 * MINUTE_MS),
        _ => None,
    }
}

/// `18:00` or `:30` as ms after midnight (or the hour).
fn time_of_day(text: &str) -> Option<i64> {
    let (h, m) = text.split_once(':')?;
    let h: i64 = if h.is_empty() { 0 } else { h.parse().ok()? };
    let m: i64 = m.parse().ok()?;
    ((0..24).contains(&h) && (0..60).contains(&m)).then_some((h * 60 + m) * MINUTE_MS)
}

impl Scheduled {
    /// The first slot that starts after `now` (ms since the Unix epoch).
    pub fn next_start(&self, now: i64) -> i64 {
        let period_start = now - (now - self.offset_ms).rem_euclid(self.every_ms);
        if period_start > now {
            period_start
        } else {
            period_start + self.every_ms
        }
    }

    /// The key its slot starting at `starts_ms` is stored under.
    pub fn key(&self, starts_ms: i64) -> String {
        format!("{}@{starts_ms}", self.line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_issues_example_and_says_what_is_wrong() {
        let s = parse(
            "hourly arena classic 3+2 45m; daily arena paper-tactics 5+3 90m casual at 18:00",
        )
        .unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].every_ms, 3_600_000);
        assert_eq!(s[0].minutes, 45);
        assert_eq!(s[0].name, "Hourly classic 3+2 arena");
        assert!(
            s[0].settings.contains("\"base_s\":180.0"),
            "{}",
            s[0].settings
        );
        assert_eq!(s[1].offset_ms, 18 * 3_600_000);
        assert!(s[1].settings.contains("\"rated\":false"));
        let swiss = &parse("daily swiss paper-tactics 5+3 7r at 18:00").unwrap()[0];
        assert_eq!(
            (swiss.kind, swiss.rounds, swiss.minutes),
            (Kind::Swiss, 7, 0)
        );
        assert_eq!(swiss.name, "Daily paper-tactics 5+3 Swiss");
        let e = parse("hourly arena classic 3+2 45m; daily knockout classic 5+3 7r").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.why.contains("arena or swiss"), "{e}");
        for bad in [
            "weekly arena classic 3+2 45m",
            "hourly arena chess 3+2 45m",
            "hourly arena classic 3 45m",
            "hourly arena classic 3+2 90m",
            "every 7m arena classic 1+0 5m",
            "hourly arena classic 3+2 45m at 25:00",
            "hourly arena classic 3+2 45m loud",
            "every 99999999999999999m arena classic 3+2 45m",
            "every 5\u{e9} arena classic 3+2 5m",
            "every \u{e9} arena classic 3+2 5m",
            "hourly arena classic 0.01+0 5m",
            "hourly arena classic 1e-9+0 5m",
            "hourly arena classic 61+0 5m",
            "daily swiss classic 5+3 21r",
            "daily swiss classic 5+3 45m",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn slots_start_at_the_top_of_each_period_moved_by_at() {
        let hourly = &parse("hourly arena classic 1+0 30m at :30").unwrap()[0];
        let noon = 1_800_000_000_000 - 1_800_000_000_000 % DAY_MS + 12 * 3_600_000;
        assert_eq!(hourly.next_start(noon), noon + 30 * MINUTE_MS);
        assert_eq!(
            hourly.next_start(noon + 30 * MINUTE_MS),
            noon + 90 * MINUTE_MS
        );
        let daily = &parse("daily arena classic 5+3 60m at 18:00").unwrap()[0];
        assert_eq!(daily.next_start(noon), noon + 6 * 3_600_000);
        assert_eq!(
            daily.next_start(noon + 7 * 3_600_000),
            noon + 30 * 3_600_000
        );
    }
}

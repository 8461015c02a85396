//! A game's record (`.vwr`), as the server serves it once the game is over
//! (and its export).

use super::LiveGame;

impl LiveGame {
    /// The game's record: the server's event, the game's id and date, the
    /// players by their names, the clock and how it ended.
    pub fn record(&self) -> virus_wars_rules::record::Record {
        let mut r = self.table.record();
        r.event = "virus-wars server".into();
        r.site = format!("game {}", self.id);
        r.date = record_date(self.created_ms);
        // A person is named by the name they chose (or their account's).
        for (player, holder) in [&mut r.x_player, &mut r.o_player]
            .into_iter()
            .zip(&self.holders)
        {
            if let Some(name) = &holder.name {
                player.clone_from(name);
            }
        }
        if let Some(c) = self.table.contest.clocks {
            r.time_control = c.control.record_tag();
        }
        if self.table.contest.aborted() {
            r.termination = "aborted".into();
        }
        r
    }
}

/// `YYYY.MM.DD` (UTC) of a time in ms since the Unix epoch, as records
/// write dates.
pub fn record_date(ms: u64) -> String {
    let at = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    format!(
        "{:04}.{:02}.{:02}",
        at.year(),
        u8::from(at.month()),
        at.day()
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_are_civil() {
        assert_eq!(super::record_date(0), "1970.01.01");
        assert_eq!(super::record_date(1_795_305_600_000), "2026.11.22");
        assert_eq!(super::record_date(951_782_400_000), "2000.02.29");
    }
}

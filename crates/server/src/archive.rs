//! A server's finished games read straight from its database, for the
//! tools that learn from them (`virus-wars puzzles generate --database`).

use virus_wars_rules::Game;

use crate::live::from_row;
use crate::store::{Store, StoreError};

/// The newest `limit` games finished on the board or off it (aborted
/// games left out), newest first, as games of the rules crate. A game
/// whose stored steps do not replay is skipped with a warning.
pub async fn finished_games(database_url: &str, limit: i64) -> Result<Vec<Game>, StoreError> {
    let store = Store::connect(database_url).await?;
    let mut games = Vec::new();
    for id in store.finished_games(limit).await? {
        let Some((row, steps)) = store.load(&id).await? else {
            continue;
        };
        let steps: Vec<String> = steps.into_iter().map(|s| s.step).collect();
        match from_row(&row, &steps, 0) {
            Ok(g) => games.push(g.table.contest.game),
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "a stored game does not replay: skipped")
            }
        }
    }
    Ok(games)
}

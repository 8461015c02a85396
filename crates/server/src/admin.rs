//! What an operator does with `virus-wars admin` on a server's database,
//! while servers run: read the open reports (with the chat lines they point
//! at), mute, ban, unban, close a report, read what operators did. Each
//! action is one transaction on the shared database, recorded with who
//! and when; the servers read these rows at each request and each chat
//! line, so an action holds at once (a ban ends every session there and
//! then; a user socket open on its page closes within a minute).

use std::fmt::Write as _;

use crate::store::{Store, StoreError};

/// An operator's action.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// The open reports, newest first, a page of [`LISTED`], each with the
    /// lines the reported player said in the game it names; `older_than`:
    /// the page after that report (the last one a page listed).
    Reports {
        older_than: Option<String>,
    },
    /// The player may not chat for so many days.
    Mute {
        name: String,
        days: f64,
    },
    Unmute {
        name: String,
    },
    /// Sessions end, logging in is refused; the account's bots are
    /// refused too; its seeks, challenges and tournament places end (its
    /// games stay in the archive).
    Ban {
        name: String,
    },
    Unban {
        name: String,
    },
    /// A report dealt with.
    Close {
        report: String,
    },
    /// What operators did, newest first.
    Log,
}

/// Why an action was not done.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("no player named '{0}' here")]
    NoPlayer(String),
    #[error("no report '{0}' (`virus-wars admin reports` lists the open ones)")]
    NoReport(String),
    #[error("--days is from 0.01 to 3650, not {0}")]
    Days(f64),
}

/// Most reports and log lines one listing shows.
const LISTED: i64 = 200;
/// Most chat lines shown under one report.
const LINES: i64 = 30;

/// Does `action` on the database at `url` as `operator` at `now` (ms since
/// the Unix epoch); what to print.
pub async fn act(
    url: &str,
    operator: &str,
    action: Action,
    now: i64,
) -> Result<String, AdminError> {
    let store = Store::connect(url).await?;
    let account = |name: String| {
        let store = store.clone();
        async move {
            match store.account_named(&name).await? {
                Some(a) => Ok(a),
                None => Err(AdminError::NoPlayer(name)),
            }
        }
    };
    let id = crate::ids::game_id();
    let mut out = String::new();
    match action {
        Action::Reports { older_than } => out = reports(&store, older_than).await?,
        Action::Mute { name, days } => {
            if !(0.01..=3650.0).contains(&days) {
                return Err(AdminError::Days(days));
            }
            let a = account(name).await?;
            let until = now + (days * 86_400_000.0) as i64;
            store
                .moderate(&id, operator, "mute", &a.id, until, now)
                .await?;
            let _ = writeln!(
                out,
                "{} is muted until {until} (ms since the Unix epoch)",
                a.name
            );
        }
        Action::Unmute { name } => {
            let a = account(name).await?;
            store
                .moderate(&id, operator, "unmute", &a.id, 0, now)
                .await?;
            let _ = writeln!(out, "{} may chat again", a.name);
        }
        Action::Ban { name } => {
            let a = account(name).await?;
            let closed = store.moderate(&id, operator, "ban", &a.id, 0, now).await?;
            for who in &closed {
                store.ring_elsewhere(who).await?;
            }
            let bots = closed.len().saturating_sub(1);
            let _ = writeln!(
                out,
                "{} is banned: every session ended, logging in is refused; {}",
                a.name,
                match bots {
                    0 => "no bot of theirs".to_string(),
                    1 => "their bot is refused too".to_string(),
                    n => format!("their {n} bots are refused too"),
                }
            );
        }
        Action::Unban { name } => {
            let a = account(name).await?;
            store
                .moderate(&id, operator, "unban", &a.id, 0, now)
                .await?;
            let _ = writeln!(out, "{} may log in again", a.name);
        }
        Action::Close { report } => {
            if !store.close_report(&report, now).await? {
                return Err(AdminError::NoReport(report));
            }
            let _ = writeln!(out, "report {report} closed");
        }
        Action::Log => {
            for (at, operator, action, name, detail) in store.moderation_log(LISTED).await? {
                let _ = writeln!(out, "{at} {operator} {action} {name} {detail}");
            }
        }
    }
    Ok(out)
}

/// The open reports, a page of [`LISTED`] older than report `older_than`,
/// each with the reported player's lines in its game; and how to ask for
/// the next page.
async fn reports(store: &Store, older_than: Option<String>) -> Result<String, AdminError> {
    let mut out = String::new();
    let before = match &older_than {
        Some(id) => match store.report_made(id).await? {
            Some(at) => (at, id.as_str()),
            None => return Err(AdminError::NoReport(id.clone())),
        },
        None => (i64::MAX, ""),
    };
    let mut reports = store.open_reports(before, LISTED + 1).await?;
    let more = reports.len() as i64 > LISTED;
    reports.truncate(LISTED as usize);
    if reports.is_empty() {
        out.push_str(if older_than.is_some() {
            "no open report older than that\n"
        } else {
            "no open report\n"
        });
    }
    let last = reports.last().map(|r| r.id.clone());
    for r in reports {
        let name = |id: &str| {
            let store = store.clone();
            let id = id.to_string();
            async move { store.account(&id).await.map(|a| a.map_or(id, |a| a.name)) }
        };
        let _ = writeln!(
            out,
            "report {} at {}: {} reports {} for {}{}{}",
            r.id,
            r.created_ms,
            name(&r.reporter).await?,
            name(&r.player).await?,
            r.reason,
            if r.game.is_empty() {
                String::new()
            } else {
                format!(" in game {}", r.game)
            },
            if r.text.is_empty() {
                String::new()
            } else {
                format!(": {:?}", r.text)
            },
        );
        if !r.game.is_empty() {
            for line in store.lines_of(&r.player, &r.game, LINES).await? {
                let _ = writeln!(
                    out,
                    "  [{}] {} ({}): {:?}",
                    line.at_ms, line.name, line.room, line.text
                );
            }
        }
    }
    if let (true, Some(last)) = (more, last) {
        let _ = writeln!(out, "more: virus-wars admin reports --older-than {last}");
    }
    Ok(out)
}

//! `virus-wars admin`: an operator's actions on a server's database, while
//! servers run (docs/api.md, Moderation).

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use virus_wars_server::admin::{act, Action};

#[derive(Args, Debug)]
pub struct AdminArgs {
    /// The data folder of a SQLite server (`serve --data`; also
    /// `VW_DATA`, or `data` in the `--config` file).
    #[arg(long, value_name = "DIR", global = true)]
    pub data: Option<std::path::PathBuf>,
    /// A PostgreSQL server's database (`serve --database-url`; also
    /// `VW_DATABASE_URL`, or `database-url` in the `--config` file, so
    /// that no password is on the command line). It wins over `--data`,
    /// as in `serve`.
    #[arg(long, value_name = "URL", global = true)]
    pub database_url: Option<String>,
    /// The server's settings file (`serve --config`): its `data` and
    /// `database-url` are read.
    #[arg(long, value_name = "FILE", global = true)]
    pub config: Option<std::path::PathBuf>,
    /// Who acts, as the record keeps it (default: the user running this).
    #[arg(long, value_name = "NAME", global = true)]
    pub by: Option<String>,
    #[command(subcommand)]
    pub command: AdminCommand,
}

#[derive(Subcommand, Debug)]
pub enum AdminCommand {
    /// The open reports, newest first (200 a page), with the chat lines
    /// they point at.
    Reports {
        /// The next page: the reports older than this one (the last one
        /// the page before listed).
        #[arg(long, value_name = "REPORT")]
        older_than: Option<String>,
    },
    /// Close a report (dealt with).
    Close {
        /// The report's id, as `reports` lists it.
        report: String,
    },
    /// The player may not chat for so many days (`403 muted`).
    Mute {
        name: String,
        #[arg(long, default_value_t = 1.0)]
        days: f64,
    },
    /// The player may chat again.
    Unmute { name: String },
    /// Every session of the player ends and logging in is refused; their
    /// games stay in the archive.
    Ban { name: String },
    /// The player may log in again.
    Unban { name: String },
    /// What operators did, newest first, with who and when.
    Log,
}

pub fn run(args: AdminArgs) -> Result<()> {
    let url = match (&args.data, &args.database_url) {
        (_, Some(url)) => url.clone(),
        (Some(dir), None) => {
            let file = dir.join("virus-wars.sqlite");
            if !file.is_file() {
                bail!(
                    "--data: no server database in {} (no virus-wars.sqlite there)",
                    dir.display()
                );
            }
            format!("sqlite://{}?mode=rw", file.display())
        }
        (None, None) => bail!(
            "name the server's database: --data DIR or --database-url URL (or VW_DATA, \
             VW_DATABASE_URL, or --config FILE with the settings serve reads)"
        ),
    };
    let operator = args
        .by
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_else(|| "operator".into());
    let action = match args.command {
        AdminCommand::Reports { older_than } => Action::Reports { older_than },
        AdminCommand::Close { report } => Action::Close { report },
        AdminCommand::Mute { name, days } => Action::Mute { name, days },
        AdminCommand::Unmute { name } => Action::Unmute { name },
        AdminCommand::Ban { name } => Action::Ban { name },
        AdminCommand::Unban { name } => Action::Unban { name },
        AdminCommand::Log => Action::Log,
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let out = runtime.block_on(act(&url, &operator, action, now))?;
    print!("{out}");
    Ok(())
}

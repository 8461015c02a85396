//! `virus-wars backup` and `virus-wars restore`: a consistent copy of a
//! SQLite server's database while it runs, and putting one back
//! (docs/hosting.md; PostgreSQL uses pg_dump and pg_restore).

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

/// The database file in a server's data folder.
fn database(data: &std::path::Path) -> PathBuf {
    data.join("virus-wars.sqlite")
}

#[derive(Args, Debug)]
pub struct BackupArgs {
    /// The server's data folder (as `serve --data`; also `VW_DATA`, or
    /// `data` in the `--config` file).
    #[arg(long, default_value = "virus-wars-data", value_name = "DIR")]
    pub data: PathBuf,
    /// The backup file to write (never over an existing file); written
    /// readable by its owner alone (0600).
    #[arg(long, value_name = "FILE")]
    pub to: PathBuf,
    /// The server's settings file (`serve --config`): its `data` is read.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct RestoreArgs {
    /// A backup written by `virus-wars backup`.
    #[arg(long, value_name = "FILE")]
    pub from: PathBuf,
    /// The data folder to restore into: new or without a database.
    #[arg(long, value_name = "DIR")]
    pub data: PathBuf,
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

pub fn backup(args: BackupArgs) -> Result<()> {
    let started = std::time::Instant::now();
    // The copy holds password and token hashes: its owner's alone.
    virus_wars_server::private::owner_only_from_now();
    runtime()?.block_on(virus_wars_server::backup::backup(
        &database(&args.data),
        &args.to,
    ))?;
    let bytes = std::fs::metadata(&args.to).map_or(0, |m| m.len());
    crate::outln!(
        "backed up {} to {} ({bytes} bytes, {} ms)",
        args.data.display(),
        args.to.display(),
        started.elapsed().as_millis()
    )?;
    Ok(())
}

pub fn restore(args: RestoreArgs) -> Result<()> {
    virus_wars_server::private::owner_only_from_now();
    runtime()?.block_on(virus_wars_server::backup::restore(
        &args.from,
        &database(&args.data),
    ))?;
    crate::outln!(
        "restored {} into {}: start the server with --data {}",
        args.from.display(),
        args.data.display(),
        args.data.display()
    )?;
    Ok(())
}

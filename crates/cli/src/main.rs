//! `virus-wars`: the command-line front end. Each subcommand only parses its
//! flags, calls the library crates and prints.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod commands;
mod output;
mod play;
mod settings;
mod variant_args;

#[derive(Parser, Debug)]
#[command(
    name = "virus-wars",
    version,
    about = "Virus Wars (Война вирусов, Paper Tactics): rules engine and tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a game in this terminal: against the computer, two people, or watch.
    Play(play::PlayArgs),
    /// Count legal step sequences to a depth (move-generator test of record).
    Perft(commands::perft::PerftArgs),
    /// Check a game step by step and print the final position and result.
    Replay(commands::replay::ReplayArgs),
    /// Review a saved game turn by turn: win chances, best turns, mistakes (JSON lines).
    Analyse(commands::analyse::AnalyseArgs),
    /// Puzzles cut from games: generate them, or list the shipped set (JSON lines).
    Puzzles(commands::puzzles::PuzzlesArgs),
    /// Measure the engine's speed on this machine.
    Bench(commands::bench::BenchArgs),
    /// Play a match between two players (built-in or external engines).
    Arena(commands::arena::ArenaArgs),
    /// Fit the evaluation weights to self-play outcomes and check them in a match.
    Tune(commands::tune::TuneArgs),
    /// Train the learned player by self-play (needs the cargo feature `train`).
    Train(commands::train::TrainArgs),
    /// Run the game server: online games, the computer, a JSON API (docs/api.md).
    Serve(commands::serve::ServeArgs),
    /// Copy a SQLite server's database while it runs (consistent as of one moment).
    Backup(commands::backup::BackupArgs),
    /// Put a backup back into a new or empty data folder.
    Restore(commands::backup::RestoreArgs),
    /// Load a running server with games over WebSockets; one line of figures.
    Loadtest(commands::loadtest::LoadtestArgs),
    /// A server operator's actions: reports, mute, ban (while servers run).
    Admin(commands::admin::AdminArgs),
    /// Connect an engine-protocol program to a server: it plays online games.
    Bot(commands::bot::BotArgs),
    /// Speak the engine protocol on stdin/stdout (for bots and GUIs; docs/engine-protocol.md).
    Engine,
}

fn main() -> ExitCode {
    // Flags, then the environment, then `--config`'s file.
    let command = settings::with_environment(Cli::command());
    let matches = settings::matches(command.clone(), std::env::args_os().collect())
        .unwrap_or_else(|e| settings::exit(e));
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| settings::exit(e));
    let result = match cli.command {
        Command::Play(a) => play::run(a),
        Command::Perft(a) => commands::perft::run(a),
        Command::Replay(a) => commands::replay::run(a),
        Command::Analyse(a) => commands::analyse::run(a),
        Command::Puzzles(a) => commands::puzzles::run(a),
        Command::Bench(a) => commands::bench::run(a),
        Command::Arena(a) => commands::arena::run(a),
        Command::Tune(a) => commands::tune::run(a),
        Command::Train(a) => commands::train::run(a),
        Command::Serve(a) => commands::serve::run(a, settings::Said::of(&command, &matches)),
        Command::Backup(a) => commands::backup::backup(a),
        Command::Restore(a) => commands::backup::restore(a),
        Command::Loadtest(a) => commands::loadtest::run(a),
        Command::Bot(a) => commands::bot::run(a),
        Command::Admin(a) => commands::admin::run(a),
        Command::Engine => virus_wars_engine::run(
            std::io::stdin().lock(),
            Box::new(output::Stdout),
            virus_wars_engine::Limits::default(),
        )
        .map_err(anyhow::Error::from),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of our output went away (`| head`): nothing is wrong
        // and there is no one left to tell.
        Err(_) if output::stdout_closed() => ExitCode::SUCCESS,
        Err(e) => {
            use std::io::Write;
            // Even a full or closed stderr must not turn this into a panic.
            let _ = writeln!(std::io::stderr(), "error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        super::Cli::command().debug_assert();
        super::settings::with_environment(super::Cli::command()).debug_assert();
    }
}

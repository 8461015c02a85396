//! Plain mode: the board as text and one cell, turn or command a line.
//! For scripts, pipes and screen readers; chosen with `--plain`, or by
//! itself when stdin or stdout is not a terminal.

use std::io::{BufRead, Write};

use std::path::Path;
use virus_wars_engine::lines::Lines;

use anyhow::Result;
use virus_wars_rules::notation::format_turn;
use virus_wars_rules::{Cell, Side};

use super::command::{parse_command, Command, HELP};
use super::session::Session;
use super::shown::shown_turn;
use super::symbols::shown_letter;

/// The board with labels, as the screen may show it; cells the mover may
/// step on show `+`. Under fog a hidden cell shows `?`, and a line below
/// says how many there are and which enemy pieces are remembered only.
pub fn board_text(session: &Session) -> String {
    let p = session.game().position();
    let legal: Vec<Cell> = p.legal_cells();
    let board = session.board();
    let (w, h) = (p.width(), p.height());
    let files: String = (0..w).map(|f| format!(" {}", (b'a' + f) as char)).collect();
    let mut out = format!("  {files}\n");
    for rank in (0..h).rev() {
        out.push_str(&format!("{:>2} ", rank + 1));
        for file in 0..w {
            let cell = Cell::new(file, rank);
            out.push(shown_letter(board.content(w, cell), legal.contains(&cell)));
            out.push(' ');
        }
        out.push_str(&format!("{:>2}\n", rank + 1));
    }
    out.push_str(&format!("  {files}\n"));
    if session.viewer().is_some() {
        out.push_str(&format!("fog: {} cells hidden (?)", board.hidden()));
        if !board.remembered.is_empty() {
            let cells: Vec<String> = board.remembered.iter().map(Cell::to_string).collect();
            out.push_str(&format!(
                "; remembered, out of sight now: {}",
                cells.join(" ")
            ));
        }
        out.push('\n');
    }
    out
}

/// Plays `session` reading `input` and writing to `out` until the game
/// ends, `quit`, or the end of input.
pub fn run(session: &mut Session, input: impl BufRead, mut out: impl Write) -> Result<()> {
    let v = session.game().variant().clone();
    writeln!(
        out,
        "Virus Wars: {}x{}, {} steps a turn. X: {}. O: {}.",
        v.width,
        v.height,
        v.rules.steps_per_turn,
        session.seat_name(Side::X),
        session.seat_name(Side::O)
    )?;
    writeln!(out, "{HELP}")?;
    let mut lines = Lines::new(input);
    loop {
        if let Some(end) = session.ending() {
            write!(out, "{}", board_text(session))?;
            writeln!(out, "game over: {end}")?;
            return Ok(());
        }
        let side = session.side_to_move();
        if !session.human_to_move() {
            match session.computer_turn() {
                Ok(_) => {
                    let shown = session.last_turn().map(|(_, s)| s).unwrap_or_default();
                    writeln!(
                        out,
                        "{side} ({}) plays {}",
                        session.seat_name(side),
                        shown_turn(&shown)
                    )?
                }
                Err(e) => anyhow::bail!("{e}"),
            }
            continue;
        }
        write!(out, "{}", board_text(session))?;
        if let Some((who, steps)) = session.last_turn() {
            writeln!(out, "last turn: {who} {}", shown_turn(&steps))?;
        }
        let p = session.game().position();
        if let Some(line) = session.position_line() {
            writeln!(out, "{line}")?;
        }
        writeln!(
            out,
            "{side} to step, {} of {} steps left:",
            p.steps_left(),
            p.rules().steps_in_turn(p.turn())
        )?;
        out.flush()?;
        let Some(line) = lines.next_line()? else {
            writeln!(out, "end of input: the game is left unfinished")?;
            return Ok(());
        };
        let reply = match line.text().and_then(|line| parse_command(&line)) {
            Err(e) => format!("error: {e}"),
            Ok(Command::Quit) => {
                writeln!(out, "quit: the game is left unfinished")?;
                return Ok(());
            }
            Ok(c) => match obey(session, c) {
                Ok(text) => text,
                Err(e) => format!("error: {e}"),
            },
        };
        if !reply.is_empty() {
            writeln!(out, "{reply}")?;
        }
    }
}

/// Carries out a command that is not `quit`; returns what to tell the person.
pub fn obey(session: &mut Session, command: Command) -> Result<String, String> {
    Ok(match command {
        Command::Steps(steps) => {
            session.play(&steps)?;
            String::new()
        }
        Command::Undo | Command::UndoTurn => {
            // Under fog the steps taken back may hold the computer's unseen.
            let fogged = session.viewer().is_some();
            let undone = session.undo(command == Command::UndoTurn)?;
            if fogged {
                format!("took back {} steps", undone.len())
            } else {
                format!("took back {}", format_turn(&undone))
            }
        }
        Command::Redo => {
            session.redo()?;
            let shown = session.last_turn().and_then(|(_, s)| s.last().copied());
            match shown {
                Some(Some(step)) => format!("played again {step}"),
                _ => "played again a step you do not see".into(),
            }
        }
        Command::Hint => format!("hint: {}", format_turn(&session.hint()?)),
        Command::Resign => {
            session.resign()?;
            String::new()
        }
        Command::Save(file) => {
            session.save(Path::new(&file))?;
            format!("saved to {file}")
        }
        Command::Load(file) => {
            session.load(Path::new(&file))?;
            format!("loaded {file}: {} steps", session.game().steps().len())
        }
        Command::Analyse(file) => {
            let game = match &file {
                Some(f) => super::review::read_game(Path::new(f))?,
                None => session.reviewable()?,
            };
            super::review::table(&super::review::judge(&game)?, true)
        }
        Command::New => {
            session.new_game()?;
            "new game".into()
        }
        Command::Help => HELP.into(),
        Command::Quit => String::new(),
    })
}

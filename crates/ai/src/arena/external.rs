//! An external engine: a child process that speaks the engine protocol
//! (docs/engine-protocol.md). Every answer is awaited with a deadline, so a
//! slow, silent or crashed engine loses instead of hanging the arena.

use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::lines::Lines;
use crate::protocol::{self, variant_command, Go, Start};
use virus_wars_rules::fog::Seen;
use virus_wars_rules::notation::{parse_step, parse_steps};
use virus_wars_rules::{position_string, AnyPosition, Step, Variant};

/// What went wrong with an external engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error("cannot start '{command}': {reason}")]
    Spawn { command: String, reason: String },
    #[error("the engine exited or closed its output")]
    Crashed,
    #[error("no '{expected}' within {waited:?}")]
    Timeout { expected: String, waited: Duration },
    #[error("the engine answered 'error {0}'")]
    Refused(String),
    #[error("unreadable bestturn '{0}'")]
    BadTurn(String),
}

pub struct ExternalEngine {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// Time an engine gets to start and answer the handshake.
const HANDSHAKE: Duration = Duration::from_secs(10);

impl ExternalEngine {
    /// Starts `command` through the shell and does the handshake.
    pub fn start(command: &str) -> Result<ExternalEngine, EngineError> {
        let spawn_err = |e: std::io::Error| EngineError::Spawn {
            command: command.to_string(),
            reason: e.to_string(),
        };
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(spawn_err)?;
        let stdin = child.stdin.take().ok_or(EngineError::Crashed)?;
        let stdout = child.stdout.take().ok_or(EngineError::Crashed)?;
        // A bounded queue: a bot that writes without pause waits for the
        // arena instead of filling its memory; lines are capped at 1 MiB.
        let (tx, lines) = sync_channel(256);
        std::thread::spawn(move || {
            let mut reader = Lines::new(BufReader::new(stdout));
            while let Ok(Some(line)) = reader.next_line() {
                let line = line.text().unwrap_or_else(|e| format!("error {e}"));
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = ExternalEngine {
            command: command.to_string(),
            child,
            stdin,
            lines,
        };
        let handshake = e
            .send(&protocol::Command::Hello.to_string())
            .and_then(|()| e.expect("vweok", HANDSHAKE));
        match handshake {
            Ok(_) => Ok(e),
            Err(EngineError::Crashed) => {
                // Say why when the shell could not run the program.
                let deadline = Instant::now() + Duration::from_millis(500);
                let mut status = None;
                while status.is_none() && Instant::now() < deadline {
                    status = e.child.try_wait().ok().flatten();
                    std::thread::sleep(Duration::from_millis(10));
                }
                let reason = match status.and_then(|s| s.code()) {
                    Some(127) => {
                        "no such program (the shell answered 127: command not found)".to_string()
                    }
                    Some(126) => {
                        "the program cannot be run (the shell answered 126: not executable)"
                            .to_string()
                    }
                    Some(code) => format!("it exited with status {code} before the handshake"),
                    None => return Err(EngineError::Crashed),
                };
                Err(EngineError::Spawn {
                    command: command.to_string(),
                    reason,
                })
            }
            Err(other) => Err(other),
        }
    }

    pub fn command(&self) -> &str {
        &self.command
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| EngineError::Crashed)
    }

    /// Waits for a line starting with `prefix`; an `error` line fails.
    fn expect(&mut self, prefix: &str, within: Duration) -> Result<String, EngineError> {
        let deadline = Instant::now() + within;
        loop {
            // Checked on every line: a bot that never stops writing still
            // runs out of time.
            let left = deadline.saturating_duration_since(Instant::now());
            let next = if left.is_zero() {
                Err(RecvTimeoutError::Timeout)
            } else {
                self.lines.recv_timeout(left)
            };
            match next {
                Ok(line) if line.starts_with(prefix) => return Ok(line),
                Ok(line) => {
                    if let Some(msg) = line.strip_prefix("error ") {
                        return Err(EngineError::Refused(msg.to_string()));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout {
                        expected: prefix.to_string(),
                        waited: within,
                    })
                }
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Crashed),
            }
        }
    }

    /// Tells the engine the variant and that a new game starts.
    pub fn new_game(&mut self, v: &Variant) -> Result<(), EngineError> {
        self.send(&variant_command(v).to_string())?;
        self.send(&protocol::Command::NewGame.to_string())?;
        self.send(&protocol::Command::IsReady.to_string())?;
        self.expect("readyok", HANDSHAKE).map(|_| ())
    }

    /// Asks for the rest of the turn at `position`, allowing `time` plus `grace`.
    pub fn turn(
        &mut self,
        position: &AnyPosition,
        time: Duration,
        grace: Duration,
    ) -> Result<Vec<Step>, EngineError> {
        let start = Start::Set(position_string::write(position));
        let text = self.best_turn(start, time, grace)?;
        parse_steps(&text).map_err(|_| EngineError::BadTurn(text))
    }

    /// Sets the engine's position to `start`, asks it to think for `time`,
    /// and answers what follows `bestturn` (within `time` plus `grace`).
    fn best_turn(
        &mut self,
        start: Start,
        time: Duration,
        grace: Duration,
    ) -> Result<String, EngineError> {
        let moves = Vec::new();
        self.send(&protocol::Command::Position { start, moves }.to_string())?;
        self.send(&go_movetime(time))?;
        let line = self.expect("bestturn", time + grace)?;
        Ok(line.trim_start_matches("bestturn").trim().to_string())
    }
}

impl ExternalEngine {
    /// Asks for the next step of a fog game from what the side to move
    /// knows (`position view … hidden N`), allowing `time` plus `grace`.
    pub fn fog_step(
        &mut self,
        seen: &Seen,
        time: Duration,
        grace: Duration,
    ) -> Result<Step, EngineError> {
        let start = Start::View {
            text: seen.view.write(),
            hidden: seen.hidden_enemy_pieces,
        };
        let text = self.best_turn(start, time, grace)?;
        parse_step(&text).map_err(|_| EngineError::BadTurn(text))
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        let _ = self.send(&protocol::Command::Quit.to_string());
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `go movetime N`: think for `time`.
fn go_movetime(time: Duration) -> String {
    let mut go = Go::default();
    go.budget.time = Some(time);
    protocol::Command::Go(go).to_string()
}

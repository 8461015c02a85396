//! A session of the engine protocol (docs/engine-protocol.md). Searches run
//! on their own thread; the loop keeps reading commands, so `stop`,
//! `isready` and `quit` answer at once.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use virus_wars_ai::{score, Budget, Player, PlayerSpec, SearchHandle, SearchInfo, StopFlag};
use virus_wars_rules::fog::{read_view, Seen};
use virus_wars_rules::notation::format_turn;
use virus_wars_rules::{
    diagram, position_string, AnyPosition, Game, Step, Variant, VariantOptions,
};

use crate::command::{self, Command, Go, Start};

mod fog_go;
use virus_wars_ai::lines::Lines;

/// What a session may spend: a host that runs engines for others (a
/// server, a fuzzer) caps each search and the players it builds.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Longest a search may think; `None`: as long as asked.
    pub search_time: Option<Duration>,
    /// Largest hash table or tree a `Player` spec may ask for, in MB.
    pub hash_mb: usize,
    /// Most threads a `Player` spec may ask for.
    pub threads: usize,
}

impl Default for Limits {
    /// No caps beyond the specs' own ranges.
    fn default() -> Self {
        Limits {
            search_time: None,
            hash_mb: virus_wars_ai::spec::MAX_HASH_MB,
            threads: virus_wars_ai::spec::MAX_THREADS,
        }
    }
}

/// The player an engine starts with.
pub const DEFAULT_PLAYER: &str = "level:8";

/// The output, shared with the search threads, and the first write error.
struct Output {
    writer: Box<dyn Write + Send>,
    failed: Option<io::Error>,
}

type Out = Arc<Mutex<Output>>;

/// Writes one line. A failed write (the reader went away, a full disk) is
/// kept: the session ends with it after the current command.
fn say(out: &Out, line: &str) {
    let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
    if o.failed.is_some() {
        return;
    }
    let written = writeln!(o.writer, "{line}").and_then(|_| o.writer.flush());
    if let Err(e) = written {
        o.failed = Some(e);
    }
}

fn output_failed(out: &Out) -> Option<io::Error> {
    out.lock().unwrap_or_else(|e| e.into_inner()).failed.take()
}

/// A search in progress: its stop flag and the thread that prints its result.
struct Running {
    stop: StopFlag,
    /// Raised by `stop`/`ponderhit`, so that a ponder or infinite search
    /// that ended early (a solved position) still waits to answer.
    released: Arc<(Mutex<bool>, Condvar)>,
    /// When set, the result is not printed (a ponder search replaced by `ponderhit`).
    silent: Arc<AtomicBool>,
    /// Set by the waiter once the search has ended, before it prints `bestturn`.
    done: Arc<AtomicBool>,
    waiter: JoinHandle<Box<dyn Player>>,
    ponder: Option<Go>,
}

struct Engine {
    out: Out,
    limits: Limits,
    variant: Variant,
    game: Game,
    spec: PlayerSpec,
    player: Option<Box<dyn Player>>,
    running: Option<Running>,
    /// Set by `position view`: a fog game as the side to move sees it,
    /// which `go` answers with one step (docs/engine-protocol.md).
    fog: Option<Seen>,
}

/// Runs the protocol until `quit` or the end of the input. Only an I/O
/// error ends it early (reading the input, or writing the output: then no
/// one hears the answers); every line gets its answer or error.
pub fn run(input: impl BufRead, output: Box<dyn Write + Send>, limits: Limits) -> io::Result<()> {
    let variant = Variant::default();
    let spec: PlayerSpec = DEFAULT_PLAYER.parse().expect("the default player exists");
    let mut engine = Engine {
        out: Arc::new(Mutex::new(Output {
            writer: output,
            failed: None,
        })),
        game: Game::new(variant.clone()).expect("the default variant is valid"),
        variant,
        player: Some(spec.build().0),
        spec,
        limits,
        running: None,
        fog: None,
    };
    let mut lines = Lines::new(input);
    while let Some(line) = lines.next_line()? {
        let parsed = line.text().and_then(|text| command::parse(&text));
        match parsed {
            Ok(None) => {}
            Ok(Some(Command::Quit)) => break,
            Ok(Some(c)) => {
                if let Err(message) = engine.handle(c) {
                    say(&engine.out, &format!("error {message}"));
                }
            }
            Err(message) => say(&engine.out, &format!("error {message}")),
        }
        if let Some(e) = output_failed(&engine.out) {
            engine.finish_search();
            return Err(e);
        }
    }
    engine.finish_search();
    match output_failed(&engine.out) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

impl Engine {
    fn handle(&mut self, c: Command) -> Result<(), String> {
        // Reap a search that ended on its own, to get the player back: a
        // client may answer `bestturn` before the waiter thread has returned.
        // A ponder or infinite search is never reaped: it waits for `stop`.
        let ended = |r: &Running| {
            r.done.load(Ordering::Acquire)
                && *r.released.0.lock().unwrap_or_else(|e| e.into_inner())
        };
        if self.running.as_ref().is_some_and(ended) {
            self.finish_search();
        }
        let busy = self.running.is_some();
        match c {
            Command::Hello => {
                for line in [
                    format!("id name virus-wars {}", env!("CARGO_PKG_VERSION")),
                    "id author the virus-wars developers".to_string(),
                    format!("option name Player type string default {DEFAULT_PLAYER}"),
                    "vweok".to_string(),
                ] {
                    say(&self.out, &line);
                }
            }
            Command::IsReady => say(&self.out, "readyok"),
            Command::Stop => self.finish_search(),
            Command::Quit => unreachable!("handled by the loop"),
            _ if busy && !matches!(c, Command::PonderHit) => {
                return Err("a search is running: send stop first".into());
            }
            Command::SetOption { name, value } => match name.to_ascii_lowercase().as_str() {
                "player" => {
                    let spec = value.parse::<PlayerSpec>().map_err(|e| e.to_string())?;
                    let (mb, threads) = spec.resources();
                    if mb > self.limits.hash_mb || threads > self.limits.threads {
                        return Err(format!(
                            "player '{spec}' asks for {mb} MB and {threads} thread(s); this engine allows at most {} MB and {} thread(s)",
                            self.limits.hash_mb, self.limits.threads
                        ));
                    }
                    self.player = Some(spec.build().0);
                    self.spec = spec;
                }
                _ => return Err(format!("unknown option '{name}': the engine has Player")),
            },
            Command::Variant { preset, overrides } => {
                let variant = build_variant(&preset, &overrides)?;
                self.game = Game::new(variant.clone()).map_err(|e| e.to_string())?;
                self.variant = variant;
                // What the player learnt under other rules is no guide here.
                if let Some(p) = self.player.as_mut() {
                    p.new_game();
                }
            }
            Command::NewGame => {
                if let Some(p) = self.player.as_mut() {
                    p.new_game();
                }
                self.game = Game::new(self.variant.clone()).map_err(|e| e.to_string())?;
            }
            Command::Position { start, moves } => self.set_position(start, moves)?,
            Command::Show if self.fog.is_some() => {
                let text = self
                    .fog
                    .as_ref()
                    .map(|f| f.view.write())
                    .unwrap_or_default();
                say(&self.out, &format!("info string view {text}"));
            }
            Command::Show => {
                let p = self.game.position();
                for line in diagram::diagram(p).lines() {
                    say(&self.out, &format!("info string {line}"));
                }
                say(
                    &self.out,
                    &format!("info string position {}", position_string::write(p)),
                );
            }
            Command::Legal => {
                // On a view its legal steps are the true ones (every cell
                // the side may step on is one it sees).
                let p = match &self.fog {
                    Some(f) => f.view.as_if_empty(),
                    None => *self.game.position(),
                };
                let steps: Vec<String> = p.legal_steps().iter().map(|s| s.to_string()).collect();
                let list = if steps.is_empty() {
                    "none".to_string()
                } else {
                    steps.join(" ")
                };
                say(&self.out, &format!("legal {list}"));
            }
            Command::Go(go) => self.go(go)?,
            Command::PonderHit => {
                let Some(running) = self.running.as_mut() else {
                    return Err("ponderhit without a ponder search".into());
                };
                let Some(go) = running.ponder.take() else {
                    return Err("ponderhit: the running search is not pondering".into());
                };
                running.silent.store(true, Ordering::Relaxed);
                self.finish_search();
                self.go(Go {
                    ponder: false,
                    infinite: false,
                    ..go
                })?;
            }
        }
        Ok(())
    }

    fn set_position(&mut self, start: Start, moves: Vec<Step>) -> Result<(), String> {
        let mut game = match start {
            Start::View { text, hidden } => {
                let view = read_view(&text).map_err(|e| format!("position view: {e}"))?;
                self.fog = Some(Seen {
                    view,
                    hidden_enemy_pieces: hidden,
                    enemy_bases: Vec::new(),
                });
                return Ok(());
            }
            Start::StartPos => Game::new(self.variant.clone()).map_err(|e| e.to_string())?,
            Start::Set(text) => {
                let p = position_string::read(&text).map_err(|e| format!("position: {e}"))?;
                Game::from_position(Variant::of_position(&p), p).map_err(|e| e.to_string())?
            }
        };
        for (k, step) in moves.into_iter().enumerate() {
            game.play(step)
                .map_err(|e| format!("step {} ({step}): {e}", k + 1))?;
        }
        self.game = game;
        self.fog = None;
        Ok(())
    }

    fn go(&mut self, go: Go) -> Result<(), String> {
        if let Some(seen) = self.fog.clone() {
            return self.go_in_fog(seen, go);
        }
        let position = *self.game.position();
        if let Some(o) = position.outcome() {
            return Err(format!("the game is over ({o})"));
        }
        let player = self
            .player
            .take()
            .expect("the player is home when no search runs");
        let waits = go.infinite || go.ponder;
        let mut budget = go.budget_for(position.side() == virus_wars_rules::Side::X);
        if waits {
            budget = Budget::default();
        } else if budget.is_infinite() {
            budget = self.spec.budget();
        }
        if let Some(cap) = self.limits.search_time {
            budget.time = Some(budget.time.map_or(cap, |t| t.min(cap)));
        }
        let out = self.out.clone();
        let handle = SearchHandle::start(player, position, budget, move |info: &SearchInfo| {
            say(&out, &info_line(&position, info));
        });
        let silent = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let released = Arc::new((Mutex::new(!waits), Condvar::new()));
        let (out, quiet, finished, release) = (
            self.out.clone(),
            silent.clone(),
            done.clone(),
            released.clone(),
        );
        let stop = handle.stop_flag();
        let waiter = std::thread::spawn(move || {
            let (player, result) = handle.wait();
            finished.store(true, Ordering::Release);
            // As in UCI, `go ponder` and `go infinite` answer only after
            // `stop` or `ponderhit`, even when the search ended by itself.
            let (lock, cvar) = &*release;
            let mut free = lock.lock().unwrap_or_else(|e| e.into_inner());
            while !*free {
                free = cvar.wait(free).unwrap_or_else(|e| e.into_inner());
            }
            drop(free);
            if !quiet.load(Ordering::Relaxed) {
                let turn = if result.steps.is_empty() {
                    "none".to_string()
                } else {
                    format_turn(&result.steps)
                };
                say(&out, &format!("bestturn {turn}"));
            }
            player
        });
        self.running = Some(Running {
            stop,
            released,
            silent,
            done,
            waiter,
            ponder: go.ponder.then_some(go),
        });
        Ok(())
    }

    /// Stops the running search, if any, and waits until its result is out.
    fn finish_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.stop();
            {
                let (lock, cvar) = &*r.released;
                *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
                cvar.notify_all();
            }
            match r.waiter.join() {
                Ok(player) => self.player = Some(player),
                Err(_) => {
                    say(&self.out, "error the search failed; the player was reset");
                    self.player = Some(self.spec.build().0);
                }
            }
        }
    }
}

/// `info depth 5 score winprob 0.612 nodes 1234 nps 56000 time 22 pv a2-b3-c4 j9-i8-h7`
fn info_line(root: &AnyPosition, info: &SearchInfo) -> String {
    let mut turns: Vec<Vec<Step>> = Vec::new();
    let mut p = *root;
    let mut turn = None;
    for &step in &info.pv {
        if turn != Some(p.turn()) {
            turns.push(Vec::new());
            turn = Some(p.turn());
        }
        if p.play(step).is_err() {
            break;
        }
        turns.last_mut().expect("pushed above").push(step);
    }
    let pv: Vec<String> = turns.iter().map(|t| format_turn(t)).collect();
    format!(
        "info depth {} score {} nodes {} nps {} time {} pv {}",
        info.depth,
        score::describe(info.score),
        info.nodes,
        info.nodes_per_second(),
        info.elapsed.as_millis(),
        pv.join(" ")
    )
}

fn build_variant(preset: &str, overrides: &[(String, String)]) -> Result<Variant, String> {
    let mut options = VariantOptions::default();
    if !preset.eq_ignore_ascii_case("custom") {
        options.preset = Some(preset.parse().map_err(|e| format!("{e}"))?);
    }
    for (k, v) in overrides {
        options.set(k, v)?;
    }
    if options.fog == Some(true) {
        // A fog game is given a side's view at a time, never its position.
        return Err(
            "fog: give the variant without fog, and each position as the side sees it: 'position view <view position> hidden N'"
                .into(),
        );
    }
    options.build().map_err(|e| e.to_string())
}

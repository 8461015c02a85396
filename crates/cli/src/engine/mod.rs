//! `virus-wars engine`: the line protocol for bots and GUIs
//! (docs/engine-protocol.md). Searches run on their own thread; the loop
//! keeps reading commands, so `stop`, `isready` and `quit` answer at once.

mod command;

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use anyhow::Result;
use virus_wars_ai::{score, Player, PlayerSpec, SearchHandle, SearchInfo, StopFlag};
use virus_wars_rules::notation::format_turn;
use virus_wars_rules::{diagram, position_string, AnyPosition, Game, Step, Variant};

use crate::variant_args::VariantArgs;
use command::{Command, Go, Start};

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) {
    // A closed output means the other side went away; there is no one to tell.
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// A search in progress: its stop flag and the thread that prints its result.
struct Running {
    stop: StopFlag,
    /// When set, the result is not printed (a ponder search replaced by `ponderhit`).
    silent: Arc<AtomicBool>,
    /// Set by the waiter once the search has ended, before it prints `bestturn`.
    done: Arc<AtomicBool>,
    waiter: JoinHandle<Box<dyn Player>>,
    ponder: Option<Go>,
}

struct Engine {
    out: Out,
    variant: Variant,
    game: Game,
    spec: PlayerSpec,
    player: Option<Box<dyn Player>>,
    running: Option<Running>,
}

/// Runs the protocol until `quit` or the end of the input.
pub fn run(input: impl BufRead, output: Box<dyn Write + Send>) -> Result<()> {
    let variant = Variant::default();
    let spec: PlayerSpec = "level:8".parse().expect("level 8 exists");
    let mut engine = Engine {
        out: Arc::new(Mutex::new(output)),
        game: Game::new(variant.clone())?,
        variant,
        player: Some(spec.build().0),
        spec,
        running: None,
    };
    for line in input.lines() {
        let line = line?;
        match command::parse(&line) {
            Ok(None) => {}
            Ok(Some(Command::Quit)) => break,
            Ok(Some(c)) => {
                if let Err(message) = engine.handle(c) {
                    say(&engine.out, &format!("error {message}"));
                }
            }
            Err(message) => say(&engine.out, &format!("error {message}")),
        }
    }
    engine.finish_search();
    Ok(())
}

impl Engine {
    fn handle(&mut self, c: Command) -> Result<(), String> {
        // Reap a search that ended on its own, to get the player back: a
        // client may answer `bestturn` before the waiter thread has returned.
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.done.load(Ordering::Acquire))
        {
            self.finish_search();
        }
        let busy = self.running.is_some();
        match c {
            Command::Hello => {
                for line in [
                    format!("id name virus-wars {}", env!("CARGO_PKG_VERSION")),
                    "id author the virus-wars developers".to_string(),
                    format!("option name Player type string default {}", self.spec),
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
                    self.spec = value.parse::<PlayerSpec>().map_err(|e| e.to_string())?;
                    self.player = Some(self.spec.build().0);
                }
                _ => return Err(format!("unknown option '{name}': the engine has Player")),
            },
            Command::Variant { preset, overrides } => {
                self.variant = build_variant(&preset, &overrides)?;
                self.game = Game::new(self.variant.clone()).map_err(|e| e.to_string())?;
            }
            Command::NewGame => {
                if let Some(p) = self.player.as_mut() {
                    p.new_game();
                }
                self.game = Game::new(self.variant.clone()).map_err(|e| e.to_string())?;
            }
            Command::Position { start, moves } => self.set_position(start, moves)?,
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
                let steps: Vec<String> = self
                    .game
                    .position()
                    .legal_steps()
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                say(&self.out, &format!("legal {}", steps.join(" ")));
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
            Start::StartPos => Game::new(self.variant.clone()).map_err(|e| e.to_string())?,
            Start::Set(text) => {
                let p = position_string::read(&text).map_err(|e| format!("position: {e}"))?;
                let v = Variant {
                    width: p.width(),
                    height: p.height(),
                    rules: p.rules(),
                    ..self.variant.clone()
                };
                Game::from_position(v, p)
            }
        };
        for (k, step) in moves.into_iter().enumerate() {
            game.play(step)
                .map_err(|e| format!("step {} ({step}): {e}", k + 1))?;
        }
        self.game = game;
        Ok(())
    }

    fn go(&mut self, go: Go) -> Result<(), String> {
        let position = *self.game.position();
        if let Some(o) = position.outcome() {
            return Err(format!("the game is over ({o})"));
        }
        let player = self
            .player
            .take()
            .expect("the player is home when no search runs");
        let mut budget = go.budget_for(position.side() == virus_wars_rules::Side::X);
        if go.infinite || go.ponder {
            budget = virus_wars_ai::Budget::default();
        } else if budget.is_infinite() {
            budget = self.spec.build().1;
        }
        let out = self.out.clone();
        let handle = SearchHandle::start(player, position, budget, move |info: &SearchInfo| {
            say(&out, &info_line(&position, info));
        });
        let silent = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let (out, quiet, finished) = (self.out.clone(), silent.clone(), done.clone());
        let stop = handle.stop_flag();
        let waiter = std::thread::spawn(move || {
            let (player, result) = handle.wait();
            finished.store(true, Ordering::Release);
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
    let mut a = VariantArgs {
        variant: (preset != "custom").then(|| preset.to_string()),
        ..VariantArgs::default()
    };
    for (k, v) in overrides {
        let num = |what: &str| {
            v.parse::<u8>()
                .map_err(|_| format!("{what} must be a number, not '{v}'"))
        };
        let flag = || match v.as_str() {
            "yes" | "true" | "1" => Ok(true),
            "no" | "false" | "0" => Ok(false),
            _ => Err(format!("{k} is yes or no, not '{v}'")),
        };
        match k.as_str() {
            "size" => a.size = Some(v.clone()),
            "steps" => a.steps = Some(num("steps")?),
            "first" | "first-turn" => a.first_turn = Some(num("first")?),
            "start" => a.start = Some(v.clone()),
            "end" => a.end = Some(v.clone()),
            "deathmatch" => a.deathmatch = flag()?,
            "trenches" => a.trenches = Some(num("trenches")?),
            "double-base" => a.double_base = flag()?,
            "random-bases" => a.random_bases = flag()?,
            "obstacles" => a.obstacles = Some(v.replace(',', " ")),
            "seed" => a.seed = Some(v.parse().map_err(|_| format!("seed must be a number, not '{v}'"))?),
            _ => return Err(format!(
                "unknown variant key '{k}': expected size, steps, first, start, end, deathmatch, trenches, double-base, random-bases, obstacles or seed"
            )),
        }
    }
    a.build().map_err(|e| format!("{e:#}"))
}

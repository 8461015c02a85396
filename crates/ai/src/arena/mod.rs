//! The arena: many games between two contenders (built-in players or
//! external engines), with paired openings (each random opening played
//! twice, colours swapped), several games at once, a time limit per turn
//! (a turn late, an illegal step, or a crashed engine loses the game), and
//! statistics: Elo difference with a 95 % interval and an optional SPRT stop.

pub mod external;
pub mod stats;

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use virus_wars_rules::contest::Contest;
use virus_wars_rules::fog::Seen;
use virus_wars_rules::record::Record;
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{Game, Outcome, Side, Step, Variant};

use crate::budget::Budget;
use crate::fog;
use crate::player::Player;
use crate::search::StopFlag;
use crate::spec::{PlayerSpec, SpecError};
use external::ExternalEngine;
use stats::Tally;

/// Who plays: a built-in player spec, or `cmd:<shell command>` for an
/// external engine that speaks the engine protocol. In a fog game a
/// built-in player plays from its side's view alone (`fog::FogPlayer`);
/// `naive:SPEC` reads the hidden cells as empty, and `peek:SPEC` is given
/// the whole board (the ceiling a player that peeks would reach). Without
/// fog both are SPEC itself.
#[derive(Clone, Debug, PartialEq)]
pub enum Contender {
    BuiltIn(PlayerSpec),
    Naive(PlayerSpec),
    Peeking(PlayerSpec),
    External(String),
}

impl FromStr for Contender {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, SpecError> {
        match s.trim().strip_prefix("cmd:") {
            Some(cmd) if !cmd.trim().is_empty() => Ok(Contender::External(cmd.trim().to_string())),
            Some(_) => Err(SpecError::Option {
                spec: s.into(),
                message: "cmd: needs a command to run".into(),
            }),
            None => match (
                s.trim().strip_prefix("naive:"),
                s.trim().strip_prefix("peek:"),
            ) {
                (Some(spec), _) => spec.parse().map(Contender::Naive),
                (_, Some(spec)) => spec.parse().map(Contender::Peeking),
                _ => s.parse().map(Contender::BuiltIn),
            },
        }
    }
}

impl fmt::Display for Contender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contender::BuiltIn(spec) => spec.fmt(f),
            Contender::Naive(spec) => write!(f, "naive:{spec}"),
            Contender::Peeking(spec) => write!(f, "peek:{spec}"),
            Contender::External(cmd) => write!(f, "cmd:{cmd}"),
        }
    }
}

/// SPRT settings: H0 "A is `elo0` stronger", H1 "A is `elo1` stronger".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Debug)]
pub struct Config {
    pub a: Contender,
    pub b: Contender,
    pub games: u32,
    pub variant: Variant,
    /// Time per turn for both; a turn later than this plus [`GRACE`] loses.
    pub time_per_turn: Option<Duration>,
    /// Random steps played before the contenders take over (same for both games of a pair).
    pub opening_steps: u32,
    /// Games played at once.
    pub concurrency: usize,
    pub seed: u64,
    pub sprt: Option<Sprt>,
}

/// Lateness tolerated on top of the time per turn (process start-up, scheduling).
pub const GRACE: Duration = Duration::from_millis(250);

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    pub index: u32,
    /// Whether contender A played X.
    pub a_is_x: bool,
    pub outcome: Outcome,
    pub termination: String,
    pub record: Record,
}

impl GameReport {
    /// The result from A's point of view: 1, ½ or 0.
    pub fn a_points(&self) -> f64 {
        match self.outcome {
            Outcome::Draw => 0.5,
            Outcome::Win(s) if (s == Side::X) == self.a_is_x => 1.0,
            Outcome::Win(_) => 0.0,
        }
    }
}

/// Everything a match produced.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub games: Vec<GameReport>,
    /// Whether an SPRT bound stopped the match early, and which.
    pub sprt_decision: Option<&'static str>,
}

impl Report {
    /// A's results overall, or only in the games where A played `as_side`.
    pub fn tally(&self, as_side: Option<Side>) -> Tally {
        let mut t = Tally::default();
        for g in self
            .games
            .iter()
            .filter(|g| as_side.is_none_or(|s| (s == Side::X) == g.a_is_x))
        {
            match g.a_points() {
                p if p > 0.75 => t.wins += 1,
                p if p < 0.25 => t.losses += 1,
                _ => t.draws += 1,
            }
        }
        t
    }
}

/// How a built-in player meets the fog (see [`Contender`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Under {
    Fog,
    Naive,
    Peeking,
}

/// A contender ready to play, at the board (an entrant of the arena).
enum Entrant {
    BuiltIn {
        player: Box<dyn Player>,
        budget: Budget,
        under: Under,
        rng: SplitMix64,
    },
    External(Box<ExternalEngine>),
}

impl Entrant {
    fn open(c: &Contender) -> Result<Entrant, String> {
        let built = |spec: &PlayerSpec, under: Under| {
            let (player, budget) = spec.build();
            Entrant::BuiltIn {
                player,
                budget,
                under,
                rng: SplitMix64::new(0xF06),
            }
        };
        Ok(match c {
            Contender::BuiltIn(spec) => built(spec, Under::Fog),
            Contender::Naive(spec) => built(spec, Under::Naive),
            Contender::Peeking(spec) => built(spec, Under::Peeking),
            Contender::External(cmd) => Entrant::External(Box::new(
                ExternalEngine::start(cmd).map_err(|e| e.to_string())?,
            )),
        })
    }

    fn new_game(&mut self, v: &Variant) -> Result<(), String> {
        match self {
            Entrant::BuiltIn { player, .. } => {
                player.new_game();
                Ok(())
            }
            Entrant::External(e) => e.new_game(v).map_err(|e| e.to_string()),
        }
    }

    /// The rest of the turn at the end of `game`, or why the seat
    /// forfeits. Under fog a built-in player (but one that peeks) plays the
    /// turn a step at a time, each from what its side then knows.
    fn turn(&mut self, game: &Game, limit: Option<Duration>) -> Result<Vec<Step>, String> {
        let started = Instant::now();
        let p = game.position();
        let steps = match self {
            Entrant::BuiltIn {
                player,
                budget,
                under,
                rng,
            } if game.variant().fog && *under != Under::Peeking => {
                let mut b = *budget;
                if let Some(t) = limit {
                    b.time = Some(b.time.map_or(t, |own| own.min(t)));
                }
                fog_turn(player.as_mut(), game, b, *under, rng)
            }
            Entrant::External(e) if game.variant().fog => {
                // A step at a time, each from the view the last one left,
                // within what is left of the turn's time.
                let limit = limit.unwrap_or(Duration::from_secs(10));
                let mut g = game.clone();
                let (side, turn) = (p.side(), p.turn());
                let mut steps = Vec::new();
                while g.outcome().is_none()
                    && g.position().side() == side
                    && g.position().turn() == turn
                {
                    let left = limit.saturating_sub(started.elapsed());
                    let step = e
                        .fog_step(&Seen::of_game(&g), left, GRACE)
                        .map_err(|e| e.to_string())?;
                    g.play(step).map_err(|e| format!("step {step}: {e}"))?;
                    steps.push(step);
                }
                steps
            }
            Entrant::BuiltIn { player, budget, .. } => {
                let mut b = *budget;
                if let Some(t) = limit {
                    b.time = Some(b.time.map_or(t, |own| own.min(t)));
                }
                player.choose(p, &b, &StopFlag::new(), &mut |_| {}).steps
            }
            Entrant::External(e) => e
                .turn(p, limit.unwrap_or(Duration::from_secs(10)), GRACE)
                .map_err(|e| e.to_string())?,
        };
        if let Some(t) = limit {
            if started.elapsed() > t + GRACE {
                return Err(format!(
                    "time forfeit ({} ms for a {} ms turn)",
                    started.elapsed().as_millis(),
                    t.as_millis()
                ));
            }
        }
        Ok(steps)
    }
}

/// A fog turn played a step at a time ([`fog::play_turn`]), each step
/// chosen from what the side then knows: by determinization, or (`naive`)
/// on the view with its hidden cells empty, searched with the step's share
/// of what is left of the turn.
fn fog_turn(
    player: &mut dyn Player,
    game: &Game,
    budget: Budget,
    under: Under,
    rng: &mut SplitMix64,
) -> Vec<Step> {
    let stop = StopFlag::new();
    fog::play_turn(game, &budget, |seen, left| match under {
        Under::Naive => {
            let view = seen.view.as_if_empty();
            let share = fog::step_share(left, seen);
            player
                .weigh_step(&view, &share, &stop)
                .first()
                .map(|&(s, _)| s)
        }
        _ => fog::choose_step(player, seen, left, &stop, fog::SAMPLES, rng),
    })
}

/// Plays the match; `on_game` hears each game as it ends (from any thread).
pub fn run(
    config: &Config,
    on_game: &(dyn Fn(&GameReport, &Report) + Sync),
) -> Result<Report, String> {
    config.variant.check().map_err(|e| e.to_string())?;
    // Open both contenders once up front so that a bad command fails loudly.
    Entrant::open(&config.a)?;
    Entrant::open(&config.b)?;
    let next = AtomicU32::new(0);
    let halt = AtomicBool::new(false);
    let report = Mutex::new(Report::default());
    let workers = config.concurrency.clamp(1, config.games.max(1) as usize);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut seats: [Option<Entrant>; 2] = [None, None];
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= config.games || halt.load(Ordering::Relaxed) {
                        break;
                    }
                    let game = play_game(config, index, &mut seats);
                    let mut r = report
                        .lock()
                        .expect("no worker panics while holding the report");
                    r.games.push(game);
                    let last = r.games.last().expect("just pushed").clone();
                    if let Some(s) = config.sprt {
                        let llr = r.tally(None).llr(s.elo0, s.elo1);
                        let (lower, upper) = stats::sprt_bounds(s.alpha, s.beta);
                        let enough = r.tally(None).games() >= stats::MIN_SPRT_GAMES;
                        if r.sprt_decision.is_none() && enough && (llr <= lower || llr >= upper) {
                            r.sprt_decision = Some(if llr >= upper {
                                "H1 accepted"
                            } else {
                                "H0 accepted"
                            });
                            halt.store(true, Ordering::Relaxed);
                        }
                    }
                    on_game(&last, &r);
                }
            });
        }
    });
    let mut r = report
        .into_inner()
        .map_err(|_| "a game thread failed".to_string())?;
    r.games.sort_by_key(|g| g.index);
    Ok(r)
}

/// The random opening of pair `pair`: the same steps for both of its games.
fn opening(config: &Config, pair: u32) -> Game {
    random_opening(&config.variant, config.seed, config.opening_steps, pair)
}

/// `steps` random legal steps from the start of `variant`, the same for the
/// same `seed` and `pair` (which must describe a valid variant).
pub fn random_opening(variant: &Variant, seed: u64, steps: u32, pair: u32) -> Game {
    let mut game = Game::new(variant.clone()).expect("variant was checked");
    let mut rng = SplitMix64::new(seed ^ (pair as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    for _ in 0..steps {
        let steps = game.position().legal_steps();
        if steps.is_empty() || game.outcome().is_some() {
            break;
        }
        let step = steps[rng.below(steps.len() as u32) as usize];
        game.play(step).expect("legal");
    }
    game
}

fn play_game(config: &Config, index: u32, seats: &mut [Option<Entrant>; 2]) -> GameReport {
    let a_is_x = index % 2 == 0;
    let game = opening(config, index / 2);
    let contenders = [&config.a, &config.b];
    // seats[0] is A, seats[1] is B; side X is A when a_is_x.
    let seat_of = |side: Side| if (side == Side::X) == a_is_x { 0 } else { 1 };
    let mut forfeit: Option<(Side, String)> = None;
    for (k, seat) in seats.iter_mut().enumerate() {
        let ready = match seat.take() {
            Some(s) => Ok(s),
            None => Entrant::open(contenders[k]),
        }
        .and_then(|mut s| s.new_game(&config.variant).map(|_| s));
        match ready {
            Ok(s) => *seat = Some(s),
            Err(e) => {
                let side = if (k == 0) == a_is_x { Side::X } else { Side::O };
                forfeit.get_or_insert((side, format!("could not start: {e}")));
            }
        }
    }
    // The referee takes each answer as one turn, all or nothing.
    let mut contest = Contest::new(game, None);
    while forfeit.is_none() && contest.game.outcome().is_none() {
        let side = contest.side_to_move();
        let k = seat_of(side);
        let Some(seat) = seats[k].as_mut() else { break };
        match seat.turn(&contest.game, config.time_per_turn) {
            Err(e) => {
                seats[k] = None; // a failed engine is restarted for the next game
                forfeit = Some((side, e));
            }
            Ok(steps) if steps.is_empty() => forfeit = Some((side, "no step played".into())),
            Ok(steps) => {
                if let Err(e) = contest.play(side, contest.seq(), &steps, 0) {
                    forfeit = Some((side, e.to_string()));
                }
            }
        }
    }
    let game = contest.game;
    let (outcome, termination) = match (forfeit, game.outcome()) {
        (Some((loser, why)), _) => (Outcome::Win(!loser), why),
        (None, Some(o)) => (o, Record::new(game.clone()).termination),
        (None, None) => (Outcome::Draw, "abandoned".into()),
    };
    let mut record = Record::new(game);
    record.event = "virus-wars arena".into();
    record.site = format!("game {}", index + 1);
    let (xn, on) = if a_is_x {
        (&config.a, &config.b)
    } else {
        (&config.b, &config.a)
    };
    record.x_player = xn.to_string();
    record.o_player = on.to_string();
    record.result = Some(outcome);
    record.termination = termination.clone();
    record.time_control = config
        .time_per_turn
        .map_or("-".into(), |t| format!("{}ms/turn", t.as_millis()));
    GameReport {
        index,
        a_is_x,
        outcome,
        termination,
        record,
    }
}

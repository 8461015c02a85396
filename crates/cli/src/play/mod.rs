//! `virus-wars play`: a game at this terminal, full-screen (ratatui) on a
//! terminal, plain text otherwise or with `--plain`.

pub mod command;
pub mod plain;
pub mod review;
pub mod session;
pub mod shown;
pub mod symbols;
pub mod tui;

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use virus_wars_ai::PlayerSpec;
use virus_wars_rules::{Game, Side};

use crate::variant_args::VariantArgs;
use session::Session;

#[derive(Args, Debug, Default)]
pub struct PlayArgs {
    /// Play against this computer player (e.g. level:5, mcts:time=1s); skips the menu.
    #[arg(long, value_name = "SPEC")]
    pub vs: Option<String>,
    /// Play against level N (1-9): the same as --vs level:N.
    #[arg(long, value_name = "N", conflicts_with = "vs")]
    pub level: Option<u8>,
    /// Your side against the computer: x (moves first) or o.
    #[arg(long = "as", value_name = "SIDE", default_value = "x")]
    pub side: String,
    /// Two people on one keyboard; skips the menu.
    #[arg(long, conflicts_with_all = ["vs", "level"])]
    pub two_players: bool,
    /// Watch two computers: the player for X (with --o-player for O).
    #[arg(long, value_name = "SPEC", requires = "o_player", conflicts_with_all = ["vs", "level", "two_players"])]
    pub x_player: Option<String>,
    /// Watch two computers: the player for O.
    #[arg(long, value_name = "SPEC", requires = "x_player")]
    pub o_player: Option<String>,
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Continue a saved game record (.vwr); its tags give the variant.
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    /// Plain text, one line of input at a time (the default when stdin or
    /// stdout is not a terminal).
    #[arg(long)]
    pub plain: bool,
}

impl PlayArgs {
    /// Whether the flags already say who plays (so no menu is needed).
    pub fn chooses_seats(&self) -> bool {
        self.vs.is_some()
            || self.level.is_some()
            || self.two_players
            || self.x_player.is_some()
            || self.load.is_some()
    }

    /// The seats the flags ask for: None is a person. Without any, a person
    /// (X) against level 4.
    pub fn seats(&self) -> Result<[Option<PlayerSpec>; 2]> {
        let parse = |s: &str| s.parse::<PlayerSpec>().map_err(anyhow::Error::msg);
        if let (Some(x), Some(o)) = (&self.x_player, &self.o_player) {
            return Ok([
                Some(parse(x).context("--x-player")?),
                Some(parse(o).context("--o-player")?),
            ]);
        }
        if self.two_players {
            return Ok([None, None]);
        }
        let computer = match (&self.vs, self.level) {
            (Some(spec), _) => parse(spec).context("--vs")?,
            (None, Some(n)) => parse(&format!("level:{n}")).context("--level")?,
            (None, None) if self.load.is_some() => return Ok([None, None]),
            (None, None) => PlayerSpec::Level(4),
        };
        let me = parse_side(&self.side)?;
        let mut seats = [None, None];
        seats[(!me).index()] = Some(computer);
        Ok(seats)
    }

    /// The game to play: a loaded record (whose tags give the variant) or
    /// the start of the variant the flags describe, with the seats.
    pub fn session(&self) -> Result<Session> {
        let seats = self.seats()?;
        let session = self.seated(seats)?;
        // One screen cannot hide each side's board from the other.
        let people = session.computers.iter().filter(|c| c.is_none()).count();
        if people == 2 && session.game().variant().fog && session.ending().is_none() {
            bail!("a fog game needs each side's board hidden from the other, which one screen cannot do: play it against the computer here (--level N), or with a friend online (virus-wars serve)");
        }
        Ok(session)
    }

    fn seated(&self, seats: [Option<PlayerSpec>; 2]) -> Result<Session> {
        match &self.load {
            Some(path) => {
                if self.variant.any_given() {
                    bail!("variant flags cannot be combined with --load: the record's tags give its variant");
                }
                let mut session = Session::new(Game::new(Default::default())?, seats);
                session.load(path).map_err(anyhow::Error::msg)?;
                Ok(session)
            }
            None => {
                let mut variant = self.variant.build()?;
                if variant.hides_layout() {
                    // Else the hidden trenches and bases could be laid out
                    // beforehand from the seed.
                    if self.variant.seed.is_some() {
                        bail!("--seed: a fog game's trenches and random bases are laid out from a seed drawn at random that nobody sees (else their layout would be known): leave --seed out");
                    }
                    variant = variant.laid_out_anew(crate::play::random_seed());
                }
                Ok(Session::new(Game::new(variant)?, seats))
            }
        }
    }
}

/// `x` or `o`.
pub fn parse_side(text: &str) -> Result<Side> {
    match text.trim().to_ascii_lowercase().as_str() {
        "x" => Ok(Side::X),
        "o" => Ok(Side::O),
        other => bail!("--as takes x or o, not '{other}'"),
    }
}

pub fn run(args: PlayArgs) -> Result<()> {
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if args.plain || !terminal {
        let mut session = args.session()?;
        let stdin = std::io::stdin();
        return plain::run(&mut session, stdin.lock(), crate::output::Stdout);
    }
    tui::run(args)
}

/// A seed drawn from the operating system, for a layout nobody may know.
pub fn random_seed() -> u64 {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).expect("the operating system's random generator works");
    u64::from_le_bytes(b)
}

//! `virus-wars bot`: an engine-protocol program plays on a server (quick
//! play or an invite), one line per finished game.

use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde_json::{json, Map, Value};
use virus_wars_client::bot::{self, BotPlan, Identity};
use virus_wars_client::http::Server;

#[derive(Args, Debug)]
pub struct BotArgs {
    /// The server, e.g. http://127.0.0.1:8080 or https://virus-wars.example.org
    /// (certificates checked against the system's roots and SSL_CERT_FILE's)
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// The engine's command line, e.g. "virus-wars engine" or "./my-bot --fast".
    #[arg(long, value_name = "CMD")]
    pub engine: String,
    /// The bot's token (or VW_BOT_TOKEN).
    #[arg(
        long,
        env = "VW_BOT_TOKEN",
        hide_env_values = true,
        conflicts_with = "register"
    )]
    pub token: Option<String>,
    /// Register a new bot under this name; its token is printed once (on stderr).
    #[arg(long, value_name = "NAME")]
    pub register: Option<String>,
    /// Games to play one after another (quick play).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub games: u64,
    /// Play this game (an invite code) instead of quick play.
    #[arg(long, value_name = "ID", conflicts_with = "tournament")]
    pub join: Option<String>,
    /// Join this tournament (its id) and play every game it pairs the bot
    /// in, until it is over (--games is not counted).
    #[arg(long, value_name = "ID")]
    pub tournament: Option<String>,
    /// Quick play: the variant preset.
    #[arg(long, default_value = "classic")]
    pub variant: String,
    /// Quick play: a variant option, key=value (size=8x8, steps=2, …); repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Quick play: a Fischer clock, BASE+INC in seconds (e.g. 180+2); none by default.
    #[arg(long, value_name = "BASE+INC")]
    pub clock: Option<String>,
    /// Thinking time per turn in untimed games, in ms.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(10..=600_000))]
    pub move_time_ms: u64,
}

fn settings(args: &BotArgs) -> Result<Value> {
    let mut s = Map::new();
    s.insert("variant".into(), json!(args.variant));
    for option in &args.options {
        let Some((k, v)) = option.split_once('=') else {
            bail!("--option takes key=value (like size=8x8), not '{option}'");
        };
        s.insert(k.trim().into(), json!(v.trim()));
    }
    if let Some(clock) = &args.clock {
        let bad = || anyhow::anyhow!("--clock is BASE+INC in seconds (like 180+2), not '{clock}'");
        let (base, inc) = clock.split_once('+').ok_or_else(bad)?;
        let base: f64 = base.trim().parse().map_err(|_| bad())?;
        let inc: f64 = inc.trim().parse().map_err(|_| bad())?;
        s.insert("clock".into(), json!({"base_s": base, "inc_s": inc}));
    }
    Ok(Value::Object(s))
}

pub fn run(args: BotArgs) -> Result<()> {
    if !(args.server.starts_with("http://") || args.server.starts_with("https://")) {
        bail!(
            "--server must start with http:// or https:// (e.g. https://virus-wars.example.org), not '{}'",
            args.server
        );
    }
    let server = Server::new(&args.server).map_err(|e| anyhow::anyhow!("--server: {e}"))?;
    let identity = match (&args.token, &args.register) {
        (Some(t), _) => Identity::Token(t.clone()),
        (None, Some(name)) => Identity::Register(name.clone()),
        (None, None) => bail!(
            "the bot needs a token: --register NAME for a new one, or --token TOKEN (or VW_BOT_TOKEN)"
        ),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let plan = BotPlan {
            server: server.clone(),
            engine: args.engine.clone(),
            identity,
            games: args.games,
            join: args.join.clone(),
            tournament: args.tournament.clone(),
            settings: settings(&args)?,
            move_time: Duration::from_millis(args.move_time_ms),
        };
        let name = args.register.clone().unwrap_or_default();
        let mut failed = None;
        bot::run(
            plan,
            |token| {
                eprintln!(
                    "registered bot '{name}'; its token, shown only this once (use --token or VW_BOT_TOKEN next time): {token}"
                )
            },
            |played| {
                if let Err(e) = crate::outln!("{played}") {
                    failed.get_or_insert(e);
                }
            },
        )
        .await
        .map_err(anyhow::Error::msg)?;
        match failed {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    })
}

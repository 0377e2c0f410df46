//! The `bredon` command line: one binary, a subcommand per job (DESIGN.md's CLI contracts).

mod analyze;
pub mod engine;
mod ground;
mod label;
mod local;
mod perft;
mod puzzles;
mod render;
mod replay;
mod reshard;
mod tinue;
mod web;

use clap::{Parser, Subcommand};
use ground::{analysis_per_position, data_dir, database_url, playtak_api, Failure};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "bredon",
    version,
    about = "Bredon: correspondence Tak on Discord, and its tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the Discord bot (the default).
    Run(RunArgs),
    /// Play in the terminal as named users, through the same service as the bot.
    Local(local::Args),
    /// Write every record of the database to a JSON file.
    Backup {
        /// The file to write.
        file: std::path::PathBuf,
    },
    /// Move every record of a data folder into the PostgreSQL database of
    /// BREDON_DATABASE_URL (which must be empty). Stop the bot first.
    Migrate {
        /// The data folder (the bot's BREDON_DATA).
        #[arg(long)]
        from: std::path::PathBuf,
    },
    /// Make Discord's slash commands this build's, without starting the bot (a deploy step;
    /// the process that runs shard 0 also does it when it starts).
    Register,
    /// New data folders for a new shard count, from every folder of the old one (every
    /// process stopped; the old folders are only read).
    Reshard(reshard::Args),
    /// The built-in engine over the Tak Engine Interface on stdin/stdout.
    Tei,
    /// Analyse a finished Tak game: marks (??, ?, !) and comments, an evaluation chart.
    Analyze(analyze::Args),
    /// Fit the evaluation's weights to games' results or labelled positions (Texel's method).
    Tune(engine::TuneArgs),
    /// Label games' quiet positions with a teacher engine's chances, for `tune --labels`.
    Label(label::LabelArgs),
    /// Play engines against each other: random, easy, medium, hard or tei:PROGRAM.
    Match(engine::MatchArgs),
    /// Count the leaves of the tree of legal plies, one line per depth: `DEPTH COUNT`.
    Perft(perft::Args),
    /// Draw a position as PNG (or a whole game as GIF).
    Render(render::Args),
    /// Replay a PTN game and print the final TPS and result (or JSON with every ply).
    Replay(replay::Args),
    /// Whether the side to move forces a road by threats alone (Tinuë): `tinue PLY...`,
    /// `no tinue` or `unknown`.
    Tinue(tinue::Args),
    /// Serve the read-only web pages alone (BREDON_WEB_ADDR, default 127.0.0.1:8080), from the
    /// same store as the bot (with sled, only while the bot is stopped: `bredon run` serves
    /// them itself when BREDON_WEB_ADDR is set).
    Web,
    /// Puzzles: `mine` finds them in games.
    #[command(subcommand)]
    Puzzles(puzzles::Command),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli.command.unwrap_or(Command::Run(RunArgs::default()));
    if !matches!(command, Command::Run(_)) {
        quiet_on_closed_pipe();
    }
    let result = match command {
        Command::Run(args) => run_bot(args),
        Command::Perft(args) => perft::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Tinue(args) => tinue::run(args),
        Command::Puzzles(command) => puzzles::run(command),
        Command::Render(args) => render::run(args),
        Command::Local(args) => local::run(args),
        Command::Tei => engine::run_tei(),
        Command::Match(args) => engine::run_match(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Tune(args) => engine::run_tune(args),
        Command::Label(args) => label::run_label(args),
        Command::Backup { file } => backup(&file),
        Command::Migrate { from } => migrate(&from),
        Command::Reshard(args) => reshard::run(args),
        Command::Register => register(),
        Command::Web => open_store().and_then(|(store, name)| web::run(store, name)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("bredon: {}", failure.message);
            ExitCode::from(failure.code)
        }
    }
}

/// A command whose reader goes away (`bredon replay - | head -1`) ends quietly, as Unix tools
/// do, instead of panicking on its next line: Rust ignores SIGPIPE, so the default comes back.
/// The bot keeps ignoring it (a closed log pipe must not stop it), and so does a command once
/// it starts a TEI engine (`tei::Client::spawn`: an engine that exits must be reported).
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The bot's store: PostgreSQL when `BREDON_DATABASE_URL` is set, else the `BREDON_DATA` folder;
/// and its name for messages (never the URL, which may hold a password).
fn open_store() -> Result<(crate::store::Store, String), Failure> {
    let (store, name) = match database_url() {
        Some(url) => (
            crate::store::Store::connect(&url),
            "the PostgreSQL database of BREDON_DATABASE_URL".to_string(),
        ),
        None => {
            let dir = data_dir();
            (crate::store::Store::open(&dir), dir.display().to_string())
        }
    };
    Ok((store.map_err(|e| Failure::new(1, e.to_string()))?, name))
}

fn backup(file: &std::path::Path) -> Result<(), Failure> {
    let (store, name) = open_store()?;
    let rows = store
        .backup(file)
        .map_err(|e| Failure::new(1, e.to_string()))?;
    println!("wrote {rows} records from {name} to {}", file.display());
    Ok(())
}

/// `bredon migrate`: every record of a sled folder into the (empty) PostgreSQL database.
fn migrate(from: &std::path::Path) -> Result<(), Failure> {
    let Some(url) = database_url() else {
        return Err(Failure::new(
            2,
            "set BREDON_DATABASE_URL to the PostgreSQL database to move the records into \
             (postgres://user:password@host/database)",
        ));
    };
    let source = crate::store::Store::open(from).map_err(|e| Failure::new(1, e.to_string()))?;
    let target = crate::store::Store::connect(&url).map_err(|e| Failure::new(1, e.to_string()))?;
    let counts = source
        .copy_into(&target)
        .map_err(|e| Failure::new(1, e.to_string()))?;
    let total: usize = counts.iter().map(|(_, n)| n).sum();
    let trees: Vec<String> = counts
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(t, n)| format!("{t} {n}"))
        .collect();
    println!(
        "moved {total} records from {} into PostgreSQL ({}); every tree counted again there. \
         Start the bot with BREDON_DATABASE_URL set; keep the folder as a backup.",
        from.display(),
        trees.join(", ")
    );
    Ok(())
}

const NO_TOKEN: &str = "no Discord token: set DISCORD_TOKEN in the environment or in a .env file \
(cp .env.example .env, then paste the token). To get one: https://discord.com/developers/applications \
-> New Application -> Bot -> Reset Token (README: Setting up Discord). \
To play without Discord: `bredon local`.";

#[derive(clap::Args, Default)]
struct RunArgs {
    /// Total number of shards (default: as many as Discord recommends, all in this process).
    #[arg(long)]
    shards: Option<u32>,
    /// The shards this process runs: A..B (B not included) or A..=B. Needs --shards.
    #[arg(long)]
    shard_range: Option<String>,
}

/// `DISCORD_TOKEN` (from the environment or `.env`), or what to do without one.
fn token() -> Result<String, Failure> {
    // A missing .env is fine; the environment may have everything.
    let _ = dotenvy::dotenv();
    let token = std::env::var("DISCORD_TOKEN").unwrap_or_default();
    match token.trim() {
        "" => Err(Failure::new(2, NO_TOKEN)),
        token => Ok(token.to_string()),
    }
}

/// `DISCORD_GUILD_ID`: the one server to register the commands in, if set.
fn command_guild() -> Result<Option<u64>, Failure> {
    match std::env::var("DISCORD_GUILD_ID") {
        Ok(g) if !g.trim().is_empty() => Ok(Some(g.trim().parse::<u64>().map_err(|_| {
            Failure::new(2, format!("DISCORD_GUILD_ID `{g}` is not a server id (a number: right-click the server -> Copy Server ID)"))
        })?)),
        _ => Ok(None),
    }
}

/// Where REST goes instead of Discord: a REST proxy shared by several processes keeps Discord's
/// rate limits for all of them (`DISCORD_PROXY_URL`); `DISCORD_API_BASE` is the tests' fake.
fn api_base() -> Option<String> {
    ["DISCORD_PROXY_URL", "DISCORD_API_BASE"]
        .iter()
        .find_map(|name| std::env::var(name).ok().filter(|b| !b.trim().is_empty()))
}

fn async_runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::new(1, format!("cannot start the async runtime: {e}")))
}

fn register() -> Result<(), Failure> {
    let token = token()?;
    let guild = command_guild()?;
    let wrote = async_runtime()?
        .block_on(crate::bot::register_commands(
            &token,
            api_base().as_deref(),
            guild,
        ))
        .map_err(|e| Failure::new(1, e))?;
    let scope = match guild {
        Some(g) => format!("in server {g}"),
        None => "for every server".into(),
    };
    match wrote {
        true => println!("slash commands registered {scope}"),
        false => println!("slash commands already registered {scope}: nothing to change"),
    }
    Ok(())
}

fn run_bot(args: RunArgs) -> Result<(), Failure> {
    let token = token()?;
    let shards = crate::bot::Shards::parse(args.shards, args.shard_range.as_deref())
        .map_err(|e| Failure::new(2, e))?;
    let guild = command_guild()?;
    let tick = std::env::var("BREDON_TICK_SECS")
        .ok()
        .and_then(|t| t.parse::<f64>().ok())
        .unwrap_or(30.0);
    // Discord wants a first response within 3 s; past this, Bredon defers (tests force 0).
    let defer_ms = std::env::var("BREDON_DEFER_MS")
        .ok()
        .and_then(|t| t.parse::<u64>().ok())
        .unwrap_or(1500)
        .min(2500);
    // Two processes' turns at Discord's gateway are 6 s apart; tests against a fake that
    // allows IDENTIFYs closer together shorten it, so a restart does not wait on the wall clock.
    let identify_spacing_ms = std::env::var("BREDON_IDENTIFY_SPACING_MS")
        .ok()
        .and_then(|t| t.parse::<u64>().ok())
        .unwrap_or(6_000);
    let typed_plies = std::env::var("BREDON_TYPED_PLIES").unwrap_or_default();
    let typed_plies =
        crate::bot::TypedPlies::parse(&typed_plies).map_err(|e| Failure::new(2, e))?;
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("RUST_LOG")
                .unwrap_or_else(|_| "bredon=info,serenity=warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let config = crate::bot::Config {
        token,
        web_addr: web::address()?,
        web_rate_limit: web::rate_limit()?,
        web_url: web::public_url()?,
        api_base: api_base(),
        gateway_url: std::env::var("BREDON_GATEWAY_URL")
            .ok()
            .filter(|u| !u.trim().is_empty()),
        guild,
        data: data_dir(),
        database_url: database_url(),
        shards,
        tick: std::time::Duration::from_secs_f64(tick.max(0.05)),
        defer_after: std::time::Duration::from_millis(defer_ms),
        identify_spacing: std::time::Duration::from_millis(identify_spacing_ms),
        analysis_per_position: analysis_per_position(),
        playtak: playtak_api()?,
        typed_plies,
        waits: crate::bot::Waits::from_env(|name| std::env::var(name).ok())
            .map_err(|e| Failure::new(2, e))?,
    };
    async_runtime()?
        .block_on(crate::bot::run(config))
        .map_err(|e| Failure::new(1, e))
}

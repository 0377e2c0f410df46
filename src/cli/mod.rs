//! The `bredon` command line: one binary, a subcommand per job (DESIGN.md's CLI contracts).

mod local;
mod perft;
mod render;
mod replay;

use clap::{Parser, Subcommand};
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
    Run,
    /// Play in the terminal as named users, through the same service as the bot.
    Local(local::Args),
    /// Write every record of the database to a JSON file.
    Backup {
        /// The file to write.
        file: std::path::PathBuf,
    },
    /// Count the leaves of the tree of legal plies, one line per depth: `DEPTH COUNT`.
    Perft(perft::Args),
    /// Draw a position as PNG (or a whole game as GIF).
    Render(render::Args),
    /// Replay a PTN game and print the final TPS and result (or JSON with every ply).
    Replay(replay::Args),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command.unwrap_or(Command::Run) {
        Command::Run => run_bot(),
        Command::Perft(args) => perft::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Render(args) => render::run(args),
        Command::Local(args) => local::run(args),
        Command::Backup { file } => backup(&file),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("bredon: {}", failure.message);
            ExitCode::from(failure.code)
        }
    }
}

/// A command's failure: what to tell the user and the exit code.
pub struct Failure {
    pub message: String,
    pub code: u8,
}

impl Failure {
    pub fn new(code: u8, message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code,
        }
    }
}

/// The database folder: `BREDON_DATA`, default `./data`.
pub fn data_dir() -> std::path::PathBuf {
    std::env::var_os("BREDON_DATA").map_or_else(|| "./data".into(), Into::into)
}

fn backup(file: &std::path::Path) -> Result<(), Failure> {
    let dir = data_dir();
    let store = crate::store::Store::open(&dir).map_err(|e| Failure::new(1, e.to_string()))?;
    let rows = store
        .backup(file)
        .map_err(|e| Failure::new(1, e.to_string()))?;
    println!(
        "wrote {rows} records from {} to {}",
        dir.display(),
        file.display()
    );
    Ok(())
}

const NO_TOKEN: &str = "no Discord token: set DISCORD_TOKEN in the environment or in .env \
(copy .env.example to .env). Create a bot at https://discord.com/developers/applications \
(README: Setting up Discord). Without Discord, the rules tools work now: \
`bredon perft --size 6 --depth 4`, `bredon replay game.ptn`.";

fn run_bot() -> Result<(), Failure> {
    let token = std::env::var("DISCORD_TOKEN").unwrap_or_default();
    if token.trim().is_empty() {
        return Err(Failure::new(2, NO_TOKEN));
    }
    Err(Failure::new(
        2,
        "this build has no Discord layer yet (README: Status); the rules tools work: \
         `bredon perft`, `bredon replay`",
    ))
}

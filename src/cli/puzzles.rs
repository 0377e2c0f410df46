use super::Failure;
use crate::engine::puzzles::mine;
use crate::tak::PtnFile;
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Subcommand)]
pub enum Command {
    /// Find "play and win" puzzles (a Tinuë with one or two winning first plies) in PTN games,
    /// one JSON object a line.
    Mine(MineArgs),
}

#[derive(clap::Args)]
pub struct MineArgs {
    /// PTN files, each holding one game or several (`bredon match --ptn` writes such files).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The solver's budget per position, in proof-tree nodes.
    #[arg(long, default_value_t = 200_000)]
    nodes: usize,
    /// Write the puzzles here instead of to standard output.
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(command: Command) -> Result<(), Failure> {
    let Command::Mine(args) = command;
    let mut seen = HashSet::new();
    let mut lines = Vec::new();
    let mut games = 0;
    for file in &args.files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| Failure::new(1, format!("cannot read {}: {e}", file.display())))?;
        let parsed = PtnFile::parse_all(&text)
            .map_err(|e| Failure::new(1, format!("{}: {e}", file.display())))?;
        for (n, ptn) in parsed.iter().enumerate() {
            let origin = format!("{} game {}", file.display(), n + 1);
            let game = match ptn.replay() {
                Ok(game) => game,
                Err(e) => {
                    eprintln!("bredon: warning: {origin} passed over: {e}");
                    continue;
                }
            };
            games += 1;
            for puzzle in mine(&game, &origin, args.nodes) {
                if seen.insert(puzzle.tps.clone()) {
                    lines.push(serde_json::to_string(&puzzle).expect("puzzles serialize"));
                }
            }
        }
    }
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    match &args.out {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| Failure::new(1, format!("cannot write {}: {e}", path.display())))?,
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(|e| Failure::new(1, e.to_string()))?,
    }
    eprintln!("{} puzzles from {games} games", lines.len());
    Ok(())
}

use super::ground::Failure;
use crate::engine::gaelet::mine_gaelets;
use crate::engine::puzzles::{mine, refine, Puzzle};
use crate::engine::survival::mine_survival;
use crate::game::Kind;
use crate::store::Store;
use crate::tak::PtnFile;
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Subcommand)]
pub enum Command {
    /// Find "play and win" puzzles (a Tinuë with one or two winning first plies) in PTN games,
    /// one JSON object a line.
    Mine(MineArgs),
    /// Give each puzzle of a file its shortest forced line (no position twice), retiring those
    /// with none within 21 plies; the same file always gives the same result.
    Refine(RefineArgs),
}

#[derive(clap::Args)]
pub struct RefineArgs {
    /// A puzzle file, one JSON object a line (`assets/puzzles.jsonl`).
    file: PathBuf,
    /// The search's budget per puzzle, in positions.
    #[arg(long, default_value_t = 200_000)]
    nodes: usize,
    /// Write the puzzles here instead of to standard output.
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct MineArgs {
    /// PTN files, each holding one game or several (`bredon match --ptn` writes such files).
    #[arg(required_unless_present = "archive")]
    files: Vec<PathBuf>,
    /// Also every finished Tak game in this Bredon data folder (`BREDON_DATA`; stop the bot
    /// first), but those of servers that opted out with `/settings puzzle_mining:false`.
    #[arg(long)]
    archive: Option<PathBuf>,
    /// The solver's budget per position, in proof-tree nodes.
    #[arg(long, default_value_t = 200_000)]
    nodes: usize,
    /// Write the puzzles here instead of to standard output.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Mine "play and survive" puzzles (a threatened Tinuë to escape) instead of "play and win".
    #[arg(long, conflicts_with = "flats")]
    survive: bool,
    /// Mine "play and win on flats" puzzles (Gaelets: a win on flats forced within five plies)
    /// instead of "play and win".
    #[arg(long)]
    flats: bool,
    /// Add the new puzzles to the end of `--out` (those it has already are left out), so the
    /// puzzles there keep their numbers.
    #[arg(long, requires = "out")]
    append: bool,
}

pub fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Mine(args) => run_mine(args),
        Command::Refine(args) => run_refine(args),
    }
}

fn read(path: &std::path::Path) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| Failure::new(1, format!("cannot read {}: {e}", path.display())))
}

fn write(out: Option<&std::path::Path>, text: &str) -> Result<(), Failure> {
    match out {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| Failure::new(1, format!("cannot write {}: {e}", path.display()))),
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(|e| Failure::new(1, e.to_string())),
    }
}

/// The puzzles of a file, one JSON object a line.
fn puzzles_of(path: &std::path::Path) -> Result<Vec<Puzzle>, Failure> {
    read(path)?
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l)
                .map_err(|e| Failure::new(1, format!("{} line {}: {e}", path.display(), i + 1)))
        })
        .collect()
}

fn run_refine(args: RefineArgs) -> Result<(), Failure> {
    let mut text = String::new();
    let mut retired = 0;
    for (i, puzzle) in puzzles_of(&args.file)?.iter().enumerate() {
        let refined = refine(puzzle, args.nodes)
            .map_err(|e| Failure::new(1, format!("puzzle {}: {e}", i + 1)))?;
        if let Some(why) = &refined.retired {
            retired += 1;
            eprintln!("puzzle {} retired: {why}", i + 1);
        }
        text.push_str(&serde_json::to_string(&refined).expect("puzzles serialize"));
        text.push('\n');
    }
    write(args.out.as_deref(), &text)?;
    eprintln!("{retired} retired");
    Ok(())
}

fn run_mine(args: MineArgs) -> Result<(), Failure> {
    let mut seen = HashSet::new();
    let mut lines = Vec::new();
    let mut text = String::new();
    if let (true, Some(out)) = (args.append, &args.out) {
        if out.exists() {
            text = read(out)?;
            seen.extend(puzzles_of(out)?.into_iter().map(|p| p.tps));
        }
    }
    let mut games = 0;
    let mut mine_game = |game: &crate::tak::Game, origin: &str| {
        games += 1;
        let found = match (args.survive, args.flats) {
            (true, _) => mine_survival(game, origin, args.nodes),
            (_, true) => mine_gaelets(game, origin, args.nodes),
            _ => mine(game, origin, args.nodes),
        };
        for puzzle in found {
            if seen.insert(puzzle.tps.clone()) {
                lines.push(serde_json::to_string(&puzzle).expect("puzzles serialize"));
            }
        }
    };
    if let Some(dir) = &args.archive {
        for (origin, game) in archive_games(dir)? {
            mine_game(&game, &origin);
        }
    }
    for file in &args.files {
        let parsed = PtnFile::parse_all(&read(file)?)
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
            mine_game(&game, &origin);
        }
    }
    text.extend(lines.iter().map(|l| format!("{l}\n")));
    write(args.out.as_deref(), &text)?;
    eprintln!(
        "{} from {}",
        crate::words::count(lines.len() as u32, "puzzle"),
        crate::words::count(games as u32, "game")
    );
    Ok(())
}

/// The finished Tak games of a data folder whose servers allow mining, with their origins
/// ("server 7 game 12", as `/history` numbers it).
fn archive_games(dir: &std::path::Path) -> Result<Vec<(String, crate::tak::Game)>, Failure> {
    let store = Store::open(dir).map_err(|e| Failure::new(1, e.to_string()))?;
    let mut out = Vec::new();
    let mut refused = HashSet::new();
    for archived in store
        .archived_games()
        .map_err(|e| Failure::new(1, e.to_string()))?
    {
        if archived.settings.game != Kind::Tak || refused.contains(&archived.guild) {
            continue;
        }
        let settings = store
            .settings(archived.guild)
            .map_err(|e| Failure::new(1, e.to_string()))?;
        if !settings.puzzle_mining {
            refused.insert(archived.guild);
            continue;
        }
        let origin = format!("server {} game {}", archived.guild, archived.id);
        let game = PtnFile::parse_all(&archived.ptn)
            .ok()
            .and_then(|files| files.into_iter().next())
            .and_then(|ptn| ptn.replay().ok());
        match game {
            Some(game) => out.push((origin, game)),
            None => eprintln!("bredon: warning: {origin} passed over: its record does not replay"),
        }
    }
    if !refused.is_empty() {
        eprintln!(
            "{} passed over: their servers opted out of puzzle mining",
            crate::words::count(refused.len() as u32, "server")
        );
    }
    Ok(out)
}

use super::ground::Failure;
use crate::engine::Limits;
use crate::render::Theme;
use crate::service::analysis::{analyze_line, Judge};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// The PTN file of a Tak game, or `-` for standard input.
    #[arg(required_unless_present = "playtak", conflicts_with = "playtak")]
    file: Option<String>,
    /// A finished PlayTak game instead, by its number (fetched from `PLAYTAK_API_URL`).
    #[arg(long, value_name = "ID")]
    playtak: Option<u64>,
    /// Thinking time per position, in milliseconds.
    #[arg(long, default_value_t = 300)]
    movetime: u64,
    /// Also stop each position's search after this many nodes (same marks on every machine).
    #[arg(long)]
    nodes: Option<u64>,
    /// Where to write the annotated PTN (default: next to the file, `NAME.analysed.ptn`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Where to write the evaluation chart (default: next to the file, `NAME.eval.png`).
    #[arg(long)]
    chart: Option<PathBuf>,
    /// The chart's theme.
    #[arg(long, default_value = "dark")]
    theme: String,
    /// Analyse this branch of the file (PTN Ninja's variations: `4b1`, `49-1`) instead of its
    /// main line.
    #[arg(long)]
    branch: Option<String>,
    /// Who judges: `bredon` (the built-in searcher) or `tei:PROGRAM [ARGS]`, an external TEI
    /// engine given `--movetime` per position (marks from its winning chances).
    #[arg(long, default_value = "bredon")]
    engine: String,
}

/// Analyses a game: prints the summary and each marked ply, writes the annotated PTN and the
/// evaluation chart, and shows progress on stderr.
pub fn run(args: Args) -> Result<(), Failure> {
    // Clap asks for one of the two.
    let (text, name) = match (args.playtak, args.file.as_deref()) {
        (Some(id), _) => (playtak_game(id)?, format!("playtak-{id}")),
        (None, file) => {
            let file = file.unwrap_or("-");
            (super::ground::read_input(file)?, file.to_string())
        }
    };
    let theme = Theme::named(&args.theme).map_err(|e| Failure::new(2, e))?;
    let movetime = Duration::from_millis(args.movetime.max(1));
    let command: Vec<String> = match args.engine.strip_prefix("tei:") {
        Some(program) if !program.trim().is_empty() => {
            program.split_whitespace().map(String::from).collect()
        }
        None if args.engine == "bredon" => Vec::new(),
        _ => {
            return Err(Failure::new(
                2,
                format!("--engine {}: write bredon or tei:PROGRAM", args.engine),
            ))
        }
    };
    let judge = match command.is_empty() {
        true => Judge::Own(Limits {
            time: Some(movetime),
            nodes: args.nodes,
            ..Limits::default()
        }),
        false => Judge::Tei {
            command: &command,
            movetime,
        },
    };
    let started = Instant::now();
    let report = analyze_line(
        &text,
        args.branch.as_deref(),
        judge,
        &theme,
        |done, total| {
            eprint!("\ranalysing: search {done} of {total}");
            if done == total {
                eprintln!();
            }
        },
    )
    .map_err(|e| Failure::new(1, format!("{name}: {e}")))?;
    let stem = if name == "-" {
        PathBuf::from("analysis")
    } else {
        let path = Path::new(&name);
        path.with_file_name(path.file_stem().unwrap_or_default())
    };
    let out = args
        .out
        .unwrap_or_else(|| stem.with_extension("analysed.ptn"));
    let chart = args
        .chart
        .unwrap_or_else(|| stem.with_extension("eval.png"));
    let write = |path: &Path, bytes: &[u8]| {
        std::fs::write(path, bytes)
            .map_err(|e| Failure::new(1, format!("cannot write {}: {e}", path.display())))
    };
    write(&out, report.ptn.as_bytes())?;
    write(&chart, &report.chart)?;
    for line in report.summary.iter().chain(&report.marked) {
        println!("{line}");
    }
    println!(
        "analysed {} positions in {:.1} s; wrote {} and {}",
        report.analysis.white_view.len(),
        started.elapsed().as_secs_f64(),
        out.display(),
        chart.display()
    );
    println!("{}", report.link);
    Ok(())
}

/// PlayTak game `id` as PTN, fetched from the API the environment names.
fn playtak_game(id: u64) -> Result<String, Failure> {
    let api = super::ground::playtak_api()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::new(1, format!("cannot start the async runtime: {e}")))?;
    runtime
        .block_on(api.ptn(id))
        .map_err(|e| Failure::new(1, e.to_string()))
}

use super::ground::Failure;
use crate::engine::puzzles::escapes;
use crate::engine::tinue::{ptn_line, solve, Verdict};
use crate::tak::{Komi, Position, Setup};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// The position (TPS); the side to move attacks (or, with --defend, defends).
    #[arg(long)]
    tps: String,
    /// Komi in half steps from -20.5 to 20.5 (it decides flat wins that end a line).
    #[arg(long, default_value = "0", allow_hyphen_values = true)]
    komi: String,
    /// Give up after this many nodes of the proof tree (about 24 bytes each).
    #[arg(long, default_value_t = 2_000_000)]
    nodes: usize,
    /// The side to move defends: list its plies that escape Tinuë.
    #[arg(long)]
    defend: bool,
    /// One JSON object instead of the text line.
    #[arg(long)]
    json: bool,
}

/// `tinue <ply> ...` (the attacker's plies and the longest defence), `no tinue` or `unknown`;
/// with `--defend`, `escapes <ply> ...`, `no escape` or `unknown`. Nodes and time on stderr.
pub fn run(args: Args) -> Result<(), Failure> {
    let komi = Komi::parse(&args.komi).map_err(|e| Failure::new(2, e))?;
    let size = crate::tak::tps::tps_size(&args.tps).map_err(|e| Failure::new(2, e))?;
    let setup = Setup::new(size)
        .map_err(|e| Failure::new(2, e))?
        .with_komi(komi);
    let position = Position::from_tps_with(&args.tps, setup).map_err(|e| Failure::new(2, e))?;
    let started = Instant::now();
    let (line, json, nodes) = match args.defend {
        false => attack(&position, args.nodes),
        true => defend(&position, args.nodes),
    };
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    if args.json {
        let mut json = json;
        json["nodes"] = nodes.into();
        json["ms"] = ((ms * 10.0).round() / 10.0).into();
        println!("{json}");
    } else {
        println!("{line}");
    }
    eprintln!("{nodes} nodes in {ms:.1} ms");
    Ok(())
}

fn attack(position: &Position, budget: usize) -> (String, serde_json::Value, usize) {
    let solved = solve(position, budget);
    let (line, json) = match solved.verdict {
        Verdict::Tinue(pv) => {
            let plies = ptn_line(position, &pv);
            (
                format!("tinue {}", plies.join(" ")),
                serde_json::json!({ "verdict": "tinue", "pv": plies }),
            )
        }
        Verdict::NoTinue => (
            "no tinue".into(),
            serde_json::json!({ "verdict": "no tinue" }),
        ),
        Verdict::Unknown => (
            "unknown".into(),
            serde_json::json!({ "verdict": "unknown" }),
        ),
    };
    (line, json, solved.nodes)
}

/// Each reply of the side to move, solved for the opponent: those that leave no Tinuë escape.
fn defend(position: &Position, budget: usize) -> (String, serde_json::Value, usize) {
    let found = escapes(position, budget);
    let ptn = |plies: &[crate::tak::Ply]| -> Vec<String> {
        plies.iter().map(|&p| position.ptn(p)).collect()
    };
    let (escapes, unknown, nodes) = (ptn(&found.escapes), ptn(&found.unknown), found.nodes);
    let line = match (escapes.is_empty(), unknown.is_empty()) {
        (false, _) => format!("escapes {}", escapes.join(" ")),
        (true, true) => "no escape".into(),
        (true, false) => "unknown".into(),
    };
    let json = serde_json::json!({ "escapes": escapes, "unknown": unknown });
    (line, json, nodes)
}

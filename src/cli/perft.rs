use super::ground::Failure;
use crate::game::Kind;
use crate::tak::{perft, Komi, Position, Setup};
use crate::takat;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// tak (default) or takat.
    #[arg(long, default_value = "tak")]
    game: String,
    /// Tak: board size 3..8 (default 5). Takat: 7 or 19 circles (default 7). Ignored with --tps.
    #[arg(long)]
    size: Option<usize>,
    /// Start from this position instead of the empty board (TPS, or a Takat position string).
    #[arg(long)]
    tps: Option<String>,
    /// Komi in half steps from -20.5 to 20.5.
    #[arg(long, default_value = "0", allow_hyphen_values = true)]
    komi: String,
    /// Count up to this depth.
    #[arg(long)]
    depth: u32,
    /// Also print the time and leaves per second of each depth to stderr.
    #[arg(long)]
    timing: bool,
}

pub fn run(args: Args) -> Result<(), Failure> {
    if Kind::parse(&args.game).map_err(|e| Failure::new(2, e))? == Kind::Takat {
        return run_takat(&args);
    }
    let komi = Komi::parse(&args.komi).map_err(|e| Failure::new(2, e))?;
    let mut position = match &args.tps {
        Some(tps) => {
            let size = crate::tak::tps::tps_size(tps).map_err(|e| Failure::new(2, e))?;
            let setup = Setup::new(size)
                .map_err(|e| Failure::new(2, e))?
                .with_komi(komi);
            Position::from_tps_with(tps, setup).map_err(|e| Failure::new(2, e))?
        }
        None => Position::new(
            Setup::new(args.size.unwrap_or(5))
                .map_err(|e| Failure::new(2, e))?
                .with_komi(komi),
        ),
    };
    count_each_depth(&args, |depth| perft(&mut position, depth));
    Ok(())
}

fn run_takat(args: &Args) -> Result<(), Failure> {
    let position = match &args.tps {
        Some(text) => takat::Position::from_text(text),
        None => takat::Position::new(args.size.unwrap_or(7)),
    }
    .map_err(|e| Failure::new(2, e))?;
    count_each_depth(args, |depth| takat::perft(&position, depth));
    Ok(())
}

/// Prints `depth count` for each depth (and the timing to stderr if asked).
fn count_each_depth(args: &Args, mut count_at: impl FnMut(u32) -> u64) {
    for depth in 1..=args.depth {
        let started = Instant::now();
        let count = count_at(depth);
        println!("{depth} {count}");
        if args.timing {
            let secs = started.elapsed().as_secs_f64();
            eprintln!(
                "depth {depth}: {secs:.3} s, {:.1} M leaves/s",
                count as f64 / secs / 1e6
            );
        }
    }
}

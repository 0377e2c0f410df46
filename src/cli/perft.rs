use super::Failure;
use crate::tak::{perft, Komi, Position, Setup};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Board size 3..8 for the empty start position (ignored with --tps).
    #[arg(long, default_value_t = 5)]
    size: usize,
    /// Start from this position instead of the empty board.
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
            Setup::new(args.size)
                .map_err(|e| Failure::new(2, e))?
                .with_komi(komi),
        ),
    };
    for depth in 1..=args.depth {
        let started = Instant::now();
        let count = perft(&mut position, depth);
        println!("{depth} {count}");
        if args.timing {
            let secs = started.elapsed().as_secs_f64();
            eprintln!(
                "depth {depth}: {secs:.3} s, {:.1} M leaves/s",
                count as f64 / secs / 1e6
            );
        }
    }
    Ok(())
}

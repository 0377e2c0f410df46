//! `bredon reshard`: new data folders for a new shard count, from the folders of the old one
//! (every process stopped). The store deals the records out (`store::reshard`); this checks the
//! result as a restarted bot would see it: every live game loads and replays, and each folder's
//! timers are those of its games.

use super::ground::Failure;
use crate::service::Service;
use crate::store::Store;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// A data folder of the old layout (give each one, every process stopped).
    #[arg(long = "from", required = true)]
    from: Vec<PathBuf>,
    /// A new folder, one a process, in shard order: the first gets the first shards.
    #[arg(long = "to", required = true)]
    to: Vec<PathBuf>,
    /// The new total of shards (`bredon run --shards`).
    #[arg(long)]
    shards: u32,
}

pub fn run(args: Args) -> Result<(), Failure> {
    if args.shards == 0 {
        return Err(Failure::new(2, "--shards must be at least 1"));
    }
    let moved = crate::store::reshard::reshard(&args.from, &args.to, args.shards)
        .map_err(|e| Failure::new(1, e.to_string()))?;
    let mut games = 0;
    for (dir, layout) in &moved.targets {
        let store =
            Store::open_sharded(dir, *layout).map_err(|e| Failure::new(1, e.to_string()))?;
        let fail = |why: String| Failure::new(1, format!("{}: {why}", dir.display()));
        for game in store.all_live_games().map_err(|e| fail(e.to_string()))? {
            if !layout.holds(game.guild) {
                return Err(fail(format!(
                    "game {} is of a server of another shard",
                    game.id
                )));
            }
            Service::rebuild(&game)
                .map_err(|e| fail(format!("game {} does not replay: {e}", game.id)))?;
            games += 1;
        }
        if !store.timers_in_step().map_err(|e| fail(e.to_string()))? {
            return Err(fail("its timers are not those of its games".into()));
        }
    }
    let counts: Vec<String> = moved
        .counts
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(t, n)| format!("{t} {n}"))
        .collect();
    println!(
        "resharded into {} folders for {} shards ({}); {games} live games load and replay, and \
         every folder's timers are its games'. Start each process with its range:",
        args.to.len(),
        args.shards,
        counts.join(", ")
    );
    for (dir, layout) in &moved.targets {
        println!(
            "  BREDON_DATA={} bredon run --shards {} --shard-range {}..={}",
            dir.display(),
            layout.shards,
            layout.first,
            layout.last
        );
    }
    Ok(())
}

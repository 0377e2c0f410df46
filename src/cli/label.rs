//! `bredon label`: a teacher engine's chances for the quiet positions of finished games, the
//! data `bredon tune --labels` fits to.

use super::engine::{read_games, spawn};
use super::ground::Failure;
use crate::engine::tune::Labelled;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

#[derive(clap::Args)]
pub struct LabelArgs {
    /// Finished games whose quiet positions to label, as PTN; repeatable.
    #[arg(long, required = true)]
    ptn: Vec<std::path::PathBuf>,
    /// The teacher: tei:PROGRAM, an engine that reports `wdl` in its `info` lines (Tiltak does).
    #[arg(long)]
    teacher: String,
    /// Nodes the teacher searches in each position.
    #[arg(long, default_value_t = 1000)]
    nodes: u64,
    /// Plies at the start of each game to leave out (a match's random opening).
    #[arg(long, default_value_t = 4)]
    skip: usize,
    /// Teachers to run side by side, one process each.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Quiet positions to leave out at the start: as many as an interrupted run wrote lines, so
    /// that this run's output, appended to that file, goes on where it stopped.
    #[arg(long, default_value_t = 0)]
    from: usize,
}

/// Labels the quiet positions of games with their results and a teacher engine's chances, one
/// line each on stdout, in the games' order: the data for `bredon tune --labels`. Each line is
/// written as soon as it and those before it are labelled, so a run that stops part way leaves
/// every line it wrote whole, and `--from` goes on from there.
pub fn run_label(args: LabelArgs) -> Result<(), Failure> {
    use crate::engine::tune::each_quiet_position;
    let program = args
        .teacher
        .strip_prefix("tei:")
        .ok_or_else(|| Failure::new(2, "the teacher is tei:PROGRAM, an external TEI engine"))?;
    let mut labelled = Vec::new();
    for (number, game) in read_games(&args.ptn)?.iter().enumerate() {
        each_quiet_position(game, args.skip, |pos, result| {
            labelled.push(Labelled {
                game: number,
                result,
                teacher: 0.0,
                komi: pos.setup().komi,
                tps: pos.to_tps(),
            })
        });
    }
    if args.from > labelled.len() {
        return Err(Failure::new(
            2,
            format!(
                "--from {} is past the last of these games' {} quiet positions",
                args.from,
                labelled.len()
            ),
        ));
    }
    let next = AtomicUsize::new(args.from);
    let (done, chances) = mpsc::channel();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..args.threads.max(1))
            .map(|_| {
                let done = done.clone();
                let (labelled, next) = (&labelled, &next);
                scope.spawn(move || teach(program, args.nodes, labelled, next, done))
            })
            .collect();
        drop(done);
        let written = write_in_order(&labelled, args.from, chances);
        for worker in workers {
            let result = worker
                .join()
                .map_err(|_| Failure::new(1, "a labelling thread panicked"))?;
            result.map_err(|e| {
                if written == args.from {
                    return e;
                }
                let message = format!(
                    "{}; {written} of {} positions labelled: --from {written} goes on from there",
                    e.message,
                    labelled.len()
                );
                Failure::new(e.code, message)
            })?;
        }
        Ok(())
    })
}

/// One teacher's share of the labelling: the next position no other teacher took, until none is
/// left; on a failure the others stop too.
fn teach(
    program: &str,
    nodes: u64,
    labelled: &[Labelled],
    next: &AtomicUsize,
    done: mpsc::Sender<(usize, f32)>,
) -> Result<(), Failure> {
    let stop_all = |e| {
        next.store(labelled.len(), Ordering::Relaxed);
        e
    };
    let mut teacher = spawn(program).map_err(stop_all)?;
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(position) = labelled.get(i) else {
            return Ok(());
        };
        let chance = position
            .setup()
            .and_then(|setup| teacher.win_chance(&position.tps, &setup, nodes))
            .map_err(|e| stop_all(Failure::new(1, e)))?;
        // The receiver is read until every teacher has ended.
        let _ = done.send((i, chance));
    }
}

/// Prints each labelled position's line once it and every line before it are in, from `from`;
/// returns where the unbroken run of lines ended.
fn write_in_order(
    labelled: &[Labelled],
    from: usize,
    chances: mpsc::Receiver<(usize, f32)>,
) -> usize {
    let mut waiting = std::collections::BTreeMap::new();
    let mut written = from;
    for (i, chance) in chances {
        waiting.insert(i, chance);
        while let Some(chance) = waiting.remove(&written) {
            let line = Labelled {
                teacher: chance,
                ..labelled[written].clone()
            };
            println!("{}", line.line());
            written += 1;
            if written.is_multiple_of(10_000) {
                eprintln!("{written} of {} positions labelled", labelled.len());
            }
        }
    }
    written
}

//! Plies per second and their latency with several streams of plies at once: one process on a
//! sled folder (three threads), against three processes on one PostgreSQL database (a thread
//! each), the same games and the same plies, side by side in one run. Each ply is the whole
//! service call (load, validate, apply, commit, flush). PostgreSQL is a throwaway server this
//! run starts (as the tests do), or `BREDON_BENCH_DATABASE_URL` (an empty database).
//! Run: cargo bench --bench processes

use bredon::service::Service;
use bredon::store::Store;
use common::{ply, quantile_ms, start_games};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
#[path = "../tests/support/postgres.rs"]
#[allow(dead_code)]
mod postgres;

const GAMES: u64 = 1_500;
const STREAMS: u64 = 3;
const PLIES_PER_STREAM: u64 = 1_000;

/// Stream `k`'s plies: its own channels (as a shard has its own servers), round and round.
fn stream(service: &Service, k: u64) -> Vec<Duration> {
    let mut seed = 0x9E37_79B9_7F4A_7C15 ^ (k + 1);
    let mine: Vec<u64> = (1..=GAMES).filter(|c| c % STREAMS == k).collect();
    (0..PLIES_PER_STREAM)
        .filter_map(|i| ply(service, mine[(i as usize * 7) % mine.len()], &mut seed))
        .collect()
}

fn report(name: &str, mut times: Vec<Duration>, wall: Duration) {
    times.sort();
    let at = |p: f64| quantile_ms(&times, p);
    println!(
        "{name}: {} plies in {:.2} s = {:.0} plies/s; p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        times.len(),
        wall.as_secs_f64(),
        times.len() as f64 / wall.as_secs_f64(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
}

fn main() {
    // A child: one process's stream on the shared database; its times on standard output.
    if let (Ok(url), Ok(k)) = (
        std::env::var("BREDON_BENCH_CHILD_URL"),
        std::env::var("BREDON_BENCH_STREAM"),
    ) {
        let service = Service::new(Store::connect(&url).unwrap());
        println!("ready");
        let mut go = String::new();
        std::io::stdin().read_line(&mut go).unwrap();
        for t in stream(&service, k.parse().unwrap()) {
            println!("{}", t.as_nanos());
        }
        return;
    }

    let dir = tempfile::tempdir().unwrap();
    let sled = Service::new(Store::open(dir.path()).unwrap());
    start_games(&sled, GAMES);
    let started = Instant::now();
    let times: Vec<Duration> = std::thread::scope(|s| {
        let streams: Vec<_> = (0..STREAMS)
            .map(|k| {
                let sled = &sled;
                s.spawn(move || stream(sled, k))
            })
            .collect();
        streams
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    report("sled, 1 process, 3 threads", times, started.elapsed());
    drop(sled);

    let url = match std::env::var("BREDON_BENCH_DATABASE_URL") {
        Ok(url) => url,
        Err(_) => match postgres::server() {
            Ok(server) => server.database(),
            Err(why) => {
                println!("PostgreSQL skipped: {why}");
                return;
            }
        },
    };
    start_games(&Service::new(Store::connect(&url).unwrap()), GAMES);
    let mut children: Vec<_> = (0..STREAMS)
        .map(|k| {
            Command::new(std::env::current_exe().unwrap())
                .env("BREDON_BENCH_CHILD_URL", &url)
                .env("BREDON_BENCH_STREAM", k.to_string())
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut outputs: Vec<_> = children
        .iter_mut()
        .map(|c| BufReader::new(c.stdout.take().unwrap()).lines())
        .collect();
    for out in &mut outputs {
        assert_eq!(out.next().unwrap().unwrap(), "ready");
    }
    let started = Instant::now();
    for c in &mut children {
        use std::io::Write;
        writeln!(c.stdin.as_mut().unwrap()).unwrap();
    }
    let times: Vec<Duration> = outputs
        .into_iter()
        .flat_map(|lines| {
            lines
                .map(|l| Duration::from_nanos(l.unwrap().parse().unwrap()))
                .collect::<Vec<_>>()
        })
        .collect();
    let wall = started.elapsed();
    for mut c in children {
        c.wait().unwrap();
    }
    report("PostgreSQL, 3 processes", times, wall);
}

//! One ply through the service (load, validate, apply, store, flush) with 10,000 live games in
//! the store: latency percentiles, sequential and from 8 threads at once; disk size and memory.
//! Run: cargo bench --bench service

use bredon::service::Service;
use bredon::store::Store;
use common::{ply, quantile_ms, start_games};
use std::sync::Arc;
use std::time::{Duration, Instant};

mod common;

const GAMES: u64 = 10_000;

fn report(name: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "{name}: {} plies, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        times.len(),
        quantile_ms(&times, 0.5),
        quantile_ms(&times, 0.99),
        quantile_ms(&times, 1.0)
    );
}

fn dir_size(path: &std::path::Path) -> u64 {
    std::fs::read_dir(path)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| match e.metadata() {
                    Ok(m) if m.is_dir() => dir_size(&e.path()),
                    Ok(m) => m.len(),
                    Err(_) => 0,
                })
                .sum()
        })
        .unwrap_or(0)
}

fn peak_rss_kb() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM"))
                .map(|l| l.trim_start_matches("VmHWM:").trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let service = Arc::new(Service::new(Store::open(dir.path()).unwrap()));
    let started = Instant::now();
    start_games(&service, GAMES);
    println!(
        "set up {GAMES} live games in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    // A few plies in every game so records look like games in progress.
    let mut seed = 0x2545F4914F6CDD1Du64;
    for channel in 1..=GAMES {
        for _ in 0..6 {
            ply(&service, channel, &mut seed);
        }
    }
    let mut times = Vec::new();
    for i in 0..3000u64 {
        let channel = 1 + (i * 7919) % GAMES;
        if let Some(t) = ply(&service, channel, &mut seed) {
            times.push(t);
        }
    }
    report("sequential", times);
    let mut handles = Vec::new();
    for t in 0..8u64 {
        let s = Arc::clone(&service);
        handles.push(std::thread::spawn(move || {
            let mut seed = 0x9E3779B97F4A7C15u64 ^ t;
            let mut times = Vec::new();
            for i in 0..400u64 {
                let channel = 1 + (t * 1250 + i * 13) % GAMES;
                if let Some(d) = ply(&s, channel, &mut seed) {
                    times.push(d);
                }
            }
            times
        }));
    }
    let times: Vec<Duration> = handles
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    report("8 threads at once", times);
    service.store().flush().unwrap();
    println!("live games: {}", service.store().live_game_count().unwrap());
    println!("on disk: {:.1} MB", dir_size(dir.path()) as f64 / 1e6);
    println!("peak RSS: {}", peak_rss_kb());
}

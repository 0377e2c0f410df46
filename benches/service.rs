//! One ply through the service (load, validate, apply, store, flush) with 10,000 live games in
//! the store: latency percentiles, sequential and from 8 threads at once; disk size and memory.
//! Run: cargo bench --bench service

use bredon::service::{ChallengeOptions, Ctx, Service};
use bredon::store::records::{PlayerRef, Seat};
use bredon::store::Store;
use std::sync::Arc;
use std::time::{Duration, Instant};

const GAMES: u64 = 10_000;

fn ctx(channel: u64, who: u64) -> Ctx {
    let user = PlayerRef {
        id: who,
        name: format!("player{who}"),
    };
    Ctx {
        guild: channel % 50,
        channel,
        user,
        now_ms: 0,
        moderator: false,
        request: None,
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(name: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "{name}: {} plies, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        times.len(),
        percentile(&times, 0.5).as_secs_f64() * 1e3,
        percentile(&times, 0.99).as_secs_f64() * 1e3,
        times.last().unwrap().as_secs_f64() * 1e3
    );
}

/// Plays one random legal ply in `channel` as whoever is to move; returns its time.
fn ply(service: &Service, channel: u64, seed: &mut u64) -> Option<Duration> {
    let game = service.store().game(channel).unwrap()?;
    let plies = service.legal_plies(channel).unwrap();
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    let choice = &plies[(*seed % plies.len() as u64) as usize];
    let mover = game.players[game.plies.len() % 2].id;
    let started = Instant::now();
    let result = service.play(&ctx(channel, mover), choice);
    let took = started.elapsed();
    result.ok().map(|_| took)
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
    for channel in 1..=GAMES {
        let o = ChallengeOptions {
            opponent: Some(ctx(channel, channel * 2 + 1).user),
            seat: Seat::White,
            size: Some(6),
            ..ChallengeOptions::default()
        };
        service.challenge(&ctx(channel, channel * 2), &o).unwrap();
        service.accept(&ctx(channel, channel * 2 + 1)).unwrap();
    }
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

//! The web pages under load, with 10,000 finished games and 500 being played in one server: a
//! game's page (finished and live), a ply's picture drawn anew, and the server's page, asked by
//! this process from 8 connections at once of `bredon run` (the bot with its pages beside it,
//! on 127.0.0.1); and the bot's ply-to-picture latency through a fake Discord, with the pages
//! idle and under that load, side by side in one run; then 200 open live pages, and 300 slow
//! clients (`streams`). Not a test: it prints numbers.
//! Run: cargo bench --bench web

mod bot;
#[path = "../tests/fake_discord/mod.rs"]
mod fake_discord;
#[path = "web/streams.rs"]
mod streams;

use bredon::service::{ChallengeOptions, Ctx, Service};
use bredon::store::records::{PlayerRef, Seat};
use fake_discord::{FakeDiscord, TestUser, GUILD_ID};
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const FINISHED: u64 = 10_000;
const LIVE: u64 = 500;
/// Plies of each stored game before it is resigned or left to be played.
const PLIES: usize = 14;
const CONNECTIONS: usize = 8;
/// The bot's own games, played while the pages are idle and then under load.
const BOT_GAMES: u64 = 40;
const BOT_PLIES: [&str; 8] = ["a1", "f6", "b2", "e5", "c3", "d4", "a6", "f1"];

fn ctx(channel: u64, who: u64) -> Ctx {
    Ctx {
        guild: GUILD_ID,
        channel,
        user: PlayerRef {
            id: who,
            name: format!("player{}", who % 97),
        },
        now_ms: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64,
        moderator: true,
        request: None,
    }
}

/// Marks an outcome's message delivered: the stored games' messages are not the bench's.
fn delivered(service: &Service, outcome: bredon::service::Outcome) {
    if let Some(letter) = outcome.letter {
        service.delivered(letter).unwrap();
    }
}

/// A 6x6 game in `channel`, `PLIES` random plies into it, resigned if `finish`.
fn stored_game(service: &Service, channel: u64, finish: bool) {
    let (white, black) = (1000 + channel % 40, 2000 + channel % 37);
    let o = ChallengeOptions {
        opponent: Some(ctx(channel, black).user),
        seat: Seat::White,
        size: Some(6),
        ..ChallengeOptions::default()
    };
    delivered(
        service,
        service.challenge(&ctx(channel, white), &o).unwrap(),
    );
    delivered(service, service.accept(&ctx(channel, black)).unwrap());
    let mut seed = channel.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for n in 0..PLIES {
        let plies = service.legal_plies(channel).unwrap();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mover = if n.is_multiple_of(2) { white } else { black };
        let ply = &plies[(seed % plies.len() as u64) as usize];
        match service.play(&ctx(channel, mover), ply) {
            Ok(outcome) => delivered(service, outcome),
            Err(_) => break,
        }
        if service.store().game(channel).unwrap().is_none() {
            return; // a road came early: finished already
        }
    }
    if finish {
        delivered(service, service.resign(&ctx(channel, black)).unwrap());
    }
}

/// The store: the server's games, started in number order, on two threads; its slug.
fn build_store(dir: &std::path::Path) -> String {
    let service = Arc::new(Service::new(bredon::store::Store::open(dir).unwrap()));
    let started = Instant::now();
    let threads: Vec<_> = (0..2u64)
        .map(|t| {
            let service = Arc::clone(&service);
            std::thread::spawn(move || {
                for channel in (1..=FINISHED + LIVE).filter(|c| c % 2 == t) {
                    stored_game(&service, channel, channel <= FINISHED);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let slug = service.set_web(&ctx(1, 1), true).unwrap().web_slug.unwrap();
    println!(
        "stored {FINISHED} finished and {LIVE} live games in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    slug
}

fn quantiles(name: &str, mut times: Vec<Duration>) {
    times.sort();
    if times.is_empty() {
        println!("{name}: none");
        return;
    }
    let at = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1e3;
    println!(
        "{name}: {} requests, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        times.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
}

/// One GET, timed to its last byte; it must answer 200.
async fn timed(client: &reqwest::Client, url: &str) -> Duration {
    let started = Instant::now();
    let answer = client.get(url).send().await.unwrap();
    assert_eq!(answer.status(), 200, "{url}");
    answer.bytes().await.unwrap();
    started.elapsed()
}

#[derive(Default)]
struct PageTimes {
    finished: Vec<Duration>,
    live: Vec<Duration>,
}

/// Game pages from `CONNECTIONS` connections while `on`: three finished to one live.
fn load(base: String, on: Arc<AtomicBool>, times: Arc<Mutex<PageTimes>>) {
    for c in 0..CONNECTIONS as u64 {
        let (base, on, times) = (base.clone(), Arc::clone(&on), Arc::clone(&times));
        tokio::spawn(async move {
            let client = reqwest::Client::new();
            let mut seed = 0x2545_F491_4F6C_DD1D ^ (c + 1);
            loop {
                if !on.load(Ordering::Relaxed) {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    continue;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let live = seed % 4 == 0;
                let number = match live {
                    true => FINISHED + 1 + seed % LIVE,
                    false => 1 + seed % FINISHED,
                };
                let took = timed(&client, &format!("{base}/game/{number}")).await;
                let mut t = times.lock().unwrap();
                match live {
                    true => t.live.push(took),
                    false => t.finished.push(took),
                }
            }
        });
    }
}

/// The bot's ply-to-picture latency: a round of one ply in each of its games, paced 40 ms.
async fn bot_plies(fake: &FakeDiscord, plies: &[&str], first: usize) -> Vec<Duration> {
    let (alice, bob) = (TestUser::new(111, "alice"), TestUser::new(222, "bob"));
    let mut latencies = Vec::new();
    for (n, ply) in plies.iter().enumerate() {
        let user = if (first + n).is_multiple_of(2) {
            &alice
        } else {
            &bob
        };
        let seen = fake.uploads().len();
        let mut sent = Vec::new();
        for i in 0..BOT_GAMES {
            let options = json!([{ "name": "ply", "type": 3, "value": ply }]);
            sent.push((
                fake.command(user, bot::channel(i), "move", options),
                Instant::now(),
            ));
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        while fake.uploads().len() < seen + BOT_GAMES as usize && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        for (path, at) in fake.uploads().into_iter().skip(seen) {
            if let Some((_, sent_at)) = sent.iter().find(|(t, _)| path.contains(t.as_str())) {
                latencies.push(at.duration_since(*sent_at));
            }
        }
    }
    latencies
}

/// `bredon run`, stopped when the bench ends, however it ends.
struct Bot(std::process::Child);

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn main() {
    let data = tempfile::tempdir().unwrap();
    let slug = build_store(data.path());
    // sled's flusher lets go of the folder a moment after the last handle.
    std::thread::sleep(Duration::from_secs(2));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(run(data.path(), slug));
}

async fn run(data: &std::path::Path, slug: String) {
    let fake = FakeDiscord::start().await;
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let bot = std::process::Command::new(env!("CARGO_BIN_EXE_bredon"))
        .arg("run")
        .env("DISCORD_TOKEN", "fake-token")
        .env("DISCORD_API_BASE", &fake.api_base)
        .env("DISCORD_GUILD_ID", GUILD_ID.to_string())
        .env("BREDON_DATA", data)
        .env("BREDON_WEB_ADDR", addr.to_string())
        .env("BREDON_WEB_RATE_LIMIT", "off")
        .env("RUST_LOG", "off")
        .spawn()
        .map(Bot)
        .unwrap();
    fake.wait_until("the bot", Duration::from_secs(60), |f| {
        f.requests().iter().any(|r| r.method == "PUT")
    })
    .await;
    bot::start_games(&fake, BOT_GAMES).await;
    let base = format!("http://{addr}/s/{slug}");
    let client = reqwest::Client::new();
    let mut server = Vec::new();
    for _ in 0..20 {
        server.push(timed(&client, &base).await);
    }
    quantiles("the server's page, alone", server);
    // Each picture asked once: never in the pages' cache.
    let mut pictures = Vec::new();
    for n in 0..300u64 {
        let number = 1 + (n * 7919) % FINISHED;
        let url = format!("{base}/game/{number}/board/{}", n % PLIES as u64);
        pictures.push(timed(&client, &url).await);
    }
    quantiles("a ply's picture, drawn anew, alone", pictures);
    // Rounds of the bot's plies, the pages idle and under load in turn, so anything else the
    // machine does meanwhile weighs on both alike.
    let on = Arc::new(AtomicBool::new(false));
    let pages = Arc::new(Mutex::new(PageTimes::default()));
    load(base.clone(), Arc::clone(&on), Arc::clone(&pages));
    let (mut idle, mut loaded, mut loaded_for) = (Vec::new(), Vec::new(), Duration::ZERO);
    for (n, ply) in BOT_PLIES.iter().enumerate() {
        let under_load = n % 4 == 1 || n % 4 == 2;
        on.store(under_load, Ordering::Relaxed);
        let started = Instant::now();
        let latencies = bot_plies(&fake, &[ply], n).await;
        match under_load {
            true => {
                loaded.extend(latencies);
                loaded_for += started.elapsed();
            }
            false => idle.extend(latencies),
        }
    }
    on.store(false, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let pages = std::mem::take(&mut *pages.lock().unwrap());
    println!(
        "under load: {CONNECTIONS} connections, {:.0} pages/s",
        (pages.finished.len() + pages.live.len()) as f64 / loaded_for.as_secs_f64()
    );
    quantiles("a finished game's page, under load", pages.finished);
    quantiles("a live game's page, under load", pages.live);
    quantiles("the bot's ply to picture, pages idle", idle);
    quantiles("the bot's ply to picture, pages under load", loaded);
    streams::live_pages(&fake, addr, &slug, bot.0.id()).await;
    streams::slow_clients(&fake, addr, &base).await;
}

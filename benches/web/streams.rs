//! The pages' open connections under load: hundreds of open live pages (what the server spends
//! while nothing is played, and how soon a ply reaches every page of its game), and hundreds of
//! slow and silent clients (how soon each is closed, and whether others are still answered).

use crate::fake_discord::{FakeDiscord, TestUser};
use crate::{BOT_GAMES, BOT_PLIES, FINISHED, LIVE};
use serde_json::json;
use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

/// What a live page received: which page, how many plies the game then had (`None`: the
/// server ended the stream, as it does at once for a game that has ended), and when.
pub struct Arrival {
    pub page: usize,
    pub plies: Option<usize>,
    pub at: Instant,
}

/// Opens live page `page` (the event stream of game `number`) and reports every event it
/// receives until the server closes it. HTTP/1.0, so the stream comes unchunked.
pub fn open_live_page(
    addr: SocketAddr,
    slug: &str,
    number: u64,
    page: usize,
    arrivals: mpsc::UnboundedSender<Arrival>,
) {
    let request = format!("GET /s/{slug}/game/{number}/events HTTP/1.0\r\nHost: pages\r\n\r\n");
    tokio::spawn(async move {
        let mut stream = TcpStream::connect(addr)
            .await
            .expect("a live page connects");
        stream.write_all(request.as_bytes()).await.unwrap();
        let (mut text, mut buf) = (String::new(), [0u8; 8192]);
        loop {
            let n = match stream.read(&mut buf).await {
                Ok(0) | Err(_) => 0,
                Ok(n) => n,
            };
            if n == 0 {
                let _ = arrivals.send(Arrival {
                    page,
                    plies: None,
                    at: Instant::now(),
                });
                return;
            }
            text.push_str(&String::from_utf8_lossy(&buf[..n]));
            while let Some(end) = text.find("\n\n") {
                let event: String = text.drain(..end + 2).collect();
                if let Some(plies) = plies_of(&event) {
                    let at = Instant::now();
                    let _ = arrivals.send(Arrival {
                        page,
                        plies: Some(plies),
                        at,
                    });
                }
            }
        }
    });
}

/// The count of plies a `plies` event carries.
fn plies_of(event: &str) -> Option<usize> {
    let data = event.lines().find_map(|l| l.strip_prefix("data: "))?;
    let news: serde_json::Value = serde_json::from_str(data).ok()?;
    Some(news["plies"].as_array()?.len())
}

/// The CPU time process `pid` used so far (user and system), from /proc.
pub fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command's closing parenthesis; utime and stime are the 14th and
    // 15th of the whole line, in clock ticks (100 a second on Linux).
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10)
}

/// How a slow client behaves: sends a header line every few seconds and never ends its
/// request, or connects and sends nothing.
#[derive(Clone, Copy)]
pub enum Slowness {
    Trickling,
    Silent,
}

/// A slow client: connects, behaves as `slowness` says, and reports how long the server let
/// it hold the connection (`None` if it was still open after `most`).
pub async fn slow_client(addr: SocketAddr, slowness: Slowness, most: Duration) -> Option<Duration> {
    let opened = Instant::now();
    let mut stream = TcpStream::connect(addr).await.ok()?;
    let (mut from_server, mut to_server) = stream.split();
    // The connection is held until the server closes it (its end read, or a write refused).
    let closed = async {
        let mut buf = [0u8; 1024];
        while let Ok(1..) = from_server.read(&mut buf).await {}
    };
    let trickle = async {
        if let Slowness::Silent = slowness {
            return std::future::pending().await;
        }
        let mut line = "GET / HTTP/1.1\r\n".to_string();
        for n in 0.. {
            if to_server.write_all(line.as_bytes()).await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_secs(3)).await;
            line = format!("X-Slow-{n}: still here\r\n");
        }
    };
    let held = async {
        tokio::select! {
            _ = closed => {}
            _ = trickle => {}
        }
    };
    tokio::time::timeout(most, held).await.ok()?;
    Some(opened.elapsed())
}

/// Pages open on the bot's games, three each; the rest on the stored live games.
const PAGES_PER_BOT_GAME: usize = 3;
const LIVE_PAGES: usize = 200;
/// How long the pages are left open with nothing played, to measure what they cost.
const IDLE_FOR: Duration = Duration::from_secs(30);

/// 200 open live pages: the server's CPU while nothing is played, then a ply in each of the
/// bot's games and when it reaches each open page of its game.
pub async fn live_pages(fake: &FakeDiscord, addr: SocketAddr, slug: &str, pid: u32) {
    let (arrivals, mut arrived) = mpsc::unbounded_channel();
    let first_bot_game = FINISHED + LIVE + 1;
    let bot_pages = PAGES_PER_BOT_GAME * BOT_GAMES as usize;
    let game_of_page: Vec<u64> = (0..LIVE_PAGES as u64)
        .map(|page| match page < bot_pages as u64 {
            true => first_bot_game + page % BOT_GAMES,
            false => FINISHED + 1 + (page * 7) % LIVE,
        })
        .collect();
    for (page, &number) in game_of_page.iter().enumerate() {
        open_live_page(addr, slug, number, page, arrivals.clone());
    }
    // Each page's first event says all its game has (a game that ended ends its page).
    let (mut opened, mut ended) = (HashSet::new(), 0);
    while opened.len() < LIVE_PAGES {
        let first = tokio::time::timeout(Duration::from_secs(60), arrived.recv()).await;
        let Ok(Some(first)) = first else {
            let shut: Vec<u64> = (0..LIVE_PAGES)
                .filter(|p| !opened.contains(p))
                .map(|p| game_of_page[p])
                .collect();
            panic!("live pages of these games sent nothing in 60 s: {shut:?}");
        };
        opened.insert(first.page);
        ended += usize::from(first.plies.is_none());
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (used, started) = (cpu_time(pid), Instant::now());
    tokio::time::sleep(IDLE_FOR).await;
    let share = (cpu_time(pid) - used).as_secs_f64() / started.elapsed().as_secs_f64();
    let mut idle_events = 0;
    while arrived.try_recv().is_ok() {
        idle_events += 1;
    }
    println!(
        "{} live pages open on {LIVE} stored and {BOT_GAMES} bot games ({ended} of the stored \
         games had ended), nothing played for {} s: the bot and its pages used {:.1}% of a core \
         ({idle_events} events sent)",
        LIVE_PAGES - ended,
        IDLE_FOR.as_secs(),
        share * 100.0
    );
    // White's next ply in each of the bot's games, 40 ms apart.
    let alice = TestUser::new(111, "alice");
    let mut sent = HashMap::new();
    for i in 0..BOT_GAMES {
        let options = json!([{ "name": "ply", "type": 3, "value": "b5" }]);
        fake.command(&alice, crate::bot::channel(i), "move", options);
        sent.insert(first_bot_game + i, Instant::now());
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    let (mut latencies, deadline) = (Vec::new(), Instant::now() + Duration::from_secs(30));
    while latencies.len() < bot_pages {
        let Ok(Some(a)) = tokio::time::timeout_at(deadline.into(), arrived.recv()).await else {
            break;
        };
        match sent.get(&game_of_page[a.page]) {
            Some(at) if a.plies == Some(BOT_PLIES.len() + 1) => latencies.push(a.at - *at),
            _ => {}
        }
    }
    println!(
        "the ply reached {} of the {bot_pages} pages open on its game",
        latencies.len()
    );
    crate::quantiles("a ply to each open page of its game", latencies);
}

const SLOW_CLIENTS: usize = 300;
/// Long past the pages' 10 s for a request's headers.
const HELD_AT_MOST: Duration = Duration::from_secs(60);

/// Hundreds of slow clients, half trickling header lines and half silent: how long each held
/// its connection, while another reader asks for the server's page and the bot plays a round.
pub async fn slow_clients(fake: &FakeDiscord, addr: SocketAddr, base: &str) {
    let clients: Vec<_> = (0..SLOW_CLIENTS)
        .map(|i| {
            let slowness = match i % 2 {
                0 => Slowness::Trickling,
                _ => Slowness::Silent,
            };
            tokio::spawn(slow_client(addr, slowness, HELD_AT_MOST))
        })
        .collect();
    let reader = {
        let base = base.to_string();
        tokio::spawn(async move {
            let (client, mut times) = (reqwest::Client::new(), Vec::new());
            let until = Instant::now() + Duration::from_secs(20);
            while Instant::now() < until {
                times.push(crate::timed(&client, &base).await);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            times
        })
    };
    let plies = crate::bot_plies(fake, &["e2"], BOT_PLIES.len() + 1).await;
    let mut held = Vec::new();
    for client in clients {
        held.push(client.await.unwrap());
    }
    let closed: Vec<Duration> = held.iter().flatten().copied().collect();
    let longest = closed.iter().max().copied().unwrap_or_default();
    println!(
        "{SLOW_CLIENTS} slow clients (half trickling a header line every 3 s, half silent): \
         {} closed by the server within 30 s, {} still open after {} s; the longest held {:.1} s",
        closed
            .iter()
            .filter(|d| **d <= Duration::from_secs(30))
            .count(),
        held.iter().filter(|d| d.is_none()).count(),
        HELD_AT_MOST.as_secs(),
        longest.as_secs_f64()
    );
    crate::quantiles(
        "the server's page, slow clients connected",
        reader.await.unwrap(),
    );
    crate::quantiles("the bot's ply to picture, slow clients connected", plies);
}

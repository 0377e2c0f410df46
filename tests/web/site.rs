//! A site to test: a store with games of three servers, the service over it, and the web
//! pages served on a free port of 127.0.0.1 by this test's runtime.

use bredon::clock::Clock;
use bredon::service::{ChallengeOptions, Ctx, Service};
use bredon::store::records::{PlayerRef, Seat};
use std::sync::Arc;
use std::time::Duration;

/// The server with its pages on.
pub const OPEN: u64 = 7;
/// A server with games whose pages were never turned on.
pub const CLOSED: u64 = 8;
/// A server that turned its pages on, then off again.
pub const TURNED_OFF: u64 = 9;

/// The names a player may choose that try to be markup, markdown, or turn text around.
pub const HOSTILE: &str = "<script>alert(1)</script> **x** \u{202E}evil";

/// The moment every site's clock starts at, whatever the machine's date: 2026-12-05 12:00 UTC,
/// a day whose daily puzzle (#323) is won in 5 plies, after one (#258) won in 5. The pages'
/// tests solve it by Bredon's hint line, each hint a solver's search: 2026-11-28's puzzle
/// (#206, 15 plies) took 25 s of each of three tests (the store's tests keep hard puzzles).
pub const STARTS_AT_MS: i64 = 1_796_472_000_000;

pub struct Site {
    pub base: String,
    /// The pages' clock, started at `STARTS_AT_MS`.
    pub clock: Clock,
    pub service: Arc<Service>,
    /// The open server's slug, and the one the turned-off server had.
    pub slug: String,
    pub old_slug: String,
    _dir: tempfile::TempDir,
}

pub fn user(name: &str) -> PlayerRef {
    let id = name.bytes().fold(1469598103934665603u64, |h, b| {
        (h ^ b as u64).wrapping_mul(1099511628211)
    });
    PlayerRef {
        id,
        name: name.into(),
    }
}

pub fn ctx(guild: u64, channel: u64, who: &PlayerRef) -> Ctx {
    Ctx {
        guild,
        channel,
        user: who.clone(),
        now_ms: 1_700_000_000_000,
        moderator: who.name == "mod",
        request: None,
    }
}

/// `players[0]` (White) against `players[1]` on 5x5, rated, in `channel`, with `plies`
/// played in turn.
pub fn game(service: &Service, guild: u64, channel: u64, players: [&PlayerRef; 2], plies: &[&str]) {
    sized_game(service, guild, channel, players, 5, plies);
}

/// `game` on a board of `size`.
pub fn sized_game(
    service: &Service,
    guild: u64,
    channel: u64,
    players: [&PlayerRef; 2],
    size: usize,
    plies: &[&str],
) {
    let options = ChallengeOptions {
        opponent: Some(players[1].clone()),
        seat: Seat::White,
        size: Some(size),
        rated: true,
        ..ChallengeOptions::default()
    };
    service
        .challenge(&ctx(guild, channel, players[0]), &options)
        .unwrap();
    service.accept(&ctx(guild, channel, players[1])).unwrap();
    for (i, ply) in plies.iter().enumerate() {
        service
            .play(&ctx(guild, channel, players[i % 2]), ply)
            .unwrap_or_else(|e| panic!("{ply}: {e}"));
        crate::support::delivered_all(service);
    }
}

/// Six plies of a game being played (game #1), and a finished one (game #2, a road).
pub const LIVE: [&str; 6] = ["e1", "a1", "b3", "a5", "c3", "b5"];
pub const ROAD: [&str; 11] = [
    "e1", "a1", "a3", "a5", "b3", "b5", "c3", "c5", "d3", "d5", "e3",
];

impl Site {
    /// The store and the pages: in each server, alice plays bob (#1, live) and alice's road on
    /// rank 3 (#2, finished); in OPEN, the hostile name plays carol too (#3, live).
    pub async fn start() -> Site {
        Site::start_limited(Some(bredon::web::RateLimit::PAGES)).await
    }

    /// The site, with `limit` on each address's requests (`None`: as behind a reverse proxy).
    pub async fn start_limited(limit: Option<bredon::web::RateLimit>) -> Site {
        Site::start_bounded(limit, bredon::web::HEADER_READ).await
    }

    /// The site whose requests' headers have `header_read` to arrive (production's 10 s, or a
    /// second for the tests of that bound).
    pub async fn start_reading_headers_within(header_read: Duration) -> Site {
        Site::start_bounded(Some(bredon::web::RateLimit::PAGES), header_read).await
    }

    async fn start_bounded(limit: Option<bredon::web::RateLimit>, header_read: Duration) -> Site {
        let dir = tempfile::tempdir().unwrap();
        let service = Arc::new(Service::new(
            bredon::store::Store::open(dir.path()).unwrap(),
        ));
        let (alice, bob, carol, hostile) =
            (user("alice"), user("bob"), user("carol"), user(HOSTILE));
        let moderator = user("mod");
        for guild in [OPEN, CLOSED, TURNED_OFF] {
            game(&service, guild, 100 + guild, [&alice, &bob], &LIVE);
            game(&service, guild, 200 + guild, [&alice, &bob], &ROAD);
        }
        game(&service, OPEN, 300, [&hostile, &carol], &["a1", "e5"]);
        let settings = service.set_web(&ctx(OPEN, 1, &moderator), true).unwrap();
        let slug = settings.web_slug.unwrap();
        let old_slug = service
            .set_web(&ctx(TURNED_OFF, 1, &moderator), true)
            .unwrap()
            .web_slug
            .unwrap();
        service
            .set_web(&ctx(TURNED_OFF, 1, &moderator), false)
            .unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let clock = Clock::starting_at(STARTS_AT_MS);
        tokio::spawn(bredon::web::serve_on_reading_headers_within(
            listener,
            Arc::clone(&service),
            limit,
            clock,
            header_read,
        ));
        Site {
            base,
            clock,
            service,
            slug,
            old_slug,
            _dir: dir,
        }
    }

    /// The address of a page of the open server: `""` is its page, `"game/1"` a game's.
    pub fn page(&self, rest: &str) -> String {
        match rest {
            "" => format!("{}/s/{}", self.base, self.slug),
            rest => format!("{}/s/{}/{rest}", self.base, self.slug),
        }
    }
}

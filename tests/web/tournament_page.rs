//! A tournament's page: a Swiss of four played through the service, its page read in headless
//! Chromium after every round and compared, row by row, with `/tournament standings`; a
//! tournament of another server and ids that name none answer the one 404; a hostile name is
//! text; the server's page lists its tournaments.

use crate::browser::{browser, shot};
use crate::http::get;
use crate::site::*;
use bredon::service::{parse_format, ChallengeOptions, TournamentOptions};
use fantoccini::{Client, Locator};

/// The tournament's channel in the open server (another server's is `CHANNEL + guild`).
const CHANNEL: u64 = 500;
const PLAYERS: [&str; 4] = ["alice", "bob", "carol", "dave"];

fn options(name: &str) -> TournamentOptions {
    TournamentOptions {
        name: name.into(),
        format: parse_format("swiss", Some(3)).unwrap(),
        game: ChallengeOptions {
            size: Some(5),
            ..ChallengeOptions::default()
        },
        limit: None,
        start: None,
        no_vacations: false,
    }
}

/// A tournament of `PLAYERS` in `guild`, started (round 1 paired); its id.
pub fn started(site: &Site, guild: u64, name: &str) -> u64 {
    let moderator = user("mod");
    let channel = if guild == OPEN {
        CHANNEL
    } else {
        CHANNEL + guild
    };
    let s = &site.service;
    s.create_tournament(&ctx(guild, channel, &moderator), &options(name))
        .unwrap();
    for p in PLAYERS {
        s.join_tournament(&ctx(guild, channel, &user(p))).unwrap();
    }
    s.start_tournament(&ctx(guild, channel, &moderator))
        .unwrap();
    let view = s.tournament_view(&ctx(guild, channel, &moderator)).unwrap();
    view.tournament.id
}

/// The standings table of `/tournament standings`, each line split into its cells.
fn discord_rows(site: &Site) -> Vec<Vec<String>> {
    let outcome = site
        .service
        .tournament_standings(&ctx(OPEN, CHANNEL, &user("mod")))
        .unwrap();
    let table = outcome.table.expect("standings come with their table");
    table
        .lines()
        .map(|line| line.split_whitespace().map(String::from).collect())
        .collect()
}

/// The page's standings: the heading row, then every row's cells.
async fn page_rows(c: &Client) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for row in c.find_all(Locator::Css("#standings tr")).await.unwrap() {
        let mut cells = Vec::new();
        for cell in row.find_all(Locator::Css("th, td")).await.unwrap() {
            cells.push(cell.text().await.unwrap());
        }
        rows.push(cells);
    }
    rows
}

/// Opens every pairing waiting for its game, in a thread of its own; the threads.
fn open_games(site: &Site, next_thread: &mut u64) -> Vec<u64> {
    let mut threads = Vec::new();
    for pending in site.service.pending_pairings().unwrap() {
        *next_thread += 1;
        site.service
            .start_pairing(pending.fixture, *next_thread, 1_700_000_000_000)
            .unwrap()
            .expect("a pending pairing starts");
        threads.push(*next_thread);
    }
    threads
}

/// Ends the game in `thread`: the name first in the alphabet wins, except that dave's games
/// are drawn (so the points tie and the tie-breaks decide).
fn decide(site: &Site, thread: u64) {
    let s = &site.service;
    let game = s.store().game(thread).unwrap().unwrap();
    let [white, black] = game.players.clone();
    if white.name == "dave" || black.name == "dave" {
        s.offer_draw(&ctx(OPEN, thread, &white)).unwrap();
        s.answer_draw(&ctx(OPEN, thread, &black), true).unwrap();
    } else {
        let loser = if white.name < black.name {
            black
        } else {
            white
        };
        s.resign(&ctx(OPEN, thread, &loser)).unwrap();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_page_shows_the_standings_of_discord_after_every_round() {
    let site = Site::start().await;
    let id = started(&site, OPEN, HOSTILE);
    let Some(browser) = browser().await else {
        return;
    };
    let c = &browser.client;
    c.set_window_size(1280, 900).await.unwrap();
    let address = site.page(&format!("tournament/{id}"));
    let mut next_thread = 6000;
    let mut seen = Vec::new();
    for round in 1..=3 {
        let threads = open_games(&site, &mut next_thread);
        assert_eq!(threads.len(), 2, "round {round}: two games of four players");
        c.goto(&address).await.unwrap();
        // While the round is played, its games are linked from their pairings (the newest
        // round first).
        let newest = c.find(Locator::Css(".round")).await.unwrap();
        let links = newest
            .find_all(Locator::Css("ul.pairings a"))
            .await
            .unwrap();
        assert_eq!(links.len(), 2, "round {round}'s games are linked");
        for link in links {
            let href = link.attr("href").await.unwrap().unwrap();
            assert_eq!(get(&site.base, &href).await.status, 200, "{href}");
        }
        for thread in threads {
            decide(&site, thread);
        }
        site.service.tournament_news(1_700_000_000_000).unwrap();
        c.goto(&address).await.unwrap();
        let page = page_rows(c).await;
        assert_eq!(page, discord_rows(&site), "round {round}");
        assert_eq!(page[0], ["#", "Player", "Pts", "Bu", "mBu"]);
        assert_eq!(page.len(), 1 + PLAYERS.len());
        seen.push(page);
    }
    assert_ne!(seen[0], seen[2], "the standings moved between rounds");
    let state = c.find(Locator::Id("state")).await.unwrap();
    assert_eq!(state.text().await.unwrap(), "finished");
    // Every round is there, each pairing as `/tournament pairings` says it.
    let rounds = c.find_all(Locator::Css(".round")).await.unwrap();
    assert_eq!(rounds.len(), 3);
    let first = rounds[2].find(Locator::Css("li")).await.unwrap();
    let line = first.text().await.unwrap();
    assert!(
        regex::Regex::new(r"^\w+ (1-0|0-1|½-½) \w+ \(game #\d+\)$")
            .unwrap()
            .is_match(&line),
        "{line}"
    );
    // The crosstable: a row per player, a column per round.
    let cross = c
        .find_all(Locator::Css("#crosstable tbody tr"))
        .await
        .unwrap();
    assert_eq!(cross.len(), PLAYERS.len());
    let heading = c.find(Locator::Css("h1")).await.unwrap();
    assert_eq!(heading.text().await.unwrap(), HOSTILE, "the name is text");
    assert!(
        c.get_alert_text().await.is_err(),
        "a script of the name ran"
    );
    shot(c, 1280, "web-tournament-1280.png").await;
    shot(c, 400, "web-tournament-400.png").await;
    // The server's page links it.
    c.goto(&site.page("")).await.unwrap();
    let listed = c.find(Locator::Css("ul.tournaments a")).await.unwrap();
    assert_eq!(listed.text().await.unwrap(), HOSTILE);
    assert_eq!(
        listed.attr("href").await.unwrap().unwrap(),
        format!("/s/{}/tournament/{id}", site.slug)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tournament_of_another_server_or_none_is_not_found() {
    let site = Site::start().await;
    let ours = started(&site, OPEN, "Ours");
    let theirs = started(&site, CLOSED, "Theirs");
    let nothing = get(&site.base, "/nowhere").await;
    let here = |id: &str| format!("/s/{}/tournament/{id}", site.slug);
    // The control: the open server's own tournament is there, named.
    let page = get(&site.base, &here(&ours.to_string())).await;
    assert_eq!(page.status, 200);
    assert!(page.text().contains("<h1><bdi>Ours</bdi></h1>"));
    for target in [
        here(&theirs.to_string()),
        here("999999"),
        here("-1"),
        here("x"),
        here(&format!("{ours}0")),
        format!("/s/{}/tournament/{ours}", site.old_slug),
        format!("/s/no-such-server/tournament/{ours}"),
    ] {
        let answer = get(&site.base, &target).await;
        assert_eq!(answer.status, 404, "{target}");
        assert_eq!(answer.body, nothing.body, "{target} tells itself apart");
    }
}

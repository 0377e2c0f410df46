//! The web pages through Discord: `/settings web:` turned on by a server manager only, the
//! address given from `BREDON_WEB_URL`, the pages served by `bredon run` itself
//! (`BREDON_WEB_ADDR`), a new address with `web_reset:`, and nothing once turned off; the
//! "On the web" link buttons of `/board` and of a finished game's record.

use crate::fake_discord::{self, FakeDiscord, Request};
use crate::harness::*;
use serde_json::json;
use std::time::Duration;

async fn status(url: &str) -> u16 {
    reqwest::get(url).await.unwrap().status().as_u16()
}

/// The slug in a `/settings` answer's address.
fn slug_in(answer: &str) -> String {
    regex::Regex::new(r"<https://tak\.example/s/([0-9a-f]{24})>")
        .unwrap()
        .captures(answer)
        .unwrap_or_else(|| panic!("no address in {answer}"))[1]
        .to_string()
}

/// The bot, its pages served on a port of 127.0.0.1 it takes itself, and their address as its
/// log names it.
async fn boot_serving(
    web_url: &str,
    extra: &[(&str, &str)],
) -> (FakeDiscord, tempfile::TempDir, Bot, String) {
    let mut env = vec![
        ("BREDON_WEB_ADDR", "127.0.0.1:0"),
        ("BREDON_WEB_URL", web_url),
    ];
    env.extend_from_slice(extra);
    let (fake, data, bot) = boot_logging_with(&env).await;
    bot.logged(&["serving the web pages"]).await;
    let log = bot.log();
    let addr = log
        .lines()
        .find(|l| l.contains("serving the web pages"))
        .and_then(|l| l.split("addr=").nth(1))
        .and_then(|a| a.split_whitespace().next())
        .expect("the address in the log")
        .to_string();
    (fake, data, bot, addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_manager_turns_the_web_pages_on_and_the_bot_serves_them() {
    let (fake, _data, _bot, addr) = boot_serving("https://tak.example/", &[]).await;
    start_game(&fake).await;
    let on = json!([{ "name": "web", "type": 5, "value": true }]);
    let r = run(&fake, &alice(), "settings", on.clone()).await;
    assert!(r.is_ephemeral() && r.content().contains("only a server moderator"));
    let r = run(&fake, &server_manager(), "settings", json!([])).await;
    assert!(r.content().contains("Web pages: off."), "{}", r.content());
    let r = run(&fake, &server_manager(), "settings", on.clone()).await;
    assert!(r.is_ephemeral(), "the address is told to the manager alone");
    let slug = slug_in(&r.content());
    let page = format!("http://{addr}/s/{slug}/game/1");
    assert_eq!(status(&page).await, 200);
    let text = reqwest::get(&page).await.unwrap().text().await.unwrap();
    assert!(
        text.contains("<h1>Game #1: <bdi>alice</bdi> vs <bdi>bob</bdi>"),
        "{text}"
    );
    // Turned on again, the address stays; reset, it changes and the old one is gone.
    let r = run(&fake, &server_manager(), "settings", on).await;
    assert_eq!(slug_in(&r.content()), slug);
    let reset = json!([{ "name": "web_reset", "type": 5, "value": true }]);
    let r = run(&fake, &server_manager(), "settings", reset).await;
    let new = slug_in(&r.content());
    assert_ne!(new, slug);
    assert_eq!(status(&page).await, 404);
    let new_page = format!("http://{addr}/s/{new}/game/1");
    assert_eq!(status(&new_page).await, 200);
    let off = json!([{ "name": "web", "type": 5, "value": false }]);
    let r = run(&fake, &server_manager(), "settings", off).await;
    assert!(r.content().contains("Web pages: off."), "{}", r.content());
    assert_eq!(status(&new_page).await, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boards_and_results_link_their_page_once_the_pages_are_on() {
    let (fake, _data, _bot, addr) = boot_serving("https://tak.example", &[]).await;
    start_game(&fake).await;
    ply(&fake, &alice(), "a1").await;
    ply(&fake, &bob(), "e5").await;
    let r = run(&fake, &alice(), "board", json!([])).await;
    assert_eq!(r.link_urls(), Vec::<String>::new(), "no link while off");
    let on = json!([{ "name": "web", "type": 5, "value": true }]);
    let slug = slug_in(
        &run(&fake, &server_manager(), "settings", on)
            .await
            .content(),
    );
    let page = format!("https://tak.example/s/{slug}/game/1");
    let r = run(&fake, &alice(), "board", json!([])).await;
    assert_eq!(r.link_urls(), vec![page.clone()]);
    assert!(
        r.text().contains("bredon:board-move:"),
        "the board keeps its buttons"
    );
    let served = page.replace("https://tak.example", &format!("http://{addr}"));
    assert_eq!(status(&served).await, 200, "the link opens the game's page");
    // A finished game: its record links the page beside the rematch button, and the link
    // stays when the rematch button is spent.
    run(&fake, &bob(), "resign", json!([])).await;
    fake.wait_until("the record", Duration::from_secs(20), |f| {
        f.button(CHANNEL, "bredon:rematch:").is_some()
    })
    .await;
    let record = |f: &FakeDiscord| {
        f.messages()
            .into_iter()
            .rev()
            .find(|m| m.channel == CHANNEL && m.components.to_string().contains("bredon:rematch:"))
            .expect("the record")
    };
    assert_eq!(
        fake_discord::link_urls(&record(&fake).components),
        vec![page.clone()]
    );
    let r = run(
        &fake,
        &alice(),
        "board",
        json!([{ "name": "game", "type": 4, "value": 1 }]),
    )
    .await;
    assert_eq!(r.link_urls(), vec![page.clone()]);
    let r = run_with_ply_of_game_1(&fake, 1).await;
    assert_eq!(r.link_urls(), vec![format!("{page}?ply=1")]);
    press(&fake, &alice(), "bredon:rematch").await;
    fake.wait_until("the rematch button spent", Duration::from_secs(10), |f| {
        record(f)
            .components
            .to_string()
            .contains("\"disabled\":true")
    })
    .await;
    assert_eq!(
        fake_discord::link_urls(&record(&fake).components),
        vec![page]
    );
}

/// Links Discord refuses anyway (a server's filter, say): the result and the record still
/// arrive, as text alone, and the operator's log says so once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_whose_link_is_refused_still_arrives_as_text_alone() {
    let (fake, data, bot, _addr) = boot_serving("https://tak.example", &[]).await;
    start_game(&fake).await;
    ply(&fake, &alice(), "a1").await;
    ply(&fake, &bob(), "e5").await;
    let on = json!([{ "name": "web", "type": 5, "value": true }]);
    run(&fake, &server_manager(), "settings", on).await;
    fake.refuse_links(u64::MAX);
    run(&fake, &bob(), "resign", json!([])).await;
    let said = |f: &FakeDiscord, text: &str| {
        f.messages()
            .into_iter()
            .filter(|m| m.channel == CHANNEL && !m.deleted && m.content.contains(text))
            .collect::<Vec<_>>()
    };
    fake.wait_until("the record, as text", Duration::from_secs(30), |f| {
        !said(f, "Series").is_empty()
    })
    .await;
    let env = [
        ("BREDON_WEB_ADDR", "127.0.0.1:0"),
        ("BREDON_WEB_URL", "https://tak.example"),
    ];
    let told = bot.log_count(&["refused a message as it was"]);
    assert_eq!(outbox_after(&fake, data.path(), &env, bot).await, 0);
    assert_eq!(told, 1, "the operator told once");
    let record = said(&fake, "Series");
    assert_eq!(record.len(), 1, "one record");
    assert!(
        fake_discord::link_urls(&record[0].components).is_empty(),
        "no link left"
    );
    assert_eq!(said(&fake, "resigns").len(), 1, "one result");
}

/// `/board game:1 ply:N`.
async fn run_with_ply_of_game_1(fake: &FakeDiscord, ply: u64) -> Request {
    let options = json!([
        { "name": "game", "type": 4, "value": 1 },
        { "name": "ply", "type": 4, "value": ply }
    ]);
    run(fake, &alice(), "board", options).await
}

/// `bredon run` serving its pages on a free address (with `extra` in its environment), and a
/// server manager having turned them on: the fake, the data folder, the bot, the pages' address
/// and the server's slug.
async fn boot_with_pages(
    extra: &[(&str, &str)],
) -> (FakeDiscord, tempfile::TempDir, Bot, String, String) {
    let (fake, data, bot, addr) = boot_serving("https://tak.example", extra).await;
    let on = json!([{ "name": "web", "type": 5, "value": true }]);
    let slug = slug_in(
        &run(&fake, &server_manager(), "settings", on)
            .await
            .content(),
    );
    (fake, data, bot, addr, slug)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tournament_standings_link_the_tournaments_page() {
    let (fake, _data, _bot, addr, slug) = boot_with_pages(&[]).await;
    let create = json!([{ "name": "name", "type": 3, "value": "Spring" }, { "name": "format", "type": 4, "value": 0 }]);
    tournament_cmd(&fake, &moderator(), "create", create).await;
    tournament_cmd(&fake, &alice(), "join", json!([])).await;
    let r = tournament_cmd(&fake, &alice(), "standings", json!([])).await;
    let links = r.link_urls();
    let prefix = format!("https://tak.example/s/{slug}/tournament/");
    assert!(
        links.len() == 1 && links[0].starts_with(&prefix),
        "{links:?} {}",
        r.content()
    );
    let served = links[0].replace("https://tak.example", &format!("http://{addr}"));
    let page = reqwest::get(&served).await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("Spring"));
}

/// `/analyze` of a game of the server keeps the analysis for its page: the page lists it and
/// draws the chart the analysis posted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_made_on_discord_shows_on_the_games_page() {
    let (fake, _data, _bot, addr, slug) = boot_with_pages(&[("BREDON_ANALYSIS_MS", "50")]).await;
    start_game(&fake).await;
    for (who, played) in [
        (alice(), "a1"),
        (bob(), "e5"),
        (alice(), "b1"),
        (bob(), "d5"),
    ] {
        ply(&fake, &who, played).await;
    }
    run(&fake, &bob(), "resign", json!([])).await;
    let page = format!("http://{addr}/s/{slug}/game/1");
    let text = reqwest::get(&page).await.unwrap().text().await.unwrap();
    assert!(!text.contains("<h2>Analysis</h2>"), "none before /analyze");
    let from = fake.requests().len();
    let token = fake.command(&carol(), CHANNEL, "analyze", json!([]));
    let done = fake
        .wait_request(from, "the analysis", |r| {
            r.path.contains(&token) && r.method == "PATCH" && r.text().contains("analysis.ptn")
        })
        .await;
    assert_eq!(done.status, 200, "{}", done.text());
    let posted = done
        .files()
        .into_iter()
        .find(|(name, _)| name == "evaluation.png")
        .expect("the chart")
        .1;
    let text = reqwest::get(&page).await.unwrap().text().await.unwrap();
    assert!(text.contains("<h2>Analysis</h2>"), "{text}");
    assert!(text.contains("By <bdi>Bredon "), "{text}");
    let chart = reqwest::get(format!("{page}/chart")).await.unwrap();
    assert_eq!(chart.status(), 200);
    assert_eq!(chart.bytes().await.unwrap().to_vec(), posted);
}

/// A game in a channel a moderator hides from @everyone leaves the pages (unless a manager lists
/// the channel with `/settings web_channels:`), and so does one in a thread of such a channel:
/// the bot reads who may see a channel from Discord's events (the @everyone role, the
/// channel's overwrite for it, a new thread's parent).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_in_a_channel_hidden_from_everyone_leave_the_pages() {
    let (fake, _data, bot, addr, slug) = boot_with_pages(&[]).await;
    start_game(&fake).await;
    let page = format!("http://{addr}/s/{slug}/game/1");
    assert_eq!(
        status(&page).await,
        200,
        "the control: a channel everyone sees"
    );
    fake.hide_from_everyone(CHANNEL, true);
    bot.logged(&["the channels not everyone sees changed"])
        .await;
    assert_eq!(status(&page).await, 404);
    let listed = reqwest::get(format!("http://{addr}/s/{slug}"))
        .await
        .unwrap();
    let listed = listed.text().await.unwrap();
    assert!(!listed.contains(&format!("/s/{slug}/game/1\"")), "{listed}");
    // A manager may list the channel all the same, by its mention; `none` lists none again.
    let listing = |text: &str| json!([{ "name": "web_channels", "type": 3, "value": text }]);
    let mention = format!("<#{CHANNEL}>");
    let r = run(&fake, &alice(), "settings", listing(&mention)).await;
    assert!(r.is_ephemeral() && r.content().contains("only a server moderator"));
    let r = run(&fake, &server_manager(), "settings", listing(&mention)).await;
    let said = format!("though not everyone sees them: {mention} (");
    assert!(r.content().contains(&said), "{}", r.content());
    assert_eq!(status(&page).await, 200);
    let r = run(&fake, &server_manager(), "settings", listing("#general")).await;
    assert!(r.is_ephemeral(), "a refusal is told to the manager alone");
    says(&r, "#general");
    says(&r, "is not a channel: name the channels as #mentions");
    assert_eq!(status(&page).await, 200, "a refusal changes nothing");
    let r = run(&fake, &server_manager(), "settings", listing("none")).await;
    assert!(
        !r.content().contains("though not everyone"),
        "{}",
        r.content()
    );
    assert_eq!(status(&page).await, 404);
    // A game in a new thread of that channel is hidden too.
    let thread = json!([{ "name": "thread", "type": 5, "value": true }]);
    let r = challenge_bob(&fake, thread).await;
    says(&r, "in <#");
    let thread = *fake.threads().last().expect("a thread");
    press_in(&fake, thread, &bob(), "bredon:accept").await;
    fake.wait_until("the thread known", Duration::from_secs(10), |_| {
        bot.log_count(&["the channels not everyone sees changed"]) >= 2
    })
    .await;
    let second = format!("http://{addr}/s/{slug}/game/2");
    assert_eq!(status(&second).await, 404);
    // Seen by everyone again, the channel and its thread are back on the pages.
    fake.hide_from_everyone(CHANNEL, false);
    fake.wait_until("the pages back", Duration::from_secs(10), |_| {
        bot.log_count(&["the channels not everyone sees changed"]) >= 3
    })
    .await;
    assert_eq!(status(&page).await, 200);
    assert_eq!(status(&second).await, 200);
}

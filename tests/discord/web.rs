//! The web pages through Discord: `/settings web:` turned on by a server manager only, the
//! address given from `BREDON_WEB_URL`, the pages served by `bredon run` itself
//! (`BREDON_WEB_ADDR`), a new address with `web_reset:`, and nothing once turned off.

use crate::harness::*;
use serde_json::json;

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_manager_turns_the_web_pages_on_and_the_bot_serves_them() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let env = [
        ("BREDON_WEB_ADDR", addr.as_str()),
        ("BREDON_WEB_URL", "https://tak.example/"),
    ];
    let (fake, _data, _bot) = boot_with(30.0, &env).await;
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

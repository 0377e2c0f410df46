//! Players' pages over plain HTTP: ratings, results and head-to-head records of a few played
//! games; a key opens its player only on its own server's address and dies with a reset; an
//! unknown key is the same 404 as any other address; no user id in any page or address.

use crate::http::{get, words};
use crate::site::*;
use bredon::service::Service;

/// After the site's games, in the open server: carol resigns to alice (#4), bob beats alice
/// on a road (#5). alice: won #2 against bob, won #4, lost #5.
pub fn more_games(service: &Service) {
    let (alice, bob, carol) = (user("alice"), user("bob"), user("carol"));
    game(
        service,
        OPEN,
        400,
        [&alice, &carol],
        &["e1", "a1", "b3", "a5", "c3", "b5"],
    );
    service.resign(&ctx(OPEN, 400, &carol)).unwrap();
    game(service, OPEN, 500, [&bob, &alice], &ROAD);
}

/// The key the page at `page` links `name` to.
pub async fn key_of(base: &str, page: &str, slug: &str, name: &str) -> String {
    let body = get(base, page).await.text();
    let linked = regex::Regex::new(&format!(
        r#"href="/s/{slug}/player/([0-9a-f]+)"><bdi>{name}</bdi>"#
    ))
    .unwrap();
    linked
        .captures(&body)
        .unwrap_or_else(|| panic!("{name} is not linked in {body}"))[1]
        .to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_players_page_shows_ratings_results_and_head_to_head() {
    let site = Site::start().await;
    more_games(&site.service);
    let key = key_of(
        &site.base,
        &format!("/s/{}", site.slug),
        &site.slug,
        "alice",
    )
    .await;
    let page = get(&site.base, &format!("/s/{}/player/{key}", site.slug)).await;
    assert_eq!(page.status, 200);
    let body = page.text();
    let words = words(&body);
    // The rating the leaderboard shows, and its record.
    let ours = site
        .service
        .store()
        .player(OPEN, user("alice").id, bredon::game::Kind::Tak, 5)
        .unwrap()
        .unwrap();
    assert!(
        words.contains(&format!("5x5: {:.0} 2 won, 1 lost, 0 drawn", ours.rating)),
        "{words}"
    );
    // Three rated games: four points on the chart.
    assert_eq!(body.matches("<circle").count(), 4, "{body}");
    // Results, newest first, each linked to its game.
    let games: Vec<usize> = ["/game/5\"", "/game/4\"", "/game/2\""]
        .iter()
        .map(|g| body.find(g).unwrap_or_else(|| panic!("{g} not linked")))
        .collect();
    assert!(games.windows(2).all(|w| w[0] < w[1]), "newest first");
    assert!(
        words.contains("#5 bob 5x5 Black lost R-0 by road"),
        "{words}"
    );
    assert!(words.contains("#4 carol 5x5 White won 1-0"), "{words}");
    assert!(!body.contains("/game/1\""), "a live game is no result");
    // Head to head: bob once each way, carol once beaten.
    assert!(words.contains("Head to head Opponent Won Lost Drawn bob 1 1 0 carol 1 0 0"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_key_opens_its_player_only_on_its_own_server_and_dies_with_a_reset() {
    let site = Site::start().await;
    let moderator = user("mod");
    let other = site
        .service
        .set_web(&ctx(CLOSED, 1, &moderator), true)
        .unwrap()
        .web_slug
        .unwrap();
    let nothing = get(&site.base, "/s/no-such-server").await;
    let key = key_of(
        &site.base,
        &format!("/s/{}", site.slug),
        &site.slug,
        "alice",
    )
    .await;
    let theirs = format!("/s/{other}");
    let their_key = key_of(&site.base, &theirs, &other, "alice").await;
    assert_ne!(key, their_key, "alice's keys tell her servers apart");
    assert_eq!(key.len(), 16);
    // Each key opens alice on its own server (the control)...
    for (slug, key) in [(&site.slug, &key), (&other, &their_key)] {
        let page = get(&site.base, &format!("/s/{slug}/player/{key}")).await;
        assert_eq!(page.status, 200);
        assert!(page.text().contains("<h1><bdi>alice</bdi></h1>"));
    }
    // ... and nothing on the other's, nor does a key made up or not a key at all.
    let id = user("alice").id;
    for target in [
        format!("/s/{other}/player/{key}"),
        format!("/s/{}/player/{their_key}", site.slug),
        format!("/s/{}/player/0123456789abcdef", site.slug),
        format!("/s/{}/player/{id}", site.slug),
        format!("/s/{}/player/{}", site.slug, key.to_uppercase()),
        format!("/s/{}/player/{key}", site.old_slug),
        format!("/s/{CLOSED}/player/{their_key}"),
    ] {
        let answer = get(&site.base, &target).await;
        assert_eq!(answer.status, 404, "{target}");
        assert_eq!(answer.body, nothing.body, "{target}");
    }
    // A reset gives a new address and new keys: the old key opens nothing on the new one.
    let new = site
        .service
        .reset_web(&ctx(OPEN, 1, &moderator))
        .unwrap()
        .web_slug
        .unwrap();
    let old_key = get(&site.base, &format!("/s/{new}/player/{key}")).await;
    assert_eq!(old_key.status, 404);
    let new_key = key_of(&site.base, &format!("/s/{new}"), &new, "alice").await;
    assert_ne!(new_key, key);
    let page = get(&site.base, &format!("/s/{new}/player/{new_key}")).await;
    assert_eq!(page.status, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn no_page_or_address_holds_a_user_id() {
    let site = Site::start().await;
    more_games(&site.service);
    let ids: Vec<u64> = ["alice", "bob", "carol", HOSTILE, "mod"]
        .iter()
        .map(|n| user(n).id)
        .collect();
    let links = regex::Regex::new(r#"href="([^"]+)""#).unwrap();
    let mut seen = vec![format!("/s/{}", site.slug)];
    let mut read = 0;
    // Every page of the open server reachable from its own page, each read once.
    while read < seen.len() {
        let target = seen[read].clone();
        read += 1;
        let answer = get(&site.base, &target).await;
        assert_eq!(answer.status, 200, "{target}");
        let body = answer.text();
        for id in &ids {
            for form in [id.to_string(), format!("{id:x}"), format!("{id:X}")] {
                assert!(!body.contains(&form), "{target} holds the user id {form}");
                assert!(!target.contains(&form), "{target} holds the user id {form}");
            }
        }
        for link in links.captures_iter(&body) {
            let link = link[1].split('?').next().unwrap_or_default().to_string();
            let ours = link.starts_with(&format!("/s/{}", site.slug));
            if ours && !link.ends_with("/ptn") && !seen.contains(&link) {
                seen.push(link);
            }
        }
    }
    let players = seen.iter().filter(|t| t.contains("/player/")).count();
    // The hostile name's one game is being played: no finished game, no page.
    assert_eq!(players, 3, "alice, bob and carol: {seen:?}");
    assert!(seen.iter().any(|t| t.ends_with("/puzzle")), "{seen:?}");
}

//! The pages over plain HTTP: what a server without pages answers, the methods, the policy,
//! names as text, pictures and their ETags, the record, and a fuzz of paths.

use crate::http::{get, request};
use crate::site::*;

#[tokio::test(flavor = "multi_thread")]
async fn a_server_without_its_pages_on_answers_as_a_page_that_does_not_exist() {
    let site = Site::start().await;
    let nothing = get(&site.base, "/s/no-such-server").await;
    assert_eq!(nothing.status, 404);
    // The control: the open server's pages are there.
    for page in ["", "/game/1", "/game/2", "/game/2/board/0", "/game/2/ptn"] {
        let target = format!("/s/{}{page}", site.slug);
        assert_eq!(get(&site.base, &target).await.status, 200, "{target}");
    }
    let mut closed = Vec::new();
    for slug in [
        site.old_slug.clone(),
        CLOSED.to_string(),
        TURNED_OFF.to_string(),
    ] {
        for page in [
            "",
            "/game/1",
            "/game/2",
            "/game/2/board/0",
            "/game/2/ptn",
            "/game/1/events",
        ] {
            closed.push(format!("/s/{slug}{page}"));
        }
    }
    closed.push(format!("/s/{}/game/99", site.slug));
    closed.push(format!("/s/{}/game/99/board/0", site.slug));
    for target in closed {
        let answer = get(&site.base, &target).await;
        assert_eq!(answer.status, 404, "{target}");
        assert_eq!(answer.body, nothing.body, "{target} tells itself apart");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_new_address_retires_the_old_one() {
    let site = Site::start().await;
    let moderator = user("mod");
    let settings = site.service.reset_web(&ctx(OPEN, 1, &moderator)).unwrap();
    let new = settings.web_slug.unwrap();
    assert_ne!(new, site.slug);
    assert_eq!(
        get(&site.base, &format!("/s/{}", site.slug)).await.status,
        404
    );
    assert_eq!(
        get(&site.base, &format!("/s/{new}/game/1")).await.status,
        200
    );
    let player = site.service.reset_web(&ctx(OPEN, 1, &user("alice")));
    assert!(player.unwrap_err().0.contains("Manage Server"));
    let off = site.service.reset_web(&ctx(CLOSED, 1, &moderator));
    assert!(off.unwrap_err().0.contains("web:true"));
}

#[tokio::test(flavor = "multi_thread")]
async fn only_get_and_head_are_answered() {
    let site = Site::start().await;
    let game = format!("/s/{}/game/1", site.slug);
    let targets = [
        game.clone(),
        format!("/s/{}", site.slug),
        "/nowhere".into(),
        "/static/style.css".into(),
    ];
    for target in &targets {
        for method in [
            "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT",
        ] {
            let answer = request(&site.base, method, target, &[]).await;
            assert_eq!(answer.status, 405, "{method} {target}");
            assert_eq!(answer.header("allow").as_deref(), Some("GET, HEAD"));
        }
    }
    let head = request(&site.base, "HEAD", &game, &[]).await;
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    assert!(head
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
}

#[tokio::test(flavor = "multi_thread")]
async fn every_answer_carries_a_strict_policy_and_no_page_holds_inline_code() {
    let site = Site::start().await;
    let inline =
        regex::Regex::new(r#"<script(?:\s[^>]*)?>[^<]|<script>|\son\w+=|\sstyle=|javascript:"#)
            .unwrap();
    for (method, target) in [
        ("GET", format!("/s/{}", site.slug)),
        ("GET", format!("/s/{}/game/1", site.slug)),
        ("GET", format!("/s/{}/game/2", site.slug)),
        ("GET", "/nowhere".into()),
        ("POST", "/".into()),
    ] {
        let answer = request(&site.base, method, &target, &[]).await;
        let policy = answer.header("content-security-policy").unwrap_or_default();
        assert_eq!(policy, bredon::web::CONTENT_SECURITY_POLICY, "{target}");
        assert!(!policy.contains("unsafe-inline") && policy.contains("default-src 'none'"));
        assert_eq!(
            answer.header("referrer-policy").as_deref(),
            Some("no-referrer")
        );
        assert_eq!(
            answer.header("x-content-type-options").as_deref(),
            Some("nosniff")
        );
        assert!(
            !inline.is_match(&answer.text()),
            "{target}: {}",
            answer.text()
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hostile_name_is_shown_as_text() {
    let site = Site::start().await;
    for target in [
        format!("/s/{}", site.slug),
        format!("/s/{}/game/3", site.slug),
    ] {
        let page = get(&site.base, &target).await.text();
        assert!(
            page.contains("&lt;script&gt;alert(1)&lt;/script&gt; **x** \u{202E}evil"),
            "{page}"
        );
        assert!(!page.contains("<script>alert"));
        assert!(!page.contains("<strong>x</strong>") && !page.contains("<b>x</b>"));
        // The right-to-left mark is held inside its name: the text after it reads on.
        assert!(
            page.contains("<bdi>&lt;script&gt;alert(1)&lt;/script&gt; **x** \u{202E}evil</bdi>")
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_server_page_lists_games_being_played_results_and_leaderboards() {
    let site = Site::start().await;
    let page = get(&site.base, &format!("/s/{}", site.slug)).await.text();
    let live = page.split("<h2>Results</h2>").next().unwrap();
    assert!(
        live.contains(&format!("href=\"/s/{}/game/1\"", site.slug)),
        "{live}"
    );
    assert!(
        live.contains("<td><bdi>alice</bdi></td>"),
        "alice to move after 6 plies: {live}"
    );
    assert!(
        !live.contains("game/2\""),
        "a finished game is not being played"
    );
    let (results, boards) = page
        .split_once("<h2>Results</h2>")
        .unwrap()
        .1
        .split_once("<h2>Leaderboards</h2>")
        .unwrap();
    assert!(
        results.contains("game/2\"") && results.contains("R-0"),
        "{results}"
    );
    assert!(boards.contains("<h3>5x5</h3>"), "{boards}");
    let alice = boards.find("<bdi>alice</bdi>").expect("alice is rated");
    let bob = boards.find("<bdi>bob</bdi>").expect("bob is rated");
    assert!(alice < bob, "the winner ranks first: {boards}");
    for user in ["alice", "bob", "carol"] {
        let id = super::site::user(user).id.to_string();
        assert!(!page.contains(&id), "a user id on the page");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn pictures_are_cached_by_etag_and_follow_the_game() {
    let site = Site::start().await;
    let board = |ply: usize| format!("/s/{}/game/1/board/{ply}", site.slug);
    let three = get(&site.base, &board(3)).await;
    assert_eq!(three.status, 200);
    assert_eq!(three.header("content-type").as_deref(), Some("image/png"));
    assert!(three.body.starts_with(b"\x89PNG"));
    assert_eq!(
        three.header("cache-control").as_deref(),
        Some("no-cache"),
        "a live game's"
    );
    let etag = three.header("etag").unwrap();
    let again = request(&site.base, "GET", &board(3), &[("If-None-Match", &etag)]).await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    let start = get(&site.base, &board(0)).await;
    assert_ne!(start.body, three.body);
    assert_ne!(start.header("etag"), Some(etag.clone()));
    assert_eq!(
        get(&site.base, &board(7)).await.status,
        404,
        "six plies so far"
    );
    // alice plays the seventh ply: its picture is there, the others keep their tags.
    site.service
        .play(&ctx(OPEN, 100 + OPEN, &user("alice")), "d3")
        .unwrap();
    assert_eq!(get(&site.base, &board(7)).await.status, 200);
    let same = request(&site.base, "GET", &board(3), &[("If-None-Match", &etag)]).await;
    assert_eq!(same.status, 304);
    let finished = get(&site.base, &format!("/s/{}/game/2/board/11", site.slug)).await;
    assert_eq!(
        finished.header("cache-control").as_deref(),
        Some("public, max-age=86400")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_record_downloads_and_ptn_ninja_opens_the_same_game() {
    let site = Site::start().await;
    let record = get(&site.base, &format!("/s/{}/game/2/ptn", site.slug)).await;
    assert_eq!(record.status, 200);
    assert_eq!(
        record.header("content-disposition").as_deref(),
        Some("attachment; filename=\"bredon-2-game.ptn\"")
    );
    let text = record.text();
    assert!(
        text.contains("[Player1 \"alice\"]") && text.contains("R-0"),
        "{text}"
    );
    let page = get(&site.base, &format!("/s/{}/game/2", site.slug))
        .await
        .text();
    let link = regex::Regex::new(r#"href="https://ptn\.ninja/([A-Za-z0-9$+-]+)""#)
        .unwrap()
        .captures(&page)
        .expect("a PTN Ninja link")[1]
        .to_string();
    assert_eq!(
        lz_str::decompress_from_encoded_uri_component(&link).map(|u| String::from_utf16_lossy(&u)),
        Some(text)
    );
    assert!(
        page.contains("max=\"11\" value=\"11\""),
        "the slider starts at the end"
    );
    let at = get(&site.base, &format!("/s/{}/game/2?ply=4", site.slug))
        .await
        .text();
    assert!(at.contains("max=\"11\" value=\"4\"") && at.contains("board/4\""));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_fuzz_of_paths_answers_4xx_never_500_and_never_a_file() {
    let site = Site::start().await;
    let slug = &site.slug;
    let long = "a".repeat(8000);
    let mut paths = vec![
        "/..".to_string(),
        "/../Cargo.toml".into(),
        "/static/../Cargo.toml".into(),
        "/static/..%2fCargo.toml".into(),
        "/static/%2e%2e/%2e%2e/Cargo.toml".into(),
        "/static/%2e%2e%2f%2e%2e%2fetc%2fpasswd".into(),
        "/static/".into(),
        "/static/game.js/..".into(),
        "/assets/web/style.css".into(),
        "/src/web/mod.rs".into(),
        "/etc/passwd".into(),
        "//etc/passwd".into(),
        format!("/s/{slug}/../../Cargo.toml"),
        format!("/s/{slug}/game/..%2f..%2fCargo.toml"),
        format!("/s/{slug}/game/1/board/..%2f..%2f..%2fCargo.toml"),
        format!("/s/{slug}/game/-1"),
        format!("/s/{slug}/game/0"),
        format!("/s/{slug}/game/1.5"),
        format!("/s/{slug}/game/18446744073709551616"),
        format!("/s/{slug}/game/1/board/18446744073709551616"),
        format!("/s/{slug}/game/1/board/-1"),
        format!("/s/{slug}/game/1/board/1.png"),
        format!("/s/{slug}/game/1/"),
        format!("/s/{slug}/game/%00"),
        format!("/s/{slug}%00"),
        "/s/%ff%fe".into(),
        "/s/%".into(),
        "/s/%zz/game/1".into(),
        format!("/s/{long}"),
        format!("/s/{slug}/game/{long}"),
        format!("/{long}"),
        "/s/*".into(),
        "/s/' OR 1=1 --".replace(' ', "%20"),
    ];
    paths.push(format!("/s/{}", "%2e".repeat(2000)));
    for path in &paths {
        let answer = get(&site.base, path).await;
        assert!(
            matches!(answer.status, 400 | 404 | 405),
            "{path}: {} {}",
            answer.status,
            answer.text()
        );
        let body = answer.text();
        assert!(
            !body.contains("[package]") && !body.contains("root:") && !body.contains("pub fn"),
            "{path}"
        );
    }
    // Odd query strings on a real page: the page, its ply chosen only when it is a number.
    for query in [
        "ply=abc",
        "ply=-3",
        "ply=99999999999999999999999",
        "ply=%00",
        "ply",
        "&&&",
        "ply=2&ply=5",
        &format!("x={long}"),
    ] {
        let answer = get(&site.base, &format!("/s/{slug}/game/2?{query}")).await;
        assert_eq!(answer.status, 200, "?{query}");
        assert!(answer.text().contains("<h1>Game #2"), "?{query}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_address_past_its_limit_is_answered_429_on_every_page() {
    let limit = bredon::web::RateLimit {
        burst: 5,
        every: std::time::Duration::from_secs(3600),
    };
    let site = Site::start_limited(Some(limit)).await;
    let game = format!("/s/{}/game/1", site.slug);
    for _ in 0..5 {
        assert_eq!(get(&site.base, &game).await.status, 200);
    }
    for target in [
        game.clone(),
        format!("/s/{}", site.slug),
        "/static/style.css".into(),
    ] {
        let refused = get(&site.base, &target).await;
        assert_eq!(refused.status, 429, "{target}");
        assert!(refused.header("retry-after").is_some(), "{}", refused.head);
        assert_eq!(
            refused.header("content-security-policy").as_deref(),
            Some(bredon::web::CONTENT_SECURITY_POLICY)
        );
    }
}

/// The first event a live page gets, read off the wire (its head and body, whatever comes
/// within a few seconds).
async fn first_event(site: &Site, target: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = site.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let text = format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    stream.write_all(text.as_bytes()).await.unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    let read = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        while !String::from_utf8_lossy(&seen).contains("event: plies") {
            let n = stream.read(&mut buf).await.unwrap();
            assert!(n > 0, "closed: {}", String::from_utf8_lossy(&seen));
            seen.extend_from_slice(&buf[..n]);
        }
        // The event's data follows its name.
        while !String::from_utf8_lossy(&seen).contains("\"finished\"") {
            let n = stream.read(&mut buf).await.unwrap();
            assert!(n > 0);
            seen.extend_from_slice(&buf[..n]);
        }
    });
    read.await.expect("an event within 10 s");
    String::from_utf8_lossy(&seen).into_owned()
}

/// A live update says what the page first said: whose move it is, since when and until when
/// (the deadline is what a correspondence watcher comes for), each name isolated so that one
/// holding a right-to-left override cannot reorder the line.
#[tokio::test(flavor = "multi_thread")]
async fn a_live_update_keeps_the_deadline_and_isolates_names() {
    let site = Site::start().await;
    let (alice, bob) = (user("alice"), user("bob"));
    let options = bredon::service::ChallengeOptions {
        opponent: Some(bob.clone()),
        seat: bredon::store::records::Seat::White,
        time_limit: Some("1d".into()),
        ..Default::default()
    };
    let channel = 777;
    site.service
        .challenge(&ctx(OPEN, channel, &alice), &options)
        .unwrap();
    site.service.accept(&ctx(OPEN, channel, &bob)).unwrap();
    site.service
        .play(&ctx(OPEN, channel, &alice), "a1")
        .unwrap();
    let event = first_event(&site, &format!("/s/{}/game/4/events?plies=0", site.slug)).await;
    assert!(
        event.contains("\u{2068}bob\u{2069} to move, since ")
            && event.contains("; loses on time at "),
        "{event}"
    );
    let hostile = first_event(&site, &format!("/s/{}/game/3/events?plies=0", site.slug)).await;
    let isolated = serde_json::to_string(&format!("\u{2068}{HOSTILE}\u{2069} to move")).unwrap();
    let isolated = isolated.trim_matches('"');
    assert!(hostile.contains(isolated), "{hostile}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_game_page_names_its_players_in_its_title() {
    let site = Site::start().await;
    let page = get(&site.base, &format!("/s/{}/game/1", site.slug)).await;
    let title = "<title>Game #1: \u{2068}alice\u{2069} vs \u{2068}bob\u{2069} · Bredon</title>";
    assert!(page.text().contains(title), "{}", page.text());
}

/// The winner is marked beside their name; a blind game being played offers no PTN Ninja
/// (which shows the board the game hides).
#[tokio::test(flavor = "multi_thread")]
async fn the_winner_is_marked_and_a_blind_game_links_no_board() {
    let site = Site::start().await;
    let won = get(&site.base, &format!("/s/{}/game/2", site.slug))
        .await
        .text();
    assert!(
        won.contains("<bdi>alice</bdi> <span class=\"won\">won</span> vs <bdi>bob</bdi></h1>"),
        "{won}"
    );
    let live = get(&site.base, &format!("/s/{}/game/1", site.slug))
        .await
        .text();
    assert!(!live.contains("class=\"won\""), "nobody won yet");
    assert!(
        live.contains("Open in PTN Ninja"),
        "the control: a game with pictures"
    );
    let (alice, bob) = (user("alice"), user("bob"));
    let options = bredon::service::ChallengeOptions {
        opponent: Some(bob.clone()),
        seat: bredon::store::records::Seat::White,
        blind: true,
        ..Default::default()
    };
    site.service
        .challenge(&ctx(OPEN, 778, &alice), &options)
        .unwrap();
    site.service.accept(&ctx(OPEN, 778, &bob)).unwrap();
    site.service.play(&ctx(OPEN, 778, &alice), "a1").unwrap();
    let blind = get(&site.base, &format!("/s/{}/game/4", site.slug))
        .await
        .text();
    assert!(blind.contains("A blind game"), "{blind}");
    assert!(!blind.contains("PTN Ninja"), "{blind}");
    // Nor its position, which would show the board as well as a picture.
    assert!(!blind.contains("id=\"position\""), "{blind}");
    assert!(!blind.contains("data-viewer"), "{blind}");
    let hidden = get(&site.base, &format!("/s/{}/game/4/position/1", site.slug)).await;
    assert_eq!(hidden.status, 404);
}

/// Beside the board, the shown ply's position as TPS, to copy: on the page for the ply it
/// opens at, and from the server for each ply the board steps to.
#[tokio::test(flavor = "multi_thread")]
async fn the_shown_position_is_written_as_tps_to_copy() {
    let site = Site::start().await;
    let record = get(&site.base, &format!("/s/{}/game/2/ptn", site.slug)).await;
    let game = bredon::game::Match::from_record(&record.text()).unwrap();
    for ply in [0, 3, 11] {
        let tps = game.after(ply).unwrap().position_text();
        let target = format!("/s/{}/game/2/position/{ply}", site.slug);
        let answer = get(&site.base, &target).await;
        assert_eq!(answer.status, 200, "{target}");
        assert_eq!(answer.text(), tps, "{target}");
        let page = get(&site.base, &format!("/s/{}/game/2?ply={ply}", site.slug)).await;
        let shown =
            format!("id=\"position\" type=\"text\" readonly spellcheck=\"false\" value=\"{tps}\"");
        assert!(page.text().contains(&shown), "{}", page.text());
    }
    let past = get(&site.base, &format!("/s/{}/game/2/position/12", site.slug)).await;
    assert_eq!(past.status, 404, "no ply 12");
    // The page carries every position for its script to draw, with the pieces in hand.
    let page = get(&site.base, &format!("/s/{}/game/2", site.slug))
        .await
        .text();
    let viewer = page
        .split("data-viewer=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    let viewer: serde_json::Value =
        serde_json::from_str(&viewer.replace("&quot;", "\"").replace("&amp;", "&")).unwrap();
    let positions: Vec<String> = (0..=11)
        .map(|ply| game.after(ply).unwrap().position_text())
        .collect();
    assert_eq!(viewer["positions"], serde_json::json!(positions));
    assert_eq!(viewer["hands"][0], serde_json::json!([21, 1, 21, 1]));
    assert_eq!(viewer["hands"][11], serde_json::json!([15, 1, 16, 1]));
    assert_eq!(viewer["kind"], "tak");
    // The record up to a ply, to copy: the game's tags, those plies, no result.
    let until = get(&site.base, &format!("/s/{}/game/2/ptn/3", site.slug)).await;
    assert_eq!(until.status, 200);
    let cut = bredon::game::Match::from_record(&until.text()).unwrap();
    assert_eq!(cut.ply_count(), 3);
    assert_eq!(cut.position_text(), positions[3]);
    assert!(
        until.text().contains("[Player1 \"alice\"]"),
        "{}",
        until.text()
    );
    assert!(!until.text().contains("Result"), "{}", until.text());
    let past = get(&site.base, &format!("/s/{}/game/2/ptn/12", site.slug)).await;
    assert_eq!(past.status, 404, "no ply 12");
}

/// `?flip=1` draws the board from Black's side, a picture (and an ETag) of its own; the page
/// asked so shows it, with its Flip button pressed.
#[tokio::test(flavor = "multi_thread")]
async fn a_flipped_board_is_a_picture_of_its_own() {
    let site = Site::start().await;
    let board = |query: &'static str| {
        let target = format!("/s/{}/game/2/board/3{query}", site.slug);
        let base = site.base.clone();
        async move { get(&base, &target).await }
    };
    let (upright, turned) = (board("").await, board("?flip=1").await);
    assert_eq!((upright.status, turned.status), (200, 200));
    assert_ne!(upright.body, turned.body);
    assert_ne!(upright.header("etag"), turned.header("etag"));
    let shot = crate::browser::screenshot_path("web-board-flipped.png");
    std::fs::write(shot, &turned.body).unwrap();
    let page = get(&site.base, &format!("/s/{}/game/2?ply=3&flip=1", site.slug)).await;
    let page = page.text();
    assert!(page.contains("board/3?flip=1\""), "{page}");
    assert!(
        page.contains("id=\"flip\" type=\"button\" aria-pressed=\"true\""),
        "{page}"
    );
}

/// Games in channels not everyone may see stay off the pages: not listed, their pages,
/// pictures and records the same 404 as a page that does not exist, off the players' pages;
/// seen by everyone again, they come back. A channel the bot no longer knows keeps its place.
#[tokio::test(flavor = "multi_thread")]
async fn games_in_channels_not_everyone_sees_stay_off_the_pages() {
    let site = Site::start().await;
    let (live, finished) = (100 + OPEN, 200 + OPEN);
    let server = format!("/s/{}", site.slug);
    let alice = crate::players::key_of(&site.base, &server, &site.slug, "alice").await;
    let nothing = get(&site.base, "/s/no-such-server").await;
    let both = [live, finished];
    assert!(site
        .service
        .set_hidden_channels(OPEN, &both, &both)
        .unwrap());
    let listed = get(&site.base, &server).await.text();
    let games = format!("/s/{}/game/", site.slug);
    assert!(!listed.contains(&format!("{games}1\"")), "{listed}");
    assert!(!listed.contains(&format!("{games}2\"")), "{listed}");
    assert!(
        listed.contains(&format!("{games}3\"")),
        "the control: {listed}"
    );
    for page in [
        "/game/1",
        "/game/1/events",
        "/game/2",
        "/game/2/board/0",
        "/game/2/position/0",
        "/game/2/ptn",
    ] {
        let answer = get(&site.base, &format!("{server}{page}")).await;
        assert_eq!(answer.status, 404, "{page}");
        assert_eq!(answer.body, nothing.body, "{page}");
    }
    let player = get(&site.base, &format!("{server}/player/{alice}"))
        .await
        .text();
    assert!(!player.contains(&format!("{games}2\"")), "{player}");
    // A moderator's settings, read before, never undo what the bot read.
    let moderator = ctx(OPEN, 1, &user("mod"));
    let settings = site.service.settings(OPEN).unwrap();
    site.service
        .set_settings(&moderator, Some("light"), None, None)
        .unwrap();
    assert_eq!(
        site.service.settings(OPEN).unwrap().hidden_channels,
        settings.hidden_channels
    );
    assert_eq!(
        get(&site.base, &format!("{server}/game/2")).await.status,
        404
    );
    // Known to the bot no more (archived), they keep their place; seen by everyone, they are back.
    assert!(!site.service.set_hidden_channels(OPEN, &[], &[]).unwrap());
    assert!(site.service.set_hidden_channels(OPEN, &[], &both).unwrap());
    let back = get(&site.base, &format!("{server}/game/2")).await;
    assert_eq!(back.status, 200);
    let player = get(&site.base, &format!("{server}/player/{alice}"))
        .await
        .text();
    assert!(player.contains(&format!("{games}2\"")), "{player}");
}

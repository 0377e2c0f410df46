//! Tournaments in threads, finished games by number, vacations, komi, reserves and display.

use crate::fake_discord::{self, FakeDiscord};
use crate::harness::*;
use crate::support;
use serde_json::json;
use std::time::Duration;

fn rr_winner(a: &str, b: &str) -> Option<&'static str> {
    let mut pair = [a, b];
    pair.sort();
    match pair {
        ["alice", "carol"] | ["alice", "erin"] => Some("alice"),
        ["alice", "dave"] | ["dave", "erin"] => Some("dave"),
        ["bob", "carol"] | ["bob", "dave"] => Some("bob"),
        ["bob", "erin"] => Some("erin"),
        ["carol", "erin"] => Some("carol"),
        _ => None, // alice-bob and carol-dave are draws
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_of_five_runs_in_threads_and_survives_a_restart() {
    let (fake, data, mut bot) = boot_with(0.5, &[]).await;
    let r = tournament_cmd(
        &fake,
        &alice(),
        "create",
        json!([{ "name": "name", "type": 3, "value": "Spring" }, { "name": "format", "type": 4, "value": 0 }]),
    )
    .await;
    assert!(
        r.is_ephemeral() && r.content().contains("only a moderator"),
        "{}",
        r.content()
    );
    // `start:` suggests its presets while typing.
    let from = fake.requests().len();
    let token =
        fake.autocomplete_sub_option(&alice(), CHANNEL, "tournament", "create", "start", "wh");
    let values = offered(&fake, from, &token)
        .await
        .into_iter()
        .map(|c| c.value);
    assert_eq!(
        values.collect::<Vec<_>>(),
        ["wh", "when full"],
        "what was typed, then the presets"
    );
    // Its games need threads: without Create Public Threads the tournament is refused.
    use fake_discord::perms;
    fake.set_bot_permissions(CHANNEL, perms::INVITE & !perms::CREATE_PUBLIC_THREADS);
    let r = tournament_cmd(
        &fake,
        &moderator(),
        "create",
        json!([{ "name": "name", "type": 3, "value": "Spring" }, { "name": "format", "type": 4, "value": 0 }]),
    )
    .await;
    assert!(
        r.is_ephemeral() && r.content().contains("Create Public Threads"),
        "{}",
        r.content()
    );
    fake.set_bot_permissions(CHANNEL, perms::INVITE);
    let r = tournament_cmd(
        &fake,
        &moderator(),
        "create",
        json!([
            { "name": "name", "type": 3, "value": "Spring" },
            { "name": "format", "type": 4, "value": 0 },
            { "name": "size", "type": 4, "value": 5 }
        ]),
    )
    .await;
    says(&r, "opened the tournament Spring");
    for p in ["alice", "bob", "carol", "dave", "erin"] {
        let r = tournament_cmd(&fake, &player(p), "join", json!([])).await;
        says(&r, &format!("{p} joined Spring"));
    }
    let r = tournament_cmd(&fake, &moderator(), "start", json!([])).await;
    says(&r, "Round 1 of 5");
    let mut games_played = 0;
    for round in 1..=5 {
        let games = round_games(&fake, "Spring", round, 2).await;
        for (i, (thread, white, black)) in games.iter().enumerate() {
            // A restart in the middle of round 3: the stored tournament carries on.
            if round == 3 && i == 1 {
                drop(bot);
                bot = start_bot(&fake, data.path(), 0.5);
                connected(&fake, 2).await;
            }
            decide_in(&fake, *thread, white, black, rr_winner(white, black)).await;
            games_played += 1;
        }
        if round < 5 {
            news(&fake, &format!("Round {} of 5", round + 1)).await;
        }
    }
    assert_eq!(games_played, 10);
    let end = news(
        &fake,
        "Spring is over: bob wins with 2½ points, ahead of dave on Sonneborn-Berger.",
    )
    .await;
    assert!(
        end.files.iter().any(|f| f == "crosstable.png"),
        "{:?}",
        end.files
    );
    // Worked out by hand in tests/support.
    assert_eq!(table_rows(&end.content), support::ROUND_ROBIN_STANDINGS);
    // Pairings list every round with its thread, newest first, for the asker only.
    let r = tournament_cmd(&fake, &carol(), "pairings", json!([])).await;
    assert!(r.is_ephemeral());
    assert!(r.content().starts_with("**Round 5**"), "{}", r.content());
    assert_eq!(r.content().matches(" in <#").count(), 10, "{}", r.content());
    assert!(r.content().len() <= 2000);
    drop(bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pairing_whose_thread_is_refused_is_told_once_and_tried_again_later() {
    use fake_discord::perms;
    let (fake, _data, _bot) = boot_with(0.5, &[]).await;
    let options = json!([
        { "name": "name", "type": 3, "value": "Duel" },
        { "name": "format", "type": 4, "value": 0 },
        { "name": "size", "type": 4, "value": 5 }
    ]);
    tournament_cmd(&fake, &moderator(), "create", options).await;
    for p in ["alice", "bob"] {
        tournament_cmd(&fake, &player(p), "join", json!([])).await;
    }
    // A moderator takes Create Public Threads away after the tournament was made.
    fake.set_bot_permissions(CHANNEL, perms::INVITE & !perms::CREATE_PUBLIC_THREADS);
    tournament_cmd(&fake, &moderator(), "start", json!([])).await;
    let told = news(&fake, "Bredon cannot open the threads for its games here").await;
    assert!(told.content.contains("Missing Permissions") && told.content.contains("<@999>"));
    // Ticks come every half second; the tries do not (the first wait is 2 s), and the channel
    // hears it once.
    let tries = |f: &FakeDiscord| -> Vec<std::time::Instant> {
        f.requests()
            .iter()
            .filter(|r| {
                r.method == "POST" && r.path.ends_with(&format!("/channels/{CHANNEL}/threads"))
            })
            .map(|r| r.at)
            .collect()
    };
    fake.wait_until("the second try", Duration::from_secs(30), |f| {
        tries(f).len() >= 2
    })
    .await;
    let at = tries(&fake);
    let gap = at[1] - at[0];
    assert!(
        gap >= Duration::from_millis(1_900),
        "tried again after {gap:?}, before the first wait of 2 s was over"
    );
    let count = |f: &FakeDiscord| {
        f.messages()
            .iter()
            .filter(|m| m.content.contains("cannot open the threads"))
            .count()
    };
    assert_eq!(count(&fake), 1);
    // Given back, the game starts at the next try.
    fake.set_bot_permissions(CHANNEL, perms::INVITE);
    fake.wait_until("the game's thread", Duration::from_secs(30), |f| {
        !f.threads().is_empty()
    })
    .await;
    let thread = fake.threads()[0];
    fake.wait_until("the game announced", Duration::from_secs(10), |f| {
        f.messages()
            .iter()
            .any(|m| m.channel == thread && m.content.contains("Duel, round 1"))
    })
    .await;
    assert_eq!(count(&fake), 1, "told once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_seven_pairs_each_round_when_the_last_game_ends() {
    let (fake, _data, _bot) = boot_with(0.5, &[]).await;
    tournament_cmd(
        &fake,
        &moderator(),
        "create",
        json!([
            { "name": "name", "type": 3, "value": "Cup" },
            { "name": "format", "type": 4, "value": 2 },
            { "name": "rounds", "type": 4, "value": 3 },
            { "name": "size", "type": 4, "value": 5 }
        ]),
    )
    .await;
    for p in ["alice", "bob", "carol", "dave", "erin", "frank", "gina"] {
        tournament_cmd(&fake, &player(p), "join", json!([])).await;
    }
    tournament_cmd(&fake, &moderator(), "start", json!([])).await;
    // The pairings and results of tests/tournament.rs, where they are worked out by hand.
    let rounds: [&[(&str, &str, Option<&str>)]; 3] = [
        &[
            ("alice", "dave", Some("alice")),
            ("erin", "bob", Some("erin")),
            ("carol", "frank", Some("carol")),
        ],
        &[
            ("erin", "alice", None),
            ("gina", "carol", Some("carol")),
            ("dave", "bob", Some("bob")),
        ],
        &[
            ("carol", "alice", Some("carol")),
            ("frank", "erin", Some("erin")),
            ("bob", "gina", None),
        ],
    ];
    for (r, expected) in rounds.iter().enumerate() {
        let games = round_games(&fake, "Cup", r + 1, 3).await;
        for (i, ((thread, white, black), (w, b, winner))) in
            games.iter().zip(expected.iter()).enumerate()
        {
            assert_eq!(
                (white.as_str(), black.as_str()),
                (*w, *b),
                "round {}",
                r + 1
            );
            if r == 2 && *w == "bob" {
                // Gina withdraws mid-game: she loses it by forfeit.
                let out = tournament_cmd(&fake, &player("gina"), "withdraw", json!([])).await;
                says(&out, "gina withdrew from Cup");
                continue;
            }
            decide_in(&fake, *thread, white, black, *winner).await;
            if r < 2 && i + 1 < games.len() {
                // The round waits for its last game: this result is told, no round is paired.
                news(&fake, &format!("Round {}: {white} ", r + 1)).await;
                let next = format!("Round {} of 3", r + 2);
                assert!(fake.messages().iter().all(|m| !m.content.contains(&next)));
                assert_eq!(fake.threads().len(), 3 * (r + 1), "no new game yet");
            }
        }
        // Only the last game of a round pairs the next.
        if r < 2 {
            let next = news(&fake, &format!("Round {} of 3", r + 2)).await;
            assert!(next.files.iter().any(|f| f == "crosstable.png"));
        }
    }
    let end = news(&fake, "Cup is over: carol wins with 3 points.").await;
    assert_eq!(table_rows(&end.content), support::SWISS_STANDINGS);
    // Everyone who played hears the end; the moderator, who did not play, does not.
    let mut pinged: Vec<u64> = fake
        .notifications()
        .iter()
        .filter(|n| n.message == end.id)
        .map(|n| n.user)
        .collect();
    pinged.sort();
    assert_eq!(pinged, vec![111, 222, 333, 444, 555, 666, 777]);
}

/// `/history` numbers the games; `/board`, `/ptn` and `/analyze` take that number, and
/// `/analyze` takes a record pasted on one line, as a PlayTak game is copied.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_games_by_number_and_a_pasted_record() {
    let (fake, _data, _bot) = boot_with(30.0, &[("BREDON_ANALYSIS_MS", "20")]).await;
    start_game(&fake).await;
    ply(&fake, &alice(), "a1").await;
    ply(&fake, &bob(), "e5").await;
    run(&fake, &bob(), "resign", json!([])).await;
    let r = run(
        &fake,
        &carol(),
        "history",
        json!([{ "name": "user", "type": 6, "value": "111" }]),
    )
    .await;
    let content = r.content();
    let id: u64 = content
        .split_once("\n#")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a numbered game: {content}"));
    let game = json!([{ "name": "game", "type": 4, "value": id }]);
    let r = run(&fake, &carol(), "board", game.clone()).await;
    says(
        &r,
        &format!("Game #{id}, alice vs bob, Tak on 5x5: bob resigns; alice wins (1-0)."),
    );
    assert_eq!(r.pngs().len(), 1, "the final board");
    let r = run(&fake, &carol(), "ptn", game.clone()).await;
    let files = r.files();
    assert!(
        files
            .iter()
            .any(|(n, f)| n == "game.ptn" && String::from_utf8_lossy(f).contains("1. a1 e5\n1-0")),
        "{files:?}"
    );
    let r = run(
        &fake,
        &carol(),
        "board",
        json!([{ "name": "game", "type": 4, "value": id + 1000 }]),
    )
    .await;
    assert!(
        r.is_ephemeral()
            && r.content()
                .contains(&format!("there is no finished game #{}", id + 1000)),
        "{}",
        r.content()
    );
    let pasted = r#"[Size "3"] [Player1 "ann"] [Player2 "ben"] 1. a3 c1 2. a1 b3 3. b1 R-0"#;
    let r = run(
        &fake,
        &carol(),
        "analyze",
        json!([{ "name": "game", "type": 4, "value": id }, { "name": "ptn", "type": 3, "value": pasted }]),
    )
    .await;
    assert!(
        r.is_ephemeral() && r.content().contains("name one game, not several"),
        "{}",
        r.content()
    );
    let branch = json!({ "name": "branch", "type": 3, "value": "2b1" });
    let r = run(&fake, &carol(), "analyze", json!([game[0], branch])).await;
    assert!(
        r.is_ephemeral()
            && r.content()
                .contains("names a branch of a pasted PTN: paste it in"),
        "`branch:` is a pasted PTN's: {}",
        r.content()
    );
    // A PTN Ninja file pasted: Discord's options lose its line breaks, and the branch after
    // the result is found by its move number and named by the comment before it.
    let branched = format!("{pasted} {{2b1}} 2. -- b1 3. b2 c2");
    for (options, wanted) in [
        (game, "1. a1 e5"),
        (
            json!([{ "name": "ptn", "type": 3, "value": pasted }]),
            "3. b1",
        ),
        (
            json!([{ "name": "ptn", "type": 3, "value": branched }, branch]),
            "3. b1\nR-0\n\n{2b1}\n2. -- b1",
        ),
    ] {
        let from = fake.requests().len();
        let token = fake.command(&carol(), CHANNEL, "analyze", options);
        // The analysis, or a refusal after the deferral (a follow-up), of this very command.
        let done = fake
            .wait_request(from, "the analysis", |r| {
                r.path.contains(&token)
                    && ((r.method == "PATCH" && r.text().contains("analysis.ptn"))
                        || (r.method == "POST" && r.path.contains("/webhooks/")))
            })
            .await;
        assert_eq!(done.status, 200, "{}", done.text());
        let files = done.files();
        let ptn = &files
            .iter()
            .find(|(n, _)| n == "analysis.ptn")
            .unwrap_or_else(|| panic!("{}", done.text()))
            .1;
        let ptn = String::from_utf8_lossy(ptn);
        assert!(ptn.contains(wanted), "the game asked for: {ptn}");
        if wanted.contains("{2b1}") {
            assert!(
                done.content().contains("Branch 2b1: 6 plies"),
                "{}",
                done.content()
            );
        }
    }
}

/// `/vacation start` and `end` through the fake: the player's answer, and each game's channel
/// told with a ping for the opponent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_is_announced_in_every_game_of_the_player() {
    let (fake, _data, _bot) = boot().await;
    start_game(&fake).await;
    let elsewhere = CHANNEL + 1;
    let seen = fake.notifications().len();
    let start = json!([{ "name": "start", "type": 1, "options": [{ "name": "days", "type": 4, "value": 2 }] }]);
    let r = run_with(&fake, elsewhere, &bob(), "vacation", start).await;
    says(&r, "bob is on vacation until ");
    says(&r, "the clocks of 1 game stand still until then");
    fake.wait_until("the game's channel told", Duration::from_secs(5), |f| {
        f.messages()
            .iter()
            .any(|m| m.channel == CHANNEL && m.content.contains("bob is on vacation until"))
    })
    .await;
    assert!(
        notified_since(&fake, seen).contains(&111),
        "alice is pinged in the game's channel"
    );
    let end = json!([{ "name": "end", "type": 1, "options": [] }]);
    let r = run_with(&fake, elsewhere, &bob(), "vacation", end.clone()).await;
    says(
        &r,
        "bob is back: the clocks of 1 game run again; 2 unused days given back.",
    );
    let r = run_with(&fake, elsewhere, &bob(), "vacation", end).await;
    assert!(
        r.is_ephemeral() && r.content().contains("not on vacation"),
        "{}",
        r.content()
    );
}

/// A server's komi per size: set in /settings, offered first while typing komi, and given to
/// challenges that name none; custom pieces through `reserves:`; what pictures leave out, per
/// challenge and per server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_komi_custom_reserves_and_display_options() {
    let (fake, _data, _bot) = boot().await;
    let manager = server_manager();
    let r = run(
        &fake,
        &manager,
        "settings",
        json!([{ "name": "komi", "type": 3, "value": "1.5" }, { "name": "komi_size", "type": 4, "value": 5 }]),
    )
    .await;
    says(&r, "komi 1.5 on 5x5");
    let from = fake.requests().len();
    let token = fake.autocomplete_option(&alice(), CHANNEL, "challenge", "komi", "");
    let first = offered(&fake, from, &token).await.remove(0);
    assert_eq!(
        (first.value.as_str(), first.name.as_str()),
        ("1.5", "1.5 (this server's komi on 5x5)")
    );
    let r = challenge_bob(&fake, json!([{ "name": "size", "type": 4, "value": 5 }])).await;
    says(&r, "Tak on 5x5, komi 1.5");
    run(&fake, &alice(), "cancel", json!([])).await;
    let r = challenge_bob(
        &fake,
        json!([{ "name": "size", "type": 4, "value": 6 }, { "name": "reserves", "type": 3, "value": "40/2,40/2" }]),
    )
    .await;
    says(&r, "Tak on 6x6, komi 0");
    says(&r, "pieces 40/2 for White, 40/2 for Black");
    run(&fake, &alice(), "cancel", json!([])).await;
    let r = challenge_bob(
        &fake,
        json!([{ "name": "reserves", "type": 3, "value": "many" }]),
    )
    .await;
    assert!(
        r.is_ephemeral()
            && r.content()
                .contains("write stones/capstones for White, then Black"),
        "{}",
        r.content()
    );
}

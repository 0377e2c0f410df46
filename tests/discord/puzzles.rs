//! Puzzles on Discord: solved in their thread or privately, and the daily puzzle across a restart.

use crate::fake_discord;
use crate::harness::{self, *};
use serde_json::json;
use std::time::Duration;

const HOUR: i64 = 3_600_000;

const TEXT: u64 = harness::CHANNEL;

async fn puzzle_cmd(
    fake: &fake_discord::FakeDiscord,
    channel: u64,
    user: &fake_discord::TestUser,
    sub: &str,
    options: serde_json::Value,
) -> fake_discord::Request {
    let options = json!([{ "name": sub, "type": 1, "options": options }]);
    run_with(fake, channel, user, "puzzle", options).await
}

async fn play_in(
    fake: &fake_discord::FakeDiscord,
    channel: u64,
    user: &fake_discord::TestUser,
    ply: &str,
) -> fake_discord::Request {
    let options = json!([{ "name": "ply", "type": 3, "value": ply }]);
    run_with(fake, channel, user, "move", options).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_is_solved_in_its_thread_and_a_private_one_answered_privately() {
    let (fake, _data, _bot) = boot().await;
    let from = fake.requests().len();
    let started = puzzle_cmd(
        &fake,
        TEXT,
        &alice(),
        "start",
        json!([{ "name": "number", "type": 4, "value": 3 }]),
    )
    .await;
    assert!(
        started.content().starts_with("The puzzle is in <#"),
        "{}",
        started.content()
    );
    let shown = fake
        .wait_request(from, "the puzzle in its thread", |r| {
            r.path.contains("/messages") && r.content().contains("Puzzle #3 · 4x4")
        })
        .await;
    assert_eq!(shown.pngs().len(), 1, "the puzzle's picture");
    let thread = *fake.threads().last().expect("a thread for the puzzle");
    assert!(shown.path.contains(&thread.to_string()));

    // A wrong ply: refuted in the thread, for all to see.
    let wrong = play_in(&fake, thread, &alice(), "a3").await;
    assert!(
        !wrong.is_ephemeral() && wrong.content().contains("✗ a3"),
        "{}",
        wrong.content()
    );
    // The buttons under it: a hint (which leaves the old buttons stale).
    let hinted = harness::press_in(&fake, thread, &alice(), "bredon:puzzle-hint").await;
    assert!(
        hinted.content().contains("Hint: look at "),
        "{}",
        hinted.content()
    );
    // Autocomplete offers the puzzle's plies.
    let from = fake.requests().len();
    let token = fake.autocomplete(&alice(), thread, "d4");
    let offered = harness::offered(&fake, from, &token).await;
    assert!(offered.iter().any(|c| c.value == "d4"), "{offered:?}");
    // Another first ply than the stored line's, which forces the road too, typed in the form
    // of the board's Move button.
    let form = harness::open_form(&fake, &alice(), thread, "bredon:puzzle-move:").await;
    assert_eq!(form.json()["type"], 9, "a modal");
    let modal = form.modal_id();
    let from = fake.requests().len();
    let token = fake.submit_modal(&alice(), thread, &modal, "ply", "d4");
    let answered = harness::answer(&fake, from, &token).await;
    assert!(
        answered.content().contains("Bredon answers"),
        "{}",
        answered.content()
    );
    assert_eq!(answered.pngs().len(), 1);
    let hint = puzzle_cmd(&fake, thread, &alice(), "hint", json!([])).await;
    let road = hint
        .content()
        .split("Hint: play ")
        .nth(1)
        .and_then(|t| t.split('.').next())
        .map(str::to_string)
        .unwrap_or_else(|| panic!("no ply in the hint: {}", hint.content()));
    let solved = play_in(&fake, thread, &alice(), &road).await;
    assert!(
        solved.content().contains("Puzzle #3 solved in "),
        "{}",
        solved.content()
    );
    let board = run_with(
        &fake,
        TEXT,
        &alice(),
        "leaderboard",
        json!([{ "name": "game", "type": 4, "value": 2 }]),
    )
    .await;
    assert!(
        board.content().contains("1. alice — "),
        "{}",
        board.content()
    );

    // A private puzzle: only bob sees it and his plies, wherever he plays it.
    let private = json!([
        { "name": "number", "type": 4, "value": 10 },
        { "name": "private", "type": 5, "value": true },
    ]);
    let mine = puzzle_cmd(&fake, TEXT, &bob(), "start", private).await;
    assert!(mine.is_ephemeral(), "{}", mine.content());
    assert!(mine.content().contains("Puzzle #10"), "{}", mine.content());
    assert_eq!(mine.pngs().len(), 1);
    let public = |f: &fake_discord::FakeDiscord| {
        f.messages()
            .iter()
            .filter(|m| m.channel == TEXT && !m.ephemeral)
            .count()
    };
    let seen = public(&fake);
    let first = &bredon::engine::puzzles::starter_set()[9].solution[0];
    let answer = play_in(&fake, TEXT, &bob(), first).await;
    assert!(
        answer.is_ephemeral() && answer.content().contains("Bredon answers"),
        "the solution's first ply, kept and answered for bob alone: {}",
        answer.content()
    );
    assert_eq!(answer.pngs().len(), 1, "the position after Bredon's answer");
    assert_eq!(public(&fake), seen, "nothing of it in the channel");
    // Its buttons answer privately too.
    let gave_up = harness::press_in(&fake, TEXT, &bob(), "bredon:puzzle-give-up").await;
    assert!(gave_up.is_ephemeral(), "{}", gave_up.content());
    assert!(
        gave_up.content().contains("the winning line was"),
        "{}",
        gave_up.content()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_puzzle_is_posted_once_across_a_restart_and_solved_privately() {
    // The day is pinned, so its puzzle is the same whatever the machine's date: 2026-11-24 at
    // noon, whose puzzle (#118, five plies) keeps the test short; the web pages' tests pin a
    // day with a long one.
    let fake = start_fake().await;
    fake.pin_clock(1_795_521_600_000);
    let data = tempfile::tempdir().unwrap();
    let clock = fake.share_clock(data.path());
    let on_the_day = [("BREDON_CLOCK_FILE", clock.as_str())];
    let bot = start_bot_with(&fake, data.path(), 30.0, &on_the_day);
    connected(&fake, 1).await;
    // A moderator chooses the channel; the first puzzle comes at the next posting hour.
    let set = run_with(
        &fake,
        TEXT,
        &server_manager(),
        "settings",
        json!([
            { "name": "puzzle_channel", "type": 7, "value": TEXT.to_string() },
            { "name": "puzzle_hour", "type": 4, "value": 5 },
        ]),
    )
    .await;
    assert!(
        set.content()
            .contains(&format!("Daily puzzle: in <#{TEXT}> at 05:00 UTC")),
        "{}",
        set.content()
    );
    drop(bot);
    fake.wait_until("the bot to stop", Duration::from_secs(10), |f| {
        !f.connected()
    })
    .await;
    // As if it had been set two days ago: today's puzzle is due.
    with_service(data.path(), |s| {
        let mut c = harness::sctx(&moderator(), TEXT);
        c.moderator = true;
        c.now_ms += fake.advanced_ms() - 2 * 24 * HOUR;
        s.set_puzzle_channel(&c, Some(TEXT), Some(0), false)
            .unwrap();
    });
    let daily = |f: &fake_discord::FakeDiscord| {
        f.messages()
            .into_iter()
            .filter(|m| m.content.starts_with("Daily puzzle of "))
            .count()
    };
    let bot = start_bot_logging_with(&fake, data.path(), 0.2, &on_the_day);
    connected(&fake, 2).await;
    fake.wait_until("the daily puzzle", Duration::from_secs(20), |f| {
        daily(f) == 1
    })
    .await;
    drop(bot);
    fake.wait_until("the bot to stop", Duration::from_secs(10), |f| {
        !f.connected()
    })
    .await;
    // From here every answer is deferred first, as a slow one is (a ply Bredon thinks over).
    let deferring = [on_the_day[0], ("BREDON_DEFER_MS", "0")];
    let bot = start_bot_logging_with(&fake, data.path(), 0.2, &deferring);
    connected(&fake, 3).await;
    let ticks = bot.log_count(&["timers checked"]);
    bot.logged_times(&["timers checked"], ticks + 5).await;
    assert_eq!(daily(&fake), 1, "posted once across the restart");
    let mine = puzzle_cmd(&fake, TEXT, &alice(), "daily", json!([])).await;
    assert!(
        mine.is_ephemeral() && mine.content().contains("to play and win"),
        "{}",
        mine.content()
    );
    // alice solves it privately, ply by ply as the hints say: nothing of it in the channel.
    let public = fake.messages().iter().filter(|m| !m.ephemeral).count();
    let mut solved = None;
    for _ in 0..40 {
        let hint = puzzle_cmd(&fake, TEXT, &alice(), "hint", json!([])).await;
        assert!(hint.is_ephemeral(), "{}", hint.content());
        // The hint's ply as Discord shows it (its markdown escapes undone).
        let Some(ply) = hint
            .content()
            .split("Hint: play ")
            .nth(1)
            .and_then(|t| t.split(". ").next())
            .map(|t| t.trim_end_matches('.').replace('\\', ""))
        else {
            continue;
        };
        let answer = play_in(&fake, TEXT, &alice(), &ply).await;
        assert!(answer.is_ephemeral(), "{}", answer.content());
        if answer.content().contains(" solved in ") {
            solved = Some(answer.content());
            break;
        }
    }
    let solved = solved.expect("the daily puzzle solved by following the hints");
    assert!(
        fake.messages().iter().any(|m| m
            .content
            .starts_with("Daily puzzle of 2026-11-24: puzzle #118 ")),
        "the pinned day's puzzle posted"
    );
    let number: String = mine
        .content()
        .split("Puzzle #")
        .nth(1)
        .map(|t| t.chars().take_while(char::is_ascii_digit).collect())
        .unwrap_or_default();
    assert!(
        !number.is_empty() && solved.contains(&format!("Puzzle #{number} solved in ")),
        "the day's puzzle #{number}: {solved}"
    );
    // Each answer was deferred, privately: not even a "thinking" message showed in the channel.
    let posted: Vec<_> = fake
        .messages()
        .into_iter()
        .filter(|m| !m.ephemeral)
        .skip(public)
        .collect();
    assert!(posted.is_empty(), "solved privately: {posted:?}");
    let deferred = fake
        .requests()
        .iter()
        .filter(|r| r.path.ends_with("/callback") && r.json()["type"] == 5)
        .count();
    assert!(
        deferred >= 3,
        "the daily puzzle, a hint and a ply deferred: {deferred}"
    );
}

/// `/puzzle start kind:` "play and survive" (choice 1): a survival puzzle, privately, whose
/// escape solves it at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_survival_puzzle_is_started_by_its_kind_and_solved_by_its_escape() {
    let (fake, _data, _bot) = boot().await;
    let options = json!([
        { "name": "kind", "type": 4, "value": 1 },
        { "name": "private", "type": 5, "value": true }
    ]);
    let started = puzzle_cmd(&fake, TEXT, &carol(), "start", options).await;
    let text = started.content();
    assert!(started.is_ephemeral(), "{text}");
    assert!(text.contains("to play and survive"), "{text}");
    let n: usize = text["Puzzle #".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    let escape = &bredon::engine::puzzles::starter_set()[n - 1].first_plies[0];
    let solved = play_in(&fake, TEXT, &carol(), escape).await;
    assert!(
        solved
            .content()
            .contains(&format!("Puzzle #{n} solved in ")),
        "{}",
        solved.content()
    );
}

/// `/puzzle start kind:` "play and win on flats" (choice 2): a Gaelet, privately; its first ply
/// is answered by Bredon's defence, or wins at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gaelet_is_started_by_its_kind_and_bredon_defends_it() {
    let (fake, _data, _bot) = boot().await;
    let options = json!([
        { "name": "kind", "type": 4, "value": 2 },
        { "name": "private", "type": 5, "value": true }
    ]);
    let started = puzzle_cmd(&fake, TEXT, &carol(), "start", options).await;
    let text = started.content();
    assert!(started.is_ephemeral(), "{text}");
    assert!(text.contains("to play and win on flats within "), "{text}");
    let n: usize = text["Puzzle #".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    let first = &bredon::engine::puzzles::starter_set()[n - 1].first_plies[0];
    let answered = play_in(&fake, TEXT, &carol(), first).await;
    let text = answered.content();
    assert!(
        text.contains(&format!("played {first}. Bredon answers ")),
        "{text}"
    );
    assert!(text.contains("The win is still forced"), "{text}");
}

//! Deferred answers, the board's buttons and Move form, presets, busy channels, `/mygames` and
//! direct messages.

use crate::fake_discord::{self};
use crate::harness::*;
use serde_json::json;
use std::time::Duration;

/// When an answer is slow, Bredon defers; the edit of the "thinking" message notifies no one,
/// so the ping follows as a new message, and a refusal goes out ephemeral.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deferred_answer_still_notifies_the_player_to_move() {
    let (fake, _data, _bot) = boot_with(30.0, &[("BREDON_DEFER_MS", "0")]).await;
    start_game(&fake).await;
    let seen = fake.notifications().len();
    let from = fake.requests().len();
    let token = fake.command(
        &alice(),
        CHANNEL,
        "move",
        json!([{ "name": "ply", "type": 3, "value": "a1" }]),
    );
    let edit = answer(&fake, from, &token).await;
    assert_eq!(edit.method, "PATCH", "the thinking message is edited");
    says(&edit, "alice played a1");
    assert_eq!(edit.pngs().len(), 1);
    fake.wait_until("the ping", Duration::from_secs(10), |f| {
        f.notifications().len() > seen
    })
    .await;
    assert_eq!(notified_since(&fake, seen), vec![222]);
    let from = fake.requests().len();
    let token = fake.command(
        &carol(),
        CHANNEL,
        "move",
        json!([{ "name": "ply", "type": 3, "value": "e5" }]),
    );
    let refused = answer(&fake, from, &token).await;
    assert!(
        refused.is_ephemeral() && refused.content().contains("you are not playing"),
        "{} {}",
        refused.method,
        refused.content()
    );
    assert_eq!(
        notified_since(&fake, seen),
        vec![222],
        "nobody else was pinged"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn buttons_under_every_board_work_for_the_players_on_the_newest_board() {
    let (fake, _data, _bot) = boot().await;
    start_game(&fake).await;
    let r = ply(&fake, &alice(), "a1").await;
    for action in [
        "board-undo",
        "board-draw",
        "board-resign",
        "board-moves",
        "board-refresh",
    ] {
        assert!(r.text().contains(&format!("bredon:{action}:")), "{action}");
    }
    let old_board = fake.button(CHANNEL, "bredon:board-undo:").unwrap();
    let refused = press(&fake, &carol(), "bredon:board-refresh").await;
    assert!(
        refused.is_ephemeral() && refused.content().contains("you are not playing"),
        "{}",
        refused.content()
    );
    let moves = press(&fake, &bob(), "bredon:board-moves").await;
    assert!(
        moves.is_ephemeral() && moves.content().contains("legal plies:\n**a2**"),
        "{}",
        moves.content()
    );
    // Resigning asks first; the question dies with its board.
    let ask = press(&fake, &bob(), "bredon:board-resign").await;
    assert!(ask.is_ephemeral() && ask.content().contains("Resign this game?"));
    ply(&fake, &bob(), "e5").await;
    let stale = press(&fake, &bob(), "bredon:resign-yes").await;
    says(&stale, "no longer the latest");
    let from = fake.requests().len();
    let token = fake.press(&alice(), CHANNEL, &old_board);
    let stale = answer(&fake, from, &token).await;
    assert!(stale.is_ephemeral() && stale.content().contains("no longer the latest"));
    // The newest board's buttons work.
    let seen = fake.notifications().len();
    let offer = press(&fake, &alice(), "bredon:board-draw").await;
    says(&offer, "alice offers a draw");
    assert_eq!(notified_since(&fake, seen), vec![222]);
    let again = press(&fake, &bob(), "bredon:board-refresh").await;
    assert!(
        again.content().contains("alice offers a draw") && again.pngs().len() == 1,
        "{}",
        again.content()
    );
    press(&fake, &alice(), "bredon:board-resign").await;
    let resigned = press(&fake, &alice(), "bredon:resign-yes").await;
    says(&resigned, "alice resigns");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plies_are_read_in_either_case_as_phones_capitalise_them() {
    let (fake, _data, _bot) = boot().await;
    start_game(&fake).await;
    for (user, typed, played) in [
        (alice(), "A1", "alice played a1."),
        (bob(), "E5", "bob played e5."),
        (alice(), "sb2", "alice played Sb2."),
        (bob(), "cc3", "bob played Cc3."),
        (alice(), "E5-", "alice played e5-."),
    ] {
        let r = ply(&fake, &user, typed).await;
        assert!(r.content().contains(played), "{typed}: {}", r.content());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_can_be_challenged_from_their_menu_and_options_offer_presets() {
    let (fake, _data, _bot) = boot().await;
    let registration = fake
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT")
        .unwrap();
    let menu = registration
        .json()
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Challenge to Tak")
        .cloned()
        .expect("a user context-menu command");
    assert_eq!(menu["type"], 2);
    let seen = fake.notifications().len();
    let from = fake.requests().len();
    let token = fake.user_command(&alice(), CHANNEL, "Challenge to Tak", 222);
    let r = answer(&fake, from, &token).await;
    says(&r, "alice challenges bob");
    assert_eq!(notified_since(&fake, seen), vec![222]);
    // Free-text options suggest presets, and keep what was typed.
    let from = fake.requests().len();
    let token = fake.autocomplete_option(&alice(), CHANNEL, "challenge", "komi", "2");
    let values = offered(&fake, from, &token)
        .await
        .into_iter()
        .map(|c| c.value);
    assert_eq!(values.collect::<Vec<_>>(), ["2", "2.5"]);
    let from = fake.requests().len();
    let token = fake.autocomplete_option(&alice(), CHANNEL, "challenge", "time", "36h");
    let first = offered(&fake, from, &token).await.remove(0);
    assert_eq!(first.value, "36h", "what was typed comes first");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_in_a_busy_channel_gets_a_thread_and_blind_games_show_no_board() {
    let (fake, _data, _bot) = boot().await;
    start_game(&fake).await;
    let r = run(
        &fake,
        &carol(),
        "challenge",
        json!([
            { "name": "opponent", "type": 6, "value": "111" },
            { "name": "seat", "type": 4, "value": 0 },
            { "name": "blind", "type": 5, "value": true }
        ]),
    )
    .await;
    says(&r, "This channel already has a game, so this one starts in a new thread: Challenge posted in <#");
    let thread = *fake.threads().last().unwrap();
    let accepted = press_in(&fake, thread, &alice(), "bredon:accept").await;
    assert!(
        accepted
            .content()
            .contains("carol (White) vs alice (Black)"),
        "{}",
        accepted.content()
    );
    assert!(accepted.pngs().is_empty(), "a blind game shows no board");
    let from = fake.requests().len();
    let token = fake.command(
        &carol(),
        thread,
        "move",
        json!([{ "name": "ply", "type": 3, "value": "a1" }]),
    );
    let r = answer(&fake, from, &token).await;
    assert!(
        r.content().contains("carol played a1.") && r.pngs().is_empty(),
        "{}",
        r.content()
    );
    let from = fake.requests().len();
    let token = fake.command(&alice(), thread, "board", json!([]));
    let r = answer(&fake, from, &token).await;
    says(&r, "the plies so far: 1. a1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_move_button_opens_a_form_whose_ply_is_played() {
    let (fake, _data, _bot) = boot().await;
    start_game(&fake).await;
    let form = open_move_form(&fake, &alice(), CHANNEL).await;
    assert_eq!(form.json()["type"], 9, "a modal");
    let modal_id = form.modal_id();
    let input = form.json()["data"]["components"][0]["components"][0].clone();
    assert_eq!(input["custom_id"], "ply");
    assert_eq!(input["placeholder"], "c3, Sd4, Cb2, 3c3>12");
    let seen = fake.notifications().len();
    let from = fake.requests().len();
    let token = fake.submit_modal(&alice(), CHANNEL, &modal_id, "ply", "A1");
    let r = answer(&fake, from, &token).await;
    says(&r, "alice played a1.");
    assert_eq!(r.pngs().len(), 1);
    assert_eq!(notified_since(&fake, seen), vec![222]);
    // The form of an older board does not play on the new one.
    let from = fake.requests().len();
    let token = fake.submit_modal(&bob(), CHANNEL, &modal_id, "ply", "e5");
    let r = answer(&fake, from, &token).await;
    assert!(
        r.is_ephemeral() && r.content().contains("no longer the latest"),
        "{}",
        r.content()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn my_games_link_to_the_board_and_a_direct_message_says_it_is_my_move() {
    let (fake, _data, bot) = boot_logging().await;
    let r = run(
        &fake,
        &bob(),
        "notify",
        json!([{ "name": "dm", "type": 5, "value": true }]),
    )
    .await;
    assert!(
        r.is_ephemeral()
            && r.content()
                .contains("Direct messages when it is your move: on"),
        "{}",
        r.content()
    );
    start_game(&fake).await;
    let before = fake.direct_messages(222).len();
    ply(&fake, &alice(), "a1").await;
    fake.wait_until("bob's direct message", Duration::from_secs(10), |f| {
        f.direct_messages(222).len() > before
    })
    .await;
    let dm = fake.direct_messages(222).pop().unwrap();
    let link = format!(
        "It is your move in <#{CHANNEL}>: https://discord.com/channels/{}/{CHANNEL}/",
        fake_discord::GUILD_ID
    );
    assert!(dm.content.contains(&link), "{}", dm.content);
    assert!(
        fake.direct_messages(111).is_empty(),
        "alice did not ask for DMs"
    );
    let mine = run(&fake, &bob(), "mygames", json!([])).await;
    assert!(mine.is_ephemeral());
    assert!(
        mine.content()
            .contains("vs alice, ply 1 · **your move** · last ply <t:")
            && mine
                .content()
                .contains("[board](https://discord.com/channels/"),
        "{}",
        mine.content()
    );
    let theirs = run(&fake, &alice(), "mygames", json!([])).await;
    says(&theirs, "bob to move");
    let none = run(&fake, &carol(), "mygames", json!([])).await;
    assert!(none
        .content()
        .contains("you are not playing in this server"));
    // The next turn's message goes to the same DM channel, which Bredon opened once.
    ply(&fake, &bob(), "e5").await;
    ply(&fake, &alice(), "c3").await;
    fake.wait_until(
        "bob's second direct message",
        Duration::from_secs(10),
        |f| f.direct_messages(222).len() > before + 1,
    )
    .await;
    let opened = fake
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path.ends_with("/users/@me/channels"))
        .count();
    assert_eq!(opened, 1, "the DM channel is asked for once");
    // Off again: the next turn brings no direct message.
    run(
        &fake,
        &bob(),
        "notify",
        json!([{ "name": "dm", "type": 5, "value": false }]),
    )
    .await;
    ply(&fake, &bob(), "e4").await;
    ply(&fake, &alice(), "c4").await;
    // The game's seventh outcome (challenge, accept, a1, e5, c3, e4, c4) is posted whole before
    // the count, its direct messages handed over to letters of their own (c4 owes none).
    bot.logged_times(&["outcome posted"], 7).await;
    assert_eq!(
        fake.direct_messages(222).len(),
        before + 2,
        "no DM after dm:false"
    );
}

/// bob accepts with Accept, and the acknowledgement's reply is lost on its way back (Discord
/// took it): the game starts all the same, announced once, with the challenge marked pressed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_press_whose_acknowledgement_reply_is_lost_is_answered_once() {
    let (fake, _data, _bot) = boot_with(30.0, &[]).await;
    let challenge = json!([{ "name": "seat", "type": 4, "value": 0 }]);
    says(
        &challenge_bob(&fake, challenge).await,
        "alice challenges bob",
    );
    fake.lose_next_answer("/callback", 503);
    let accept = fake.button(CHANNEL, "bredon:accept:").unwrap();
    fake.press(&bob(), CHANNEL, &accept);
    // In a server the pressed message is marked after the outcome is posted.
    fake.wait_until("the challenge marked", Duration::from_secs(20), |f| {
        said_in(f, CHANNEL, "bob pressed") == 1
    })
    .await;
    assert_eq!(said_in(&fake, CHANNEL, "alice (White) vs bob (Black)"), 1);
}

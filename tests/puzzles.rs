//! Puzzles through the service, then through the strict fake Discord: a puzzle solved in a
//! thread of its own (a wrong ply refuted, another winning first ply accepted, hints), a private
//! one, ratings moving, and the daily puzzle posted once per day across a restart.

mod fake_discord;
mod harness;
mod support;

use bredon::engine::tinue::{solve, Verdict};
use bredon::game::Match;
use bredon::service::{Ctx, Outcome, PuzzleChoice, Service};
use bredon::store::records::PlayerRef;
use harness::{
    alice, bob, boot, connected, moderator, run_with, server_manager, start_bot_logging,
    with_service,
};
use serde_json::json;
use std::time::Duration;

const GUILD: u64 = 7;
const CHANNEL: u64 = 100;
const PUZZLES: u64 = 500;
const HOUR: i64 = 3_600_000;
/// 2026-11-24 00:00 UTC.
const DAY: i64 = 1_795_478_400_000;

fn service(place: &support::Place) -> Service {
    Service::new(place.open())
}

fn ctx(name: &str, channel: u64, now_ms: i64) -> Ctx {
    Ctx {
        guild: GUILD,
        channel,
        user: PlayerRef {
            id: name.bytes().map(u64::from).sum::<u64>() + 1000,
            name: name.into(),
        },
        now_ms,
        moderator: name == "mod",
        request: None,
    }
}

fn number(n: u32) -> PuzzleChoice {
    PuzzleChoice {
        id: Some(n),
        ..PuzzleChoice::default()
    }
}

/// The ply that keeps the road forced on the board an outcome shows, as the solver finds it.
fn winning_ply(outcome: &Outcome) -> String {
    let replayed = outcome
        .board
        .as_ref()
        .map(|b| Match::from_record(&b.record));
    let Some(Ok(Match::Tak(game))) = replayed else {
        panic!("no Tak board in {outcome:?}");
    };
    let pos = game.position();
    match solve(pos, 1_000_000).verdict {
        Verdict::Tinue(line) => pos.ptn(line[0]),
        other => panic!("no Tinuë on the board: {other:?}"),
    }
}

fn rating(s: &Service, name: &str) -> f64 {
    let board = s.puzzle_leaderboard(&ctx(name, CHANNEL, 0)).unwrap();
    board
        .iter()
        .find(|p| p.player.name == name)
        .map(|p| p.rating.rating)
        .unwrap_or_else(|| panic!("{name} has no puzzle rating: {board:?}"))
}

#[test]
fn a_wrong_ply_is_refuted_and_the_other_winning_first_ply_accepted() {
    let place = support::place();
    let s = service(&place);
    let alice = |t| ctx("alice", CHANNEL, t);
    // Puzzle #3 (4x4): White wins with d3 or d4.
    let shown = s.start_puzzle(&alice(0), number(3), false).unwrap();
    assert!(shown.text.starts_with("Puzzle #3 · 4x4"), "{}", shown.text);
    assert!(
        shown.text.contains("White to play and win"),
        "{}",
        shown.text
    );
    assert!(shown.letter.is_some() && shown.board.is_some() && !shown.private);
    // Someone else cannot play alice's puzzle, nor start another here.
    let bob = ctx("bob", CHANNEL, 1);
    assert!(s.play(&bob, "d4").is_err());
    assert!(s
        .start_puzzle(&bob, number(4), false)
        .unwrap_err()
        .0
        .contains("alice is solving"));

    let wrong = s.play(&alice(1000), "a3").unwrap();
    assert!(wrong.text.starts_with("✗ a3"), "{}", wrong.text);
    assert!(
        wrong.text.contains("Bredon"),
        "the refutation is named: {}",
        wrong.text
    );
    assert!(wrong.text.contains("Try again"), "{}", wrong.text);
    assert!(rating(&s, "alice") < 1500.0, "a wrong ply counts as failed");
    let failed = rating(&s, "alice");
    // An illegal ply is refused and changes nothing.
    assert!(s.play(&alice(1500), "e9").is_err());

    // d4 is not the stored line's first ply (d3), but it forces the road as well.
    let answered = s.play(&alice(2000), "d4").unwrap();
    assert!(
        answered.text.contains("Bredon answers"),
        "{}",
        answered.text
    );
    let road = winning_ply(&answered);
    let hint = s.puzzle_hint(&alice(2500)).unwrap();
    assert!(hint.text.starts_with("Hint: look at "), "{}", hint.text);
    let hint = s.puzzle_hint(&alice(2600)).unwrap();
    assert_eq!(hint.text, format!("Hint: play {road}."));
    let solved = s.play(&alice(3000), &road).unwrap();
    assert!(
        solved.text.contains("Puzzle #3 solved in "),
        "{}",
        solved.text
    );
    // Rated once: the solve after the wrong ply leaves the rating where the failure put it.
    assert_eq!(rating(&s, "alice"), failed);
    assert!(s.play(&alice(4000), "a1").is_err(), "the puzzle is over");
}

#[test]
fn a_clean_solve_raises_the_rating_and_a_private_puzzle_is_answered_privately() {
    let place = support::place();
    let s = service(&place);
    let bob = |t| ctx("bob", CHANNEL, t);
    let mut shown = s.start_puzzle(&bob(0), number(10), true).unwrap();
    assert!(
        shown.private && shown.letter.is_none(),
        "nothing is owed for a private answer"
    );
    for t in 1.. {
        let ply = winning_ply(&shown);
        shown = s.play(&bob(t * 1000), &ply).unwrap();
        assert!(shown.private);
        if shown.text.contains(" solved in ") {
            break;
        }
        assert!(t < 10, "puzzle #10 is a road in 5 plies");
    }
    assert!(rating(&s, "bob") > 1500.0);
    // A puzzle had before is practice: its start says so, and it moves nothing.
    let again = s.start_puzzle(&bob(20_000), number(10), true).unwrap();
    assert!(
        again.text.contains("does not move your rating"),
        "{}",
        again.text
    );
    let before = rating(&s, "bob");
    s.give_up_puzzle(&bob(21_000)).unwrap();
    assert_eq!(rating(&s, "bob"), before);
}

#[test]
fn a_line_whose_last_defence_ends_the_game_is_solved_not_left_hanging() {
    // Puzzle #86 (5x5): near its end every reply of Black loses, and one runs out Black's
    // reserve; Bredon once answered with it and said "your move" on a finished game.
    let place = support::place();
    let s = service(&place);
    let carol = |t| ctx("carol", CHANNEL, t);
    let mut shown = s.start_puzzle(&carol(0), number(86), false).unwrap();
    for t in 1.. {
        let ply = winning_ply(&shown);
        shown = s.play(&carol(t * 1000), &ply).unwrap();
        if shown.text.contains(" solved in ") {
            break;
        }
        assert!(t < 20, "{}", shown.text);
    }
    assert!(s.puzzle_hint(&carol(99_000)).is_err(), "the puzzle is over");
}

#[test]
fn puzzles_are_chosen_by_size_and_difficulty_and_giving_up_shows_the_road() {
    let place = support::place();
    let s = service(&place);
    let carol = |t| ctx("carol", CHANNEL, t);
    let choice = PuzzleChoice {
        size: Some(6),
        ..PuzzleChoice::default()
    };
    let shown = s.start_puzzle(&carol(0), choice, false).unwrap();
    assert!(shown.text.contains("· 6x6 ·"), "{}", shown.text);
    let gave_up = s.give_up_puzzle(&carol(1000)).unwrap();
    assert!(
        gave_up.text.contains(": the winning line was "),
        "{}",
        gave_up.text
    );
    assert!(rating(&s, "carol") < 1500.0);
    let none = PuzzleChoice {
        size: Some(3),
        ..PuzzleChoice::default()
    };
    assert!(s
        .start_puzzle(&carol(2000), none, false)
        .unwrap_err()
        .0
        .contains("no puzzle is that size"));
    assert!(s
        .start_puzzle(&carol(2000), number(100_000), false)
        .is_err());
}

#[test]
fn the_daily_puzzle_is_posted_once_a_day_and_names_yesterdays_solvers() {
    let place = support::place();
    let at = |t| ctx("mod", CHANNEL, t);
    {
        let s = service(&place);
        assert!(s.start_daily_puzzle(&ctx("alice", CHANNEL, DAY)).is_err());
        assert!(s
            .set_puzzle_channel(&ctx("alice", CHANNEL, DAY), Some(PUZZLES), Some(9), false)
            .is_err());
        s.set_puzzle_channel(&at(DAY), Some(PUZZLES), Some(9), false)
            .unwrap();
        assert!(
            s.tick(DAY + 8 * HOUR).unwrap().is_empty(),
            "not before 09:00"
        );
        assert!(s
            .start_daily_puzzle(&ctx("alice", CHANNEL, DAY + 8 * HOUR))
            .is_err());
        let posted = s.tick(DAY + 9 * HOUR).unwrap();
        assert_eq!(posted.len(), 1);
        assert_eq!(posted[0].channel, PUZZLES);
        let text = &posted[0].outcome.text;
        assert!(
            text.starts_with("Daily puzzle of 2026-11-24: puzzle #"),
            "{text}"
        );
        assert!(posted[0].outcome.letter.is_some() && posted[0].outcome.board.is_some());
        assert!(s.tick(DAY + 10 * HOUR).unwrap().is_empty(), "once a day");
    }
    // A restart posts nothing again; alice solves it privately.
    let s = service(&place);
    assert!(s.tick(DAY + 11 * HOUR).unwrap().is_empty());
    let alice = |t| ctx("alice", CHANNEL, t);
    let mut shown = s.start_daily_puzzle(&alice(DAY + 12 * HOUR)).unwrap();
    assert!(shown.private);
    for t in 1.. {
        let ply = winning_ply(&shown);
        shown = s.play(&alice(DAY + 12 * HOUR + t * 20_000), &ply).unwrap();
        if shown.text.contains(" solved in ") {
            break;
        }
        assert!(t < 40);
    }
    assert!(s
        .start_daily_puzzle(&alice(DAY + 13 * HOUR))
        .unwrap_err()
        .0
        .contains("solved today's"));
    // bob solves it after a hint: solved, but not named.
    let bob = |t| ctx("bob", CHANNEL, t);
    let mut shown = s.start_daily_puzzle(&bob(DAY + 14 * HOUR)).unwrap();
    s.puzzle_hint(&bob(DAY + 14 * HOUR + 1000)).unwrap();
    for t in 2.. {
        let ply = winning_ply(&shown);
        shown = s.play(&bob(DAY + 14 * HOUR + t * 1000), &ply).unwrap();
        if shown.text.contains(" solved in ") {
            break;
        }
        assert!(t < 40);
    }
    let next = s.tick(DAY + 33 * HOUR).unwrap();
    assert_eq!(next.len(), 1);
    let text = &next[0].outcome.text;
    assert!(text.starts_with("Daily puzzle of 2026-11-25"), "{text}");
    assert!(text.contains("was solved by 1 player: alice ("), "{text}");
    assert!(text.contains("the fastest"), "{text}");
}

/// The channel the fake's commands run in by default (a text channel).
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
    let modal = form.json()["data"]["custom_id"]
        .as_str()
        .unwrap()
        .to_string();
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
    let (fake, data, bot) = boot().await;
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
        c.now_ms -= 2 * 24 * HOUR;
        s.set_puzzle_channel(&c, Some(TEXT), Some(0), false)
            .unwrap();
    });
    let daily = |f: &fake_discord::FakeDiscord| {
        f.messages()
            .into_iter()
            .filter(|m| m.content.starts_with("Daily puzzle of "))
            .count()
    };
    let bot = start_bot_logging(&fake, data.path(), 0.2);
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
    let bot = start_bot_logging(&fake, data.path(), 0.2);
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
    assert_eq!(
        fake.messages().iter().filter(|m| !m.ephemeral).count(),
        public,
        "solved privately: nothing posted"
    );
}

#[test]
fn a_deleted_puzzle_channel_stops_the_daily_puzzle_instead_of_failing_every_day() {
    let place = support::place();
    let s = service(&place);
    s.set_puzzle_channel(&ctx("mod", CHANNEL, DAY), Some(PUZZLES), Some(9), false)
        .unwrap();
    // Another channel gone changes nothing.
    s.channel_gone(CHANNEL).unwrap();
    assert_eq!(s.tick(DAY + 9 * HOUR).unwrap().len(), 1, "posted");
    s.channel_gone(PUZZLES).unwrap();
    assert!(
        s.tick(DAY + 33 * HOUR).unwrap().is_empty(),
        "nothing posted into a deleted channel"
    );
    assert_eq!(s.settings(GUILD).unwrap().puzzle_channel, None);
}

/// Every starter puzzle, started privately and played through the service to its end: the
/// solver's first ply of each position, against Bredon's longest defence, ends in "solved"
/// within the plies the puzzle says, plus a margin for a defence that holds out longer.
/// Minutes of solving: `cargo test --release --test puzzles -- --ignored`.
#[test]
#[ignore = "plays all 300 starter puzzles (minutes)"]
fn every_starter_puzzle_is_solved_by_playing_it_to_its_end() {
    let place = support::place();
    let s = service(&place);
    let set = bredon::engine::puzzles::starter_set();
    let mut unsolved = Vec::new();
    for (i, puzzle) in set.iter().enumerate() {
        let n = i as u32 + 1;
        let solver = |t: i64| ctx(&format!("solver{n}"), CHANNEL, t);
        let mut shown = s.start_puzzle(&solver(0), number(n), true).unwrap();
        let mut solved = false;
        for t in 1..=(puzzle.plies as i64 + 12) {
            let ply = winning_ply(&shown);
            shown = s.play(&solver(t * 1000), &ply).unwrap();
            if shown.text.contains(&format!("Puzzle #{n} solved in ")) {
                solved = true;
                break;
            }
        }
        if !solved {
            unsolved.push(n);
        }
    }
    assert!(
        unsolved.is_empty(),
        "not solved by playing them: {unsolved:?}"
    );
}

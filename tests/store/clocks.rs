//! Clocks: reminders, time limits, late ticks, stale answers, gone channels, expiring
//! challenges, racing plies.

use super::world::*;
use bredon::service::{Answer, ChallengeOptions, Service};
use bredon::store::records::Seat;
use std::sync::Arc;

#[test]
fn reminders_fire_once_and_time_outs_end_the_game_after_a_restart() {
    let w = world();
    started(
        &w,
        ChallengeOptions {
            reminder: Some("12h".into()),
            time_limit: Some("1d".into()),
            ..opts(Some("bob"), Seat::White)
        },
    );
    assert!(w.service.tick(11 * HOUR).unwrap().is_empty());
    let events = w.service.tick(12 * HOUR).unwrap();
    assert_eq!(events.len(), 1);
    assert!(
        events[0].outcome.text.contains("alice, it is your move"),
        "{}",
        events[0].outcome.text
    );
    assert!(
        w.service.tick(12 * HOUR + 1).unwrap().is_empty(),
        "the same reminder never fires twice"
    );
    // Restart: the due times survive.
    let World { place, service } = w;
    drop(service);
    let service = Service::new(place.open());
    let events = service.tick(24 * HOUR).unwrap();
    let texts: Vec<&str> = events.iter().map(|e| e.outcome.text.as_str()).collect();
    assert!(
        texts
            .iter()
            .any(|t| t.contains("alice ran out of time; bob wins (0-1)")),
        "{texts:?}"
    );
    assert!(service.store().game(CHANNEL).unwrap().is_none());
    assert!(service.tick(48 * HOUR).unwrap().is_empty());
}

#[test]
fn with_a_time_limit_reminders_come_at_half_time_and_an_hour_before_never_with_the_time_out() {
    let w = world();
    started(
        &w,
        ChallengeOptions {
            reminder: Some("1w".into()),
            time_limit: Some("2d".into()),
            ..opts(Some("bob"), Seat::White)
        },
    );
    let start = w.service.view(&ctx("carol", 0)).unwrap();
    assert_eq!(start.deadline_ms, Some(48 * HOUR), "the deadline is shown");
    assert_eq!(
        start.board.unwrap().clock.as_deref(),
        Some("48 h 00 min"),
        "the picture says the time left"
    );
    assert!(w.service.tick(24 * HOUR - 1).unwrap().is_empty());
    let half = w.service.tick(24 * HOUR).unwrap();
    assert_eq!(
        half.len(),
        1,
        "a reminder at half the limit, before the weekly one"
    );
    assert_eq!(half[0].outcome.deadline_ms, Some(48 * HOUR));
    let board = half[0].outcome.board.clone().unwrap();
    assert_eq!(board.clock.as_deref(), Some("24 h 00 min"));
    let last_call = w.service.tick(47 * HOUR).unwrap();
    assert_eq!(
        last_call.len(),
        1,
        "a last reminder an hour before the time-out"
    );
    assert!(last_call[0].outcome.finished.is_none());
    assert_ne!(
        half[0].outcome.letter, last_call[0].outcome.letter,
        "each post is owed on its own"
    );
    let end = w.service.tick(48 * HOUR).unwrap();
    assert_eq!(end.len(), 1);
    assert!(end[0].outcome.finished.is_some(), "then only the time-out");
}

#[test]
fn a_late_tick_posts_the_time_out_without_the_reminder_it_missed() {
    let w = world();
    started(
        &w,
        ChallengeOptions {
            time_limit: Some("1d".into()),
            ..opts(Some("bob"), Seat::White)
        },
    );
    assert_eq!(w.service.tick(12 * HOUR).unwrap().len(), 1, "half time");
    // The bot was down from 13 h to 30 h: the 23 h reminder is overtaken by the time-out.
    let events = w.service.tick(30 * HOUR).unwrap();
    let texts: Vec<&str> = events.iter().map(|e| e.outcome.text.as_str()).collect();
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(texts[0].contains("ran out of time"), "{texts:?}");
}

/// A reminder, or a conditional line set meanwhile, changes the game but not the question:
/// the draw offer's buttons still answer it.
#[test]
fn a_reminder_or_a_line_set_meanwhile_leaves_the_open_question_answerable() {
    let w = world();
    started(
        &w,
        ChallengeOptions {
            reminder: Some("12h".into()),
            ..opts(Some("bob"), Seat::White)
        },
    );
    play(&w, "alice", "a1");
    let offer = w.service.offer_draw(&ctx("alice", 1000)).unwrap();
    let asked = offer.prompt.expect("a draw offer asks bob");
    w.service
        .add_conditional(&ctx("alice", 2000), "e5 b1")
        .expect("alice keeps a line while bob thinks");
    let events = w.service.tick(13 * HOUR).unwrap();
    assert_eq!(events.len(), 1, "bob is reminded");
    let drawn = w
        .service
        .answer(&ctx("bob", 13 * HOUR), asked, Answer::Agree)
        .expect("the offer is still the open question");
    assert!(drawn.text.contains("Drawn by agreement"), "{}", drawn.text);
    assert!(w.service.store().game(CHANNEL).unwrap().is_none());
}

#[test]
fn answers_to_an_older_question_are_refused() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    play(&w, "alice", "a1");
    let later = 2 * 60_000;
    let first = w.service.request_undo(&ctx("alice", later)).unwrap();
    let asked = first.prompt.expect("an undo request asks bob");
    w.service
        .answer(&ctx("bob", later), asked, Answer::Refuse)
        .unwrap();
    let second = w
        .service
        .request_undo(&ctx("alice", later))
        .unwrap()
        .prompt
        .unwrap();
    assert_ne!(asked, second, "a new request is a new version");
    let stale = refusal(w.service.answer(&ctx("bob", 0), asked, Answer::Agree));
    assert!(stale.contains("no longer open"), "{stale}");
    w.service
        .answer(&ctx("bob", 0), second, Answer::Agree)
        .unwrap();
    assert!(w
        .service
        .store()
        .game(CHANNEL)
        .unwrap()
        .unwrap()
        .plies
        .is_empty());
    // A challenge button of a cancelled challenge does not accept the next one.
    let w = world();
    let old = w
        .service
        .challenge(&ctx("alice", 0), &opts(Some("bob"), Seat::White))
        .unwrap()
        .prompt
        .unwrap();
    w.service.cancel(&ctx("alice", 0)).unwrap();
    w.service
        .challenge(&ctx("alice", 0), &opts(Some("bob"), Seat::White))
        .unwrap();
    let stale = refusal(w.service.answer(&ctx("bob", 0), old, Answer::Accept));
    assert!(stale.contains("no longer open"), "{stale}");
}

#[test]
fn a_gone_channel_stops_its_timers_and_keeps_its_game() {
    let w = world();
    started(
        &w,
        ChallengeOptions {
            reminder: Some("1h".into()),
            time_limit: Some("1d".into()),
            ..opts(Some("bob"), Seat::White)
        },
    );
    assert!(w.service.channel_gone(CHANNEL).unwrap());
    assert!(
        w.service.tick(100 * HOUR).unwrap().is_empty(),
        "no posts into the void"
    );
    assert!(
        w.service.store().game(CHANNEL).unwrap().is_some(),
        "the game is kept"
    );
    play(&w, "alice", "a1");
    assert_eq!(
        w.service.tick(1000 + 12 * HOUR).unwrap().len(),
        1,
        "a ply there re-arms the timers"
    );
    assert!(
        !w.service.deliveries().unwrap().is_empty(),
        "the ply is owed"
    );
    assert_eq!(w.service.guild_gone(GUILD).unwrap(), 1);
    assert!(
        w.service.deliveries().unwrap().is_empty(),
        "nothing owed to a server that removed Bredon is tried again"
    );
}

#[test]
fn a_ply_resets_the_clocks() {
    let w = world();
    started(
        &w,
        ChallengeOptions {
            time_limit: Some("1d".into()),
            ..opts(Some("bob"), Seat::White)
        },
    );
    w.service.play(&ctx("alice", 20 * HOUR), "a1").unwrap();
    assert!(
        w.service.tick(25 * HOUR).unwrap().is_empty(),
        "bob's day starts at alice's ply"
    );
    let events = w.service.tick(44 * HOUR).unwrap();
    assert!(events
        .iter()
        .any(|e| e.outcome.text.contains("bob ran out of time")));
}

#[test]
fn challenges_expire() {
    let w = world();
    w.service
        .challenge(&ctx("alice", 0), &opts(Some("bob"), Seat::White))
        .unwrap();
    let events = w.service.tick(49 * HOUR).unwrap();
    assert!(events[0].outcome.text.contains("alice's challenge expired"));
    assert!(refusal(w.service.accept(&ctx("bob", 49 * HOUR))).contains("no open challenge"));
}

#[test]
fn racing_plies_apply_exactly_once() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    let service = Arc::new(w.service);
    let threads: Vec<_> = ["a1", "e5", "c3", "b2", "d4", "a5", "e1", "b4"]
        .into_iter()
        .map(|ply| {
            let s = Arc::clone(&service);
            std::thread::spawn(move || s.play(&ctx("alice", 0), ply).is_ok())
        })
        .collect();
    let applied = threads
        .into_iter()
        .map(|t| t.join().unwrap())
        .filter(|&ok| ok)
        .count();
    assert_eq!(applied, 1);
    assert_eq!(
        service.store().game(CHANNEL).unwrap().unwrap().plies.len(),
        1
    );
}

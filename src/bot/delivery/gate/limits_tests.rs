//! The limits' rules, one test each, on numbers for a clock.

use super::*;

fn post(path: &str) -> Route {
    Route::of("POST", path)
}

fn channel(id: u64) -> Route {
    post(&format!("/api/v10/channels/{id}/messages"))
}

fn told(bucket: &str, remaining: u32, reset_after_ms: i64) -> Told {
    Told {
        bucket: Some(bucket.into()),
        remaining,
        reset_after_ms,
    }
}

fn route_429(retry_after_ms: i64) -> TooMany {
    TooMany {
        retry_after_ms,
        global: false,
        shared: false,
        cloudflare: false,
    }
}

const fn waits(ms: i64, global: bool) -> Admit {
    Admit::Wait { ms, global }
}

#[test]
fn a_route_keeps_its_top_level_resource_and_makes_other_ids_and_tokens_one() {
    let a = channel(11);
    assert_eq!(a, channel(11));
    assert_ne!(a, channel(12), "channels apart");
    assert_eq!(a.template, channel(12).template, "one template");
    assert_eq!(a.major, "channels/11");
    let edit = |m| Route::of("PATCH", &format!("/api/v10/channels/11/messages/{m}"));
    assert_eq!(
        edit(5),
        edit(6),
        "one bucket for every message of a channel"
    );
    assert_ne!(a, Route::of("GET", "/api/v10/channels/11/messages"));
    assert!(!a.interaction);
    let follow_up = |token| post(&format!("/api/v10/webhooks/3/{token}/messages/@original"));
    assert!(follow_up("tok").interaction);
    assert_eq!(follow_up("one").template, follow_up("two").template);
    assert!(!follow_up("one").template.contains("one"), "no token kept");
    assert_eq!(follow_up("one").major, "webhooks/3/one");
    assert!(post("/api/v10/interactions/9/tok/callback").interaction);
    assert!(
        !post("/api/v10/webhooks/3").interaction,
        "a webhook's own route"
    );
    let react = |emoji| {
        Route::of(
            "PUT",
            &format!("/api/v10/channels/1/messages/2/reactions/{emoji}/@me"),
        )
    };
    assert_eq!(react("%F0%9F%91%8D"), react("x"), "emoji made one");
    assert_eq!(
        post("/p/one/api/v10/channels/11/messages?x=1"),
        a,
        "a proxy's prefix and a query change nothing"
    );
}

#[test]
fn routes_told_one_bucket_hash_share_it_per_top_level_resource() {
    let mut limits = Limits::default();
    let edit = Route::of("PATCH", "/api/v10/channels/1/messages/5");
    let delete = Route::of("DELETE", "/api/v10/channels/1/messages/6");
    let other_channel = Route::of("PATCH", "/api/v10/channels/2/messages/7");
    limits.told(&edit, told("abc", 1, 2_000), 0);
    limits.told(&delete, told("abc", 1, 2_000), 0);
    assert!(
        Arc::ptr_eq(&limits.queue_of(&edit, 0), &limits.queue_of(&delete, 0)),
        "one queue"
    );
    assert_eq!(limits.admit(&edit, 10), Admit::Go, "the one left");
    assert_eq!(
        limits.admit(&delete, 20),
        waits(1_980, false),
        "spent by the edit"
    );
    limits.told(&other_channel, told("abc", 1, 2_000), 20);
    assert_eq!(
        limits.admit(&other_channel, 30),
        Admit::Go,
        "another channel"
    );
    assert_eq!(limits.admit(&delete, 2_000), Admit::Go, "a new window");
}

#[test]
fn a_bucket_told_empty_waits_for_its_reset_and_others_go() {
    let mut limits = Limits::default();
    let (a, b) = (channel(1), channel(2));
    assert_eq!(limits.admit(&a, 0), Admit::Go, "nothing known yet");
    limits.told(&a, told("h", 1, 2_000), 10);
    assert_eq!(limits.admit(&a, 20), Admit::Go, "one left");
    assert_eq!(
        limits.admit(&a, 30),
        waits(1_980, false),
        "the one left was taken"
    );
    assert_eq!(limits.admit(&b, 30), Admit::Go, "another channel's bucket");
    assert_eq!(limits.admit(&a, 2_010), Admit::Go, "a new window");
}

#[test]
fn a_bucket_lets_one_request_in_flight_at_a_time_in_the_order_they_came() {
    let mut limits = Limits::default();
    let a = channel(1);
    let first = limits.queue_of(&a, 0).try_lock_owned().expect("free");
    let queue = limits.queue_of(&a, 0);
    assert!(
        queue.try_lock().is_err(),
        "the second waits for the first's answer"
    );
    drop(first);
    assert!(queue.try_lock().is_ok(), "then goes");
    assert!(
        limits.queue_of(&channel(2), 0).try_lock().is_ok(),
        "another bucket"
    );
}

#[test]
fn an_overtaken_answer_never_gives_back_requests_already_spent() {
    let mut limits = Limits::default();
    let a = channel(1);
    limits.told(&a, told("h", 1, 2_000), 0);
    assert_eq!(limits.admit(&a, 10), Admit::Go);
    // An answer of the same window, sent before: it tells more left than there is.
    limits.told(&a, told("h", 3, 1_980), 20);
    assert_eq!(limits.admit(&a, 30), waits(1_970, false));
    // A later window's answer replaces it.
    limits.told(&a, told("h", 4, 2_000), 2_100);
    assert_eq!(limits.admit(&a, 2_110), Admit::Go);
}

#[test]
fn the_global_limit_is_fifty_in_any_second() {
    let mut limits = Limits::default();
    assert_eq!(limits.admit(&channel(1_000), 0), Admit::Go);
    for id in 0..49 {
        assert_eq!(limits.admit(&channel(id), 990), Admit::Go);
    }
    assert_eq!(
        limits.admit(&channel(100), 995),
        waits(5, true),
        "50 in the second"
    );
    // A fixed window starting at 0 would let 50 more go at 1,000: 99 in 10 ms.
    assert_eq!(
        limits.admit(&channel(101), 1_000),
        Admit::Go,
        "the first aged out"
    );
    assert_eq!(limits.admit(&channel(102), 1_000), waits(990, true));
    let callback = post("/api/v10/interactions/5/t/callback");
    assert_eq!(limits.admit(&callback, 1_000), Admit::Go, "not bound to it");
    assert_eq!(limits.admit(&channel(102), 1_990), Admit::Go);
}

#[test]
fn a_request_counts_against_the_global_limit_until_a_second_after_its_answer() {
    let mut limits = Limits::default();
    let slow = channel(1_000);
    assert_eq!(limits.admit(&slow, 0), Admit::Go);
    // Answered at 300: Discord may have counted it as late as that.
    limits.came_back(&slow, 0, 300);
    for id in 0..49 {
        assert_eq!(limits.admit(&channel(id), 500), Admit::Go);
    }
    assert_eq!(limits.admit(&channel(100), 1_100), waits(200, true));
    assert_eq!(limits.admit(&channel(100), 1_300), Admit::Go);
    let callback = post("/api/v10/interactions/5/t/callback");
    limits.came_back(&callback, 1_300, 1_400);
    assert_eq!(
        limits.admit(&channel(101), 1_300),
        waits(200, true),
        "an answer to an interaction counts nothing"
    );
}

#[test]
fn a_global_429_pauses_every_route_but_interactions() {
    let mut limits = Limits::default();
    let callback = post("/api/v10/interactions/5/t/callback");
    let global = TooMany {
        global: true,
        ..route_429(240_000)
    };
    limits.answered(&channel(1), 429, Some(global), 1_000);
    assert_eq!(limits.admit(&channel(2), 2_000), waits(239_000, true));
    assert_eq!(limits.admit(&callback, 2_000), Admit::Go);
    assert_eq!(limits.admit(&channel(2), 241_000), Admit::Go);
    assert_eq!(limits.held_back_until_ms(2_000), 241_000);
}

#[test]
fn a_route_429_pauses_that_bucket_only() {
    let mut limits = Limits::default();
    limits.answered(&channel(1), 429, Some(route_429(5_000)), 0);
    assert_eq!(limits.admit(&channel(1), 1_000), waits(4_000, false));
    assert_eq!(limits.admit(&channel(2), 1_000), Admit::Go);
    assert_eq!(limits.admit(&channel(1), 5_000), Admit::Go);
}

#[test]
fn a_request_is_sent_again_once_after_a_short_429_and_never_at_once() {
    let zero = route_429(0);
    assert_eq!(again_after_429(1, &zero, 10_000), Some(RETRY_FLOOR_MS));
    assert_eq!(
        again_after_429(2, &zero, 10_000),
        None,
        "the second is handed back"
    );
    assert_eq!(again_after_429(1, &route_429(3_000), 10_000), Some(3_000));
    assert_eq!(
        again_after_429(1, &route_429(3_000), 2_000),
        None,
        "past its wait"
    );
}

#[test]
fn a_cloudflare_429_pauses_every_route_interactions_too() {
    let html = b"<!DOCTYPE html><title>Access denied | discord.com used Cloudflare</title>";
    let none = |_: &str| -> Option<&'static str> { None };
    let t = TooMany::of(none, html);
    assert!(
        t.cloudflare && t.retry_after_ms == CLOUDFLARE_PAUSE_MS,
        "{t:?}"
    );
    let with_retry_after = TooMany::of(|h| (h == "retry-after").then_some("30"), html);
    assert_eq!(
        (with_retry_after.cloudflare, with_retry_after.retry_after_ms),
        (true, 30_000)
    );
    let json =
        br#"{"message": "You are being rate limited.", "retry_after": 0.5, "global": false}"#;
    let discords = TooMany::of(none, json);
    assert_eq!((discords.cloudflare, discords.retry_after_ms), (false, 500));
    let mut limits = Limits::default();
    let callback = post("/api/v10/interactions/5/t/callback");
    let heard = limits.answered(&channel(1), 429, Some(t), 0);
    assert!(heard.cloudflare_pause_began);
    let again = limits.answered(&channel(2), 429, Some(t), 10);
    assert!(!again.cloudflare_pause_began, "told once a pause");
    assert_eq!(limits.admit(&callback, 1_000), waits(59_010, true));
    assert_eq!(limits.admit(&channel(3), 1_000), waits(59_010, true));
    assert_eq!(limits.held_back_until_ms(1_000), 60_010);
    assert_eq!(limits.admit(&callback, 60_010), Admit::Go);
}

#[test]
fn idle_buckets_are_dropped_so_interaction_tokens_do_not_pile_up() {
    let mut limits = Limits::default();
    let mut most = 0;
    for i in 0..100_000i64 {
        let now = i * 10;
        let route = post(&format!("/api/v10/interactions/{i}/token-{i}/callback"));
        let queue = limits.queue_of(&route, now);
        let turn = queue.try_lock_owned().expect("its own bucket");
        assert_eq!(limits.admit(&route, now), Admit::Go);
        limits.told(&route, told("cb", 0, 1_000), now);
        drop(turn);
        most = most.max(limits.bucket_count());
    }
    // A window of 1 s holds 100 live buckets; a sweep every 1,000 requests drops the others.
    assert!(most <= SWEEP_EVERY as usize + 100, "{most} buckets held");
    let held = limits.queue_of(&channel(1), 2_000_000);
    for i in 0..SWEEP_EVERY as i64 {
        limits.queue_of(&post(&format!("/api/v10/webhooks/1/t{i}")), 2_000_000);
    }
    assert!(
        Arc::ptr_eq(&held, &limits.queue_of(&channel(1), 2_000_000)),
        "a bucket someone is queued in stays"
    );
}

#[test]
fn invalid_requests_are_counted_over_ten_minutes_but_shared_429s() {
    let mut limits = Limits::default();
    let a = channel(1);
    limits.answered(&a, 403, None, 0);
    limits.answered(&a, 401, None, 1_000);
    limits.answered(&a, 404, None, 1_000);
    let shared = TooMany {
        shared: true,
        ..route_429(1)
    };
    limits.answered(&a, 429, Some(shared), 2_000);
    limits.answered(&a, 429, Some(route_429(1)), 3_000);
    assert_eq!(limits.invalid_in_window(3_000), 3);
    assert_eq!(limits.invalid_in_window(600_000), 2, "the first ages out");
    assert_eq!(limits.invalid_in_window(603_000), 0);
}

#[test]
fn at_the_invalid_pause_every_route_but_interactions_waits_for_the_window_to_slide() {
    let mut limits = Limits::default();
    let a = channel(1);
    let mut began = 0;
    for i in 0..INVALID_PAUSE_AT as i64 {
        began += limits.answered(&a, 403, None, i).invalid_pause_began as usize;
    }
    assert_eq!(began, 1, "told once");
    let callback = post("/api/v10/interactions/5/t/callback");
    assert_eq!(limits.admit(&callback, 10_000), Admit::Go);
    // The first invalid request (at 0) ages out at 600,000.
    assert_eq!(limits.admit(&channel(2), 10_000), waits(590_000, true));
    assert_eq!(limits.held_back_until_ms(10_000), INVALID_WINDOW_MS);
    assert_eq!(limits.admit(&channel(2), INVALID_WINDOW_MS), Admit::Go);
    let again = limits.answered(&a, 403, None, INVALID_WINDOW_MS);
    assert!(again.invalid_pause_began, "a second crossing is told again");
}

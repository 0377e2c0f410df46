//! The outbox as the service keeps it: a letter per change, its version, the board it draws.

use super::world::*;
use bredon::game::Match;
use bredon::service::{Fenced, Handed, Part, Progress, Service, NEWER_BUILD_WAIT_MS};
use bredon::store::records::Seat;

#[test]
fn every_change_stores_the_message_it_owes_until_it_is_delivered() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    let ply = play(&w, "alice", "a1");
    let owed = w.service.deliveries().unwrap();
    let texts: Vec<&str> = owed.iter().map(|d| d.outcome.text.as_str()).collect();
    assert_eq!(owed.len(), 3, "{texts:?}");
    assert!(texts[0].starts_with("alice challenges bob"), "{texts:?}");
    assert!(
        texts[1].contains("alice (White) vs bob (Black)"),
        "{texts:?}"
    );
    assert_eq!(texts[2], ply.text, "the stored outcome is the one returned");
    assert_eq!(owed[2].outcome.letter, ply.letter);
    assert_eq!(owed[2].outcome.ping, vec![user("bob")]);
    assert_eq!(owed[2].letter.channel, CHANNEL);
    // A look at the board changes nothing and owes nothing.
    let view = w.service.view(&ctx("carol", 1)).unwrap();
    assert_eq!(view.letter, None);
    assert_eq!(w.service.deliveries().unwrap().len(), 3);
    // A refused action stores nothing either.
    refusal(w.service.play(&ctx("alice", 2), "a2"));
    assert_eq!(w.service.deliveries().unwrap().len(), 3);
    for d in &owed {
        w.service.delivered(d.letter.id).unwrap();
    }
    assert!(w.service.deliveries().unwrap().is_empty());
}

#[test]
fn a_letter_is_stored_with_its_version_and_a_newer_one_is_left_to_its_build_for_a_while() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    let ply = play(&w, "alice", "a1");
    let id = ply.letter.unwrap();
    let store = w.service.store();
    let mut letter = store.letter(id).unwrap().unwrap();
    assert_eq!(letter.body["v"], 1, "{}", letter.body);
    // Written by a newer Bredon sharing the store: neither read nor dropped.
    letter.body["v"] = serde_json::json!(99);
    store.put_letter(&letter).unwrap();
    let made = letter.created_ms;
    let left_to_its_build = made + NEWER_BUILD_WAIT_MS - 1;
    assert!(w.service.delivery(id, left_to_its_build).is_err());
    assert_eq!(
        w.service.deliveries().unwrap().len(),
        2,
        "the others still read"
    );
    assert!(store.letter(id).unwrap().is_some(), "kept for its build");
    // No newer build took it in time (a rollback): this one delivers what it reads of it.
    letter.body["a_field_of_the_newer_build"] = serde_json::json!([1, 2]);
    store.put_letter(&letter).unwrap();
    let rolled_back = made + NEWER_BUILD_WAIT_MS;
    let read = w.service.delivery(id, rolled_back).unwrap().unwrap();
    assert_eq!(read.outcome.text, ply.text);
    // One it cannot read at all is passed by (the channel's later letters go out) and kept.
    let mut unreadable = letter.clone();
    unreadable.body["text"] = serde_json::json!({"a": "shape this build does not know"});
    store.put_letter(&unreadable).unwrap();
    assert!(w.service.delivery(id, rolled_back).unwrap().is_none());
    assert!(
        store.letter(id).unwrap().is_some(),
        "still kept for its build"
    );
    // One stored before bodies had a version reads as the first.
    letter.body.as_object_mut().unwrap().remove("v");
    store.put_letter(&letter).unwrap();
    let read = w.service.delivery(id, made).unwrap().unwrap();
    assert_eq!(read.outcome.text, ply.text);
    // A notice naming a channel is version 2, which a build reading only 1 leaves alone.
    let (notice, _) = w
        .service
        .refused_in(
            GUILD,
            CHANNEL,
            bredon::store::records::Lacking::Posting,
            5,
            0,
        )
        .unwrap();
    let notice = store.letter(notice.unwrap()).unwrap().unwrap();
    assert_eq!(notice.body["v"], 2, "{}", notice.body);
    assert_eq!(notice.body["about"], CHANNEL, "{}", notice.body);
    // A result linking its web page is version 4, which a build reading only 3 leaves alone.
    let manager = bredon::service::Ctx {
        moderator: true,
        ..ctx("carol", 3)
    };
    w.service.set_web(&manager, true).unwrap();
    let resigned = w.service.resign(&ctx("bob", 4)).unwrap();
    let page = resigned.page.clone().expect("a result links its page");
    assert!(
        page.starts_with("/s/") && page.ends_with("/game/1"),
        "{page}"
    );
    let result = store.letter(resigned.letter.unwrap()).unwrap().unwrap();
    assert_eq!(result.body["v"], 4, "{}", result.body);
    let read = w.service.delivery(result.id, made).unwrap().unwrap();
    assert_eq!(read.outcome.page, Some(page));
}

#[test]
fn a_stored_outcome_draws_the_same_board_after_a_restart() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    play(&w, "alice", "a1");
    play(&w, "bob", "e5");
    let resigned = w.service.resign(&ctx("bob", 3)).unwrap();
    let World { place, service } = w;
    drop(service);
    let service = Service::new(place.open());
    let owed = service.deliveries().unwrap();
    let stored = &owed.last().unwrap().outcome;
    assert_eq!(stored.letter, resigned.letter);
    let (a, b) = (
        resigned.board.as_ref().unwrap(),
        stored.board.as_ref().unwrap(),
    );
    assert_eq!(b, a, "the same board, as plain data");
    let replayed = Match::from_record(&b.record).unwrap();
    assert_eq!(
        replayed.result().map(|e| e.code()),
        Some("1-0"),
        "bob's resignation is kept in the record"
    );
    let draw = |b: &bredon::service::Board| {
        bredon::game::explain::record_picture(
            &b.record,
            b.names(),
            &b.theme,
            b.clock.clone(),
            b.display,
        )
        .unwrap()
    };
    assert_eq!(draw(b), draw(a), "the same picture and description");
    let (fa, fb) = (
        resigned.finished.as_ref().unwrap(),
        stored.finished.as_ref().unwrap(),
    );
    assert_eq!((&fb.ptn, &fb.file, &fb.link), (&fa.ptn, &fa.file, &fa.link));
    assert_eq!(stored.prompt, resigned.prompt);
}

#[test]
fn a_letter_is_delivered_under_the_lease_of_the_process_that_holds_it() {
    // Two processes sharing one store (sled here, PostgreSQL in CI's second pass).
    let w = world();
    let first = &w.service;
    let second = Service::of_process(first.store().clone(), 2);
    started(&w, opts(Some("bob"), Seat::White));
    let now = bredon::clock::now_ms();
    let owed = second.owed().unwrap();
    let head = *owed.last().expect("the game's start is owed");
    // The change gave its process the lease: the other leaves the letter alone.
    assert!(second.leased_elsewhere(&head, now), "leased to its maker");
    assert!(!first.leased_elsewhere(&head, now), "its own lease");
    assert_eq!(second.lease_letter(head.id, now, 60_000).unwrap(), None);
    // Its own process takes it again (the outbox, after its handler gave up) under a new epoch:
    // what the handler still does under the first is fenced.
    let first_epoch = bredon::service::FIRST_EPOCH;
    let epoch = first.lease_letter(head.id, now, 60_000).unwrap().unwrap();
    assert_eq!(
        epoch,
        first_epoch + 1,
        "held again by its holder, a new epoch"
    );
    assert!(!first.renew_letter(head.id, first_epoch, now).unwrap());
    assert_eq!(
        first.settle(Some((head.id, first_epoch)), done(), now),
        Ok(Err(Fenced)),
        "the earlier take of the same process writes nothing"
    );
    assert!(first.renew_letter(head.id, epoch, now).unwrap());
    assert_eq!(
        first.settle(
            Some((head.id, epoch)),
            sent(Part::Announcement, Some(7)),
            now
        ),
        Ok(Ok(vec![]))
    );

    // The holder stalls past its lease: the other process takes the letter over with the next
    // epoch, and the stalled one can neither note, renew nor finish it any more.
    let later = now + bredon::service::LEASE_MS;
    assert_eq!(
        second.lease_letter(head.id, later - 1, 60_000).unwrap(),
        None
    );
    assert_eq!(
        second.lease_letter(head.id, later, 60_000).unwrap(),
        Some(3)
    );
    assert_eq!(
        first.settle(Some((head.id, epoch)), sent(Part::Record, None), now),
        Ok(Err(Fenced))
    );
    assert!(!first.renew_letter(head.id, epoch, later).unwrap());
    assert_eq!(
        first.settle(Some((head.id, epoch)), done(), now),
        Ok(Err(Fenced))
    );
    let letter = second.store().letter(head.id).unwrap().unwrap();
    assert_eq!(
        letter.sent,
        vec!["announcement"],
        "the stalled note is not written"
    );
    assert_eq!(
        letter.message,
        Some(7),
        "the other process's notes are kept"
    );

    // The new holder fails a try and lets go: either process may take it at once.
    second.release_letter(head.id, 3).unwrap();
    assert_eq!(first.lease_letter(head.id, later, 60_000).unwrap(), Some(4));
    assert_eq!(
        first.settle(Some((head.id, 4)), done(), later),
        Ok(Ok(vec![]))
    );
    assert_eq!(
        second.lease_letter(head.id, later, 60_000).unwrap(),
        None,
        "a delivered letter is gone"
    );
}

/// A rolling deploy runs an old and a new process of the same shards side by side: each
/// process start is a holder of its own, so the new one leaves what the old one holds alone
/// until its lease lapses. On sled, the store's only process, a start lets the stopped one's
/// leases lapse at once, and the stopped one's epoch is fenced.
#[test]
fn each_process_start_is_a_holder_of_its_own() {
    let w = world();
    let old = &w.service;
    started(&w, opts(Some("bob"), Seat::White));
    let now = bredon::clock::now_ms();
    let new = Service::starting_process(old.store().clone()).unwrap();
    let head = *new
        .owed()
        .unwrap()
        .last()
        .expect("the game's start is owed");
    let epoch = bredon::service::FIRST_EPOCH;
    if old.store_is_shared() {
        assert!(
            new.leased_elsewhere(&head, now),
            "the old process's lease runs"
        );
        assert_eq!(new.lease_letter(head.id, now, 60_000).unwrap(), None);
        let other = Service::starting_process(old.store().clone()).unwrap();
        let taken = other.lease_letter(head.id, now + bredon::service::LEASE_MS, 60_000);
        assert_eq!(taken.unwrap(), Some(epoch + 1), "taken once it lapsed");
        assert_eq!(
            new.lease_letter(head.id, now + bredon::service::LEASE_MS, 60_000)
                .unwrap(),
            None,
            "two starts of the same shards are two holders"
        );
    } else {
        assert!(!new.leased_elsewhere(&head, now), "lapsed at the start");
        assert_eq!(
            new.lease_letter(head.id, now, 60_000).unwrap(),
            Some(epoch + 1)
        );
    }
    assert_eq!(
        old.settle(Some((head.id, epoch)), done(), now),
        Ok(Err(Fenced)),
        "the old process writes nothing more"
    );
}

#[test]
fn a_direct_message_is_handed_over_to_a_letter_of_its_own_once_and_only_by_the_holder() {
    let w = world();
    let first = &w.service;
    let second = Service::of_process(first.store().clone(), 2);
    started(&w, opts(Some("bob"), Seat::White));
    let game = play(&w, "alice", "a1").letter.unwrap();
    let epoch = bredon::service::FIRST_EPOCH;
    let now = bredon::clock::now_ms();
    let text = "It is your move in <#5>: https://discord.com/channels/1/5/9";
    let hand = |s: &Service, epoch| {
        let handed = Handed {
            about: CHANNEL,
            reader: user("bob"),
            text: text.into(),
        };
        let progress = Progress {
            handed: vec![handed],
            ..Progress::default()
        };
        s.settle(Some((game, epoch)), progress, now).unwrap()
    };
    let own = hand(first, epoch).unwrap()[0];
    let letter = first.store().letter(own).unwrap().unwrap();
    assert_eq!(letter.channel, user("bob").id, "in bob's queue");
    assert_eq!(letter.guild, 0, "no server's");
    assert_eq!(letter.body["v"], 5, "{}", letter.body);
    let read = first.delivery(own, now).unwrap().unwrap();
    assert!(read.outcome.direct_only);
    assert_eq!(read.outcome.text, text);
    assert_eq!(
        read.outcome.about,
        Some(CHANNEL),
        "closed DMs are told there"
    );
    let sent = &first.store().letter(game).unwrap().unwrap().sent;
    assert_eq!(sent, &vec![Part::Direct(user("bob").id).key()]);
    // Handed over once, whatever is tried again.
    assert_eq!(hand(first, epoch), Ok(vec![]));
    let owed = first.owed().unwrap().len();
    // Another process that took the game's letter over fences its old holder out.
    let later = now + bredon::service::LEASE_MS;
    assert_eq!(second.lease_letter(game, later, 60_000).unwrap(), Some(2));
    let mut fresh = first.store().letter(game).unwrap().unwrap();
    fresh.sent.clear();
    first.store().put_letter(&fresh).unwrap();
    assert_eq!(hand(first, epoch), Err(Fenced));
    assert_eq!(first.owed().unwrap().len(), owed, "nothing written");
}

/// What a delivery tells of one part that went out.
fn sent(part: Part, message: Option<u64>) -> Progress {
    Progress {
        sent: vec![(part, message)],
        ..Progress::default()
    }
}

/// What a delivery tells at its end.
fn done() -> Progress {
    Progress {
        done: true,
        ..Progress::default()
    }
}

//! Private notes on each store: notes written at once by two threads are both kept, and a
//! player's notes outlive their game, for their own record and nobody else's.

use super::world::*;
use bredon::store::records::{PrivateNote, Seat};

#[test]
fn notes_written_at_once_are_all_kept_and_outlive_their_game() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    play(&w, "alice", "a1");
    let id = w.service.store().game(CHANNEL).unwrap().unwrap().id;
    let alice = user("alice").id;
    std::thread::scope(|s| {
        for t in 0..4 {
            let store = w.service.store();
            s.spawn(move || {
                for i in 0..5 {
                    let note = PrivateNote {
                        ply: 1,
                        written_ms: 0,
                        text: format!("thread {t} note {i}"),
                    };
                    store.add_note((GUILD, id, alice), &note, 60).unwrap();
                }
            });
        }
    });
    let notes = w.service.store().notes(GUILD, id, alice).unwrap();
    assert_eq!(notes.len(), 20, "every note written at once is kept");
    // Full: the next is refused and nothing is written.
    let note = PrivateNote {
        ply: 1,
        written_ms: 0,
        text: "one too many".into(),
    };
    assert_eq!(
        w.service
            .store()
            .add_note((GUILD, id, alice), &note, 20)
            .unwrap(),
        None
    );
    assert_eq!(w.service.store().notes(GUILD, id, alice).unwrap().len(), 20);

    // The game ends; its notes stay, for alice's record alone.
    w.service.resign(&ctx("bob", 2000)).unwrap();
    let record = w
        .service
        .ptn_with_notes(&ctx("alice", 3000), None)
        .expect("alice's record with her notes");
    assert!(record.text.contains("a1 {thread"), "{}", record.text);
    assert_eq!(record.text.matches("{thread").count(), 20);
    let bob = w.service.ptn_with_notes(&ctx("bob", 3000), None);
    assert!(bob
        .expect_err("bob kept none")
        .0
        .contains("you kept no notes on game #1"),);
}

/// A note written after a ply that is then taken back stays after the last ply left, not on
/// the ply that replaced it: note after c3, undo, c2 (what a player hit).
#[test]
fn a_note_after_a_ply_taken_back_stays_after_the_last_ply_left() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    play(&w, "alice", "a1");
    play(&w, "bob", "e5");
    play(&w, "alice", "c3");
    w.service
        .add_note(&ctx("alice", 1500), "c3 then d3 makes a wall of it")
        .unwrap();
    // Her own ply, taken back at once, needs no asking.
    let undone = w.service.request_undo(&ctx("alice", 2000)).unwrap();
    assert!(undone.text.contains("c3 taken back"), "{}", undone.text);
    play(&w, "alice", "c2");
    let listed = w.service.note_list(&ctx("alice", 3000)).unwrap();
    assert!(
        listed.text.contains("- after ply 2 (e5): c3 then d3"),
        "{}",
        listed.text
    );
    let record = w.service.ptn_with_notes(&ctx("alice", 3000), None).unwrap();
    assert!(
        record.text.contains("e5 {c3 then d3 makes a wall of it}"),
        "{}",
        record.text
    );
    assert!(!record.text.contains("c2 {"), "{}", record.text);
}

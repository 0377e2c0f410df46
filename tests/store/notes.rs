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

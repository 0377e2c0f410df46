//! What the service scenarios share: a world (a store on the tested backend and its service),
//! players, contexts, challenge options, and the road of the first game.

use crate::support;
use bredon::service::{ChallengeOptions, Ctx, Outcome, Service};
use bredon::store::records::{PlayerRef, Seat};

pub(super) const GUILD: u64 = 7;
pub(super) const CHANNEL: u64 = 100;
pub(super) const HOUR: i64 = 3_600_000;

pub(super) struct World {
    pub place: support::Place,
    pub service: Service,
}

pub(super) fn world() -> World {
    world_in(support::place())
}

pub(super) fn world_in(place: support::Place) -> World {
    let service = Service::new(place.open());
    World { place, service }
}

pub(super) fn user(name: &str) -> PlayerRef {
    let id = name.bytes().fold(1469598103934665603u64, |h, b| {
        (h ^ b as u64).wrapping_mul(1099511628211)
    });
    PlayerRef {
        id,
        name: name.into(),
    }
}

pub(super) fn ctx(name: &str, now_ms: i64) -> Ctx {
    Ctx {
        guild: GUILD,
        channel: CHANNEL,
        user: user(name),
        now_ms,
        moderator: name == "mod",
        request: None,
    }
}

pub(super) fn opts(opponent: Option<&str>, seat: Seat) -> ChallengeOptions {
    ChallengeOptions {
        opponent: opponent.map(user),
        seat,
        size: Some(5),
        ..ChallengeOptions::default()
    }
}

/// alice (White) vs bob (Black) on 5x5, started at t=0.
pub(super) fn started(w: &World, options: ChallengeOptions) {
    w.service.challenge(&ctx("alice", 0), &options).unwrap();
    w.service.accept(&ctx("bob", 0)).unwrap();
}

pub(super) fn play(w: &World, who: &str, ply: &str) -> Outcome {
    w.service
        .play(&ctx(who, 1000), ply)
        .unwrap_or_else(|e| panic!("{who} {ply}: {e}"))
}

pub(super) fn refusal(r: Result<Outcome, bredon::service::Refusal>) -> String {
    r.expect_err("should be refused").0
}

/// White builds a road on rank 3 of 5x5 while Black plays on rank 5 (its swap flat is on e1).
pub(super) const ROAD: [(&str, &str); 11] = [
    ("alice", "e1"),
    ("bob", "a1"),
    ("alice", "a3"),
    ("bob", "a5"),
    ("alice", "b3"),
    ("bob", "b5"),
    ("alice", "c3"),
    ("bob", "c5"),
    ("alice", "d3"),
    ("bob", "d5"),
    ("alice", "e3"),
];

pub(super) fn refusal_of<T: std::fmt::Debug>(r: Result<T, bredon::service::Refusal>) -> String {
    r.expect_err("should be refused").0
}

/// A context in another server than `GUILD`.
pub(super) fn in_guild(guild: u64, name: &str) -> Ctx {
    Ctx {
        guild,
        ..ctx(name, 1000)
    }
}

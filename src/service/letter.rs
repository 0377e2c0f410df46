//! What a letter owes, as stored: a type of its own, versioned apart from `Outcome` (what the
//! service answers), so changing one is a decision about the other. Below the service's ground:
//! `Service::commit` writes letters in this form and the outbox reads them.

use super::outcome::Outcome;
use crate::store::records::Letter;
use serde::{Deserialize, Serialize};

/// The newest version of a letter's body this build reads.
const BODY_VERSION: u32 = 5;

/// What a letter owes, as stored: a type of its own with its version, apart from `Outcome` (what
/// the service answers), so changing one is a decision about the other. Version 1 holds the
/// outcome's stored fields; a body without a version (stored before bodies had one) reads as 1.
/// Version 2 adds `about` (the channel a notice names), which a build reading only 1 would drop:
/// a body is written as 2 only when it has one, so every other letter stays deliverable by the
/// older build during a deploy. Version 3 adds `digest` (a daily digest, sent as a direct
/// message alone), written only for a digest. Version 4 adds `page` (the web page a result links),
/// written only when the outcome has one. Version 5 adds `direct_only` (a direct message alone,
/// in its reader's queue), written only for one.
#[derive(Serialize, Deserialize)]
struct LetterBody<T> {
    #[serde(default = "first_version")]
    pub v: u32,
    #[serde(flatten)]
    pub owed: T,
}

fn first_version() -> u32 {
    1
}

/// The body of the letter that holds `outcome`, as this build writes it.
pub(super) fn body_of(outcome: &Outcome) -> serde_json::Value {
    let v = match (
        outcome.direct_only,
        outcome.page.is_some(),
        outcome.digest.is_empty(),
        outcome.about,
    ) {
        (true, ..) => 5,
        (false, true, ..) => 4,
        (false, false, false, _) => 3,
        (false, false, true, Some(_)) => 2,
        (false, false, true, None) => 1,
    };
    serde_json::to_value(LetterBody { v, owed: outcome }).expect("outcomes serialize")
}

/// Whether `letter`'s body was written by a newer build (processes of two versions share a store
/// during a deploy): left for it, never guessed at.
pub(super) fn newer_than_this_build(letter: &Letter) -> bool {
    let version = letter.body.get("v").and_then(|v| v.as_u64());
    version.unwrap_or(1) > u64::from(BODY_VERSION)
}

/// The outcome a letter's body holds.
pub(super) fn outcome_of(body: serde_json::Value) -> serde_json::Result<Outcome> {
    serde_json::from_value::<LetterBody<Outcome>>(body).map(|b| b.owed)
}

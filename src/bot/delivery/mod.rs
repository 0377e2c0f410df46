//! Delivery: every way an outcome reaches Discord after the service made it durable. The
//! publisher (`publish.rs`) posts what a handler, a timer or Bredon's turn owes, each part once
//! (`posting.rs`), inside the letter's lease; the outbox (`outbox.rs`) delivers what no handler
//! holds, a channel in order, a suspect server by probes; one table of Discord's codes decides
//! what a failure means (`failure.rs`); refused channels are told and remembered
//! (`refused.rs`); a channel's letters keep their order within the process (`order.rs`, `behind.rs`);
//! a channel refusing with a code Bredon has no row for is passed over after a bounded hold,
//! its players told by direct message (`unheard.rs`);
//! Bredon's own turns follow an outcome, one task per channel (`turns.rs`); outside servers,
//! where Bredon may only answer, what a channel is owed follows its interactions (`answers.rs`,
//! `tokens.rs`);
//! and every REST request of the process goes through its gate, Bredon's own
//! rate limiter (`gate/`). Handlers' first answers (`respond.rs`) and the messages' text
//! (`post.rs`) stay beside the commands that use them.

pub(super) mod answers;
pub(super) mod backoff;
mod behind;
pub(super) mod claims;
mod direct;
pub(super) mod failure;
pub(super) mod gate;
pub(super) mod order;
pub(super) mod outbox;
pub(super) mod posting;
pub(super) mod publish;
mod refused;
pub(super) mod schedule;
pub(super) mod tokens;
mod turns;
pub(super) mod unheard;
pub(super) mod waits;

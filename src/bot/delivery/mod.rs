//! Delivery: every way an outcome reaches Discord after the service made it durable. The
//! publisher (`publish.rs`) posts what a handler, a timer or Bredon's turn owes, each part once
//! (`posting.rs`), inside the letter's lease; the outbox (`outbox.rs`) delivers what no handler
//! claimed, a channel in order, a suspect server by probes; one table of Discord's codes decides
//! what a failure means (`failure.rs`); refused channels are told and remembered
//! (`refused.rs`); a channel's letters keep their order within the process (`order.rs`, `behind.rs`);
//! a channel refusing with a code Bredon has no row for is passed over after a bounded park,
//! its players told by direct message (`unheard.rs`);
//! Bredon's own turns follow an outcome, one task per channel (`turns.rs`); outside servers,
//! where Bredon may only answer, what a channel is owed follows its interactions (`answers.rs`,
//! `tokens.rs`);
//! a handler's own answers to its interaction (`replies.rs`) and the threads it opens
//! (`threads.rs`) are made here too, so every REST call of the bot is in this folder but the
//! process's setup (`bot/mod.rs`, `register.rs`, `gateway.rs`: once per start, before any
//! handler, owing nothing to anyone); and every REST request of the process goes through its
//! gate, Bredon's own rate limiter (`gate/`). The messages' text (`post.rs`) stays beside the
//! commands that use them. The outbox's waits follow one backoff (`backoff.rs`); what the
//! words claim, lease, hold, wait and park mean is in DEVELOPING's delivery section.

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
pub(super) mod replies;
pub(super) mod schedule;
pub(super) mod threads;
pub(super) mod tokens;
mod turns;
pub(super) mod unheard;
pub(super) mod waits;

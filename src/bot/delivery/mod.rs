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
mod behind;
mod direct;
pub(super) mod failure;
pub(super) mod gate;
pub(super) mod order;
pub(super) mod outbox;
pub(super) mod posting;
pub(super) mod publish;
mod refused;
pub(super) mod tokens;
mod turns;
pub(super) mod unheard;
pub(super) mod waits;

tokio::task_local! {
    /// How many steps into the store the delivery this task runs has taken (`in_store`).
    static STORE_STEPS: std::cell::Cell<u32>;
}

/// Runs `f` (a step into the store) on a blocking thread, counted among the steps of the
/// delivery this task runs, if it counts them (`counting_store_steps`).
pub(super) async fn in_store<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, tokio::task::JoinError> {
    let _ = STORE_STEPS.try_with(|steps| steps.set(steps.get() + 1));
    tokio::task::spawn_blocking(f).await
}

/// Runs `delivery`, counting its steps into the store (read with `store_steps`): the log says
/// how many a delivery took, as a handler's action takes one before it.
pub(super) async fn counting_store_steps<T>(delivery: impl std::future::Future<Output = T>) -> T {
    STORE_STEPS.scope(std::cell::Cell::new(0), delivery).await
}

/// The store steps the delivery this task runs has taken so far.
pub(super) fn store_steps() -> u32 {
    STORE_STEPS.try_with(|steps| steps.get()).unwrap_or(0)
}

//! The one way from the bot's async code into the service: the store's calls block, so each
//! runs on a blocking thread (`in_store`), counted among the steps of the delivery the task
//! runs, if it counts them (`counting_store_steps`): the log says how many a delivery took.

use crate::service::{Refusal, Service};
use std::sync::Arc;

tokio::task_local! {
    /// How many steps into the store the delivery this task runs has taken (`in_store`).
    static STORE_STEPS: std::cell::Cell<u32>;
}

/// Runs `f` on the service on a blocking thread, counted among the steps of the delivery this
/// task runs; work that panicked comes back as a refusal saying so.
pub async fn in_store<T: Send + 'static>(
    service: &Arc<Service>,
    f: impl FnOnce(&Service) -> T + Send + 'static,
) -> Result<T, Refusal> {
    let _ = STORE_STEPS.try_with(|steps| steps.set(steps.get() + 1));
    let s = Arc::clone(service);
    tokio::task::spawn_blocking(move || f(&s))
        .await
        .map_err(failed_inside)
}

/// The refusal for work that panicked: whatever it did is stored or not, so look.
pub fn failed_inside(e: tokio::task::JoinError) -> Refusal {
    Refusal(format!("Bredon failed inside ({e}); look at /board"))
}

/// `in_store` for a call that may refuse: its refusal and a failure inside are one.
pub async fn blocking<T: Send + 'static>(
    service: &Arc<Service>,
    f: impl FnOnce(&Service) -> Result<T, Refusal> + Send + 'static,
) -> Result<T, Refusal> {
    in_store(service, f).await.and_then(|done| done)
}

/// Runs `delivery`, counting its steps into the store (read with `store_steps`): the log says
/// how many a delivery took, as a handler's action takes one before it.
pub async fn counting_store_steps<T>(delivery: impl std::future::Future<Output = T>) -> T {
    STORE_STEPS.scope(std::cell::Cell::new(0), delivery).await
}

/// The store steps the delivery this task runs has taken so far.
pub fn store_steps() -> u32 {
    STORE_STEPS.try_with(|steps| steps.get()).unwrap_or(0)
}

//! Discord's failures a test makes: requests failed, refused, lost on the way back, slowed,
//! held back per process, and outages of every message-making request or of some routes.

use super::*;

impl FakeDiscord {
    /// The next request whose path contains `fragment` is answered with `status` and has no effect.
    pub fn fail_next(&self, fragment: &str, status: u16) {
        self.state
            .failures
            .lock()
            .unwrap()
            .push_back((fragment.to_string(), status));
    }

    /// For `length` of virtual time, every message-making request whose path contains
    /// `fragment` is refused with `status` and Discord's JSON error `code`, and has no effect
    /// (a channel refusing Bredon for hours with a code it may not know).
    pub fn refuse_for(&self, fragment: &str, status: u16, code: u64, length: Duration) {
        let until = self.state.now_ms() + length.as_millis() as i64;
        let refusal = (fragment.to_string(), status, code, until);
        self.state.long_refusals.lock().unwrap().push(refusal);
    }

    /// The next request whose path contains `fragment` is refused with `status` and Discord's
    /// JSON error `code`, and has no effect.
    pub fn refuse_next(&self, fragment: &str, status: u16, code: u64) {
        let refusal = (fragment.to_string(), status, code);
        self.state.refusals.lock().unwrap().push_back(refusal);
    }

    /// The next `count` messages carrying a link button are refused (400, 50035), as Discord
    /// refuses a link it will not take.
    pub fn refuse_links(&self, count: u64) {
        self.state.refused_links.store(count, Ordering::SeqCst);
    }

    /// The next request whose path contains `fragment` takes effect, but is answered with `status`,
    /// as when Discord's answer is lost on the way back. `fragment` may start with the method
    /// ("PATCH /webhooks/").
    pub fn lose_next_answer(&self, fragment: &str, status: u16) {
        self.state
            .lost_answers
            .lock()
            .unwrap()
            .push_back((fragment.to_string(), status));
    }

    /// For the next `length` of virtual time, every message-making request answers 503 and
    /// makes nothing.
    pub fn outage(&self, length: Duration) {
        let until = self.state.now_ms() + length.as_millis() as i64;
        self.state.outage_until_ms.store(until, Ordering::SeqCst);
    }

    /// How much virtual time the outage (`outage`) has left: none once it ended.
    pub fn outage_left(&self) -> Duration {
        let until = self.state.outage_until_ms.load(Ordering::SeqCst);
        Duration::from_millis(until.saturating_sub(self.state.now_ms()).max(0) as u64)
    }

    /// For `length` of virtual time, requests whose path holds `fragment` answer 503 and have no
    /// effect (an incident of one route).
    pub fn outage_of(&self, fragment: &str, length: Duration) {
        let until = self.state.now_ms() + length.as_millis() as i64;
        self.state
            .partial_outages
            .lock()
            .unwrap()
            .push((fragment.to_string(), until));
    }

    /// The REST base to give process `name`: its requests are told apart by it (`via`).
    pub fn api_base_for(&self, name: &str) -> String {
        format!("{}/p/{name}", self.api_base)
    }

    /// For the next `length` of wall time, process `name`'s POSTs whose path holds `fragment`
    /// are held back until the end, as its rate limiter would hold them after a long 429 (the
    /// 429 answered to that process only); a request it gives up meanwhile has no effect and
    /// is recorded with status 499.
    pub fn hold_back(&self, name: &str, fragment: &str, length: Duration) {
        let until = Instant::now() + length;
        let held = (name.to_string(), fragment.to_string(), until);
        self.state.held_back.lock().unwrap().push(held);
    }

    /// Process `name` (any, when `None`) is rate-limited for `length` of the shared clock from its
    /// next request whose path holds `fragment`: globally (every route but the interaction
    /// endpoints), or on that request's route (`LongLimit`).
    pub fn rate_limit_for(
        &self,
        name: Option<&str>,
        fragment: &str,
        length: Duration,
        global: bool,
    ) {
        self.state.long_limits.lock().unwrap().push(LongLimit {
            via: name.map(str::to_string),
            fragment: fragment.to_string(),
            length_ms: length.as_millis() as i64,
            global,
            running: None,
        });
    }

    /// The most invalid requests (401, 403, 429) answered in any `window` of the shared clock.
    pub fn most_invalid_in(&self, window: Duration) -> usize {
        let at = self.state.invalid_at.lock().unwrap().clone();
        let window = window.as_millis() as i64;
        let mut most = 0;
        for (i, &start) in at.iter().enumerate() {
            let within = at[i..].iter().take_while(|&&t| t < start + window).count();
            most = most.max(within);
        }
        most
    }

    /// How many requests are held back now (none given up or let go since).
    pub fn holding(&self) -> u64 {
        self.state.holding.load(Ordering::SeqCst)
    }

    /// Requests `method` whose path holds `fragment` take `delay` to take effect and be answered.
    pub fn slow_route(&self, method: &str, fragment: &str, delay: Duration) {
        self.state.slow_routes.lock().unwrap().push((
            method.to_string(),
            fragment.to_string(),
            delay,
        ));
    }

    /// For the next `length` of virtual time, every `every`-th message-making request makes its
    /// message but is answered 503.
    pub fn lossy(&self, length: Duration, every: u64) {
        let until = self.state.now_ms() + length.as_millis() as i64;
        *self.state.lossy.lock().unwrap() = Some((until, every, 0));
    }
}

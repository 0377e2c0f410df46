//! The waits of delivery that a test meets, each a setting read from the environment at start
//! (as `BREDON_IDENTIFY_SPACING_MS` is): production's values unless a test shortens them, so
//! no test waits for them on the wall clock. Operators have no reason to set them.

use std::time::Duration;

/// What a request's budget is kept short of a lease's end, for the clocks of processes sharing
/// a store (the lease is written on the making process's clock).
pub(super) const LEASE_MARGIN_MS: i64 = 5_000;

/// How long delivery waits for what it cannot hurry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waits {
    /// The longest a request may take once its letter's lease was renewed
    /// (`BREDON_REQUEST_BUDGET_MS`, 25 s): a request a rate limit holds back longer is given
    /// up while the lease still holds, so it can never reach Discord after another process
    /// took the letter over. Shorter than the HTTP client's own time-out, so a request Discord
    /// leaves unanswered is given up here too.
    pub request_budget: Duration,
    /// How long a process that Discord held back past a request's budget leaves the outbox's
    /// letters to other processes (`BREDON_HELD_BACK_MS`, 60 s, on the bot's clock).
    pub held_back_ms: i64,
    /// How often the outbox is looked at when nothing rings (`BREDON_OUTBOX_SWEEP_MS`, 1 s).
    pub outbox_sweep: Duration,
}

impl Waits {
    pub const PRODUCTION: Waits = Waits {
        request_budget: Duration::from_secs(25),
        held_back_ms: 60_000,
        outbox_sweep: Duration::from_secs(1),
    };

    /// Production's waits, with those the environment sets (`variable` reads one).
    pub fn from_env(variable: impl Fn(&str) -> Option<String>) -> Result<Waits, String> {
        let ms = |name: &str, production: u64| -> Result<u64, String> {
            match variable(name) {
                None => Ok(production),
                Some(text) => match text.trim().parse::<u64>() {
                    Ok(ms) if ms > 0 => Ok(ms),
                    _ => Err(format!(
                        "{name} `{text}`: write a number of milliseconds above 0 (only tests \
                         set it; leave it unset to keep {production} ms)"
                    )),
                },
            }
        };
        let p = Waits::PRODUCTION;
        let budget_ms = ms(
            "BREDON_REQUEST_BUDGET_MS",
            p.request_budget.as_millis() as u64,
        )?;
        // A request must end inside the lease it was renewed for, with its margin for clocks.
        let most_ms = (crate::service::LEASE_MS - LEASE_MARGIN_MS) as u64;
        if budget_ms >= most_ms {
            return Err(format!(
                "BREDON_REQUEST_BUDGET_MS `{budget_ms}`: a request must end inside its letter's \
                 lease; write less than {most_ms} ms"
            ));
        }
        Ok(Waits {
            request_budget: Duration::from_millis(budget_ms),
            held_back_ms: ms("BREDON_HELD_BACK_MS", p.held_back_ms as u64)? as i64,
            outbox_sweep: Duration::from_millis(ms(
                "BREDON_OUTBOX_SWEEP_MS",
                p.outbox_sweep.as_millis() as u64,
            )?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn production_waits_unless_a_variable_sets_one_and_a_bad_one_is_refused() {
        assert_eq!(Waits::from_env(|_| None), Ok(Waits::PRODUCTION));
        let set = |name: &str| (name == "BREDON_REQUEST_BUDGET_MS").then(|| "2000".to_string());
        let waits = Waits::from_env(set).unwrap();
        assert_eq!(waits.request_budget, Duration::from_secs(2));
        assert_eq!(waits.outbox_sweep, Waits::PRODUCTION.outbox_sweep);
        let long = |name: &str| (name == "BREDON_REQUEST_BUDGET_MS").then(|| "60000".to_string());
        let err = Waits::from_env(long).unwrap_err();
        assert!(err.contains("inside its letter's lease"), "{err}");
        for bad in ["0", "soon", "-5"] {
            let err =
                Waits::from_env(|name| (name == "BREDON_OUTBOX_SWEEP_MS").then(|| bad.to_string()))
                    .unwrap_err();
            assert!(
                err.contains("BREDON_OUTBOX_SWEEP_MS") && err.contains(bad),
                "{err}"
            );
        }
    }
}

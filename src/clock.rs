//! The time as Bredon counts it, in milliseconds since 1970: the machine's clock, as tests
//! move it. A bot under test reads the fake Discord's virtual clock from `BREDON_CLOCK_FILE` (a
//! file of milliseconds to add, read at every call; only tests ever set it), and a test that
//! serves the web pages in its own process pins the day they show (`Clock::starting_at`), so
//! nothing a test checks depends on the day the machine says it is.

/// A clock the web pages read: the bot's, or one a test started at a moment of its choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    shift_ms: i64,
}

impl Clock {
    /// The bot's clock: `now_ms`.
    pub const BOT: Clock = Clock { shift_ms: 0 };

    /// A clock that reads `at_ms` now and runs on from there at the machine's pace.
    pub fn starting_at(at_ms: i64) -> Clock {
        Clock {
            shift_ms: at_ms - now_ms(),
        }
    }

    pub fn now_ms(self) -> i64 {
        now_ms() + self.shift_ms
    }
}

/// The bot's clock: the machine's, plus the milliseconds in `BREDON_CLOCK_FILE` if it is set.
pub fn now_ms() -> i64 {
    wall_clock_ms() + clock_file_ms()
}

/// The machine's clock, never a test's virtual one: the time as Discord's gateway counts it.
pub fn wall_clock_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn clock_file_ms() -> i64 {
    static FILE: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    let Some(file) = FILE.get_or_init(|| std::env::var_os("BREDON_CLOCK_FILE").map(Into::into))
    else {
        return 0;
    };
    std::fs::read_to_string(file)
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_started_at_a_moment_reads_it_and_runs_on() {
        let day = 1_795_824_000_000; // 2026-11-28 00:00 UTC
        let clock = Clock::starting_at(day);
        let read = clock.now_ms();
        assert!((day..day + 60_000).contains(&read), "{read}");
        assert!(clock.now_ms() >= read, "it never runs back");
        assert!(Clock::BOT.now_ms().abs_diff(now_ms()) < 60_000);
    }
}

//! What every command shares: its failure (a message and an exit code), reading a file or
//! standard input, and the environment's places and times.

/// A command's failure: what to tell the user and the exit code.
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    pub code: u8,
}

impl Failure {
    pub fn new(code: u8, message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code,
        }
    }
}

/// The text of `file`, or of standard input for `-`.
pub fn read_input(file: &str) -> Result<String, Failure> {
    if file == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| Failure::new(1, format!("cannot read standard input: {e}")))?;
        Ok(s)
    } else {
        std::fs::read_to_string(file)
            .map_err(|e| Failure::new(1, format!("cannot read {file}: {e}")))
    }
}

/// `/analyze`'s (and local `analyze`'s) thinking time per position: `BREDON_ANALYSIS_MS`,
/// 1..5000, 250 when unset.
pub fn analysis_per_position() -> std::time::Duration {
    let ms = std::env::var("BREDON_ANALYSIS_MS")
        .ok()
        .and_then(|t| t.parse::<u64>().ok())
        .unwrap_or(250)
        .clamp(1, 5000);
    std::time::Duration::from_millis(ms)
}

/// PlayTak's API, for games named by their PlayTak number: `PLAYTAK_API_URL` (PlayTak's public
/// API when unset), given `PLAYTAK_TIMEOUT_MS` to answer (10 s when unset).
pub fn playtak_api() -> Result<crate::playtak::Api, Failure> {
    use crate::playtak::{Api, PUBLIC_API, TIMEOUT};
    let base = std::env::var("PLAYTAK_API_URL")
        .ok()
        .filter(|u| !u.trim().is_empty())
        .unwrap_or_else(|| PUBLIC_API.to_string());
    let timeout = match std::env::var("PLAYTAK_TIMEOUT_MS") {
        Err(_) => TIMEOUT,
        Ok(ms) => match ms.trim().parse::<u64>() {
            Ok(ms) if ms > 0 => std::time::Duration::from_millis(ms),
            _ => {
                return Err(Failure::new(
                    2,
                    format!("PLAYTAK_TIMEOUT_MS `{ms}` is not a number of milliseconds above 0"),
                ))
            }
        },
    };
    Api::new(&base, timeout).map_err(|e| Failure::new(2, e))
}

/// The database folder: `BREDON_DATA`, default `./data`.
pub fn data_dir() -> std::path::PathBuf {
    std::env::var_os("BREDON_DATA").map_or_else(|| "./data".into(), Into::into)
}

/// The shared PostgreSQL database, `BREDON_DATABASE_URL`, if set (it replaces `BREDON_DATA`).
pub fn database_url() -> Option<String> {
    std::env::var("BREDON_DATABASE_URL")
        .ok()
        .filter(|u| !u.trim().is_empty())
}

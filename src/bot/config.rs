//! How a process is started: which shards it runs, which typed messages it reads, and the rest
//! of `bredon run`'s configuration, parsed from the command line and the environment by `cli`.

use poise::serenity_prelude as serenity;
use std::path::PathBuf;
use std::time::Duration;

/// Which shards this process runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shards {
    /// As many as Discord recommends, all in this process.
    Auto,
    /// Shards `first..=last` of `total`.
    Range { first: u32, last: u32, total: u32 },
}

impl Shards {
    /// `--shards TOTAL --shard-range A..B` (B excluded) or `A..=B` (B included).
    pub fn parse(total: Option<u32>, range: Option<&str>) -> Result<Shards, String> {
        let Some(total) = total else {
            return match range {
                Some(_) => Err("--shard-range needs --shards TOTAL too".into()),
                None => Ok(Shards::Auto),
            };
        };
        if total == 0 {
            return Err("--shards must be at least 1".into());
        }
        let (first, last) = match range {
            None => (0, total - 1),
            Some(text) => {
                let bad = || {
                    format!("--shard-range `{text}`: write A..B (B not included) or A..=B, within 0..{total}")
                };
                let (a, b, inclusive) = match text.split_once("..=") {
                    Some((a, b)) => (a, b, true),
                    None => {
                        let (a, b) = text.split_once("..").ok_or_else(bad)?;
                        (a, b, false)
                    }
                };
                let a: u32 = a.trim().parse().map_err(|_| bad())?;
                let b: u32 = b.trim().parse().map_err(|_| bad())?;
                let last = if inclusive {
                    b
                } else {
                    b.checked_sub(1).ok_or_else(bad)?
                };
                if a > last || last >= total {
                    return Err(bad());
                }
                (a, last)
            }
        };
        Ok(Shards::Range { first, last, total })
    }

    /// Whether this process runs shard 0: the one that registers the commands, and the one
    /// Discord sends direct messages to.
    pub fn has_first(self) -> bool {
        match self {
            Shards::Auto => true,
            Shards::Range { first, .. } => first == 0,
        }
    }

    /// The servers this process's folder holds.
    pub(super) fn layout(self) -> crate::store::layout::Layout {
        match self {
            Shards::Auto => crate::store::layout::Layout::WHOLE,
            Shards::Range { first, last, total } => crate::store::layout::Layout {
                shards: total,
                first,
                last,
            },
        }
    }
}

/// Which typed messages this process reads as plies (`BREDON_TYPED_PLIES`), in the servers
/// that turned typed plies on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TypedPlies {
    /// None: Bredon asks Discord for no messages (the default).
    Off,
    /// Messages that mention Bredon (`@Bredon c3`): Discord shows Bredon their text without the
    /// privileged Message Content intent.
    Mention,
    /// Any message (`c3`): needs the Message Content intent, switched on in the Developer
    /// Portal (Bot, Privileged Gateway Intents).
    Plain,
}

impl TypedPlies {
    pub fn parse(text: &str) -> Result<TypedPlies, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "" | "off" | "no" => Ok(TypedPlies::Off),
            "mention" | "mentions" => Ok(TypedPlies::Mention),
            "plain" | "on" | "all" => Ok(TypedPlies::Plain),
            other => Err(format!(
                "BREDON_TYPED_PLIES `{other}`: write off (the default), mention (plies typed as \
                 `@Bredon c3`) or plain (any message; needs the Message Content intent)"
            )),
        }
    }

    /// The gateway intents this asks for beyond GUILDS.
    pub(super) fn intents(self) -> serenity::GatewayIntents {
        match self {
            TypedPlies::Off => serenity::GatewayIntents::empty(),
            TypedPlies::Mention => serenity::GatewayIntents::GUILD_MESSAGES,
            TypedPlies::Plain => {
                serenity::GatewayIntents::GUILD_MESSAGES | serenity::GatewayIntents::MESSAGE_CONTENT
            }
        }
    }
}

pub struct Config {
    pub token: String,
    /// Serve the web pages here beside the bot (`BREDON_WEB_ADDR`), over the same service.
    pub web_addr: Option<std::net::SocketAddr>,
    /// The pages' limit per address (`BREDON_WEB_RATE_LIMIT`; `None`: off).
    pub web_rate_limit: Option<crate::web::RateLimit>,
    /// The web pages' public address (`BREDON_WEB_URL`), for the links Bredon gives.
    pub web_url: Option<String>,
    /// Where REST calls go instead of Discord: a REST proxy that keeps the rate limits of every
    /// process (`DISCORD_PROXY_URL`), or the tests' fake Discord (`DISCORD_API_BASE`).
    pub api_base: Option<String>,
    /// Where the shards connect instead of the URL Discord gives (`BREDON_GATEWAY_URL`): a
    /// gateway proxy that keeps the sessions, so a restarted process does not identify again.
    pub gateway_url: Option<String>,
    /// Register commands in this server only (instant updates while developing).
    pub guild: Option<u64>,
    pub data: PathBuf,
    /// PostgreSQL instead of the `data` folder (`BREDON_DATABASE_URL`): one store for every
    /// process.
    pub database_url: Option<String>,
    pub shards: Shards,
    /// How often reminders and time-outs are checked.
    pub tick: Duration,
    /// An answer not ready after this long is deferred (Discord's deadline is 3 s).
    pub defer_after: Duration,
    /// How far apart the processes sharing the store take their turns at the gateway
    /// (`BREDON_IDENTIFY_SPACING_MS`, 6 s: Discord's 5 s window for one `max_concurrency`
    /// bucket and a second's margin; tests against a fake with a shorter window shorten it).
    pub identify_spacing: Duration,
    /// `/analyze`'s thinking time per position (`BREDON_ANALYSIS_MS`).
    pub analysis_per_position: Duration,
    /// PlayTak's API (`PLAYTAK_API_URL`, `PLAYTAK_TIMEOUT_MS`), for games named by number.
    pub playtak: crate::playtak::Api,
    pub typed_plies: TypedPlies,
    /// How long delivery waits for what it cannot hurry (tests shorten them).
    pub waits: super::delivery::waits::Waits,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_ranges_are_half_open_or_inclusive() {
        assert_eq!(Shards::parse(None, None), Ok(Shards::Auto));
        assert_eq!(
            Shards::parse(Some(4), None),
            Ok(Shards::Range {
                first: 0,
                last: 3,
                total: 4
            })
        );
        assert_eq!(
            Shards::parse(Some(4), Some("0..2")),
            Ok(Shards::Range {
                first: 0,
                last: 1,
                total: 4
            })
        );
        assert_eq!(
            Shards::parse(Some(4), Some("2..=3")),
            Ok(Shards::Range {
                first: 2,
                last: 3,
                total: 4
            })
        );
        for bad in ["3..2", "0..5", "a..b", "2", "1..1"] {
            assert!(Shards::parse(Some(4), Some(bad)).is_err(), "{bad}");
        }
        assert!(Shards::parse(None, Some("0..1")).is_err());
        assert!(Shards::parse(Some(0), None).is_err());
    }
}

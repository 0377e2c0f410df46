//! `bredon web`: the read-only web pages alone, over the store the bot uses; and the web's
//! environment (`BREDON_WEB_ADDR`, `BREDON_WEB_URL`, `BREDON_WEB_RATE_LIMIT`), which `bredon run`
//! reads too.

use super::ground::Failure;
use crate::service::Service;
use std::net::SocketAddr;
use std::sync::Arc;

/// Where `bredon web` serves when `BREDON_WEB_ADDR` is not set.
const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// `BREDON_WEB_ADDR`, if set: where the pages are served.
pub fn address() -> Result<Option<SocketAddr>, Failure> {
    match std::env::var("BREDON_WEB_ADDR") {
        Ok(text) if !text.trim().is_empty() => parse_address(&text).map(Some),
        _ => Ok(None),
    }
}

fn parse_address(text: &str) -> Result<SocketAddr, Failure> {
    text.trim().parse().map_err(|_| {
        Failure::new(
            2,
            format!(
                "BREDON_WEB_ADDR {}: write an address and a port, such as 127.0.0.1:8080",
                crate::tak::quote(text)
            ),
        )
    })
}

/// `BREDON_WEB_URL`, if set: the pages' public address, for the links Bredon gives. Discord
/// refuses a link button whose address is not http(s) (the whole message with it), so any other
/// is refused here, at the start.
pub fn public_url() -> Result<Option<String>, Failure> {
    match std::env::var("BREDON_WEB_URL") {
        Ok(text) if !text.trim().is_empty() => parse_public_url(&text).map(Some),
        _ => Ok(None),
    }
}

fn parse_public_url(text: &str) -> Result<String, Failure> {
    let trimmed = text.trim().trim_end_matches('/');
    let parsed = url::Url::parse(trimmed).ok();
    let web = parsed.filter(|u| matches!(u.scheme(), "http" | "https") && u.has_host());
    match web {
        Some(_) => Ok(trimmed.to_string()),
        None => Err(Failure::new(
            2,
            format!(
                "BREDON_WEB_URL {}: write the pages' public address with its scheme, such as \
                 https://tak.example.org (Discord refuses links that are not http or https)",
                crate::tak::quote(text)
            ),
        )),
    }
}

/// `BREDON_WEB_RATE_LIMIT`: `off`, or `BURST/MS` (that many requests from one address at once,
/// then one more every MS milliseconds); unset, `RateLimit::PAGES`. Behind a reverse proxy
/// every request comes from the proxy's address, so the proxy limits and this is `off`.
pub fn rate_limit() -> Result<Option<crate::web::RateLimit>, Failure> {
    match std::env::var("BREDON_WEB_RATE_LIMIT") {
        Ok(text) if !text.trim().is_empty() => parse_rate_limit(&text),
        _ => Ok(Some(crate::web::RateLimit::PAGES)),
    }
}

fn parse_rate_limit(text: &str) -> Result<Option<crate::web::RateLimit>, Failure> {
    if text.trim() == "off" {
        return Ok(None);
    }
    let parsed = text.trim().split_once('/').and_then(|(burst, ms)| {
        let (burst, ms) = (burst.trim().parse().ok()?, ms.trim().parse().ok()?);
        (burst > 0 && ms > 0).then(|| crate::web::RateLimit {
            burst,
            every: std::time::Duration::from_millis(ms),
        })
    });
    match parsed {
        Some(limit) => Ok(Some(limit)),
        None => Err(Failure::new(
            2,
            format!(
                "BREDON_WEB_RATE_LIMIT {}: write `off`, or a burst and milliseconds above zero \
                 such as 120/50 (120 requests at once, then one every 50 ms)",
                crate::tak::quote(text)
            ),
        )),
    }
}

/// Serves the pages of `store` (named `name` in messages) until the process is stopped.
pub fn run(store: crate::store::Store, name: String) -> Result<(), Failure> {
    let addr = match address()? {
        Some(addr) => addr,
        None => parse_address(DEFAULT_ADDR)?,
    };
    let limit = rate_limit()?;
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("RUST_LOG")
                .unwrap_or_else(|_| "bredon=info".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::new(1, format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| Failure::new(1, format!("cannot serve the web pages on {addr}: {e}")))?;
        println!("serving the web pages of {name} on http://{addr}");
        crate::web::serve_on(
            listener,
            Arc::new(Service::new(store)),
            limit,
            crate::clock::Clock::BOT,
        )
        .await
        .map_err(|e| Failure::new(1, e))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_public_address_is_an_http_or_https_url() {
        assert_eq!(
            parse_public_url(" https://tak.example/bredon/ ").unwrap(),
            "https://tak.example/bredon"
        );
        assert_eq!(
            parse_public_url("http://127.0.0.1:8080").unwrap(),
            "http://127.0.0.1:8080"
        );
        for bad in [
            "tak.example",
            "ftp://tak.example",
            "https://",
            "//tak.example",
            "discord://x",
        ] {
            let refused = parse_public_url(bad).unwrap_err();
            assert_eq!(refused.code, 2, "{bad}");
            assert!(refused.message.contains("BREDON_WEB_URL"), "{bad}");
        }
    }

    #[test]
    fn a_rate_limit_is_off_or_a_burst_and_a_period() {
        assert!(parse_rate_limit("off").unwrap().is_none());
        let limit = parse_rate_limit(" 300 / 10 ").unwrap().unwrap();
        assert_eq!((limit.burst, limit.every.as_millis()), (300, 10));
        for wrong in ["0/50", "120/0", "120", "many/50", "-1/50"] {
            let failure = parse_rate_limit(wrong).unwrap_err();
            assert!(
                failure.message.contains("such as 120/50"),
                "{wrong}: {}",
                failure.message
            );
            assert_eq!(failure.code, 2);
        }
    }
}

//! The pages' connections, bounded so that no client, however slow or however many its
//! connections, holds the process: a request's headers must arrive whole within
//! `HEADER_READ` (an idle kept-alive connection waits as long for its next request), and be
//! at most `MOST_HEADER_BYTES`; at most `PER_ADDRESS` connections from one address (unless a
//! reverse proxy stands in front: then every reader has its address) and a share of the
//! open-file limit in all (the bot beside the pages needs its own files and sockets).
//! A connection past a bound is closed at once, before anything is read from it.

use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tower::ServiceExt;

/// How long a request's headers may take to arrive, and a kept-alive connection may wait idle.
pub const HEADER_READ: Duration = Duration::from_secs(10);
/// The most a request's headers may weigh (a browser's are a few kilobytes): past it, 431.
const MOST_HEADER_BYTES: usize = 16 * 1024;
/// Connections from one address at once: a browser opens six, a household behind one
/// address a few browsers.
const PER_ADDRESS: usize = 32;
/// Live pages (event streams) one address may hold open at once (a reader with a few games
/// in tabs); past it, 429.
pub(super) const LIVE_PAGES_PER_ADDRESS: usize = 8;
/// Connections at once in all: a quarter of the process's open-file limit, within these.
const LEAST_IN_ALL: usize = 64;
const MOST_IN_ALL: usize = 4_096;

/// A count of what each address holds open, up to `most` each.
pub(super) struct PerAddress {
    open: Mutex<HashMap<IpAddr, usize>>,
    most: usize,
}

/// One place an address holds, given back when dropped.
pub(super) struct Place {
    counts: Arc<PerAddress>,
    address: IpAddr,
}

impl PerAddress {
    pub(super) fn new(most: usize) -> Arc<PerAddress> {
        Arc::new(PerAddress {
            open: Mutex::default(),
            most,
        })
    }

    /// A place for `address`, if it holds fewer than its most.
    pub(super) fn take(self: &Arc<Self>, address: IpAddr) -> Option<Place> {
        let mut open = self.open.lock().expect("places");
        let held = open.entry(address).or_default();
        if *held >= self.most {
            return None;
        }
        *held += 1;
        Some(Place {
            counts: Arc::clone(self),
            address,
        })
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut open = self.counts.open.lock().expect("places");
        if let Some(held) = open.get_mut(&self.address) {
            *held -= 1;
            if *held == 0 {
                open.remove(&self.address);
            }
        }
    }
}

/// How many connections the pages hold at once in all.
fn most_in_all() -> usize {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the limit into the struct it is given, nothing else.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
            let quarter = usize::try_from(limit.rlim_cur / 4).unwrap_or(MOST_IN_ALL);
            return quarter.clamp(LEAST_IN_ALL, MOST_IN_ALL);
        }
    }
    LEAST_IN_ALL * 4
}

/// Serves `router` on `listener` until the process ends, each connection within the bounds
/// (those of an address only if `per_address`: behind a reverse proxy every reader comes from
/// the proxy's address).
pub(super) async fn serve(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    per_address: bool,
    header_read: Duration,
) -> Result<(), String> {
    let in_all = Arc::new(tokio::sync::Semaphore::new(most_in_all()));
    let per_address = PerAddress::new(if per_address { PER_ADDRESS } else { usize::MAX });
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of files for a moment, or a connection reset before it was taken.
            Err(e) => {
                tracing::debug!(error = %e, "a connection to the pages was not taken");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(place_in_all) = Arc::clone(&in_all).try_acquire_owned() else {
            tracing::debug!(%peer, "the pages hold their most connections: one closed");
            continue;
        };
        let Some(place) = per_address.take(peer.ip()) else {
            tracing::debug!(%peer, "an address holds its most connections: one more closed");
            continue;
        };
        let router = router.clone();
        tokio::spawn(async move {
            let _places = (place_in_all, place);
            let pages = hyper::service::service_fn(move |mut request| {
                request
                    .extensions_mut()
                    .insert(ConnectInfo::<SocketAddr>(peer));
                router.clone().oneshot(request)
            });
            let served = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_read)
                .max_header_size(MOST_HEADER_BYTES)
                .serve_connection(TokioIo::new(stream), pages)
                .await;
            if let Err(e) = served {
                tracing::debug!(%peer, error = %e, "a connection to the pages ended");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_its_places_and_gets_them_back() {
        let counts = PerAddress::new(2);
        let (one, two): (IpAddr, IpAddr) =
            ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let first = counts.take(one).unwrap();
        let _second = counts.take(one).unwrap();
        assert!(counts.take(one).is_none(), "a third is refused");
        assert!(counts.take(two).is_some(), "another address is not");
        drop(first);
        assert!(
            counts.take(one).is_some(),
            "a place given back is taken again"
        );
    }

    #[test]
    fn the_pages_take_a_share_of_the_open_file_limit() {
        let most = most_in_all();
        assert!((LEAST_IN_ALL..=MOST_IN_ALL).contains(&most), "{most}");
    }
}

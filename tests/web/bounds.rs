//! The pages on the open internet: no client holds a connection by sending slowly or not at
//! all, nor the server by opening many, nor by heavy headers or many live pages.

use crate::http::get;
use crate::site::*;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The time the tests of that bound give a request's headers (production gives 10 s).
const HEADER_TIME: Duration = Duration::from_secs(1);

/// Long enough for `HEADER_TIME` to run out, and a margin for a busy machine.
const PAST_THE_HEADER_TIME: Duration = Duration::from_secs(10);

async fn connect(site: &Site) -> TcpStream {
    TcpStream::connect(site.base.trim_start_matches("http://"))
        .await
        .unwrap()
}

/// Whether the server closed `stream` within `within`, reading (and dropping) what it sends.
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 4096];
    let read_to_end = async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    tokio::time::timeout(within, read_to_end).await.is_ok()
}

/// A GET of `target` on `stream`, kept alive: the status of the answer's head, or `None` if the
/// server closed the connection first.
async fn head_status(stream: &mut TcpStream, target: &str) -> Option<u16> {
    let text = format!("GET {target} HTTP/1.1\r\nHost: pages\r\n\r\n");
    stream.write_all(text.as_bytes()).await.ok()?;
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte).await.ok()? != 1 {
            return None;
        }
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head);
    head.split_whitespace().nth(1)?.parse().ok()
}

/// `head_status` on a connection the server must answer.
async fn status_on(stream: &mut TcpStream, target: &str) -> u16 {
    head_status(stream, target)
        .await
        .expect("closed before a head")
}

/// `count` connections to `site`, each answered 200 for `target` and held open.
async fn held_open(site: &Site, target: &str, count: usize) -> Vec<TcpStream> {
    let mut held = Vec::new();
    for _ in 0..count {
        let mut stream = connect(site).await;
        assert_eq!(status_on(&mut stream, target).await, 200);
        held.push(stream);
    }
    held
}

/// The status of `target` on a new connection once one is neither closed at once nor refused
/// 429, tried for 5 s: a place given back is free only once the server sees its connection
/// close.
async fn status_once_a_place_is_free(site: &Site, target: &str) -> Option<u16> {
    for _ in 0..50 {
        let mut stream = connect(site).await;
        match head_status(&mut stream, target).await {
            Some(status) if status != 429 => return Some(status),
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    None
}

#[tokio::test(flavor = "multi_thread")]
async fn silent_slow_and_idle_connections_are_closed() {
    let site = Site::start_reading_headers_within(HEADER_TIME).await;
    let mut silent = connect(&site).await;
    let mut slow = connect(&site).await;
    let mut idle = connect(&site).await;
    assert_eq!(
        status_on(&mut idle, &format!("/s/{}", site.slug)).await,
        200
    );
    // A byte every tenth of the header time: the headers never end, though bytes keep coming.
    let dripping = tokio::spawn(async move {
        for byte in b"GET / HTTP/1.1\r\nHost: pages\r\nX-Slow: "
            .iter()
            .cycle()
            .take(60)
        {
            if slow.write_all(&[*byte]).await.is_err() {
                return true;
            }
            tokio::time::sleep(HEADER_TIME / 10).await;
        }
        closed_within(&mut slow, Duration::ZERO).await
    });
    assert!(
        closed_within(&mut silent, PAST_THE_HEADER_TIME).await,
        "silent"
    );
    assert!(
        closed_within(&mut idle, PAST_THE_HEADER_TIME).await,
        "idle after an answer"
    );
    assert!(dripping.await.unwrap(), "slow headers");
}

#[tokio::test(flavor = "multi_thread")]
async fn heavy_headers_are_refused() {
    let site = Site::start().await;
    let heavy = "x".repeat(200 * 1024);
    let answer = crate::http::request(
        &site.base,
        "GET",
        &format!("/s/{}", site.slug),
        &[("X-Heavy", &heavy)],
    )
    .await;
    assert_eq!(answer.status, 431);
    // The control: a browser's few kilobytes are read.
    let usual = "x".repeat(4 * 1024);
    let page = format!("/s/{}", site.slug);
    let answer = crate::http::request(&site.base, "GET", &page, &[("X-Usual", &usual)]).await;
    assert_eq!(answer.status, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn one_address_holds_at_most_thirty_two_connections() {
    let site = Site::start().await;
    let page = format!("/s/{}", site.slug);
    let mut held = held_open(&site, &page, 32).await;
    let mut one_more = connect(&site).await;
    assert!(
        closed_within(&mut one_more, Duration::from_secs(5)).await,
        "the 33rd is closed at once"
    );
    drop(held.pop());
    // The place given back is taken by the next connection.
    assert_eq!(status_once_a_place_is_free(&site, &page).await, Some(200));
    drop(held);
    // Behind a reverse proxy (no limit per address here) every reader has the proxy's address:
    // forty connections from it are all served.
    let proxied = Site::start_limited(None).await;
    held_open(&proxied, &format!("/s/{}", proxied.slug), 40).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn one_address_holds_at_most_eight_live_pages() {
    let site = Site::start().await;
    let events = format!("/s/{}/game/1/events", site.slug);
    let mut live = held_open(&site, &events, 8).await;
    let refused = tokio::time::timeout(Duration::from_secs(10), get(&site.base, &events))
        .await
        .expect("the ninth is answered, not streamed");
    assert_eq!(refused.status, 429);
    assert!(
        refused.text().contains("Too many live pages"),
        "{}",
        refused.text()
    );
    // A page that is closed gives its place back.
    drop(live.pop());
    assert_eq!(status_once_a_place_is_free(&site, &events).await, Some(200));
}

/// The time a request's headers may take is no limit on an answer: a live page open for
/// longer still gets the next ply.
#[tokio::test(flavor = "multi_thread")]
async fn a_live_page_outlasts_the_time_for_headers() {
    let site = Site::start_reading_headers_within(HEADER_TIME).await;
    let mut live = connect(&site).await;
    let events = format!("/s/{}/game/1/events?plies=6", site.slug);
    assert_eq!(status_on(&mut live, &events).await, 200);
    // The header time runs out on the server's own timer: only time passing can show it.
    tokio::time::sleep(HEADER_TIME * 2).await;
    site.service
        .play(&ctx(OPEN, 100 + OPEN, &user("alice")), "d3")
        .unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    let found = tokio::time::timeout(Duration::from_secs(10), async {
        while !String::from_utf8_lossy(&seen).contains("d3") {
            let n = live.read(&mut buf).await.unwrap();
            assert!(n > 0, "the live page was closed");
            seen.extend_from_slice(&buf[..n]);
        }
    })
    .await;
    assert!(found.is_ok(), "{}", String::from_utf8_lossy(&seen));
}

//! The pages on the open internet: no client holds a connection by sending slowly or not at
//! all, nor the server by opening many, nor by heavy headers or many live pages.

use crate::http::get;
use crate::site::*;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Long enough for the pages' 10 s to read a request's headers, and a margin.
const PAST_THE_HEADER_TIME: Duration = Duration::from_secs(30);

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

/// A GET of `target` on `stream`, kept alive: the status of the answer's head.
async fn status_on(stream: &mut TcpStream, target: &str) -> u16 {
    let text = format!("GET {target} HTTP/1.1\r\nHost: pages\r\n\r\n");
    stream.write_all(text.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        assert_eq!(
            stream.read(&mut byte).await.unwrap(),
            1,
            "closed before a head"
        );
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head);
    head.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn silent_slow_and_idle_connections_are_closed() {
    let site = Site::start().await;
    let mut silent = connect(&site).await;
    let mut slow = connect(&site).await;
    let mut idle = connect(&site).await;
    assert_eq!(
        status_on(&mut idle, &format!("/s/{}", site.slug)).await,
        200
    );
    // A byte a second: the headers never end, though bytes keep coming.
    let dripping = tokio::spawn(async move {
        for byte in b"GET / HTTP/1.1\r\nHost: pages\r\nX-Slow: "
            .iter()
            .cycle()
            .take(60)
        {
            if slow.write_all(&[*byte]).await.is_err() {
                return true;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
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
    let mut held = Vec::new();
    for _ in 0..32 {
        let mut stream = connect(&site).await;
        assert_eq!(status_on(&mut stream, &page).await, 200);
        held.push(stream);
    }
    let mut one_more = connect(&site).await;
    assert!(
        closed_within(&mut one_more, Duration::from_secs(5)).await,
        "the 33rd is closed at once"
    );
    drop(held.pop());
    // The place given back is taken by the next connection (closing is not instant).
    let mut again = None;
    for _ in 0..50 {
        let mut stream = connect(&site).await;
        let text = format!("GET {page} HTTP/1.1\r\nHost: pages\r\n\r\n");
        stream.write_all(text.as_bytes()).await.unwrap();
        let mut first = [0u8; 12];
        if stream.read_exact(&mut first).await.is_ok() {
            again = Some(String::from_utf8_lossy(&first).into_owned());
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(again.as_deref(), Some("HTTP/1.1 200"));
    drop(held);
    // Behind a reverse proxy (no limit per address here) every reader has the proxy's address:
    // forty connections from it are all served.
    let proxied = Site::start_limited(None).await;
    let page = format!("/s/{}", proxied.slug);
    let mut held = Vec::new();
    for _ in 0..40 {
        let mut stream = connect(&proxied).await;
        assert_eq!(status_on(&mut stream, &page).await, 200);
        held.push(stream);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn one_address_holds_at_most_eight_live_pages() {
    let site = Site::start().await;
    let events = format!("/s/{}/game/1/events", site.slug);
    let mut live = Vec::new();
    for _ in 0..8 {
        let mut stream = connect(&site).await;
        assert_eq!(status_on(&mut stream, &events).await, 200);
        live.push(stream);
    }
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
    let mut answered = 0;
    for _ in 0..50 {
        let mut stream = connect(&site).await;
        answered = status_on(&mut stream, &events).await;
        if answered == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(answered, 200);
}

/// The time a request's headers may take is no limit on an answer: a live page open for
/// longer still gets the next ply.
#[tokio::test(flavor = "multi_thread")]
async fn a_live_page_outlasts_the_time_for_headers() {
    let site = Site::start().await;
    let mut live = connect(&site).await;
    let events = format!("/s/{}/game/1/events?plies=6", site.slug);
    assert_eq!(status_on(&mut live, &events).await, 200);
    tokio::time::sleep(Duration::from_secs(12)).await;
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

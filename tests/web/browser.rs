//! The game page in headless Chromium, driven through chromedriver (started by the test on a
//! free port of 127.0.0.1): the board stepped by the keys, the slider, the buttons and the
//! move list, pictures that change with it, a hostile name read as text, and pages that fit
//! 400 px and 1280 px (screenshots written for a person to look at).

use crate::site::*;
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use std::path::PathBuf;
use std::time::Duration;

/// Chromium under chromedriver, ended with the test.
pub struct Browser {
    pub client: Client,
    driver: std::process::Child,
    /// Chromium's profile, in a folder of the test's (removed with it), not one chromedriver
    /// makes in the machine's temporary folder.
    _profile: tempfile::TempDir,
}

impl Drop for Browser {
    /// Closes the WebDriver session (chromedriver ends its Chromium), then ends chromedriver
    /// and any Chromium process left in its process group (a session a panicking test left
    /// half-way may not close; killing chromedriver alone would leave its browsers running).
    fn drop(&mut self) {
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let client = self.client.clone();
            let closing = tokio::time::timeout(Duration::from_secs(5), client.close());
            let _ = tokio::task::block_in_place(|| runtime.block_on(closing));
        }
        // SAFETY: kill(2) with a negative pid signals the process group chromedriver leads.
        unsafe {
            libc::kill(-(self.driver.id() as i32), libc::SIGKILL);
        }
        let _ = self.driver.wait();
    }
}

/// `program` on the PATH.
fn find(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
}

/// A headless Chromium, or `None` (said on the terminal; a failure under CI) without one.
pub async fn browser() -> Option<Browser> {
    let (Some(chromium), Some(chromedriver)) = (find("chromium"), find("chromedriver")) else {
        let tool = match find("chromium") {
            None => "chromium (Debian's `chromium`)",
            Some(_) => "chromedriver (Debian's `chromium-driver`)",
        };
        crate::support::postgres::skip(tool, "the web pages are tested in a real browser");
        return None;
    };
    // Port 0: chromedriver takes a free port itself and names it on its first lines. The
    // browser keeps the machine's own clock when the tests run under libfaketime (Chromium
    // hangs under it); what the pages show comes from the server, on the test's clock.
    let (driver, port) = started_driver(&chromedriver);
    let profile = tempfile::tempdir().expect("a folder for Chromium's profile");
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": chromium,
            "args": ["--headless", "--no-sandbox", "--disable-gpu",
                     "--disable-background-networking", "--no-first-run",
                     "--hide-scrollbars", "--force-device-scale-factor=1",
                     format!("--user-data-dir={}", profile.path().display())],
        }),
    );
    let url = format!("http://127.0.0.1:{port}");
    // chromedriver listens a moment after it starts: ask until it answers (10 s at most).
    for _ in 0..200 {
        let connected =
            ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&url)
                .await;
        match connected {
            Ok(client) => {
                return Some(Browser {
                    client,
                    driver,
                    _profile: profile,
                })
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
    panic!("chromedriver did not answer on {url}");
}

/// chromedriver on a port it picks itself, and that port. With tests starting browsers side by
/// side, the port it picked may be taken before it binds it ("IPv4 port not available.
/// Exiting..."): it is started again, three times at most.
fn started_driver(chromedriver: &std::path::Path) -> (std::process::Child, u16) {
    use std::os::unix::process::CommandExt;
    let mut said = Vec::new();
    for _ in 0..3 {
        let mut driver =
            crate::support::ends_with_the_test(&mut std::process::Command::new(chromedriver))
                .arg("--port=0")
                .process_group(0)
                .env_remove("LD_PRELOAD")
                .env_remove("FAKETIME")
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("chromedriver starts");
        match driver_port(driver.stdout.take().expect("chromedriver's output")) {
            Ok(port) => return (driver, port),
            Err(lines) => {
                let _ = driver.kill();
                let _ = driver.wait();
                said = lines;
            }
        }
    }
    panic!("chromedriver named no port in three starts: {said:?}");
}

/// The port chromedriver says it listens on ("... started successfully on port N."), or what
/// it said instead; the rest of its output is read and dropped on a thread of its own, so it
/// never blocks on a full pipe.
fn driver_port(output: std::process::ChildStdout) -> Result<u16, Vec<String>> {
    use std::io::BufRead;
    let mut lines = std::io::BufReader::new(output).lines();
    let mut said = Vec::new();
    let port = lines.by_ref().map_while(Result::ok).find_map(|line| {
        let port = line
            .split_once("started successfully on port ")
            .and_then(|(_, port)| port.trim_end_matches('.').parse().ok());
        said.push(line);
        port
    });
    let Some(port) = port else {
        return Err(said);
    };
    std::thread::spawn(move || lines.for_each(drop));
    Ok(port)
}

/// The board as the page draws it, once drawn: the ply it shows ("3", or "3 flipped" seen
/// from Black's side), and how it looks on the page.
async fn board(client: &Client) -> (String, Vec<u8>) {
    let drawn = "const s = document.getElementById('drawn'); \
                 return s && s.dataset.ply ? s.dataset.ply + (s.dataset.flip === '1' ? ' flipped' : '') : null;";
    // Until it is drawn: asked every 20 ms, 10 s at most.
    let mut shown = serde_json::Value::Null;
    for _ in 0..500 {
        shown = client.execute(drawn, vec![]).await.unwrap();
        if !shown.is_null() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let shot = client
        .find(Locator::Id("drawn"))
        .await
        .unwrap()
        .screenshot()
        .await
        .unwrap();
    (
        shown.as_str().expect("the board is drawn").to_string(),
        shot,
    )
}

/// The addresses the page asked for since it was loaded, beyond the page itself.
pub async fn requests(client: &Client) -> Vec<String> {
    let asked = "return performance.getEntriesByType('resource').map(e => e.name);";
    serde_json::from_value(client.execute(asked, vec![]).await.unwrap()).unwrap()
}

pub async fn press(client: &Client, key: Key) {
    client
        .find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys(&key.to_string())
        .await
        .unwrap();
}

/// Asserts the board now shows ply `ply` (its picture, the slider, the words), and that it
/// looks other than `before`.
async fn shows(client: &Client, ply: usize, before: &[u8]) -> Vec<u8> {
    let (shown, shot) = board(client).await;
    assert_eq!(shown, ply.to_string());
    let slider = client.find(Locator::Id("ply")).await.unwrap();
    assert_eq!(slider.prop("value").await.unwrap(), Some(ply.to_string()));
    let words = client
        .find(Locator::Id("plyno"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(words, format!("ply {ply} of 11"));
    assert_ne!(shot, before, "the board looks the same at ply {ply}");
    shot
}

pub fn screenshot_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// The page fits the window's width (nothing to scroll sideways).
pub async fn fits(client: &Client) -> bool {
    let script = "return document.documentElement.scrollWidth <= window.innerWidth;";
    client
        .execute(script, vec![])
        .await
        .unwrap()
        .as_bool()
        .unwrap()
}

/// Asserts the page fits `width` and writes its screenshot as `name`: the whole page, in a
/// window as high as it (2000 px at most), then the window 900 px high again.
pub async fn shot(c: &Client, width: u32, name: &str) {
    c.set_window_size(width, 900).await.unwrap();
    assert!(fits(c).await, "{name}: the page scrolls sideways");
    let boxed = "return [...document.querySelectorAll('.scroll')] \
                 .every(s => s.scrollWidth <= s.clientWidth);";
    let boxed = c.execute(boxed, vec![]).await.unwrap();
    assert_eq!(
        boxed,
        serde_json::json!(true),
        "{name}: a table scrolls sideways"
    );
    let high = c
        .execute("return document.documentElement.scrollHeight;", vec![])
        .await
        .unwrap();
    let high = high.as_u64().unwrap().clamp(900, 2000) as u32;
    // The window's height holds its frame too: what the page lacks of it is that frame.
    let inner = c.execute("return window.innerHeight;", vec![]).await;
    let frame = 900 - inner.unwrap().as_u64().unwrap() as u32;
    c.set_window_size(width, high + frame).await.unwrap();
    std::fs::write(screenshot_path(name), c.screenshot().await.unwrap()).unwrap();
    c.set_window_size(width, 900).await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_board_steps_with_the_keys_the_slider_the_buttons_and_the_moves() {
    let site = Site::start().await;
    let Some(browser) = browser().await else {
        return;
    };
    let c = &browser.client;
    c.set_window_size(1280, 900).await.unwrap();
    c.goto(&site.page("game/2")).await.unwrap();
    let (shown, end) = board(c).await;
    assert_eq!(shown, "11");
    let first_paint = requests(c).await;
    press(c, Key::Left).await;
    let ten = shows(c, 10, &end).await;
    press(c, Key::Home).await;
    let start = shows(c, 0, &ten).await;
    press(c, Key::Right).await;
    let one = shows(c, 1, &start).await;
    press(c, Key::End).await;
    let end = shows(c, 11, &one).await;
    // The slider: a click at its middle, then its own arrow keys.
    let slider = c.find(Locator::Id("ply")).await.unwrap();
    slider.click().await.unwrap();
    let middle: usize = slider
        .prop("value")
        .await
        .unwrap()
        .unwrap()
        .parse()
        .unwrap();
    assert!((4..=7).contains(&middle), "the middle of 0..11: {middle}");
    let at_middle = shows(c, middle, &end).await;
    slider.send_keys(&Key::Left.to_string()).await.unwrap();
    let before_middle = shows(c, middle - 1, &at_middle).await;
    // The buttons and the move list.
    c.find(Locator::Id("next"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let again = shows(c, middle, &before_middle).await;
    assert_eq!(again, at_middle, "one ply has one picture");
    c.find(Locator::Css("a[data-ply=\"3\"]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    shows(c, 3, &again).await;
    // The position beside the board follows it: the TPS of ply 3, as the server writes it.
    let tps = crate::http::get(&site.base, &format!("/s/{}/game/2/position/3", site.slug))
        .await
        .text();
    let follows = format!(
        "return document.getElementById('position').value === {};",
        serde_json::json!(tps)
    );
    until(c, &follows).await;
    // The Flip button turns the board to Black's side (kept in the address), and back.
    let (_, upright) = board(c).await;
    c.find(Locator::Id("flip"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let (shown, turned) = board(c).await;
    assert_eq!(shown, "3 flipped");
    assert_ne!(turned, upright, "the board turned");
    let url = c.current_url().await.unwrap();
    assert!(url.as_str().ends_with("?ply=3&flip=1"), "{url}");
    c.find(Locator::Id("flip"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(shows(c, 3, &turned).await, upright);
    let current = c.find(Locator::Css("a[aria-current]")).await.unwrap();
    assert_eq!(
        current.attr("data-ply").await.unwrap().as_deref(),
        Some("3")
    );
    assert!(c
        .current_url()
        .await
        .unwrap()
        .as_str()
        .ends_with("/game/2?ply=3"));
    // Every step was drawn in the page: nothing was asked of the server since the first paint.
    assert_eq!(requests(c).await, first_paint);
    // Copy PTN asks for the record up to the shown ply, and copies it.
    c.find(Locator::Id("copy-ptn"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until(
        c,
        "return document.getElementById('copy-ptn').textContent !== 'Copy PTN';",
    )
    .await;
    let said = c
        .execute(
            "return document.getElementById('copy-ptn').textContent;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(said, "Copied PTN");
    let asked = requests(c).await;
    assert!(
        asked.last().unwrap().ends_with("/game/2/ptn/3"),
        "{asked:?}"
    );
    shot(c, 1280, "web-game-1280.png").await;
    shot(c, 400, "web-game-400.png").await;
    c.goto(&site.page("")).await.unwrap();
    shot(c, 400, "web-server-400.png").await;
    shot(c, 1280, "web-server-1280.png").await;
    eprintln!("screenshots in {}", screenshot_path("").display());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hostile_name_reads_as_text_in_the_browser() {
    let site = Site::start().await;
    let Some(browser) = browser().await else {
        return;
    };
    let c = &browser.client;
    c.goto(&site.page("game/3")).await.unwrap();
    let heading = c
        .find(Locator::Css("h1"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(heading, format!("Game #3: {HOSTILE} vs carol"));
    assert!(
        c.get_alert_text().await.is_err(),
        "a script of the name ran"
    );
    let bold = c
        .find_all(Locator::Css("main strong, main b, main em, main script"))
        .await
        .unwrap();
    assert!(
        bold.is_empty(),
        "markup or markdown from a name became elements"
    );
    c.goto(&site.page("")).await.unwrap();
    let live = c
        .find(Locator::Css("tbody"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(live.contains(HOSTILE), "{live}");
    assert!(c.get_alert_text().await.is_err());
}

/// Runs `script` every 50 ms until it returns true (10 s at most).
pub async fn until(client: &Client, script: &str) {
    for _ in 0..200 {
        if client.execute(script, vec![]).await.unwrap() == serde_json::json!(true) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("never true: {script}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_new_ply_appears_on_the_open_page_without_a_reload() {
    let site = Site::start().await;
    let Some(browser) = browser().await else {
        return;
    };
    let c = &browser.client;
    c.goto(&site.page("game/1")).await.unwrap();
    assert_eq!(board(c).await.0, "6");
    c.execute("window.stillThisPage = true;", vec![])
        .await
        .unwrap();
    let channel = 100 + OPEN;
    site.service
        .play(&ctx(OPEN, channel, &user("alice")), "d3")
        .unwrap();
    until(c, "return document.getElementById('ply').max === '7';").await;
    assert_eq!(board(c).await.0, "7", "the page was at the end");
    // The event brought the new position too: drawn and written out without a request.
    let tps = crate::http::get(&site.base, &format!("/s/{}/game/1/position/7", site.slug))
        .await
        .text();
    let written = "return document.getElementById('position').value;";
    assert_eq!(c.execute(written, vec![]).await.unwrap(), tps);
    let newest = c.find(Locator::Css("a[data-ply=\"7\"]")).await.unwrap();
    assert_eq!(newest.text().await.unwrap(), "d3");
    assert_eq!(
        newest.attr("aria-current").await.unwrap().as_deref(),
        Some("step")
    );
    let status = c.find(Locator::Id("status")).await.unwrap();
    let status = status
        .text()
        .await
        .unwrap()
        .replace(['\u{2068}', '\u{2069}'], "");
    assert!(status.starts_with("bob to move, since "), "{status}");
    // Its time, like every time on the page, in the reader's own manner, UTC in its title.
    let times = "return [...document.querySelectorAll('time')] \
                 .map(t => [t.textContent, t.title]);";
    let times: Vec<(String, String)> =
        serde_json::from_value(c.execute(times, vec![]).await.unwrap()).unwrap();
    assert!(times.len() >= 2, "{times:?}");
    for (shown, utc) in &times {
        assert!(utc.ends_with(" UTC") && utc.len() == 20, "{times:?}");
        assert_ne!(shown, utc, "{times:?}");
    }
    // A reader looking back stays where they are when the next ply comes.
    press(c, Key::Home).await;
    site.service
        .play(&ctx(OPEN, channel, &user("bob")), "d5")
        .unwrap();
    until(c, "return document.getElementById('ply').max === '8';").await;
    assert_eq!(board(c).await.0, "0");
    site.service
        .resign(&ctx(OPEN, channel, &user("alice")))
        .unwrap();
    until(
        c,
        "return document.getElementById('status').textContent.startsWith('0-1 ');",
    )
    .await;
    let reloaded = c
        .execute("return window.stillThisPage === true;", vec![])
        .await;
    assert_eq!(
        reloaded.unwrap(),
        serde_json::json!(true),
        "the page was reloaded"
    );
}

//! PlayTak's public API: a finished game fetched by its number, and its plies read from
//! PlayTak's own notation into PTN.
//!
//! `GET {PLAYTAK_API_URL}/v1/games-history/{id}` answers with the game as PlayTak's server
//! stores it (USTakAssociation/playtak-api, `games-history`): the board (`size`, `komi` in half
//! flats, `pieces` and `capstones`, -1 for the size's usual reserve, `opening`), the players,
//! the `result` (`0-0` while the game is still played, or when it was aborted), and its plies as
//! the server's protocol writes them, comma separated: `P A1` (a flat), `P A1 W` (a wall), `P A1
//! C` (a capstone), `M A2 A4 1 2` (a spread from a2 to a4 dropping 1, then 2). That is the record
//! read here; PlayTak's `ptn/{id}` endpoint writes the same plies as PTN. An unknown number is a
//! 404 (as documented), or an empty answer (as the server answers it).

use serde::Deserialize;
use std::fmt;
use std::time::Duration;

/// PlayTak's public API, used unless `PLAYTAK_API_URL` names another.
pub const PUBLIC_API: &str = "https://api.playtak.com";

/// How long PlayTak is given to answer, unless `PLAYTAK_TIMEOUT_MS` says otherwise.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// A game's answer is a few kilobytes: a longer one is not a game.
const MOST_BYTES: usize = 1 << 20;

/// PlayTak's games before this moment (2016-04-23) are anonymous: PlayTak's own PTN names
/// their players "Anon", and so does Bredon.
const NAMED_SINCE_MS: i64 = 1_461_430_800_000;

/// Why a PlayTak game could not be read. Each says what happened and what to do, as players
/// are told it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayTakError {
    /// No connection, or it broke before the answer.
    Unreachable {
        reason: String,
    },
    TimedOut {
        after: Duration,
    },
    NotFound {
        id: u64,
    },
    /// The game has no result yet: it is being played, or was aborted.
    NotFinished {
        id: u64,
    },
    /// PlayTak refuses requests for a while (429).
    Busy,
    /// Any other error status.
    Failed {
        status: u16,
    },
    /// The answer is not a game, or a game Bredon cannot read.
    Malformed {
        id: u64,
        reason: String,
    },
    /// An opening Bredon does not play (PlayTak's "double black stack").
    Opening {
        id: u64,
        opening: String,
    },
}

impl fmt::Display for PlayTakError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PlayTakError::Unreachable { reason } => {
                write!(f, "PlayTak cannot be reached ({reason}); try again later")
            }
            PlayTakError::TimedOut { after } => write!(
                f,
                "PlayTak did not answer within {} s; try again later",
                after.as_secs_f64()
            ),
            PlayTakError::NotFound { id } => write!(
                f,
                "PlayTak has no game #{id}: check the number (playtak.com shows it with each game)"
            ),
            PlayTakError::NotFinished { id } => write!(
                f,
                "PlayTak game #{id} has no result: it is still being played, or it was aborted; \
                 a game can be read once it has finished"
            ),
            PlayTakError::Busy => write!(
                f,
                "PlayTak asks for fewer requests for now (too many); try again in a minute"
            ),
            PlayTakError::Failed { status } => {
                write!(
                    f,
                    "PlayTak answered with an error (HTTP {status}); try again later"
                )
            }
            PlayTakError::Malformed { id, reason } => {
                write!(f, "PlayTak's answer for game #{id} is not a game record Bredon can read ({reason})")
            }
            PlayTakError::Opening { id, opening } => write!(
                f,
                "PlayTak game #{id} was played with the \"{opening}\" opening, which Bredon does \
                 not play: it reads games where each player's first ply places the other's flat"
            ),
        }
    }
}

impl std::error::Error for PlayTakError {}

/// Where PlayTak's API is and how long it is given; the HTTP client kept for every request.
#[derive(Clone, Debug)]
pub struct Api {
    base: String,
    timeout: Duration,
    http: reqwest::Client,
}

impl Api {
    /// The API at `base` (an `http://` or `https://` address, without `/v1`).
    pub fn new(base: &str, timeout: Duration) -> Result<Api, String> {
        let base = base.trim().trim_end_matches('/');
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(format!(
                "PLAYTAK_API_URL `{base}` is not an http:// or https:// address"
            ));
        }
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .build()
            .map_err(|e| format!("cannot make PlayTak's HTTP client: {e}"))?;
        Ok(Api {
            base: base.to_string(),
            timeout,
            http,
        })
    }

    /// PlayTak game `id` as PTN, if it has finished.
    pub async fn ptn(&self, id: u64) -> Result<String, PlayTakError> {
        let url = format!("{}/v1/games-history/{id}", self.base);
        let failed = |e: reqwest::Error| match e.is_timeout() {
            true => PlayTakError::TimedOut {
                after: self.timeout,
            },
            false => PlayTakError::Unreachable {
                reason: root_cause(&e),
            },
        };
        let mut response = self
            .http
            .get(&url)
            .header("accept", "application/json")
            .send()
            .await
            .map_err(failed)?;
        let status = response.status().as_u16();
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(failed)? {
            body.extend_from_slice(&chunk);
            if body.len() > MOST_BYTES {
                return Err(PlayTakError::Malformed {
                    id,
                    reason: format!("an answer of over {MOST_BYTES} bytes"),
                });
            }
        }
        read_answer(id, status, &body)?.to_ptn(id)
    }
}

/// The innermost reason of a failed request ("Connection refused (os error 111)").
fn root_cause(e: &reqwest::Error) -> String {
    let mut cause: &dyn std::error::Error = e;
    while let Some(inner) = cause.source() {
        cause = inner;
    }
    cause.to_string()
}

/// A game as PlayTak's API describes it (the fields Bredon reads).
#[derive(Clone, Debug, Deserialize)]
struct Game {
    #[serde(default)]
    date: i64,
    size: usize,
    player_white: String,
    player_black: String,
    notation: String,
    result: String,
    #[serde(default)]
    komi: i32,
    #[serde(default = "usual_reserve")]
    pieces: i32,
    #[serde(default = "usual_reserve")]
    capstones: i32,
    #[serde(default)]
    opening: Option<String>,
}

/// PlayTak's mark for "the size's usual number".
fn usual_reserve() -> i32 {
    -1
}

/// What PlayTak's answer (`status`, `body`) says about game `id`.
fn read_answer(id: u64, status: u16, body: &[u8]) -> Result<Game, PlayTakError> {
    match status {
        404 => return Err(PlayTakError::NotFound { id }),
        429 => return Err(PlayTakError::Busy),
        200..=299 => {}
        status => return Err(PlayTakError::Failed { status }),
    }
    let text = String::from_utf8_lossy(body);
    // PlayTak's server answers an unknown number with nothing (a null), not with a 404.
    if matches!(text.trim(), "" | "null") {
        return Err(PlayTakError::NotFound { id });
    }
    serde_json::from_str(&text).map_err(|e| PlayTakError::Malformed {
        id,
        reason: e.to_string(),
    })
}

/// The results PTN writes, as PlayTak stores them.
const RESULTS: [&str; 7] = ["R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2"];

impl Game {
    /// The game as PTN: its tags, its plies, its result.
    fn to_ptn(&self, id: u64) -> Result<String, PlayTakError> {
        let malformed = |reason: String| PlayTakError::Malformed { id, reason };
        if self.result == "0-0" {
            return Err(PlayTakError::NotFinished { id });
        }
        if !RESULTS.contains(&self.result.as_str()) {
            return Err(malformed(format!("the result {:?}", self.result)));
        }
        match self.opening.as_deref() {
            None | Some("swap") => {}
            Some(other) => {
                return Err(PlayTakError::Opening {
                    id,
                    opening: other.to_string(),
                })
            }
        }
        let plies = self
            .notation
            .split(',')
            .filter(|ply| !ply.trim().is_empty())
            .map(|ply| ptn_ply(ply).ok_or_else(|| malformed(format!("the ply {ply:?}"))))
            .collect::<Result<Vec<_>, _>>()?;
        let names = match self.date < NAMED_SINCE_MS {
            true => ["Anon", "Anon"],
            false => [self.player_white.as_str(), self.player_black.as_str()],
        };
        let mut tags = vec![
            ("Site", "PlayTak.com".to_string()),
            ("Event", format!("PlayTak game #{id}")),
            ("Date", ptn_date(self.date)),
            ("Player1", names[0].to_string()),
            ("Player2", names[1].to_string()),
            ("Size", self.size.to_string()),
            ("Komi", (f64::from(self.komi) / 2.0).to_string()),
        ];
        if self.pieces >= 0 {
            tags.push(("Flats", self.pieces.to_string()));
        }
        if self.capstones >= 0 {
            tags.push(("Caps", self.capstones.to_string()));
        }
        tags.push(("Result", self.result.clone()));
        let mut ptn: String = tags
            .iter()
            .map(|(name, value)| format!("[{name} \"{}\"]\n", ptn_tag_value(value)))
            .collect();
        ptn.push('\n');
        for (number, pair) in plies.chunks(2).enumerate() {
            ptn.push_str(&format!("{}. {}\n", number + 1, pair.join(" ")));
        }
        ptn.push_str(&self.result);
        ptn.push('\n');
        Ok(ptn)
    }
}

/// A tag's value with PTN's quote and backslash escaped (players name themselves).
fn ptn_tag_value(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One ply of PlayTak's notation as PTN: `P A1 C` is `Ca1`, `M A2 A4 1 2` is `3a2+12`. `None`
/// for anything else. Whether the ply is legal is for the PTN reader to say.
fn ptn_ply(ply: &str) -> Option<String> {
    let words: Vec<&str> = ply.split_whitespace().collect();
    match words.as_slice() {
        ["P", at] => square(at).map(|(file, rank)| format!("{file}{rank}")),
        ["P", at, "W"] => square(at).map(|(file, rank)| format!("S{file}{rank}")),
        ["P", at, "C"] => square(at).map(|(file, rank)| format!("C{file}{rank}")),
        ["M", from, to, drops @ ..] => spread(from, to, drops),
        _ => None,
    }
}

/// `A1` as (`a`, 1): a file `A`..`H` and a rank 1..8.
fn square(text: &str) -> Option<(char, u8)> {
    let mut chars = text.chars();
    let (file, rank, None) = (chars.next()?, chars.next()?, chars.next()) else {
        return None;
    };
    let file = file.to_ascii_lowercase();
    let rank = rank.to_digit(10)? as u8;
    (('a'..='h').contains(&file) && (1..=8).contains(&rank)).then_some((file, rank))
}

/// A spread from `from` to `to` in a straight line, one drop per square passed.
fn spread(from: &str, to: &str, drops: &[&str]) -> Option<String> {
    let (from_file, from_rank) = square(from)?;
    let (to_file, to_rank) = square(to)?;
    let (direction, distance) = match (from_file == to_file, from_rank == to_rank) {
        (true, false) if to_rank > from_rank => ('+', to_rank - from_rank),
        (true, false) => ('-', from_rank - to_rank),
        (false, true) if to_file > from_file => ('>', to_file as u8 - from_file as u8),
        (false, true) => ('<', from_file as u8 - to_file as u8),
        _ => return None,
    };
    let drops: Vec<u8> = drops
        .iter()
        .map(|d| d.parse().ok().filter(|n| (1..=8).contains(n)))
        .collect::<Option<_>>()?;
    let carried: u8 = drops.iter().sum();
    if drops.len() != usize::from(distance) || carried > 8 {
        return None;
    }
    let count = match carried {
        1 => String::new(),
        n => n.to_string(),
    };
    let drops: String = match drops.len() {
        1 => String::new(),
        _ => drops.iter().map(u8::to_string).collect(),
    };
    Some(format!("{count}{from_file}{from_rank}{direction}{drops}"))
}

/// The UTC date of `ms` milliseconds since 1970 as PTN writes it (`2016.04.23`): the civil
/// date of a day count (H. Hinnant's `civil_from_days`).
fn ptn_date(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000) + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tak::PtnFile;

    fn game(notation: &str, result: &str) -> Game {
        Game {
            date: 1_700_000_000_000,
            size: 5,
            player_white: "ann".into(),
            player_black: "ben".into(),
            notation: notation.into(),
            result: result.into(),
            komi: 0,
            pieces: -1,
            capstones: -1,
            opening: Some("swap".into()),
        }
    }

    #[test]
    fn placements_walls_capstones_and_spreads_read_as_ptn() {
        assert_eq!(ptn_ply("P A1").as_deref(), Some("a1"));
        assert_eq!(ptn_ply("P e5 W").as_deref(), Some("Se5"));
        assert_eq!(ptn_ply("P C3 C").as_deref(), Some("Cc3"));
        assert_eq!(ptn_ply("M A2 A3 1").as_deref(), Some("a2+"));
        assert_eq!(ptn_ply("M A2 A3 3").as_deref(), Some("3a2+"));
        assert_eq!(ptn_ply("M A2 A4 1 2").as_deref(), Some("3a2+12"));
        assert_eq!(ptn_ply("M C3 C1 2 1").as_deref(), Some("3c3-21"));
        assert_eq!(ptn_ply("M B2 E2 1 1 1").as_deref(), Some("3b2>111"));
        assert_eq!(ptn_ply("M D4 A4 1 1 1").as_deref(), Some("3d4<111"));
    }

    #[test]
    fn plies_that_are_not_playtaks_notation_are_refused() {
        for bad in [
            "",
            "a1",
            "P",
            "P I1",
            "P A9",
            "P A10",
            "P A1 X",
            "M A1 B2 1",
            "M A1 A1",
            "M A1 A3 1",
            "M A1 A2 0",
            "M A1 A2 x",
            "M A1 A3 5 4",
            "Q A1",
        ] {
            assert_eq!(ptn_ply(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_finished_game_becomes_ptn_that_replays() {
        // Black places White's first flat on a1; White's road along rank 1 is done by e1.
        let mut g = game(
            "P E5,P A1,P B1,P E4 W,P C1,M E4 E3 1,P D1 C,P A5,P E1",
            "R-0",
        );
        g.komi = 3;
        let ptn = g.to_ptn(123).unwrap();
        assert!(ptn.contains("[Event \"PlayTak game #123\"]"), "{ptn}");
        assert!(ptn.contains("[Date \"2023.11.14\"]"), "{ptn}");
        assert!(ptn.contains("[Komi \"1.5\"]"), "{ptn}");
        assert!(!ptn.contains("[Flats"), "the usual reserve: {ptn}");
        assert!(
            ptn.contains("1. e5 a1\n2. b1 Se4\n3. c1 e4-\n4. Cd1 a5\n5. e1\nR-0"),
            "{ptn}"
        );
        let file = PtnFile::parse(&ptn).unwrap();
        assert_eq!(file.tag("Player1"), Some("ann"));
        let replayed = file.replay().unwrap();
        assert_eq!(replayed.plies().len(), 9);
        assert_eq!(replayed.result().map(|r| r.ptn()), Some("R-0"));
    }

    #[test]
    fn reserves_names_and_dates_follow_playtaks_own_ptn() {
        let mut g = game("P A1,P E5", "0-1");
        g.pieces = 12;
        g.capstones = 0;
        g.date = NAMED_SINCE_MS - 1;
        g.player_white = "say \"hi\"".into();
        let ptn = g.to_ptn(7).unwrap();
        assert!(ptn.contains("[Flats \"12\"]\n[Caps \"0\"]"), "{ptn}");
        assert!(ptn.contains("[Player1 \"Anon\"]"), "{ptn}");
        assert!(ptn.contains("[Date \"2016.04.23\"]"), "{ptn}");
        g.date = NAMED_SINCE_MS;
        let ptn = g.to_ptn(7).unwrap();
        assert!(ptn.contains(r#"[Player1 "say \"hi\""]"#), "{ptn}");
        assert_eq!(
            PtnFile::parse(&ptn).unwrap().tag("Player1"),
            Some("say \"hi\"")
        );
    }

    #[test]
    fn dates_are_utc_days() {
        assert_eq!(ptn_date(0), "1970.01.01");
        assert_eq!(ptn_date(951_782_400_000), "2000.02.29");
        assert_eq!(ptn_date(951_868_799_999), "2000.02.29");
        assert_eq!(ptn_date(1_704_067_199_999), "2023.12.31");
        assert_eq!(ptn_date(-1), "1969.12.31");
    }

    #[test]
    fn an_unfinished_or_unreadable_game_says_why() {
        assert_eq!(
            game("", "0-0").to_ptn(9),
            Err(PlayTakError::NotFinished { id: 9 })
        );
        let bad_result = game("P A1", "2-0").to_ptn(9).unwrap_err();
        assert!(
            bad_result.to_string().contains("the result \"2-0\""),
            "{bad_result}"
        );
        let bad_ply = game("P A1,M A1 B2 1", "1-0").to_ptn(9).unwrap_err();
        assert!(
            bad_ply.to_string().contains("the ply \"M A1 B2 1\""),
            "{bad_ply}"
        );
        let mut stack = game("P A1,P E5", "1-0");
        stack.opening = Some("double black stack".into());
        let refused = stack.to_ptn(9).unwrap_err().to_string();
        assert!(
            refused.contains("\"double black stack\" opening"),
            "{refused}"
        );
    }

    #[test]
    fn answers_are_told_apart_by_status_and_body() {
        let body = br#"{"id":5,"date":1700000000000,"size":3,"player_white":"a","player_black":"b","notation":"P A1","result":"1-0","komi":0,"pieces":-1,"capstones":-1}"#;
        assert_eq!(read_answer(5, 200, body).unwrap().notation, "P A1");
        let documented = br#"{"statusCode":404,"message":"Not Found","error":"Not Found"}"#;
        assert_eq!(
            read_answer(5, 404, documented).unwrap_err(),
            PlayTakError::NotFound { id: 5 }
        );
        for nothing in [&b""[..], b"null", b" \n"] {
            assert_eq!(
                read_answer(5, 200, nothing).unwrap_err(),
                PlayTakError::NotFound { id: 5 }
            );
        }
        assert_eq!(read_answer(5, 429, b"").unwrap_err(), PlayTakError::Busy);
        assert_eq!(
            read_answer(5, 502, b"<html>").unwrap_err(),
            PlayTakError::Failed { status: 502 }
        );
        let html = read_answer(5, 200, b"<html>maintenance</html>").unwrap_err();
        assert!(
            matches!(html, PlayTakError::Malformed { id: 5, .. }),
            "{html:?}"
        );
        let partial = read_answer(5, 200, br#"{"size":5}"#).unwrap_err();
        assert!(partial.to_string().contains("missing field"), "{partial}");
    }

    #[test]
    fn the_address_must_be_http() {
        assert!(Api::new("ftp://example.org", TIMEOUT).is_err());
        let api = Api::new("http://127.0.0.1:9/ ", TIMEOUT).unwrap();
        assert_eq!(api.base, "http://127.0.0.1:9");
    }
}

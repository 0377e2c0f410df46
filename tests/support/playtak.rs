//! A stand-in for PlayTak's public API on 127.0.0.1, so no test touches the network:
//! `GET /v1/games-history/{id}` answered in the shape PlayTak's API documents (the game as
//! JSON, with its plies in PlayTak's server notation; 404 for a number it does not know), and
//! the ways it can go wrong that a test asks for: a slow answer, a body that is not a game, and
//! answers held until the test lets them go. Plain threads and `std::net`: one request per
//! connection, as `Connection: close` says.

use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// What the fake answers for one game number.
#[derive(Clone)]
pub enum Answer {
    /// 200 with this game (see [`game`]).
    Game(Value),
    /// 200 with this body, which is not a game.
    Body(&'static str),
    /// This answer, after this long.
    Slow(Duration, Box<Answer>),
}

#[derive(Default)]
struct State {
    answers: HashMap<u64, Answer>,
    /// The paths asked for, in order.
    asked: Vec<String>,
    /// Whether answers wait for `release`.
    holding: bool,
}

pub struct FakePlayTak {
    /// The API's address, for `PLAYTAK_API_URL`.
    pub url: String,
    state: Arc<(Mutex<State>, Condvar)>,
}

impl FakePlayTak {
    pub fn start() -> FakePlayTak {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let state: Arc<(Mutex<State>, Condvar)> = Arc::default();
        let shared = Arc::clone(&state);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let state = Arc::clone(&shared);
                std::thread::spawn(move || serve(stream, &state));
            }
        });
        FakePlayTak { url, state }
    }

    pub fn answer(&self, id: u64, answer: Answer) {
        self.state.0.lock().unwrap().answers.insert(id, answer);
    }

    /// The paths asked for so far.
    pub fn asked(&self) -> Vec<String> {
        self.state.0.lock().unwrap().asked.clone()
    }

    /// Answers wait from now until `release`.
    pub fn hold(&self) {
        self.state.0.lock().unwrap().holding = true;
    }

    pub fn release(&self) {
        self.state.0.lock().unwrap().holding = false;
        self.state.1.notify_all();
    }
}

/// A finished game as PlayTak's API describes one: `notation` in PlayTak's server notation
/// (`P A1`, `P A1 W`, `P A1 C`, `M A2 A4 1 2`, comma separated), `result` as PTN writes it
/// (`0-0` for a game with none yet).
pub fn game(size: u8, white: &str, black: &str, notation: &str, result: &str) -> Value {
    json!({
        "id": 0,
        "date": 1_700_000_000_000_i64,
        "size": size,
        "player_white": white,
        "player_black": black,
        "notation": notation,
        "result": result,
        "timertime": 600,
        "timerinc": 10,
        "rating_white": 1500,
        "rating_black": 1480,
        "unrated": 0,
        "tournament": 0,
        "komi": 0,
        "pieces": -1,
        "capstones": -1,
        "rating_change_white": 0,
        "rating_change_black": 0,
        "extra_time_amount": 0,
        "extra_time_trigger": 0,
        "increment_scales": 0,
        "opening": "swap",
    })
}

/// A 5x5 game White wins by a road along rank 1 in 9 plies (Black's first ply puts White's
/// flat on a1).
pub const ROAD_ON_RANK_ONE: &str = "P E5,P A1,P B1,P E4 W,P C1,M E4 E3 1,P D1 C,P A5,P E1";

fn serve(stream: TcpStream, state: &(Mutex<State>, Condvar)) {
    let mut reader = BufReader::new(&stream);
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    // The rest of the head; a GET has no body.
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line.trim() != "" {
        line.clear();
    }
    let path = request_line
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_string();
    let answer = {
        let mut s = state.0.lock().unwrap();
        s.asked.push(path.clone());
        while s.holding {
            s = state.1.wait(s).unwrap();
        }
        path.strip_prefix("/v1/games-history/")
            .and_then(|id| id.parse().ok())
            .and_then(|id| s.answers.get(&id).cloned())
    };
    respond(stream, answer);
}

fn respond(mut stream: TcpStream, answer: Option<Answer>) {
    let (status, body) = match answer {
        None => (
            "404 Not Found",
            json!({ "statusCode": 404, "message": "Not Found", "error": "Not Found" }).to_string(),
        ),
        Some(Answer::Game(game)) => ("200 OK", game.to_string()),
        Some(Answer::Body(body)) => ("200 OK", body.to_string()),
        Some(Answer::Slow(after, answer)) => {
            std::thread::sleep(after);
            return respond(stream, Some(*answer));
        }
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json; charset=utf-8\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    // The client may have given up (a slow answer): nothing to do then.
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body.as_bytes());
}

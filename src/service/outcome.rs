//! What the service answers: outcomes to post, the questions they ask (prompts) and their
//! answers, boards to draw, timer events, and the views of records.

use crate::game::{Ending, Kind, Match};
use crate::render::Display;
use crate::store::records::{PlayerRecord, PlayerRef};
use serde::{Deserialize, Serialize};

/// A position to draw, as plain data: its game's record (which replays to the position, the
/// last ply and how the game ended), the names, theme, clock and display options. The adapters
/// draw it (`game::explain::record_picture`); the same value is stored in the outbox.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Board {
    pub record: String,
    pub players: [PlayerRef; 2],
    pub theme: String,
    /// The time the player to move has left, in words, in games with a time limit.
    pub clock: Option<String>,
    #[serde(default)]
    pub display: Display,
}

impl Board {
    /// `game`'s board, by its record.
    pub fn of(
        game: &Match,
        players: [PlayerRef; 2],
        theme: String,
        clock: Option<String>,
        display: Display,
    ) -> Board {
        Board {
            record: game.record(&[]),
            players,
            theme,
            clock,
            display,
        }
    }

    pub fn names(&self) -> [&str; 2] {
        [self.players[0].name.as_str(), self.players[1].name.as_str()]
    }
}

/// A finished game, for the end-of-game post.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Finished {
    pub result: Ending,
    pub reason: String,
    /// The game record (PTN for Tak) and the name of its file.
    pub ptn: String,
    pub file: String,
    /// A PTN Ninja link (Tak only: PTN Ninja does not know Takat).
    pub link: Option<String>,
    /// (player, rating after, change), for rated games.
    pub ratings: Vec<(PlayerRef, f64, f64)>,
    /// The board the ratings are kept for ("6x6"; empty in letters from before sizes).
    #[serde(default)]
    pub rated_board: String,
    /// The series score after this game: (player, points).
    pub series: [(PlayerRef, u32); 2],
    /// Games the series has counted, this one included (0 in letters from before it was kept).
    #[serde(default)]
    pub series_games: u32,
}

impl Finished {
    /// "Series after 1 game: alice 0 – 46 bob (rulebook points: …).", with the names as `name`
    /// writes them; `None` until the series has points (never for tournament games). The
    /// points are the rulebook's, not games won, which a bare "0 – 46" would suggest.
    pub fn series_line(&self, name: impl Fn(&PlayerRef) -> String) -> Option<String> {
        let [(a, pa), (b, pb)] = &self.series;
        if pa + pb == 0 {
            return None;
        }
        let after = match self.series_games {
            0 => String::new(),
            n => format!(" after {}", crate::words::count(n, "game")),
        };
        let cells = match self.result {
            Ending::Takat { .. } => "circles",
            Ending::Tak(_) => "squares",
        };
        Some(format!(
            "Series{after}: {} {pa} – {pb} {} (rulebook points: a win scores the board's \
             {cells} plus the pieces the winner has left).",
            name(a),
            name(b)
        ))
    }
}

/// A question an outcome leaves open: which record it is about and at which version, so that an
/// answer to an older question (an old button) is refused instead of answering today's.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Prompt {
    /// The open challenge with this id: accept, decline or cancel.
    Challenge { id: u64 },
    /// An undo request stored as version `seq` of game `game`: agree or refuse.
    Undo { game: u64, seq: u64 },
    /// A draw offer stored as version `seq` of game `game`: agree or refuse.
    Draw { game: u64, seq: u64 },
    /// The finished game `game`: ask for a rematch.
    Rematch { game: u64 },
    /// The board of game `game` after the plies whose fingerprint is `position`: undo, offer a
    /// draw, resign, list the legal plies, show it again. Any ply or undo makes it an old board.
    Board { game: u64, position: u64 },
    /// "Do you really resign?" on that board.
    Resign { game: u64, position: u64 },
    /// Puzzle `puzzle` at version `seq` of its attempt: a hint, or give up.
    Puzzle { puzzle: u32, seq: u64 },
}

/// An answer to a [`Prompt`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Answer {
    Accept,
    Decline,
    Cancel,
    Agree,
    Refuse,
    Rematch,
    /// Board buttons.
    Move,
    Undo,
    Draw,
    Resign,
    Moves,
    Refresh,
    /// Puzzle buttons.
    Hint,
    GiveUp,
}

/// What to post after an action. An outcome of a change is stored with it (in the outbox) until
/// it is delivered.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Outcome {
    /// The outbox letter that holds this outcome until it is delivered (`None`: nothing changed,
    /// as for a view, so nothing is owed).
    #[serde(skip)]
    pub letter: Option<u64>,
    /// The server the letter belongs to (for the links of direct messages).
    #[serde(skip)]
    pub guild: u64,
    /// Until when the process that made the letter holds its lease (given with the change).
    #[serde(skip)]
    pub lease_until_ms: i64,
    /// The letters its channel was still owed when this one was written: posted before they
    /// are, it would overtake them.
    #[serde(skip)]
    pub behind: Vec<u64>,
    /// The announcement, in plain text with names (no markup: adapters escape it).
    pub text: String,
    /// A channel the announcement speaks of, named (as a mention) before its text.
    #[serde(default)]
    pub about: Option<u64>,
    /// Users to mention (the player to move, the challenged player...).
    pub ping: Vec<PlayerRef>,
    pub board: Option<Board>,
    pub finished: Option<Finished>,
    /// "Tak!" / "Tinuë!" applies to this outcome.
    pub tak: bool,
    pub tinue: bool,
    /// The question this outcome asks, if any (for buttons).
    pub prompt: Option<Prompt>,
    /// When the player to move loses on time (games with a time limit).
    pub deadline_ms: Option<i64>,
    /// Players who asked for a direct message when it becomes their move (`/notify dm:on`).
    pub direct: Vec<PlayerRef>,
    /// Something changed in this tournament: adapters ask for its news and open the games of
    /// new pairings.
    pub tournament: Option<u64>,
    /// A table to show in fixed-width text (tournament standings).
    pub table: Option<String>,
    /// A picture other than a board (a tournament's crosstable).
    pub image: Option<Picture>,
    /// Letters this action stored for other channels (a vacation told in each game): nobody
    /// answers with them, so the outbox may post them at once.
    #[serde(skip)]
    pub elsewhere: Vec<u64>,
    /// For the asker alone (a private puzzle): answered ephemerally, never posted, so nothing
    /// is owed for it.
    #[serde(skip)]
    pub private: bool,
    /// For the asker alone, beside a public outcome (the lines the Move form kept with a ply):
    /// an ephemeral follow-up, never stored, as `/premove` lists the lines again.
    #[serde(skip)]
    pub aside: Option<String>,
    /// A daily digest: the games where it is the move of the players in `direct`, sent to them
    /// as the direct message itself, with no post in a channel.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub digest: Vec<DigestGame>,
    /// Where this outcome's game or tournament has its web page (a path below
    /// `BREDON_WEB_URL`), when its server shows its pages: given with a finished game's result,
    /// `/board` and `/tournament standings`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<String>,
    /// A direct message alone, handed over from a game's letter to its reader's queue (a
    /// player's turn, for one who asked: `/notify dm:on`): `text` goes to each of `direct`,
    /// with no post in a channel; one whose direct messages are closed is told in `about`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub direct_only: bool,
}

/// One game of a daily digest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DigestGame {
    pub guild: u64,
    pub channel: u64,
    pub opponent: String,
    /// The opponent's last ply, and when it was played (or the game's start).
    pub last_ply: Option<String>,
    pub since_ms: i64,
    pub deadline_ms: Option<i64>,
    /// The newest message showing its board, if Bredon knows it.
    pub board_message: Option<u64>,
}

/// What an outcome leaves for its adapter to do once it is delivered: decided here, run alike
/// by the Discord bot and `bredon local`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FollowUp {
    /// Bredon has something to do in the outcome's channel: its move, a challenge or rematch to
    /// accept, an undo or a draw to answer.
    BredonActs,
    /// A tournament changed: its news, and the games of new pairings to open.
    TournamentWork,
}

impl Outcome {
    /// Whether this outcome is a direct message alone, in its reader's queue (a digest, or a
    /// player's turn handed over from its game's letter): no post in a channel.
    pub fn is_direct_alone(&self) -> bool {
        self.direct_only || !self.digest.is_empty()
    }

    /// What follows this outcome, for an adapter whose Bredon is the player `bredon`: Bredon
    /// acts where the outcome calls on it (pings it), tournaments move where one changed.
    pub fn follow_ups(&self, bredon: u64) -> Vec<FollowUp> {
        let mut follow = Vec::new();
        if self.ping.iter().any(|p| p.id == bredon) {
            follow.push(FollowUp::BredonActs);
        }
        if self.tournament.is_some() {
            follow.push(FollowUp::TournamentWork);
        }
        follow
    }
}

/// A rendered picture with its file name and description.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Picture {
    pub file: String,
    pub png: Vec<u8>,
    pub alt: String,
}

/// Something the timer loop must post.
#[derive(Clone, Debug)]
pub struct TimerEvent {
    pub guild: u64,
    pub channel: u64,
    pub outcome: Outcome,
}

/// A live game as `/games` and `/mygames` list it.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Its number in the server (`LiveGame::shown_number`).
    pub number: u64,
    pub channel: u64,
    pub game: Kind,
    pub players: [PlayerRef; 2],
    pub size: usize,
    pub plies: usize,
    pub to_move: PlayerRef,
    pub last_ply_ms: i64,
    pub deadline_ms: Option<i64>,
    /// The newest message showing its board, if Bredon knows it.
    pub board_message: Option<u64>,
    /// When listed for one of its players: how many private notes they keep on it, and the
    /// newest.
    pub notes: usize,
    pub newest_note: Option<String>,
}

/// A game record to post: its text, file name and PTN Ninja link.
#[derive(Clone, Debug)]
pub struct Record {
    pub text: String,
    pub file: &'static str,
    pub link: Option<String>,
}

/// What `/stats` shows for one board size.
#[derive(Clone, Debug)]
pub struct Stats {
    pub player: PlayerRecord,
    /// Place on the size's leaderboard (`None`: no rated game on it).
    pub rank: Option<usize>,
}

impl Stats {
    /// "6x6: rating 1612 ± 180 (rank #2), 3 wins, 1 loss, 0 draws".
    pub fn describe(&self) -> String {
        let p = &self.player;
        let rating = match self.rank {
            Some(rank) => format!(
                "rating {:.0} ± {:.0} (rank #{rank})",
                p.rating,
                2.0 * p.deviation
            ),
            None if crate::ratings::rated_size(p.game, p.size) => "no rated game yet".into(),
            None => "never rated".into(),
        };
        format!(
            "{}: {rating}, {}, {}, {}",
            p.game.board(p.size),
            crate::words::count(p.wins, "win"),
            crate::words::count(p.losses, "loss"),
            crate::words::count(p.draws, "draw"),
        )
    }
}

/// What `/leaderboard` shows: one game on one board size.
#[derive(Clone, Debug)]
pub struct Leaderboard {
    pub game: Kind,
    pub size: usize,
    /// No size was asked for, and this is the one the asker plays most.
    pub askers_size: bool,
    /// Best first.
    pub players: Vec<PlayerRecord>,
    /// The other sizes with rated players, smallest first.
    pub other_sizes: Vec<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_follows_comes_from_whom_the_outcome_calls_on_and_its_tournament() {
        let bredon = PlayerRef {
            id: 9,
            name: "Bredon".into(),
        };
        let alice = PlayerRef {
            id: 1,
            name: "alice".into(),
        };
        let to_alice = Outcome {
            ping: vec![alice.clone()],
            ..Outcome::default()
        };
        assert!(to_alice.follow_ups(bredon.id).is_empty());
        let to_bredon = Outcome {
            ping: vec![bredon.clone()],
            tournament: Some(4),
            ..Outcome::default()
        };
        assert_eq!(
            to_bredon.follow_ups(bredon.id),
            [FollowUp::BredonActs, FollowUp::TournamentWork]
        );
    }
}

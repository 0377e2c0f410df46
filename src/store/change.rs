//! What a change is: the records one transaction writes, with what it expects to find, and the
//! letters it owes. Plain data below the store's ground, so the files that apply each part and
//! the store that commits the whole see it alike.

use super::records::*;

/// One atomic change to a channel.
#[derive(Default)]
pub struct Change {
    pub channel: u64,
    /// The live game must have this seq (`None`: there must be no live game).
    pub expect_seq: Option<u64>,
    /// The live game after the change (`None`: no live game). A game stored where there was
    /// none starts: it must carry its server's next number (`LiveGame::number`; one another
    /// game took meanwhile refuses the change as `NumberTaken`).
    pub game: Option<LiveGame>,
    /// The challenge in the channel must have this id, and is removed.
    pub take_challenge: Option<u64>,
    /// A new challenge (the channel must have no challenge and no game).
    pub put_challenge: Option<Challenge>,
    pub archive: Option<ArchivedGame>,
    pub players: Vec<PlayerRecord>,
    /// Coins moved with this change: each applied to the balance as stored when the change
    /// commits (a wallet is shared by every game of its player), never below zero.
    pub coins: Vec<CoinChange>,
    /// A tournament to store, and the `seq` the stored one must have (`None`: a new one).
    pub tournament: Option<(Tournament, Option<u64>)>,
    /// Results of tournament pairings, stored with the change that decides them.
    pub results: Vec<(Fixture, PairingResult)>,
    /// The messages the change owes, stored with it so that none is lost.
    pub letters: Vec<Letter>,
    pub puzzle: PuzzleChange,
    /// A channel's refusal noted in its server's settings, or its end.
    pub refusal: Option<RefusalNote>,
    /// A player's daily digest, stored with its letter (a second of one day is a conflict).
    pub digest: Option<DigestSent>,
}

/// The digest of `user` for the digest day `day` (days since 1970, counted from their hour).
#[derive(Clone, Copy, Debug)]
pub struct DigestSent {
    pub user: u64,
    pub day: i64,
}

/// `delta` coins for `user` in `guild`, whose wallet starts at `start` if it has none yet.
#[derive(Clone, Debug)]
pub struct CoinChange {
    pub guild: u64,
    pub user: PlayerRef,
    pub delta: i64,
    pub start: i64,
}

/// What a change does to puzzles.
#[derive(Default)]
pub struct PuzzleChange {
    /// The attempt at this seat after the change (`None`: removed), and the `seq` the stored
    /// one must have (`None`: there must be none).
    pub attempt: Option<(PuzzleSeat, Option<PuzzleAttempt>, Option<u64>)>,
    pub player: Option<PuzzlePlayer>,
    pub rating: Option<PuzzleRating>,
    /// A server's new daily puzzle: a conflict if that day's is stored already, so it is
    /// posted once whoever tries.
    pub new_daily: Option<DailyPuzzle>,
    /// A solver of a daily puzzle: (guild, day, player, time in ms).
    pub daily_solver: Option<(u64, i64, PlayerRef, i64)>,
}

/// A change to the channels a server was told Bredon is refused in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalNote {
    /// Discord refused Bredon `lacking` in `channel`: a conflict if the server was told as much
    /// already, so it is told once whoever notices.
    Refused {
        guild: u64,
        channel: u64,
        lacking: Lacking,
    },
    /// A post went through in `channel`: a refusal to post is over, and with a picture, a
    /// refusal of pictures too.
    Allowed {
        guild: u64,
        channel: u64,
        with_picture: bool,
    },
}

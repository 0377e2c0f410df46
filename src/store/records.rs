//! The records kept in sled. Every record is written inside an envelope `{"v": N, "data": ...}`;
//! a record of another schema version is refused, never guessed at.

use crate::game::{Ending, Kind};
use crate::render::Display;
use crate::tak::{Komi, Opening, Reserve, Setup};
use serde::{Deserialize, Serialize};

/// The schema version of every record this build writes. Version 2 added the game kind
/// (settings, player records) and Takat results; version 1 records read as Tak. Version 3 keeps
/// player records per board size; older ones are rebuilt from the archive when the store opens.
pub const SCHEMA: u32 = 3;

/// The oldest schema version this build reads.
pub const OLDEST_SCHEMA: u32 = 1;

/// A Discord user (or a named user of `bredon local`).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PlayerRef {
    pub id: u64,
    pub name: String,
}

/// Who takes White when a challenge is accepted.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Seat {
    /// The challenger plays White (player 1).
    White,
    Black,
    Random,
}

/// Everything chosen when a game is created; kept for rematches.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GameSettings {
    /// Which game (records before Takat existed read as Tak).
    #[serde(default)]
    pub game: Kind,
    /// Tak: the board's side (3-8). Takat: its circles (7 or 19).
    pub size: usize,
    pub komi: Komi,
    pub opening: Opening,
    /// Custom reserves per player (White, Black); `None` is the rulebook's.
    pub reserves: Option<[Reserve; 2]>,
    /// Start from this position instead of the empty board.
    pub tps: Option<String>,
    pub rated: bool,
    /// Remind the player to move after this long without a ply.
    pub reminder_secs: Option<u64>,
    /// Lose on time after this long without a ply.
    pub time_limit_secs: Option<u64>,
    pub theme: String,
    /// Played against the bot's engine at this level (`easy`, `medium`, `hard`); records written
    /// before engines existed read as `None`.
    #[serde(default)]
    pub engine: Option<String>,
    /// A blind game: no picture while it runs, only the plies (records before blind games
    /// existed read as `false`).
    #[serde(default)]
    pub blind: bool,
    /// Played for coins under the rulebook's University rules (records before them: `None`).
    #[serde(default)]
    pub stakes: Option<Stakes>,
    /// What the game's pictures show of the optional parts (records before: everything).
    #[serde(default)]
    pub display: Display,
}

/// What a game is played for.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Stakes {
    /// The rulebook's "University Gambling Rules": antes, a bid for the first move, 2 coins for
    /// each Tak called against you, and the pot plus a bonus to the winner.
    University,
}

/// A change of one player's coins in a game: `delta` is what their balance gained (negative:
/// paid into the pot or to the opponent).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct CoinMove {
    pub user: u64,
    pub delta: i64,
    pub why: String,
    /// Plies played when it happened.
    pub ply: usize,
}

/// The coins of a University game while it runs.
#[derive(Clone, Default, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Purse {
    pub pot: i64,
    /// Sealed bids for the first move, (user, coins), until both are in.
    pub bids: Vec<(u64, i64)>,
    /// The bids are settled and the game is on.
    pub settled: bool,
    /// Who called the last Tak that cost the opponent (the token): the same player's next Tak
    /// costs nothing.
    pub caller: Option<u64>,
    /// Who owes 2 coins for a Tak: paid by playing on, or refused by resigning.
    pub owes: Option<u64>,
    pub ledger: Vec<CoinMove>,
}

/// A player's coins in one server.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Wallet {
    pub guild: u64,
    pub user: PlayerRef,
    pub balance: i64,
}

impl GameSettings {
    pub fn setup(&self) -> Result<Setup, String> {
        let mut setup = Setup::new(self.size)?
            .with_komi(self.komi)
            .with_opening(self.opening);
        if let Some([w, b]) = self.reserves {
            setup = setup
                .with_reserve(crate::tak::Color::White, w)?
                .with_reserve(crate::tak::Color::Black, b)?;
        }
        Ok(setup)
    }
}

/// A series of games between two players (rematches), scored per the rulebook: the winner of a
/// game scores the board size squared plus the pieces left in their reserve.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Series {
    pub id: u64,
    /// Games finished so far in the series.
    pub games: u32,
    /// (user id, points), for both players.
    pub points: [(u64, u32); 2],
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Challenge {
    pub id: u64,
    pub guild: u64,
    pub channel: u64,
    pub challenger: PlayerRef,
    /// `None`: an open challenge anyone may take.
    pub opponent: Option<PlayerRef>,
    pub seat: Seat,
    pub settings: GameSettings,
    pub created_ms: i64,
    pub expires_ms: i64,
    pub series: Option<Series>,
}

/// A game being played in a channel.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct LiveGame {
    pub id: u64,
    /// Its number in its server (#1, #2, ... in the order the server's games began), given in
    /// the transaction that starts it; `None` in records from before numbers, until the store
    /// opens and numbers them.
    #[serde(default)]
    pub number: Option<u64>,
    /// Goes up by one with every change; a change is stored only if nobody changed it meanwhile.
    pub seq: u64,
    pub guild: u64,
    pub channel: u64,
    /// White (player 1), Black (player 2).
    pub players: [PlayerRef; 2],
    pub settings: GameSettings,
    /// Canonical PTN of every ply.
    pub plies: Vec<String>,
    pub started_ms: i64,
    pub last_ply_ms: i64,
    /// A player asked to take back the last ply and waits for the other's consent.
    pub undo_request: Option<u64>,
    pub draw_offer: Option<u64>,
    pub reminder_due_ms: Option<i64>,
    pub timeout_due_ms: Option<i64>,
    pub series: Series,
    /// The coins of a University game.
    #[serde(default)]
    pub purse: Option<Purse>,
    /// The tournament pairing this game plays (records before tournaments: `None`).
    #[serde(default)]
    pub fixture: Option<Fixture>,
    /// A player of this game is on vacation until then: its clock stands still (no reminder,
    /// no time-out) until this time.
    #[serde(default)]
    pub paused_until_ms: Option<i64>,
    /// Plies a player left in advance (`/premove`), for their opponent's eyes never: kept only
    /// while that opponent is to move, so every line belongs to the player waiting.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditional: Vec<ConditionalLine>,
    /// The version (`seq`) each open question was asked at, which its buttons carry: a press
    /// answers the question while it is open, whatever else changed meanwhile (a reminder, a
    /// conditional line). Records before: none, so only the current version answers.
    #[serde(default, skip_serializing_if = "AskedAt::is_empty")]
    pub asked_at: AskedAt,
    /// When each ply was played (ms since the epoch), one per ply; 0 for a ply played before
    /// builds kept the time (records before: none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ply_ms: Vec<i64>,
}

/// See [`LiveGame::asked_at`].
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct AskedAt {
    pub undo: Option<u64>,
    pub draw: Option<u64>,
}

impl AskedAt {
    fn is_empty(&self) -> bool {
        *self == AskedAt::default()
    }
}

/// A line of conditional plies: the opponent's expected reply, the owner's answer, and so on.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ConditionalLine {
    pub owner: u64,
    /// Canonical plies, starting with the opponent's.
    pub plies: Vec<String>,
}

/// A player's vacations in one server: days taken this year, and the one under way.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Vacation {
    pub guild: u64,
    pub user: PlayerRef,
    /// The calendar year (UTC) `used_days` count in.
    pub year: i64,
    pub used_days: u32,
    /// The vacation under way ends then (`None`, or a time past: none is).
    pub until_ms: Option<i64>,
}

/// A finished game.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct ArchivedGame {
    pub id: u64,
    /// Its number in its server, as the live game had it.
    #[serde(default)]
    pub number: Option<u64>,
    pub guild: u64,
    pub channel: u64,
    pub players: [PlayerRef; 2],
    pub settings: GameSettings,
    pub plies: Vec<String>,
    pub result: Ending,
    pub ptn: String,
    pub started_ms: i64,
    pub finished_ms: i64,
    /// Rating change per player (White, Black), for rated games.
    pub rating_changes: Option<[f64; 2]>,
    pub series: Series,
    /// Every coin movement of a University game, in order.
    #[serde(default)]
    pub ledger: Vec<CoinMove>,
    #[serde(default)]
    pub fixture: Option<Fixture>,
    /// When each ply was played (ms), as `LiveGame::ply_ms` kept them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ply_ms: Vec<i64>,
    /// The players' ratings (White, Black) when a rated game began to count (records before:
    /// none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings_before: Option<[f64; 2]>,
}

impl LiveGame {
    /// The number players see and type: its server's number, or its id while no build has
    /// numbered it (a game an older build started after this one opened the store).
    pub fn shown_number(&self) -> u64 {
        self.number.unwrap_or(self.id)
    }
}

impl ArchivedGame {
    /// The number players see and type (see `LiveGame::shown_number`).
    pub fn shown_number(&self) -> u64 {
        self.number.unwrap_or(self.id)
    }
}

/// A player's standing in one server, in one game on one board size.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct PlayerRecord {
    pub guild: u64,
    /// Ratings are kept per game (records before Takat existed are Tak's).
    #[serde(default)]
    pub game: Kind,
    /// Tak's board side or Takat's circles (0 in records from before sizes were kept apart).
    #[serde(default)]
    pub size: usize,
    pub user: PlayerRef,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub rated_games: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// A server's defaults.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GuildSettings {
    pub theme: String,
    pub size: usize,
    pub reminder_secs: Option<u64>,
    /// Coins a player starts with for University games (settings before them: 100).
    #[serde(default = "default_coins")]
    pub starting_coins: i64,
    /// Anyone may create a tournament, not only moderators (settings before them: no).
    #[serde(default)]
    pub open_tournaments: bool,
    /// Vacation days each player may take in a calendar year (0: none).
    #[serde(default = "default_vacation_days")]
    pub vacation_days: u32,
    /// The server's komi per board size, for challenges that name none (else 0).
    #[serde(default)]
    pub komi: Vec<(usize, Komi)>,
    /// What pictures show of the optional parts, for challenges that say nothing.
    #[serde(default)]
    pub display: Display,
    /// Players may type plies as plain messages in their game's channel (off unless a moderator
    /// turns it on; Bredon must also be run to read messages).
    #[serde(default)]
    pub typed_plies: bool,
    /// Where the daily puzzle is posted (`None`: no daily puzzle).
    #[serde(default)]
    pub puzzle_channel: Option<u64>,
    /// The hour of the day (UTC) the daily puzzle is posted at.
    #[serde(default)]
    pub puzzle_hour: u32,
    /// When the puzzle channel or hour was set: no daily puzzle is posted for a posting time
    /// before it (the first comes at the next posting hour).
    #[serde(default)]
    pub puzzle_since_ms: i64,
    /// The server's finished games may be mined for puzzles (`bredon puzzles mine --archive`);
    /// a moderator may opt out.
    #[serde(default = "yes")]
    pub puzzle_mining: bool,
    /// Channels where Discord refused Bredon what it needs, each told to the server once; a
    /// channel leaves the list when a post there goes through again.
    #[serde(default)]
    pub refused: Vec<RefusedChannel>,
    /// The server's web pages are served under this random address part (`None`: no pages,
    /// the default); a moderator turns them on and may change it, so nothing can be guessed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub web_slug: Option<String>,
    /// The random key (hex) the pages' player keys are made with, never shown: made when the
    /// pages are turned on, renewed with their address, so a player's key reveals nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub web_secret: Option<String>,
    /// The server's channels and threads not everyone may see (View Channel denied to
    /// @everyone, or a private thread), as the bot last read them: their games and the
    /// tournaments they hold stay off the web pages. One the bot no longer sees (a thread
    /// archived) keeps its place: a game never shows for want of knowing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hidden_channels: Vec<u64>,
    /// Channels the server's moderators chose to list on the web pages though not everyone
    /// may see them (`/settings web_channels:`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub web_channels: Vec<u64>,
}

/// A channel where Discord refuses Bredon something, as the server was told.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RefusedChannel {
    pub channel: u64,
    pub lacking: Lacking,
}

/// What Bredon lacks in a channel, the lesser first: its pictures only (Attach Files), or
/// posting at all (Send Messages, View Channel).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Serialize, Deserialize)]
pub enum Lacking {
    Files,
    Posting,
}

fn yes() -> bool {
    true
}

impl GuildSettings {
    /// The komi a challenge on `size` gets when it names none.
    pub fn komi_for(&self, size: usize) -> Komi {
        self.komi
            .iter()
            .find(|(s, _)| *s == size)
            .map_or(Komi::default(), |(_, k)| *k)
    }

    /// "pictures without heights, labels", or "pictures show everything", and whether with the
    /// reserve tray.
    pub fn describe_display(&self) -> String {
        let shown = match self.display.hidden() {
            hidden if hidden.is_empty() => "pictures show everything".into(),
            hidden => format!("pictures without {}", hidden.join(", ")),
        };
        match self.display.tray {
            true => shown + " (and the reserve tray)",
            false => shown,
        }
    }

    /// "komi 2 on 6x6, 1.5 on 5x5", or "no komi".
    pub fn describe_komi(&self) -> String {
        if self.komi.is_empty() {
            return "no komi".into();
        }
        let each: Vec<String> = self
            .komi
            .iter()
            .map(|(n, k)| format!("{k} on {n}x{n}"))
            .collect();
        format!("komi {}", each.join(", "))
    }
}

fn default_vacation_days() -> u32 {
    14
}

fn default_coins() -> i64 {
    100
}

impl Default for GuildSettings {
    fn default() -> GuildSettings {
        GuildSettings {
            theme: "dark".into(),
            size: 6,
            reminder_secs: Some(24 * 3600),
            starting_coins: default_coins(),
            open_tournaments: false,
            vacation_days: default_vacation_days(),
            komi: Vec::new(),
            display: Display::default(),
            typed_plies: false,
            puzzle_channel: None,
            puzzle_hour: 0,
            puzzle_since_ms: 0,
            puzzle_mining: true,
            refused: Vec::new(),
            web_slug: None,
            web_secret: None,
            hidden_channels: Vec::new(),
            web_channels: Vec::new(),
        }
    }
}

/// A game's place in a tournament: which pairing of which round it plays.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Fixture {
    pub tournament: u64,
    /// From 0.
    pub round: u32,
    /// From 0, in the order the round lists its pairings.
    pub board: u32,
}

/// When a tournament starts.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Start {
    /// When its organizer (or a moderator) says so.
    Manual,
    /// When the entry limit is reached.
    WhenFull,
    /// At this time (ms since 1970).
    At(i64),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Phase {
    /// Taking entries.
    Open,
    Running,
    Finished,
    Cancelled,
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Entrant {
    pub player: PlayerRef,
    /// Left a running tournament: their games from then on are forfeits, and Swiss rounds no
    /// longer pair them.
    pub withdrawn: bool,
}

/// One pairing of a round. Players are indices into the entrant list.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Pairing {
    pub white: usize,
    /// `None`: a bye.
    pub black: Option<usize>,
    /// The thread (or channel) its game is played in, once started.
    pub channel: Option<u64>,
    /// Its game, once started.
    pub game: Option<u64>,
    /// Its game's number in the server, once started (pairings from before numbers: `None`
    /// until the store opens and numbers them).
    #[serde(default)]
    pub number: Option<u64>,
    /// Its result was announced in the tournament's channel.
    pub announced: bool,
    /// The process opening its thread, while no thread is known.
    #[serde(default)]
    pub opening: Option<ThreadLease>,
}

/// A process's lease on opening a pairing's thread: Start Thread has no idempotency (resources/
/// channel, "Start Thread without Message"), so one process makes it, and after a try whose
/// answer was lost the thread is looked for before another is made.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ThreadLease {
    pub holder: u64,
    pub until_ms: i64,
    /// Tries so far, and when the first began (a thread found later is no older than that).
    pub tries: u32,
    pub since_ms: i64,
}

/// A tournament in a server. Results are kept apart (see [`PairingResult`]), written by the
/// change that ends each game, so games ending together never overwrite each other.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Tournament {
    pub id: u64,
    /// Goes up by one with every change; a change applies only to the version it read.
    pub seq: u64,
    pub guild: u64,
    /// Where it was created: announcements go here, games to threads under it.
    pub channel: u64,
    pub name: String,
    pub organizer: PlayerRef,
    pub format: crate::tournament::Format,
    /// Every game's settings (board, komi, opening, time limit, rated).
    pub settings: GameSettings,
    /// At most this many entrants.
    pub limit: Option<usize>,
    pub start: Start,
    /// In the order they joined (their seeds).
    pub entrants: Vec<Entrant>,
    pub phase: Phase,
    /// The rounds paired so far.
    pub rounds: Vec<Vec<Pairing>>,
    pub created_ms: i64,
    /// Its games' clocks run on when a player takes a vacation (tournaments before vacations:
    /// no, vacations are allowed).
    #[serde(default)]
    pub no_vacations: bool,
    /// Bredon told the channel it cannot open the games' threads; cleared when one opens, so a
    /// failure is told once, not at every try.
    #[serde(default)]
    pub threads_refused: bool,
}

/// How a pairing's result came about.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum How {
    /// A game was played (or ended by resignation, time or agreement).
    Played,
    Bye,
    /// The opponent had withdrawn.
    Forfeit,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PairingResult {
    pub points: crate::tournament::Points,
    pub how: How,
}

/// A note a player keeps on one of their games, for themselves alone.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PrivateNote {
    /// How many plies had been played when it was written: it belongs after that ply.
    pub ply: usize,
    pub written_ms: i64,
    pub text: String,
}

/// A finished game's analysis as `/analyze` posted it, kept for the game's web page.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct KeptAnalysis {
    /// Who judged it ("Bredon 0.1.0", or a TEI engine through Bredon).
    pub annotator: String,
    pub made_ms: i64,
    /// The value of the start and after every ply, from White's view (hundredths of a flat).
    pub white_view: Vec<i32>,
    /// Each ply's mark and comment, in game order.
    pub plies: Vec<KeptJudgement>,
}

/// One ply's judgement, as PTN writes it: a mark (`??`, `?`, `!` or none) and a comment.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct KeptJudgement {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub mark: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// A player's wishes about notifications, kept across servers.
#[derive(Clone, Default, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PlayerPrefs {
    /// A direct message "your move in #channel" whenever it becomes this player's turn.
    pub dm: bool,
    pub reminder: ReminderPref,
    /// One direct message a day at this hour (UTC) listing the games where it is their move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest_hour: Option<u8>,
}

/// How often a player wants to be reminded of a move.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum ReminderPref {
    /// As the game says (its challenge, or the server's default).
    #[default]
    Game,
    Off,
    /// After this many seconds without a ply.
    Every(u64),
}

impl ReminderPref {
    /// The interval for a game whose own interval is `game`.
    pub fn interval(self, game: Option<u64>) -> Option<u64> {
        match self {
            ReminderPref::Game => game,
            ReminderPref::Off => None,
            ReminderPref::Every(secs) => Some(secs),
        }
    }
}

/// A message an outcome owes, stored with the change that caused it and kept until it is
/// delivered (the outbox). The store does not read the message itself: the service writes it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Letter {
    pub id: u64,
    pub guild: u64,
    /// Where the message is posted.
    pub channel: u64,
    pub created_ms: i64,
    /// The request the action answered (a Discord interaction's token), whose answer may carry
    /// the message: a publisher that restarts asks it whether the answer went out.
    pub request: Option<String>,
    /// When that request was made: its token lives 15 minutes from then.
    #[serde(default)]
    pub request_at_ms: Option<i64>,
    /// The parts delivered so far (the announcement, the record, each direct message).
    pub sent: Vec<String>,
    /// The announcement's message, once it is posted.
    pub message: Option<u64>,
    /// The message itself, as the service wrote it.
    pub body: serde_json::Value,
    /// The process delivering it from the outbox, until when (processes sharing one store);
    /// stored as `hold`, its name before.
    #[serde(default, rename = "hold")]
    pub lease: Option<Lease>,
}

/// A process's lease on a letter: the right to deliver it until `until_ms`, given with the
/// change that wrote it (to the process that made it) and renewed between parts. Another
/// process's outbox leaves the letter alone meanwhile, and takes it over once the lease
/// lapsed, with the next `epoch`: every note of a part is written only under the epoch it was
/// delivered under (a fencing token), so a holder that lost its lease can no longer write.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Lease {
    pub holder: u64,
    pub until_ms: i64,
    #[serde(default)]
    pub epoch: u64,
}

impl Lease {
    /// Whether `holder` may take the letter at `now_ms` (its lease is the holder's, or none
    /// runs).
    pub fn lets(lease: Option<Lease>, holder: u64, now_ms: i64) -> bool {
        lease.is_none_or(|l| l.holder == holder || l.until_ms <= now_ms)
    }

    /// Whether this is the lease `holder` took as `epoch` (lapsed or not: while nobody took the
    /// letter over, its epoch stands).
    pub fn is(lease: Option<Lease>, holder: u64, epoch: u64) -> bool {
        lease.is_some_and(|l| l.holder == holder && l.epoch == epoch)
    }
}

/// What the outbox loop needs to know of a letter to schedule it: read without its body, so a
/// sweep through a full outbox (an outage of hours) costs no decoding of messages.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct LetterHead {
    pub id: u64,
    pub guild: u64,
    pub channel: u64,
    pub created_ms: i64,
    #[serde(default, rename = "hold")]
    pub lease: Option<Lease>,
}

/// Where a puzzle is being solved: in a channel for all to see, or privately by one player.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum PuzzleSeat {
    Channel(u64),
    Private(u64),
}

impl PuzzleSeat {
    pub fn is_private(self) -> bool {
        matches!(self, PuzzleSeat::Private(_))
    }
}

/// A puzzle being solved.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct PuzzleAttempt {
    /// The puzzle's number in the starter set (from 1).
    pub puzzle: u32,
    pub seat: PuzzleSeat,
    pub guild: u64,
    /// Who solves it (and whose rating it moves).
    pub solver: PlayerRef,
    /// The plies played so far from the puzzle's position: the solver's and Bredon's answers.
    pub plies: Vec<String>,
    pub started_ms: i64,
    pub hints: u32,
    /// Wrong plies played in this attempt.
    #[serde(default)]
    pub slips: u32,
    /// The attempt has counted for the ratings already (a wrong ply, a hint, giving up): it may
    /// go on, for practice.
    pub rated: bool,
    /// The day number of the daily puzzle this attempt solves, if it is one.
    pub daily: Option<i64>,
    /// Raised by every change, so that two answers to one position never both apply.
    pub seq: u64,
}

/// A Glicko-2 rating with its deviation and volatility.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
pub struct Glicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// A player's puzzle record in one server.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct PuzzlePlayer {
    pub guild: u64,
    pub player: PlayerRef,
    pub rating: Glicko,
    pub solved: u32,
    pub failed: u32,
    /// The puzzles this player has had (rated once each), oldest first.
    pub seen: Vec<u32>,
}

/// A puzzle's rating, kept across servers: it falls as players solve it and rises as they fail.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct PuzzleRating {
    pub puzzle: u32,
    pub rating: Glicko,
    pub solved: u32,
    pub failed: u32,
}

/// A server's daily puzzle: posted once, with who solved it and how fast.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct DailyPuzzle {
    pub guild: u64,
    /// Days since 1970-01-01, counted from the server's posting hour.
    pub day: i64,
    pub puzzle: u32,
    pub channel: u64,
    /// The players who solved it without a hint or a wrong ply, with their times in ms.
    pub solvers: Vec<(PlayerRef, i64)>,
}

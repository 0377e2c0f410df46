//! Tournaments through the service on a real store: a round robin of 5 and a 3-round Swiss of
//! 7 played to the end, with standings worked out by hand in the comments; a restart mid-round.

use crate::support;
use bredon::service::{
    parse_format, ChallengeOptions, Ctx, Outcome, Refusal, Service, TimerEvent, TournamentOptions,
};
use bredon::store::records::{Fixture, PlayerRef};
use bredon::tournament::halves;

const GUILD: u64 = 7;
const CHANNEL: u64 = 100;
const HOUR: i64 = 3_600_000;

fn user(name: &str) -> PlayerRef {
    PlayerRef {
        id: bredon::service::fnv1a(name.bytes()),
        name: name.into(),
    }
}

fn at(name: &str, channel: u64, now_ms: i64) -> Ctx {
    Ctx {
        guild: GUILD,
        channel,
        user: user(name),
        now_ms,
        moderator: name == "mod",
        request: None,
    }
}

struct Table {
    place: support::Place,
    service: Option<Service>,
    /// Threads handed out so far.
    threads: u64,
}

impl Table {
    fn new() -> Table {
        let place = support::place();
        let service = Service::new(place.open());
        Table {
            place,
            service: Some(service),
            threads: 0,
        }
    }

    fn s(&self) -> &Service {
        self.service.as_ref().unwrap()
    }

    /// Stops the service (closing the store) and opens it again, as a restarted bot would.
    fn restart(&mut self) {
        drop(self.service.take());
        self.service = Some(Service::new(self.place.open()));
    }

    /// Opens every pending pairing's game in a new "thread": (thread, White, Black).
    fn open_games(&mut self, now_ms: i64) -> Vec<(u64, String, String)> {
        let mut out = Vec::new();
        for p in self.s().pending_pairings().unwrap() {
            self.threads += 1;
            let thread = 5000 + self.threads;
            let outcome = self
                .s()
                .start_pairing(p.fixture, thread, now_ms)
                .unwrap()
                .expect("a pending pairing starts");
            assert!(outcome.board.is_some(), "the game starts with its board");
            let game = self.s().store().game(thread).unwrap().unwrap();
            assert_eq!(game.fixture, Some(p.fixture));
            out.push((
                thread,
                game.players[0].name.clone(),
                game.players[1].name.clone(),
            ));
        }
        // Asked again, nothing is pending: each pairing opens once.
        assert!(self.s().pending_pairings().unwrap().is_empty());
        out
    }

    /// Ends the game in `thread`: `winner` wins by the other's resignation, or a draw is agreed
    /// (its posts delivered, as the bot would).
    fn decide(&self, thread: u64, winner: Option<&str>, now_ms: i64) -> Outcome {
        let game = self.s().store().game(thread).unwrap().unwrap();
        let [white, black] = [&game.players[0].name, &game.players[1].name];
        let decided = match winner {
            Some(w) => {
                let loser = if w == white { black } else { white };
                self.s().resign(&at(loser, thread, now_ms)).unwrap()
            }
            None => {
                self.s().offer_draw(&at(white, thread, now_ms)).unwrap();
                self.s()
                    .answer_draw(&at(black, thread, now_ms), true)
                    .unwrap()
            }
        };
        support::delivered_all(self.s());
        decided
    }

    /// The one post of news at `now_ms`, which must contain `text`.
    fn expect_news(&self, now_ms: i64, text: &str) -> Outcome {
        let mut news = self.news(now_ms);
        assert_eq!(news.len(), 1, "one post of news");
        let outcome = news.remove(0).outcome;
        assert!(outcome.text.contains(text), "{}", outcome.text);
        outcome
    }

    /// The tournament's news at `now_ms`, and what the outbox owes delivered, as the bot's
    /// timers and outbox would.
    fn news(&self, now_ms: i64) -> Vec<TimerEvent> {
        let news = self.s().tournament_news(now_ms).unwrap();
        support::delivered_all(self.s());
        news
    }

    /// The standings as "rank name points tie-breaks", in standing order (a withdrawn player's
    /// name marked "(w)", as the table shows it).
    fn standings(&self) -> Vec<String> {
        let view = self.s().tournament_view(&at("anyone", CHANNEL, 0)).unwrap();
        let t = &view.tournament;
        let swiss = matches!(t.format, bredon::tournament::Format::Swiss(_));
        view.standings()
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let e = &t.entrants[s.seed];
                let name = format!("{}{}", e.player.name, if e.withdrawn { "(w)" } else { "" });
                let breaks = if swiss {
                    format!("{} {}", halves(s.first_tiebreak), halves(s.second_tiebreak))
                } else {
                    bredon::tournament::quarters(s.first_tiebreak)
                };
                format!("{} {name} {} {breaks}", i + 1, halves(s.score))
            })
            .collect()
    }
}

fn options(name: &str, format: &str, rounds: Option<u32>, time: Option<&str>) -> TournamentOptions {
    TournamentOptions {
        name: name.into(),
        format: parse_format(format, rounds).unwrap(),
        game: ChallengeOptions {
            size: Some(5),
            time_limit: time.map(Into::into),
            ..ChallengeOptions::default()
        },
        limit: None,
        start: None,
        no_vacations: false,
    }
}

/// The (White, Black) names of a round's games.
fn pairs(games: &[(u64, String, String)]) -> Vec<(&str, &str)> {
    games
        .iter()
        .map(|(_, w, b)| (w.as_str(), b.as_str()))
        .collect()
}

fn refused(r: Result<Outcome, Refusal>) -> String {
    r.expect_err("should be refused").0
}

/// Who wins when two players of the round robin meet (`None`: a draw).
fn rr_result(a: &str, b: &str) -> Option<&'static str> {
    let mut pair = [a, b];
    pair.sort();
    match pair {
        ["alice", "bob"] => None,
        ["alice", "carol"] => Some("alice"),
        ["alice", "dave"] => Some("dave"),
        ["alice", "erin"] => Some("alice"),
        ["bob", "carol"] => Some("bob"),
        ["bob", "dave"] => Some("bob"),
        ["bob", "erin"] => Some("erin"),
        ["carol", "dave"] => None,
        ["carol", "erin"] => Some("carol"),
        ["dave", "erin"] => Some("dave"),
        _ => panic!("{a} and {b} are not both in the round robin"),
    }
}

#[test]
fn a_round_robin_of_five_plays_everyone_once_and_ranks_by_sonneborn_berger() {
    let mut t = Table::new();
    let players = ["alice", "bob", "carol", "dave", "erin"];
    // Who may create: moderators, unless the server lets everyone.
    let why = refused(t.s().create_tournament(
        &at("alice", CHANNEL, 0),
        &options("Spring", "rr", None, None),
    ));
    assert!(why.contains("only a moderator"), "{why}");
    t.s()
        .create_tournament(&at("mod", CHANNEL, 0), &options("Spring", "rr", None, None))
        .unwrap();
    let why = refused(t.s().start_tournament(&at("mod", CHANNEL, 0)));
    assert!(why.contains("needs at least 2"), "{why}");
    for p in players {
        t.s().join_tournament(&at(p, CHANNEL, 0)).unwrap();
    }
    assert!(refused(t.s().join_tournament(&at("bob", CHANNEL, 0))).contains("already in"));
    assert!(refused(t.s().start_tournament(&at("bob", CHANNEL, 0))).contains("only mod"));
    let start = t.s().start_tournament(&at("mod", CHANNEL, 0)).unwrap();
    assert!(start.text.contains("Round 1 of 5"), "{}", start.text);
    assert!(refused(t.s().join_tournament(&at("zoe", CHANNEL, 0))).contains("entries are closed"));

    let mut met = std::collections::HashSet::new();
    let mut byes = Vec::new();
    let mut now = HOUR;
    for round in 1..=5 {
        let games = t.open_games(now);
        assert_eq!(games.len(), 2, "round {round}: two games and a bye");
        let view = t.s().tournament_view(&at("x", CHANNEL, now)).unwrap();
        let lines = view.round_lines(round - 1);
        let bye: Vec<&str> = lines
            .iter()
            .filter(|l| l.black.is_none())
            .map(|l| l.white.name.as_str())
            .collect();
        byes.extend(bye.iter().map(|b| b.to_string()));
        for (i, (thread, white, black)) in games.iter().enumerate() {
            assert!(met.insert((
                white.clone().min(black.clone()),
                white.clone().max(black.clone())
            )));
            // A restart in the middle of round 3, after its first game: nothing is lost.
            if round == 3 && i == 1 {
                t.restart();
            }
            now += HOUR;
            let end = t.decide(*thread, rr_result(white, black), now);
            assert_eq!(end.tournament, view.tournament.id.into());
            assert_eq!(end.prompt, None, "no rematch button for a tournament game");
            let finished = end.finished.as_ref().unwrap();
            assert_eq!(
                finished.series[0].1 + finished.series[1].1,
                0,
                "a tournament game is no series"
            );
            let why = refused(t.s().rematch(&at(white, *thread, now)));
            assert!(why.contains("tournament game"), "{why}");
            if i == 0 {
                let news = t.news(now);
                assert_eq!(news.len(), 1);
                assert_eq!(
                    news[0].channel, CHANNEL,
                    "news go to the tournament's channel"
                );
                assert!(news[0]
                    .outcome
                    .text
                    .starts_with(&format!("Round {round}: ")));
                assert!(news[0].outcome.image.is_none(), "the round is not over yet");
            }
        }
        let news = t.news(now);
        assert_eq!(news.len(), 1, "round {round}");
        let text = &news[0].outcome.text;
        assert!(
            news[0].outcome.image.is_some(),
            "a crosstable after each round"
        );
        if round < 5 {
            assert!(
                text.contains(&format!("Round {} of 5", round + 1)),
                "{text}"
            );
        } else {
            assert!(
                text.contains(
                    "Spring is over: bob wins with 2½ points, ahead of dave on Sonneborn-Berger."
                ),
                "{text}"
            );
        }
        assert!(t.news(now).is_empty(), "news are told once");
    }
    assert_eq!(met.len(), 10, "everyone met everyone");
    byes.sort();
    assert_eq!(byes, players, "one bye each");
    // Worked out by hand in tests/support.
    assert_eq!(t.standings(), support::ROUND_ROBIN_STANDINGS);
    let standings = t
        .s()
        .tournament_standings(&at("erin", CHANNEL, now))
        .unwrap();
    let table = standings.table.unwrap();
    assert!(
        table.contains(" 1  bob                2½   5.25"),
        "{table}"
    );
    assert!(standings.text.contains("finished"), "{}", standings.text);
    // Every game was archived with its fixture.
    let history = t.s().store().history(user("carol").id, 10).unwrap();
    assert_eq!(history.len(), 4);
    assert!(history.iter().all(|g| g.fixture.is_some()));
}

#[test]
fn a_swiss_of_seven_pairs_by_score_and_ranks_by_buchholz() {
    let mut t = Table::new();
    let players = ["alice", "bob", "carol", "dave", "erin", "frank", "gina"];
    let mut settings = t.s().settings(GUILD).unwrap();
    settings.open_tournaments = true;
    t.s().store().put_settings(GUILD, &settings).unwrap();
    let why = parse_format("swiss", None).unwrap_err().0;
    assert!(why.contains("rounds from 1 to 15"), "{why}");
    let why = parse_format("knockout", None).unwrap_err().0;
    assert!(
        why.contains("round-robin, double-round-robin or swiss"),
        "{why}"
    );
    // Anyone may create here; the organizer runs it.
    t.s()
        .create_tournament(
            &at("alice", CHANNEL, 0),
            &options("Cup", "swiss", Some(3), Some("1d")),
        )
        .unwrap();
    for p in players {
        t.s().join_tournament(&at(p, CHANNEL, 0)).unwrap();
    }
    t.s().join_tournament(&at("zoe", CHANNEL, 0)).unwrap();
    t.s().leave_tournament(&at("zoe", CHANNEL, 0)).unwrap();
    let start = t.s().start_tournament(&at("alice", CHANNEL, 0)).unwrap();
    assert!(
        start
            .text
            .contains("gina: bye (1 point once the round's games end)"),
        "{}",
        start.text
    );
    let bye_waits = "gina has the bye in round 1: 1 point once the round's games end.";
    let standings = t.s().tournament_standings(&at("erin", CHANNEL, 0));
    let early = standings.unwrap().text;
    assert!(early.contains(bye_waits), "{early}");

    // Round 1, everyone on 0, ranked by seed a b c d e f g: gina (lowest) has the bye; the top
    // half meets the bottom half: a-d, b-e, c-f. Colours alternate by board: a, e, c White.
    let mut now = HOUR;
    let games = t.open_games(now);
    assert_eq!(
        pairs(&games),
        vec![("alice", "dave"), ("erin", "bob"), ("carol", "frank")]
    );
    for (i, (thread, winner)) in games
        .iter()
        .map(|g| g.0)
        .zip(["alice", "erin", "carol"])
        .enumerate()
    {
        now += HOUR;
        t.decide(thread, Some(winner), now);
        if i < 2 {
            // The round waits for its last game: the result is told, nothing is paired.
            let told = t.expect_news(now, &format!("Round 1: {}", games[i].1));
            assert!(!told.text.contains("Round 2"), "{}", told.text);
            assert!(t.s().pending_pairings().unwrap().is_empty());
        }
    }
    t.expect_news(now, "Round 2 of 3");
    let standings = t.s().tournament_standings(&at("erin", CHANNEL, now));
    let said = standings.unwrap().text;
    assert!(said.contains("frank has the bye in round 2"), "{said}");
    assert!(!said.contains("gina has the bye"), "{said}");

    // Round 2: a c e g on 1 point, b d f on 0. Frank (lowest without a bye) has it. a meets
    // the middle of its group (e); c meets g; b meets d. Colours: a and e both had White once
    // (equal, both White last: board 1 of round 2 goes to the lower, e); g has had no colour
    // and c one White, so g; b and d both Black once: the lower, d.
    let games = t.open_games(now);
    assert_eq!(
        pairs(&games),
        vec![("erin", "alice"), ("gina", "carol"), ("dave", "bob")]
    );
    for (thread, winner) in games
        .iter()
        .map(|g| g.0)
        .zip([None, Some("carol"), Some("bob")])
    {
        now += HOUR;
        t.decide(thread, winner, now);
    }
    // A restart between rounds: the round is paired from what is stored.
    t.restart();
    t.expect_news(now, "Round 3 of 3");

    // Round 3: c 2; a, e 1½; b, f, g 1; d 0. Dave has the bye. c meets a (no one else on 2);
    // e cannot meet b again, so e-f; b-g. Colours: c and a both W then B: equal, board 1 of
    // round 3 to the higher (c); f (one Black) is due White against e (two Whites); b (two
    // Blacks) White against g.
    let games = t.open_games(now);
    assert_eq!(
        pairs(&games),
        vec![("carol", "alice"), ("frank", "erin"), ("bob", "gina")]
    );
    now += HOUR;
    t.decide(games[0].0, Some("carol"), now);
    // Gina withdraws during her game: she loses it, and stays in the standings marked (w).
    let why = refused(
        t.s()
            .withdraw(&at("bob", CHANNEL, now), Some(&user("gina"))),
    );
    assert!(why.contains("only alice"), "{why}");
    let w = t.s().withdraw(&at("gina", CHANNEL, now), None).unwrap();
    assert!(w.text.contains("gina withdrew from Cup"), "{}", w.text);
    assert!(t.s().store().game(games[2].0).unwrap().is_none());
    // Frank never moves: after the day's limit he loses on time, and the tournament ends.
    let fired = t.s().tick(now + 25 * HOUR).unwrap();
    assert!(fired.iter().any(|e| e.channel == games[1].0));
    let news = t.news(now + 25 * HOUR);
    let end = &news[0].outcome;
    assert!(
        end.text.contains("Cup is over: carol wins with 3 points."),
        "{}",
        end.text
    );
    let mut pinged: Vec<&str> = end.ping.iter().map(|p| p.name.as_str()).collect();
    pinged.sort();
    assert_eq!(
        pinged,
        ["alice", "bob", "carol", "dave", "erin", "frank", "gina"],
        "everyone who played hears the end, and nobody else"
    );
    // Worked out by hand in tests/support.
    assert_eq!(t.standings(), support::SWISS_STANDINGS);
    let table = t
        .s()
        .tournament_standings(&at("x", CHANNEL, now))
        .unwrap()
        .table
        .unwrap();
    assert!(table.contains("gina(w)"), "{table}");
}

#[test]
fn tournament_actions_have_their_rules() {
    let t = Table::new();
    let mut o = options("Open", "rr", None, None);
    o.limit = Some(3);
    o.start = Some("when full".into());
    t.s().create_tournament(&at("mod", CHANNEL, 0), &o).unwrap();
    let why = refused(t.s().create_tournament(&at("mod", CHANNEL, 0), &o));
    assert!(why.contains("already runs"), "{why}");
    t.s().join_tournament(&at("alice", CHANNEL, 0)).unwrap();
    t.s().join_tournament(&at("bob", CHANNEL, 0)).unwrap();
    assert!(refused(t.s().withdraw(&at("bob", CHANNEL, 0), None)).contains("/tournament leave"));
    // The third entry fills it, and it starts.
    let full = t.s().join_tournament(&at("carol", CHANNEL, 0)).unwrap();
    assert!(
        full.text.contains("it is full") && full.text.contains("Round 1 of 3"),
        "{}",
        full.text
    );
    assert!(full.tournament.is_some(), "its pairings wait to be opened");
    assert!(refused(t.s().leave_tournament(&at("bob", CHANNEL, 0))).contains("withdraw"));
    let pending = t.s().pending_pairings().unwrap();
    assert_eq!(pending.len(), 1);
    assert!(
        pending[0].name.starts_with("Open R1: "),
        "{}",
        pending[0].name
    );
    let fixture: Fixture = pending[0].fixture;
    t.s().start_pairing(fixture, 900, 0).unwrap().unwrap();
    assert!(
        t.s().start_pairing(fixture, 901, 0).unwrap().is_none(),
        "opened once"
    );
    // A moderator cannot abort one tournament game; cancelling the tournament aborts them all.
    let why = refused(t.s().abort(&at("mod", 900, 0)));
    assert!(why.contains("tournament game"), "{why}");
    assert!(refused(t.s().cancel_tournament(&at("alice", CHANNEL, 0))).contains("only mod"));
    let cancelled = t.s().cancel_tournament(&at("mod", CHANNEL, 0)).unwrap();
    assert!(
        cancelled.text.contains("its running game was aborted"),
        "{}",
        cancelled.text
    );
    assert_eq!(
        cancelled.elsewhere.len(),
        1,
        "the game's thread is told at once"
    );
    assert!(t.s().store().game(900).unwrap().is_none());
    assert!(t.news(0).is_empty());
    // Without a limit, at most 32 players.
    t.s()
        .create_tournament(&at("mod", CHANNEL, 0), &options("Crowd", "rr", None, None))
        .unwrap();
    for i in 0..32 {
        t.s()
            .join_tournament(&at(&format!("p{i}"), CHANNEL, 0))
            .unwrap();
    }
    let why = refused(t.s().join_tournament(&at("p32", CHANNEL, 0)));
    assert!(why.contains("Crowd is full (32 players)"), "{why}");
    t.s().cancel_tournament(&at("mod", CHANNEL, 0)).unwrap();
    // A start time in UTC, or a delay; never in the past.
    let mut dated = options("Dated", "rr", None, None);
    dated.start = Some("1970-01-01 00:00".into());
    let why = refused(t.s().create_tournament(&at("mod", CHANNEL, HOUR), &dated));
    assert!(why.contains("has passed"), "{why}");
    dated.start = Some("1970-01-01 05:00".into());
    let made = t
        .s()
        .create_tournament(&at("mod", CHANNEL, HOUR), &dated)
        .unwrap();
    assert!(
        made.text.contains("starts at 1970-01-01 05:00 UTC"),
        "{}",
        made.text
    );
    t.s().cancel_tournament(&at("mod", CHANNEL, HOUR)).unwrap();
    // A start time: too few players by then cancels it.
    let mut later = options("Later", "swiss", Some(2), None);
    later.start = Some("2h".into());
    t.s()
        .create_tournament(&at("mod", CHANNEL, 0), &later)
        .unwrap();
    t.s().join_tournament(&at("alice", CHANNEL, 0)).unwrap();
    t.s().join_tournament(&at("bob", CHANNEL, 0)).unwrap();
    assert!(t.news(HOUR).is_empty());
    let news = t.news(3 * HOUR);
    assert!(
        news[0].outcome.text.contains("could not start"),
        "{}",
        news[0].outcome.text
    );
}

#[test]
fn a_swiss_of_thirty_one_never_repeats_a_pairing_and_every_post_fits_discord() {
    let mut t = Table::new();
    t.s()
        .create_tournament(
            &at("mod", CHANNEL, 0),
            &options("Big", "swiss", Some(6), None),
        )
        .unwrap();
    let names: Vec<String> = (0..31)
        .map(|i| format!("player-with-a-long-name-{i:02}"))
        .collect();
    for n in &names {
        t.s().join_tournament(&at(n, CHANNEL, 0)).unwrap();
    }
    let start = t.s().start_tournament(&at("mod", CHANNEL, 0)).unwrap();
    let mut posts = vec![start];
    let mut now = HOUR;
    for round in 0..6 {
        let games = t.open_games(now);
        assert_eq!(games.len(), 15, "round {round}");
        for (i, (thread, white, _)) in games.iter().enumerate() {
            now += 1000;
            let winner = match (i + round) % 3 {
                0 => Some(white.as_str()),
                1 => None,
                _ => Some(games[i].2.as_str()),
            };
            t.decide(*thread, winner, now);
        }
        posts.extend(t.news(now).into_iter().map(|e| e.outcome));
    }
    assert!(posts.last().unwrap().text.contains("Big is over"));
    posts.push(t.s().tournament_standings(&at("x", CHANNEL, now)).unwrap());
    for p in &posts {
        // Discord's limit, with the table in its code block and one mention per ping.
        let length = p.text.chars().count()
            + p.table.as_ref().map_or(0, |t| t.chars().count() + 8)
            + p.ping.len() * 22;
        assert!(length <= 2000, "{length}: {}", p.text);
    }
    let view = t.s().tournament_view(&at("x", CHANNEL, now)).unwrap();
    let mut met = std::collections::HashSet::new();
    let mut byes = std::collections::HashMap::new();
    for p in view.tournament.rounds.iter().flatten() {
        match p.black {
            Some(b) => assert!(met.insert((p.white.min(b), p.white.max(b))), "a rematch"),
            None => *byes.entry(p.white).or_insert(0) += 1,
        }
    }
    assert_eq!(byes.len(), 6, "six different players had the six byes");
    let png = view.crosstable_png(&bredon::render::Theme::default());
    let img = image::load_from_memory(&png).unwrap();
    // Names are cut to fit: the picture grows with rounds and players only.
    assert!(
        img.width() <= 1100 && img.height() <= 1600,
        "{}x{}",
        img.width(),
        img.height()
    );
}

#[test]
fn players_joining_at_the_same_moment_all_get_in() {
    let place = support::place();
    let service = std::sync::Arc::new(Service::new(place.open()));
    service
        .create_tournament(&at("mod", CHANNEL, 0), &options("Rush", "rr", None, None))
        .unwrap();
    let joins: Vec<_> = (0..12)
        .map(|i| {
            let s = std::sync::Arc::clone(&service);
            std::thread::spawn(move || s.join_tournament(&at(&format!("p{i}"), CHANNEL, 0)))
        })
        .collect();
    for j in joins {
        let joined = j.join().unwrap();
        assert!(joined.is_ok(), "{joined:?}");
    }
    let view = service.tournament_view(&at("x", CHANNEL, 0)).unwrap();
    assert_eq!(
        view.tournament.entrants.len(),
        12,
        "no entry lost to a race"
    );
}

/// A tournament that allows no vacations keeps its games' clocks running; another's games stop.
#[test]
fn a_tournament_may_keep_its_clocks_running_through_vacations() {
    let mut t = Table::new();
    for (name, channel, no_vacations) in [("Strict", CHANNEL, true), ("Easy", CHANNEL + 1, false)] {
        let mut o = options(name, "rr", None, Some("1d"));
        o.limit = Some(2);
        o.start = Some("when full".into());
        o.no_vacations = no_vacations;
        t.s().create_tournament(&at("mod", channel, 0), &o).unwrap();
        t.s().join_tournament(&at("alice", channel, 0)).unwrap();
        t.s().join_tournament(&at("bob", channel, 0)).unwrap();
    }
    let games = t.open_games(0);
    assert_eq!(games.len(), 2);
    let away = t
        .s()
        .vacation_start(&at("bob", CHANNEL + 9, HOUR), 2)
        .unwrap();
    assert!(
        away.text.contains("the clocks of 1 game stand still")
            && away
                .text
                .contains("Not in Strict: its tournament allows no vacations."),
        "{}",
        away.text
    );
    let paused: Vec<Option<i64>> = games
        .iter()
        .map(|(thread, _, _)| {
            t.s()
                .store()
                .game(*thread)
                .unwrap()
                .unwrap()
                .paused_until_ms
        })
        .collect();
    assert_eq!(
        paused.iter().filter(|p| p.is_some()).count(),
        1,
        "{paused:?}"
    );
}

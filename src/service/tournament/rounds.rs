//! Rounds: the start, each round paired, a game opened per pairing, results announced and
//! the next round paired, until the winner is told.

use super::*;

impl Service {
    pub fn start_tournament(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        self.retried(|| self.start_tournament_once(ctx))
    }

    fn start_tournament_once(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let t = self.open_here(ctx)?;
        Self::may_run(&t, ctx, "start it")?;
        self.begin(ctx, t, "")
    }

    /// Starts `t` (as read): pairs round 1 and stores it, announced after `before`.
    pub(super) fn begin(
        &self,
        ctx: &Ctx,
        mut t: Tournament,
        before: &str,
    ) -> Result<Outcome, Refusal> {
        let n = t.entrants.len();
        if n < 2 {
            return refuse(format!(
                "{} has {}; it needs at least 2",
                t.name,
                crate::words::count(n as u64, "player")
            ));
        }
        if let Format::Swiss(rounds) = t.format {
            if rounds as usize >= n {
                return refuse(format!(
                    "{rounds} Swiss rounds need at least {} players, so that nobody meets the same \
                     opponent twice; {} joined",
                    rounds + 1,
                    n
                ));
            }
        }
        t.phase = Phase::Running;
        let mut results = Vec::new();
        let text = self.pair_next_round(&mut t, &HashMap::new(), &mut results);
        let begins = format!("{} begins with {n} players. {text}", t.name);
        let outcome = Outcome {
            text: match before {
                "" => begins,
                before => format!("{before} {begins}"),
            },
            tournament: Some(t.id),
            ..Outcome::default()
        };
        self.save_tournament(ctx, &mut t, results, outcome)
    }

    /// Pairs the next round of `t` into `t.rounds`; byes and forfeits get their results at once
    /// (in `results`). The announcement.
    fn pair_next_round(
        &self,
        t: &mut Tournament,
        known: &HashMap<(u32, u32), PairingResult>,
        results: &mut Vec<(Fixture, PairingResult)>,
    ) -> String {
        let round = t.rounds.len();
        let n = t.entrants.len();
        let pairs = match t.format {
            Format::Swiss(_) => {
                let view = TournamentView {
                    tournament: t.clone(),
                    results: known.clone(),
                };
                let table = view.standings();
                let mut met = HashSet::new();
                for p in t.rounds.iter().flatten() {
                    if let Some(b) = p.black {
                        met.insert((p.white.min(b), p.white.max(b)));
                    }
                }
                let entries: Vec<pairing::Entry> = table
                    .iter()
                    .filter(|s| !t.entrants[s.seed].withdrawn)
                    .map(pairing::Entry::of)
                    .collect();
                pairing::swiss(&entries, &met, round)
            }
            _ => pairing::round_robin(n, round),
        };
        let mut lines = Vec::new();
        let mut pairings = Vec::new();
        for (b, pair) in pairs.iter().enumerate() {
            let fixture = Fixture {
                tournament: t.id,
                round: round as u32,
                board: b as u32,
            };
            let name = |s: usize| t.entrants[s].player.name.clone();
            let decided = match pair.black {
                None => Some(PairingResult {
                    points: Points::White,
                    how: How::Bye,
                }),
                Some(black) => {
                    match (
                        t.entrants[pair.white].withdrawn,
                        t.entrants[black].withdrawn,
                    ) {
                        (false, false) => None,
                        (true, false) => Some(Points::Black),
                        (false, true) => Some(Points::White),
                        // Both gone: neither can win; recorded as a draw.
                        (true, true) => Some(Points::Draw),
                    }
                    .map(|points| PairingResult {
                        points,
                        how: How::Forfeit,
                    })
                }
            };
            lines.push(match (pair.black, decided) {
                (None, _) if t.format.is_swiss() => format!(
                    "{}: bye (1 point once the round's games end)",
                    name(pair.white)
                ),
                (None, _) => format!("{}: sits out this round", name(pair.white)),
                (Some(black), Some(_)) => format!(
                    "{} vs {}: forfeit (withdrawn)",
                    name(pair.white),
                    name(black)
                ),
                (Some(black), None) => format!("{} (White) vs {}", name(pair.white), name(black)),
            });
            if let Some(r) = decided {
                results.push((fixture, r));
            }
            pairings.push(Pairing {
                white: pair.white,
                black: pair.black,
                channel: None,
                game: None,
                number: None,
                announced: decided.is_some(),
                opening: None,
            });
        }
        t.rounds.push(pairings);
        format!(
            "Round {} of {}: {}. Each game starts in its own thread.",
            round + 1,
            t.format.rounds(n),
            within(
                &lines,
                "; ",
                PAIRINGS_ROOM,
                "the rest in /tournament pairings"
            )
        )
    }

    /// Pairings whose games are yet to be opened, in every running tournament.
    pub fn pending_pairings(&self) -> Result<Vec<PendingPairing>, Refusal> {
        let mut out = Vec::new();
        for t in self.store.tournaments()? {
            if t.phase != Phase::Running {
                continue;
            }
            let results = self.store.results(t.id)?;
            let round = t.rounds.len().saturating_sub(1);
            for (b, p) in t.rounds.last().into_iter().flatten().enumerate() {
                let decided = results.contains_key(&(round as u32, b as u32));
                let Some(black) = p.black else { continue };
                if p.channel.is_some() || decided {
                    continue;
                }
                let name = format!(
                    "{} R{}: {} vs {}",
                    t.name,
                    round + 1,
                    t.entrants[p.white].player.name,
                    t.entrants[black].player.name
                );
                out.push(PendingPairing {
                    fixture: Fixture {
                        tournament: t.id,
                        round: round as u32,
                        board: b as u32,
                    },
                    channel: t.channel,
                    guild: t.guild,
                    name: name.chars().take(100).collect(),
                });
            }
        }
        Ok(out)
    }

    /// The tournament of `fixture` if that pairing still waits for its game (running, not
    /// decided, not opened), with its Black player.
    fn waiting(&self, fixture: Fixture) -> Result<Option<(Tournament, usize)>, Refusal> {
        let Some(t) = self.store.tournament(fixture.tournament)? else {
            return Ok(None);
        };
        let decided = self
            .store
            .results(t.id)?
            .contains_key(&(fixture.round, fixture.board));
        let p = t
            .rounds
            .get(fixture.round as usize)
            .and_then(|r| r.get(fixture.board as usize));
        let black = p.filter(|p| p.channel.is_none()).and_then(|p| p.black);
        match black {
            Some(black) if t.phase == Phase::Running && !decided => Ok(Some((t, black))),
            _ => Ok(None),
        }
    }

    /// Claims the opening of a pending pairing's thread for this process until `now_ms +
    /// for_ms`: every process sharing the store runs the tournaments' work, and one thread is to
    /// be made. `None` when the pairing needs no thread any more, or another process holds it;
    /// else the claim, whose earlier tries (`tries - 1`) may have made a thread whose answer was
    /// lost.
    pub fn lease_pairing_thread(
        &self,
        fixture: Fixture,
        now_ms: i64,
        for_ms: i64,
    ) -> Result<Option<ThreadLease>, Refusal> {
        self.retried(|| {
            let Some((mut t, _)) = self.waiting(fixture)? else {
                return Ok(None);
            };
            let p = pairing_mut(&mut t, fixture);
            let claim = match p.opening {
                Some(c) if c.holder != self.holder && c.until_ms > now_ms => return Ok(None),
                Some(c) => ThreadLease {
                    holder: self.holder,
                    until_ms: now_ms + for_ms,
                    tries: c.tries + 1,
                    since_ms: c.since_ms,
                },
                None => ThreadLease {
                    holder: self.holder,
                    until_ms: now_ms + for_ms,
                    tries: 1,
                    since_ms: now_ms,
                },
            };
            p.opening = Some(claim);
            t.seq += 1;
            let change = Change {
                channel: t.channel,
                tournament: Some((t.clone(), Some(t.seq - 1))),
                ..Change::default()
            };
            self.durable_or(&change, CHANGED)?;
            Ok(Some(claim))
        })
    }

    /// Opens the game of a pending pairing in `channel` (a new thread). `None` if it no longer
    /// waits (opened meanwhile, or decided by a withdrawal).
    pub fn start_pairing(
        &self,
        fixture: Fixture,
        channel: u64,
        now_ms: i64,
    ) -> Result<Option<Outcome>, Refusal> {
        self.retried(|| self.numbered(|| self.start_pairing_once(fixture, channel, now_ms)))
    }

    fn start_pairing_once(
        &self,
        fixture: Fixture,
        channel: u64,
        now_ms: i64,
    ) -> Result<Option<Outcome>, Refusal> {
        let Some((mut t, black)) = self.waiting(fixture)? else {
            return Ok(None);
        };
        let white = pairing_mut(&mut t, fixture).white;
        let players = [
            t.entrants[white].player.clone(),
            t.entrants[black].player.clone(),
        ];
        let mut game = LiveGame {
            id: self.store.new_id()?,
            number: Some(self.store.next_game_number(t.guild)?),
            seq: 0,
            guild: t.guild,
            channel,
            players: players.clone(),
            settings: t.settings.clone(),
            plies: Vec::new(),
            started_ms: now_ms,
            last_ply_ms: now_ms,
            undo_request: None,
            draw_offer: None,
            reminder_due_ms: None,
            timeout_due_ms: None,
            series: Series {
                id: t.id,
                games: 0,
                points: [(players[0].id, 0), (players[1].id, 0)],
            },
            purse: None,
            fixture: Some(fixture),
            paused_until_ms: None,
            conditional: Vec::new(),
            asked_at: Default::default(),
            ply_ms: Vec::new(),
        };
        let p = pairing_mut(&mut t, fixture);
        p.channel = Some(channel);
        p.game = Some(game.id);
        p.number = game.number;
        t.threads_refused = false;
        let g = Self::rebuild(&game)?;
        let first = game.players[g.to_move().index()].clone();
        if !t.no_vacations {
            game.paused_until_ms = self.vacation_end_of(&game, now_ms)?;
        }
        self.set_timers(&mut game, first.id, now_ms)?;
        t.seq += 1;
        let outcome = Outcome {
            text: format!(
                "{}, round {}: {} (White) vs {} (Black), {}. {} to move.",
                t.name,
                fixture.round + 1,
                players[0].name,
                players[1].name,
                describe_game(&game.settings),
                first.name
            ),
            ping: players.to_vec(),
            direct: self.wants_direct(&first)?,
            deadline_ms: game.timeout_due_ms,
            prompt: Self::board_prompt(&game),
            board: Self::shown(&game, g, now_ms),
            ..Outcome::default()
        };
        let ctx = Ctx {
            channel,
            ..Self::tournament_ctx(&t, now_ms)
        };
        let change = Change {
            channel,
            expect_seq: None,
            game: Some(game),
            tournament: Some((t.clone(), Some(t.seq - 1))),
            ..Change::default()
        };
        self.commit_or(&ctx, change, outcome, CHANGED).map(Some)
    }

    /// Discord refused to open a thread for one of the tournament's games (`why`, in Discord's
    /// words): the channel is told once, pinging the organizer, until a thread opens again.
    pub fn threads_refused(
        &self,
        tournament: u64,
        why: &str,
        now_ms: i64,
    ) -> Result<Option<Outcome>, Refusal> {
        self.retried(|| {
            let Some(mut t) = self.store.tournament(tournament)? else {
                return Ok(None);
            };
            if t.threads_refused || t.phase != Phase::Running {
                return Ok(None);
            }
            t.threads_refused = true;
            t.seq += 1;
            let outcome = Outcome {
                text: format!(
                    "{}: Bredon cannot open the threads for its games here (Discord says: {why}). \
                     Give Bredon Create Public Threads and Send Messages in Threads in this \
                     channel; the games start as soon as it can.",
                    t.name
                ),
                ping: vec![t.organizer.clone()],
                ..Outcome::default()
            };
            let change = Change {
                channel: t.channel,
                tournament: Some((t.clone(), Some(t.seq - 1))),
                ..Change::default()
            };
            self.commit_or(&Self::tournament_ctx(&t, now_ms), change, outcome, CHANGED)
                .map(Some)
        })
    }

    /// Announces what happened in running tournaments since the last call: results, new
    /// rounds, the end. Also starts tournaments whose start time has come. One event per
    /// tournament with news, for its channel.
    pub fn tournament_news(&self, now_ms: i64) -> Result<Vec<TimerEvent>, Refusal> {
        let mut events = Vec::new();
        for t in self.store.tournaments()? {
            let outcome = match (t.phase, t.start) {
                (Phase::Open, Start::At(due)) if due <= now_ms => self.start_due(t.clone(), now_ms),
                (Phase::Running, _) => self.advance(t.clone(), now_ms),
                _ => continue,
            };
            match outcome {
                Ok(Some(outcome)) => events.push(TimerEvent {
                    guild: t.guild,
                    channel: t.channel,
                    outcome,
                }),
                Ok(None) => {}
                // Another process or call got there first: its news stands.
                Err(_) => {}
            }
        }
        Ok(events)
    }

    /// A tournament whose start time came: it begins, or is cancelled if too few joined.
    fn start_due(&self, mut t: Tournament, now_ms: i64) -> Result<Option<Outcome>, Refusal> {
        let ctx = Self::tournament_ctx(&t, now_ms);
        match self.begin(&ctx, t.clone(), "") {
            Ok(outcome) => Ok(Some(outcome)),
            Err(Refusal(why)) if why == CHANGED => Err(Refusal(why)),
            Err(Refusal(why)) => {
                t.phase = Phase::Cancelled;
                let outcome = Outcome {
                    text: format!("{} could not start ({why}); it is cancelled.", t.name),
                    ..Outcome::default()
                };
                self.save_tournament(&ctx, &mut t, Vec::new(), outcome)
                    .map(Some)
            }
        }
    }

    /// Announces new results of `t` (as just read), pairs its next round when the current one
    /// is complete, or ends it after the last.
    fn advance(&self, mut t: Tournament, now_ms: i64) -> Result<Option<Outcome>, Refusal> {
        let view = self.with_results(t.clone())?;
        let mut results = view.results.clone();
        let mut told = Vec::new();
        let round = t.rounds.len().saturating_sub(1);
        for (b, line) in view.round_lines(round).iter().enumerate() {
            let p = &mut t.rounds[round][b];
            if line.result.is_some() && !p.announced {
                p.announced = true;
                told.push(format!("Round {}: {}.", round + 1, line.describe()));
            }
        }
        // Results come one by one; after a pause (a restart) they may come together.
        let mut lines = Vec::new();
        if !told.is_empty() {
            lines.push(within(
                &told,
                "\n",
                RESULTS_ROOM,
                "more results in the table",
            ));
        }
        let mut new_results = Vec::new();
        let mut round_done = false;
        let mut finished = false;
        loop {
            let r = t.rounds.len() - 1;
            let complete =
                (0..t.rounds[r].len()).all(|b| results.contains_key(&(r as u32, b as u32)));
            if !complete {
                break;
            }
            round_done = true;
            if t.rounds.len() >= t.format.rounds(t.entrants.len()) {
                t.phase = Phase::Finished;
                finished = true;
                break;
            }
            let before = new_results.len();
            let text = self.pair_next_round(&mut t, &results, &mut new_results);
            for (f, r) in &new_results[before..] {
                results.insert((f.round, f.board), *r);
            }
            lines.push(text);
        }
        if lines.is_empty() && !finished {
            return Ok(None);
        }
        let ctx = Self::tournament_ctx(&t, now_ms);
        let view = TournamentView {
            tournament: t.clone(),
            results,
        };
        let mut outcome = Outcome {
            tournament: Some(t.id),
            ..Outcome::default()
        };
        if finished {
            let table = view.standings();
            let winner = &t.entrants[table[0].seed].player;
            let tie = match table.get(1) {
                Some(second) if second.score == table[0].score => {
                    let swiss = matches!(t.format, Format::Swiss(_));
                    let by = if second.first_tiebreak != table[0].first_tiebreak {
                        if swiss {
                            "Buchholz"
                        } else {
                            "Sonneborn-Berger"
                        }
                    } else if swiss && second.second_tiebreak != table[0].second_tiebreak {
                        "median-Buchholz"
                    } else {
                        "the order of entry"
                    };
                    format!(", ahead of {} on {by}", t.entrants[second.seed].player.name)
                }
                _ => String::new(),
            };
            lines.push(format!(
                "{} is over: {} wins with {} points{tie}.",
                t.name,
                winner.name,
                pairing::halves(table[0].score)
            ));
            outcome.ping = t.entrants.iter().map(|e| e.player.clone()).collect();
        }
        if round_done {
            outcome.table = Some(view.table_text(12));
            outcome.image = Some(view.crosstable());
        }
        outcome.text = lines.join("\n");
        self.save_tournament(&ctx, &mut t, new_results, outcome)
            .map(Some)
    }
}

/// The pairing of `fixture` in `t` (which `Service::waiting` found).
fn pairing_mut(t: &mut Tournament, fixture: Fixture) -> &mut Pairing {
    &mut t.rounds[fixture.round as usize][fixture.board as usize]
}

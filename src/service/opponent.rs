//! Bredon as a player in engine games: answers undo requests (grants) and draw offers (declines),
//! and when it is its turn thinks and plays through the service like anyone else. At the
//! `strongest` level an external TEI engine thinks instead, when one is configured; a crashed or
//! silent engine is restarted once, and otherwise reported with the game kept. The other levels
//! are always the built-in searcher, so each keeps its strength.

use super::{Ctx, Outcome, Refusal, Service};
use crate::engine::{choose, tei, Level, Memory};
use crate::game::Match;
use crate::store::layout::Layout;
use crate::store::records::PlayerRef;
use crate::tak::Setup;
use std::sync::Mutex;
use std::time::Duration;

pub struct EngineOpponent {
    /// The bot's own user.
    pub me: PlayerRef,
    /// `program args...` of an external TEI engine.
    tei_command: Option<Vec<String>>,
    tei: Mutex<Option<tei::Client>>,
    /// What the searcher's last search left, with its game's id: the next ply of the same game
    /// starts from it (one game's worth, as large as a search's table; another game starts
    /// afresh and takes it over).
    memory: Mutex<Option<(u64, Box<Memory>)>>,
    /// Thinking time for `hard` and for TEI engines.
    pub think: Duration,
}

impl Service {
    /// The channels of engine games in the servers of `shards`, where Bredon may have
    /// something to do (after a restart). A sled folder holds only its shards' servers; a
    /// shared PostgreSQL holds every process's, and each takes its own servers' turns, so that
    /// processes starting together never search one game twice.
    pub fn engine_games(&self, shards: Layout) -> Result<Vec<u64>, Refusal> {
        Ok(self
            .store
            .all_live_games()?
            .into_iter()
            .filter(|g| g.settings.engine.is_some() && shards.holds(g.guild))
            .map(|g| g.channel)
            .collect())
    }
}

impl EngineOpponent {
    pub fn new(me: PlayerRef, tei_command: Option<Vec<String>>, think: Duration) -> EngineOpponent {
        EngineOpponent {
            me,
            tei_command: tei_command.filter(|c| !c.is_empty()),
            tei: Mutex::new(None),
            memory: Mutex::new(None),
            think,
        }
    }

    /// From the environment: `BREDON_TEI_ENGINE` (a command line) and `BREDON_ENGINE_SECS`.
    pub fn from_env(me: PlayerRef) -> EngineOpponent {
        let command = super::analysis::server_engine();
        let secs = std::env::var("BREDON_ENGINE_SECS")
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .unwrap_or(3.0);
        EngineOpponent::new(me, command, Duration::from_secs_f64(secs.clamp(0.05, 60.0)))
    }

    /// Bredon's next action in `channel` at `now_ms`, if it has one. Blocking: call it off the
    /// async threads.
    pub fn act(
        &self,
        service: &Service,
        channel: u64,
        now_ms: i64,
    ) -> Result<Option<Outcome>, String> {
        let Some(game) = service.store().game(channel).map_err(|e| e.to_string())? else {
            return self.accept_challenge(service, channel, now_ms);
        };
        let Some(level) = game.settings.engine.clone() else {
            return Ok(None);
        };
        if !game.players.iter().any(|p| p.id == self.me.id) {
            return Ok(None);
        }
        let ctx = Ctx {
            guild: game.guild,
            channel,
            user: self.me.clone(),
            now_ms,
            moderator: false,
            request: None,
        };
        if game.undo_request.is_some_and(|u| u != self.me.id) {
            return service.answer_undo(&ctx, true).map(Some).map_err(|r| r.0);
        }
        if game.draw_offer.is_some_and(|u| u != self.me.id) {
            return service.answer_draw(&ctx, false).map(Some).map_err(|r| r.0);
        }
        let g = Service::rebuild(&game).map_err(|r| r.0)?;
        if g.result().is_some() || game.players[g.to_move().index()].id != self.me.id {
            return Ok(None);
        }
        let level = Level::parse(&level)?;
        let ply = match &g {
            Match::Tak(t) => match self
                .tei_command
                .as_ref()
                .filter(|_| level == Level::Strongest)
            {
                Some(command) => {
                    self.tei_ply(command, &game.settings.tps, t.start().setup(), &game.plies)?
                }
                None => {
                    let mut memory = self.memory_for(game.id);
                    let ply = choose(level, &mut memory, t.position(), self.think, game.id)
                        .ok_or("the game is over")?;
                    *self.memory.lock().map_err(|_| "the engine's memory lock")? =
                        Some((game.id, memory));
                    t.position().ptn(ply)
                }
            },
            // TEI speaks Tak only: Takat is always played by the built-in searcher.
            Match::Takat(t) => {
                let (depth, nodes) = level.takat_budget();
                let seen = t.positions();
                let found =
                    crate::takat::engine::search(t.position(), &seen, depth, nodes, game.id)
                        .ok_or("the game is over")?;
                t.position().name(found.ply)
            }
        };
        match service.play(&ctx, &ply) {
            Ok(outcome) => Ok(Some(outcome)),
            // Another action (another process's search, a player's undo) changed the game while
            // Bredon thought: that is no failure of its engine, and what is left to do is read
            // afresh by the next look.
            Err(_) if Self::changed_since(service, channel, game.seq) => Ok(None),
            Err(r) => Err(format!("its ply {ply} was refused: {}", r.0)),
        }
    }

    /// Whether `channel`'s game is no longer the version `seq` (or is gone).
    fn changed_since(service: &Service, channel: u64, seq: u64) -> bool {
        let now = service.store().game(channel).ok().flatten();
        now.is_none_or(|g| g.seq != seq)
    }

    /// The memory of `game`'s earlier searches, if the last search was of it (taken: a search
    /// of another game meanwhile starts afresh), or a new one.
    fn memory_for(&self, game: u64) -> Box<Memory> {
        let kept = self.memory.lock().ok().and_then(|mut m| m.take());
        match kept {
            Some((id, memory)) if id == game => memory,
            _ => Box::default(),
        }
    }

    /// A challenge addressed to Bredon (a rematch of an engine game) is accepted at once.
    fn accept_challenge(
        &self,
        service: &Service,
        channel: u64,
        now_ms: i64,
    ) -> Result<Option<Outcome>, String> {
        let challenge = service
            .store()
            .challenge(channel)
            .map_err(|e| e.to_string())?;
        let Some(c) = challenge.filter(|c| c.opponent.as_ref().is_some_and(|o| o.id == self.me.id))
        else {
            return Ok(None);
        };
        let ctx = Ctx {
            guild: c.guild,
            channel,
            user: self.me.clone(),
            now_ms,
            moderator: false,
            request: None,
        };
        service.accept(&ctx).map(Some).map_err(|r| r.0)
    }

    fn tei_ply(
        &self,
        command: &[String],
        tps: &Option<String>,
        setup: &Setup,
        plies: &[String],
    ) -> Result<String, String> {
        let mut slot = self.tei.lock().map_err(|_| "the engine lock is poisoned")?;
        if slot.is_none() {
            *slot = Some(tei::Client::spawn(&command[0], &command[1..])?);
        }
        let client = slot.as_mut().expect("just started");
        match client.best_ply(tps.as_deref(), setup, plies, self.think) {
            Ok(ply) => Ok(ply),
            Err(first) => {
                tracing::warn!(error = %first, "TEI engine failed; restarting");
                client
                    .restart()
                    .and_then(|_| client.best_ply(tps.as_deref(), setup, plies, self.think))
                    .map_err(|again| {
                        *slot = None;
                        format!("{first}; after a restart: {again}")
                    })
            }
        }
    }
}

//! What the web pages may show of a server that turned them on (`/settings web:true`): its
//! games being played, its results, its leaderboards and any of its games, as plain data. Only
//! what the server's channels show anyone: never conditional plies, private puzzles or user ids.

use super::*;
use crate::ratings;

/// The most recent results a server's page lists.
const RECENT_RESULTS: usize = 20;

/// A game being played, as the server's page lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct WebLive {
    pub number: u64,
    pub board: String,
    pub players: [String; 2],
    pub plies: usize,
    pub to_move: String,
    pub last_ply_ms: i64,
    pub deadline_ms: Option<i64>,
}

/// A finished game, as the server's page lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct WebResult {
    pub number: u64,
    pub board: String,
    pub players: [String; 2],
    pub code: String,
    pub how: String,
    pub finished_ms: i64,
    /// The players' page keys (see `web_player`).
    pub keys: [Option<String>; 2],
}

/// One size's rated players, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct WebBoard {
    pub board: String,
    pub players: Vec<WebRanked>,
}

/// A rated player as a leaderboard shows them, with their page's key.
#[derive(Clone, Debug, PartialEq)]
pub struct WebRanked {
    pub name: String,
    pub key: Option<String>,
    pub rating: f64,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// A server's page.
#[derive(Clone, Debug, PartialEq)]
pub struct WebServerPage {
    pub live: Vec<WebLive>,
    pub results: Vec<WebResult>,
    pub leaderboards: Vec<WebBoard>,
    /// Its tournaments, newest first.
    pub tournaments: Vec<super::WebTournamentLine>,
    pub puzzlers: Vec<WebPuzzler>,
}

/// One game's page: the players, every ply, and how it stands or ended.
#[derive(Clone, Debug)]
pub struct WebGame {
    /// Its id, which the pictures' cache keys carry (never shown).
    pub id: u64,
    /// Where it is (or was) played (never shown).
    pub channel: u64,
    pub number: u64,
    pub kind: Kind,
    pub board: String,
    pub komi: String,
    pub players: [String; 2],
    pub rated: bool,
    pub plies: Vec<String>,
    pub started_ms: i64,
    pub last_ply_ms: i64,
    /// Live games: whose move it is and when they lose on time.
    pub to_move: Option<String>,
    pub deadline_ms: Option<i64>,
    /// Finished games: the sentence and the code (`R-0`).
    pub result: Option<(String, String)>,
    /// The record (PTN for Tak) and its file name, and the PTN Ninja link (Tak only).
    pub record: String,
    pub file: &'static str,
    pub link: Option<String>,
    /// A blind game being played shows no pictures (its players play from the plies alone).
    pub pictures: bool,
    pub theme: String,
    pub display: crate::render::Display,
    /// When each ply was played (0: not known, a ply from before times were kept).
    pub ply_ms: Vec<i64>,
    /// A finished rated game: each player's rating before it and its change (White first).
    pub ratings: Option<[(f64, f64); 2]>,
    /// A finished game's newest `/analyze`, if one was made.
    pub analysis: Option<WebAnalysis>,
}

/// A finished game's analysis, as `/analyze` posted it.
#[derive(Clone, Debug)]
pub struct WebAnalysis {
    /// Who judged it ("Bredon 0.1.0").
    pub annotator: String,
    pub made_ms: i64,
    /// Each ply's mark (`??`, `?`, `!`, or empty) and comment, in game order.
    pub plies: Vec<(String, Option<String>)>,
    white_view: Vec<i32>,
}

impl WebAnalysis {
    /// How many values its chart plots: the start's and each ply's.
    pub fn chart_points(&self) -> usize {
        self.white_view.len()
    }
}

impl WebGame {
    /// The evaluation chart of its analysis (PNG), drawn as `/analyze` posts it.
    pub fn analysis_chart(&self) -> Option<Vec<u8>> {
        let analysis = self.analysis.as_ref()?;
        let game = crate::tak::PtnFile::parse(&self.record)
            .ok()?
            .replay()
            .ok()?;
        let marks: Vec<&str> = analysis.plies.iter().map(|(m, _)| m.as_str()).collect();
        let theme = crate::render::Theme::named(&self.theme).unwrap_or_default();
        Some(super::analysis::chart_png(
            &game,
            &analysis.white_view,
            &marks,
            [&self.players[0], &self.players[1]],
            &theme,
        ))
    }

    /// Every position of the game with the pieces in hand (`Match::positions`), or none if
    /// its record no longer replays.
    pub fn positions(&self) -> Vec<(String, [u8; 4])> {
        let game = Match::from_record(&self.record);
        game.and_then(|g| g.positions()).unwrap_or_default()
    }

    /// A Tak game's record cut after its first `ply` plies (its tags kept, no result), as PTN
    /// Ninja reads it; `None` for Takat, or if the record no longer replays.
    pub fn record_until(&self, ply: usize) -> Option<String> {
        /// What the writer sets from the game itself.
        const WRITTEN: [&str; 9] = [
            "Size", "Komi", "Opening", "Flats1", "Caps1", "Flats2", "Caps2", "TPS", "Result",
        ];
        if self.kind != Kind::Tak {
            return None;
        }
        let file = crate::tak::PtnFile::parse(&self.record).ok()?;
        let whole = file.replay().ok()?;
        let mut cut = crate::tak::Game::new(whole.start().clone());
        for played in whole.plies().get(..ply)? {
            cut.play(played.undo.ply).ok()?;
        }
        let tags: Vec<(&str, String)> = (file.tags.iter())
            .filter(|(name, _)| !WRITTEN.iter().any(|w| w.eq_ignore_ascii_case(name)))
            .map(|(name, value)| (name.as_str(), value.clone()))
            .collect();
        Some(cut.to_ptn(&tags))
    }

    /// The game as it stood after `ply` plies (0: the start), if the game has that many.
    pub fn at(&self, ply: usize) -> Option<Match> {
        Match::from_record(&self.record).ok()?.after(ply).ok()
    }
}

impl Service {
    /// Turns the server's web pages on (a new random address if they had none) or off.
    pub fn set_web(&self, ctx: &Ctx, on: bool) -> Result<GuildSettings, Refusal> {
        self.change_settings(ctx, |s| {
            s.web_slug = match (on, s.web_slug.take()) {
                (false, _) => None,
                (true, Some(slug)) => Some(slug),
                (true, None) => Some(new_slug()?),
            };
            s.web_secret = match (on, s.web_secret.take()) {
                (false, _) => None,
                (true, Some(secret)) => Some(secret),
                (true, None) => Some(new_secret()?),
            };
            Ok(())
        })
    }

    /// Gives the server's web pages a new address: the old one answers nothing from now on.
    pub fn reset_web(&self, ctx: &Ctx) -> Result<GuildSettings, Refusal> {
        self.change_settings(ctx, |s| {
            if s.web_slug.is_none() {
                return refuse(
                    "this server's web pages are off: turn them on with /settings web:true \
                     (they get a new address then)",
                );
            }
            s.web_slug = Some(new_slug()?);
            s.web_secret = Some(new_secret()?);
            Ok(())
        })
    }

    /// The server whose web pages have the address part `slug`, if one has.
    pub fn web_server(&self, slug: &str) -> Result<Option<u64>, Refusal> {
        if slug.is_empty() || slug.len() > 64 {
            return Ok(None);
        }
        Ok(self.store.web_server(slug)?)
    }

    /// The server's channels and threads whose games stay off its pages.
    pub(super) fn hidden_channels(&self, guild: u64) -> Result<Vec<u64>, Refusal> {
        let settings = self.store.settings(guild)?;
        let mut hidden = settings.hidden_channels;
        hidden.retain(|c| !settings.web_channels.contains(c));
        Ok(hidden)
    }

    /// The channels whose games the pages list though not everyone may see them: `text`
    /// holds their mentions (`<#id>`, as Discord writes `#channel`), or `none`.
    pub fn set_web_channels(&self, ctx: &Ctx, text: &str) -> Result<GuildSettings, Refusal> {
        let channels = web_channels(text)?;
        self.change_settings(ctx, |s| {
            s.web_channels = channels;
            Ok(())
        })
    }

    /// What the bot read of the server's channels: `hidden` of those it `knows` are not seen
    /// by everyone, the rest of them are; those it does not know keep their place (a thread
    /// archived since). True if the list changed, and then it is stored.
    pub fn set_hidden_channels(
        &self,
        guild: u64,
        hidden: &[u64],
        known: &[u64],
    ) -> Result<bool, Refusal> {
        let changed = self.store.change_hidden_channels(guild, |before| {
            let mut now: Vec<u64> = before
                .iter()
                .copied()
                .filter(|c| !known.contains(c))
                .chain(hidden.iter().copied())
                .collect();
            now.sort_unstable();
            now.dedup();
            now
        })?;
        if changed {
            self.store.flush()?;
        }
        Ok(changed)
    }

    /// The server's page: the games being played (the longest waiting first), the newest
    /// results, and the rated players of every Tak size.
    pub fn web_server_page(&self, guild: u64) -> Result<WebServerPage, Refusal> {
        let hidden = self.hidden_channels(guild)?;
        let mut live = Vec::new();
        for game in self.store.live_games(guild)? {
            if hidden.contains(&game.channel) {
                continue;
            }
            let g = Self::rebuild(&game)?;
            live.push(WebLive {
                number: game.shown_number(),
                board: game.settings.game.board(game.settings.size),
                to_move: game.players[g.to_move().index()].name.clone(),
                players: names(&game.players),
                plies: game.plies.len(),
                last_ply_ms: game.last_ply_ms,
                deadline_ms: game.timeout_due_ms,
            });
        }
        live.sort_by_key(|g| (g.last_ply_ms, g.number));
        let secret = self.web_secret(guild)?;
        Ok(WebServerPage {
            live,
            results: self.recent_results(guild, secret.as_deref(), &hidden)?,
            leaderboards: self.web_leaderboards(guild, secret.as_deref())?,
            tournaments: self.web_tournaments(guild)?,
            puzzlers: self.web_puzzlers(guild)?,
        })
    }

    /// The newest finished games, by walking the server's numbers down from the last given.
    fn recent_results(
        &self,
        guild: u64,
        secret: Option<&str>,
        hidden: &[u64],
    ) -> Result<Vec<WebResult>, Refusal> {
        let mut out = Vec::new();
        let mut number = self.store.next_game_number(guild)?;
        while number > 1 && out.len() < RECENT_RESULTS {
            number -= 1;
            let Some(id) = self.store.numbered_game(guild, number)? else {
                continue;
            };
            let archived = self.store.archived(id)?;
            if let Some(game) = archived.filter(|g| !hidden.contains(&g.channel)) {
                out.push(WebResult {
                    number: game.shown_number(),
                    board: game.settings.game.board(game.settings.size),
                    players: names(&game.players),
                    code: game.result.code().to_string(),
                    how: game.result.how().to_string(),
                    finished_ms: game.finished_ms,
                    keys: game.players.clone().map(|p| key(secret, p.id)),
                });
            }
        }
        out.sort_by_key(|r| std::cmp::Reverse((r.finished_ms, r.number)));
        Ok(out)
    }

    fn web_leaderboards(&self, guild: u64, secret: Option<&str>) -> Result<Vec<WebBoard>, Refusal> {
        let everyone = self.store.players(guild, Kind::Tak)?;
        let mut sizes: Vec<usize> = everyone
            .iter()
            .filter(|p| p.rated_games > 0 && ratings::rated_size(Kind::Tak, p.size))
            .map(|p| p.size)
            .collect();
        sizes.sort_unstable();
        sizes.dedup();
        Ok(sizes
            .into_iter()
            .map(|size| WebBoard {
                board: Kind::Tak.board(size),
                players: super::records::ranked(&everyone, size)
                    .into_iter()
                    .map(|p| WebRanked {
                        key: key(secret, p.user.id),
                        name: p.user.name,
                        rating: p.rating,
                        wins: p.wins,
                        losses: p.losses,
                        draws: p.draws,
                    })
                    .collect(),
            })
            .collect())
    }

    /// Game `number` of the server, finished or being played, if it has one.
    pub fn web_game(
        &self,
        guild: u64,
        number: u64,
        now_ms: i64,
    ) -> Result<Option<WebGame>, Refusal> {
        let Some(id) = self.store.numbered_game(guild, number)? else {
            return Ok(None);
        };
        let hidden = self.hidden_channels(guild)?;
        if let Some(game) = self.store.archived(id)? {
            if hidden.contains(&game.channel) {
                return Ok(None);
            }
            let names = names(&game.players);
            let result = game
                .result
                .describe_with(game.settings.komi, [&names[0], &names[1]]);
            let ratings = match (game.ratings_before, game.rating_changes) {
                (Some([w, b]), Some([dw, db])) => Some([(w, dw), (b, db)]),
                _ => None,
            };
            let analysis = self.store.analysis(guild, id)?.map(|kept| WebAnalysis {
                annotator: kept.annotator,
                made_ms: kept.made_ms,
                plies: kept
                    .plies
                    .into_iter()
                    .map(|j| (j.mark, j.comment))
                    .collect(),
                white_view: kept.white_view,
            });
            return Ok(Some(WebGame {
                id,
                channel: game.channel,
                number,
                kind: game.settings.game,
                board: game.settings.game.board(game.settings.size),
                komi: game.settings.komi.to_string(),
                rated: game.settings.rated,
                plies: game.plies,
                started_ms: game.started_ms,
                last_ply_ms: game.finished_ms,
                to_move: None,
                deadline_ms: None,
                result: Some((result, game.result.code().to_string())),
                link: (game.settings.game == Kind::Tak).then(|| finish::ninja_link(&game.ptn)),
                file: game.settings.game.record_file(),
                record: game.ptn,
                pictures: true,
                theme: game.settings.theme,
                display: game.settings.display,
                players: names,
                ply_ms: game.ply_ms,
                ratings,
                analysis,
            }));
        }
        let Some(game) = self
            .store
            .live_games(guild)?
            .into_iter()
            .find(|g| g.id == id && !hidden.contains(&g.channel))
        else {
            return Ok(None);
        };
        Ok(Some(Self::web_live_game(game, number, now_ms)?))
    }

    /// Game `number` of the server as `web_game` finds it, read directly from `channel` while
    /// it is played there (a live page knows its game's channel: no scan of the live games).
    pub fn web_game_in(
        &self,
        guild: u64,
        number: u64,
        channel: u64,
        now_ms: i64,
    ) -> Result<Option<WebGame>, Refusal> {
        match self.store.game(channel)? {
            Some(game)
                if game.guild == guild
                    && game.number == Some(number)
                    && !self.hidden_channels(guild)?.contains(&channel) =>
            {
                Ok(Some(Self::web_live_game(game, number, now_ms)?))
            }
            _ => self.web_game(guild, number, now_ms),
        }
    }

    fn web_live_game(game: LiveGame, number: u64, now_ms: i64) -> Result<WebGame, Refusal> {
        let g = Self::rebuild(&game)?;
        let record = finish::ptn_text(&game.players, &g, now_ms);
        Ok(WebGame {
            id: game.id,
            channel: game.channel,
            number,
            kind: game.settings.game,
            board: game.settings.game.board(game.settings.size),
            komi: game.settings.komi.to_string(),
            rated: game.settings.rated,
            to_move: Some(game.players[g.to_move().index()].name.clone()),
            players: names(&game.players),
            plies: game.plies,
            started_ms: game.started_ms,
            last_ply_ms: game.last_ply_ms,
            deadline_ms: game.timeout_due_ms,
            result: None,
            // PTN Ninja shows the board, which a blind game hides while it is played.
            link: (game.settings.game == Kind::Tak && !game.settings.blind)
                .then(|| finish::ninja_link(&record)),
            file: game.settings.game.record_file(),
            record,
            pictures: !game.settings.blind,
            theme: game.settings.theme,
            display: game.settings.display,
            ply_ms: game.ply_ms,
            ratings: None,
            analysis: None,
        })
    }
}

/// Most channels `/settings web_channels:` lists.
const MOST_WEB_CHANNELS: usize = 25;

/// The channels mentioned in `text` (`<#id>`), none for `none`; anything else is refused.
fn web_channels(text: &str) -> Result<Vec<u64>, Refusal> {
    const HOW: &str = "name the channels as #mentions (type # and pick each), or write none";
    if text.trim().eq_ignore_ascii_case("none") {
        return Ok(Vec::new());
    }
    let mut channels = Vec::new();
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        let id = word
            .strip_prefix("<#")
            .and_then(|w| w.strip_suffix('>'))
            .and_then(|id| id.parse::<u64>().ok());
        match id {
            Some(id) if !channels.contains(&id) => channels.push(id),
            Some(_) => {}
            None => {
                let word = crate::tak::quote(word);
                return refuse(format!("{word} is not a channel: {HOW}"));
            }
        }
    }
    if channels.is_empty() {
        return refuse(HOW);
    }
    if channels.len() > MOST_WEB_CHANNELS {
        return refuse(format!(
            "at most {MOST_WEB_CHANNELS} channels may be listed; {HOW}"
        ));
    }
    Ok(channels)
}

/// A player's page key, if the server's pages have a secret to make it with.
fn key(secret: Option<&str>, user: u64) -> Option<String> {
    secret.map(|s| super::web_player::player_key(s, user))
}

fn names(players: &[PlayerRef; 2]) -> [String; 2] {
    [players[0].name.clone(), players[1].name.clone()]
}

/// 96 random bits in hex: an address part nobody guesses.
fn new_slug() -> Result<String, Refusal> {
    random_hex::<12>()
}

/// 256 random bits in hex: the key players' page keys are made with.
fn new_secret() -> Result<String, Refusal> {
    random_hex::<32>()
}

fn random_hex<const N: usize>() -> Result<String, Refusal> {
    let mut bytes = [0u8; N];
    getrandom::getrandom(&mut bytes).map_err(|e| {
        Refusal(format!(
            "Bredon found no randomness for the address ({e}); try again"
        ))
    })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::web_channels;

    #[test]
    fn web_channels_are_read_from_their_mentions() {
        assert_eq!(web_channels("<#11> <#22>,<#11>").unwrap(), vec![11, 22]);
        assert_eq!(web_channels(" None ").unwrap(), Vec::<u64>::new());
        for bad in ["", "#general", "<#11> general", "<#x>"] {
            assert!(web_channels(bad).is_err(), "{bad}");
        }
        let many: Vec<String> = (1..=26).map(|c| format!("<#{c}>")).collect();
        let refused = web_channels(&many.join(" ")).unwrap_err();
        assert!(refused.0.contains("at most 25"), "{}", refused.0);
    }
}

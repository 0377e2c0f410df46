//! A PTN file replayed: its setup from the tags, the main line or a branch played by the rules,
//! and a written result agreed with the position as PTN Ninja reads it.

use super::branches;
use super::game::{Game, GameError};
use super::ply::{Color, PtnPly};
use super::position::{PlyError, Position};
use super::ptn::{header_error, PtnFile, ReplayError, ABANDONED};
use super::result::GameResult;
use super::setup::{Komi, Opening, Setup};
use super::tps::tps_size;

impl PtnFile {
    /// The game's setup from its tags (Size or TPS, Komi, Opening, Flats/Caps per player).
    pub fn setup(&self) -> Result<Setup, ReplayError> {
        let tps = self.tag("TPS").filter(|t| !t.trim().is_empty());
        let size = match (self.tag("Size"), tps) {
            (Some(s), _) => s.trim().parse::<usize>().map_err(|_| {
                header_error(format!("the Size tag `{s}` is not a number from 3 to 8"))
            })?,
            (None, Some(t)) => tps_size(t).map_err(header_error)?,
            (None, None) => return Err(header_error("the PTN has no [Size \"N\"] tag".into())),
        };
        let mut setup = Setup::new(size).map_err(header_error)?;
        if let Some(k) = self.tag("Komi") {
            setup = setup.with_komi(Komi::parse(k).map_err(header_error)?);
        }
        if let Some(o) = self.tag("Opening") {
            setup = setup.with_opening(Opening::parse(o).map_err(header_error)?);
        }
        for color in [Color::White, Color::Black] {
            let n = color.number();
            let mut r = setup.reserves[color.index()];
            let number = |name: &str| -> Result<Option<u8>, ReplayError> {
                self.tag(name)
                    .map(|v| {
                        v.trim().parse().map_err(|_| {
                            header_error(format!("the {name} tag `{v}` is not a number of pieces"))
                        })
                    })
                    .transpose()
            };
            // A per-player tag (Flats1) overrides the shared one (Flats).
            for name in ["Flats".to_string(), format!("Flats{n}")] {
                r.stones = number(&name)?.unwrap_or(r.stones);
            }
            for name in ["Caps".to_string(), format!("Caps{n}")] {
                r.caps = number(&name)?.unwrap_or(r.caps);
            }
            if r != setup.reserves[color.index()] {
                setup = setup.with_reserve(color, r).map_err(header_error)?;
            }
        }
        Ok(setup)
    }

    /// Replays every ply; the first illegal one is an error with its number and the reason.
    /// A result written in the file must agree with the final position (one the moves do not
    /// reach is dropped, see `replay_with_warnings`).
    pub fn replay(&self) -> Result<Game, ReplayError> {
        self.replay_with_warnings().map(|(game, _)| game)
    }

    /// Replays the main line, with what was passed over: a road or flat result the moves end
    /// before (puzzle files keep the original game's result; the game loads as still running),
    /// a result plies go on after, and the branches left aside.
    pub fn replay_with_warnings(&self) -> Result<(Game, Vec<String>), ReplayError> {
        let (game, mut warnings) = self.replay_line("")?;
        if !self.branches.is_empty() {
            let names: Vec<&str> = self.branches.iter().map(|b| b.name.as_str()).collect();
            warnings.push(format!(
                "the file has {} ({}): the main line is read",
                crate::words::count(names.len() as u64, "branch"),
                names.join(", ")
            ));
        }
        Ok((game, warnings))
    }

    /// Replays branch `name`: the line it departs from up to its first ply, then its own plies
    /// and its result. A name the file does not have is refused with those it has.
    pub fn replay_branch(&self, name: &str) -> Result<(Game, Vec<String>), ReplayError> {
        if name.is_empty() {
            return Err(header_error("a branch has a name: give one".into()));
        }
        self.replay_line(name)
    }

    /// Replays a line of the file: the main line (`""`) or a branch.
    fn replay_line(&self, name: &str) -> Result<(Game, Vec<String>), ReplayError> {
        let setup = self.setup()?;
        let start = match self.tag("TPS").filter(|t| !t.trim().is_empty()) {
            Some(tps) => Position::from_tps_with(tps, setup).map_err(header_error)?,
            None => Position::new(setup),
        };
        let stretches =
            branches::stretches(&self.branches, self.plies.len(), name, self.first_move())
                .map_err(header_error)?;
        let mut game = Game::new(start);
        let mut warnings = self.read_warnings().to_vec();
        for stretch in &stretches {
            let plies = &self.own_plies(stretch.line)[..stretch.count];
            for (j, (text, ply)) in plies.iter().enumerate() {
                let number = stretch.from + j + 1;
                play_read(&mut game, number, text, ply, &mut warnings).map_err(|reason| {
                    ReplayError {
                        ply_number: number,
                        text: text.clone(),
                        reason,
                        branch: stretch.line.map(|b| self.branches[b].name.clone()),
                    }
                })?;
            }
        }
        if let Some(written) = self.written_result(stretches.last().and_then(|s| s.line)) {
            if let Some(warning) = check_result(&mut game, written)? {
                warnings.push(warning);
            }
        }
        Ok((game, warnings))
    }
}

/// Plays ply `number` as read from a file. PTN Ninja reads a `*` that flattens nothing as a
/// plain move: so does Bredon, saying so.
fn play_read(
    game: &mut Game,
    number: usize,
    text: &str,
    ply: &PtnPly,
    warnings: &mut Vec<String>,
) -> Result<(), String> {
    let played = match game.play_ptn(ply) {
        Err(GameError::Illegal(PlyError::NothingToFlatten(_))) => {
            warnings.push(format!(
                "ply {number} ({text}) marks a flattening with `*` but flattens nothing; read \
                 as the plain move"
            ));
            game.play_ptn(&PtnPly {
                crush: false,
                ..*ply
            })
            .map(drop)
        }
        other => other.map(drop),
    };
    played.map_err(|e| e.to_string())
}

/// Agrees a written result with the position: a road or flat result the moves give stands, and
/// a written result that contradicts it is passed over with a warning; a decision (resignation,
/// time, agreed draw) is recorded on a game still running. `0-0` (PlayTak's abandoned game), a
/// road or flat result the moves do not reach, and a win or draw on a file with no moves (a
/// puzzle, a set-up) are passed over with a warning: PTN Ninja reads them as no result.
fn check_result(game: &mut Game, written: &str) -> Result<Option<String>, ReplayError> {
    // PTN Ninja keeps the moves when the tag contradicts them: so does Bredon, saying so.
    if let Some(r) = game.result() {
        let same_draw = written == "1/2-1/2" && r.ptn() == "1/2-1/2";
        return Ok((r.ptn() != written && !same_draw).then(|| {
            format!(
                "the record says the result is {written}, but the moves give {}; the moves' result \
                 is kept",
                r.ptn()
            )
        }));
    }
    if written == ABANDONED {
        return Ok(Some(
            "the file says 0-0, a game abandoned without result: it is read as unfinished, as \
             PTN Ninja reads it"
                .to_string(),
        ));
    }
    if game.plies().is_empty() {
        return Ok(Some(format!(
            "the record says the result is {written}, but it has no moves (a puzzle or a set-up \
             position?); the position is loaded as still running"
        )));
    }
    // PTN does not tell resignation from time-out: `1-0` / `0-1` are recorded as resignations.
    let decided = match written {
        "1-0" => GameResult::Resignation {
            winner: Color::White,
        },
        "0-1" => GameResult::Resignation {
            winner: Color::Black,
        },
        "1/2-1/2" => GameResult::DrawAgreed,
        _ => {
            return Ok(Some(format!(
                "the record says the result is {written}, but the moves end before it; the game \
                 is loaded as still running"
            )))
        }
    };
    game.decide(decided)
        .map_err(|e| header_error(e.to_string()))?;
    Ok(None)
}

impl Game {
    /// Reads and replays a PTN file.
    pub fn from_ptn(text: &str) -> Result<Game, ReplayError> {
        PtnFile::parse(text)?.replay()
    }

    /// Reads a record Bredon wrote: as `from_ptn`, except that its `0-0` is the abandonment
    /// Bredon decided (a player's file reads it as PTN Ninja does: no result).
    pub fn from_record(text: &str) -> Result<Game, ReplayError> {
        let file = PtnFile::parse(text)?;
        let mut game = file.replay()?;
        if game.result().is_none() && file.result.as_deref() == Some(ABANDONED) {
            game.decide(GameResult::Abandoned)
                .map_err(|e| header_error(e.to_string()))?;
        }
        Ok(game)
    }
}

//! Private notes (`/note`): a player's plans on one of their games, kept for themselves. They
//! are listed privately, counted in `/mygames`, and written as comments at the plies they were
//! written in the author's own copy of the record (`/ptn notes:True`); nobody else ever sees
//! them. They live apart from the game's record, so they outlive its end.

use super::*;
use crate::store::records::PrivateNote;

/// Characters in one note (Discord's option holds as many), and notes one player keeps on one
/// game: enough for a plan per move of a long game, few enough to list. `/note`'s option
/// holds the same number of characters.
const MAX_NOTE_CHARS: usize = 300;
const MAX_NOTES: usize = 60;

/// Characters of a note list: the newest notes that fit, below Discord's 2000.
const LIST_CHARS: usize = 1800;

/// The game a player's notes hang on: where they are kept (its server and id), the number
/// players know it by, and its plies.
struct NotedGame {
    guild: u64,
    id: u64,
    number: u64,
    plies: Vec<String>,
}

impl Service {
    /// `/note text:`: keeps a note on the player's game in this channel, after the plies played.
    pub fn add_note(&self, ctx: &Ctx, text: &str) -> Result<Outcome, Refusal> {
        let Some(game) = self.store.game(ctx.channel)? else {
            return match self.store.last_finished(ctx.channel)? {
                Some(last) => refuse(format!(
                    "game #{} in this channel has ended, so it takes no more notes: \
                     `/ptn game:{} notes:True` gives you your notes on it",
                    last.shown_number(),
                    last.shown_number()
                )),
                None => refuse(
                    "there is no game in this channel: notes are kept on a game you are playing",
                ),
            };
        };
        Self::player_seat(&game, ctx)?;
        let note = PrivateNote {
            ply: game.plies.len(),
            written_ms: ctx.now_ms,
            text: checked_note(text)?,
        };
        let Some(count) =
            self.store
                .add_note((game.guild, game.id, ctx.user.id), &note, MAX_NOTES)?
        else {
            return refuse(format!(
                "you keep {MAX_NOTES} notes on this game already, as many as one game holds: \
                 `/note` lists them"
            ));
        };
        self.store.flush()?;
        Ok(private(format!(
            "Noted {} ({} on game #{}, seen by you alone: `/note` lists them, and after the \
             game `/ptn notes:True` writes them into your copy of the record).",
            where_written(note.ply, &game.plies),
            crate::words::count(count as u64, "note"),
            game.shown_number()
        )))
    }

    /// `/note` alone: the player's notes on this channel's game (or on the one that ended here
    /// last), privately, the newest that fit.
    pub fn note_list(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let game = self.noted_record_here(ctx)?.game();
        let notes = self.store.notes(game.guild, game.id, ctx.user.id)?;
        if notes.is_empty() {
            return Ok(private(format!(
                "You keep no notes on game #{}: `/note text:` keeps one (only you see them).",
                game.number
            )));
        }
        let mut lines: Vec<String> = Vec::new();
        let mut chars = 0;
        for note in notes.iter().rev() {
            let line = format!("- {}: {}", where_written(note.ply, &game.plies), note.text);
            chars += line.chars().count() + 1;
            if chars > LIST_CHARS {
                break;
            }
            lines.push(line);
        }
        let hidden = notes.len() - lines.len();
        if hidden > 0 {
            lines.push(format!(
                "… {} not shown (`/ptn notes:True` has them all)",
                crate::words::count(hidden as u64, "earlier note")
            ));
        }
        lines.push(format!(
            "Your notes on game #{} (only you see them):",
            game.number
        ));
        lines.reverse();
        Ok(private(lines.join("\n")))
    }

    /// `/ptn notes:True`: the record of game `id` (or this channel's) with the asker's notes as
    /// comments at the plies they were written; refused to anyone who kept none on it.
    pub fn ptn_with_notes(&self, ctx: &Ctx, id: Option<u64>) -> Result<Record, Refusal> {
        let record = match id {
            Some(id) => NotedRecord::Ended(self.archived_here(ctx, id)?),
            None => self.noted_record_here(ctx)?,
        };
        let game = record.game();
        let notes = self.store.notes(game.guild, game.id, ctx.user.id)?;
        if notes.is_empty() {
            return refuse(format!(
                "you kept no notes on game #{}: notes are their writer's alone, kept with \
                 `/note text:` while you play",
                game.number
            ));
        }
        let mut said = vec![Vec::new(); game.plies.len() + 1];
        for note in notes {
            said[note.ply.min(game.plies.len())].push(note.text);
        }
        let (players, g, date_ms) = match &record {
            NotedRecord::Playing(live) => (&live.players, Self::rebuild(live)?, ctx.now_ms),
            NotedRecord::Ended(archived) => (
                &archived.players,
                Match::from_record(&archived.ptn).map_err(|e| {
                    Refusal(format!(
                        "the stored record of game #{} does not read: {e}",
                        game.number
                    ))
                })?,
                archived.finished_ms,
            ),
        };
        let text = finish::ptn_text_commented(players, &g, date_ms, &said);
        Ok(Record::new(text, g.kind()))
    }

    /// `user`'s notes on live game `game` (for `/mygames`): how many, and the newest.
    pub(super) fn notes_on(
        &self,
        game: &LiveGame,
        user: u64,
    ) -> Result<(usize, Option<String>), Refusal> {
        let notes = self.store.notes(game.guild, game.id, user)?;
        Ok((notes.len(), notes.last().map(|n| n.text.clone())))
    }

    /// The game in this channel, or the one that ended here last.
    fn noted_record_here(&self, ctx: &Ctx) -> Result<NotedRecord, Refusal> {
        if let Some(live) = self.store.game(ctx.channel)? {
            return Ok(NotedRecord::Playing(live));
        }
        match self.store.last_finished(ctx.channel)? {
            Some(last) => Ok(NotedRecord::Ended(last)),
            None => {
                refuse("there is no game in this channel: notes are kept on a game you are playing")
            }
        }
    }
}

/// Where a noted game's record comes from.
enum NotedRecord {
    Playing(LiveGame),
    Ended(ArchivedGame),
}

impl NotedRecord {
    fn game(&self) -> NotedGame {
        match self {
            NotedRecord::Playing(g) => NotedGame {
                guild: g.guild,
                id: g.id,
                number: g.shown_number(),
                plies: g.plies.clone(),
            },
            NotedRecord::Ended(g) => NotedGame {
                guild: g.guild,
                id: g.id,
                number: g.shown_number(),
                plies: g.plies.clone(),
            },
        }
    }
}

/// A note's text, trimmed, or why it cannot be kept.
fn checked_note(text: &str) -> Result<String, Refusal> {
    let text = text.trim();
    if text.is_empty() {
        return refuse("the note is empty: write your plan after `text:`");
    }
    let chars = text.chars().count();
    if chars > MAX_NOTE_CHARS {
        return refuse(format!(
            "a note holds at most {MAX_NOTE_CHARS} characters, and this one has {chars}: \
             split it in two"
        ));
    }
    Ok(text.to_string())
}

/// "before the first ply", or "after ply 12 (c3)".
fn where_written(ply: usize, plies: &[String]) -> String {
    // A note written before an undo took plies back stays after the last ply left.
    let ply = ply.min(plies.len());
    match ply.checked_sub(1).and_then(|i| plies.get(i)) {
        None => "before the first ply".into(),
        Some(last) => format!("after ply {ply} ({last})"),
    }
}

fn private(text: String) -> Outcome {
    Outcome {
        text,
        private: true,
        ..Outcome::default()
    }
}

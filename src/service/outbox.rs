//! The outbox as the publisher sees it: every outcome of a change is stored with the change (see
//! `Service::commit`) and stays here until the publisher has delivered each of its parts.

use super::letter::{newer_than_this_build, outcome_of};
use super::*;

/// An outcome still owed: its letter (where, since when, for which request, what of it went
/// out already; its body read into `outcome`).
#[derive(Clone, Debug)]
pub struct Delivery {
    pub letter: Letter,
    pub outcome: Outcome,
}

/// The parts of an outcome, delivered in this order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Part {
    /// The answer was deferred: the announcement edits the "thinking" message, and its pings
    /// follow as a message of their own.
    Deferred,
    Announcement,
    /// The pings of a deferred announcement.
    Pings,
    /// A direct message to this user.
    Direct(u64),
    /// A finished game's record.
    Record,
}

impl Part {
    pub fn key(self) -> String {
        match self {
            Part::Deferred => "deferred".into(),
            Part::Announcement => "announcement".into(),
            Part::Pings => "pings".into(),
            Part::Direct(user) => format!("dm:{user}"),
            Part::Record => "record".into(),
        }
    }

    /// A nonce for posting this part of `letter`: stable over retries and restarts, so Discord
    /// returns the first message instead of making a second (at most 25 characters).
    pub fn nonce(self, letter: u64) -> String {
        fnv1a(self.key().bytes().chain(letter.to_le_bytes())).to_string()
    }
}

impl Delivery {
    pub fn has_sent(&self, part: Part) -> bool {
        self.letter.sent.contains(&part.key())
    }
}

impl Service {
    /// Every outcome still owed that this build reads, oldest first. One whose body cannot be
    /// read although its version is known (a damaged record) is dropped with a warning rather
    /// than blocking its channel forever; one of a newer version is left to the build that
    /// wrote it.
    pub fn deliveries(&self) -> Result<Vec<Delivery>, Refusal> {
        let mut out = Vec::new();
        for letter in self.store.letters()? {
            if !newer_than_this_build(&letter) {
                out.extend(self.read_letter(letter)?);
            }
        }
        Ok(out)
    }

    /// Every letter still owed, oldest first, by where and since when (the outbox loop's
    /// schedule; `delivery` reads one whole when its turn comes).
    pub fn owed(&self) -> Result<Vec<LetterHead>, Refusal> {
        Ok(self.store.letter_heads()?)
    }

    /// The outcome `letter` still owes, if it owes one.
    /// One of a newer version is refused, and let go of at once so that its build may take it.
    pub fn delivery(&self, letter: u64) -> Result<Option<Delivery>, Refusal> {
        match self.store.letter(letter)? {
            Some(letter) if newer_than_this_build(&letter) => {
                self.store
                    .hold_letter(letter.id, self.holder, i64::MIN, i64::MIN)?;
                refuse(format!(
                    "letter {} was written by a newer Bredon; it delivers it",
                    letter.id
                ))
            }
            Some(letter) => self.read_letter(letter),
            None => Ok(None),
        }
    }

    fn read_letter(&self, mut letter: Letter) -> Result<Option<Delivery>, Refusal> {
        match outcome_of(letter.body.take()) {
            Ok(mut outcome) => {
                outcome.letter = Some(letter.id);
                outcome.guild = letter.guild;
                Ok(Some(Delivery { letter, outcome }))
            }
            Err(e) => {
                tracing::warn!(letter = letter.id, error = %e, "an owed message cannot be read; dropped");
                self.store.remove_letter(letter.id)?;
                Ok(None)
            }
        }
    }

    /// Notes that `part` of `letter` went out (as `message`, for the announcement). `durably`
    /// when what happens next depends on it surviving a crash.
    pub fn part_sent(
        &self,
        letter: u64,
        part: Part,
        message: Option<u64>,
        durably: bool,
    ) -> Result<(), Refusal> {
        let Some(mut stored) = self.store.letter(letter)? else {
            return Ok(());
        };
        if !stored.sent.contains(&part.key()) {
            stored.sent.push(part.key());
        }
        stored.message = stored.message.or(message);
        self.store.put_letter(&stored)?;
        if durably {
            self.store.flush()?;
        }
        Ok(())
    }

    /// Takes the right to deliver `letter` for `for_ms` (the outbox loop, before it delivers):
    /// `false` while another process holds it, or once it is delivered.
    pub fn hold_letter(&self, letter: u64, now_ms: i64, for_ms: i64) -> Result<bool, Refusal> {
        Ok(self
            .store
            .hold_letter(letter, self.holder, now_ms, now_ms + for_ms)?)
    }

    /// Whether another process holds the letter of `head` at `now_ms`.
    pub fn held_elsewhere(&self, head: &LetterHead, now_ms: i64) -> bool {
        !Hold::lets(head.hold, self.holder, now_ms)
    }

    /// Everything `letter` owed went out (or can never go: its channel is gone).
    pub fn delivered(&self, letter: u64) -> Result<(), Refusal> {
        Ok(self.store.remove_letter(letter)?)
    }

    /// What a delivery ends with, in one call: the letter (if one was owed) is done, and the
    /// message showing a live game's board, `(channel, message)`, is remembered.
    pub fn delivered_showing(
        &self,
        letter: Option<u64>,
        board: Option<(u64, u64)>,
    ) -> Result<(), Refusal> {
        if let Some((channel, message)) = board {
            self.board_posted(channel, message)?;
        }
        match letter {
            Some(letter) => self.delivered(letter),
            None => Ok(()),
        }
    }
}

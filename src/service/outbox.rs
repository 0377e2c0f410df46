//! The outbox as the publisher sees it: every outcome of a change is stored with the change (see
//! `Service::commit`) and stays here until the publisher has delivered each of its parts.

use super::letter::{newer_than_this_build, outcome_of};
use super::*;
use crate::store::{Settled, Settlement};

/// Another process took a letter over since this one took its lease: this one must stop.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Fenced;

/// How long a letter a newer build wrote is left to that build (a deploy's overlap) before this
/// build delivers it as best it reads it: after a rollback no newer build is left to.
pub const NEWER_BUILD_WAIT_MS: i64 = 15 * 60_000;

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

    /// A nonce for posting this part of `letter` to `destination` (a channel, or the user a
    /// direct message goes to): stable over retries and restarts, so Discord returns the first
    /// message instead of making a second (at most 25 characters). Discord matches a nonce by
    /// its author alone, in any channel (resources/message, "Create Message", `enforce_nonce`),
    /// so one part going to two places (a direct message to each player) has two nonces.
    pub fn nonce(self, letter: u64, destination: u64) -> String {
        let bytes = self.key().into_bytes().into_iter();
        fnv1a(
            bytes
                .chain(letter.to_le_bytes())
                .chain(destination.to_le_bytes()),
        )
        .to_string()
    }
}

/// What a delivery did with its letter that the store is told in one step (`Service::settle`):
/// at the delivery's end, or before a failed part is handed back, so the outbox neither repeats
/// a part nor loses a direct message.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Parts that went out (the announcement with its message).
    pub sent: Vec<(Part, Option<u64>)>,
    /// Direct messages handed over to letters of their own.
    pub handed: Vec<Handed>,
    /// Everything the letter owed went out: it leaves the outbox.
    pub done: bool,
    /// On disk before anything else happens (what comes next depends on it surviving a crash).
    pub durably: bool,
    /// The message showing a live game's board, `(channel, message)` (for jump links).
    pub board: Option<(u64, u64)>,
}

/// A player's direct message handed over from a game's letter: to `reader` (who asked for one:
/// `/notify dm:on`), about the game in channel `about`.
#[derive(Clone, Debug)]
pub struct Handed {
    pub about: u64,
    pub reader: PlayerRef,
    pub text: String,
}

impl Progress {
    /// Whether the store has anything to be told.
    pub fn is_empty(&self) -> bool {
        self.sent.is_empty() && self.handed.is_empty() && !self.done && self.board.is_none()
    }
}

impl Delivery {
    pub fn has_sent(&self, part: Part) -> bool {
        self.letter.sent.contains(&part.key())
    }
}

impl Service {
    /// The letter that owes `outcome` in `ctx.channel`, made by `ctx`'s action. The process
    /// making it delivers it: the lease is given with it, so no other process's outbox takes
    /// it while this one answers.
    pub(super) fn letter_for(&self, ctx: &Ctx, outcome: &Outcome) -> Result<Letter, Refusal> {
        Ok(Letter {
            id: self.store.new_id()?,
            guild: ctx.guild,
            channel: ctx.channel,
            created_ms: ctx.now_ms,
            request: ctx.request.as_ref().map(|r| r.token.clone()),
            request_at_ms: ctx.request.as_ref().map(|r| r.issued_ms),
            sent: match ctx
                .request
                .as_ref()
                .is_some_and(|r| r.deferral.letter_written())
            {
                true => vec![Part::Deferred.key()],
                false => Vec::new(),
            },
            message: None,
            body: letter::body_of(outcome),
            lease: Some(Lease {
                holder: self.holder,
                until_ms: crate::clock::now_ms() + LEASE_MS,
                epoch: FIRST_EPOCH,
            }),
        })
    }

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

    /// The letters `channel` is still owed that were made before `letter`: a post of `letter`
    /// before them would overtake them.
    pub(super) fn owed_before(&self, channel: u64, letter: u64) -> Result<Vec<u64>, Refusal> {
        let heads = self.store.letter_heads()?;
        let before = heads
            .iter()
            .filter(|h| h.channel == channel && h.id < letter);
        Ok(before.map(|h| h.id).collect())
    }

    /// Which of `letters` are still owed.
    pub fn still_owed(&self, letters: &[u64]) -> Result<Vec<u64>, Refusal> {
        let mut owed = Vec::new();
        for &letter in letters {
            if self.store.letter(letter)?.is_some() {
                owed.push(letter);
            }
        }
        Ok(owed)
    }

    /// Every letter still owed, oldest first, by where and since when (the outbox loop's
    /// schedule; `delivery` reads one whole when its turn comes).
    pub fn owed(&self) -> Result<Vec<LetterHead>, Refusal> {
        Ok(self.store.letter_heads()?)
    }

    /// The outcome `letter` still owes at `now_ms`, if it owes one. One of a newer version is
    /// refused and let go of at once, so that its build may take it, for `NEWER_BUILD_WAIT_MS`
    /// from its making. Past that no newer build took it (a rollback): this build delivers
    /// what it reads of it (the newer build's fields dropped), or, if it reads nothing, passes
    /// it by (`None`) and keeps it for its build, so the channel's later letters still go out.
    pub fn delivery(&self, letter: u64, now_ms: i64) -> Result<Option<Delivery>, Refusal> {
        let Some(mut letter) = self.store.letter(letter)? else {
            return Ok(None);
        };
        if !newer_than_this_build(&letter) {
            return self.read_letter(letter);
        }
        if now_ms - letter.created_ms < NEWER_BUILD_WAIT_MS {
            self.leave_to_its_build(letter.id)?;
            return refuse(format!(
                "letter {} was written by a newer Bredon; it delivers it",
                letter.id
            ));
        }
        match outcome_of(letter.body.take()) {
            Ok(mut outcome) => {
                tracing::warn!(
                    letter = letter.id,
                    "a letter of a newer Bredon waited {} minutes with no newer build to deliver it; delivered as this build reads it",
                    NEWER_BUILD_WAIT_MS / 60_000
                );
                outcome.letter = Some(letter.id);
                outcome.guild = letter.guild;
                Ok(Some(Delivery { letter, outcome }))
            }
            Err(e) => {
                if self.passed_by.lock().expect("passed by").insert(letter.id) {
                    tracing::warn!(
                        letter = letter.id,
                        error = %e,
                        "a letter of a newer Bredon cannot be read by this build; kept for it, and the channel's later letters go past it"
                    );
                }
                self.leave_to_its_build(letter.id)?;
                Ok(None)
            }
        }
    }

    /// Lets go at once of the lease this process took on letter `id`, a newer build's, so that
    /// a process of that build may take it.
    fn leave_to_its_build(&self, id: u64) -> Result<(), Refusal> {
        self.store
            .lease_letter(id, self.holder, i64::MIN, i64::MIN)?;
        Ok(())
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

    /// Tells the store what a delivery did with `letter` (leased as `epoch`), in one step:
    /// `progress`'s parts noted, its direct messages handed over to letters of their own (each
    /// in its reader's queue, so a direct message kept waiting never keeps the game's channel
    /// waiting; leased to this process, as any letter it makes), the letter removed when done, and a live
    /// board's message remembered. The ids of the letters handed over now, or `Fenced` when
    /// another process took `letter` over since (nothing is written: this one must stop).
    pub fn settle(
        &self,
        letter: Option<(u64, u64)>,
        progress: Progress,
        now_ms: i64,
    ) -> Result<Result<Vec<u64>, Fenced>, Refusal> {
        if let Some((channel, message)) = progress.board {
            self.board_posted(channel, message)?;
        }
        let Some((letter, epoch)) = letter else {
            return Ok(Ok(Vec::new()));
        };
        let mut settlement = Settlement {
            sent: progress
                .sent
                .iter()
                .map(|(part, message)| (part.key(), *message))
                .collect(),
            handed: Vec::new(),
            done: progress.done,
        };
        for handed in progress.handed {
            let part = Part::Direct(handed.reader.id).key();
            settlement
                .handed
                .push((part, self.direct_letter(handed, now_ms)?));
        }
        let settled = self
            .store
            .settle_letter(letter, self.holder, epoch, &settlement)?;
        match settled {
            Settled::Now(own) => {
                if progress.done || progress.durably {
                    self.store.flush()?;
                }
                Ok(Ok(own))
            }
            Settled::Fenced => Ok(Err(Fenced)),
        }
    }

    /// A letter of its own for a direct message handed over from a game's letter: in its
    /// reader's queue (the reader's id stands for the channel, as for a digest; no server's),
    /// told in `about` when the reader's direct messages are closed.
    fn direct_letter(&self, handed: Handed, now_ms: i64) -> Result<Letter, Refusal> {
        let outcome = Outcome {
            text: handed.text,
            about: Some(handed.about),
            direct_only: true,
            direct: vec![handed.reader.clone()],
            ..Outcome::default()
        };
        self.letter_for(&Ctx::of_bredon(0, handed.reader.id, now_ms), &outcome)
    }

    /// Takes the right to deliver `letter` for `for_ms` (the outbox loop, before it delivers):
    /// the epoch of its lease, or `None` while another process's lease runs, or once it is
    /// delivered.
    pub fn lease_letter(
        &self,
        letter: u64,
        now_ms: i64,
        for_ms: i64,
    ) -> Result<Option<u64>, Refusal> {
        Ok(self
            .store
            .lease_letter(letter, self.holder, now_ms, now_ms + for_ms)?)
    }

    /// Renews this process's lease on `letter` (taken as `epoch`) for `LEASE_MS` from `now_ms`:
    /// false when another process took the letter over since, or it is gone.
    pub fn renew_letter(&self, letter: u64, epoch: u64, now_ms: i64) -> Result<bool, Refusal> {
        Ok(self
            .store
            .renew_letter(letter, self.holder, epoch, now_ms + LEASE_MS)?)
    }

    /// Lets go of this process's lease on `letter` (taken as `epoch`) after a failed try, so
    /// that any process may take the next one at once.
    pub fn release_letter(&self, letter: u64, epoch: u64) -> Result<(), Refusal> {
        self.store
            .renew_letter(letter, self.holder, epoch, i64::MIN)?;
        Ok(())
    }

    /// Whether another process's lease on the letter of `head` runs at `now_ms`.
    pub fn leased_elsewhere(&self, head: &LetterHead, now_ms: i64) -> bool {
        !Lease::lets(head.lease, self.holder, now_ms)
    }

    /// Everything `letter` owed went out (or can never go: its channel is gone).
    pub fn delivered(&self, letter: u64) -> Result<(), Refusal> {
        Ok(self.store.remove_letter(letter)?)
    }
}

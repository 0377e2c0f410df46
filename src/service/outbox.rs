//! The outbox as the publisher sees it: every outcome of a change is stored with the change (see
//! `Service::commit`) and stays here until the publisher has delivered each of its parts.

use super::letter::{newer_than_this_build, outcome_of};
use super::*;
use crate::store::HandedOver;

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

    /// Whether `channel` is still owed a letter made before `letter`: a post of `letter` now
    /// would overtake it, so `letter` is left to the outbox, which delivers a channel's letters
    /// in the order they were made.
    pub fn owes_before(&self, channel: u64, letter: u64) -> Result<bool, Refusal> {
        let heads = self.store.letter_heads()?;
        Ok(heads.iter().any(|h| h.channel == channel && h.id < letter))
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
            .hold_letter(id, self.holder, i64::MIN, i64::MIN)?;
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

    /// Notes that `part` of `letter` went out (as `message`, for the announcement), under the
    /// lease this process took as `epoch`: false when another process took the letter over
    /// since (nothing is written; this one must stop). `durably` when what happens next
    /// depends on it surviving a crash.
    pub fn part_sent(
        &self,
        letter: u64,
        epoch: u64,
        part: Part,
        message: Option<u64>,
        durably: bool,
    ) -> Result<bool, Refusal> {
        let noted = self
            .store
            .note_part(letter, self.holder, epoch, &part.key(), message)?;
        if noted && durably {
            self.store.flush()?;
        }
        Ok(noted)
    }

    /// Hands the direct message `text` for `reader` (who asked for one: `/notify dm:on`) over
    /// from `letter`, held as `epoch`, to a letter of its own in the reader's queue (the
    /// reader's id stands for it, as for a digest), so that a direct message held long never
    /// holds the game's channel; one whose direct messages are closed is told in `about`. The
    /// new letter is held by this process, as any it makes: its id, or `None` when nothing
    /// was written (handed over before, or `Fenced`: another process took `letter` over, and
    /// this one must stop).
    pub fn hand_over_direct(
        &self,
        letter: u64,
        epoch: u64,
        about: u64,
        reader: PlayerRef,
        text: String,
        now_ms: i64,
    ) -> Result<Result<Option<u64>, Fenced>, Refusal> {
        let outcome = Outcome {
            text,
            about: Some(about),
            direct_only: true,
            direct: vec![reader.clone()],
            ..Outcome::default()
        };
        // A direct message belongs to no server's queue.
        let own = self.letter_for(&Ctx::of_bredon(0, reader.id, now_ms), &outcome)?;
        let part = Part::Direct(reader.id).key();
        let handed = self
            .store
            .hand_over_part(letter, self.holder, epoch, &part, &own)?;
        Ok(match handed {
            HandedOver::Now => Ok(Some(own.id)),
            HandedOver::Before => Ok(None),
            HandedOver::Fenced => Err(Fenced),
        })
    }

    /// Takes the right to deliver `letter` for `for_ms` (the outbox loop, before it delivers):
    /// the epoch it is held under, or `None` while another process holds it, or once it is
    /// delivered.
    pub fn hold_letter(
        &self,
        letter: u64,
        now_ms: i64,
        for_ms: i64,
    ) -> Result<Option<u64>, Refusal> {
        Ok(self
            .store
            .hold_letter(letter, self.holder, now_ms, now_ms + for_ms)?)
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

    /// Whether another process holds the letter of `head` at `now_ms`.
    pub fn held_elsewhere(&self, head: &LetterHead, now_ms: i64) -> bool {
        !Hold::lets(head.hold, self.holder, now_ms)
    }

    /// Everything `letter` owed went out (or can never go: its channel is gone).
    pub fn delivered(&self, letter: u64) -> Result<(), Refusal> {
        Ok(self.store.remove_letter(letter)?)
    }

    /// What a delivery ends with, in one call: the letter (if one was owed, with the epoch
    /// it was delivered under) is done, and the message showing a live game's board,
    /// `(channel, message)`, is remembered. False when another process took the letter over:
    /// it stays, for that one.
    pub fn delivered_showing(
        &self,
        letter: Option<(u64, u64)>,
        board: Option<(u64, u64)>,
    ) -> Result<bool, Refusal> {
        if let Some((channel, message)) = board {
            self.board_posted(channel, message)?;
        }
        match letter {
            Some((letter, epoch)) => {
                Ok(self.store.remove_held_letter(letter, self.holder, epoch)?)
            }
            None => Ok(true),
        }
    }
}

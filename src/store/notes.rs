//! The `notes` tree: each player's private notes on a game, under its server, its id and the
//! player (guild ++ game ++ user), kept apart from the game's record so they outlive its end and
//! never ride along in anything the game's record goes into (posts, the PTN, analyses).

use super::records::{LiveGame, PrivateNote};
use super::tx::{Tree, Tx, TxResult};
use super::{encode, tx_decode, Store, StoreError, TxAbort};

fn key(guild: u64, game: u64, user: u64) -> Vec<u8> {
    [guild, game, user]
        .iter()
        .flat_map(|n| n.to_be_bytes())
        .collect()
}

impl Store {
    /// `user`'s notes on game `game` of `guild`, oldest first.
    pub fn notes(&self, guild: u64, game: u64, user: u64) -> Result<Vec<PrivateNote>, StoreError> {
        Ok(self
            .get(Tree::Notes, &key(guild, game, user))?
            .unwrap_or_default())
    }

    /// Appends `note` to `user`'s notes on `game` unless they hold `max` already; how many they
    /// hold then. One transaction, so two notes written at once are both kept.
    pub fn add_note(
        &self,
        (guild, game, user): (u64, u64, u64),
        note: &PrivateNote,
        max: usize,
    ) -> Result<Option<usize>, StoreError> {
        let key = key(guild, game, user);
        self.kv
            .transaction(&[Tree::Notes], |tx| {
                let mut notes: Vec<PrivateNote> = match tx.get(Tree::Notes, &key)? {
                    Some(bytes) => tx_decode("notes", &bytes)?,
                    None => Vec::new(),
                };
                if notes.len() >= max {
                    return Ok(None);
                }
                notes.push(note.clone());
                tx.insert(Tree::Notes, &key, &encode(&notes))?;
                Ok(Some(notes.len()))
            })
            .map_err(TxAbort::into_store_error)
    }

    /// Inside the change that takes plies of `old` back (`new` has fewer): each player's notes
    /// written after a ply taken back now belong after the last ply left, as the README says.
    pub(super) fn keep_notes_on_plies_left(
        old: &LiveGame,
        new: &LiveGame,
        tx: &dyn Tx,
    ) -> TxResult<()> {
        let left = new.plies.len();
        if old.id != new.id || left >= old.plies.len() {
            return Ok(());
        }
        for player in &new.players {
            let key = key(new.guild, new.id, player.id);
            let Some(bytes) = tx.get(Tree::Notes, &key)? else {
                continue;
            };
            let mut notes: Vec<PrivateNote> = tx_decode("notes", &bytes)?;
            if notes.iter().all(|n| n.ply <= left) {
                continue;
            }
            for note in &mut notes {
                note.ply = note.ply.min(left);
            }
            tx.insert(Tree::Notes, &key, &encode(&notes))?;
        }
        Ok(())
    }
}

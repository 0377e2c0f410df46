//! The `analyses` tree: the newest analysis of each finished game of a server (guild ++ game),
//! as `/analyze` posted it, kept for the game's web page. A game analysed again keeps the newer.

use super::records::KeptAnalysis;
use super::tx::Tree;
use super::{encode, Store, StoreError};

fn key(guild: u64, game: u64) -> Vec<u8> {
    [guild, game].iter().flat_map(|n| n.to_be_bytes()).collect()
}

impl Store {
    /// The analysis kept of finished game `game` (its id) of `guild`, if it was analysed.
    pub fn analysis(&self, guild: u64, game: u64) -> Result<Option<KeptAnalysis>, StoreError> {
        self.get(Tree::Analyses, &key(guild, game))
    }

    pub fn keep_analysis(
        &self,
        guild: u64,
        game: u64,
        analysis: &KeptAnalysis,
    ) -> Result<(), StoreError> {
        self.kv
            .insert(Tree::Analyses, &key(guild, game), &encode(analysis))
    }
}

//! University coins: wallets per server and player, moved only inside a change's transaction
//! and never below zero.

use super::records::Wallet;
use super::tx::{abort, Tree, Tx, TxResult};
use super::{decode_all, encode, key2, tx_decode, CoinChange, Store, StoreError, TxAbort};

impl Store {
    pub(super) fn move_coins(coins: &[CoinChange], tx: &dyn Tx) -> TxResult<()> {
        for c in coins {
            let key = key2(c.guild, c.user.id);
            let balance = match tx.get(Tree::Wallets, &key)? {
                Some(b) => tx_decode::<Wallet>("wallet", &b)?.balance,
                None => c.start,
            };
            if balance + c.delta < 0 {
                return abort(TxAbort::Broke(c.user.clone(), balance));
            }
            let wallet = Wallet {
                guild: c.guild,
                user: c.user.clone(),
                balance: balance + c.delta,
            };
            tx.insert(Tree::Wallets, &key, &encode(&wallet))?;
        }
        Ok(())
    }

    /// `user`'s coins in `guild`: `start` (the server's starting balance) until they have a wallet.
    pub fn coins(&self, guild: u64, user: u64, start: i64) -> Result<i64, StoreError> {
        Ok(self
            .get::<Wallet>(Tree::Wallets, &key2(guild, user))?
            .map_or(start, |w| w.balance))
    }

    /// Every wallet of `guild`, richest first.
    pub fn wallets(&self, guild: u64) -> Result<Vec<Wallet>, StoreError> {
        let mut out: Vec<Wallet> =
            decode_all("wallet", self.kv.scan(Tree::Wallets, &guild.to_be_bytes())?)?;
        out.sort_by(|a, b| {
            b.balance
                .cmp(&a.balance)
                .then(a.user.name.cmp(&b.user.name))
        });
        Ok(out)
    }
}

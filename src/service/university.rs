//! The rulebook's University rules: coins per server, an ante of 10 each, a sealed bid for the
//! first move, 2 coins owed for each Tak called against you (not for the same caller twice in a
//! row), and the pot plus a bonus for the winner. Every movement is stored with the change that
//! causes it, and balances never go below zero.

use super::{refuse, Ctx, Outcome, Refusal, Service};
use crate::game::{Ending, Match};
use crate::store::records::*;
use crate::store::CoinChange;

pub const ANTE: i64 = 10;
pub const TAK_FEE: i64 = 2;

/// What `/bid` did: a sealed bid (told only to the bidder), or the last bid, which settles who
/// moves first (told to everyone).
#[derive(Debug)]
pub enum Bid {
    Sealed(String),
    Settled(Box<Outcome>),
}

/// Coins moving in one change, and their ledger lines.
#[derive(Default)]
pub(super) struct Moves {
    pub changes: Vec<CoinChange>,
    pub lines: Vec<CoinMove>,
}

impl Moves {
    pub fn add(&mut self, game: &LiveGame, start: i64, who: &PlayerRef, delta: i64, why: &str) {
        if delta == 0 {
            return;
        }
        self.changes.push(CoinChange {
            guild: game.guild,
            user: who.clone(),
            delta,
            start,
        });
        self.lines.push(CoinMove {
            user: who.id,
            delta,
            why: why.to_string(),
            ply: game.plies.len(),
        });
    }
}

impl Service {
    fn starting_coins(&self, guild: u64) -> Result<i64, Refusal> {
        Ok(self.store.settings(guild)?.starting_coins)
    }

    /// `user`'s coins in this server.
    pub fn wallet(&self, ctx: &Ctx, user: u64) -> Result<i64, Refusal> {
        let start = self.starting_coins(ctx.guild)?;
        Ok(self.store.coins(ctx.guild, user, start)?)
    }

    /// The server's wallets, richest first.
    pub fn coin_leaderboard(&self, ctx: &Ctx) -> Result<Vec<Wallet>, Refusal> {
        Ok(self.store.wallets(ctx.guild)?)
    }

    /// The coins a player starts with in this server (moderators; 10 to 1,000,000). Wallets
    /// already made keep their balance.
    pub fn set_starting_coins(&self, ctx: &Ctx, coins: i64) -> Result<GuildSettings, Refusal> {
        self.change_settings(ctx, |s| {
            if !(ANTE..=1_000_000).contains(&coins) {
                return refuse(format!(
                    "a starting balance of {coins} is not allowed: choose {ANTE} to 1000000"
                ));
            }
            s.starting_coins = coins;
            Ok(())
        })
    }

    /// The antes of a new University game: the coins and a purse waiting for bids.
    pub(super) fn ante(&self, game: &mut LiveGame) -> Result<Moves, Refusal> {
        let start = self.starting_coins(game.guild)?;
        for p in &game.players {
            let has = self.store.coins(game.guild, p.id, start)?;
            if has < ANTE {
                return refuse(format!(
                    "{} has {has} coins; a University game needs an ante of {ANTE} from each player",
                    p.name
                ));
            }
        }
        let mut moves = Moves::default();
        for p in game.players.clone() {
            moves.add(game, start, &p, -ANTE, "ante");
        }
        game.purse = Some(Purse {
            pot: 2 * ANTE,
            ledger: moves.lines.clone(),
            ..Purse::default()
        });
        Ok(moves)
    }

    /// A sealed bid for the first move. The second bid settles: the higher bidder takes White
    /// and pays their bid into the pot; equal bids are decided by the game's id (even: the
    /// player listed first, the challenger's seat) and the winner pays.
    pub fn bid(&self, ctx: &Ctx, coins: i64) -> Result<Bid, Refusal> {
        let mut game = self.live(ctx)?;
        Self::player_seat(&game, ctx)?;
        let Some(mut purse) = game.purse.clone() else {
            return refuse("this game is not played for coins: bids are for University games");
        };
        if purse.settled {
            return refuse("the bidding is over: the game is on");
        }
        if purse.bids.iter().any(|(u, _)| *u == ctx.user.id) {
            return refuse("you have bid already; bids are sealed and final");
        }
        let start = self.starting_coins(ctx.guild)?;
        let has = self.store.coins(ctx.guild, ctx.user.id, start)?;
        if !(0..=has).contains(&coins) {
            return refuse(format!(
                "you can bid 0 to {has} coins (what you have after the ante)"
            ));
        }
        purse.bids.push((ctx.user.id, coins));
        if purse.bids.len() < 2 {
            game.purse = Some(purse);
            self.update(&mut game)?;
            return Ok(Bid::Sealed(format!(
                "Your bid of {coins} is sealed. The other player has not bid yet."
            )));
        }
        let bid_of = |p: &PlayerRef| {
            purse
                .bids
                .iter()
                .find(|(u, _)| *u == p.id)
                .map_or(0, |(_, c)| *c)
        };
        let [a, b] = [bid_of(&game.players[0]), bid_of(&game.players[1])];
        let first = match a.cmp(&b) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => (game.id % 2) as usize,
        };
        // The winning bid first, whatever order the players were listed in.
        let (winner, loser) = (&game.players[first], &game.players[1 - first]);
        let bids = [a, b];
        let bids_text = format!(
            "Bids: {} {}, {} {}{}.",
            winner.name,
            bids[first],
            loser.name,
            bids[1 - first],
            if a == b {
                " (a tie, decided by lot)"
            } else {
                ""
            }
        );
        if first == 1 {
            game.players.swap(0, 1);
        }
        let white = game.players[0].clone();
        let price = a.max(b);
        let mut moves = Moves::default();
        moves.add(&game, start, &white, -price, "bid for the first move");
        purse.pot += price;
        purse.settled = true;
        purse.ledger.extend(moves.lines.clone());
        let pot = purse.pot;
        game.purse = Some(purse);
        let g = Self::rebuild(&game)?;
        self.set_timers(&mut game, white.id, ctx.now_ms)?;
        let outcome = self.update_announcing(ctx, &mut game, moves.changes, |game| {
            Ok(Outcome {
                text: format!(
                    "{bids_text} {} moves first (White) and pays {price} into the pot (pot {pot}). \
                     {} (White) vs {} (Black). {} to move.",
                    white.name, game.players[0].name, game.players[1].name, white.name
                ),
                direct: self.wants_direct(&white)?,
                ping: vec![white.clone()],
                deadline_ms: game.timeout_due_ms,
                prompt: Self::board_prompt(game),
                board: Self::shown(game, g, ctx.now_ms),
                ..Outcome::default()
            })
        })?;
        Ok(Bid::Settled(Box::new(outcome)))
    }

    /// Plies wait for the bids: until they are settled, the seats are not even known.
    pub(super) fn refuse_while_bidding(game: &LiveGame) -> Result<(), Refusal> {
        let Some(purse) = game.purse.as_ref().filter(|p| !p.settled) else {
            return Ok(());
        };
        let waiting: Vec<&str> = game
            .players
            .iter()
            .filter(|p| !purse.bids.iter().any(|(u, _)| *u == p.id))
            .map(|p| p.name.as_str())
            .collect();
        refuse(format!(
            "the players are still bidding for the first move (waiting for {}): /bid",
            waiting.join(" and ")
        ))
    }

    /// Before `mover` plays: pays the Tak fee they owe, or refuses the ply if they cannot.
    pub(super) fn before_ply(
        &self,
        game: &mut LiveGame,
        mover: &PlayerRef,
    ) -> Result<Moves, Refusal> {
        let mut moves = Moves::default();
        if game.purse.as_ref().and_then(|p| p.owes) != Some(mover.id) {
            return Ok(moves);
        }
        let start = self.starting_coins(game.guild)?;
        let has = self.store.coins(game.guild, mover.id, start)?;
        if has < TAK_FEE {
            return refuse(format!(
                "you owe {TAK_FEE} coins for the Tak against you but have {has}: you cannot \
                 pay, so you must resign (/resign)"
            ));
        }
        moves.add(game, start, mover, -TAK_FEE, "paid for a Tak");
        if let Some(purse) = game.purse.as_mut() {
            purse.owes = None;
            purse.pot += TAK_FEE;
            purse.ledger.extend(moves.lines.clone());
        }
        Ok(moves)
    }

    /// After a ply that made Tak: the opponent owes the fee unless the mover called the last
    /// Tak too. Returns the sentence to add.
    pub(super) fn after_tak(game: &mut LiveGame, mover: &PlayerRef) -> Option<String> {
        let opponent = game.players.iter().find(|p| p.id != mover.id)?.clone();
        let purse = game.purse.as_mut()?;
        if purse.caller == Some(mover.id) {
            return Some(format!("(No fee: {} called the last Tak too.)", mover.name));
        }
        purse.caller = Some(mover.id);
        purse.owes = Some(opponent.id);
        Some(format!(
            "{} owes {TAK_FEE} coins for the Tak: playing on pays them, or resign.",
            opponent.name
        ))
    }

    /// The end of a University game: the winner takes the pot and, from the loser, as many coins
    /// as pieces are left in the winner's reserve (at most what the loser has); a draw splits the
    /// pot (an odd coin to Black); an aborted game gives everyone back what they paid in.
    pub(super) fn payout(
        &self,
        game: &LiveGame,
        g: &Match,
        result: Ending,
        pending: &[CoinChange],
    ) -> Result<(Moves, String), Refusal> {
        let mut moves = Moves::default();
        let Some(purse) = &game.purse else {
            return Ok((moves, String::new()));
        };
        let start = self.starting_coins(game.guild)?;
        let balance = |p: &PlayerRef| -> Result<i64, Refusal> {
            let stored = self.store.coins(game.guild, p.id, start)?;
            let moving: i64 = pending
                .iter()
                .filter(|c| c.user.id == p.id)
                .map(|c| c.delta)
                .sum();
            Ok(stored + moving)
        };
        let pot = purse.pot;
        let text = if result.is_abandoned() {
            for p in &game.players {
                let paid: i64 = purse
                    .ledger
                    .iter()
                    .filter(|m| m.user == p.id)
                    .map(|m| m.delta)
                    .sum();
                moves.add(game, start, p, -paid, "refund (game aborted)");
            }
            "Coins paid in are refunded.".to_string()
        } else if let Some(w) = result.winner() {
            let winner = &game.players[w.index()];
            let loser = &game.players[1 - w.index()];
            let reserve = g.points(w) as i64 - (game.settings.size * game.settings.size) as i64;
            let bonus = reserve.max(0).min(balance(loser)?);
            moves.add(game, start, winner, pot, "won the pot");
            moves.add(game, start, loser, -bonus, "bonus to the winner");
            moves.add(game, start, winner, bonus, "bonus from the loser");
            format!(
                "{} takes the pot of {pot} and {bonus} coins from {} (the pieces left in the \
                 winner's reserve{}).",
                winner.name,
                loser.name,
                if bonus < reserve {
                    ", as many as they had"
                } else {
                    ""
                }
            )
        } else {
            let half = pot / 2;
            moves.add(
                game,
                start,
                &game.players[0],
                half,
                "half of the pot (draw)",
            );
            moves.add(
                game,
                start,
                &game.players[1],
                pot - half,
                "half of the pot (draw)",
            );
            format!("The pot of {pot} is split: {half} and {}.", pot - half)
        };
        Ok((moves, text))
    }
}

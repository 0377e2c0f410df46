//! What the benches of the whole bot share: its games started through the fake Discord.

use crate::fake_discord::{FakeDiscord, TestUser};
use serde_json::json;

/// The channel of the bot's game `i`.
pub fn channel(i: u64) -> u64 {
    777_000_000_000 + i
}

/// alice challenges bob to a 6x6 game in each of `games` channels, bob accepts, and each game's
/// first board arrives.
pub async fn start_games(fake: &FakeDiscord, games: u64) {
    let (alice, bob) = (TestUser::new(111, "alice"), TestUser::new(222, "bob"));
    for i in 0..games {
        let from = fake.requests().len();
        let options = json!([{ "name": "opponent", "type": 6, "value": "222" }, { "name": "size", "type": 4, "value": 6 }, { "name": "seat", "type": 4, "value": 0 }]);
        let t = fake.command(&alice, channel(i), "challenge", options);
        fake.wait_request(from, "challenge", |r| r.path.contains(&t))
            .await;
        let accept = fake.button(channel(i), "bredon:accept:").unwrap();
        let from = fake.requests().len();
        fake.press(&bob, channel(i), &accept);
        // Acknowledged, then the game's first board as a new message in the channel.
        let posts = format!("/channels/{}/messages", channel(i));
        fake.wait_request(from, "accept", |r| {
            r.method == "POST" && r.path.ends_with(&posts) && r.text().contains("board.png")
        })
        .await;
    }
}

//! Installs outside servers: a user's install (its commands offered in DMs, group DMs and
//! servers that never added the app), the DM with the bot and group DMs where the app is no
//! member, and the interactions Discord sends there.

use super::*;

impl FakeDiscord {
    /// An interaction in a server that never added the app: only a user who installed it can
    /// use its commands there ("Installation Context"), and the interaction says so: its
    /// `authorizing_integration_owners` hold the user's install alone.
    pub(super) fn in_a_server_without_the_app(
        &self,
        payload: &mut Value,
        token: &str,
        user: &TestUser,
    ) {
        let by_user = self.state.user_installs.lock().unwrap().contains(&user.id);
        assert!(by_user, "Discord offers an app's commands in a server that did not add it only to a user who installed it");
        if payload["type"] == 2 {
            let name = payload["data"]["name"].as_str().unwrap_or_default();
            self.assert_offered(name, 0, true);
        }
        payload["authorizing_integration_owners"] = json!({ "1": user.id.to_string() });
        if let Some(ixn) = self.state.interactions.lock().unwrap().get_mut(token) {
            ixn.user_install_only = true;
        }
    }

    /// A channel of a server that never added the app, where a user who installed it may use
    /// its commands: the app may answer there (`PRIVATE_CHANNEL_APP`), and post nothing.
    pub fn server_without_bredon(&self) -> u64 {
        let (guild, id) = (self.state.new_snowflake(), self.state.new_snowflake());
        let channel = Channel {
            guild,
            bot_permissions: perms::PRIVATE_CHANNEL_APP,
            ..Channel::text()
        };
        self.state.channels.lock().unwrap().insert(id, channel);
        id
    }

    /// An interaction outside any server, as Discord sends it (interactions/receiving-and-
    /// responding, "Interaction Object"): no `guild_id` and no `member` but the `user`, the
    /// `context` (1 in a DM with the bot, 2 in other DMs and group DMs) and the installs that
    /// authorized it (`"1"`: the user's; `"0": "0"`: the server install, in the bot's DM). A
    /// command is offered only where its registration allows ("Interaction Contexts",
    /// "Installation Context"), and in a private channel only to a user who installed the app.
    pub(super) fn outside_servers(
        &self,
        payload: &mut Value,
        token: &str,
        user: &TestUser,
        channel: u64,
    ) {
        let bot_dm = self.state.is_bot_dm(channel);
        let installs = self.state.user_installs.lock().unwrap().clone();
        let recipients = self.state.with_channel(channel, |c| c.recipients.clone());
        // A command is the user's own install's; a button or a form on the app's message is
        // authorized by the install that made the message: a member's who installed it.
        let installer = match payload["type"].as_u64() {
            Some(2 | 4) => installs.iter().find(|&&u| u == user.id),
            _ => installs.iter().find(|u| recipients.contains(u)),
        };
        let by_user = installer.is_some();
        assert!(
            bot_dm || by_user,
            "Discord offers an app's commands in a DM or group DM only to a user who installed it"
        );
        let context = if bot_dm { 1 } else { 2 };
        if payload["type"] == 2 {
            let name = payload["data"]["name"].as_str().unwrap_or_default();
            self.assert_offered(name, context, by_user);
        }
        let object = payload.as_object_mut().unwrap();
        for key in ["guild_id", "member", "guild_locale"] {
            object.remove(key);
        }
        payload["user"] = user_json(user.id, &user.name, false);
        payload["context"] = json!(context);
        payload["authorizing_integration_owners"] = match installer {
            Some(id) => json!({ "1": id.to_string() }),
            None => json!({ "0": "0" }),
        };
        let (kind, recipients) = self
            .state
            .with_channel(channel, |c| (c.kind, c.recipients.clone()));
        let recipients: Vec<Value> = recipients
            .iter()
            .map(|&id| user_json(id, &test_name(id), false))
            .collect();
        payload["channel"] = json!({ "id": channel.to_string(), "type": kind, "flags": 0,
            "recipients": recipients });
        if let Some(ixn) = self.state.interactions.lock().unwrap().get_mut(token) {
            ixn.user_install_only = by_user;
        }
    }

    /// Panics unless the globally registered command `name` may be used in `context` through
    /// the installs there (a user's: integration type 1; in the bot's DM also the server's, 0).
    fn assert_offered(&self, name: &str, context: u64, by_user: bool) {
        let commands = self.state.commands.lock().unwrap();
        let global = commands
            .iter()
            .filter(|(path, _)| !path.contains("/guilds/"))
            .flat_map(|(_, list)| list.iter());
        let command = global
            .into_iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("/{name} is not registered globally: Discord offers server commands in that server only"));
        let listed = |key: &str, value: u64| {
            command[key]
                .as_array()
                .is_none_or(|a| a.iter().any(|v| v.as_u64() == Some(value)))
        };
        assert!(
            listed("contexts", context),
            "/{name} is not offered in context {context}"
        );
        let installed = listed("integration_types", 1) && by_user
            || listed("integration_types", 0) && context == 1;
        assert!(installed, "/{name} is not installed where it is used");
    }

    /// `user` installs the app to their account (interactions/application-commands,
    /// "Installation Context": a user install): its commands follow them into DMs and group DMs.
    pub fn install_for_user(&self, user: &TestUser) {
        self.state.user_installs.lock().unwrap().push(user.id);
    }

    /// The DM channel between `user` and the app's bot user, where Bredon posts as anywhere.
    pub fn bot_dm(&self, user: &TestUser) -> u64 {
        self.state.dm_channel(user.id)
    }

    /// A group DM of `members`, where the app is no member: it may answer interactions there,
    /// and nothing else (`PRIVATE_CHANNEL_APP`; a post is refused 403/50001 Missing Access).
    pub fn group_dm(&self, members: &[&TestUser]) -> u64 {
        let id = self.state.new_snowflake();
        let members = members.iter().map(|u| u.id).collect();
        let channel = Channel::private(3, members, perms::PRIVATE_CHANNEL_APP);
        self.state.channels.lock().unwrap().insert(id, channel);
        id
    }
}

//! Slash command registration at start-up. It runs after the handlers are ready, so an
//! interaction that arrives meanwhile is answered at once instead of waiting behind it, and it
//! is skipped when Discord already holds the same commands: a restart costs one GET, and the
//! registration rate limit (200 creates a day per guild) is never spent on nothing.

use super::delivery::failure;
use poise::serenity_prelude as serenity;
use serde_json::Value;

/// Where the commands live: in one server while developing, else everywhere.
#[derive(Clone, Copy)]
pub enum Scope {
    Guild(serenity::GuildId),
    Global,
}

/// Makes Discord's commands `wanted`, unless they are already. `Ok(true)` when it wrote them.
pub async fn sync(
    http: &serenity::Http,
    scope: Scope,
    wanted: Vec<serenity::CreateCommand>,
) -> Result<bool, String> {
    let registered = match scope {
        Scope::Guild(guild) => guild.get_commands(http).await,
        Scope::Global => serenity::Command::get_global_commands(http).await,
    };
    // A failed look only costs a registration that was perhaps not needed.
    if let Ok(registered) = registered {
        let wanted = serde_json::to_value(&wanted).unwrap_or_default();
        let registered = serde_json::to_value(&registered).unwrap_or_default();
        match difference(&wanted, &registered) {
            None => return Ok(false),
            Some(change) => tracing::info!(%change, "the slash commands changed"),
        }
    }
    let written = match scope {
        Scope::Guild(guild) => guild.set_commands(http, wanted).await.map(drop),
        Scope::Global => serenity::Command::set_global_commands(http, wanted)
            .await
            .map(drop),
    };
    written.map(|()| true).map_err(|e| {
        format!(
            "registering the slash commands failed: {}. Check DISCORD_TOKEN, and that \
             DISCORD_GUILD_ID (if set) is a server the bot was invited to with the \
             applications.commands scope",
            failure::describe(&e)
        )
    })
}

/// What differs between the commands wanted and those Discord holds, as a path to the first
/// difference (`/move options.0.required`); `None` when Discord holds every field Bredon sets
/// with the same value. Fields Discord adds (ids, versions, defaults) are ignored.
fn difference(wanted: &Value, registered: &Value) -> Option<String> {
    let (Some(wanted), Some(registered)) = (wanted.as_array(), registered.as_array()) else {
        return Some("no command list".into());
    };
    if wanted.len() != registered.len() {
        return Some(format!(
            "{} commands, not {}",
            wanted.len(),
            registered.len()
        ));
    }
    wanted.iter().find_map(|w| {
        let name = w["name"].as_str().unwrap_or_default();
        match registered.iter().find(|r| r["name"] == w["name"]) {
            None => Some(format!("/{name} is new")),
            Some(r) => uncovered(r, w).map(|path| format!("/{name} {path}")),
        }
    })
}

/// Where `registered` lacks something `wanted` says. An unset value (null, false, empty)
/// matches its absence, lists match item by item, and a number matches its decimal string (as
/// Discord writes permission sets) and its float.
fn uncovered(registered: &Value, wanted: &Value) -> Option<String> {
    match (wanted, registered) {
        (Value::Object(w), _) => w.iter().find_map(|(key, value)| {
            let there = registered.get(key).unwrap_or(&Value::Null);
            let differs = if unset(value) {
                (!unset(there)).then(|| format!(": unset, Discord has {there}"))
            } else {
                uncovered(there, value)
            };
            differs.map(|inner| join(key, &inner))
        }),
        (Value::Array(w), Value::Array(r)) if w.len() == r.len() => w
            .iter()
            .zip(r)
            .enumerate()
            .find_map(|(i, (w, r))| uncovered(r, w).map(|inner| join(&i.to_string(), &inner))),
        (Value::Number(n), Value::String(s)) | (Value::String(s), Value::Number(n))
            if n.to_string() == *s =>
        {
            None
        }
        // serenity reads a bound such as `max_value` back as a float, losing the last digits
        // of a large integer (2^53 - 1): equal to a float's precision is equal.
        (Value::Number(w), Value::Number(r)) if close(w.as_f64(), r.as_f64()) => None,
        _ => (wanted != registered).then(|| format!(": {wanted}, Discord has {registered}")),
    }
}

fn close(a: Option<f64>, b: Option<f64>) -> bool {
    a.zip(b)
        .is_some_and(|(a, b)| (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0))
}

fn join(key: &str, inner: &str) -> String {
    if inner.starts_with(':') {
        format!("{key}{inner}")
    } else {
        format!("{key}.{inner}")
    }
}

fn unset(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(false) => true,
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        Value::String(s) => s.is_empty(),
        Value::Number(_) | Value::Bool(true) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn wanted() -> Value {
        json!([{
            "name": "move", "description": "Play a ply", "type": 1,
            "default_member_permissions": null, "contexts": [0],
            "options": [{ "name": "ply", "type": 3, "required": true, "autocomplete": true,
                          "max_length": 9007199254740991_u64 }]
        }])
    }

    #[test]
    fn what_discord_adds_does_not_count_as_a_change() {
        let registered = json!([{
            "id": "1", "application_id": "2", "version": "3", "name": "move",
            "description": "Play a ply", "type": 1, "nsfw": false, "dm_permission": true,
            "contexts": [0], "integration_types": [0],
            "options": [{ "name": "ply", "type": 3, "required": true, "autocomplete": true,
                          "max_length": 9007199254740990.0,
                          "description_localizations": null }]
        }]);
        assert_eq!(difference(&wanted(), &registered), None);
    }

    #[test]
    fn a_changed_removed_or_added_field_or_command_does() {
        let base = json!([{
            "id": "1", "name": "move", "description": "Play a ply", "type": 1,
            "contexts": [0],
            "options": [{ "name": "ply", "type": 3, "required": true, "autocomplete": true,
                          "max_length": 9007199254740991_u64 }]
        }]);
        assert_eq!(difference(&wanted(), &base), None);
        let mut described = base.clone();
        described[0]["description"] = json!("Play a move");
        assert_eq!(
            difference(&wanted(), &described).as_deref(),
            Some("/move description: \"Play a ply\", Discord has \"Play a move\"")
        );
        let mut optional = base.clone();
        optional[0]["options"][0]["required"] = json!(false);
        let mut extra_option = base.clone();
        extra_option[0]["options"]
            .as_array_mut()
            .unwrap()
            .push(json!({ "name": "note", "type": 3 }));
        let mut extra_command = base.clone();
        extra_command
            .as_array_mut()
            .unwrap()
            .push(json!({ "name": "undo", "description": "Take back", "type": 1 }));
        let mut permissioned = base.clone();
        permissioned[0]["default_member_permissions"] = json!("8");
        for changed in [
            described,
            optional,
            extra_option,
            extra_command,
            permissioned,
            json!([]),
        ] {
            assert!(difference(&wanted(), &changed).is_some(), "{changed}");
        }
    }
}

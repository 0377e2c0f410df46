//! Every request body checked against Discord's own OpenAPI description
//! (github.com/discord/discord-api-spec, `specs/openapi.json`, vendored under
//! `tests/data/discord-api-spec/`): the operation is found by method and path template, and the
//! JSON body (or a multipart body's `payload_json`) must satisfy its request schema. Allowed are
//! only the documented ways serenity 0.12 writes what Discord accepts but the description does not
//! spell out, each normalised before the check (`normalise`).

use jsonschema::Validator;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

fn spec() -> &'static Value {
    static SPEC: OnceLock<Value> = OnceLock::new();
    SPEC.get_or_init(|| {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/discord-api-spec/openapi.json"
        );
        let text = std::fs::read_to_string(path).expect("the vendored OpenAPI description");
        serde_json::from_str(&text).expect("the OpenAPI description is JSON")
    })
}

/// The path template of the spec that `path` (below `/api/v10`) stands for: the one with most
/// literal segments among those that match.
fn template(path: &str) -> Option<&'static str> {
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let paths = spec()["paths"].as_object()?;
    paths
        .keys()
        .filter_map(|t| {
            let parts: Vec<&str> = t.trim_matches('/').split('/').collect();
            if parts.len() != segments.len() {
                return None;
            }
            let mut literal = 0;
            for (p, s) in parts.iter().zip(&segments) {
                if p.starts_with('{') {
                    continue;
                }
                if p != s {
                    return None;
                }
                literal += 1;
            }
            Some((literal, t.as_str()))
        })
        .max_by_key(|(literal, _)| *literal)
        .map(|(_, t)| t)
}

/// The request schema of an operation, compiled once, with the description's components beside it
/// so that its references resolve.
fn validator(template: &str, method: &str) -> Option<Arc<Validator>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Option<Arc<Validator>>>>> = OnceLock::new();
    let key = format!("{method} {template}");
    let cache = CACHE.get_or_init(Default::default);
    if let Some(v) = cache.lock().unwrap().get(&key) {
        return v.clone();
    }
    let operation = &spec()["paths"][template][method.to_ascii_lowercase()];
    let compiled = operation["requestBody"]["content"]["application/json"]["schema"]
        .as_object()
        .map(|schema| {
            let mut root = schema.clone();
            root.insert("components".into(), spec()["components"].clone());
            let root = Value::Object(root);
            Arc::new(
                jsonschema::options()
                    .with_draft(jsonschema::Draft::Draft202012)
                    .build(&root)
                    .unwrap_or_else(|e| panic!("the schema of {key} compiles: {e}")),
            )
        });
    cache.lock().unwrap().insert(key, compiled.clone());
    compiled
}

/// What is wrong with a request's body by Discord's description (`None`: nothing, or nothing
/// described for it).
pub fn check(method: &str, path: &str, body: Option<Value>) -> Option<String> {
    let mut body = body?;
    let template = template(path)?;
    let validator = validator(template, method)?;
    normalise(&mut body);
    let errors: Vec<String> = validator
        .iter_errors(&body)
        .take(3)
        .map(|e| format!("{}: {e}", e.instance_path))
        .collect();
    (!errors.is_empty()).then(|| {
        format!(
            "{method} {template} does not match Discord's description: {}",
            errors.join("; ")
        )
    })
}

/// serenity 0.12's ways of writing what Discord accepts: an upload's attachment id as an integer
/// (the description has snowflake strings; Discord's "Uploading Files" page numbers the uploads
/// 0, 1, ...), and permission bit sets as strings (topics/permissions: "serialized as a string";
/// the description types some of them as integers).
fn normalise(body: &mut Value) {
    match body {
        Value::Object(map) => {
            if let Some(Value::Array(attachments)) = map.get_mut("attachments") {
                for a in attachments {
                    if let Some(id) = a.get("id").and_then(Value::as_u64) {
                        a["id"] = Value::String(id.to_string());
                    }
                }
            }
            for key in ["default_member_permissions", "permissions", "allow", "deny"] {
                if let Some(Value::String(bits)) = map.get(key) {
                    if let Ok(bits) = bits.parse::<u64>() {
                        map.insert(key.into(), Value::from(bits));
                    }
                }
            }
            for v in map.values_mut() {
                normalise(v);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(normalise),
        _ => {}
    }
}

//! The code map's invariants, checked on the sources: files of `bot` and `service` stay small,
//! the bot and the web pages never read the store, and no file imports another round a circle.

use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, at any depth.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, &mut files);
    files
}

/// Every `.rs` file under `src/`, by module path (`["bot", "post"]`; `mod.rs` names its folder).
fn modules() -> BTreeMap<Vec<String>, PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = rust_files(&src);
    let mut modules = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap().with_extension("");
        let mut path: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into()).collect();
        if matches!(path.last().map(String::as_str), Some("mod" | "lib")) {
            path.pop();
        }
        if path != ["main"] {
            modules.insert(path, file);
        }
    }
    modules
}

/// The code of a file without comments, string contents and its unit tests.
fn code(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let text = text.split("#[cfg(test)]").next().unwrap();
    let mut out = String::new();
    for line in text.lines() {
        let line = line.split("//").next().unwrap();
        let mut in_string = false;
        for c in line.chars() {
            if c == '"' {
                in_string = !in_string;
                out.push(c);
            } else if !in_string {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths a file names from `crate`, `super` or `self`, made absolute, including each item
/// of a `use super::{a, b::c}` group.
fn paths(module: &[String], code: &str) -> Vec<Vec<String>> {
    let path =
        Regex::new(r"(?:^|[^\w:])((?:crate|super|self)(?:::\w+)*)(?:::\{([^{}]*)\})?").unwrap();
    // `pub(super)` and `pub(in crate::x)` say who may see an item, not what it uses.
    let visibility = Regex::new(r"pub\((?:crate|super|self|in [\w:]+)\)").unwrap();
    let code = visibility.replace_all(code, "pub");
    let mut out = Vec::new();
    for found in path.captures_iter(&code) {
        let mut base: Vec<String> = Vec::new();
        let mut segments = found[1].split("::").peekable();
        if segments.peek() == Some(&"crate") {
            segments.next();
        } else {
            base = module.to_vec();
            while let Some(&s) = segments.peek() {
                match s {
                    "super" => drop(base.pop()),
                    "self" => {}
                    _ => break,
                }
                segments.next();
            }
        }
        base.extend(segments.map(String::from));
        let Some(group) = found.get(2) else {
            out.push(base);
            continue;
        };
        // A group names its items, not the module that holds them.
        for item in group.as_str().split(',') {
            let first = item.trim().split("::").next().unwrap_or("").trim();
            if !first.is_empty() && first.chars().all(is_ident) {
                out.push([base.clone(), vec![first.to_string()]].concat());
            }
        }
    }
    out
}

/// `code` with its module's own children named from `self` (`outbox::run` becomes
/// `self::outbox::run`), so a parent's use of a child counts like any other path; a re-export
/// (`pub use child::A`) only says where `A` lives and is left as it is.
fn children_as_self<T>(
    module: &[String],
    modules: &BTreeMap<Vec<String>, T>,
    code: &str,
) -> String {
    let children: BTreeSet<&str> = modules
        .keys()
        .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
        .map(|m| m[module.len()].as_str())
        .collect();
    let named = Regex::new(r"(^|[^\w:])(\w+)::").unwrap();
    code.split_inclusive(';')
        .map(|stmt| {
            if is_reexport(stmt.trim_start()) {
                return stmt.to_string();
            }
            named
                .replace_all(stmt, |c: &regex::Captures| match children.contains(&c[2]) {
                    true => format!("{}self::{}::", &c[1], &c[2]),
                    false => c[0].to_string(),
                })
                .into_owned()
        })
        .collect()
}

/// Whether a statement only says where an item lives (`pub use child::X`).
fn is_reexport(stmt: &str) -> bool {
    stmt.starts_with("pub use ") || stmt.starts_with("pub(crate) use ")
}

#[test]
fn no_file_imports_another_round_a_circle() {
    let codes: BTreeMap<Vec<String>, String> =
        modules().into_iter().map(|(m, f)| (m, code(&f))).collect();
    let circles = circles(&codes);
    assert!(circles.is_empty(), "imports round a circle: {circles:#?}");
}

#[test]
fn a_parent_and_a_child_naming_each_other_are_a_circle() {
    let module = |path: &str| path.split("::").map(String::from).collect::<Vec<_>>();
    let parent = "mod child; pub struct Ground; fn run() { child::work(); }";
    let child = "use super::Ground; pub fn work() -> Ground { Ground }";
    let codes = BTreeMap::from([
        (module("layer"), parent.to_string()),
        (module("layer::child"), child.to_string()),
    ]);
    assert_eq!(
        circles(&codes),
        ["layer -> layer::child", "layer::child -> layer"]
    );
    let reexporting = "mod child; pub use child::work;";
    let codes = BTreeMap::from([
        (module("layer"), reexporting.to_string()),
        (module("layer::child"), "pub fn work() {}".to_string()),
        (module("other"), "use crate::layer::work;".to_string()),
    ]);
    assert!(
        circles(&codes).is_empty(),
        "a re-export only says where an item lives"
    );
    let by_bare_name = "mod child; pub use child::Part; pub struct Whole { part: Part }";
    let codes = BTreeMap::from([
        (module("layer"), by_bare_name.to_string()),
        (
            module("layer::child"),
            "use super::Whole; pub struct Part;".to_string(),
        ),
    ]);
    assert_eq!(
        circles(&codes),
        ["layer -> layer::child", "layer::child -> layer"],
        "a re-exported item used by its bare name is a use of the child"
    );
}

/// The edges between files (module paths, code without comments) that lie on a circle.
fn circles(codes: &BTreeMap<Vec<String>, String>) -> Vec<String> {
    let modules = codes;
    // `pub use child::{A, B}` in a module: A and B belong to the child's file.
    let mut reexported: BTreeMap<(Vec<String>, String), Vec<String>> = BTreeMap::new();
    for (module, code) in codes {
        for stmt in code.split(';') {
            let stmt = stmt.trim();
            let Some(rest) = stmt
                .strip_prefix("pub use ")
                .or_else(|| stmt.strip_prefix("pub(crate) use "))
            else {
                continue;
            };
            let Some((child, items)) = rest.split_once("::") else {
                continue;
            };
            if !child.chars().all(is_ident) || child == "crate" || child == "super" {
                continue;
            }
            let items = items.trim_matches(|c| c == '{' || c == '}' || c == ' ');
            for item in items.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let mut target = module.to_vec();
                target.push(child.to_string());
                reexported.insert((module.to_vec(), item.to_string()), target);
            }
        }
    }
    // The file a path lands in: its longest module prefix, or the child a re-export names.
    let file_of = |path: &[String]| -> Option<&Vec<String>> {
        (0..=path.len()).rev().find_map(|k| {
            let (module, _) = modules.get_key_value(&path[..k])?;
            let child = path
                .get(k)
                .and_then(|item| reexported.get(&(module.clone(), item.clone())))
                .and_then(|child| modules.get_key_value(child));
            Some(child.map_or(module, |(child, _)| child))
        })
    };
    let mut edges: BTreeMap<&Vec<String>, BTreeSet<&Vec<String>>> = BTreeMap::new();
    for (module, code) in codes {
        let code = children_as_self(module, modules, code);
        for path in paths(module, &code) {
            if let Some(target) = file_of(&path) {
                if target != module {
                    edges.entry(module).or_default().insert(target);
                }
            }
        }
        // A module using, by its bare name, an item it re-exports from its child uses that
        // child (`Change { puzzle: PuzzleChange }` beside `pub use puzzles::PuzzleChange`).
        let own: String = code
            .split_inclusive(';')
            .filter(|stmt| {
                let stmt = stmt.trim_start();
                !is_reexport(stmt) && !stmt.starts_with("mod ") && !stmt.starts_with("pub mod ")
            })
            .collect();
        let from = (module.clone(), String::new());
        for ((owner, item), child) in reexported.range(from..) {
            if owner != module {
                break;
            }
            let uses = Regex::new(&format!(r"(^|[^\w:]){}\b", regex::escape(item))).unwrap();
            if uses.is_match(&own) {
                if let Some((child, _)) = modules.get_key_value(child) {
                    edges.entry(module).or_default().insert(child);
                }
            }
        }
    }
    // A circle is an edge whose target reaches back to its source.
    let reaches = |from: &Vec<String>, to: &Vec<String>| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from];
        while let Some(m) = stack.pop() {
            if m == to {
                return true;
            }
            if seen.insert(m) {
                stack.extend(edges.get(m).into_iter().flatten().copied());
            }
        }
        false
    };
    let mut circles = Vec::new();
    for (from, targets) in &edges {
        for to in targets {
            if reaches(to, from) {
                circles.push(format!("{} -> {}", from.join("::"), to.join("::")));
            }
        }
    }
    circles
}

/// The code map's line for each file (`docs/DEVELOPING.md`: a layer's heading names its folder,
/// each line below it a file), by path under the crate.
fn code_map() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("docs/DEVELOPING.md")).unwrap();
    let heading = Regex::new(r"^\*\*`(src/[\w/.]*)`\*\*").unwrap();
    let file = Regex::new(r"^- `([\w/.]+\.rs)`").unwrap();
    let mut folder = String::new();
    let mut lines = BTreeMap::new();
    for line in text.lines() {
        if let Some(c) = heading.captures(line) {
            folder = c[1].trim_end_matches("mod.rs").to_string();
            lines.insert(c[1].to_string(), line.to_string());
        } else if let Some(c) = file.captures(line) {
            let path = match c[1].starts_with("src/") {
                true => c[1].to_string(),
                false => format!("{folder}{}", &c[1]),
            };
            lines.insert(path, line.to_string());
        }
    }
    lines
}

#[test]
fn files_stay_small_unless_all_of_one_kind_and_the_bot_and_the_web_never_read_the_store() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = code_map();
    for (module, file) in modules() {
        let path = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let line = map.get(&path);
        assert!(line.is_some(), "{path} has no line in the code map");
        let lines = std::fs::read_to_string(&file).unwrap().lines().count();
        assert!(
            lines <= 600 || line.is_some_and(|l| l.contains("all of one kind")),
            "{path} has {lines} lines: split it, or say in the code map why it is all of one kind"
        );
        if matches!(module.first().map(String::as_str), Some("bot" | "web")) {
            assert!(
                !code(&file).contains(".store()"),
                "{} reads the store; ask the service",
                file.display()
            );
        }
    }
}

/// The sleeps in `tests/` that are no wait for an event, each with why time must pass there.
/// Every other `sleep(` is a step of at most 100 ms in a loop that looks for an event.
const SLEEPS_ALLOWED: [(&str, &str, &str); 4] = [
    (
        "tests/web/bounds.rs",
        "HEADER_TIME / 10",
        "a slow client's pace: a byte at a time, the headers never ending",
    ),
    (
        "tests/web/bounds.rs",
        "HEADER_TIME * 2",
        "the server's own timer for headers runs out only as time passes (a second, a test setting)",
    ),
    (
        "tests/support/playtak.rs",
        "sleep(after)",
        "the stand-in for PlayTak's API answering slowly, as the test asked",
    ),
    (
        "tests/fake_discord/rest.rs",
        "sleep(delay)",
        "the fake Discord's slow route, as the test asked (`slow_route`)",
    ),
];

#[test]
fn no_test_sleeps_to_wait_for_what_it_could_wait_for() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = rust_files(&root.join("tests"));
    let poll_step =
        Regex::new(r"sleep\((std::time::)?Duration::from_millis\(([0-9_]+)\)\)").unwrap();
    let mut unexplained = Vec::new();
    let mut allowed_seen = BTreeSet::new();
    for file in files {
        let path = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if path == "tests/architecture.rs" {
            continue; // this check's own words
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if !line.contains("sleep(") || line.trim_start().starts_with("//") {
                continue;
            }
            let step = poll_step
                .captures(line)
                .and_then(|c| c[2].replace('_', "").parse::<u64>().ok());
            if step.is_some_and(|ms| ms <= 100) {
                continue;
            }
            let allowed = SLEEPS_ALLOWED
                .iter()
                .position(|(f, snippet, _)| *f == path && line.contains(snippet));
            match allowed {
                Some(i) => {
                    allowed_seen.insert(i);
                }
                None => unexplained.push(format!("{path}:{}: {}", n + 1, line.trim())),
            }
        }
    }
    assert!(
        unexplained.is_empty(),
        "these sleep to wait: wait for the event instead (a log line, a request, the outbox \
         read empty), move the wait onto the virtual clock, or add the line to SLEEPS_ALLOWED \
         saying why time must pass:\n{}",
        unexplained.join("\n")
    );
    // An allowance nothing uses any more is taken out.
    let unused: Vec<_> = (0..SLEEPS_ALLOWED.len())
        .filter(|i| !allowed_seen.contains(i))
        .map(|i| SLEEPS_ALLOWED[i].0)
        .collect();
    assert!(unused.is_empty(), "unused allowances: {unused:?}");
}

/// The methods of serenity and poise that send a request to Discord's REST API, as the bot
/// calls them (`ctx.send(..)`, `channel.send_message(&http, ..)`, `builder.execute(&http, ..)`,
/// `interaction.create_response(..)`), and the calls of `Http`'s own methods (`http.get_..(`).
const REST_CALLS: &[&str] = &[
    // poise's answers to a command
    "send",
    "say",
    "reply",
    "defer",
    "defer_ephemeral",
    "defer_response",
    // interactions' answers and follow-ups
    "create_response",
    "get_response",
    "edit_response",
    "delete_response",
    "create_followup",
    "edit_followup",
    "delete_followup",
    "execute",
    // messages
    "send_message",
    "send_files",
    "messages",
    "message",
    "edit",
    "delete",
    "create_reaction",
    // channels, threads, users
    "to_channel",
    "create_thread",
    "edit_thread",
    "get_active_threads",
    "create_dm_channel",
    "to_user",
    "member",
    // the application and its commands
    "get_commands",
    "set_commands",
    "get_global_commands",
    "set_global_commands",
    "create_command",
    "get_bot_gateway",
    "get_current_application_info",
];

/// The process's setup, outside delivery by choice: each runs once per process start, before
/// any handler or delivery, and sends nothing a user or a channel is owed.
const SETUP_CALLS: [(&str, &str, &str); 6] = [
    (
        "src/bot/mod.rs",
        "get_current_application_info",
        "`bredon register` asks which application the token is, before registering",
    ),
    (
        "src/bot/register.rs",
        "get_commands",
        "registration reads the server's commands to compare them with this build's",
    ),
    (
        "src/bot/register.rs",
        "get_global_commands",
        "registration reads the global commands to compare them with this build's",
    ),
    (
        "src/bot/register.rs",
        "set_commands",
        "registration writes the server's commands when they differ",
    ),
    (
        "src/bot/register.rs",
        "set_global_commands",
        "registration writes the global commands when they differ",
    ),
    (
        "src/bot/gateway.rs",
        "get_bot_gateway",
        "before the shards connect: the day's session starts left",
    ),
];

/// The methods of serenity's `Http` that send nothing: they hand it on or set it up.
const HTTP_NOT_REQUESTS: [&str; 4] = ["clone", "as_ref", "application_id", "set_application_id"];

/// The REST calls in `code` (a file's code, as `code` strips it): each of `REST_CALLS` called
/// as a method or on a type (`Command::get_global_commands(..)`), and any method called on a
/// value named `http` (serenity's `Http`) but those of `HTTP_NOT_REQUESTS`.
fn rest_calls(code: &str) -> Vec<String> {
    let names = REST_CALLS.join("|");
    let method = Regex::new(&format!(r"(?:\.|\b[A-Z]\w*\s*::)\s*({names})\s*\(")).unwrap();
    let on_http = Regex::new(r"\bhttp\s*(?:\(\s*\))?\s*\.\s*(\w+)\s*\(").unwrap();
    let mut found: Vec<String> = method
        .captures_iter(code)
        .map(|c| c[1].to_string())
        .collect();
    let on_http = on_http.captures_iter(code).map(|c| c[1].to_string());
    found.extend(on_http.filter(|m| !HTTP_NOT_REQUESTS.contains(&m.as_str())));
    found.sort();
    found.dedup();
    found
}

#[test]
fn no_file_of_the_bot_outside_delivery_calls_discords_rest_api() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut outside = Vec::new();
    let mut setup_seen = BTreeSet::new();
    for file in rust_files(&root.join("src/bot")) {
        let path = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if path.starts_with("src/bot/delivery/") {
            continue;
        }
        for call in rest_calls(&code(&file)) {
            let setup = SETUP_CALLS
                .iter()
                .position(|(f, c, _)| *f == path && *c == call);
            match setup {
                Some(i) => drop(setup_seen.insert(i)),
                None => outside.push(format!("{path}: .{call}(")),
            }
        }
    }
    assert!(
        outside.is_empty(),
        "these call Discord's REST API outside src/bot/delivery/: give delivery a function \
         for it and call that instead:\n{}",
        outside.join("\n")
    );
    let unused: Vec<_> = (0..SETUP_CALLS.len())
        .filter(|i| !setup_seen.contains(i))
        .map(|i| SETUP_CALLS[i].1)
        .collect();
    assert!(unused.is_empty(), "setup calls no longer made: {unused:?}");
}

#[test]
fn a_rest_call_is_found_however_it_is_written() {
    let written = "
        let _ = ctx.send(reply).await;
        channel
            .send_message(&ctx.http, message)
            .await;
        edit.execute(http, token).await;
        data.publisher.http.delete_original_interaction_response(token).await;
        let http = Arc::clone(&ctx.http);
        call(http.as_ref());
        ctx.http().get_channel(id).await;
        serenity::Command::set_global_commands(http, wanted).await;
    ";
    assert_eq!(
        rest_calls(written),
        [
            "delete_original_interaction_response",
            "execute",
            "get_channel",
            "send",
            "send_message",
            "set_global_commands"
        ]
    );
    let quiet = "let told = foresight.deferral.mark_deferred(); progress.send_replace(x); \
                 replies::reply(ctx, post, true).await; http.set_application_id(id);";
    assert!(rest_calls(quiet).is_empty(), "{:?}", rest_calls(quiet));
}

//! The code map's invariants, checked on the sources: files of `bot` and `service` stay small,
//! the bot never reads the store, and no file imports another round a circle.

use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `src/`, by module path (`["bot", "post"]`; `mod.rs` names its folder).
fn modules() -> BTreeMap<Vec<String>, PathBuf> {
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
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
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
    let mut out = Vec::new();
    for found in path.captures_iter(code) {
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
        out.push(base.clone());
        for item in found.get(2).map_or("", |g| g.as_str()).split(',') {
            let first = item.trim().split("::").next().unwrap_or("").trim();
            if !first.is_empty() && first.chars().all(is_ident) {
                out.push([base.clone(), vec![first.to_string()]].concat());
            }
        }
    }
    out
}

#[test]
fn no_file_imports_another_round_a_circle() {
    let modules = modules();
    let codes: BTreeMap<&Vec<String>, String> = modules.iter().map(|(m, f)| (m, code(f))).collect();
    // `pub use child::{A, B}` in a module: A and B belong to the child's file.
    let mut reexported: BTreeMap<(Vec<String>, String), Vec<String>> = BTreeMap::new();
    for (module, code) in &codes {
        for stmt in code.split(';') {
            let Some(rest) = stmt.trim().strip_prefix("pub use ") else {
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
    for (module, code) in &codes {
        for path in paths(module, code) {
            if let Some(target) = file_of(&path) {
                if target != *module {
                    edges.entry(module).or_default().insert(target);
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
    assert!(circles.is_empty(), "imports round a circle: {circles:#?}");
}

#[test]
fn bot_and_service_files_stay_small_and_the_bot_never_reads_the_store() {
    for (module, file) in modules() {
        let layer = module.first().map(String::as_str);
        if !matches!(layer, Some("bot" | "service")) {
            continue;
        }
        let lines = std::fs::read_to_string(&file).unwrap().lines().count();
        assert!(lines <= 600, "{} has {lines} lines", file.display());
        if layer == Some("bot") {
            assert!(
                !code(&file).contains(".store()"),
                "{} reads the store; ask the service",
                file.display()
            );
        }
    }
}

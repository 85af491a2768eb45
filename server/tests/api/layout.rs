//! The crate's layout as `server/ARCHITECTURE.md` describes it (issue 45): every file its tree
//! names exists, every source file is named there, and no file imports one that imports it
//! back (a loop between files, direct or through others). Reads the sources; runs on both
//! databases alike (it touches none).
#![allow(clippy::unwrap_used)]

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
};

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.rs` files the tree block of ARCHITECTURE.md names, relative to `server/`: a line's
/// first word is a folder (`name/`) or a file (`name.rs`, or `folder/name.rs`), nested by its
/// indentation; other lines (descriptions carried over) name nothing.
fn files_in_architecture() -> BTreeSet<String> {
    let text = std::fs::read_to_string(crate_dir().join("ARCHITECTURE.md")).unwrap();
    let block = text.split("```").find(|b| b.trim_start().starts_with("server/")).expect("the tree block");
    let mut folders: Vec<(usize, String)> = Vec::new();
    let mut files = BTreeSet::new();
    for line in block.lines().skip_while(|l| !l.trim_start().starts_with("server/")).skip(1) {
        let Some(word) = line.split_whitespace().next() else { continue };
        let indent = line.len() - line.trim_start().len();
        while folders.last().is_some_and(|(i, _)| *i >= indent) {
            folders.pop();
        }
        let parent: String = folders.iter().map(|(_, f)| f.as_str()).collect();
        if word.ends_with('/') && !word.contains('*') {
            folders.push((indent, word.to_string()));
        } else if word.ends_with(".rs") {
            files.insert(format!("{parent}{word}"));
        }
    }
    files
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/...` relative paths of every source file.
fn source_files() -> BTreeSet<String> {
    let mut paths = Vec::new();
    sources(&crate_dir().join("src"), &mut paths);
    paths.iter().map(|p| p.strip_prefix(crate_dir()).unwrap().to_string_lossy().into_owned()).collect()
}

#[test]
fn architecture_names_every_source_file_and_only_existing_ones() {
    let named = files_in_architecture();
    let existing = source_files();
    let missing: Vec<_> = named.iter().filter(|f| !crate_dir().join(f).exists()).collect();
    assert!(missing.is_empty(), "ARCHITECTURE.md names files that do not exist: {missing:?}");
    let unnamed: Vec<_> = existing.iter().filter(|f| !named.contains(*f)).collect();
    assert!(unnamed.is_empty(), "source files ARCHITECTURE.md does not name: {unnamed:?}");
}

/// The module path (`["domain", "documents"]`) of a source file (`src/domain/documents.rs`).
fn module_of(file: &str) -> Vec<String> {
    let inner = file.trim_start_matches("src/").trim_end_matches(".rs");
    let mut parts: Vec<String> = inner.split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// The paths a file's code names (`crate::a::b`, `super::c`, `self::d`, `child::e` for a
/// module it declares with `mod child;`, and each leaf of a `use` tree), as absolute module
/// paths. Comments (doc links included) are not code.
fn named_paths(file: &str, code: &str) -> Vec<Vec<String>> {
    let here = module_of(file);
    // A file's unit tests (its last item) are not what the file needs.
    let code = code.split("#[cfg(test)]").next().unwrap_or_default();
    let code: String = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let children: Vec<String> = code
        .lines()
        .filter_map(|l| l.trim().trim_start_matches("pub ").strip_prefix("mod "))
        .filter_map(|rest| rest.strip_suffix(';'))
        .map(str::to_string)
        .collect();
    // Expand `use` trees into their leaves, then scan the paths.
    let mut flat = String::new();
    for statement in code.split(';') {
        let at = statement.match_indices("use ").map(|(i, _)| i).find(|&i| {
            let before = statement[..i].chars().last();
            before.is_none_or(|c| c.is_whitespace() || c == '}' || c == ')')
        });
        match at {
            Some(at) => {
                flat.push_str(&statement[..at]);
                for leaf in expand(statement[at + 4..].trim()) {
                    flat.push('\n');
                    flat.push_str(&leaf);
                }
            }
            None => flat.push_str(statement),
        }
        flat.push('\n');
    }
    let bytes = flat.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let boundary = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':');
        let path: String = flat[i..].chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
        let mut segments: Vec<String> = path.split("::").map(str::to_string).collect();
        let base = match segments.first().map(String::as_str) {
            _ if !boundary || segments.len() < 2 => None,
            Some("crate") => Some(Vec::new()),
            Some("super") => Some(here[..here.len().saturating_sub(1)].to_vec()),
            Some("self") => Some(here.clone()),
            Some(name) if children.iter().any(|c| c == name) => {
                segments.insert(0, String::new());
                Some(here.clone())
            }
            _ => None,
        };
        if let Some(mut absolute) = base {
            absolute.extend(segments.into_iter().skip(1).filter(|s| !s.is_empty()));
            out.push(absolute);
        }
        i += path.len().max(flat[i..].chars().next().map_or(1, char::len_utf8));
    }
    out
}

/// `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    match tree.find('{') {
        None => vec![tree.split(" as ").next().unwrap_or_default().to_string()],
        Some(open) => {
            let prefix = &tree[..open];
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let mut parts = Vec::new();
            let (mut depth, mut start) = (0, 0);
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        parts.push(&inner[start..i]);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            parts.push(&inner[start..]);
            parts.iter().filter(|p| !p.is_empty()).flat_map(|p| expand(p)).map(|leaf| format!("{prefix}{leaf}")).collect()
        }
    }
}

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let files = source_files();
    let by_module: BTreeMap<Vec<String>, String> = files.iter().filter(|f| *f != "src/main.rs").map(|f| (module_of(f), f.clone())).collect();
    let paths: BTreeMap<String, Vec<Vec<String>>> = files
        .iter()
        .map(|f| (f.clone(), named_paths(f, &std::fs::read_to_string(crate_dir().join(f)).unwrap())))
        .collect();
    // A folder's mod.rs passes names on (`pub use extract::AuthUser`, or a `use` its children
    // reach through `super::`): a path through such a name leads to the file that defines it.
    let passed_on = |file: &str, name: &str| -> Option<Vec<String>> {
        paths.get(file)?.iter().find(|p| p.last().is_some_and(|last| last == name)).cloned()
    };
    let resolve = |path: &[String]| -> Option<String> {
        let mut path = path.to_vec();
        for _ in 0..8 {
            let n = (1..=path.len()).rev().find(|n| by_module.contains_key(&path[..*n]))?;
            let file = &by_module[&path[..n]];
            let is_folder = file.ends_with("mod.rs") || file.ends_with("lib.rs");
            match path.get(n).and_then(|name| passed_on(file, name).filter(|_| is_folder)) {
                Some(mut defined) if defined != path[..=n] => {
                    defined.extend(path[n + 1..].iter().cloned());
                    path = defined;
                }
                _ => return Some(file.clone()),
            }
        }
        None
    };
    // file → the files it names.
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, named) in &paths {
        let targets = edges.entry(file.clone()).or_default();
        for path in named {
            if let Some(target) = resolve(path).filter(|t| t != file) {
                targets.insert(target);
            }
        }
    }
    // A loop is a file reachable from itself; report one path per loop found.
    let mut loops = Vec::new();
    for start in edges.keys() {
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((node, path)) = stack.pop() {
            for next in edges.get(&node).into_iter().flatten() {
                if next == start {
                    loops.push(path.join(" → ") + " → " + start);
                } else if seen.insert(next.clone()) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
    assert!(loops.is_empty(), "file-level import loops in server/src:\n{}", loops.join("\n"));
}

/// The layers' two rules about errors and transactions: a domain module speaks no HTTP (no
/// axum, no status code, no `ApiError`: its `DomainError` becomes a status in `http/error.rs`
/// only), and no route opens a transaction (a write that must commit with another is one
/// domain function).
#[test]
fn the_domain_speaks_no_http_and_routes_open_no_transaction() {
    let mut offences = Vec::new();
    for file in source_files() {
        let text = std::fs::read_to_string(crate_dir().join(&file)).unwrap();
        let code: String = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
        if file.starts_with("src/domain/") {
            for word in ["axum", "StatusCode", "ApiError", "ApiResult", "http::error"] {
                if code.contains(word) {
                    offences.push(format!("{file} uses {word}"));
                }
            }
        }
        if file.starts_with("src/routes/") {
            for word in [".begin()", "Transaction<"] {
                if code.contains(word) {
                    offences.push(format!("{file} opens a transaction ({word})"));
                }
            }
        }
    }
    assert!(offences.is_empty(), "{offences:#?}");
}

//! The module graph of score-core has no import cycle beyond the ones listed in [`ALLOWED`]
//! (`ARCHITECTURE.md` gives the layers and why each remaining cycle stays).
//!
//! The test reads `src/` as text: every file is a module (`src/a/b.rs` and `src/a/b/mod.rs` are
//! `a::b`, `src/lib.rs` is the crate root), and every path a file names that starts with
//! `crate::`, `super::`, `self::` or one of its own child modules, in a `use` tree or in code, is
//! an edge to the deepest module that path reaches. A name the crate root re-exports
//! (`crate::Profile`) is an edge to the module it comes from, not to the root. Comments and
//! string literals are skipped, inline modules count as their file. Unit tests
//! (`#[cfg(test)] mod tests { .. }` or `#[cfg(test)] mod tests;`) are left out: a test may
//! reach any layer to check its module inside the whole model, the layering is the library's.
//! It then prints the strongly connected components larger than one module:
//!
//! ```text
//! cargo test -p score-core --test module_graph -- --nocapture
//! ```
//!
//! `MODULE_GRAPH_SRC=<dir>` reads another source tree (an older commit's `score-core/src`, from
//! `git archive`) to measure it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The cycles that may remain, each with the reason it stays: an SCC is allowed when every one of
/// its modules is one of an entry's modules or inside it (`products` covers `products::numero`),
/// so a cycle kept inside a folder stays that folder's internal affair. None remains: every
/// module's imports lead down its layers or, inside a folder, down its files.
const ALLOWED: &[(&[&str], &str)] = &[];

/// The layers of the crate, bottom up, each with its modules (a name covers the modules inside
/// it; the longest name that covers a module places it): a module may use its own layer and
/// those below, never one above. `ARCHITECTURE.md` says what each layer is.
const LAYERS: &[(&str, &[&str])] = &[
    ("arithmetic and fixed tables", &["approx", "curve", "error", "fast_decimal", "json_text", "money", "params", "pow10", "states"]),
    ("profile", &["profile"]),
    ("calibration", &["calibration", "cifras", "fondo"]),
    ("report types", &["report", "report::simulacion"]),
    ("credit products", &["products"]),
    ("model", &["model", "report::score_report"]),
    ("writers and entry points", &["crate", "batch", "host", "read", "report::json", "report::schema", "tree", "walk"]),
];

/// The layer of a module: the index in [`LAYERS`] of the longest name that covers it.
fn layer(module: &Module) -> Option<usize> {
    LAYERS
        .iter()
        .enumerate()
        .flat_map(|(i, (_, names))| names.iter().filter(|n| covers(n, module)).map(move |n| (n.len(), i)))
        .max()
        .map(|(_, i)| i)
}

/// Whether `allowed` (a module name) is `module` or one of its ancestors.
fn covers(allowed: &str, module: &Module) -> bool {
    let name = name(module);
    name == allowed || (allowed != "crate" && name.starts_with(&format!("{allowed}::")))
}

/// A module's path below the crate root (`["products", "rules"]`); the root is `[]`.
type Module = Vec<String>;

fn name(module: &Module) -> String {
    if module.is_empty() { "crate".to_owned() } else { module.join("::") }
}

/// Replaces comments, string, byte-string, raw-string and char literals with spaces, keeping
/// everything else (so `crate::` in a doc comment or a message names nothing).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, from: &[u8]| out.extend(from.iter().map(|&c| if c == b'\n' { b'\n' } else { b' ' }));
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest.starts_with(b"/*") {
            let (mut depth, mut j) = (0usize, 0);
            loop {
                if j >= rest.len() {
                    break;
                } else if rest[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, &rest[..j]);
            i += j;
        } else if let Some(len) = raw_string(rest, i > 0 && is_ident(b[i - 1])) {
            blank(&mut out, &rest[..len]);
            i += len;
        } else if rest[0] == b'"' || (rest.starts_with(b"b\"") && !(i > 0 && is_ident(b[i - 1]))) {
            let mut j = if rest[0] == b'"' { 1 } else { 2 };
            while j < rest.len() && rest[j] != b'"' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            let len = (j + 1).min(rest.len());
            blank(&mut out, &rest[..len]);
            i += len;
        } else if rest[0] == b'\'' {
            // A char literal ('a', '\n', '\u{..}', '"'), or a lifetime ('a), which stays.
            let len = if rest.get(1) == Some(&b'\\') {
                rest[2..].iter().position(|&c| c == b'\'').map(|p| p + 3)
            } else {
                let ch = std::str::from_utf8(&rest[1..rest.len().min(5)]).ok().or_else(|| std::str::from_utf8(&rest[1..2]).ok());
                ch.and_then(|s| s.chars().next()).and_then(|c| {
                    let after = 1 + c.len_utf8();
                    (rest.get(after) == Some(&b'\'')).then_some(after + 1)
                })
            };
            let len = len.unwrap_or(1);
            if len > 1 {
                blank(&mut out, &rest[..len]);
            } else {
                out.push(b'\'');
            }
            i += len;
        } else {
            out.push(rest[0]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The length of a raw (byte) string literal starting here, `r#".."#`.
fn raw_string(rest: &[u8], after_ident: bool) -> Option<usize> {
    if after_ident {
        return None;
    }
    let start = if rest.starts_with(b"br") { 2 } else if rest.starts_with(b"r") { 1 } else { return None };
    let hashes = rest[start..].iter().take_while(|&&c| c == b'#').count();
    if rest.get(start + hashes) != Some(&b'"') {
        return None;
    }
    let mut close = vec![b'"'];
    close.extend(std::iter::repeat_n(b'#', hashes));
    let body = start + hashes + 1;
    let end = rest[body..].windows(close.len()).position(|w| w == close.as_slice())?;
    Some(body + end + close.len())
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    Sep,
    Punct(char),
}

fn tokens(code: &str) -> Vec<Token> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if is_ident(c) {
            let start = i;
            while i < b.len() && is_ident(b[i]) {
                i += 1;
            }
            out.push(Token::Ident(code[start..i].to_owned()));
            continue;
        }
        if b[i..].starts_with(b"::") {
            out.push(Token::Sep);
            i += 2;
            continue;
        }
        if !c.is_ascii_whitespace() {
            out.push(Token::Punct(c as char));
        }
        i += 1;
    }
    out
}

/// Every path of a `use` tree starting at `tokens[*at]`, each one complete from its first segment
/// (`a::{b, c::d}` gives `a::b` and `a::c::d`; `self` in a group names the prefix).
fn use_tree(tokens: &[Token], at: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    loop {
        match tokens.get(*at) {
            Some(Token::Ident(s)) if s == "self" && path.len() == prefix.len() && !prefix.is_empty() => *at += 1,
            Some(Token::Ident(s)) => {
                path.push(s.clone());
                *at += 1;
            }
            Some(Token::Sep) => *at += 1,
            Some(Token::Punct('{')) => {
                *at += 1;
                loop {
                    match tokens.get(*at) {
                        Some(Token::Punct('}')) | None => {
                            *at += 1;
                            return;
                        }
                        Some(Token::Punct(',')) => *at += 1,
                        _ => use_tree(tokens, at, &path, out),
                    }
                }
            }
            Some(Token::Punct('*')) => {
                *at += 1;
                path.push("*".to_owned());
                out.push(path);
                return;
            }
            _ => {
                out.push(path);
                return;
            }
        }
        // `as alias` ends the path, kept as its last two segments (what the root re-exports
        // under another name is found by it).
        if let (Some(Token::Ident(a)), true) = (tokens.get(*at), matches!(tokens.get(*at - 1), Some(Token::Ident(_)))) {
            if a == "as" {
                if let Some(Token::Ident(alias)) = tokens.get(*at + 1) {
                    path.extend(["as".to_owned(), alias.clone()]);
                }
                *at += 2;
                out.push(path);
                return;
            }
        }
    }
}

struct Crate {
    modules: BTreeSet<Module>,
    /// The code of each file, comments and literals blanked.
    code: BTreeMap<Module, String>,
}

impl Crate {
    fn read(src: &Path) -> Crate {
        let mut files = Vec::new();
        collect(src, &mut files);
        let mut modules = BTreeSet::new();
        let mut code = BTreeMap::new();
        for file in files {
            let rel = file.strip_prefix(src).expect("readable source tree").with_extension("");
            let mut module: Module = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                module.pop();
            }
            code.insert(module.clone(), code_only(&std::fs::read_to_string(&file).expect("readable source tree")));
            modules.insert(module);
        }
        // A file declared `#[cfg(test)] mod name;` is a unit test: not part of the graph.
        let mut tests = Vec::new();
        for (module, text) in &code {
            let toks = tokens(text);
            for at in 0..toks.len() {
                if let (true, Some(Token::Ident(m)), Some(Token::Ident(n)), Some(Token::Punct(';'))) =
                    (test_attribute(&toks, at), toks.get(at + 7), toks.get(at + 8), toks.get(at + 9))
                {
                    if m == "mod" {
                        let mut child = module.clone();
                        child.push(n.clone());
                        tests.push(child);
                    }
                }
            }
        }
        for test in tests {
            modules.remove(&test);
            code.remove(&test);
        }
        Crate { modules, code }
    }

    /// Whether the root defines or re-exports `item` from elsewhere: the module it comes from.
    fn root_export(&self, item: &str) -> Option<Module> {
        let root = tokens(&self.code[&Module::new()]);
        if defines(&self.code[&Module::new()], item) {
            return Some(Module::new());
        }
        let mut globs = Vec::new();
        let mut at = 0;
        while at < root.len() {
            if root[at] == Token::Ident("use".into()) {
                at += 1;
                let mut paths = Vec::new();
                use_tree(&root, &mut at, &[], &mut paths);
                for mut path in paths {
                    // `a::b as c` exports `c`, from `a`.
                    let alias = (path.len() >= 3 && path[path.len() - 2] == "as").then(|| path.split_off(path.len() - 2)[1].clone());
                    let Some(target) = self.resolve_in(&Module::new(), &path[..path.len().saturating_sub(1)], false) else { continue };
                    let last = alias.as_deref().or(path.last().map(String::as_str));
                    if last == Some(item) {
                        return Some(target);
                    }
                    if last == Some("*") {
                        globs.push(target);
                    }
                }
            } else {
                at += 1;
            }
        }
        globs.into_iter().find(|m| self.code.get(m).is_some_and(|c| defines(c, item)))
    }

    /// The module a path names, seen from `scope` (a file's module, or an inline module in it).
    fn resolve(&self, scope: &Module, path: &[String]) -> Option<Module> {
        self.resolve_in(scope, path, true)
    }

    /// [`Crate::resolve`]; `through_root`: whether an item of the root is followed to the module
    /// it re-exports (not while reading the root's own re-exports).
    fn resolve_in(&self, scope: &Module, path: &[String], through_root: bool) -> Option<Module> {
        let (mut base, mut rest) = match path.first().map(String::as_str) {
            Some("crate") => (Module::new(), &path[1..]),
            Some("self") => (scope.clone(), &path[1..]),
            Some("super") => {
                let mut base = scope.clone();
                let mut rest = path;
                while rest.first().map(String::as_str) == Some("super") {
                    base.pop();
                    rest = &rest[1..];
                }
                (base, rest)
            }
            Some(first) => {
                let mut child = scope.clone();
                child.push(first.to_owned());
                if !self.modules.contains(&child) {
                    return None;
                }
                (scope.clone(), path)
            }
            None => return None,
        };
        while let Some(next) = rest.first() {
            let mut deeper = base.clone();
            deeper.push(next.clone());
            if self.modules.contains(&deeper) {
                base = deeper;
                rest = &rest[1..];
            } else {
                break;
            }
        }
        if base.is_empty() && through_root {
            if let Some(item) = rest.first() {
                return self.root_export(item).or(Some(base));
            }
        }
        Some(base)
    }

    /// Every edge between two different modules: `from -> to`.
    fn edges(&self) -> BTreeSet<(Module, Module)> {
        let mut edges = BTreeSet::new();
        for (file, code) in &self.code {
            let toks = tokens(code);
            // Inline modules open in this file: (name, the brace depth inside them).
            let mut inline: Vec<(String, usize)> = Vec::new();
            let mut depth = 0usize;
            let mut at = 0;
            while at < toks.len() {
                let mut scope = file.clone();
                scope.extend(inline.iter().map(|(n, _)| n.clone()));
                let mut paths = Vec::new();
                match &toks[at] {
                    Token::Punct('{') => {
                        depth += 1;
                        at += 1;
                    }
                    Token::Punct('}') => {
                        if inline.last().is_some_and(|&(_, d)| d == depth) {
                            inline.pop();
                        }
                        depth = depth.saturating_sub(1);
                        at += 1;
                    }
                    Token::Punct('#') if test_attribute(&toks, at) => {
                        // `#[cfg(test)]` then `mod name {`: skip to its closing brace.
                        at += 7;
                        if let (Some(Token::Ident(m)), Some(Token::Ident(_)), Some(Token::Punct('{'))) = (toks.get(at), toks.get(at + 1), toks.get(at + 2)) {
                            if m == "mod" {
                                at += 3;
                                let mut open = 1;
                                while open > 0 && at < toks.len() {
                                    match toks[at] {
                                        Token::Punct('{') => open += 1,
                                        Token::Punct('}') => open -= 1,
                                        _ => {}
                                    }
                                    at += 1;
                                }
                            }
                        }
                    }
                    Token::Ident(kw) if kw == "mod" => {
                        if let (Some(Token::Ident(n)), Some(Token::Punct('{'))) = (toks.get(at + 1), toks.get(at + 2)) {
                            depth += 1;
                            inline.push((n.clone(), depth));
                            at += 3;
                        } else {
                            at += 1;
                        }
                    }
                    Token::Ident(kw) if kw == "use" => {
                        at += 1;
                        use_tree(&toks, &mut at, &[], &mut paths);
                    }
                    Token::Ident(first) if toks.get(at + 1) == Some(&Token::Sep) && !(at > 0 && toks[at - 1] == Token::Sep) => {
                        let mut path = vec![first.clone()];
                        at += 1;
                        while let (Some(Token::Sep), Some(Token::Ident(s))) = (toks.get(at), toks.get(at + 1)) {
                            path.push(s.clone());
                            at += 2;
                        }
                        paths.push(path);
                    }
                    _ => at += 1,
                }
                for path in paths {
                    let path: Vec<String> = path.into_iter().filter(|s| s != "*").collect();
                    if let Some(to) = self.resolve(&scope, &path) {
                        // An inline module names its own file through `super`: no edge.
                        if &to != file {
                            edges.insert((file.clone(), to));
                        }
                    }
                }
            }
        }
        edges
    }
}

/// Whether `#[cfg(test)]` starts at `toks[at]`.
fn test_attribute(toks: &[Token], at: usize) -> bool {
    let want = [Token::Punct('#'), Token::Punct('['), Token::Ident("cfg".into()), Token::Punct('('), Token::Ident("test".into()), Token::Punct(')'), Token::Punct(']')];
    toks.get(at..at + want.len()) == Some(&want[..])
}

fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("readable source tree").map(|e| e.expect("readable source tree").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Whether `code` defines an item called `item` (a struct, enum, fn, const, static, type, trait
/// or macro) at any visibility.
fn defines(code: &str, item: &str) -> bool {
    let toks = tokens(code);
    toks.windows(2).any(|w| {
        matches!((&w[0], &w[1]), (Token::Ident(kw), Token::Ident(n))
            if n == item && matches!(kw.as_str(), "struct" | "enum" | "fn" | "const" | "static" | "type" | "trait" | "union"))
    })
}

/// Tarjan's strongly connected components, each sorted, larger first.
fn components(nodes: &BTreeSet<Module>, edges: &BTreeSet<(Module, Module)>) -> Vec<Vec<Module>> {
    let index_of: BTreeMap<&Module, usize> = nodes.iter().enumerate().map(|(i, m)| (m, i)).collect();
    let list: Vec<&Module> = nodes.iter().collect();
    let mut next = vec![Vec::new(); list.len()];
    for (a, b) in edges {
        if let (Some(&a), Some(&b)) = (index_of.get(a), index_of.get(b)) {
            next[a].push(b);
        }
    }
    struct State {
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        counter: usize,
        found: Vec<Vec<usize>>,
    }
    fn visit(v: usize, next: &[Vec<usize>], s: &mut State) {
        s.index[v] = Some(s.counter);
        s.low[v] = s.counter;
        s.counter += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &next[v] {
            match s.index[w] {
                None => {
                    visit(w, next, s);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(i) if s.on_stack[w] => s.low[v] = s.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            s.found.push(component);
        }
    }
    let n = list.len();
    let mut s = State { index: vec![None; n], low: vec![0; n], on_stack: vec![false; n], stack: Vec::new(), counter: 0, found: Vec::new() };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(v, &next, &mut s);
        }
    }
    let mut out: Vec<Vec<Module>> = s
        .found
        .into_iter()
        .map(|c| {
            let mut c: Vec<Module> = c.into_iter().map(|i| list[i].clone()).collect();
            c.sort();
            c
        })
        .collect();
    out.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    out
}

/// The cycles of more than one module, and which of them `allowed` does not cover.
fn find_cycles(krate: &Crate, allowed: &[(&[&str], &str)]) -> (Vec<Vec<Module>>, Vec<Vec<Module>>) {
    let edges = krate.edges();
    let cycles: Vec<Vec<Module>> = components(&krate.modules, &edges).into_iter().filter(|c| c.len() > 1).collect();
    let refused = cycles
        .iter()
        .filter(|c| !allowed.iter().any(|(allowed, _)| c.iter().all(|m| allowed.iter().any(|a| covers(a, m)))))
        .cloned()
        .collect();
    (cycles, refused)
}

fn describe(krate: &Crate, cycle: &[Module]) -> String {
    let members: BTreeSet<&Module> = cycle.iter().collect();
    let inside: Vec<String> = krate
        .edges()
        .into_iter()
        .filter(|(a, b)| members.contains(a) && members.contains(b))
        .map(|(a, b)| format!("    {} -> {}", name(&a), name(&b)))
        .collect();
    format!(
        "  {} modules: {}\n  edges inside:\n{}",
        cycle.len(),
        cycle.iter().map(name).collect::<Vec<_>>().join(", "),
        inside.join("\n")
    )
}

/// The source tree read: `src/`, or `MODULE_GRAPH_SRC` when set.
fn source() -> std::path::PathBuf {
    std::env::var_os("MODULE_GRAPH_SRC").map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), Into::into)
}

#[test]
fn no_import_cycle_beyond_the_allowed_ones() {
    let krate = Crate::read(&source());
    let edges = krate.edges();
    // The reader sees the crate: the root declares its modules and the model reads the products.
    assert!(krate.modules.len() > 20, "{:?}", krate.modules);
    assert!(edges.iter().any(|(a, b)| name(a) == "products::ofertas" && name(b) == "products::evaluate"));
    let (cycles, refused) = find_cycles(&krate, ALLOWED);
    println!("score-core: {} modules, {} edges", krate.modules.len(), edges.len());
    for cycle in &cycles {
        println!("strongly connected component:\n{}", describe(&krate, cycle));
    }
    assert!(
        refused.is_empty(),
        "import cycles outside the allowed list (tests/module_graph.rs ALLOWED, ARCHITECTURE.md):\n{}",
        refused.iter().map(|c| describe(&krate, c)).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn no_module_uses_a_layer_above_its_own() {
    let krate = Crate::read(&source());
    let unplaced: Vec<String> = krate.modules.iter().filter(|m| layer(m).is_none()).map(name).collect();
    assert!(unplaced.is_empty(), "modules in no layer (tests/module_graph.rs LAYERS, ARCHITECTURE.md): {unplaced:?}");
    let upward: Vec<String> = krate
        .edges()
        .iter()
        .filter(|(a, b)| layer(b) > layer(a))
        .map(|(a, b)| format!("{} ({}) -> {} ({})", name(a), LAYERS[layer(a).unwrap_or(0)].0, name(b), LAYERS[layer(b).unwrap_or(0)].0))
        .collect();
    assert!(upward.is_empty(), "a module uses a layer above its own:\n{}", upward.join("\n"));
    // The check can fail: the report's types sit below the products that carry them.
    let module = |n: &str| n.split("::").map(str::to_owned).collect::<Module>();
    assert!(layer(&module("report")) < layer(&module("products")));
    assert!(layer(&module("report::score_report")) > layer(&module("products")));
}

/// A crate written into a temporary folder, read back.
fn sample(label: &str, files: &[(&str, &str)]) -> Crate {
    let dir = std::env::temp_dir().join(format!("score-core-module-graph-{}-{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("readable source tree")).expect("readable source tree");
        std::fs::write(path, text).expect("readable source tree");
    }
    let krate = Crate::read(&dir);
    std::fs::remove_dir_all(&dir).expect("readable source tree");
    krate
}

#[test]
fn a_cycle_through_use_trees_paths_and_reexports_is_found() {
    let krate = sample("reader", &[
        ("lib.rs", "mod a; mod b; mod c; mod d; pub use c::Thing; pub use a::f as g; pub struct Top;"),
        ("a.rs", "use crate::{b::{self, Inner as I}, d};\n// crate::c in a comment is no edge\nfn f() { let _ = \"crate::c\"; let _ = 'x'; }"),
        ("b.rs", "pub struct Inner; fn g() -> crate::Thing { todo!() }"),
        ("c.rs", "pub struct Thing; fn h<'a>(x: &'a str) { super::a::f(); crate::g(); }"),
        ("d.rs", "pub fn top() -> crate::Top { crate::Top }\n#[cfg(test)] mod tests { use crate::b::Inner; }\n#[cfg(test)]\nmod more;"),
        ("d/more.rs", "use crate::c::Thing;"),
    ]);
    let names: BTreeSet<(String, String)> = krate.edges().iter().map(|(a, b)| (name(a), name(b))).collect();
    // `mod x;` is no edge, `pub use c::Thing` is; `crate::Thing` reaches c through the root's
    // re-export, `crate::Top` the root itself; the comment, string and char name nothing, nor
    // d's unit tests (inline or in their own file).
    let expected: BTreeSet<(String, String)> =
        [("a", "b"), ("a", "d"), ("b", "c"), ("c", "a"), ("d", "crate"), ("crate", "a"), ("crate", "c")].iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    assert_eq!(names, expected);
    let (cycles, refused) = find_cycles(&krate, &[(&["a", "b", "c"], "a part of the cycle only")]);
    let cycle: Vec<String> = cycles[0].iter().map(name).collect();
    assert_eq!(cycle, ["crate", "a", "b", "c", "d"]);
    assert_eq!(refused.len(), 1);
}

#[test]
fn a_cycle_inside_an_allowed_folder_passes_and_one_leaving_it_does_not() {
    let inside = sample("inside", &[
        ("lib.rs", "pub mod products; mod model;"),
        ("model.rs", "use crate::products::evaluar;"),
        ("products/mod.rs", "mod evaluate; mod numero; pub use evaluate::evaluar;"),
        ("products/evaluate.rs", "use super::numero::Numero; pub fn evaluar() {}"),
        ("products/numero.rs", "pub struct Numero; fn f() { super::evaluate::evaluar() }"),
    ]);
    let products: &[(&[&str], &str)] = &[(&["products"], "the folder's own")];
    let (cycles, refused) = find_cycles(&inside, products);
    assert_eq!(cycles.len(), 1);
    assert!(refused.is_empty());
    let leaving = sample("leaving", &[
        ("lib.rs", "pub mod products; mod model; mod other;"),
        ("model.rs", "use crate::products::evaluar;"),
        ("other.rs", "pub fn x() { crate::products::evaluar() }"),
        ("products/mod.rs", "mod evaluate; pub use evaluate::evaluar; fn y() { crate::other::x() }"),
        ("products/evaluate.rs", "pub fn evaluar() {}"),
    ]);
    let (_, refused) = find_cycles(&leaving, products);
    assert_eq!(refused.len(), 1, "products <-> other is outside the folder");
}

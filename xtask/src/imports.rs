//! The import graph of a crate's files, for `cargo xtask structure`: every `crate::`,
//! `super::` and `self::` path in a file's code (use groups expanded, facades' re-exports
//! followed to the file that defines the item) is an edge; a strongly connected set of more
//! than one file is a cycle.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use crate::source::code_part;

/// A module's path within its crate (`[]` for the crate root).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    match last.as_str() {
        "lib.rs" | "main.rs" | "mod.rs" if parts.len() + 1 == rel.iter().count() => {}
        _ => parts.push(last.trim_end_matches(".rs").to_owned()),
    }
    if parts == ["lib"] || parts == ["main"] {
        parts.clear();
    }
    parts
}

/// Files that hold a test module of another (`#[path = "x_tests.rs"] mod tests;`) depend on
/// anything; they are left out of the graph.
fn is_test_file(file: &Path) -> bool {
    file.file_name()
        .is_some_and(|n| n.to_string_lossy().ends_with("_tests.rs"))
}

/// Paths starting with `crate::`, `super::` or `self::` in a file's code, as segment lists
/// relative to the crate root (`use` groups expanded).
fn paths_in(module: &[String], is_dir_module: bool, text: &str) -> Vec<Vec<String>> {
    let mut code = code_only(text);
    // A facade's re-exports are what it is for, not a dependency.
    if is_dir_module || module.is_empty() {
        for (start, end) in pub_uses(&code).into_iter().rev() {
            code.replace_range(start..end, "");
        }
    }
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !code.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let rest = &code[i..];
        let starts = ["crate::", "super::", "self::"]
            .iter()
            .find(|p| rest.starts_with(**p));
        let boundary = i == 0
            || !(bytes[i - 1].is_ascii_alphanumeric()
                || bytes[i - 1] == b'_'
                || bytes[i - 1] == b':');
        match starts {
            Some(_) if boundary => {
                let len = path_len(rest);
                for path in expand(&rest[..len]) {
                    if let Some(absolute) = absolute(module, &path) {
                        out.push(absolute);
                    }
                }
                i += len.max(1);
            }
            _ => i += 1,
        }
    }
    out
}

/// A file's code: comments removed, an inline test module (which comes last) left out.
fn code_only(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        code.push_str(code_part(line));
        code.push('\n');
    }
    code
}

/// Where each `pub use ...;` statement is (byte ranges, `;` included).
fn pub_uses(code: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("pub use ") {
        let start = from + at;
        let end = code[start..]
            .find(';')
            .map_or(code.len(), |e| start + e + 1);
        out.push((start, end));
        from = end;
    }
    out
}

/// Length of a path with an optional `{...}` group.
fn path_len(text: &str) -> usize {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            c if depth == 0 && !(c.is_ascii_alphanumeric() || c == '_' || c == ':') => return i,
            _ => {}
        }
    }
    text.len()
}

/// `a::{b::C, d}` -> `a::b::C`, `a::d`.
fn expand(path: &str) -> Vec<Vec<String>> {
    let Some(open) = path.find('{') else {
        return vec![segments(path)];
    };
    let prefix = segments(&path[..open]);
    let inner = &path[open + 1..path.len().saturating_sub(1)];
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items
        .into_iter()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .flat_map(expand)
        .map(|tail| prefix.iter().cloned().chain(tail).collect())
        .collect()
}

fn segments(path: &str) -> Vec<String> {
    path.split("::")
        .map(|s| s.split_whitespace().next().unwrap_or("").to_owned())
        .filter(|s| !s.is_empty())
        .collect()
}

fn absolute(module: &[String], path: &[String]) -> Option<Vec<String>> {
    // Where `self` is: a file module's own path; `super` is one up.
    let mut base: Vec<String> = module.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        _ => {}
    }
    while rest.first().map(String::as_str) == Some("super") {
        base.pop()?;
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

struct Crate {
    /// Module path -> file.
    files: BTreeMap<Vec<String>, PathBuf>,
    /// Facade module -> re-exported name -> where it comes from (absolute path).
    reexports: HashMap<Vec<String>, HashMap<String, Vec<String>>>,
}

impl Crate {
    /// The file a path leads to: its longest module prefix, through facades' re-exports.
    fn resolve(&self, path: &[String], depth: u32) -> Option<Vec<String>> {
        let mut len = path.len();
        while len > 0 && !self.files.contains_key(&path[..len]) {
            len -= 1;
        }
        let module = path[..len].to_vec();
        if depth < 8
            && let Some(name) = path.get(len)
            && let Some(target) = self.reexports.get(&module).and_then(|m| m.get(name))
        {
            let mut next = target.clone();
            next.extend(path[len + 1..].iter().cloned());
            return self.resolve(&next, depth + 1);
        }
        Some(module)
    }
}

/// A crate root or a directory module: where re-exports gather a module's items.
fn is_facade(file: &Path) -> bool {
    file.file_name()
        .is_some_and(|n| n == "mod.rs" || n == "lib.rs" || n == "main.rs")
}

/// What a facade re-exports: each name, and the absolute path it stands for.
fn reexports(module: &[String], text: &str) -> HashMap<String, Vec<String>> {
    let mut names = HashMap::new();
    let code = code_only(text);
    for (start, end) in pub_uses(&code) {
        let path: String = code[start + "pub use ".len()..end - 1]
            .split_whitespace()
            .collect();
        let relative = if path.starts_with("crate::") || path.starts_with("super::") {
            path
        } else {
            format!("self::{path}")
        };
        for full in expand(&relative) {
            if let (Some(abs), Some(name)) = (absolute(module, &full), full.last().cloned()) {
                names.insert(name, abs);
            }
        }
    }
    names
}

/// A crate's files and what each one uses.
pub struct Graph {
    /// Module path -> the module paths (of files) it uses.
    pub edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    /// Module path -> its file, relative to `src`.
    pub files: BTreeMap<Vec<String>, String>,
}

/// The import graph of the crate whose sources are `files` under `src`.
pub fn graph(src: &Path, files: &[(PathBuf, String)]) -> Graph {
    let mut krate = Crate {
        files: BTreeMap::new(),
        reexports: HashMap::new(),
    };
    for (file, text) in files {
        if is_test_file(file) {
            continue;
        }
        let module = module_of(src, file);
        if is_facade(file) {
            krate
                .reexports
                .insert(module.clone(), reexports(&module, text));
        }
        krate.files.insert(module, file.clone());
    }
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (file, text) in files {
        if is_test_file(file) {
            continue;
        }
        let module = module_of(src, file);
        let targets = edges.entry(module.clone()).or_default();
        for path in paths_in(&module, is_facade(file), text) {
            if let Some(to) = krate.resolve(&path, 0)
                && to != module
                // A module's own ancestors are where it is declared, not what it uses.
                && !module.starts_with(&to)
            {
                targets.insert(to);
            }
        }
    }
    let files = krate
        .files
        .iter()
        .map(|(m, f)| {
            (
                m.clone(),
                f.strip_prefix(src).unwrap_or(f).display().to_string(),
            )
        })
        .collect();
    Graph { edges, files }
}

/// Cycles between a crate's files, each as a list of files.
pub fn cycles(graph: &Graph) -> Vec<Vec<String>> {
    let name = |m: &Vec<String>| graph.files.get(m).cloned().unwrap_or_else(|| m.join("::"));
    strongly_connected(&graph.edges)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| c.iter().map(name).collect())
        .collect()
}

/// The circles among a crate's top-level modules (a folder and the files in it count as one):
/// each a sorted list of module names.
pub fn top_level_cycles(graph: &Graph) -> Vec<Vec<String>> {
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (from, targets) in &graph.edges {
        let Some(top) = from.first() else { continue };
        let entry = edges.entry(vec![top.clone()]).or_default();
        for to in targets {
            if let Some(used) = to.first().filter(|used| *used != top) {
                entry.insert(vec![used.clone()]);
            }
        }
    }
    for targets in edges.clone().values() {
        for t in targets {
            edges.entry(t.clone()).or_default();
        }
    }
    strongly_connected(&edges)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let mut names: Vec<String> = c.into_iter().map(|m| m.join("::")).collect();
            names.sort();
            names
        })
        .collect()
}

/// Tarjan's strongly connected components.
fn strongly_connected(
    edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
) -> Vec<Vec<Vec<String>>> {
    struct State<'a> {
        edges: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: HashMap<&'a Vec<String>, usize>,
        low: HashMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on_stack: BTreeSet<&'a Vec<String>>,
        next: usize,
        out: Vec<Vec<Vec<String>>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Vec<String>) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(targets) = s.edges.get(v) {
            for w in targets {
                let Some((w, _)) = s.edges.get_key_value(w) else {
                    continue;
                };
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let low = s.low[w].min(s.low[v]);
                    s.low.insert(v, low);
                } else if s.on_stack.contains(w) {
                    let low = s.index[w].min(s.low[v]);
                    s.low.insert(v, low);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            component.reverse();
            s.out.push(component);
        }
    }
    let mut s = State {
        edges,
        index: HashMap::new(),
        low: HashMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::rust_files;

    #[test]
    fn use_groups_expand_and_super_climbs() {
        let paths = paths_in(
            &["act".into(), "ladder".into()],
            false,
            "use super::plan::{Expect, plan};\nuse crate::engine::Engine;\n",
        );
        assert!(paths.contains(&vec!["act".into(), "plan".into(), "Expect".into()]));
        assert!(paths.contains(&vec!["engine".into(), "Engine".into()]));
    }

    #[test]
    fn a_cycle_between_two_files_is_found_and_reexports_are_followed() {
        let dir = std::env::temp_dir().join(format!("xtask-structure-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("act")).unwrap();
        std::fs::write(dir.join("lib.rs"), "mod act;\nmod engine;\n").unwrap();
        std::fs::write(
            dir.join("act/mod.rs"),
            "mod ladder;\npub use ladder::unavailable;\n",
        )
        .unwrap();
        std::fs::write(dir.join("act/ladder.rs"), "use crate::engine::Engine;\n").unwrap();
        std::fs::write(
            dir.join("engine.rs"),
            "fn f() { crate::act::unavailable(); }\n",
        )
        .unwrap();
        let files = rust_files(&dir).unwrap();
        let found = cycles(&graph(&dir, &files));
        assert_eq!(found.len(), 1, "{found:?}");
        std::fs::write(dir.join("engine.rs"), "fn f() {}\n").unwrap();
        let files = rust_files(&dir).unwrap();
        assert!(cycles(&graph(&dir, &files)).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

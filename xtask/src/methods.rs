//! A ratchet on the engine's width: how many methods core's shell types have (inherent impls,
//! every visibility, in any file), never more than `LIMITS` says; and the shell in one place:
//! no file outside `SHELL` implements them. Each step lowers the figures; the tidy test holds
//! them.

use std::collections::BTreeMap;
use std::path::Path;

use crate::source::{code_part, rust_files};

/// The crate whose types are counted.
pub const CORE: &str = "crates/deskpilot-core/src";

/// The one folder of core whose files implement the types of `LIMITS`.
pub const SHELL: &str = "engine";

/// At most this many methods per type: the counts when the ratchet was set (2026-12-03; the
/// review counted 110 at 25baa15), lowered as methods move to a session handle.
pub const LIMITS: &[(&str, usize)] = &[("Engine", 19), ("Session", 27)];

/// Methods per type of `LIMITS` in the `.rs` files under `src`, and the files outside
/// `SHELL` that implement one.
pub fn count(src: &Path) -> anyhow::Result<(BTreeMap<&'static str, usize>, Vec<String>)> {
    let mut counts: BTreeMap<&str, usize> = LIMITS.iter().map(|(t, _)| (*t, 0)).collect();
    let mut outside = Vec::new();
    for (path, text) in rust_files(src)? {
        let found = methods_in(&text);
        let relative = path.strip_prefix(src).unwrap_or(&path);
        if !found.is_empty() && !relative.starts_with(SHELL) {
            outside.push(relative.display().to_string());
        }
        for (ty, n) in found {
            *counts.entry(ty).or_default() += n;
        }
    }
    Ok((counts, outside))
}

/// The types of `LIMITS` over their figure, one line each.
pub fn problems(root: &Path) -> anyhow::Result<Vec<String>> {
    let src = root.join(CORE);
    if !src.is_dir() {
        return Ok(Vec::new());
    }
    let (counts, outside) = count(&src)?;
    let over = LIMITS
        .iter()
        .filter(|(ty, limit)| counts[ty] > *limit)
        .map(|(ty, limit)| {
            format!(
                "{CORE}: {ty} has {} methods (at most {limit}: xtask/src/methods.rs)",
                counts[ty]
            )
        });
    let astray = outside.iter().map(|file| {
        format!(
            "{CORE}/{file}: implements the engine's types outside {SHELL}/ (the shell in one place)"
        )
    });
    Ok(over.chain(astray).collect())
}

/// The methods of each type of `LIMITS` that `text` implements inherently (`impl Engine {`,
/// not `impl Trait for Engine`): `fn` items one level inside the impl's braces.
fn methods_in(text: &str) -> Vec<(&'static str, usize)> {
    let mut found = Vec::new();
    let mut depth = 0usize;
    let mut open: Option<(&'static str, usize, usize)> = None; // (type, depth inside, count)
    for line in text.lines() {
        let code = code_part(line).trim();
        if open.is_none()
            && let Some(ty) = inherent_impl_of(code)
        {
            open = Some((ty, depth + 1, 0));
        }
        if let Some((_, inside, n)) = open.as_mut()
            && depth == *inside
            && is_fn(code)
        {
            *n += 1;
        }
        depth += code.matches('{').count();
        depth = depth.saturating_sub(code.matches('}').count());
        if let Some((ty, inside, n)) = open
            && depth < inside
            && code.contains('}')
        {
            found.push((ty, n));
            open = None;
        }
    }
    found
}

/// The type of `LIMITS` an `impl` line opens an inherent impl of.
fn inherent_impl_of(code: &str) -> Option<&'static str> {
    let mut rest = code.strip_prefix("impl")?;
    if rest.starts_with('<') {
        rest = &rest[rest.find('>')? + 1..];
    } else if !rest.starts_with(' ') {
        return None;
    }
    if rest.contains(" for ") {
        return None;
    }
    let path = rest.trim_start().split([' ', '<', '{']).next()?;
    let name = path.rsplit("::").next()?;
    LIMITS.iter().map(|(t, _)| *t).find(|t| *t == name)
}

/// Whether a line starts a function item.
fn is_fn(code: &str) -> bool {
    let mut rest = code;
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "async ",
        "unsafe ",
    ] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    for prefix in ["const ", "async ", "unsafe "] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    rest.starts_with("fn ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impl_outside_the_shell_folder_is_a_problem() {
        let root = std::env::temp_dir().join(format!("methods-{}", std::process::id()));
        let src = root.join(CORE);
        std::fs::create_dir_all(src.join(SHELL)).unwrap();
        std::fs::write(
            src.join(SHELL).join("mod.rs"),
            "impl Engine {\n    fn a() {}\n}\n",
        )
        .unwrap();
        std::fs::write(
            src.join("read.rs"),
            "impl Session<'_> {\n    fn b() {}\n}\n",
        )
        .unwrap();
        let problems = problems(&root).unwrap();
        std::fs::remove_dir_all(&root).unwrap();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("/read.rs: implements"), "{problems:?}");
    }

    #[test]
    fn inherent_methods_are_counted_and_trait_impls_are_not() {
        let text = "impl Engine {\n    pub fn a(&self) {\n        if x { y }\n    }\n    \
                    pub(crate) async fn b(&self) {}\n    fn c() {}\n}\n\
                    impl Backend for Engine {\n    fn d(&self) {}\n}\n\
                    impl Engine {\n    // fn not_one() {}\n    const fn e() {}\n}\n\
                    impl crate::engine::Session<'_> {\n    fn f(&self) {}\n}\n\
                    impl<'e> Session<'e> {\n    fn g(&self) {}\n}\n";
        assert_eq!(
            methods_in(text),
            [("Engine", 3), ("Engine", 1), ("Session", 1), ("Session", 1)]
        );
    }
}

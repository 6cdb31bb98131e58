//! App packs in tests: the packs shipped with deskpilot and a test's own (`Desktop::with_packs`),
//! a pack's app started as its profile says, and a locator's `@pack/control` found in the app
//! at every use, as the MCP server finds it (`deskpilot_packs::resolve`).

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use deskpilot_packs::AppPack;
use deskpilot_packs::builtin::shipped;
use deskpilot_packs::report::{Finding, Report};
use deskpilot_packs::set::{Sources, load, parsed_app};

use crate::error::{Result, TestError};

/// A test's packs by id.
pub(crate) type Packs = deskpilot_packs::set::PackSet<AppPack>;

/// The shipped packs, read once per process (they are checked by the crate's own tests).
pub(crate) fn shipped_packs() -> Arc<Packs> {
    static SHIPPED: OnceLock<Arc<Packs>> = OnceLock::new();
    SHIPPED
        .get_or_init(|| {
            let sources = Sources::shipped_only();
            Arc::new(load(&sources, parsed_app).unwrap_or_default())
        })
        .clone()
}

/// The packs under `roots` (each of a root's directories with a `manifest.json` is one)
/// over the shipped ones; a pack with an error fails, every error listed.
pub(crate) fn with_roots(roots: Vec<PathBuf>) -> Result<Arc<Packs>> {
    let sources = Sources {
        roots,
        user: None,
        shipped: shipped(),
    };
    load(&sources, parsed_app)
        .map(Arc::new)
        .map_err(|report| TestError::Desktop(problems(&report)))
}

/// A report's errors, a line each.
fn problems(report: &Report) -> String {
    let line = |f: &Finding| {
        format!(
            "{} {} {}: {} ({})",
            f.pack, f.file, f.path, f.message, f.code
        )
    };
    let lines: Vec<String> = report.errors.iter().map(line).collect();
    format!("the app packs have errors:\n{}", lines.join("\n"))
}

#[cfg(test)]
mod tests {
    /// A root with a broken pack fails where it is given, naming the file, the path and why;
    /// a good root's pack is there beside the shipped ones.
    #[test]
    fn a_broken_pack_fails_where_it_is_given() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("editor");
        std::fs::create_dir_all(&dir).unwrap();
        let write = |file: &str, text: &str| std::fs::write(dir.join(file), text).unwrap();
        write("manifest.json", r#"{"id": "editor", "version": "1"}"#);
        write("profile.json", r#"{"main_window": {"app": "mousepad"}}"#);
        write(
            "controls.json",
            r#"{"controls": {"text": {"selectors": ["textbox"]}}}"#,
        );
        let packs = super::with_roots(vec![root.path().to_owned()]).expect("a good pack");
        assert!(packs.app("editor").is_some() && packs.app("mousepad").is_some());

        let within = r#"{"controls": {"text": {"selectors": ["textbox"], "within": "nowhere"}}}"#;
        write("controls.json", within);
        match super::with_roots(vec![root.path().to_owned()]) {
            Err(crate::TestError::Desktop(message)) => {
                assert!(
                    message.contains("controls.json /controls/text/within"),
                    "{message}"
                );
                assert!(message.contains("unknown_control"), "{message}");
            }
            Ok(_) => panic!("a broken pack was taken"),
            Err(other) => panic!("unexpected failure: {other}"),
        }
    }
}

//! Command-line words for core's closed sets (verbs, buttons, directions, window actions):
//! the names come from core, so the CLI and the MCP server accept the same ones.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use deskpilot_core::act::Named;
use deskpilot_core::hint::FaceVerb;
use deskpilot_core::{Selector, Target};

/// A clap parser that accepts exactly `T`'s names (and lists them in `--help`).
pub fn named<T: Named + Clone + Send + Sync>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(T::names())
        .map(|name| T::from_name(&name).expect("clap accepts only listed names"))
}

/// A selector argument as a target.
pub fn selector(text: &str) -> anyhow::Result<Target> {
    Ok(Target::Selector(Selector::parse(text)?))
}

/// The verbs core's hints name, as the CLI's commands: a CLI user is told what to type.
pub fn command(verb: FaceVerb) -> String {
    let command = match verb {
        FaceVerb::ListApps => "deskpilot apps",
        // The CLI opens no session: each command names its app or window.
        FaceVerb::Connect => "deskpilot snapshot APP",
        FaceVerb::Snapshot => "deskpilot snapshot",
        FaceVerb::Find => "deskpilot find",
        FaceVerb::GetProperties => "deskpilot props",
        FaceVerb::ReadTable => "deskpilot table",
        FaceVerb::WaitFor => "deskpilot wait",
        FaceVerb::WindowAction => "deskpilot window",
        FaceVerb::SetValue => "deskpilot set",
        FaceVerb::TypeText => "deskpilot type",
        FaceVerb::Click => "deskpilot click",
        FaceVerb::Act => "deskpilot act",
    };
    format!("`{command}`")
}

#[cfg(test)]
mod tests {
    use deskpilot_core::hint::{FaceVerb, worded};

    /// A CLI user is told the CLI's command, never an MCP tool's name.
    #[test]
    fn hints_name_the_clis_commands() {
        let hint = "the app quit or crashed; `list_apps`, then `connect` again";
        assert_eq!(
            worded(hint, super::command),
            "the app quit or crashed; `deskpilot apps`, then `deskpilot snapshot APP` again"
        );
        for verb in FaceVerb::ALL {
            assert!(!super::command(*verb).contains('_'), "{verb:?}");
        }
    }

    /// A find's notes on what it could not search name the CLI's commands too.
    #[test]
    fn unsearched_notes_name_the_clis_commands() {
        use deskpilot_core::model::Role;
        use deskpilot_core::read::{FindResult, Unsearched};
        let found = FindResult {
            matches: Vec::new(),
            total: 0,
            visible: 0,
            exact: 0,
            unsearched: vec![Unsearched {
                reference: "e4".into(),
                role: Role::Table,
                name: "Files".into(),
                why: "? children not realized (use `read_table` or `find` within it)".into(),
            }],
        };
        let text = deskpilot_core::present::find_in(&found, &super::command);
        assert!(
            text.contains("(use `deskpilot table` or `deskpilot find` within it)"),
            "{text}"
        );
    }
}

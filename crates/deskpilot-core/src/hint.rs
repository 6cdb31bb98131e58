//! What a hint tells a reader to do, in no face's words: core writes a verb a face offers in
//! backticks, by the MCP tool's name (`list_apps`), and each face words it in its own
//! vocabulary, so that a CLI user is told the CLI's command.

/// A verb a hint may name: what the reader does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaceVerb {
    ListApps,
    Connect,
    Snapshot,
    Find,
    GetProperties,
    ReadTable,
    WaitFor,
    WindowAction,
    SetValue,
    TypeText,
    Click,
    Act,
}

impl FaceVerb {
    pub const ALL: &'static [FaceVerb] = &[
        FaceVerb::ListApps,
        FaceVerb::Connect,
        FaceVerb::Snapshot,
        FaceVerb::Find,
        FaceVerb::GetProperties,
        FaceVerb::ReadTable,
        FaceVerb::WaitFor,
        FaceVerb::WindowAction,
        FaceVerb::SetValue,
        FaceVerb::TypeText,
        FaceVerb::Click,
        FaceVerb::Act,
    ];

    /// How core's hints mark it: the MCP tool's name, in backticks.
    pub fn marker(self) -> &'static str {
        match self {
            FaceVerb::ListApps => "list_apps",
            FaceVerb::Connect => "connect",
            FaceVerb::Snapshot => "snapshot",
            FaceVerb::Find => "find",
            FaceVerb::GetProperties => "get_properties",
            FaceVerb::ReadTable => "read_table",
            FaceVerb::WaitFor => "wait_for",
            FaceVerb::WindowAction => "window_action",
            FaceVerb::SetValue => "set_value",
            FaceVerb::TypeText => "type_text",
            FaceVerb::Click => "click",
            FaceVerb::Act => "act",
        }
    }

    pub fn from_marker(marker: &str) -> Option<FaceVerb> {
        FaceVerb::ALL.iter().copied().find(|v| v.marker() == marker)
    }
}

/// `hint` with each marked verb worded by `word`; any other text, backticks included, as it
/// was.
pub fn worded(hint: &str, word: impl Fn(FaceVerb) -> String) -> String {
    let mut out = String::with_capacity(hint.len());
    let mut rest = hint;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else {
            break;
        };
        out.push_str(&rest[..open]);
        match FaceVerb::from_marker(&after[..close]) {
            Some(verb) => out.push_str(&word(verb)),
            None => out.push_str(&rest[open..open + close + 2]),
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// A hint in the MCP server's words: the tool names, unmarked.
pub fn in_tool_names(hint: &str) -> String {
    worded(hint, |verb| verb.marker().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marked_verbs_are_worded_and_the_rest_kept() {
        let hint = "the app quit; `list_apps`, then `connect` again (`>>` kept, `odd";
        assert_eq!(
            in_tool_names(hint),
            "the app quit; list_apps, then connect again (`>>` kept, `odd"
        );
        let cli = worded(hint, |verb| match verb {
            FaceVerb::ListApps => "`deskpilot apps`".into(),
            other => format!("<{}>", other.marker()),
        });
        assert_eq!(
            cli,
            "the app quit; `deskpilot apps`, then <connect> again (`>>` kept, `odd"
        );
    }

    /// Every backticked word in core's string literals is a verb a face can word: a hint
    /// that named a tool unmarked, or marked one no face knows, would reach a CLI user in
    /// the MCP server's words.
    #[test]
    fn every_marked_word_in_core_is_a_face_verb() {
        let mut unknown = Vec::new();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut dirs = vec![root];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.ends_with("hint.rs") {
                    continue;
                }
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                    for literal in line.split('"').skip(1).step_by(2) {
                        for marked in literal.split('`').skip(1).step_by(2) {
                            let word = marked.chars().all(|c| c.is_ascii_lowercase() || c == '_');
                            if word && FaceVerb::from_marker(marked).is_none() {
                                unknown.push(format!("{}: `{marked}`", path.display()));
                            }
                        }
                        // A tool's name written bare, in a sentence (a verb's own name,
                        // alone, is no sentence).
                        let bare: String = literal.split('`').step_by(2).collect();
                        for verb in FaceVerb::ALL.iter().filter(|v| v.marker().contains('_')) {
                            if literal != verb.marker()
                                && bare
                                    .split(|c: char| !(c.is_ascii_lowercase() || c == '_'))
                                    .any(|w| w == verb.marker())
                            {
                                unknown.push(format!("{}: bare {}", path.display(), verb.marker()));
                            }
                        }
                    }
                }
            }
        }
        assert!(unknown.is_empty(), "{unknown:?}");
    }
}

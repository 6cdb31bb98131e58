//! A pack holds data that stays true on another machine: no absolute path, pid, window id or
//! screen coordinate (errors), and no credential (a warning pointing at `${env.NAME}`).
//! Only literals are judged: a `${...}` reference is filled in when the workflow runs.

use serde_json::Value;

use super::format::{Profile, Workflow};
use super::report::Notes;

/// Argument names whose literal value belongs to one machine or one run.
const MACHINE_BOUND: [&str; 4] = ["pid", "window_id", "x", "y"];

/// Words in a name that say its value is a credential.
const SECRET_WORDS: [&str; 6] = ["password", "passwd", "secret", "token", "api_key", "apikey"];

pub fn profile(profile: &Profile, notes: &mut Notes<'_>) {
    let Some(launch) = &profile.launch else {
        return;
    };
    for (index, program) in launch.programs.iter().enumerate() {
        if absolute(program) {
            let at = format!("/launch/programs/{index}");
            notes.error(
                &at,
                "literal",
                "an absolute path: name the program, or use path_env",
            );
        }
    }
    for (index, arg) in launch.args.iter().enumerate() {
        judge_text(&format!("/launch/args/{index}"), "", arg, notes);
    }
}

pub fn workflow(workflow: &Workflow, at: &str, notes: &mut Notes<'_>) {
    for (path, step) in workflow.placed(at) {
        for (key, value) in &step.args {
            let bound = MACHINE_BOUND.contains(&key.as_str()) && literal_value(value);
            if bound {
                let message = format!("{key} belongs to one run: take it from an earlier step");
                notes.error(&format!("{path}/args/{key}"), "literal", message);
            } else {
                judge(&format!("{path}/args/{key}"), key, value, notes);
            }
        }
        for key in ["text", "value"].into_iter().filter(|_| step.secret()) {
            if let Some(Value::String(text)) = step.args.get(key)
                && literal(text)
            {
                let message =
                    "secret text written in the pack: take it from ${env.NAME} or an input";
                notes.warn(&format!("{path}/args/{key}"), "secret", message);
            }
        }
    }
    let declared = workflow.inputs.get("properties").and_then(Value::as_object);
    for (name, property) in declared.into_iter().flatten() {
        let at = format!("{at}/inputs/properties/{name}");
        for field in ["default", "const", "examples", "enum"] {
            if let Some(value) = property.get(field) {
                secrets(&format!("{at}/{field}"), name, value, notes);
            }
        }
    }
}

/// A number, or text with no reference in it.
fn literal_value(value: &Value) -> bool {
    match value {
        Value::Number(_) => true,
        Value::String(text) => literal(text),
        _ => false,
    }
}

/// Credential-like literals in `value` (an input's default or examples), a warning each.
fn secrets(at: &str, key: &str, value: &Value, notes: &mut Notes<'_>) {
    match value {
        Value::String(text) if literal(text) && secret_like(key, text) => {
            let message = "this looks like a credential: take it from ${env.NAME} or an input";
            notes.warn(at, "secret", message);
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                secrets(&format!("{at}/{index}"), key, item, notes);
            }
        }
        _ => {}
    }
}

/// Arguments whose text is the app's or the user's words, not a place on this machine.
const WORDS: [&str; 4] = ["text", "key", "selector", "target"];

/// A value at `at`, under the argument `key`.
fn judge(at: &str, key: &str, value: &Value, notes: &mut Notes<'_>) {
    match value {
        Value::String(text) => judge_text(at, key, text, notes),
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                judge(&format!("{at}/{index}"), key, item, notes);
            }
        }
        Value::Object(map) => {
            for (inner, item) in map {
                judge(&format!("{at}/{inner}"), inner, item, notes);
            }
        }
        _ => {}
    }
}

fn judge_text(at: &str, key: &str, text: &str, notes: &mut Notes<'_>) {
    if !literal(text) {
        return;
    }
    if absolute(text) && !WORDS.contains(&key) {
        notes.error(
            at,
            "literal",
            "an absolute path belongs to one machine: take it from an input",
        );
    }
    if secret_like(key, text) {
        let message = "this looks like a credential: take it from ${env.NAME} or an input";
        notes.warn(at, "secret", message);
    }
}

/// A credential by its name (`password`) or its look (a long word of letters and digits).
fn secret_like(key: &str, text: &str) -> bool {
    let key = key.to_ascii_lowercase();
    SECRET_WORDS.iter().any(|w| key.contains(w)) || looks_like_a_credential(text)
}

/// Text with no `${...}` in it.
fn literal(text: &str) -> bool {
    !text.is_empty() && !text.contains("${")
}

/// A path from a file system's root: `/usr/bin/x` (two parts at least, so `/` and `/help`
/// are not), a drive's (`C:` and a slash), a share's (two backslashes), `file:///x`.
fn absolute(text: &str) -> bool {
    let bytes = text.as_bytes();
    let drive = bytes.len() >= 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && matches!(bytes[2], b'\\' | b'/');
    let rooted =
        text.starts_with('/') && text[1..].contains('/') && !text.contains(char::is_whitespace);
    rooted || drive || text.starts_with("\\\\") || text.starts_with("file:///")
}

/// A long word of letters and digits mixed, with no space: how keys and tokens look.
fn looks_like_a_credential(text: &str) -> bool {
    let word = text.len() >= 24 && !text.contains(char::is_whitespace);
    let letters = text.chars().filter(char::is_ascii_alphabetic).count();
    let digits = text.chars().filter(char::is_ascii_digit).count();
    word && letters >= 6 && digits >= 4 && !text.contains(['/', '[', '.'])
}

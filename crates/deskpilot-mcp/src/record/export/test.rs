//! A recording as a Rust test for `deskpilot-test`. The app is started (by its name when
//! the session attached to a running one). Each call is the library's action on its
//! locator; each thing read back after a confirmed action an `expect`. An unverified action
//! gets a comment saying what to check by hand. Secrets are read from environment
//! variables named in the file's header.

use std::fmt::Write as _;

use serde_json::Value;

use super::plan::{Plan, Planned, Step, text};
use crate::record::line::{Evidence, Header};

/// The test's source.
pub fn test(header: &Header, plan: &Plan) -> String {
    let secrets = secrets(plan);
    let mut out = String::new();
    let app = &header.app.name;
    let client = header.client.as_deref().unwrap_or("an MCP client");
    let _ = writeln!(
        out,
        "//! What {client} did in {app}, recorded by `deskpilot mcp --record` and"
    );
    let _ = writeln!(out, "//! exported by `deskpilot export --as test`.");
    if !secrets.is_empty() {
        let _ = writeln!(out, "//!\n//! Secrets come from the environment:");
        for (placeholder, var) in &secrets {
            let _ = writeln!(out, "//! - `{var}` (`{placeholder}` in the recording)");
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "#[allow(unused_imports)]");
    let _ = writeln!(out, "use deskpilot_test::{{Desktop, State, expect}};");
    let _ = writeln!(out);
    let _ = writeln!(out, "#[tokio::test]");
    let _ = writeln!(
        out,
        "async fn {}() -> deskpilot_test::Result<()> {{",
        fn_name(app)
    );
    let _ = writeln!(out, "    let desktop = Desktop::for_test().await?;");
    start(&mut out, header);
    for step in &plan.steps {
        match step {
            Step::Call(planned) => call(&mut out, planned, &secrets),
            Step::Failed(failed) => {
                let code = failed.entry.code.as_deref().unwrap_or("failed");
                let on = match failed.elements.first() {
                    Some((_, locator)) => format!(" on `{locator}`"),
                    None => String::new(),
                };
                let _ = writeln!(
                    out,
                    "    // The session's {}{on} failed here ({code}) and was not tried again: not replayed.",
                    failed.entry.tool
                );
            }
        }
    }
    let _ = writeln!(out, "    Ok(())");
    let _ = writeln!(out, "}}");
    out
}

/// The app started as the session had it.
fn start(out: &mut String, header: &Header) {
    let argv = match &header.app.launched {
        Some(argv) => argv.clone(),
        None => {
            let _ = writeln!(
                out,
                "    // The session attached to a running {}: started here by its name.",
                header.app.name
            );
            vec![header.app.name.to_lowercase()]
        }
    };
    let words: Vec<String> = argv.iter().map(|a| lit(a)).collect();
    let _ = writeln!(
        out,
        "    let app = desktop.launch([{}]).await?;",
        words.join(", ")
    );
}

/// Each secret placeholder of `plan`, with the environment variable that gives it.
fn secrets(plan: &Plan) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    for step in &plan.steps {
        let Step::Call(planned) = step else { continue };
        for key in ["text", "value"] {
            let Some(name) = text(&planned.entry, key).and_then(placeholder) else {
                continue;
            };
            let var = format!("DESKPILOT_SECRET_{}", name.to_uppercase());
            let placeholder = format!("${{secret.{name}}}");
            if !found.iter().any(|(p, _)| *p == placeholder) {
                found.push((placeholder, var));
            }
        }
    }
    found
}

/// The name in a `${secret.NAME}` placeholder.
fn placeholder(text: &str) -> Option<&str> {
    text.strip_prefix("${secret.")?.strip_suffix('}')
}

/// One call, then what it earned.
fn call(out: &mut String, planned: &Planned, secrets: &[(String, String)]) {
    let entry = &planned.entry;
    if !planned.failed_first.is_empty() {
        let _ = writeln!(
            out,
            "    // Worked after {} failed tries ({}) in the session.",
            planned.failed_first.len(),
            planned.failed_first.join(", ")
        );
    }
    let on = |arg: &str| {
        planned
            .elements
            .iter()
            .find(|(a, _)| a == arg)
            .map(|(_, locator)| format!("app.locator({})", lit(locator)))
    };
    let target = on("target");
    let secret = |key: &str| {
        let name = text(entry, key).and_then(placeholder)?;
        let placeholder = format!("${{secret.{name}}}");
        let var = &secrets.iter().find(|(p, _)| *p == placeholder)?.1;
        Some(format!(
            "&std::env::var({}).expect(\"the secret\")",
            lit(var)
        ))
    };
    let line = match (entry.tool.as_str(), &target) {
        ("wait_for", _) => wait_for(entry),
        ("click", Some(t)) => Some(format!("{t}.click().await?;")),
        ("set_value", Some(t)) => set_value(entry, t, secret("value")),
        ("type_text", t) => {
            let typed = secret("text").or_else(|| text(entry, "text").map(lit));
            let verb = if secret("text").is_some() {
                "type_secret"
            } else {
                "type_text"
            };
            let on = t.clone().unwrap_or_else(|| "app".into());
            typed.map(|typed| format!("{on}.{verb}({typed}).await?;"))
        }
        ("press_key", t) => {
            let on = t.clone().unwrap_or_else(|| "app".into());
            text(entry, "key").map(|k| format!("{on}.press({}).await?;", lit(k)))
        }
        ("act", Some(t)) => act(entry, t),
        ("drag", _) => match (on("from"), on("to")) {
            (Some(from), Some(to)) => Some(format!("{from}.drag_to(&{to}).await?;")),
            _ => None,
        },
        _ => None,
    };
    let Some(line) = line else {
        let _ = writeln!(
            out,
            "    todo!({});",
            lit(&format!(
                "replay the session's {} call: the test library has no step for it",
                entry.tool
            ))
        );
        return;
    };
    let _ = writeln!(out, "    {line}");
    match entry.effect.as_deref() {
        Some("confirmed") => {
            for evidence in &entry.evidence {
                if let Some(expect) = expectation(evidence, target.as_deref()) {
                    let _ = writeln!(out, "    {expect}");
                }
            }
        }
        Some("unverified") => {
            let what = match entry.changes.is_empty() {
                true => "it took effect".to_owned(),
                false => entry.changes.join("; "),
            };
            let _ = writeln!(
                out,
                "    // Unverified: deskpilot could not read this back; check by hand that {what}."
            );
        }
        _ => {}
    }
}

fn set_value(
    entry: &crate::record::line::Entry,
    target: &str,
    secret: Option<String>,
) -> Option<String> {
    if let Some(secret) = secret {
        return Some(format!("{target}.fill_secret({secret}).await?;"));
    }
    match entry.args.get("value")? {
        Value::String(text) => Some(format!("{target}.fill({}).await?;", lit(text))),
        Value::Number(n) => Some(format!("{target}.set_number({}).await?;", float(n))),
        _ => None,
    }
}

/// `act`'s verbs the test library has.
fn act(entry: &crate::record::line::Entry, target: &str) -> Option<String> {
    let verb = text(entry, "verb")?;
    let ensure = text(entry, "ensure");
    let call = match (verb, ensure) {
        ("toggle" | "check", Some("on")) | ("check", None) => "check()".to_owned(),
        ("toggle" | "check", Some("off")) | ("uncheck", None) => "uncheck()".to_owned(),
        ("select", _) => "select()".to_owned(),
        ("expand", _) => "expand()".to_owned(),
        ("collapse", _) => "collapse()".to_owned(),
        ("focus", _) => "focus()".to_owned(),
        ("scroll_into_view", _) => "scroll_into_view()".to_owned(),
        ("choose", _) => match entry.args.get("option") {
            Some(Value::String(name)) => format!("select_option({})", lit(name)),
            Some(Value::Number(n)) => format!("select_option_at({n})"),
            _ => return None,
        },
        _ => return None,
    };
    Some(format!("{target}.{call}.await?;"))
}

/// `wait_for`'s condition as an expectation.
fn wait_for(entry: &crate::record::line::Entry) -> Option<String> {
    let selector = text(entry, "selector")?;
    let on = format!("expect(&app.locator({}))", lit(selector));
    let until = text(entry, "until");
    let line = if let Some(value) = text(entry, "value") {
        format!("{on}.to_have_value({}).await?;", lit(value))
    } else if let Some(value) = text(entry, "value_contains") {
        format!("{on}.to_contain_text({}).await?;", lit(value))
    } else if let Some(state) = text(entry, "state") {
        state_expectation(&on, state.trim_start_matches('!'), !state.starts_with('!'))?
    } else if let Some(count) = entry.args.get("count").and_then(Value::as_u64) {
        format!("{on}.to_have_count({count}).await?;")
    } else if until == Some("disappears") {
        format!("{on}.to_be_hidden().await?;")
    } else {
        format!("{on}.to_be_visible().await?;")
    };
    Some(line)
}

/// What was read back, as an expectation on `target` (or the window it names).
fn expectation(evidence: &Evidence, target: Option<&str>) -> Option<String> {
    let on = |locator: &str| format!("expect(&{locator})");
    let window = |role: &str, title: &str| {
        let selector = format!("{role}[name={}]", deskpilot_core::selector::quote(title));
        format!("expect(&app.locator({}))", lit(&selector))
    };
    Some(match evidence {
        Evidence::State { state, on: is_on } => state_expectation(&on(target?), state, *is_on)?,
        Evidence::Value { value } => {
            format!("{}.to_have_value({}).await?;", on(target?), lit(value))
        }
        Evidence::Gone => format!("{}.to_be_hidden().await?;", on(target?)),
        Evidence::WindowOpened { role, title } => {
            format!("{}.to_be_visible().await?;", window(role, title))
        }
        Evidence::WindowClosed { role, title } => {
            format!("{}.to_be_hidden().await?;", window(role, title))
        }
        // The locator names the element by its old name: no expectation can follow it.
        Evidence::Name { .. } => return None,
    })
}

fn state_expectation(on: &str, state: &str, is_on: bool) -> Option<String> {
    let not = if is_on { "" } else { ".not()" };
    if state == "checked" {
        return Some(format!("{on}{not}.to_be_checked().await?;"));
    }
    let variant = deskpilot_core::model::State::from_name(state)?;
    Some(format!(
        "{on}{not}.to_have_state(State::{variant:?}).await?;"
    ))
}

/// `n` as a Rust `f64` literal.
fn float(n: &serde_json::Number) -> String {
    let text = n.to_string();
    if text.contains(['.', 'e', 'E']) {
        text
    } else {
        format!("{text}.0")
    }
}

/// `text` as a Rust string literal: raw where it holds quotes or backslashes.
fn lit(text: &str) -> String {
    let plain = !text.chars().any(|c| c.is_control());
    if plain && (text.contains('"') || text.contains('\\')) && !text.contains("\"#") {
        format!("r#\"{text}\"#")
    } else {
        format!("{text:?}")
    }
}

/// The test's name: `NAME_replays` with the app's name in lower case, other characters `_`.
fn fn_name(app: &str) -> String {
    let mut name: String = app
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name.insert_str(0, "app_");
    }
    format!("{name}_replays")
}

//! The selector's text form, parsed (the grammar is in `selector.rs` and docs/selectors.md).

use super::{Regex, SelectorError, Step, TextMatch, err};
use crate::model::{Capability, Role, State};

/// Splits on ` >> ` outside quotes and regexes.
pub(super) fn split_steps(text: &str) -> Result<Vec<String>, SelectorError> {
    let mut steps = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                current.push(c);
                if c == '\\' {
                    if let Some(next) = chars.next() {
                        current.push(next);
                    }
                } else if c == q {
                    quote = None;
                }
            }
            None if c == '"' || c == '/' && current.ends_with(['=', '~']) => {
                quote = Some(c);
                current.push(c);
            }
            None if c == '>' && chars.peek() == Some(&'>') => {
                chars.next();
                if current.trim().is_empty() {
                    return Err(err("`>>` needs a step on both sides"));
                }
                steps.push(std::mem::take(&mut current));
            }
            None => current.push(c),
        }
    }
    if quote.is_some() {
        return Err(err("unterminated quote or regex"));
    }
    if current.trim().is_empty() {
        return Err(err("`>>` needs a step on both sides"));
    }
    steps.push(current);
    Ok(steps)
}

pub(super) fn parse_step(text: &str) -> Result<Step, SelectorError> {
    let mut step = Step::default();
    let role_end = text.find(['[', ':']).unwrap_or(text.len());
    let role = text[..role_end].trim();
    if !role.is_empty() && role != "*" {
        step.role = Some(Role::from_name(role).ok_or_else(|| {
            err(format!(
                "unknown role {role:?} (roles: {})",
                Role::ALL
                    .iter()
                    .map(|r| r.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?);
    }
    let mut rest = &text[role_end..];
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[') {
            let (filter, tail) = take_bracket(after)?;
            apply_filter(&mut step, filter)?;
            rest = tail.trim_start();
        } else if let Some(after) = rest.strip_prefix(":nth(") {
            let close = after.find(')').ok_or_else(|| err(":nth( without )"))?;
            let n: usize = after[..close]
                .trim()
                .parse()
                .map_err(|_| err(format!(":nth({}) needs a number", &after[..close])))?;
            step.nth = Some(n);
            rest = after[close + 1..].trim_start();
        } else {
            return Err(err(format!(
                "unexpected {rest:?} (expected [filter] or :nth(N))"
            )));
        }
    }
    if step.role.is_none()
        && step.name.is_none()
        && step.id.is_none()
        && step.description.is_none()
        && step.label.is_none()
        && step.value.is_none()
        && step.states.is_empty()
        && step.not_states.is_empty()
        && step.actions.is_empty()
        && step.capabilities.is_empty()
    {
        return Err(err(format!("step {text:?} has no criterion")));
    }
    Ok(step)
}

/// The content of `[...]` up to its closing bracket (outside quotes/regex), and what follows.
fn take_bracket(text: &str) -> Result<(&str, &str), SelectorError> {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut prev = ' ';
    for (i, c) in text.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' && quote.is_some() {
            escaped = true;
        } else if let Some(q) = quote {
            if c == q {
                quote = None;
            }
        } else if c == '"' || (c == '/' && prev == '=') {
            quote = Some(c);
        } else if c == ']' {
            return Ok((&text[..i], &text[i + 1..]));
        }
        prev = c;
    }
    Err(err(format!("unclosed [ in {text:?}")))
}

fn apply_filter(step: &mut Step, filter: &str) -> Result<(), SelectorError> {
    let filter = filter.trim();
    let op_at = filter.find(['=', '*', '~']);
    let Some(op_at) = op_at else {
        // [checked] or [!checked]
        let (negated, name) = match filter.strip_prefix('!') {
            Some(name) => (true, name.trim()),
            None => (false, filter),
        };
        let state = parse_state(name)?;
        if negated {
            step.not_states.push(state);
        } else {
            step.states.push(state);
        }
        return Ok(());
    };
    let key = filter[..op_at].trim();
    let rest = &filter[op_at..];
    let (op, raw) = if let Some(v) = rest.strip_prefix("*=") {
        ("*=", v)
    } else if let Some(v) = rest.strip_prefix("~=") {
        ("~=", v)
    } else if let Some(v) = rest.strip_prefix('=') {
        ("=", v)
    } else {
        return Err(err(format!("bad operator in [{filter}] (use =, *= or ~=)")));
    };
    let value = parse_value(raw.trim())?;
    let text_match = || -> Result<TextMatch, SelectorError> {
        Ok(match (op, &value) {
            ("~=", Value::Text(t)) | (_, Value::Regex(t)) => TextMatch::Regex(Regex::new(t)?),
            ("*=", Value::Text(t)) => TextMatch::Contains(t.clone()),
            (_, Value::Text(t)) => TextMatch::Exact(t.clone()),
        })
    };
    let plain = |what: &str| -> Result<String, SelectorError> {
        match (&value, op) {
            (Value::Text(t), "=") => Ok(t.clone()),
            _ => Err(err(format!("[{key}] takes `=` and a plain {what}"))),
        }
    };
    match key {
        "name" => set_once(&mut step.name, text_match()?, key)?,
        "id" => set_once(&mut step.id, text_match()?, key)?,
        "description" => set_once(&mut step.description, text_match()?, key)?,
        "label" => set_once(&mut step.label, text_match()?, key)?,
        "value" => set_once(&mut step.value, text_match()?, key)?,
        "action" => step.actions.push(plain("action name")?),
        // `interface` is the key's old name, kept as an alias (docs/selectors.md).
        "capability" | "interface" => {
            let name = plain("capability name")?;
            step.capabilities.push(
                Capability::from_name(&name)
                    .ok_or_else(|| err(format!("unknown capability {name:?}")))?,
            );
        }
        "state" => step.states.push(parse_state(&plain("state name")?)?),
        "role" => {
            let name = plain("role name")?;
            let role =
                Role::from_name(&name).ok_or_else(|| err(format!("unknown role {name:?}")))?;
            if step.role.replace(role).is_some() {
                return Err(err("role given twice"));
            }
        }
        other => {
            return Err(err(format!(
                "unknown filter key {other:?} (name, id, description, label, value, action, capability, state, role)"
            )));
        }
    }
    Ok(())
}

fn set_once(
    slot: &mut Option<TextMatch>,
    value: TextMatch,
    key: &str,
) -> Result<(), SelectorError> {
    if slot.replace(value).is_some() {
        return Err(err(format!("[{key}] given twice")));
    }
    Ok(())
}

fn parse_state(name: &str) -> Result<State, SelectorError> {
    if name == "disabled" {
        return Err(err("use [!enabled] for disabled elements"));
    }
    State::from_name(name).ok_or_else(|| {
        err(format!(
            "unknown state {name:?} (states: {})",
            State::ALL
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })
}

enum Value {
    Text(String),
    Regex(String),
}

fn parse_value(raw: &str) -> Result<Value, SelectorError> {
    if let Some(body) = raw.strip_prefix('"') {
        let body = body
            .strip_suffix('"')
            .ok_or_else(|| err(format!("unterminated string {raw}")))?;
        let mut out = String::new();
        let mut chars = body.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                match chars.next() {
                    Some(n @ ('"' | '\\')) => out.push(n),
                    Some('n') => out.push('\n'),
                    Some(other) => return Err(err(format!("unknown escape \\{other} in {raw}"))),
                    None => return Err(err(format!("dangling \\ in {raw}"))),
                }
            } else if c == '"' {
                return Err(err(format!("unescaped \" inside {raw}")));
            } else {
                out.push(c);
            }
        }
        Ok(Value::Text(out))
    } else if let Some(body) = raw.strip_prefix('/') {
        let (pattern, flags) = body
            .rsplit_once('/')
            .ok_or_else(|| err(format!("unterminated regex {raw}")))?;
        match flags {
            "" => Ok(Value::Regex(pattern.to_owned())),
            "i" => Ok(Value::Regex(format!("(?i){pattern}"))),
            other => Err(err(format!("unknown regex flags {other:?} (only i)"))),
        }
    } else if raw.is_empty() {
        Err(err("empty value (use \"\" for the empty string)"))
    } else if raw.contains(['"', '[', ']', ' ']) {
        Err(err(format!("quote the value {raw:?}")))
    } else {
        Ok(Value::Text(raw.to_owned()))
    }
}

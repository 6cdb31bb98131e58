//! References to earlier steps' results in a step's arguments: `${id.path}`, where the path
//! is dot-separated field names and list indices (`${find.matches.0.ref}`). A string that is
//! one reference takes the value's own type; a reference inside a longer string is written
//! in (a text, a number or a boolean only). `$$` is a literal `$` (so `$${` is a literal
//! `${`).

use std::collections::HashMap;

use serde_json::Value;

/// One reference: the step it names and the path into that step's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub step: String,
    pub path: Vec<String>,
}

impl std::fmt::Display for Reference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "${{{}", self.step)?;
        for segment in &self.path {
            write!(f, ".{segment}")?;
        }
        write!(f, "}}")
    }
}

/// Why a reference has no value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefError {
    #[error("`{0}` is not a reference: write ${{step.field}} (`$${{` for a literal `${{`)")]
    Malformed(String),
    #[error("{0} names no step that ran before this one")]
    NotRun(Reference),
    #[error("{reference}: the result has no `{missing}`")]
    Missing {
        reference: Reference,
        missing: String,
    },
    #[error("{0} is null")]
    Null(Reference),
    #[error("{0} is a list or an object: only a whole argument can be one")]
    NotScalar(Reference),
}

/// A piece of a string: literal text or a reference.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Text(String),
    Ref(Reference),
}

fn is_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Whether `id` can name a step (letters, digits, `_`, `-`; a letter or `_` first).
pub fn is_step_id(id: &str) -> bool {
    is_name(id) && id.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

fn parse_reference(inner: &str) -> Result<Reference, RefError> {
    let mut segments = inner.split('.');
    let step = segments.next().unwrap_or_default();
    let path: Vec<String> = segments.map(str::to_owned).collect();
    if !is_step_id(step) || !path.iter().all(|s| is_name(s)) {
        return Err(RefError::Malformed(format!("${{{inner}}}")));
    }
    Ok(Reference {
        step: step.to_owned(),
        path,
    })
}

/// The pieces of `text`.
fn pieces(text: &str) -> Result<Vec<Piece>, RefError> {
    let mut out = Vec::new();
    let mut literal = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        literal.push_str(&rest[..at]);
        let after = &rest[at..];
        if let Some(tail) = after.strip_prefix("$$") {
            literal.push('$');
            rest = tail;
        } else if let Some(tail) = after.strip_prefix("${") {
            let end = tail
                .find('}')
                .ok_or_else(|| RefError::Malformed(after.chars().take(40).collect()))?;
            if !literal.is_empty() {
                out.push(Piece::Text(std::mem::take(&mut literal)));
            }
            out.push(Piece::Ref(parse_reference(&tail[..end])?));
            rest = &tail[end + 1..];
        } else {
            literal.push('$');
            rest = &after[1..];
        }
    }
    literal.push_str(rest);
    if !literal.is_empty() || out.is_empty() {
        out.push(Piece::Text(literal));
    }
    Ok(out)
}

/// Every reference in `value` (strings inside lists and objects too), in order.
pub fn references(value: &Value) -> Result<Vec<Reference>, RefError> {
    let mut found = Vec::new();
    visit(value, &mut |text| {
        for piece in pieces(text)? {
            if let Piece::Ref(r) = piece {
                found.push(r);
            }
        }
        Ok(())
    })?;
    Ok(found)
}

fn visit(
    value: &Value,
    on_text: &mut impl FnMut(&str) -> Result<(), RefError>,
) -> Result<(), RefError> {
    match value {
        Value::String(text) => on_text(text),
        Value::Array(items) => items.iter().try_for_each(|v| visit(v, on_text)),
        Value::Object(map) => map.values().try_for_each(|v| visit(v, on_text)),
        _ => Ok(()),
    }
}

/// The value at `reference` in the results of the steps that ran.
pub fn lookup<'a>(
    reference: &Reference,
    results: &'a HashMap<String, Value>,
) -> Result<&'a Value, RefError> {
    let mut at = results
        .get(&reference.step)
        .ok_or_else(|| RefError::NotRun(reference.clone()))?;
    for segment in &reference.path {
        let next = match at {
            Value::Object(map) => map.get(segment),
            Value::Array(items) => segment.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        };
        at = next.ok_or_else(|| RefError::Missing {
            reference: reference.clone(),
            missing: segment.clone(),
        })?;
    }
    if at.is_null() {
        return Err(RefError::Null(reference.clone()));
    }
    Ok(at)
}

/// `value` with every reference replaced by its value.
pub fn resolve(value: &Value, results: &HashMap<String, Value>) -> Result<Value, RefError> {
    Ok(match value {
        Value::String(text) => {
            let pieces = pieces(text)?;
            match pieces.as_slice() {
                [Piece::Ref(r)] => lookup(r, results)?.clone(),
                _ => {
                    let mut out = String::new();
                    for piece in pieces {
                        match piece {
                            Piece::Text(t) => out.push_str(&t),
                            Piece::Ref(r) => match lookup(&r, results)? {
                                Value::String(s) => out.push_str(s),
                                v @ (Value::Number(_) | Value::Bool(_)) => {
                                    out.push_str(&v.to_string())
                                }
                                _ => return Err(RefError::NotScalar(r)),
                            },
                        }
                    }
                    Value::String(out)
                }
            }
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| resolve(v, results))
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| Ok((k.clone(), resolve(v, results)?)))
                .collect::<Result<_, RefError>>()?,
        ),
        other => other.clone(),
    })
}

/// `value` with the references to `given`'s names replaced by their values; the others
/// (to steps that have not run yet) are kept as written. What is written in is escaped
/// (`escape`, then each `$` doubled), so that it stays text when the step runs.
pub fn fill(
    value: &Value,
    given: &HashMap<String, Value>,
    escape: &dyn Fn(&str) -> String,
) -> Result<Value, RefError> {
    let text = |t: &str| escape(t).replace('$', "$$");
    Ok(match value {
        Value::String(s) => {
            let pieces = pieces(s)?;
            match pieces.as_slice() {
                [Piece::Ref(r)] if given.contains_key(&r.step) => {
                    escaped(lookup(r, given)?, &|t: &str| text(t))
                }
                _ => {
                    let mut out = String::new();
                    for piece in pieces {
                        match piece {
                            Piece::Text(t) => out.push_str(&t.replace('$', "$$")),
                            Piece::Ref(r) if given.contains_key(&r.step) => {
                                match lookup(&r, given)? {
                                    Value::String(s) => out.push_str(&text(s)),
                                    v @ (Value::Number(_) | Value::Bool(_)) => {
                                        out.push_str(&v.to_string())
                                    }
                                    _ => return Err(RefError::NotScalar(r)),
                                }
                            }
                            Piece::Ref(r) => out.push_str(&r.to_string()),
                        }
                    }
                    Value::String(out)
                }
            }
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| fill(v, given, escape))
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| Ok((k.clone(), fill(v, given, escape)?)))
                .collect::<Result<_, RefError>>()?,
        ),
        other => other.clone(),
    })
}

/// `value` with `text` applied to every string in it.
fn escaped(value: &Value, text: &dyn Fn(&str) -> String) -> Value {
    match value {
        Value::String(s) => Value::String(text(s)),
        Value::Array(items) => Value::Array(items.iter().map(|v| escaped(v, text)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), escaped(v, text)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// No escape beyond `fill`'s own: for arguments that are plain text.
pub fn as_text(text: &str) -> String {
    text.to_owned()
}

/// Text written into a selector's quoted value: `\` and `"` escaped, so that it cannot end
/// the quote (an input never adds a step or a criterion).
pub fn in_selector(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Whether `value` is exactly one reference (its type is the referenced value's).
pub fn whole_reference(value: &Value) -> Option<Reference> {
    let text = value.as_str()?;
    match pieces(text).ok()?.as_slice() {
        [Piece::Ref(r)] => Some(r.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn results() -> HashMap<String, Value> {
        HashMap::from([
            ("open".into(), json!({"session": "s1", "pid": 42})),
            (
                "find".into(),
                json!({"matches": [{"ref": "e7", "name": "OK"}], "total": 1}),
            ),
        ])
    }

    /// A whole reference keeps its type; one inside text is written in; `$${` is literal.
    #[test]
    fn references_resolve_to_values_and_text() {
        let args = json!({
            "session": "${open.session}",
            "pid": "${open.pid}",
            "target": "${find.matches.0.ref}",
            "text": "pid ${open.pid} costs $5 and $${literal}",
            "list": ["${find.total}"],
        });
        let resolved = resolve(&args, &results()).unwrap();
        assert_eq!(
            resolved,
            json!({
                "session": "s1",
                "pid": 42,
                "target": "e7",
                "text": "pid 42 costs $5 and ${literal}",
                "list": [1],
            })
        );
        assert_eq!(references(&args).unwrap().len(), 5);
    }

    /// A reference to a step that did not run, a field that is not there, an object written
    /// into text, and a malformed one: each an error naming it.
    #[test]
    fn a_reference_without_a_value_is_an_error_naming_it() {
        let r = results();
        let err = |v: Value| resolve(&v, &r).unwrap_err().to_string();
        assert!(err(json!("${later.x}")).contains("${later.x} names no step"));
        assert!(err(json!("${find.matches.3.ref}")).contains("no `3`"));
        assert!(err(json!("at ${find.matches}")).contains("a list or an object"));
        assert!(err(json!("${find.matches")).contains("not a reference"));
        assert!(err(json!("${9x}")).contains("not a reference"));
        assert_eq!(
            whole_reference(&json!("${find.total}"))
                .unwrap()
                .to_string(),
            "${find.total}"
        );
        assert_eq!(whole_reference(&json!("n=${find.total}")), None);
    }

    /// Filling in given names keeps later steps' references and literal text as written.
    /// A given text holding `$` or `${` stays literal when the step later resolves, whole
    /// or written in, and so does a `$` it ends in before the template's `{`.
    #[test]
    fn filling_in_keeps_what_is_not_given() {
        let given = HashMap::from([
            (
                "inputs".to_owned(),
                json!({"name": "a${b}", "n": 3, "cost": "5$"}),
            ),
            ("session".to_owned(), json!("s1")),
        ]);
        let args = json!({
            "session": "${session}",
            "n": "${inputs.n}",
            "whole": "${inputs.name}",
            "text": "${inputs.name} at ${open.pid} costs $${x} and ${inputs.cost}{y}",
        });
        let filled = fill(&args, &given, &as_text).unwrap();
        let later = resolve(&filled, &results()).unwrap();
        assert_eq!(
            later,
            json!({"session": "s1", "n": 3, "whole": "a${b}",
                   "text": "a${b} at 42 costs ${x} and 5${y}"})
        );
        assert!(fill(&json!("${inputs.gone}"), &given, &as_text).is_err());
        let quoted = json!({"inputs": {"x": "a\"] >> @p/c"}});
        let quoted: HashMap<String, Value> = serde_json::from_value(quoted).unwrap();
        let selector = fill(
            &json!("button[name=\"${inputs.x}\"]"),
            &quoted,
            &in_selector,
        );
        let selector = resolve(&selector.unwrap(), &results()).unwrap();
        assert_eq!(selector, json!(r#"button[name="a\"] >> @p/c"]"#));
    }
}

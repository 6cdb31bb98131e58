//! Selectors: which elements a `find` or an action means.
//!
//! The text form (the full grammar with examples is `docs/selectors.md`):
//!
//! ```text
//! selector   := step (" >> " step)*              each step searches within the previous match
//! step       := [role] filter* [":nth(" N ")"]
//! role       := a role name (`button`, `checkbox`, ...) or `*`
//! filter     := "[" key op value "]"  |  "[" state "]"  |  "[!" state "]"
//! key        := name | id | description | value | action | capability | state
//! op         := "=" exact | "*=" contains | "~=" regex
//! value      := "quoted string" (\" and \\ escapes) | /regex/ | bare-word
//! ```
//!
//! Examples: `button[name="Save"]`, `checkbox[name*=notif][checked]`,
//! `dialog[name="Confirm"] >> button[name=OK]`, `[id=counter]`, `listitem:nth(2)`.
//! The JSON form has the same fields (`role`, `name`, `name_contains`, `name_regex`, `id`,
//! `description`, `value`, `state`, `not_state`, `action`, `capability`, `within`, `nth`) and
//! rejects unknown ones, so a misspelled field can never widen a match.

use crate::model::{Capability, Node, NodeValue, Role, State, Tree};

/// How a text field is matched.
#[derive(Debug, Clone)]
pub enum TextMatch {
    Exact(String),
    /// Case-insensitive substring.
    Contains(String),
    Regex(Regex),
}

/// A compiled regular expression that remembers its source.
#[derive(Debug, Clone)]
pub struct Regex {
    source: String,
    compiled: regex::Regex,
}

impl Regex {
    pub fn new(source: &str) -> Result<Self, SelectorError> {
        let compiled = regex::Regex::new(source).map_err(|e| SelectorError {
            message: format!("invalid regex /{source}/: {e}"),
        })?;
        Ok(Regex {
            source: source.to_owned(),
            compiled,
        })
    }

    pub fn as_str(&self) -> &str {
        &self.source
    }
}

impl TextMatch {
    pub fn matches(&self, text: &str) -> bool {
        match self {
            TextMatch::Exact(want) => text == want,
            TextMatch::Contains(want) => contains_ignoring_case(text, want),
            TextMatch::Regex(re) => re.compiled.is_match(text),
        }
    }

    /// True for an exact match (ranked first).
    pub fn is_exact(&self, text: &str) -> bool {
        matches!(self, TextMatch::Exact(want) if want == text)
    }
}

/// Whether `text` contains `want`, case aside. ASCII (most names) is compared in place: a
/// find on a 5,000-node tree would otherwise make two strings per node.
fn contains_ignoring_case(text: &str, want: &str) -> bool {
    if text.is_ascii() && want.is_ascii() {
        let (text, want) = (text.as_bytes(), want.as_bytes());
        return want.is_empty()
            || text
                .windows(want.len())
                .any(|window| window.eq_ignore_ascii_case(want));
    }
    text.to_lowercase().contains(&want.to_lowercase())
}

/// One step of a selector: every given criterion must hold.
#[derive(Debug, Clone, Default)]
pub struct Step {
    pub role: Option<Role>,
    pub name: Option<TextMatch>,
    pub id: Option<TextMatch>,
    pub description: Option<TextMatch>,
    pub value: Option<TextMatch>,
    pub states: Vec<State>,
    pub not_states: Vec<State>,
    pub actions: Vec<String>,
    pub capabilities: Vec<Capability>,
    /// 0-based index among the matches of this step.
    pub nth: Option<usize>,
}

/// A whole selector: steps, each searched within the matches of the one before.
#[derive(Debug, Clone, Default)]
pub struct Selector {
    pub steps: Vec<Step>,
}

/// A malformed selector: never an empty match.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid selector: {message}")]
pub struct SelectorError {
    pub message: String,
}

fn err(message: impl Into<String>) -> SelectorError {
    SelectorError {
        message: message.into(),
    }
}

impl Step {
    /// True when `node` meets every criterion. A secret's value never matches anything.
    pub fn matches(&self, node: &Node) -> bool {
        self.matches_ignoring_id(node) && self.matches_id(node)
    }

    /// True when this step has an `id` criterion.
    pub fn wants_id(&self) -> bool {
        self.id.is_some()
    }

    fn matches_id(&self, node: &Node) -> bool {
        match &self.id {
            None => true,
            Some(m) => node
                .accessible_id
                .as_deref()
                .is_some_and(|id| m.matches(id)),
        }
    }

    /// Every criterion but `id` (to find the nodes whose unread id is worth reading).
    pub fn matches_ignoring_id(&self, node: &Node) -> bool {
        if self.role.is_some_and(|r| r != node.role) {
            return false;
        }
        if let Some(m) = &self.name
            && !m.matches(node.display_name())
        {
            return false;
        }
        if let Some(m) = &self.description
            && !m.matches(&node.description)
        {
            return false;
        }
        if let Some(m) = &self.value
            && !value_text(node).is_some_and(|v| m.matches(&v))
        {
            return false;
        }
        self.states.iter().all(|s| node.states.is(*s))
            && self.not_states.iter().all(|s| node.states.is_not(*s))
            && self.actions.iter().all(|a| {
                node.actions.iter().any(|b| b == a) || node.default_action.as_ref() == Some(a)
            })
            && self
                .capabilities
                .iter()
                .all(|c| node.capabilities.contains(*c))
    }

    /// True when the text criteria that are given match exactly (ranked before the rest).
    pub fn is_exact(&self, node: &Node) -> bool {
        let name = self
            .name
            .as_ref()
            .is_none_or(|m| m.is_exact(node.display_name()));
        let value = self
            .value
            .as_ref()
            .is_none_or(|m| value_text(node).is_some_and(|v| m.is_exact(&v)));
        name && value
    }
}

/// The text a `value` criterion matches; `None` for secrets (never matchable).
fn value_text(node: &Node) -> Option<String> {
    match &node.value {
        Some(NodeValue::Text { text }) => Some(text.clone()),
        Some(NodeValue::Number { current, .. }) => Some(current.to_string()),
        Some(NodeValue::Redacted { .. }) | None => None,
    }
}

impl Selector {
    /// The nodes of `tree` the selector matches: each step searches the subtrees of the
    /// previous step's matches. Returns (index, exact), exact first, then document order.
    pub fn select(&self, tree: &Tree) -> Vec<(usize, bool)> {
        let mut scope: Vec<usize> = vec![0];
        let mut result = Vec::new();
        for (step_index, step) in self.steps.iter().enumerate() {
            let first = step_index == 0;
            let mut found: Vec<(usize, bool)> = Vec::new();
            for (index, tn) in tree.nodes.iter().enumerate() {
                let in_scope = if first {
                    true
                } else {
                    tree.ancestors(index).any(|a| scope.contains(&a))
                };
                if in_scope && step.matches(&tn.node) {
                    found.push((index, step.is_exact(&tn.node)));
                }
            }
            found.sort_by_key(|&(index, exact)| (!exact, index));
            if let Some(n) = step.nth {
                found = found.into_iter().nth(n).into_iter().collect();
            }
            scope = found.iter().map(|(i, _)| *i).collect();
            result = found;
        }
        result
    }

    /// Parses the text form.
    pub fn parse(text: &str) -> Result<Selector, SelectorError> {
        if text.trim().is_empty() {
            return Err(err("empty selector"));
        }
        let steps = split_steps(text)?
            .iter()
            .map(|s| parse_step(s.trim()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Selector { steps })
    }
}

/// Splits on ` >> ` outside quotes and regexes.
fn split_steps(text: &str) -> Result<Vec<String>, SelectorError> {
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

fn parse_step(text: &str) -> Result<Step, SelectorError> {
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
                "unknown filter key {other:?} (name, id, description, value, action, capability, state, role)"
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

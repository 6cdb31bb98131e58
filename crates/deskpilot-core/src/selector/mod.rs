//! Selectors: which elements a `find` or an action means.
//!
//! The text form (the full grammar with examples is `docs/selectors.md`):
//!
//! ```text
//! selector   := step (" >> " step)*              each step searches within the previous match
//! step       := [role] filter* [":nth(" N ")"]
//! role       := a role name (`button`, `checkbox`, ...) or `*`
//! filter     := "[" key op value "]"  |  "[" state "]"  |  "[!" state "]"
//! key        := name | id | description | label | value | action | capability | state
//! op         := "=" exact | "*=" contains | "~=" regex
//! value      := "quoted string" (\" and \\ escapes) | /regex/ | bare-word
//! ```
//!
//! Examples: `button[name="Save"]`, `checkbox[name*=notif][checked]`,
//! `dialog[name="Confirm"] >> button[name=OK]`, `[id=counter]`, `listitem:nth(2)`.
//! An unknown key is refused, so a misspelled filter can never widen a match.

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

    pub fn is_match(&self, text: &str) -> bool {
        self.compiled.is_match(text)
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
    /// A label inferred from the layout (`Node::label`); never the name.
    pub label: Option<TextMatch>,
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
        if let Some(m) = &self.label
            && !node.label.as_deref().is_some_and(|l| m.matches(l))
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
        let steps = text::split_steps(text)?
            .iter()
            .map(|s| text::parse_step(s.trim()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Selector { steps })
    }
}

mod locate;
mod text;

pub use locate::{Basis, Locating, Locator, locate, quote};

//! Refs: short names (`e7`) for elements, bound to the session that issued them.
//!
//! A ref stays the same across snapshots while the element's identity (backend id) and its role
//! and name hold. It is re-validated on every use and refused when stale; it never resolves to a
//! different element.

use std::collections::HashMap;

use crate::model::{ElementId, Node, Role};

/// A ref number (`e<N>`); unique across the whole engine.
pub type RefId = u64;

pub fn format_ref(id: RefId) -> String {
    format!("e{id}")
}

/// Parses `e<N>`.
pub fn parse_ref(text: &str) -> Option<RefId> {
    let digits = text.strip_prefix('e')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return None;
    }
    digits.parse().ok()
}

/// What a ref was issued for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefEntry {
    pub element: ElementId,
    pub role: Role,
    pub name: String,
    /// The name shown when the ref was last issued (may be derived from a label or content).
    pub display_name: String,
    /// The element is, or is inside, a secret (its value was redacted): its text is never read.
    pub secret: bool,
    /// Set when the element's role or name changed and a new ref replaced this one.
    pub superseded_by: Option<RefId>,
}

/// The refs of one session.
#[derive(Debug, Default)]
pub struct RefTable {
    by_element: HashMap<ElementId, RefId>,
    entries: HashMap<RefId, RefEntry>,
}

impl RefTable {
    /// The ref for `node`: the existing one if identity, role and name still hold, else a new one
    /// from `next` (the old one is then superseded).
    pub fn assign(&mut self, node: &Node, next: &mut dyn FnMut() -> RefId) -> RefId {
        if let Some(&id) = self.by_element.get(&node.id) {
            let entry = &self.entries[&id];
            if entry.role == node.role && entry.name == node.name {
                let display = node.display_name();
                if !display.is_empty() {
                    self.entries
                        .get_mut(&id)
                        .expect("entry of a known ref")
                        .display_name = display.to_owned();
                }
                return id;
            }
        }
        let id = next();
        if let Some(old) = self.by_element.insert(node.id.clone(), id)
            && let Some(entry) = self.entries.get_mut(&old)
        {
            entry.superseded_by = Some(id);
        }
        self.entries.insert(
            id,
            RefEntry {
                element: node.id.clone(),
                role: node.role,
                name: node.name.clone(),
                display_name: node.display_name().to_owned(),
                secret: secret_of(node),
                superseded_by: None,
            },
        );
        id
    }

    pub fn get(&self, id: RefId) -> Option<&RefEntry> {
        self.entries.get(&id)
    }

    /// The current ref of an element, if it has one.
    pub fn of_element(&self, element: &ElementId) -> Option<RefId> {
        self.by_element.get(element).copied()
    }
}

fn secret_of(node: &Node) -> bool {
    node.is_secret() || matches!(node.value, Some(crate::model::NodeValue::Redacted { .. }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_format() {
        assert_eq!(parse_ref("e7"), Some(7));
        assert_eq!(format_ref(7), "e7");
        for bad in ["", "e", "7", "e07", "e-1", "e1x", "E1", "e1 "] {
            assert_eq!(parse_ref(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn same_element_same_ref_until_role_or_name_changes() {
        let mut counter = 0;
        let mut next = || {
            counter += 1;
            counter
        };
        let mut table = RefTable::default();
        let mut node = Node::new(ElementId::new(":1.1", "/a"), Role::Button);
        node.name = "OK".into();
        let first = table.assign(&node, &mut next);
        assert_eq!(table.assign(&node.clone(), &mut next), first);
        node.name = "Cancel".into();
        let second = table.assign(&node, &mut next);
        assert_ne!(first, second);
        assert_eq!(table.get(first).unwrap().superseded_by, Some(second));
        assert_eq!(table.of_element(&node.id), Some(second));
    }
}

//! The selector a person would write for an element. It is the app's accessible id where it
//! has one, else its role and name, scoped by the nearest named ancestor when the name is not
//! unique, and its position only when nothing else is unique (said fragile). Each candidate is
//! checked against the tree it was made from: the selector given always selects the element.

use std::collections::HashMap;

use super::Selector;
use crate::model::{Node, Role, Tree};

/// A name longer than this is matched by its first characters (`*=`).
const NAME_CHARS: usize = 60;

/// A selector for one element and what it rests on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Locator {
    pub selector: String,
    pub basis: Basis,
}

/// What a locator rests on, steadiest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// The app's own id for the element.
    Id,
    /// Its role and name, alone or within a named ancestor.
    Name,
    /// Its role alone: no other element has it.
    Role,
    /// Its position among like elements: it breaks when they move.
    Position,
}

impl Basis {
    pub fn fragile(self) -> bool {
        self == Basis::Position
    }
}

/// `text` as a quoted selector value (`"..."` with `\"`, `\\` and `\n` escaped).
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The steadiest selector that selects `tree.nodes[index]` alone in `tree`.
pub fn locate(tree: &Tree, index: usize) -> Locator {
    Locating::new(tree).locate(index)
}

/// Locators for many elements of one tree, each element's (ancestors' included) made once:
/// without the memo, a run of unnamed ancestors made the work double at each.
pub struct Locating<'a> {
    tree: &'a Tree,
    memo: HashMap<usize, Locator>,
}

impl<'a> Locating<'a> {
    pub fn new(tree: &'a Tree) -> Self {
        Locating {
            tree,
            memo: HashMap::new(),
        }
    }

    /// The steadiest selector that selects `tree.nodes[index]` alone.
    pub fn locate(&mut self, index: usize) -> Locator {
        if let Some(found) = self.memo.get(&index) {
            return found.clone();
        }
        let found = self.fresh(index);
        self.memo.insert(index, found.clone());
        found
    }

    fn fresh(&mut self, index: usize) -> Locator {
        let tree = self.tree;
        let node = &tree.nodes[index].node;
        if let Some(id) = node.accessible_id.as_deref().filter(|id| !id.is_empty()) {
            let by_id = format!("{}[id={}]", node.role.name(), quote(id));
            if selects_alone(tree, &by_id, index) {
                return Locator {
                    selector: by_id,
                    basis: Basis::Id,
                };
            }
        }
        let step = step_of(node);
        // An element alone of its role needs no name: a window's is its document's title,
        // which changes; an unnamed field has none.
        let by_role = node.role.name();
        let titled = node.role == Role::Window;
        if (titled || !node_named(node)) && selects_alone(tree, by_role, index) {
            return Locator {
                selector: by_role.to_owned(),
                basis: Basis::Role,
            };
        }
        if node_named(node) {
            if selects_alone(tree, &step, index) {
                return named(step);
            }
            if let Some(scoped) = self.within_named_ancestor(index, &step) {
                return named(scoped);
            }
        }
        self.by_position(index, &step)
    }

    /// The locators of `index`'s ancestors that are steady, nearest first.
    fn steady_scopes(&mut self, index: usize) -> Vec<Locator> {
        let ancestors: Vec<usize> = self.tree.ancestors(index).collect();
        ancestors
            .into_iter()
            .map(|a| self.locate(a))
            .filter(|scope| !scope.basis.fragile())
            .collect()
    }

    /// `step` within the nearest ancestor whose own locator is steady, when that selects
    /// the element alone: one found by id or name first, then one alone of its role.
    fn within_named_ancestor(&mut self, index: usize, step: &str) -> Option<String> {
        let scopes = self.steady_scopes(index);
        let (named, by_role): (Vec<_>, Vec<_>) =
            scopes.iter().partition(|s| s.basis != Basis::Role);
        named.into_iter().chain(by_role).find_map(|scope| {
            let scoped = format!("{} >> {step}", scope.selector);
            selects_alone(self.tree, &scoped, index).then_some(scoped)
        })
    }

    /// `step:nth(k)`, within the nearest ancestor with a steady locator, else in the tree.
    fn by_position(&mut self, index: usize, step: &str) -> Locator {
        let scope = self
            .steady_scopes(index)
            .into_iter()
            .next()
            .map(|scope| format!("{} >> ", scope.selector))
            .unwrap_or_default();
        let all = format!("{scope}{step}");
        let nth = Selector::parse(&all)
            .map(|s| s.select(self.tree))
            .unwrap_or_default()
            .iter()
            .position(|&(i, _)| i == index)
            .unwrap_or(0);
        Locator {
            selector: format!("{all}:nth({nth})"),
            basis: Basis::Position,
        }
    }
}

fn named(selector: String) -> Locator {
    Locator {
        selector,
        basis: Basis::Name,
    }
}

fn node_named(node: &Node) -> bool {
    !node.display_name().trim().is_empty()
}

/// `role[name="..."]`, or the role alone for an element with no name.
fn step_of(node: &Node) -> String {
    let role = node.role.name();
    let name = node.display_name();
    if name.trim().is_empty() {
        return role.to_owned();
    }
    if name.chars().count() > NAME_CHARS {
        let start: String = name.chars().take(NAME_CHARS).collect();
        return format!("{role}[name*={}]", quote(&start));
    }
    format!("{role}[name={}]", quote(name))
}

/// Whether `text` parses and selects exactly `index` in `tree`.
fn selects_alone(tree: &Tree, text: &str, index: usize) -> bool {
    Selector::parse(text).is_ok_and(|s| s.select(tree).iter().map(|(i, _)| *i).eq([index]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ElementId;

    /// A tree written as (depth, role, name, accessible id) rows in document order.
    fn tree(rows: &[(usize, Role, &str, Option<&str>)]) -> Tree {
        let mut tree = Tree::default();
        let mut path: Vec<usize> = Vec::new();
        for (n, &(depth, role, name, id)) in rows.iter().enumerate() {
            let mut node = Node::new(ElementId::new(":1.1", format!("/{n}")), role);
            node.name = name.to_owned();
            node.accessible_id = id.map(str::to_owned);
            path.truncate(depth);
            path.push(tree.push(node, path.last().copied()));
        }
        tree
    }

    fn at(tree: &Tree, name: &str, nth: usize) -> usize {
        let mut named = (0..tree.len()).filter(|&i| tree.nodes[i].node.name == name);
        named.nth(nth).unwrap()
    }

    /// Every element of `tree` gets a locator that selects it alone.
    fn each_selects_alone(tree: &Tree) {
        for index in 0..tree.len() {
            let found = locate(tree, index);
            assert!(selects_alone(tree, &found.selector, index), "{found:?}");
        }
    }

    #[test]
    fn a_unique_name_is_the_role_and_name() {
        let tree = tree(&[
            (0, Role::Window, "Editor", None),
            (1, Role::Button, "Save", None),
            (1, Role::Button, "Open \"recent\"", None),
        ]);
        let save = locate(&tree, at(&tree, "Save", 0));
        assert_eq!(save, named(r#"button[name="Save"]"#.into()));
        let open = locate(&tree, 2).selector;
        assert_eq!(open, r#"button[name="Open \"recent\""]"#);
        each_selects_alone(&tree);
    }

    /// The app's accessible id comes first, where it is unique.
    #[test]
    fn an_accessible_id_comes_first() {
        let tree = tree(&[
            (0, Role::Window, "Editor", None),
            (1, Role::Button, "Save", Some("save-button")),
            (1, Role::Button, "Save", None),
        ]);
        let found = locate(&tree, 1);
        assert_eq!(found.selector, r#"button[id="save-button"]"#);
        assert_eq!(found.basis, Basis::Id);
        each_selects_alone(&tree);
    }

    /// A name twice in the tree is scoped by the nearest named ancestor that tells them apart.
    #[test]
    fn a_duplicate_name_is_scoped_by_its_dialog() {
        let tree = tree(&[
            (0, Role::Window, "App", None),
            (1, Role::Dialog, "Confirm", None),
            (2, Role::Group, "", None),
            (3, Role::Button, "OK", None),
            (1, Role::Dialog, "Settings", None),
            (2, Role::Button, "OK", None),
        ]);
        let second = locate(&tree, at(&tree, "OK", 1));
        assert_eq!(
            second,
            named(r#"dialog[name="Settings"] >> button[name="OK"]"#.into())
        );
        let first = locate(&tree, at(&tree, "OK", 0)).selector;
        assert_eq!(first, r#"dialog[name="Confirm"] >> button[name="OK"]"#);
        each_selects_alone(&tree);
    }

    /// Elements with no name are placed by position within their named ancestor, and the
    /// locator says it is fragile.
    #[test]
    fn no_name_is_a_position_said_fragile() {
        let tree = tree(&[
            (0, Role::Window, "App", None),
            (1, Role::Toolbar, "Tools", None),
            (2, Role::Button, "", None),
            (2, Role::Button, "", None),
            (1, Role::Button, "", None),
        ]);
        let found = locate(&tree, 3);
        assert_eq!(found.selector, r#"toolbar[name="Tools"] >> button:nth(1)"#);
        assert!(found.basis.fragile());
        each_selects_alone(&tree);
    }

    /// Siblings moving about leave a named element's locator as it was.
    #[test]
    fn reordered_siblings_leave_a_named_locator_alone() {
        let rows = [
            (0, Role::Window, "App", None),
            (1, Role::Button, "Cut", None),
            (1, Role::Button, "Copy", None),
            (1, Role::Button, "Paste", None),
        ];
        let before = tree(&rows);
        let after = tree(&[rows[0], rows[3], rows[1], rows[2]]);
        let copy = |t: &Tree| locate(t, at(t, "Copy", 0));
        assert_eq!(copy(&before), copy(&after));
        assert!(!copy(&after).basis.fragile());
    }

    /// A long name (a paragraph's text) is matched by its start.
    #[test]
    fn a_long_name_is_matched_by_its_start() {
        let long = "word ".repeat(30);
        let tree = tree(&[
            (0, Role::Window, "Doc", None),
            (1, Role::Paragraph, &long, None),
        ]);
        let found = locate(&tree, 1).selector;
        assert!(found.starts_with("paragraph[name*=\"word word"), "{found}");
        assert!(found.len() < 90, "{found}");
        each_selects_alone(&tree);
    }

    /// An element alone of its role is found by it: an unnamed field, and a window (its
    /// title is its document's, which changes), which then scopes its children.
    #[test]
    fn an_element_alone_of_its_role_needs_no_name() {
        let tree = tree(&[
            (0, Role::Window, "Untitled 1 - Editor", None),
            (1, Role::Toolbar, "", None),
            (2, Role::Button, "", None),
            (2, Role::Button, "", None),
            (1, Role::TextBox, "", None),
        ]);
        assert_eq!(locate(&tree, 0).selector, "window");
        assert_eq!(
            locate(&tree, 4),
            Locator {
                selector: "textbox".into(),
                basis: Basis::Role
            }
        );
        assert_eq!(locate(&tree, 3).selector, "toolbar >> button:nth(1)");
        each_selects_alone(&tree);
    }

    /// A deep chain of unnamed containers, each beside a twin, is located once per element:
    /// made anew for each ancestor, the work doubled at every level (2^40 here).
    #[test]
    fn a_deep_chain_of_unnamed_containers_is_located_once_each() {
        let mut rows = vec![(0, Role::Window, "App", None)];
        for depth in 1..=40 {
            rows.push((depth, Role::Generic, "", None));
            rows.push((depth, Role::Generic, "", None));
        }
        rows.push((41, Role::Button, "", None));
        let tree = tree(&rows);
        let last = tree.len() - 1;
        let found = locate(&tree, last);
        assert!(selects_alone(&tree, &found.selector, last), "{found:?}");
    }
}

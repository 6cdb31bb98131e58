//! Which nodes a rendering shows. Nodes that are dropped lift their children to the nearest
//! shown ancestor, so the structure an agent sees stays truthful but compact.

use crate::model::{Node, Role, State, Tree};

/// What to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Filter {
    /// Elements an agent acts on, the containers that give them context, and named text.
    #[default]
    Interactive,
    /// Interactive plus every node that carries text.
    Text,
    /// Every node.
    All,
}

impl Filter {
    pub fn name(self) -> &'static str {
        match self {
            Filter::Interactive => "interactive",
            Filter::Text => "text",
            Filter::All => "all",
        }
    }

    pub fn from_name(name: &str) -> Option<Filter> {
        match name {
            "interactive" => Some(Filter::Interactive),
            "text" => Some(Filter::Text),
            "all" => Some(Filter::All),
            _ => None,
        }
    }

    /// True when `node` is shown by this filter on its own merits.
    pub fn keeps(self, node: &Node) -> bool {
        match self {
            Filter::All => true,
            Filter::Interactive => {
                node.role.is_interactive()
                    // Editable text blocks are typed into (LibreOffice Writer's paragraphs).
                    || (node.role.is_text() && node.states.is(State::Editable))
                    || (node.role.is_landmark() && node.role != Role::Group)
                    || (node.role.is_text()
                        && !node.display_name().is_empty()
                        && node.role != Role::Label)
                    || (node.role == Role::Group && !node.display_name().is_empty())
            }
            Filter::Text => {
                Filter::Interactive.keeps(node)
                    || (!node.display_name().is_empty() && !matches!(node.role, Role::Generic))
                    || node.role.is_text()
            }
        }
    }

    /// The shown nodes in document order, each with its display depth. Except with `All`, a
    /// subtree whose root is known not to be showing (a closed menu, a hidden page) or lies out
    /// of view (scrolled away) is left out; `find` still searches it.
    pub fn apply(self, tree: &Tree) -> Vec<(usize, usize)> {
        let mut shown = Vec::new();
        // Display depth of each node's nearest shown ancestor-or-self, +1.
        let mut child_depth = vec![0usize; tree.nodes.len()];
        let in_view = in_view(tree);
        let mut hidden = vec![false; tree.nodes.len()];
        let message = dialog_messages(tree);
        for (index, tn) in tree.nodes.iter().enumerate() {
            // A folded window is listed whatever its state (minimized, behind others).
            let folded = tn.realization == crate::model::Realization::Folded;
            if self != Filter::All && tn.parent.is_some() && !folded {
                let parent_hidden = tn.parent.is_some_and(|p| hidden[p]);
                if parent_hidden
                    || tn.node.states.is_not(crate::model::State::Showing)
                    || !in_view[index]
                {
                    hidden[index] = true;
                    continue;
                }
            }
            let depth = tn.parent.map_or(0, |p| child_depth[p]);
            // A root is always shown: it says what the snapshot (or page) is of.
            let incomplete = tn.realization != crate::model::Realization::Complete;
            let says = self == Filter::Interactive && message[index];
            if tn.parent.is_none() || self.keeps(&tn.node) || incomplete || says {
                shown.push((index, depth));
                child_depth[index] = depth + 1;
            } else {
                child_depth[index] = depth;
            }
        }
        shown
    }
}

/// For each node, whether it is part of what a dialog or an alert asks: a named label in it
/// that names no sibling (a field's label is its name already). Mousepad's restore question and
/// Thunar's "Enter the name:" are labels no field is named by.
fn dialog_messages(tree: &Tree) -> Vec<bool> {
    let mut in_dialog = vec![false; tree.nodes.len()];
    let mut out = vec![false; tree.nodes.len()];
    for (index, tn) in tree.nodes.iter().enumerate() {
        let inherited = tn.parent.is_some_and(|p| in_dialog[p]);
        in_dialog[index] = inherited || matches!(tn.node.role, Role::Dialog | Role::Alert);
        let name = tn.node.display_name();
        if !inherited || tn.node.role != Role::Label || name.trim().is_empty() {
            continue;
        }
        let names_a_sibling = tn.parent.is_some_and(|p| {
            tree.nodes[p]
                .children
                .iter()
                .any(|&c| c != index && tree.nodes[c].node.display_name() == name)
        });
        out[index] = !names_a_sibling;
    }
    out
}

/// For each node, whether it or something below it can be seen. A node with bounds is in view
/// when they are not empty, not GTK3's scrolled-out sentinel (INT_MIN), and overlap the bounds
/// of its root (each subtree of a continued page has its own); a node without bounds is in
/// view unless all its children are out of view; one known not to be showing is out of view
/// (it has no bounds: backends do not ask hidden elements for theirs). Computed bottom-up, so a zero-sized container
/// with visible children stays.
fn in_view(tree: &Tree) -> Vec<bool> {
    let mut root_of = vec![0usize; tree.nodes.len()];
    for (index, tn) in tree.nodes.iter().enumerate() {
        root_of[index] = tn.parent.map_or(index, |p| root_of[p]);
    }
    let mut view = vec![false; tree.nodes.len()];
    for index in (0..tree.nodes.len()).rev() {
        let tn = &tree.nodes[index];
        let screen = tree.nodes[root_of[index]]
            .node
            .bounds
            .filter(|b| !b.is_empty());
        let own = match tn.node.bounds {
            _ if tn.node.states.is_not(State::Showing) => Some(false),
            None => None,
            Some(b) if b.x == i32::MIN || b.y == i32::MIN || b.is_empty() => Some(false),
            Some(b) => Some(screen.is_none_or(|r| b.intersects(&r))),
        };
        let children = tn.children.iter().any(|&c| view[c]);
        view[index] = match own {
            Some(true) => true,
            Some(false) => children,
            None => children || tn.children.is_empty(),
        };
    }
    view
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ElementId, Realization, Rect, StateSet, TreeNode};

    fn node(path: &str, role: Role, showing: bool, bounds: Option<Rect>) -> Node {
        let mut node = Node::new(ElementId::new(":1.1", path), role);
        node.states = StateSet::all_known([State::Visible]);
        node.states.set(State::Showing, showing);
        node.bounds = bounds;
        node
    }

    #[test]
    fn hidden_elements_without_bounds_are_out_of_view() {
        // A window; a panel without bounds holding the items of a closed menu, which have no
        // bounds either (backends do not ask hidden elements); a button beside it.
        let window = Some(Rect::new(0, 0, 100, 100));
        let nodes = vec![
            node("/w", Role::Window, true, window),
            node("/panel", Role::Generic, true, None),
            node("/item1", Role::MenuItem, false, None),
            node("/item2", Role::MenuItem, false, None),
            node("/ok", Role::Button, true, Some(Rect::new(10, 10, 20, 20))),
        ];
        let links: [(Option<usize>, Vec<usize>, u32); 5] = [
            (None, vec![1, 4], 0),
            (Some(0), vec![2, 3], 1),
            (Some(1), vec![], 2),
            (Some(1), vec![], 2),
            (Some(0), vec![], 1),
        ];
        let tree = Tree {
            nodes: nodes
                .into_iter()
                .zip(links)
                .map(|(node, (parent, children, depth))| TreeNode {
                    node,
                    parent,
                    children,
                    depth,
                    realization: Realization::Complete,
                })
                .collect(),
            pending: Vec::new(),
        };
        assert_eq!(in_view(&tree), vec![true, false, false, false, true]);
        let shown: Vec<usize> = Filter::Interactive
            .apply(&tree)
            .into_iter()
            .map(|(i, _)| i)
            .collect();
        assert_eq!(shown, vec![0, 4]);
    }

    /// A dialog shows what it asks: a label no field is named by; a field's own label is its
    /// name already, and a window's labels stay out.
    #[test]
    fn a_dialog_shows_its_message() {
        let named = |path: &str, role: Role, name: &str| {
            let mut n = node(path, role, true, None);
            n.name = name.to_owned();
            n
        };
        let mut tree = Tree::default();
        let app = tree.push(named("/a", Role::Application, "thunar"), None);
        let window = tree.push(named("/w", Role::Window, "Files"), Some(app));
        tree.push(named("/wl", Role::Label, "Status"), Some(window));
        let dialog = tree.push(named("/d", Role::Dialog, "Create New Folder"), Some(app));
        let row = tree.push(named("/r", Role::Generic, ""), Some(dialog));
        tree.push(named("/ask", Role::Label, "Enter the name:"), Some(row));
        tree.push(named("/nl", Role::Label, "Name:"), Some(row));
        tree.push(named("/f", Role::TextBox, "Name:"), Some(row));
        let shown: Vec<&str> = Filter::Interactive
            .apply(&tree)
            .into_iter()
            .map(|(i, _)| tree.nodes[i].node.id.object.as_str())
            .collect();
        assert_eq!(shown, ["/a", "/w", "/d", "/ask", "/f"]);
    }
}

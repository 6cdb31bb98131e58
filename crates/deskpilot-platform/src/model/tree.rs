//! A snapshot of (part of) an accessibility tree: nodes in document order with their links, and
//! an honest account of what was not read.

use serde::{Deserialize, Serialize};

use super::{ElementId, Node};

/// How much of a node's children the snapshot holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Realization {
    /// Every child was read.
    Complete,
    /// Some children were read, not all: the container creates them on demand (it manages its
    /// descendants) and the realized ones, up to a bound, were read; or it has too many to
    /// list and its first ones were read; or some answered but could not be read. `logical`:
    /// how many it has, when it can say (a virtualized list often cannot).
    Partial { realized: u32, logical: Option<u32> },
    /// Too many logical children to enumerate (a spreadsheet's 2^31 cells), or a count the
    /// container cannot say: none were read.
    NotRealized { logical: Option<u32> },
    /// A budget (nodes, depth or deadline) stopped the walk before these children.
    Cut { reason: CutReason },
    /// A window of the session listed in one line, its content not read: a snapshot that
    /// names it (`window`) shows it.
    Folded,
}

/// Which budget cut a walk short.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CutReason {
    Nodes,
    Depth,
    Deadline,
    /// The element stopped answering (its app froze or went away) in mid-walk.
    Unreachable,
}

impl CutReason {
    pub fn name(self) -> &'static str {
        match self {
            CutReason::Nodes => "nodes",
            CutReason::Depth => "depth",
            CutReason::Deadline => "deadline",
            CutReason::Unreachable => "unreachable",
        }
    }
}

/// One node of a tree with its links.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TreeNode {
    pub node: Node,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    pub depth: u32,
    pub realization: Realization,
}

impl Realization {
    /// A container's count of children as shown, `?` when it cannot say.
    pub fn count_text(logical: Option<u32>) -> String {
        logical.map_or_else(|| "?".to_owned(), |n| n.to_string())
    }
}

/// Children a walk knew of but did not read because a budget stopped it: where a later page
/// continues.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    /// The node whose children were not all read.
    pub parent: usize,
    /// Its unread children, in order. Empty when not even their ids were read (the depth
    /// budget): then the parent's subtree is walked anew.
    pub unread: Vec<ElementId>,
}

/// A snapshot. `nodes[0]` is the root; nodes are in document (pre-)order. A page that
/// continues an earlier one may hold several subtrees: every node without a parent is a root.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tree {
    pub nodes: Vec<TreeNode>,
    /// Where a budget cut the walk, in document order.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub pending: Vec<Pending>,
}

/// A breadth-first walk's nodes in document order: `children[i]` are node i's children, node 0
/// the root. Gives the order (old indices) and each old index's new one.
pub fn document_order(children: &[&[usize]]) -> (Vec<usize>, Vec<usize>) {
    let mut order = Vec::with_capacity(children.len());
    let mut stack = vec![0];
    while let Some(i) = stack.pop() {
        order.push(i);
        stack.extend(children[i].iter().rev());
    }
    let mut new_index = vec![0; children.len()];
    for (new, &old) in order.iter().enumerate() {
        new_index[old] = new;
    }
    (order, new_index)
}

impl Tree {
    pub fn root(&self) -> Option<&TreeNode> {
        self.nodes.first()
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Appends `node` as the last child of `parent` (a root when `None`), its children all
    /// read; returns its index.
    pub fn push(&mut self, node: Node, parent: Option<usize>) -> usize {
        let at = self.nodes.len();
        let depth = parent.map_or(0, |p| self.nodes[p].depth + 1);
        if let Some(p) = parent {
            self.nodes[p].children.push(at);
        }
        self.nodes.push(TreeNode {
            node,
            parent,
            children: Vec::new(),
            depth,
            realization: Realization::Complete,
        });
        at
    }

    pub fn find(&self, id: &ElementId) -> Option<usize> {
        self.nodes.iter().position(|n| &n.node.id == id)
    }

    /// The nodes whose children were not all read, with why.
    pub fn incomplete(&self) -> impl Iterator<Item = (usize, Realization)> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.realization != Realization::Complete)
            .map(|(i, n)| (i, n.realization))
    }

    /// The first budget that cut this walk, if any.
    pub fn cut(&self) -> Option<(usize, CutReason)> {
        self.nodes
            .iter()
            .enumerate()
            .find_map(|(i, n)| match n.realization {
                Realization::Cut { reason } => Some((i, reason)),
                _ => None,
            })
    }

    /// Appends `other` as further roots (a continued page).
    pub fn append(&mut self, other: Tree) {
        let offset = self.nodes.len();
        self.nodes.extend(other.nodes.into_iter().map(|mut tn| {
            tn.parent = tn.parent.map(|p| p + offset);
            tn.children.iter_mut().for_each(|c| *c += offset);
            tn
        }));
        self.pending.extend(other.pending.into_iter().map(|mut p| {
            p.parent += offset;
            p
        }));
    }

    /// Adds `other`'s roots as the last children of `parent`, one level deeper.
    pub fn graft(&mut self, parent: usize, other: Tree) {
        let offset = self.nodes.len();
        let depth = self.nodes[parent].depth + 1;
        let roots: Vec<usize> = other
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, tn)| tn.parent.is_none())
            .map(|(i, _)| i + offset)
            .collect();
        self.append(other);
        for tn in &mut self.nodes[offset..] {
            tn.depth += depth;
            if tn.parent.is_none() {
                tn.parent = Some(parent);
            }
        }
        self.nodes[parent].children.extend(roots);
    }

    /// This tree with the subtree at each key of `subtrees` replaced by the value's tree (its
    /// root in the old one's place, under the same parent), in document order.
    pub fn patched(&self, subtrees: &std::collections::HashMap<usize, Tree>) -> Tree {
        enum From<'a> {
            Old(usize),
            New(&'a Tree, usize),
        }
        let mut out = Tree::default();
        let mut stack: Vec<(From, Option<usize>)> = self
            .nodes
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, tn)| tn.parent.is_none())
            .map(|(i, _)| (From::Old(i), None))
            .collect();
        while let Some((from, parent)) = stack.pop() {
            let (tn, children) = match from {
                From::Old(i) => match subtrees.get(&i) {
                    Some(sub) if !sub.is_empty() => (&sub.nodes[0], Some(sub)),
                    _ => (&self.nodes[i], None),
                },
                From::New(sub, i) => (&sub.nodes[i], Some(sub)),
            };
            let at = out.push(tn.node.clone(), parent);
            out.nodes[at].realization = tn.realization;
            let below = tn.children.iter().rev().map(|&c| match children {
                Some(sub) => (From::New(sub, c), Some(at)),
                None => (From::Old(c), Some(at)),
            });
            stack.extend(below);
        }
        out
    }

    /// A copy of the subtree at `at`, its root a root.
    pub fn subtree(&self, at: usize) -> Tree {
        let mut out = Tree::default();
        let mut stack = vec![(at, None)];
        while let Some((i, parent)) = stack.pop() {
            let copied = out.push(self.nodes[i].node.clone(), parent);
            out.nodes[copied].realization = self.nodes[i].realization;
            let below = self.nodes[i].children.iter().rev();
            stack.extend(below.map(|&c| (c, Some(copied))));
        }
        out
    }

    /// Indices of the ancestors of `index`, nearest first.
    pub fn ancestors(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.nodes[index].parent, move |&i| self.nodes[i].parent)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::Tree;
    use crate::model::{ElementId, Node, Role};

    fn node(name: &str) -> Node {
        let mut node = Node::new(ElementId::new("app", name), Role::Generic);
        node.name = name.into();
        node
    }

    /// Each node's name, indented by its depth, with its parent's name.
    fn shape(tree: &Tree) -> Vec<String> {
        tree.nodes
            .iter()
            .map(|tn| {
                let parent = tn.parent.map_or("-", |p| &tree.nodes[p].node.name);
                format!(
                    "{}{} <{parent}",
                    " ".repeat(tn.depth as usize),
                    tn.node.name
                )
            })
            .collect()
    }

    #[test]
    fn a_patched_subtree_takes_the_old_ones_place_in_document_order() {
        let mut tree = Tree::default();
        let root = tree.push(node("root"), None);
        let a = tree.push(node("a"), Some(root));
        tree.push(node("a1"), Some(a));
        tree.push(node("a2"), Some(a));
        let b = tree.push(node("b"), Some(root));
        tree.push(node("b1"), Some(b));
        let mut new_a = Tree::default();
        let top = new_a.push(node("A"), None);
        let inner = new_a.push(node("A1"), Some(top));
        new_a.push(node("A11"), Some(inner));
        let mut new_b1 = Tree::default();
        new_b1.push(node("B1"), None);
        let patched = tree.patched(&HashMap::from([(a, new_a), (5, new_b1)]));
        assert_eq!(
            shape(&patched),
            [
                "root <-",
                " A <root",
                "  A1 <A",
                "   A11 <A1",
                " b <root",
                "  B1 <b"
            ]
        );
        for (i, tn) in patched.nodes.iter().enumerate() {
            for &c in &tn.children {
                assert_eq!(patched.nodes[c].parent, Some(i));
            }
        }
    }
}

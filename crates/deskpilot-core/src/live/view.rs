//! A view: the lines of one rendered tree, each keyed by the element it shows, with the
//! version the session gave it and how it was read (so a later read is comparable).

use std::collections::HashMap;

use crate::app::WindowPick;
use crate::filter::Filter;
use crate::model::{ElementId, Tree};
use crate::render::Rendered;

/// Which line of a view shows an element: its identity, and which occurrence of it (an
/// element listed twice by a toolkit keeps two distinct keys).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct LineKey {
    pub element: ElementId,
    pub nth: u32,
}

/// One line of the compact tree as shown (depth, ref and all), and the element it shows.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ViewLine {
    pub key: LineKey,
    pub text: String,
}

/// What a session was shown: a whole first page of its tree, with how it was read.
#[derive(Debug, Clone)]
pub struct View {
    pub version: u64,
    pub filter: Filter,
    pub window: Option<WindowPick>,
    pub max_nodes: usize,
    pub lines: Vec<ViewLine>,
}

impl View {
    /// The lines of `rendered`, a rendering of `tree`.
    pub fn lines_of(tree: &Tree, rendered: &Rendered) -> Vec<ViewLine> {
        let mut seen: HashMap<&ElementId, u32> = HashMap::new();
        rendered
            .nodes
            .iter()
            .map(|(index, range)| {
                let element = &tree.nodes[*index].node.id;
                let nth = seen.entry(element).or_default();
                let key = LineKey {
                    element: element.clone(),
                    nth: *nth,
                };
                *nth += 1;
                ViewLine {
                    key,
                    text: rendered.text[range.clone()].to_owned(),
                }
            })
            .collect()
    }

    /// The view as text, one line each (as the snapshot showed it).
    pub fn text(&self) -> String {
        lines_text(&self.lines)
    }
}

/// Lines joined as the compact tree.
pub fn lines_text(lines: &[ViewLine]) -> String {
    let mut out = String::new();
    for line in lines {
        out.push_str(&line.text);
        out.push('\n');
    }
    out
}

/// The version a diff is asked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Since {
    /// The session's latest version (its last snapshot or action result).
    Last,
    Version(u64),
}

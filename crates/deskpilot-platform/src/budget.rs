//! The walk budget every backend's walk keeps, so that a tree says the same of what it did not
//! read whatever the platform: which containers are listed at all, how many of a container's
//! children a walk keeps, and what the container then says (complete, partly realized, not
//! realized, or cut by the nodes, the depth or the deadline).

use std::time::Instant;

use crate::WalkLimits;
use crate::model::{CutReason, Realization};

/// How a container gives its children.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Children {
    /// All of them, listed at once.
    Listed,
    /// Created on demand (it manages its descendants, an item container): only the realized
    /// ones exist, and at most `max_managed_children` are listed.
    OnDemand,
    /// Too many to list: its first ones, asked for one by one.
    FirstOnes,
}

/// A container as a walk knows it before listing its children.
#[derive(Debug, Clone, Copy)]
pub struct Unlisted {
    /// The root is depth 0.
    pub depth: u32,
    /// How many children it says it has; `None` where the platform says so only by listing.
    pub count: Option<u32>,
    pub children: Children,
}

/// A container's children as a walk listed them.
#[derive(Debug, Clone, Copy)]
pub struct Listed {
    /// The nodes the walk holds so far.
    pub walked: usize,
    /// How many children were listed.
    pub count: usize,
    /// How many it says it has, where it can say.
    pub logical: Option<u32>,
    pub children: Children,
}

/// Of a container's listed children, how many the walk keeps (the first ones), and what the
/// container then says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kept {
    pub keep: usize,
    pub realization: Realization,
}

/// `None` to list the container's children now; else what it says, unlisted: nothing to
/// list, the deadline or the depth reached, or too many children to enumerate (a
/// spreadsheet's 2^31 cells would take its app down).
pub fn before_listing(limits: &WalkLimits, container: &Unlisted) -> Option<Realization> {
    if container.count == Some(0) {
        return Some(Realization::Complete);
    }
    if Instant::now() >= limits.deadline {
        return Some(cut(CutReason::Deadline));
    }
    if container.depth >= limits.max_depth {
        return Some(cut(CutReason::Depth));
    }
    let count = container.count?;
    (count > bound(limits, container.children)).then_some(Realization::NotRealized {
        logical: Some(count),
    })
}

/// What the walk keeps of `listed`: as many as the node budget has room for (the rest cut,
/// to read on a later page) and the container's bound allows (the rest left, the container
/// partly realized); one that lists only some of its children is partly realized too.
pub fn after_listing(limits: &WalkLimits, listed: &Listed) -> Kept {
    let room = limits.max_nodes.saturating_sub(listed.walked);
    let bound = bound(limits, listed.children) as usize;
    let count = listed.count;
    if count > room && room < bound {
        return Kept {
            keep: room,
            realization: cut(CutReason::Nodes),
        };
    }
    if count > bound {
        let realization = Realization::Partial {
            realized: bound as u32,
            logical: Some(count as u32),
        };
        return Kept {
            keep: bound,
            realization,
        };
    }
    let in_part = listed.children != Children::Listed;
    let realization = if in_part && listed.logical.is_none_or(|n| n > count as u32) {
        Realization::Partial {
            realized: count as u32,
            logical: listed.logical,
        }
    } else {
        Realization::Complete
    };
    Kept {
        keep: count,
        realization,
    }
}

/// The most children a container of this kind is listed with.
fn bound(limits: &WalkLimits, children: Children) -> u32 {
    match children {
        Children::OnDemand => limits.max_managed_children,
        Children::Listed | Children::FirstOnes => limits.max_children,
    }
}

fn cut(reason: CutReason) -> Realization {
    Realization::Cut { reason }
}

#[cfg(test)]
#[path = "budget_tests.rs"]
mod tests;

//! The budget's decisions on containers built by hand.

use std::time::Duration;

use super::*;

fn limits() -> WalkLimits {
    WalkLimits {
        max_nodes: 100,
        max_depth: 5,
        max_managed_children: 10,
        max_children: 50,
        ..WalkLimits::with_timeout(Duration::from_secs(60))
    }
}

fn unlisted(depth: u32, count: Option<u32>, children: Children) -> Unlisted {
    Unlisted {
        depth,
        count,
        children,
    }
}

fn listed(walked: usize, count: usize, logical: Option<u32>, children: Children) -> Listed {
    Listed {
        walked,
        count,
        logical,
        children,
    }
}

#[test]
fn a_container_is_listed_within_its_bounds_only() {
    let limits = limits();
    let plain = Children::Listed;
    assert_eq!(before_listing(&limits, &unlisted(1, Some(3), plain)), None);
    assert_eq!(before_listing(&limits, &unlisted(1, None, plain)), None);
    assert_eq!(
        before_listing(&limits, &unlisted(1, Some(0), plain)),
        Some(Realization::Complete)
    );
    assert_eq!(
        before_listing(&limits, &unlisted(5, Some(3), plain)),
        Some(cut(CutReason::Depth))
    );
    assert_eq!(
        before_listing(&limits, &unlisted(1, Some(51), plain)),
        Some(Realization::NotRealized { logical: Some(51) })
    );
    let managed = unlisted(1, Some(11), Children::OnDemand);
    assert_eq!(
        before_listing(&limits, &managed),
        Some(Realization::NotRealized { logical: Some(11) })
    );
    let past = WalkLimits {
        deadline: Instant::now(),
        ..limits
    };
    assert_eq!(
        before_listing(&past, &unlisted(1, Some(3), plain)),
        Some(cut(CutReason::Deadline))
    );
}

#[test]
fn the_node_budget_cuts_and_a_bound_leaves_a_container_partly_realized() {
    let limits = limits();
    let whole = after_listing(&limits, &listed(10, 5, Some(5), Children::Listed));
    assert_eq!((whole.keep, whole.realization), (5, Realization::Complete));
    let cut_short = after_listing(&limits, &listed(97, 5, Some(5), Children::Listed));
    assert_eq!(
        (cut_short.keep, cut_short.realization),
        (3, cut(CutReason::Nodes))
    );
    // A platform that says the count only by listing: the first ones up to the bound.
    let many = after_listing(&limits, &listed(1, 60, None, Children::Listed));
    let partial = Realization::Partial {
        realized: 50,
        logical: Some(60),
    };
    assert_eq!((many.keep, many.realization), (50, partial));
}

#[test]
fn a_container_listing_some_of_its_children_says_it_is_partly_realized() {
    let limits = limits();
    let realized = after_listing(&limits, &listed(1, 4, Some(9), Children::OnDemand));
    let partial = Realization::Partial {
        realized: 4,
        logical: Some(9),
    };
    assert_eq!(realized.realization, partial);
    let unknown = after_listing(&limits, &listed(1, 4, None, Children::OnDemand));
    let partial = Realization::Partial {
        realized: 4,
        logical: None,
    };
    assert_eq!(unknown.realization, partial);
    let all = after_listing(&limits, &listed(1, 4, Some(4), Children::OnDemand));
    assert_eq!(all.realization, Realization::Complete);
    let first = after_listing(&limits, &listed(1, 20, Some(5000), Children::FirstOnes));
    let partial = Realization::Partial {
        realized: 20,
        logical: Some(5000),
    };
    assert_eq!((first.keep, first.realization), (20, partial));
    let fewer_said = after_listing(&limits, &listed(1, 4, Some(2), Children::Listed));
    assert_eq!(fewer_said.realization, Realization::Complete);
}

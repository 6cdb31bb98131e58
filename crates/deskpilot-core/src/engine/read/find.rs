//! Finding elements by selector, and resolving a target strictly to one element.

use crate::derive::derive_what_readers_see;
use crate::engine::Engine;
use crate::engine::read::focus::focus_named;
use crate::engine::read::tables::search_unwalked_tables;
use crate::engine::scope::scope;
use crate::error::{Code, Error, Result};
use crate::escape::quoted;
use crate::model::{ElementId, Node, Realization, State, Tree};
use crate::platform::{Secrecy, WalkLimits};
use crate::read::find::*;
use crate::read::results::{FindResult, Match, Resolved, Target, Unsearched};
use crate::selector::Selector;
use crate::session::format_ref;
use std::sync::Arc;
use std::time::Duration;

/// A found element as results show it, with the session's ref for it.
pub(crate) fn match_of(
    engine: &Engine,
    session: &str,
    node: &Node,
    exact: bool,
    visible: bool,
) -> Result<Match> {
    Ok(Match {
        reference: format_ref(engine.sessions().issue(session, node)?),
        role: node.role,
        name: node.display_name().to_owned(),
        exact,
        visible,
        node: node.clone(),
    })
}

/// Reads the ids a snapshot left unread, for the nodes that an `id` criterion could match.
pub(crate) async fn read_wanted_ids(engine: &Engine, tree: &mut Tree, selector: &Selector) {
    let steps: Vec<_> = selector.steps.iter().filter(|s| s.wants_id()).collect();
    if steps.is_empty() {
        return;
    }
    let wanted: Vec<usize> = (0..tree.len())
        .filter(|&i| {
            let node = &tree.nodes[i].node;
            node.accessible_id_unread && steps.iter().any(|s| s.matches_ignoring_id(node))
        })
        .collect();
    let ids: Vec<ElementId> = wanted
        .iter()
        .map(|&i| tree.nodes[i].node.id.clone())
        .collect();
    let read = engine.backend().accessible_ids(&ids).await;
    for (index, id) in wanted.into_iter().zip(read) {
        let node = &mut tree.nodes[index].node;
        node.accessible_id = id.filter(|s| !s.is_empty());
        node.accessible_id_unread = false;
    }
}

/// The tree of `root`, a session's window, with the windows over it (a dialog or file
/// chooser it opened, a popup menu: part of working with it), each appended as a further
/// root within what is left of the node budget. Best effort: a window that cannot be read
/// is left out.
pub(crate) async fn tree_with_windows_over(
    engine: &Engine,
    session: &str,
    root: &ElementId,
    limits: &WalkLimits,
) -> Result<Arc<Tree>> {
    // Which windows are over the root is asked while the root is read.
    let (tree, scope) = tokio::join!(
        engine.backend().shared_snapshot(root, limits),
        scope(engine, session)
    );
    let mut tree = tree?;
    let Ok(scope) = scope else {
        return Ok(tree);
    };
    if scope.app_wide {
        return Ok(tree); // an app-wide walk already holds every window
    }
    for window in scope.windows.iter().skip(1) {
        if window.is_minimized() == Some(true) {
            continue;
        }
        let budget = limits.max_nodes.saturating_sub(tree.len());
        if budget == 0 {
            break;
        }
        let window_limits = WalkLimits {
            max_nodes: budget,
            ..limits.clone()
        };
        if let Ok(sub) = engine.backend().snapshot(&window.id, &window_limits).await {
            Arc::make_mut(&mut tree).append(sub);
        }
    }
    Ok(tree)
}

/// `source` as a reader sees it (`derive_what_readers_see`). The last tree a backend
/// shared is derived once: a kept tree read again is not copied again.
async fn derived(engine: &Engine, source: Arc<Tree>) -> Arc<Tree> {
    let named = focus_named(engine, &source).await;
    let mut last = engine.derived.lock().expect("derived");
    if let Some(kept) = last.as_ref()
        && Arc::ptr_eq(&kept.source, &source)
        && kept.focus_named == named
    {
        return Arc::clone(&kept.derived);
    }
    let mut tree = (*source).clone();
    derive_what_readers_see(&mut tree, &named);
    let tree = Arc::new(tree);
    // Only a tree someone else keeps can come again; the rest is not held here.
    *last = (Arc::strong_count(&source) > 1).then(|| crate::derive::DerivedTree {
        source,
        focus_named: named,
        derived: Arc::clone(&tree),
    });
    tree
}

/// Where a walk starts, and whether that is inside a password field.
pub(crate) async fn root_for(
    engine: &Engine,
    session: &str,
    within: Option<&Target>,
) -> Result<(ElementId, Secrecy)> {
    let root = engine.session_info(session)?.root;
    match within {
        None => Ok((root, Secrecy::Plain)),
        // Boxed: resolving a selector runs `find`, which comes back here with no `within`.
        Some(target) => {
            let resolved = Box::pin(engine.handle(session).resolve(target)).await?;
            Ok((resolved.node.id, Secrecy::of(resolved.secret)))
        }
    }
}

/// The budgets a find walks under: a tree it reads is kept on these terms.
fn find_limits(secrecy: Secrecy, time: Duration) -> WalkLimits {
    WalkLimits {
        max_nodes: 20_000,
        secrecy,
        ..WalkLimits::with_timeout(time)
    }
}

/// A find of the session's window dropped unfinished keeps nothing. Where the backend keeps
/// whole reads, one is finished apart, so that the next look reuses it. Else a wait whose look
/// on events answers first walks the app afresh at every wait (`bench live`, GTK 4: 125 ms).
pub(crate) fn finish_apart(engine: &Engine, session: &str, time: Duration) {
    let Ok(info) = engine.session_info(session) else {
        return;
    };
    if !engine.backend().keeps_reads(&info.root.app) {
        return;
    }
    let backend = Arc::clone(engine.backend());
    let limits = find_limits(Secrecy::Plain, time);
    tokio::spawn(async move {
        let _ = backend.shared_snapshot(&info.root, &limits).await;
    });
}

/// The tree a find searches (the session's window and the windows over it, or what
/// `within` names), as a reader sees it, with the session's secret text redacted; and
/// whether it is inside a password field.
pub(crate) async fn searched(
    handle: &crate::engine::Session<'_>,
    within: Option<&Target>,
    time: Duration,
) -> Result<(Arc<Tree>, Secrecy)> {
    let (engine, session) = (handle.engine, handle.id());
    let (root, secrecy) = root_for(engine, session, within).await?;
    let limits = find_limits(secrecy, time);
    let shared = if within.is_none() {
        tree_with_windows_over(engine, session, &root, &limits).await?
    } else {
        engine.backend().shared_snapshot(&root, &limits).await?
    };
    // Copied only where this find changes it.
    let mut tree = derived(engine, shared).await;
    // Text the session gave as secret matches no selector (nor shows).
    if engine.sessions().holds_secrets(session) {
        engine
            .sessions()
            .redact_held(session, Arc::make_mut(&mut tree));
    }
    Ok((tree, secrecy))
}

impl crate::engine::Session<'_> {
    /// Finds elements at any depth of the realized tree; exact matches first, then document
    /// order.
    pub async fn find(
        &self,
        selector: &Selector,
        within: Option<&Target>,
        limit: usize,
    ) -> Result<FindResult> {
        self.find_within_time(selector, within, limit, Duration::from_secs(15))
            .await
    }

    /// `find` whose walk stops after `time` (a cut walk names what it could not search).
    pub async fn find_within_time(
        &self,
        selector: &Selector,
        within: Option<&Target>,
        limit: usize,
        time: Duration,
    ) -> Result<FindResult> {
        let session = self.id();
        let (mut tree, secrecy) = searched(self, within, time).await?;
        if selector.steps.iter().any(|s| s.wants_id()) {
            read_wanted_ids(self.engine, Arc::make_mut(&mut tree), selector).await;
        }
        let mut found = selector.select(&tree);
        // Nothing found: the tables whose cells were not walked are searched by name.
        let mut searched = std::collections::HashSet::new();
        if found.is_empty()
            && let Some((grown, done)) =
                search_unwalked_tables(self.engine, &tree, selector, secrecy, time).await
        {
            tree = Arc::new(grown);
            searched = done;
            found = selector.select(&tree);
        }
        let seen = crate::visibility::visible(&tree);
        // Stable: within each group, exact before partial and document order stay.
        found.sort_by_key(|&(index, _)| !seen[index]);
        let exact_count = found.iter().filter(|(_, exact)| *exact).count();
        let visible_count = found.iter().filter(|&&(index, _)| seen[index]).count();
        let total = found.len();
        let mut matches = Vec::new();
        for &(index, exact) in found.iter().take(limit) {
            matches.push(match_of(
                self.engine,
                session,
                &tree.nodes[index].node,
                exact,
                seen[index],
            )?);
        }
        let mut unsearched = Vec::new();
        for (index, realization) in tree.incomplete() {
            if searched.contains(&index) {
                continue;
            }
            let node = &tree.nodes[index].node;
            let why = match realization {
                Realization::NotRealized { logical } => format!(
                    "{} children not realized (use `read_table` or `find` within it)",
                    Realization::count_text(logical)
                ),
                Realization::Partial { realized, logical } => {
                    format!(
                        "only {realized} of {} children realized",
                        Realization::count_text(logical)
                    )
                }
                Realization::Cut { reason } => format!("not read: {} budget", reason.name()),
                Realization::Complete | Realization::Folded => continue,
            };
            unsearched.push(Unsearched {
                reference: format_ref(self.engine.sessions().issue(session, node)?),
                role: node.role,
                name: node.display_name().to_owned(),
                why,
            });
        }
        Ok(FindResult {
            matches,
            total,
            visible: visible_count,
            exact: exact_count,
            unsearched,
        })
    }

    /// Exactly one element, re-validated: 0 matches is `not_found`, more than one `ambiguous`.
    pub async fn resolve(&self, target: &Target) -> Result<Resolved> {
        let session = self.id();
        match target {
            Target::Ref(text) => self.resolve_ref(text).await,
            Target::Selector(selector) => {
                let found = self.find(selector, None, 5).await?;
                // Strictness counts what can be seen: hidden matches (a closed menu's items, a
                // hidden page) stand aside when some match is visible.
                let mut found = found;
                if found.visible > 0 {
                    found.matches.retain(|m| m.visible);
                    found.total = found.visible;
                    found.exact = found.matches.iter().filter(|m| m.exact).count();
                }
                match found.total {
                    0 => Err(Error::new(
                        Code::NotFound,
                        format!("nothing matches the selector{}", unsearched_note(&found)),
                        "check the selector against a fresh `snapshot`; the element may not exist yet (use `wait_for`)",
                    )),
                    1 => {
                        let m = found.matches.into_iter().next().expect("one match");
                        let secret = self.engine.sessions().is_secret_ref(session, &m.reference)
                            || m.node.is_secret()
                            || matches!(
                                m.node.value,
                                Some(crate::model::NodeValue::Redacted { .. })
                            );
                        Ok(Resolved {
                            reference: m.reference,
                            node: m.node,
                            secret,
                        })
                    }
                    n => Err(Error::new(
                        Code::Ambiguous,
                        format!(
                            "{n} elements match ({} exact): {}",
                            found.exact,
                            found
                                .matches
                                .iter()
                                .map(|m| format!(
                                    "{} {}{} [ref={}]",
                                    m.role,
                                    quoted(&m.name, 100),
                                    if m.visible { "" } else { " (hidden)" },
                                    m.reference
                                ))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        "narrow the selector (name, within, :nth(N)) or use one of the refs",
                    )),
                }
            }
        }
    }

    /// Looks a ref up in its session and re-reads the element: refused when it belongs to
    /// another session, was superseded, is gone, or changed role or name.
    pub async fn resolve_ref(&self, text: &str) -> Result<Resolved> {
        let session = self.id();
        let entry = self.engine.sessions().lookup(session, text)?;
        let node = self
            .engine
            .backend()
            .node(&entry.element, Secrecy::of(entry.secret))
            .await
            .map_err(|e| {
                let error = Error::from(e);
                if error.code == Code::StaleRef {
                    Error::stale(format!(
                        "ref {text} ({} {}) no longer exists",
                        entry.role,
                        quoted(&entry.name, 100)
                    ))
                } else {
                    error
                }
            })?;
        if node.states.is(State::Defunct) {
            return Err(Error::stale(format!(
                "ref {text} ({} {}) is defunct",
                entry.role,
                quoted(&entry.name, 100)
            )));
        }
        if node.role != entry.role || node.name != entry.name {
            return Err(Error::stale(format!(
                "ref {text} was {} {} and is now {} {}",
                entry.role,
                quoted(&entry.name, 100),
                node.role,
                quoted(&node.name, 100)
            )));
        }
        let mut node = node;
        if node.name.is_empty() && node.derived_name.is_none() && !entry.display_name.is_empty() {
            // A single read has no children or labels to derive a name from: keep the one
            // shown in the snapshot that issued the ref.
            node.derived_name = Some(entry.display_name);
        }
        let secret = entry.secret || node.is_secret();
        Ok(Resolved {
            reference: text.to_owned(),
            node,
            secret,
        })
    }
}

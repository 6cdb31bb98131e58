//! What the apps' own focus events named, asked where a window's elements claim the focus
//! several times over (`derive/focus.rs` chooses among them).

use crate::engine::Engine;
use crate::model::ElementId;

/// The elements the latest focus events named, of each app with a window in `tree` where
/// several elements claim the focus (`derive/focus.rs`): a round trip per such app, none
/// for apps that claim one.
pub(crate) async fn focus_named(engine: &Engine, tree: &crate::model::Tree) -> Vec<ElementId> {
    let mut named: Vec<ElementId> = Vec::new();
    let mut asked: Vec<String> = Vec::new();
    for window in crate::derive::focus_in_doubt(tree) {
        if asked.contains(&window.app) {
            continue;
        }
        asked.push(window.app.clone());
        named.extend(engine.backend().events().focused_hint(&window).await);
    }
    named
}

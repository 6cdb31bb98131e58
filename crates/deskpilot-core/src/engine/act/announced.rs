//! What the app announced after an action, as evidence: elements of the target's window whose
//! new text or name the app's events announced (a calculator's display, a status line). Each
//! is read back, and believed only when the read agrees with the announcement.

use deskpilot_platform::Announcement;

use crate::act::observe::Announced;
use crate::act::subject::Subject;
use crate::engine::Engine;
use crate::model::{ElementId, NodeValue};
use crate::platform::Secrecy;

/// Elements read back per look, the latest announced first (a burst names many).
const MOST: usize = 4;
/// Parents followed up to a window.
const DEPTH: usize = 64;

/// The elements of `subject`'s window that announced a new text or name after `mark`, as
/// read back, each whose read agrees with what it announced last.
pub(crate) async fn announced(engine: &Engine, subject: &Subject, mark: u64) -> Vec<Announced> {
    let events = engine.backend().events();
    let Some(said) = events.announced_since(&subject.app, mark).await else {
        return Vec::new();
    };
    let latest = latest_of_others(said, &subject.node().id);
    if latest.is_empty() {
        return Vec::new();
    }
    let Some(window) = window_of(engine, &subject.app, &subject.node().id).await else {
        return Vec::new();
    };
    let mut agreeing = Vec::new();
    for announcement in latest {
        let element = &announcement.element;
        if window_of(engine, &subject.app, element).await.as_ref() != Some(&window) {
            continue;
        }
        let Ok(node) = engine.backend().node(element, Secrecy::Plain).await else {
            continue;
        };
        let shows = match &node.value {
            Some(NodeValue::Text { text }) => text.clone(),
            _ => node.name.clone(),
        };
        if agrees(&shows, &announcement.said) {
            agreeing.push(Announced {
                id: node.id.clone(),
                role: node.role,
                shows,
            });
        }
    }
    agreeing
}

/// Each element's latest announcement, the latest first, at most `MOST`, the target's own
/// left out (its read-back says it).
fn latest_of_others(said: Vec<Announcement>, target: &ElementId) -> Vec<Announcement> {
    let mut latest: Vec<Announcement> = Vec::new();
    for announcement in said.into_iter().rev() {
        let known = latest.iter().any(|l| l.element == announcement.element);
        if &announcement.element != target && !known {
            latest.push(announcement);
        }
    }
    latest.truncate(MOST);
    latest
}

/// Whether what an element shows agrees with what it announced: the text inserted is in it,
/// or it is the name given.
fn agrees(shows: &str, said: &str) -> bool {
    !said.is_empty() && shows.contains(said)
}

/// The top-level window `id` is in: its ancestor whose parent is the app, by the parents
/// walks found, else by asking.
async fn window_of(engine: &Engine, app: &ElementId, id: &ElementId) -> Option<ElementId> {
    let events = engine.backend().events();
    let mut current = id.clone();
    for _ in 0..DEPTH {
        let parent = match events.walked_parent(&current) {
            Some(parent) => parent,
            None => engine.backend().parent(&current).await.ok()??,
        };
        if &parent == app {
            return Some(current);
        }
        current = parent;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(path: &str, text: &str) -> Announcement {
        Announcement {
            element: ElementId::new(":1.5", path),
            said: text.into(),
        }
    }

    #[test]
    fn each_element_once_at_its_latest_the_target_left_out() {
        let target = ElementId::new(":1.5", "/button");
        let all = vec![
            said("/display", "6"),
            said("/button", "Pressed"),
            said("/status", "busy"),
            said("/display", "6×"),
        ];
        let latest = latest_of_others(all, &target);
        let texts: Vec<&str> = latest.iter().map(|a| a.said.as_str()).collect();
        assert_eq!(texts, ["6×", "busy"]);
    }

    #[test]
    fn a_read_agrees_when_it_holds_what_was_announced() {
        assert!(agrees("6×7", "7"));
        assert!(agrees("Clicked 2 times", "Clicked 2 times"));
        assert!(!agrees("Clicked 1 times", "Clicked 2 times"));
        assert!(!agrees("anything", ""));
    }
}

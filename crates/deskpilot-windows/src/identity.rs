//! Element ids on Windows: the app is its process (pid and creation time, so that a recycled
//! pid never names it), an element its `RuntimeId`. An app's own root is no UIA element (UIA
//! has no application node): it stands for the process's top-level windows.

use deskpilot_platform::model::ElementId;

use crate::raw::{RawProcess, RuntimeKey};

/// The object part of an app's root.
pub const APP_OBJECT: &str = "app";

/// The app part of the ids of `process`'s elements: `w:{pid}:{creation time, hex}`.
pub fn app_id(process: &RawProcess) -> String {
    format!("w:{}:{:x}", process.pid, process.started)
}

/// The pid and creation time an app id names.
pub fn parse_app(app: &str) -> Option<(u32, u64)> {
    let rest = app.strip_prefix("w:")?;
    let (pid, started) = rest.split_once(':')?;
    Some((pid.parse().ok()?, u64::from_str_radix(started, 16).ok()?))
}

/// The root of `process`'s app.
pub fn app_root(process: &RawProcess) -> ElementId {
    ElementId::new(app_id(process), APP_OBJECT)
}

/// An element's id: its app, and its `RuntimeId` in hex joined with dots (`2a.1000`).
pub fn element_id(app: &str, key: &RuntimeKey) -> ElementId {
    let object = key
        .0
        .iter()
        .map(|part| format!("{:x}", *part as u32))
        .collect::<Vec<_>>()
        .join(".");
    ElementId::new(app, object)
}

/// What an id names: the app's root, or an element by its `RuntimeId`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Named {
    AppRoot,
    Element(RuntimeKey),
}

/// The process (pid, creation time) and the element `id` names; `None` for an id no Windows
/// read issued.
pub fn parse(id: &ElementId) -> Option<(u32, u64, Named)> {
    let (pid, started) = parse_app(&id.app)?;
    if id.object == APP_OBJECT {
        return Some((pid, started, Named::AppRoot));
    }
    let parts: Option<Vec<i32>> = id
        .object
        .split('.')
        .map(|part| u32::from_str_radix(part, 16).ok().map(|n| n as i32))
        .collect();
    Some((pid, started, Named::Element(RuntimeKey(parts?))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notepad() -> RawProcess {
        RawProcess {
            pid: 4242,
            started: 0x1d9f0c,
            exe: "notepad.exe".into(),
            description: None,
            rights: crate::raw::Rights::Within,
        }
    }

    /// An id names its process by pid and creation time, its element by `RuntimeId`, and
    /// reads back to both; negative parts of a `RuntimeId` survive.
    #[test]
    fn ids_round_trip_and_carry_the_process_creation_time() {
        let key = RuntimeKey(vec![42, 0x1000, -3]);
        let id = element_id(&app_id(&notepad()), &key);
        assert_eq!(id.app, "w:4242:1d9f0c");
        assert_eq!(id.object, "2a.1000.fffffffd");
        assert_eq!(parse(&id), Some((4242, 0x1d9f0c, Named::Element(key))));
        assert_eq!(
            parse(&app_root(&notepad())),
            Some((4242, 0x1d9f0c, Named::AppRoot))
        );
        assert_eq!(
            parse(&ElementId::new(":1.42", "/org/a11y/atspi/accessible/root")),
            None
        );
    }
}

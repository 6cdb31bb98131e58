//! Whether a step may be sent again after a retryable failure: a tool that only reads may;
//! an acting one only when core's rule for its action says so (`Action::safe_to_repeat`,
//! the ladder's own rule); anything unknown may not.

use deskpilot_core::{Action, Chord, InputText, MouseButton, ValueInput};
use rmcp::model::JsonObject;

use crate::args::{ActArgs, parse};

/// `Ok` when `tool` with `args` is safe to repeat, else why not.
pub fn repeatable(tool: &str, read_only: bool, args: &JsonObject) -> Result<(), String> {
    if read_only {
        return Ok(());
    }
    let by_action = |action: Action| {
        if action.safe_to_repeat() {
            Ok(())
        } else {
            Err(format!(
                "{tool} ({}) may act twice when repeated: it is not retried",
                action.verb()
            ))
        }
    };
    match tool {
        "click" => by_action(Action::Click {
            button: MouseButton::Left,
            double: false,
        }),
        "type_text" => by_action(Action::TypeText(InputText::plain(""))),
        "press_key" => by_action(Action::PressKey(Chord::plain(
            deskpilot_core::act::Key::Char('a'),
        ))),
        "set_value" => by_action(Action::SetValue(ValueInput::Number(0.0))),
        "act" => match parse::<ActArgs>(Some(args.clone())).and_then(|a| a.action()) {
            Ok(action) => by_action(action),
            Err(_) => Err(format!(
                "{tool}: its verb cannot be told before it runs, so it is not retried"
            )),
        },
        "window_action" => match args.get("action").and_then(|a| a.as_str()) {
            Some("activate" | "minimize" | "maximize" | "restore") => Ok(()),
            _ => Err(
                "window_action close (or an action told only when it runs) is not retried".into(),
            ),
        },
        _ => Err(format!("{tool} acts and is not known to be safe to repeat")),
    }
}

/// Why `tool` with `args` must take the foreground (keys, the pointer, a raised window),
/// which background mode refuses; `None` when it need not (an action whose ladder may fall
/// to keys or the pointer runs in background mode with those rungs skipped).
pub fn needs_foreground(tool: &str, args: &JsonObject) -> Option<String> {
    let arg = |name: &str| args.get(name);
    match tool {
        "type_text" | "press_key" => Some(format!("{tool} sends keys")),
        "drag" => Some("a drag moves the pointer".into()),
        "click"
            if arg("double").and_then(|v| v.as_bool()) == Some(true)
                || arg("button")
                    .and_then(|v| v.as_str())
                    .is_some_and(|b| b != "left") =>
        {
            Some("only a left single click has a semantic route".into())
        }
        "window_action" if arg("action").and_then(|v| v.as_str()) != Some("minimize") => {
            Some("window_action changes the foreground (only minimize does not)".into())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(value: serde_json::Value) -> JsonObject {
        value.as_object().cloned().unwrap()
    }

    /// Reads and idempotent verbs repeat; clicks, typing, keys, a plain toggle, a close and
    /// anything unknown do not.
    #[test]
    fn only_what_core_calls_safe_repeats() {
        let none = JsonObject::new();
        assert!(repeatable("find", true, &none).is_ok());
        assert!(repeatable("set_value", false, &none).is_ok());
        let toggle = |ensure: Option<&str>| {
            let mut a = json!({"session": "s", "target": "e1", "verb": "toggle"});
            if let Some(e) = ensure {
                a["ensure"] = json!(e);
            }
            repeatable("act", false, &args(a))
        };
        assert!(toggle(Some("on")).is_ok());
        assert!(toggle(None).unwrap_err().contains("toggle"));
        for tool in ["click", "type_text", "press_key", "drag", "launch_app"] {
            assert!(repeatable(tool, false, &none).is_err(), "{tool}");
        }
        let close = args(json!({"action": "close"}));
        assert!(repeatable("window_action", false, &close).is_err());
        let raise = args(json!({"action": "activate"}));
        assert!(repeatable("window_action", false, &raise).is_ok());
    }

    /// Keys, drags, a right or double click and raising a window need the foreground; a
    /// left click, a verb, a value and a read do not (their ladders skip keys and pointer).
    #[test]
    fn what_needs_the_foreground() {
        let none = JsonObject::new();
        for tool in ["type_text", "press_key", "drag", "window_action"] {
            assert!(needs_foreground(tool, &none).is_some(), "{tool}");
        }
        for tool in ["click", "act", "set_value", "find", "launch_app"] {
            assert!(needs_foreground(tool, &none).is_none(), "{tool}");
        }
        assert!(needs_foreground("click", &args(json!({"double": true}))).is_some());
        assert!(needs_foreground("click", &args(json!({"button": "right"}))).is_some());
        let minimize = args(json!({"action": "minimize"}));
        assert!(needs_foreground("window_action", &minimize).is_none());
    }
}

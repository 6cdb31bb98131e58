//! The tools that act on an app (capability `input`): clicks, values, typing, keys,
//! semantic verbs, drags.

use deskpilot_core::act::{DragEnd, KeyError};
use deskpilot_core::{Action, Chord, Error, InputText, MouseButton, ValueInput};

use super::reported;
use crate::args::{self, *};
use crate::call::Cx;
use crate::outcome::{ToolOutcome, invalid_arguments};

pub(crate) async fn click(cx: &Cx<'_>, a: ClickArgs) -> Result<ToolOutcome, Error> {
    let action = Action::Click {
        button: a.button.map_or(MouseButton::Left, |b| b.0),
        double: a.double.unwrap_or(false),
    };
    let wait = args::actionable_wait(a.timeout_ms);
    act_on(cx, &a.session, Some(&a.target), &action, wait).await
}

pub(crate) async fn set_value(cx: &Cx<'_>, a: SetValueArgs) -> Result<ToolOutcome, Error> {
    let value = match a.value {
        ValueArg::Number(n) => ValueInput::Number(n),
        ValueArg::Text(t) => ValueInput::Text(InputText::new(t, a.secret == Some(true))),
    };
    let action = Action::SetValue(value);
    let wait = args::actionable_wait(a.timeout_ms);
    act_on(cx, &a.session, Some(&a.target), &action, wait).await
}

pub(crate) async fn type_text(cx: &Cx<'_>, a: TypeTextArgs) -> Result<ToolOutcome, Error> {
    let action = Action::TypeText(InputText::new(a.text, a.secret == Some(true)));
    let wait = args::actionable_wait(a.timeout_ms);
    act_on(cx, &a.session, a.target.as_deref(), &action, wait).await
}

pub(crate) async fn press_key(cx: &Cx<'_>, a: PressKeyArgs) -> Result<ToolOutcome, Error> {
    let chord: Chord = a
        .key
        .parse()
        .map_err(|e: KeyError| invalid_arguments(e.to_string()))?;
    let action = Action::PressKey(chord);
    let wait = args::actionable_wait(a.timeout_ms);
    act_on(cx, &a.session, a.target.as_deref(), &action, wait).await
}

pub(crate) async fn act(cx: &Cx<'_>, a: ActArgs) -> Result<ToolOutcome, Error> {
    let action = a.action()?;
    let wait = args::actionable_wait(a.timeout_ms);
    act_on(cx, &a.session, Some(&a.target), &action, wait).await
}

pub(crate) async fn drag(cx: &Cx<'_>, a: DragArgs) -> Result<ToolOutcome, Error> {
    let end = |e: DragEndArg| -> Result<DragEnd, Error> {
        Ok(match e {
            DragEndArg::Target(t) => DragEnd::Element(args::target(&t)?),
            DragEndArg::Point { x, y } => {
                cx.grants.require_any_app("a drag to a bare screen point")?;
                DragEnd::Point { x, y }
            }
        })
    };
    let (from, to) = (end(a.from)?, end(a.to)?);
    Ok(reported(cx.session(&a.session)?.drag(&from, &to).await?))
}

/// `action` on `target` when given (once actionable, waiting up to `wait`), else on the
/// session's window.
async fn act_on(
    cx: &Cx<'_>,
    session: &str,
    target: Option<&str>,
    action: &Action,
    wait: std::time::Duration,
) -> Result<ToolOutcome, Error> {
    let target = target.map(args::target).transpose()?;
    let session = cx.session(session)?;
    let report = match target {
        Some(target) => session.act_when_ready(&target, action, wait).await?,
        None => session.act_on_window(action).await?,
    };
    Ok(reported(report))
}

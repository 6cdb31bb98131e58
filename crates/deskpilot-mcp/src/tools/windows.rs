//! The window tool (capability `input`): requests to the window manager.

use deskpilot_core::Error;

use super::reported;
use crate::args::WindowActionArgs;
use crate::call::Cx;
use crate::outcome::ToolOutcome;

pub(crate) async fn window_action(cx: &Cx<'_>, a: WindowActionArgs) -> Result<ToolOutcome, Error> {
    let report = cx.session(&a.session)?.window_action(a.action.0).await?;
    Ok(reported(report))
}

//! The tools that act on an app (capability `input`): clicks, values, typing, keys,
//! semantic verbs, drags.

use deskpilot_core::act::{DragEnd, KeyError};
use deskpilot_core::{Action, Chord, Error, InputText, MouseButton, ValueInput};
use rmcp::handler::server::common::Extension;
use rmcp::{tool, tool_router};

use crate::call::Call;

use super::{ToolResult, reported, respond};
use crate::DeskpilotServer;
use crate::args::{self, *};
use crate::outcome::invalid_arguments;
use crate::output::ActionOut;
use crate::schema::{input_schema, output_schema};

#[tool_router(router = input_router, vis = "pub(crate)")]
impl DeskpilotServer {
    #[tool(
        description = "Click via the element's own action (a row: select), else focus+Space, else a real click at its live bounds; reports route, effect and changes. Never sent twice.",
        annotations(read_only_hint = false, destructive_hint = true, open_world_hint = true),
        input_schema = input_schema::<ClickArgs>(),
        output_schema = output_schema::<ActionOut>()
    )]
    async fn click(
        &self,
        Args(a): Args<ClickArgs>,
        Extension(call): Extension<Call>,
    ) -> ToolResult {
        respond(async {
            let a = a?;
            let action = Action::Click {
                button: a.button.map_or(MouseButton::Left, |b| b.0),
                double: a.double.unwrap_or(false),
            };
            let target = args::target(&a.target)?;
            let wait = args::actionable_wait(a.timeout_ms);
            Ok(reported(
                call.session(self.engine(), &a.session)?
                    .act_when_ready(&target, &action, wait)
                    .await?,
            ))
        })
        .await
    }

    #[tool(
        description = "Set a field's whole text, or a slider's or spin button's number, read back (a clamped number says so).",
        annotations(read_only_hint = false, destructive_hint = true, open_world_hint = true),
        input_schema = input_schema::<SetValueArgs>(),
        output_schema = output_schema::<ActionOut>()
    )]
    async fn set_value(
        &self,
        Args(a): Args<SetValueArgs>,
        Extension(call): Extension<Call>,
    ) -> ToolResult {
        respond(async {
            let a = a?;
            let value = match a.value {
                ValueArg::Number(n) => ValueInput::Number(n),
                ValueArg::Text(t) => ValueInput::Text(InputText::new(t, a.secret == Some(true))),
            };
            let target = args::target(&a.target)?;
            let action = Action::SetValue(value);
            let wait = args::actionable_wait(a.timeout_ms);
            Ok(reported(
                call.session(self.engine(), &a.session)?
                    .act_when_ready(&target, &action, wait)
                    .await?,
            ))
        })
        .await
    }

    #[tool(
        description = "Type keystrokes at the end of target (focused first) or into the focused element; never sent twice, never echoed.",
        annotations(read_only_hint = false, destructive_hint = true, open_world_hint = true),
        input_schema = input_schema::<TypeTextArgs>(),
        output_schema = output_schema::<ActionOut>()
    )]
    async fn type_text(&self, Args(a): Args<TypeTextArgs>) -> ToolResult {
        respond(async {
            let a = a?;
            let action = Action::TypeText(InputText::new(a.text, a.secret == Some(true)));
            let wait = args::actionable_wait(a.timeout_ms);
            self.act_on(&a.session, a.target.as_deref(), &action, wait)
                .await
        })
        .await
    }

    #[tool(
        description = "Press a key or chord in the session's window, on `target` (focused first) if given.",
        annotations(read_only_hint = false, destructive_hint = true, open_world_hint = true),
        input_schema = input_schema::<PressKeyArgs>(),
        output_schema = output_schema::<ActionOut>()
    )]
    async fn press_key(&self, Args(a): Args<PressKeyArgs>) -> ToolResult {
        respond(async {
            let a = a?;
            let chord: Chord = a
                .key
                .parse()
                .map_err(|e: KeyError| invalid_arguments(e.to_string()))?;
            let action = Action::PressKey(chord);
            let wait = args::actionable_wait(a.timeout_ms);
            self.act_on(&a.session, a.target.as_deref(), &action, wait)
                .await
        })
        .await
    }

    #[tool(
        description = "A semantic verb, confirmed by the state it should produce; a no-op falls to keys, then the pointer.",
        annotations(read_only_hint = false, destructive_hint = true, open_world_hint = true),
        input_schema = input_schema::<ActArgs>(),
        output_schema = output_schema::<ActionOut>()
    )]
    async fn act(&self, Args(a): Args<ActArgs>, Extension(call): Extension<Call>) -> ToolResult {
        respond(async {
            let a = a?;
            let action = a.action()?;
            let target = args::target(&a.target)?;
            let wait = args::actionable_wait(a.timeout_ms);
            Ok(reported(
                call.session(self.engine(), &a.session)?
                    .act_when_ready(&target, &action, wait)
                    .await?,
            ))
        })
        .await
    }

    #[tool(
        description = "Drag with the left button from an element or point to another (real pointer input, in steps).",
        annotations(read_only_hint = false, destructive_hint = true, open_world_hint = true),
        input_schema = input_schema::<DragArgs>(),
        output_schema = output_schema::<ActionOut>()
    )]
    async fn drag(&self, Args(a): Args<DragArgs>, Extension(call): Extension<Call>) -> ToolResult {
        respond(async {
            let a = a?;
            let end = |e: DragEndArg| -> Result<DragEnd, Error> {
                Ok(match e {
                    DragEndArg::Target(t) => DragEnd::Element(args::target(&t)?),
                    DragEndArg::Point { x, y } => {
                        self.grants()
                            .require_any_app("a drag to a bare screen point")?;
                        DragEnd::Point { x, y }
                    }
                })
            };
            let (from, to) = (end(a.from)?, end(a.to)?);
            Ok(reported(
                call.session(self.engine(), &a.session)?
                    .drag(&from, &to)
                    .await?,
            ))
        })
        .await
    }
}

impl DeskpilotServer {
    /// `action` on `target` when given (once actionable, waiting up to `wait`), else on the
    /// session's window.
    async fn act_on(
        &self,
        session: &str,
        target: Option<&str>,
        action: &Action,
        wait: std::time::Duration,
    ) -> Result<rmcp::model::CallToolResult, Error> {
        let report = match target {
            Some(target) => {
                let target = args::target(target)?;
                self.engine()
                    .session(session)?
                    .act_when_ready(&target, action, wait)
                    .await?
            }
            None => {
                self.engine()
                    .session(session)?
                    .act_on_window(action)
                    .await?
            }
        };
        Ok(reported(report))
    }
}

//! The tools that change an app. Listed and callable only with `--allow-input`; without it a
//! call is refused with `input_not_allowed` (see `DeskpilotServer::call_tool`).

use deskpilot_core::{Action, ActionReport, Chord, Code, Error, MouseButton, OnOff, ValueInput};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, JsonObject};
use rmcp::{tool, tool_router};

use crate::args::{self, *};
use crate::outcome::{input_schema, output_schema, success};
use crate::output::ActionOut;
use crate::server::{DeskpilotServer, ToolResult, respond};

/// The tools `--allow-input` unlocks.
pub const INPUT_TOOLS: &[&str] = &["click", "set_value", "type_text", "press_key", "act"];

fn reported(report: ActionReport) -> CallToolResult {
    success(report.summary(), ActionOut::from(&report))
}

#[tool_router(router = act_router, vis = "pub(crate)")]
impl DeskpilotServer {
    #[tool(
        description = "Click an element: its own action first (left single click), else focus+Space, else a real click at its live bounds (window raised, point checked). Reports route, skipped and effect: confirmed (change read back), unverified, noop. Never sent twice.",
        annotations(read_only_hint = false, destructive_hint = true, open_world_hint = true),
        input_schema = input_schema::<ClickArgs>(),
        output_schema = output_schema::<ActionOut>()
    )]
    async fn click(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.click_impl(raw).await)
    }

    #[tool(
        description = "Set a field's whole text, or a slider/spin button's number, then read it back. A clamped number fails with value_clamped and the kept value.",
        annotations(read_only_hint = false, destructive_hint = true, open_world_hint = true),
        input_schema = input_schema::<SetValueArgs>(),
        output_schema = output_schema::<ActionOut>()
    )]
    async fn set_value(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.set_value_impl(raw).await)
    }

    #[tool(
        description = "Type text as keystrokes into `target` (focused first, typed at its end) or the focused element. Never sent twice; the text never appears in results.",
        annotations(read_only_hint = false, destructive_hint = true, open_world_hint = true),
        input_schema = input_schema::<TypeTextArgs>(),
        output_schema = output_schema::<ActionOut>()
    )]
    async fn type_text(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.type_text_impl(raw).await)
    }

    #[tool(
        description = "Press a key or chord in the session's window, on `target` (focused first) if given.",
        annotations(read_only_hint = false, destructive_hint = true, open_world_hint = true),
        input_schema = input_schema::<PressKeyArgs>(),
        output_schema = output_schema::<ActionOut>()
    )]
    async fn press_key(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.press_key_impl(raw).await)
    }

    #[tool(
        description = "A semantic verb on one element, confirmed by the state it should produce; a no-op moves on to keys, then the pointer, and fails with no_effect when nothing works.",
        annotations(read_only_hint = false, destructive_hint = true, open_world_hint = true),
        input_schema = input_schema::<ActArgs>(),
        output_schema = output_schema::<ActionOut>()
    )]
    async fn act(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.act_impl(raw).await)
    }
}

impl DeskpilotServer {
    async fn click_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let a: ClickArgs = args::parse(Some(raw))?;
        let button = match a.button.unwrap_or(ButtonArg::Left) {
            ButtonArg::Left => MouseButton::Left,
            ButtonArg::Right => MouseButton::Right,
            ButtonArg::Middle => MouseButton::Middle,
        };
        let action = Action::Click {
            button,
            double: a.double.unwrap_or(false),
        };
        let report = self
            .engine()
            .act(&a.session, &args::target(&a.target)?, &action)
            .await?;
        Ok(reported(report))
    }

    async fn set_value_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let a: SetValueArgs = args::parse(Some(raw))?;
        let value = match a.value {
            ValueArg::Number(n) => ValueInput::Number(n),
            ValueArg::Text(t) => ValueInput::Text(t),
        };
        let report = self
            .engine()
            .act(
                &a.session,
                &args::target(&a.target)?,
                &Action::SetValue(value),
            )
            .await?;
        Ok(reported(report))
    }

    async fn type_text_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let a: TypeTextArgs = args::parse(Some(raw))?;
        let action = Action::TypeText(a.text);
        let report = match a.target {
            Some(target) => {
                self.engine()
                    .act(&a.session, &args::target(&target)?, &action)
                    .await?
            }
            None => self.engine().act_on_window(&a.session, &action).await?,
        };
        Ok(reported(report))
    }

    async fn press_key_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let a: PressKeyArgs = args::parse(Some(raw))?;
        let chord: Chord = a.key.parse().map_err(|e: deskpilot_core::act::KeyError| {
            crate::outcome::invalid_arguments(e.to_string())
        })?;
        let action = Action::PressKey(chord);
        let report = match a.target {
            Some(target) => {
                self.engine()
                    .act(&a.session, &args::target(&target)?, &action)
                    .await?
            }
            None => self.engine().act_on_window(&a.session, &action).await?,
        };
        Ok(reported(report))
    }

    async fn act_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let a: ActArgs = args::parse(Some(raw))?;
        if a.ensure.is_some() && a.verb != VerbArg::Toggle {
            return Err(crate::outcome::invalid_arguments(
                "ensure goes with verb toggle only",
            ));
        }
        if a.name.is_some() != (a.verb == VerbArg::Activate) {
            return Err(crate::outcome::invalid_arguments(
                "name is required with verb activate, and only there",
            ));
        }
        let action = match a.verb {
            VerbArg::Toggle => Action::Toggle {
                ensure: a.ensure.map(|e| match e {
                    OnOffArg::On => OnOff::On,
                    OnOffArg::Off => OnOff::Off,
                }),
            },
            VerbArg::Check => Action::Toggle {
                ensure: Some(OnOff::On),
            },
            VerbArg::Uncheck => Action::Toggle {
                ensure: Some(OnOff::Off),
            },
            VerbArg::Select => Action::Select,
            VerbArg::AddToSelection => Action::AddToSelection,
            VerbArg::Deselect => Action::Deselect,
            VerbArg::Expand => Action::Expand,
            VerbArg::Collapse => Action::Collapse,
            VerbArg::Focus => Action::Focus,
            VerbArg::ScrollIntoView => Action::ScrollIntoView,
            VerbArg::Activate => Action::Activate(a.name.unwrap_or_default()),
        };
        let report = self
            .engine()
            .act(&a.session, &args::target(&a.target)?, &action)
            .await?;
        Ok(reported(report))
    }
}

/// The refusal for an input tool called without `--allow-input`.
pub fn input_not_allowed(tool: &str) -> Error {
    Error::new(
        Code::InputNotAllowed,
        format!("{tool} changes the app, and this server is read-only"),
        "restart the server with `deskpilot mcp --allow-input` to allow actions; reading tools work as they are",
    )
}

impl DeskpilotServer {
    /// Both routers: reading tools, and the input tools unless input is not allowed (then
    /// they are not listed).
    pub(crate) fn routers(allow_input: bool) -> ToolRouter<Self> {
        let mut router = Self::tool_router();
        router.merge(Self::act_router());
        router.merge(Self::shot_router());
        if !allow_input {
            for name in INPUT_TOOLS {
                router.disable_route(*name);
            }
        }
        router
    }
}

//! The tools that change an app. Listed and callable only with `--allow-input`; without it a
//! call is refused with `input_not_allowed` (see `DeskpilotServer::call_tool`).

use deskpilot_core::act::{DragEnd, InputText, WindowAction};
use deskpilot_core::{
    Action, ActionReport, Chord, Code, Direction, Error, MouseButton, OnOff, ValueInput,
};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, JsonObject};
use rmcp::{tool, tool_router};

use crate::args::{self, *};
use crate::outcome::{input_schema, output_schema, success};
use crate::output::{ActionOut, LaunchOut};
use crate::server::{DeskpilotServer, ToolResult, respond};

/// The tools `--allow-input` unlocks.
pub const INPUT_TOOLS: &[&str] = &[
    "click",
    "set_value",
    "type_text",
    "press_key",
    "act",
    "drag",
    "window_action",
    "launch_app",
];

fn reported(report: ActionReport) -> CallToolResult {
    success(
        deskpilot_core::present::action(&report),
        ActionOut::from(&report),
    )
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

    #[tool(
        description = "Drag with the left button from an element or point to another (real pointer input, in steps).",
        annotations(read_only_hint = false, destructive_hint = true, open_world_hint = true),
        input_schema = input_schema::<DragArgs>(),
        output_schema = output_schema::<ActionOut>()
    )]
    async fn drag(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.drag_impl(raw).await)
    }

    #[tool(
        description = "Activate, minimize, maximize, restore or close the session's window; confirmed by its state.",
        annotations(read_only_hint = false, destructive_hint = true, open_world_hint = true),
        input_schema = input_schema::<WindowActionArgs>(),
        output_schema = output_schema::<ActionOut>()
    )]
    async fn window_action(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.window_action_impl(raw).await)
    }

    #[tool(
        description = "Start a program and wait until it (or a child) registers with a window; returns its pid and windows for connect.",
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = true),
        input_schema = input_schema::<LaunchAppArgs>(),
        output_schema = output_schema::<LaunchOut>()
    )]
    async fn launch_app(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.launch_app_impl(raw).await)
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
            ValueArg::Text(t) => ValueInput::Text(InputText::new(t, a.secret == Some(true))),
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
        let action = Action::TypeText(InputText::new(a.text, a.secret == Some(true)));
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
        if (a.verb == VerbArg::Scroll) != a.direction.is_some()
            || (a.amount.is_some() && a.verb != VerbArg::Scroll)
        {
            return Err(crate::outcome::invalid_arguments(
                "direction (and amount) go with verb scroll, which needs a direction",
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
            VerbArg::Scroll => Action::Scroll {
                direction: match a.direction {
                    Some(DirectionArg::Up) | None => Direction::Up,
                    Some(DirectionArg::Down) => Direction::Down,
                    Some(DirectionArg::Left) => Direction::Left,
                    Some(DirectionArg::Right) => Direction::Right,
                },
                amount: a.amount.unwrap_or(3).clamp(1, 50),
            },
        };
        let report = self
            .engine()
            .act(&a.session, &args::target(&a.target)?, &action)
            .await?;
        Ok(reported(report))
    }
}

impl DeskpilotServer {
    async fn drag_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let a: DragArgs = args::parse(Some(raw))?;
        let end = |e: DragEndArg| -> Result<DragEnd, Error> {
            Ok(match e {
                DragEndArg::Target(t) => DragEnd::Element(args::target(&t)?),
                DragEndArg::Point { x, y } => DragEnd::Point { x, y },
            })
        };
        let report = self
            .engine()
            .drag(&a.session, &end(a.from)?, &end(a.to)?)
            .await?;
        Ok(reported(report))
    }

    async fn window_action_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let a: WindowActionArgs = args::parse(Some(raw))?;
        let action = match a.action {
            WindowActionArg::Activate => WindowAction::Activate,
            WindowActionArg::Minimize => WindowAction::Minimize,
            WindowActionArg::Maximize => WindowAction::Maximize,
            WindowActionArg::Restore => WindowAction::Restore,
            WindowActionArg::Close => WindowAction::Close,
        };
        Ok(reported(
            self.engine().window_action(&a.session, action).await?,
        ))
    }

    async fn launch_app_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let a: LaunchAppArgs = args::parse(Some(raw))?;
        let timeout = std::time::Duration::from_millis(a.timeout_ms.unwrap_or(30_000).min(120_000));
        let launched = self.engine().launch_app(&a.argv, timeout).await?;
        let text = format!(
            "started {:?} (pid {}); registered as {:?} pid {} with {} window(s): {}",
            a.argv[0],
            launched.spawned_pid,
            launched.app.name,
            launched.app.pid.map_or("?".into(), |p| p.to_string()),
            launched.app.windows.len(),
            launched
                .app
                .windows
                .iter()
                .map(|w| format!("{:?}", w.title))
                .collect::<Vec<_>>()
                .join(", ")
        );
        Ok(success(
            text,
            crate::output::LaunchOut {
                spawned_pid: launched.spawned_pid,
                pid: launched.app.pid,
                name: launched.app.name.clone(),
                windows: launched
                    .app
                    .windows
                    .iter()
                    .map(|w| w.title.clone())
                    .collect(),
            },
        ))
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

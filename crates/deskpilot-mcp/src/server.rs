//! The MCP server: the engine's read tools, each with an input schema written for a model,
//! an output schema that admits failures, and read-only annotations.

use std::sync::Arc;
use std::time::Duration;

use deskpilot_core::{ConnectTarget, Engine, Error, Filter, ProgressSink, SnapshotRequest, escape};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, JsonObject, ProgressNotificationParam, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};

use crate::args::{self, *};
use crate::outcome::{failure, input_schema, invalid_arguments, output_schema, success};
use crate::output::*;

/// What the server tells a model about how to use it.
pub const INSTRUCTIONS: &str = "deskpilot reads desktop applications through their accessibility tree.\n\
Workflow: list_apps -> connect (by pid, app or window title; returns a session id) -> snapshot \
(compact tree, one line per element with a ref like e12) or find (selector) -> read details \
(get_properties, read_text, read_table, hit_test, get_focus) -> act (only with --allow-input) -> \
snapshot again to verify. Pass `session` to every tool but list_apps and connect. Refs belong to \
the session that issued them and are refused once the element changed: take a new snapshot. \
Every result has ok; a failure has ok:false, code (stale_ref, not_found, ambiguous, timeout, \
app_not_responding, app_gone, invalid_selector, invalid_arguments, unknown_session, \
input_not_allowed, unsupported, backend), message, retryable and hint (what to do next).";

/// The deskpilot MCP server over one engine.
#[derive(Clone)]
pub struct DeskpilotServer {
    engine: Arc<Engine>,
    tool_router: ToolRouter<Self>,
    allow_input: bool,
}

pub(crate) type ToolResult = Result<CallToolResult, ErrorData>;

/// Runs a tool body; an engine error becomes an `isError` result, never a protocol error.
pub(crate) fn respond(result: Result<CallToolResult, Error>) -> ToolResult {
    Ok(result.unwrap_or_else(|e| failure(&e)))
}

#[tool_router(vis = "pub(crate)")]
impl DeskpilotServer {
    /// A read-only server: tools that change an app are neither listed nor callable.
    pub fn new(engine: Arc<Engine>) -> Self {
        Self::with_input(engine, false)
    }

    /// With `allow_input`, the tools that change an app (click, type, ...) are listed too.
    pub fn with_input(engine: Arc<Engine>, allow_input: bool) -> Self {
        DeskpilotServer {
            engine,
            tool_router: Self::routers(allow_input),
            allow_input,
        }
    }

    pub(crate) fn engine(&self) -> &Engine {
        &self.engine
    }

    pub(crate) fn allows_input(&self) -> bool {
        self.allow_input
    }

    #[tool(
        description = "Apps on the desktop: pid, toolkit, windows (title, bounds, states, X11 id). An app with a nearly empty tree is flagged blind, with a hint.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<ListAppsArgs>(),
        output_schema = output_schema::<ListAppsOut>()
    )]
    async fn list_apps(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.list_apps_impl(raw).await)
    }

    #[tool(
        description = "Open a session on an app (pid or list_apps name: all its windows) or a window (title or X11 id: it and its dialogs); returns the session id the other tools take.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<ConnectArgs>(),
        output_schema = output_schema::<ConnectOut>()
    )]
    async fn connect(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.connect_impl(raw).await)
    }

    #[tool(
        description = "Close a session; its refs stop working.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<SessionArgs>(),
        output_schema = output_schema::<DisconnectOut>()
    )]
    async fn disconnect(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond((|| {
            let a: SessionArgs = args::parse(Some(raw))?;
            self.engine.disconnect(&a.session)?;
            Ok(success(
                format!("closed {}", a.session),
                DisconnectOut { session: a.session },
            ))
        })())
    }

    #[tool(
        description = "The session's window as a compact tree, one line per element: `- role \"name\": value [states] [ref=eN]`. Use the refs with the other tools. An app session shows its active window, the others one [folded] line each. filter: interactive (default), text, all. A cut snapshot says why and returns a cursor to continue.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<SnapshotArgs>(),
        output_schema = output_schema::<SnapshotOut>()
    )]
    async fn snapshot(
        &self,
        Parameters(raw): Parameters<JsonObject>,
        context: RequestContext<RoleServer>,
    ) -> ToolResult {
        let progress = progress_sink(&context);
        tokio::select! {
            result = self.snapshot_impl(raw, progress) => respond(result),
            // A cancelled request stops the walk (its future is dropped).
            _ = context.ct.cancelled() => respond(Err(Error::new(
                deskpilot_core::Code::Timeout,
                "cancelled by the client",
                "nothing to do",
            ))),
        }
    }

    #[tool(
        description = "Find elements at any depth by selector; visible first (others [hidden]), exact before partial, each with a ref. Names containers it could not search.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<FindArgs>(),
        output_schema = output_schema::<FindOut>()
    )]
    async fn find(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.find_impl(raw).await)
    }

    #[tool(
        description = "Everything known about one element: states (and which are unknown), actions, interfaces, bounds, id, attributes.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<TargetArgs>(),
        output_schema = output_schema::<PropertiesOut>()
    )]
    async fn get_properties(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.properties_impl(raw).await)
    }

    #[tool(
        description = "The element at a screen point in the session's window, with its ancestors (outermost first).",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<HitTestArgs>(),
        output_schema = output_schema::<HitTestOut>()
    )]
    async fn hit_test(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.hit_test_impl(raw).await)
    }

    #[tool(
        description = "The element that has the keyboard focus in the session's window.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<SessionArgs>(),
        output_schema = output_schema::<FocusOut>()
    )]
    async fn get_focus(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.focus_impl(raw).await)
    }

    #[tool(
        description = "An element's text, paged by characters (offset, length). A password field's text is never read.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<ReadTextArgs>(),
        output_schema = output_schema::<ReadTextOut>()
    )]
    async fn read_text(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.read_text_impl(raw).await)
    }

    #[tool(
        description = "Wait until an element matching a selector appears (visible; default), is attached (shown or not), disappears, has a state on or off (`state`: \"checked\" / \"!checked\"), or has a value (`value`). Fails with code timeout, saying what was last seen.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<WaitForArgs>(),
        output_schema = output_schema::<WaitForOut>()
    )]
    async fn wait_for(
        &self,
        Parameters(raw): Parameters<JsonObject>,
        cancelled: tokio_util::sync::CancellationToken,
    ) -> ToolResult {
        tokio::select! {
            result = self.wait_for_impl(raw) => respond(result),
            // A cancelled request stops polling at once (dropping the wait).
            _ = cancelled.cancelled() => respond(Err(Error::new(
                deskpilot_core::Code::Timeout,
                "cancelled by the client",
                "nothing to do",
            ))),
        }
    }

    #[tool(
        description = "A table's rows, paged (first_row, rows), with its column headers on every page and the row count the table reports.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<ReadTableArgs>(),
        output_schema = output_schema::<ReadTableOut>()
    )]
    async fn read_table(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.read_table_impl(raw).await)
    }
}

/// When the client asked for progress (a `progressToken` in the request's `_meta`), a sink
/// that turns "nodes read so far" into `notifications/progress`, in order.
fn progress_sink(context: &RequestContext<RoleServer>) -> Option<ProgressSink> {
    let token = context.meta.get_progress_token()?;
    let peer = context.peer.clone();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<usize>();
    tokio::spawn(async move {
        while let Some(nodes) = rx.recv().await {
            let mut param = ProgressNotificationParam::new(token.clone(), nodes as f64);
            param.message = Some(format!("{nodes} elements read"));
            if peer.notify_progress(param).await.is_err() {
                break;
            }
        }
    });
    Some(ProgressSink(Arc::new(move |nodes| {
        let _ = tx.send(nodes);
    })))
}

impl DeskpilotServer {
    async fn list_apps_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let _: ListAppsArgs = args::parse(Some(raw))?;
        let apps = self.engine.apps().await?;
        let blind = futures_util::future::join_all(
            apps.iter()
                .map(|app| crate::blind::is_blind(&self.engine, app)),
        )
        .await;
        let mut out: Vec<AppOut> = apps
            .iter()
            .zip(blind)
            .map(|(app, blind)| AppOut::new(app, blind))
            .collect();
        out.extend(AppOut::off_the_bus(
            &self.engine.windows_off_the_bus(&apps).await,
        ));
        let mut text = String::new();
        for app in &out {
            let pid = app.pid.map_or("?".into(), |p| p.to_string());
            let flags = match (app.responding, app.blind) {
                (false, _) => " [not responding]",
                (true, true) => " [blind]",
                _ => "",
            };
            text.push_str(&format!(
                "{} (pid {pid}{}){flags}\n",
                escape(&app.name, 80),
                app.toolkit
                    .as_deref()
                    .map(|t| format!(", {t}"))
                    .unwrap_or_default()
            ));
            for w in &app.windows {
                text.push_str(&format!("  {} \"{}\"\n", w.role, escape(&w.title, 100)));
            }
        }
        Ok(success(text.clone(), ListAppsOut { text, apps: out }))
    }

    async fn connect_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let a: ConnectArgs = args::parse(Some(raw))?;
        let target = match (a.pid, a.app, a.window, a.x11_window) {
            (Some(pid), None, None, None) => ConnectTarget::Pid(pid),
            (None, Some(app), None, None) => ConnectTarget::AppName(app),
            (None, None, Some(window), None) => ConnectTarget::WindowTitle(window),
            (None, None, None, Some(xid)) => {
                ConnectTarget::SystemWindow(deskpilot_core::WindowId(u64::from(xid)))
            }
            _ => {
                return Err(invalid_arguments(
                    "give exactly one of pid, app, window, x11_window",
                ));
            }
        };
        let info = self.engine.connect(&target).await?;
        let out = ConnectOut {
            session: info.id.clone(),
            app: info.app.name.clone(),
            pid: info.app.pid,
            toolkit: info.app.toolkit.clone(),
            window: info.window.clone(),
            windows: info.app.windows.iter().map(|w| w.title.clone()).collect(),
        };
        let text = format!(
            "session {} on {}{}",
            out.session,
            escape(&out.app, 80),
            out.window
                .as_ref()
                .map(|w| format!(", window \"{}\"", escape(w, 100)))
                .unwrap_or_default()
        );
        Ok(success(text, out))
    }

    async fn snapshot_impl(
        &self,
        raw: JsonObject,
        progress: Option<ProgressSink>,
    ) -> Result<CallToolResult, Error> {
        let a: SnapshotArgs = args::parse(Some(raw))?;
        let filter = match a.filter.as_deref() {
            None => Filter::Interactive,
            Some(name) => Filter::from_name(name).ok_or_else(|| {
                invalid_arguments(format!("filter {name:?}: use interactive, text or all"))
            })?,
        };
        let json = match a.format.as_deref() {
            None | Some("text") => false,
            Some("json") => true,
            Some(other) => {
                return Err(invalid_arguments(format!(
                    "format {other:?}: use text or json"
                )));
            }
        };
        let request = SnapshotRequest {
            within: a.within.as_deref().map(args::target).transpose()?,
            window: a.window.as_deref().map(args::window_pick),
            cursor: a.cursor,
            filter,
            max_nodes: a.max_nodes.unwrap_or(2000).clamp(1, 20_000),
            progress,
            ..SnapshotRequest::default()
        };
        let snapshot = self.engine.snapshot(&a.session, &request).await?;
        let mut text = snapshot.rendered.text.clone();
        if snapshot.minimized {
            text.push_str("# the window is minimized: restore it to read its contents\n");
        }
        let truncated = snapshot.truncated.as_ref().map(|t| {
            text.push_str(&format!(
                "# truncated ({} budget){}{}\n",
                t.reason.name(),
                t.at.as_ref()
                    .map(|r| format!(" at {r}"))
                    .unwrap_or_default(),
                t.cursor
                    .as_ref()
                    .map(|c| format!("; continue with cursor \"{c}\""))
                    .unwrap_or_default()
            ));
            TruncatedOut {
                reason: t.reason.name().to_owned(),
                at: t.at.clone(),
                cursor: t.cursor.clone(),
            }
        });
        let out = SnapshotOut {
            tree: snapshot.rendered.text.clone(),
            nodes: snapshot.tree.len(),
            shown: snapshot.rendered.lines,
            truncated,
            minimized: snapshot.minimized,
            json: json.then(|| serde_json::to_value(&snapshot.tree).unwrap_or_default()),
        };
        Ok(success(text, out))
    }

    async fn find_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let a: FindArgs = args::parse(Some(raw))?;
        let selector = deskpilot_core::Selector::parse(&a.selector)?;
        let within = a.within.as_deref().map(args::target).transpose()?;
        let found = self
            .engine
            .find(
                &a.session,
                &selector,
                within.as_ref(),
                a.limit.unwrap_or(20).clamp(1, 500),
            )
            .await?;
        let mut text = String::new();
        for m in &found.matches {
            text.push_str(&format!(
                "- {} \"{}\"{} [ref={}]\n",
                m.role,
                escape(&m.name, 100),
                if m.visible { "" } else { " [hidden]" },
                m.reference
            ));
        }
        text.push_str(&format!(
            "# {} matches ({} visible), {} exact\n",
            found.total, found.visible, found.exact
        ));
        let unsearched: Vec<String> = found
            .unsearched
            .iter()
            .map(|u| {
                format!(
                    "{} \"{}\" [ref={}]: {}",
                    u.role,
                    escape(&u.name, 60),
                    u.reference,
                    u.why
                )
            })
            .collect();
        for u in &unsearched {
            text.push_str(&format!("# not searched: {u}\n"));
        }
        let out = FindOut {
            text: text.clone(),
            matches: found.matches.iter().map(ElementOut::from).collect(),
            total: found.total,
            visible: found.visible,
            exact: found.exact,
            unsearched,
        };
        Ok(success(text, out))
    }

    async fn properties_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let a: TargetArgs = args::parse(Some(raw))?;
        let resolved = self
            .engine
            .properties(&a.session, &args::target(&a.target)?)
            .await?;
        let out = PropertiesOut::new(resolved.reference, &resolved.node);
        let text = serde_json::to_string(&out).unwrap_or_default();
        Ok(success(text, out))
    }

    async fn hit_test_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let a: HitTestArgs = args::parse(Some(raw))?;
        let path = self.engine.hit_test(&a.session, a.x, a.y).await?;
        let mut text = String::new();
        for (depth, m) in path.iter().enumerate() {
            text.push_str(&format!(
                "{}- {} \"{}\" [ref={}]\n",
                " ".repeat(depth),
                m.role,
                escape(&m.name, 100),
                m.reference
            ));
        }
        if path.is_empty() {
            text.push_str(&format!(
                "# nothing at ({}, {}) in this session's window\n",
                a.x, a.y
            ));
        }
        Ok(success(
            text.clone(),
            HitTestOut {
                text,
                path: path.iter().map(ElementOut::from).collect(),
            },
        ))
    }

    async fn focus_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let a: SessionArgs = args::parse(Some(raw))?;
        let focused = self.engine.focus(&a.session).await?;
        let text = match &focused {
            Some(m) => format!(
                "- {} \"{}\" [focused] [ref={}]\n",
                m.role,
                escape(&m.name, 100),
                m.reference
            ),
            None => "# nothing in this session's window has the focus\n".into(),
        };
        Ok(success(
            text.clone(),
            FocusOut {
                text,
                focused: focused.as_ref().map(ElementOut::from),
            },
        ))
    }

    async fn read_text_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let a: ReadTextArgs = args::parse(Some(raw))?;
        let read = self
            .engine
            .read_text(
                &a.session,
                &args::target(&a.target)?,
                a.offset.unwrap_or(0),
                a.length,
            )
            .await?;
        let out = ReadTextOut {
            reference: read.reference,
            text: read.slice.text,
            start: read.slice.start,
            end: read.slice.end,
            total: read.slice.total,
            next_offset: read.next_offset,
        };
        let text = match out.next_offset {
            Some(next) => format!(
                "{}\n# characters {}..{} of {}; next offset {next}\n",
                out.text, out.start, out.end, out.total
            ),
            None => out.text.clone(),
        };
        Ok(success(text, out))
    }

    async fn wait_for_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        use deskpilot_core::{Condition, TextMatch};
        let a: WaitForArgs = args::parse(Some(raw))?;
        let selector = deskpilot_core::Selector::parse(&a.selector)?;
        let within = a.within.as_deref().map(args::target).transpose()?;
        let condition = match (a.until.as_deref(), a.state.as_deref(), a.value) {
            (None | Some("appears"), None, None) => Condition::Appears,
            (Some("attached"), None, None) => Condition::Attached,
            (Some("disappears"), None, None) => Condition::Disappears,
            (None, Some(state), None) => {
                let (on, name) = match state.strip_prefix('!') {
                    Some(name) => (false, name),
                    None => (true, state),
                };
                let state = deskpilot_core::model::State::from_name(name)
                    .ok_or_else(|| invalid_arguments(format!("unknown state {name:?}")))?;
                Condition::State { state, on }
            }
            (None, None, Some(value)) => Condition::Value(TextMatch::Exact(value)),
            (Some(other), None, None) => {
                return Err(invalid_arguments(format!(
                    "until {other:?}: use appears, attached or disappears"
                )));
            }
            _ => return Err(invalid_arguments("give one of until, state, value")),
        };
        let timeout = Duration::from_millis(a.timeout_ms.unwrap_or(5000).min(60_000));
        let outcome = self
            .engine
            .wait_for(&a.session, &selector, within.as_ref(), &condition, timeout)
            .await?;
        let text = match &outcome.element {
            Some(m) => format!(
                "- {} \"{}\" [ref={}]\n# met after {} ms\n",
                m.role,
                escape(&m.name, 100),
                m.reference,
                outcome.elapsed_ms
            ),
            None => format!("# gone after {} ms\n", outcome.elapsed_ms),
        };
        let out = WaitForOut {
            text: text.clone(),
            element: outcome.element.as_ref().map(ElementOut::from),
            elapsed_ms: outcome.elapsed_ms,
        };
        Ok(success(text, out))
    }

    async fn read_table_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let a: ReadTableArgs = args::parse(Some(raw))?;
        let read = self
            .engine
            .read_table(
                &a.session,
                &args::target(&a.target)?,
                a.first_row.unwrap_or(0),
                a.rows.unwrap_or(50),
            )
            .await?;
        let cell = |c: &String| escape(c, 60);
        let mut text = read
            .slice
            .headers
            .iter()
            .map(cell)
            .collect::<Vec<_>>()
            .join(" | ");
        text.push('\n');
        for row in &read.slice.rows {
            text.push_str(&row.iter().map(cell).collect::<Vec<_>>().join(" | "));
            text.push('\n');
        }
        text.push_str(&format!(
            "# rows {}..{} of {}{}\n",
            read.slice.first_row,
            read.slice.first_row + read.slice.rows.len() as u32,
            read.slice.row_count,
            read.next_row
                .map(|n| format!("; next first_row {n}"))
                .unwrap_or_default()
        ));
        let out = ReadTableOut {
            reference: read.reference,
            text: text.clone(),
            headers: read.slice.headers,
            rows: read.slice.rows,
            first_row: read.slice.first_row,
            row_count: read.slice.row_count,
            column_count: read.slice.column_count,
            next_row: read.next_row,
        };
        Ok(success(text, out))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for DeskpilotServer {
    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, ErrorData> {
        if !self.allow_input && crate::act_tools::INPUT_TOOLS.contains(&request.name.as_ref()) {
            return Ok(failure(&crate::act_tools::input_not_allowed(&request.name)).into());
        }
        let tcc = rmcp::handler::server::tool::ToolCallContext::new(self, request, context);
        self.tool_router.call(tcc).await
    }

    fn get_info(&self) -> ServerConfig {
        let mut config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_instructions(INSTRUCTIONS);
        config.server_info.name = "deskpilot".into();
        config.server_info.version = env!("CARGO_PKG_VERSION").into();
        config
    }
}

//! The reading tools: always listed, never change an app.

use std::sync::Arc;
use std::time::Duration;

use deskpilot_core::{
    Condition, ConditionWords, ConnectTarget, Error, Filter, ProgressSink, Selector,
    SnapshotRequest, WindowId, present,
};
use rmcp::model::{CallToolResult, ProgressNotificationParam};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, tool, tool_router};

use super::{ToolResult, cancelled, respond};
use crate::DeskpilotServer;
use crate::args::{self, *};
use crate::call::Call;
use crate::outcome::{invalid_arguments, success};
use crate::output::*;
use crate::schema::{input_schema, output_schema};
use rmcp::handler::server::common::Extension;

#[tool_router(router = read_router, vis = "pub(crate)")]
impl DeskpilotServer {
    #[tool(
        description = "Apps and their windows; one with a nearly empty tree is flagged blind, with a hint.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<ListAppsArgs>(),
        output_schema = output_schema::<ListAppsOut>()
    )]
    async fn list_apps(&self, Args(a): Args<ListAppsArgs>) -> ToolResult {
        respond(async {
            let _ = a?;
            let apps = self.engine().list_apps().await?;
            let note = self.engine().wiring().note.as_deref();
            let out = ListAppsOut::new(&apps, note);
            Ok(success(out.text.clone(), out))
        })
        .await
    }

    #[tool(
        description = "A session on an app (pid or name: all its windows) or a window (title or window_id: it and its dialogs).",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<ConnectArgs>(),
        output_schema = output_schema::<ConnectOut>()
    )]
    async fn connect(
        &self,
        Args(a): Args<ConnectArgs>,
        Extension(call): Extension<Call>,
    ) -> ToolResult {
        respond(async {
            let a = a?;
            let window_id = match (a.window_id, a.x11_window) {
                (Some(_), Some(_)) => {
                    return Err(invalid_arguments(
                        "x11_window is window_id's old name: give one of them",
                    ));
                }
                (id, old) => id.or(old.map(u64::from)),
            };
            let target = match (a.pid, a.app, a.window, window_id) {
                (Some(pid), None, None, None) => ConnectTarget::Pid(pid),
                (None, Some(app), None, None) => ConnectTarget::AppName(app),
                (None, None, Some(window), None) => ConnectTarget::WindowTitle(window),
                (None, None, None, Some(id)) => ConnectTarget::SystemWindow(WindowId(id)),
                _ => {
                    return Err(invalid_arguments(
                        "give exactly one of pid, app, window, window_id",
                    ));
                }
            };
            let info = self.engine().connect(&target).await?;
            if let Err(refused) = self.grants().may_connect(&info.app.name) {
                let _ = self.engine().session(&info.id)?.disconnect();
                return Err(refused);
            }
            call.client.adopt(&info.id);
            let out = ConnectOut {
                session: info.id.clone(),
                app: info.app.name.clone(),
                pid: info.app.pid,
                toolkit: info.app.toolkit.clone(),
                window: info.window.clone(),
                windows: info.app.windows.iter().map(|w| w.title.clone()).collect(),
            };
            Ok(success(present::connected(&info), out))
        })
        .await
    }

    #[tool(
        description = "Close a session; its refs stop working.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<SessionArgs>(),
        output_schema = output_schema::<DisconnectOut>()
    )]
    async fn disconnect(
        &self,
        Args(a): Args<SessionArgs>,
        Extension(call): Extension<Call>,
    ) -> ToolResult {
        respond(async {
            let a = a?;
            call.session(self.engine(), &a.session)?.disconnect()?;
            call.client.release(&a.session);
            Ok(success(
                format!("closed {}", a.session),
                DisconnectOut { session: a.session },
            ))
        })
        .await
    }

    #[tool(
        description = "The session's window as a tree, one line per element with a ref; an app session folds its other windows. A cut tree gives a cursor; `since` a version (# vN), the changed lines.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<SnapshotArgs>(),
        output_schema = output_schema::<SnapshotOut>()
    )]
    async fn snapshot(
        &self,
        Args(a): Args<SnapshotArgs>,
        context: RequestContext<RoleServer>,
    ) -> ToolResult {
        let progress = progress_sink(&context);
        // A cancelled request stops the walk (its future is dropped).
        cancelled(&context.ct, self.snapshot_of(a, progress)).await
    }

    #[tool(
        description = "Elements matching a selector, each with a ref, visible and exact ones first; names what it could not search.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<FindArgs>(),
        output_schema = output_schema::<FindOut>()
    )]
    async fn find(&self, Args(a): Args<FindArgs>, Extension(call): Extension<Call>) -> ToolResult {
        respond(async {
            let a = a?;
            let selector = Selector::parse(&a.selector)?;
            let within = a.within.as_deref().map(args::target).transpose()?;
            let limit = a.limit.unwrap_or(20).clamp(1, 500);
            let found = call
                .session(self.engine(), &a.session)?
                .find(&selector, within.as_ref(), limit)
                .await?;
            let out = FindOut::new(&found);
            Ok(success(out.text.clone(), out))
        })
        .await
    }

    #[tool(
        description = "Everything known about one element, unknown states included.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<TargetArgs>(),
        output_schema = output_schema::<PropertiesOut>()
    )]
    async fn get_properties(
        &self,
        Args(a): Args<TargetArgs>,
        Extension(call): Extension<Call>,
    ) -> ToolResult {
        respond(async {
            let a = a?;
            let target = args::target(&a.target)?;
            let resolved = call
                .session(self.engine(), &a.session)?
                .properties(&target)
                .await?;
            let out = PropertiesOut::new(resolved.reference, &resolved.node);
            let text = serde_json::to_string(&out).unwrap_or_default();
            Ok(success(text, out))
        })
        .await
    }

    #[tool(
        description = "The element at a screen point, with its ancestors.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<HitTestArgs>(),
        output_schema = output_schema::<HitTestOut>()
    )]
    async fn hit_test(
        &self,
        Args(a): Args<HitTestArgs>,
        Extension(call): Extension<Call>,
    ) -> ToolResult {
        respond(async {
            let a = a?;
            let path = call
                .session(self.engine(), &a.session)?
                .hit_test(a.x, a.y)
                .await?;
            let text = present::hit_path(&path, a.x, a.y);
            let out = HitTestOut {
                text: text.clone(),
                path: path.iter().map(ElementOut::from).collect(),
            };
            Ok(success(text, out))
        })
        .await
    }

    #[tool(
        description = "The element with the keyboard focus.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<SessionArgs>(),
        output_schema = output_schema::<FocusOut>()
    )]
    async fn get_focus(
        &self,
        Args(a): Args<SessionArgs>,
        Extension(call): Extension<Call>,
    ) -> ToolResult {
        respond(async {
            let a = a?;
            let focused = call.session(self.engine(), &a.session)?.focus().await?;
            let text = present::focus(focused.as_ref());
            let out = FocusOut {
                text: text.clone(),
                focused: focused.as_ref().map(ElementOut::from),
            };
            Ok(success(text, out))
        })
        .await
    }

    #[tool(
        description = "An element's text, paged by characters; never a password's.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<ReadTextArgs>(),
        output_schema = output_schema::<ReadTextOut>()
    )]
    async fn read_text(
        &self,
        Args(a): Args<ReadTextArgs>,
        Extension(call): Extension<Call>,
    ) -> ToolResult {
        respond(async {
            let a = a?;
            let target = args::target(&a.target)?;
            let read = call
                .session(self.engine(), &a.session)?
                .read_text(&target, a.offset.unwrap_or(0), a.length)
                .await?;
            let text = present::text_page(&read).joined();
            let out = ReadTextOut {
                reference: read.reference,
                text: read.slice.text,
                start: read.slice.start,
                end: read.slice.end,
                total: read.slice.total,
                next_offset: read.next_offset,
            };
            Ok(success(text, out))
        })
        .await
    }

    #[tool(
        description = "Wait until a selector's element appears, is attached, disappears, or has a state or value, judged as an action would; a timeout says what it last saw.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<WaitForArgs>(),
        output_schema = output_schema::<WaitForOut>()
    )]
    async fn wait_for(
        &self,
        Args(a): Args<WaitForArgs>,
        cancel: tokio_util::sync::CancellationToken,
    ) -> ToolResult {
        // A cancelled request stops polling at once (dropping the wait).
        cancelled(&cancel, self.wait_for_with(a)).await
    }

    #[tool(
        description = "A table's rows, paged, with its headers on every page and its row count.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<ReadTableArgs>(),
        output_schema = output_schema::<ReadTableOut>()
    )]
    async fn read_table(
        &self,
        Args(a): Args<ReadTableArgs>,
        Extension(call): Extension<Call>,
    ) -> ToolResult {
        respond(async {
            let a = a?;
            let target = args::target(&a.target)?;
            let (first, rows) = (a.first_row.unwrap_or(0), a.rows.unwrap_or(50));
            let read = call
                .session(self.engine(), &a.session)?
                .read_table(&target, first, rows)
                .await?;
            let out = ReadTableOut::new(read);
            Ok(success(out.text.clone(), out))
        })
        .await
    }
}

impl DeskpilotServer {
    async fn snapshot_of(
        &self,
        a: Result<SnapshotArgs, Error>,
        progress: Option<ProgressSink>,
    ) -> Result<CallToolResult, Error> {
        let a = a?;
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
            since: a.since.as_ref().map(args::SinceArg::since).transpose()?,
            ..SnapshotRequest::default()
        };
        let snapshot = self
            .engine()
            .session(&a.session)?
            .snapshot(&request)
            .await?;
        let page = present::snapshot(&snapshot);
        let out = SnapshotOut::new(&snapshot, json);
        Ok(success(page.joined(), out))
    }

    async fn wait_for_with(&self, a: Result<WaitForArgs, Error>) -> Result<CallToolResult, Error> {
        let a = a?;
        let selector = Selector::parse(&a.selector)?;
        let within = a.within.as_deref().map(args::target).transpose()?;
        let condition = Condition::from_words(ConditionWords {
            until: a.until.as_deref(),
            state: a.state.as_deref(),
            value: a.value,
            value_contains: a.value_contains,
            count: a.count.map(|n| n as usize),
        })?;
        let timeout = Duration::from_millis(a.timeout_ms.unwrap_or(5000).min(60_000));
        let outcome = self
            .engine()
            .session(&a.session)?
            .wait_for(&selector, within.as_ref(), &condition, timeout)
            .await?;
        let text = present::waited(&outcome);
        let out = WaitForOut {
            text: text.clone(),
            element: outcome.element.as_ref().map(ElementOut::from),
            elapsed_ms: outcome.elapsed_ms,
            looks: outcome.wakes.looks(),
            events_watched: outcome.wakes.events_watched,
            woken_by_events: outcome.wakes.by_event,
            woken_by_poll: outcome.wakes.by_poll,
        };
        Ok(success(text, out))
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

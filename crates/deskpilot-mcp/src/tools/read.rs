//! The reading tools: always listed, never change an app.

use std::sync::Arc;

use deskpilot_core::{
    ConnectTarget, Error, Filter, ProgressSink, Selector, SnapshotRequest, WindowId, present,
};

use super::{cancellable, success};
use crate::args::{self, *};
use crate::call::Cx;
use crate::condition::WaitForArgs;
use crate::outcome::{ToolOutcome, invalid_arguments};
use crate::output::*;

pub(crate) async fn list_apps(cx: &Cx<'_>, a: ListAppsArgs) -> Result<ToolOutcome, Error> {
    let _ = a;
    let apps = cx.engine.list_apps().await?;
    let out = ListAppsOut::new(&apps, cx.engine.wiring());
    Ok(success(out.text.clone(), out))
}

pub(crate) async fn connect(cx: &Cx<'_>, a: ConnectArgs) -> Result<ToolOutcome, Error> {
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
    let info = cx.engine.connect(&target).await?;
    if let Err(refused) = cx.grants.may_connect(&info.app.name) {
        let _ = cx.engine.session(&info.id)?.disconnect();
        return Err(refused);
    }
    cx.call.client.adopt(&info.id);
    let opened = info.id.clone();
    let out = ConnectOut {
        session: info.id.clone(),
        app: info.app.name.clone(),
        pid: info.app.pid,
        toolkit: info.app.toolkit.clone(),
        window: info.window.clone(),
        windows: info.app.windows.iter().map(|w| w.title.clone()).collect(),
    };
    let mut outcome = success(present::connected(&info), out);
    outcome.opened = Some(opened);
    Ok(outcome)
}

pub(crate) async fn disconnect(cx: &Cx<'_>, a: SessionArgs) -> Result<ToolOutcome, Error> {
    cx.session(&a.session)?.disconnect()?;
    cx.call.client.release(&a.session);
    Ok(success(
        format!("closed {}", a.session),
        DisconnectOut { session: a.session },
    ))
}

pub(crate) async fn snapshot(cx: &Cx<'_>, a: SnapshotArgs) -> Result<ToolOutcome, Error> {
    // A cancelled request stops the walk (its future is dropped).
    cancellable(cx, snapshot_of(cx, a, progress_sink(cx))).await
}

pub(crate) async fn find(cx: &Cx<'_>, a: FindArgs) -> Result<ToolOutcome, Error> {
    let selector = Selector::parse(&a.selector)?;
    let within = a.within.as_deref().map(args::target).transpose()?;
    let limit = a.limit.unwrap_or(20).clamp(1, 500);
    let found = cx
        .session(&a.session)?
        .find(&selector, within.as_ref(), limit)
        .await?;
    let out = FindOut::new(&found);
    Ok(success(out.text.clone(), out))
}

pub(crate) async fn get_properties(cx: &Cx<'_>, a: TargetArgs) -> Result<ToolOutcome, Error> {
    let target = args::target(&a.target)?;
    let resolved = cx.session(&a.session)?.properties(&target).await?;
    let out = PropertiesOut::new(resolved.reference, &resolved.node);
    let text = serde_json::to_string(&out).unwrap_or_default();
    Ok(success(text, out))
}

pub(crate) async fn hit_test(cx: &Cx<'_>, a: HitTestArgs) -> Result<ToolOutcome, Error> {
    let path = cx.session(&a.session)?.hit_test(a.x, a.y).await?;
    let text = present::hit_path(&path, a.x, a.y);
    let out = HitTestOut {
        text: text.clone(),
        path: path.iter().map(ElementOut::from).collect(),
    };
    Ok(success(text, out))
}

pub(crate) async fn get_focus(cx: &Cx<'_>, a: SessionArgs) -> Result<ToolOutcome, Error> {
    let focused = cx.session(&a.session)?.focus().await?;
    let text = present::focus(focused.as_ref());
    let out = FocusOut {
        text: text.clone(),
        focused: focused.as_ref().map(ElementOut::from),
    };
    Ok(success(text, out))
}

pub(crate) async fn read_text(cx: &Cx<'_>, a: ReadTextArgs) -> Result<ToolOutcome, Error> {
    let target = args::target(&a.target)?;
    let read = cx
        .session(&a.session)?
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
}

pub(crate) async fn wait_for(cx: &Cx<'_>, a: WaitForArgs) -> Result<ToolOutcome, Error> {
    // A cancelled request stops polling at once (dropping the wait).
    cancellable(cx, wait_for_with(cx, a)).await
}

pub(crate) async fn read_table(cx: &Cx<'_>, a: ReadTableArgs) -> Result<ToolOutcome, Error> {
    let target = args::target(&a.target)?;
    let (first, rows) = (a.first_row.unwrap_or(0), a.rows.unwrap_or(50));
    let read = cx
        .session(&a.session)?
        .read_table(&target, first, rows)
        .await?;
    let out = ReadTableOut::new(read);
    Ok(success(out.text.clone(), out))
}

async fn snapshot_of(
    cx: &Cx<'_>,
    a: SnapshotArgs,
    progress: Option<ProgressSink>,
) -> Result<ToolOutcome, Error> {
    let filter = a.filter.map_or(Filter::Interactive, |f| f.0);
    let json = a.format == Some(SnapshotFormat::Json);
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
    let snapshot = cx.session(&a.session)?.snapshot(&request).await?;
    let page = present::snapshot(&snapshot);
    let out = SnapshotOut::new(&snapshot, json);
    Ok(success(page.joined(), out))
}

async fn wait_for_with(cx: &Cx<'_>, a: WaitForArgs) -> Result<ToolOutcome, Error> {
    let wait = a.condition.wait()?;
    let outcome = cx
        .session(&a.session)?
        .wait_for(
            &wait.selector,
            wait.within.as_ref(),
            &wait.condition,
            wait.timeout,
        )
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

/// When the client asked for progress, a sink that turns "nodes read so far" into progress.
fn progress_sink(cx: &Cx<'_>) -> Option<ProgressSink> {
    let progress = cx.wire.progress.clone()?;
    Some(ProgressSink(Arc::new(move |nodes| {
        (progress.0)(nodes as f64, None, format!("{nodes} elements read"));
    })))
}

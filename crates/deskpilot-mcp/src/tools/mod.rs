//! The tools: one table of what each is (name, description, hints, schemas, the capability
//! it needs) and the call of each by name. Grouped in files by the capability they need:
//! reading (none), input, windows (input), launch, files (the screenshot tool, listed always;
//! only its `path` needs `files`), pipelines (none: their steps pass the same gate).

mod files;
mod input;
mod launch;
mod packs;
mod pipeline;
mod read;
mod windows;
mod workflow;

use deskpilot_core::{ActionReport, Code, Error};
use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde::Serialize;

use crate::args::*;
use crate::call::{Cx, Unknown};
use crate::catalog::{Hints, Spec};
use crate::condition::WaitForArgs;
use crate::grants::Capability;
use crate::outcome::ToolOutcome;
use crate::output::*;
use crate::pipeline::report::RunOut;
use crate::pipeline::spec::RunStepsArgs;
use crate::schema::{input_schema, output_schema};
use packs::{
    PacksArgs, PacksOut, ProbeAppArgs, ProbeAppOut, ReloadPacksArgs, ReloadPacksOut,
    ValidatePackArgs, ValidatePackOut,
};
use pipeline::{ContinueRunArgs, ValidateOut, ValidateStepsArgs};
use workflow::{RunWorkflowArgs, WorkflowOut};

/// The table: `SPECS`, and `run`, which decodes a call's arguments and calls its tool.
macro_rules! tools {
    ($($name:ident($module:ident: $args:ty => $out:ty, $hints:ident, $needs:expr, $description:literal);)*) => {
        /// Every tool deskpilot has.
        pub(crate) const SPECS: &[Spec] = &[$(Spec {
            name: stringify!($name),
            description: $description,
            hints: Hints::$hints,
            input: input_schema::<$args>,
            output: output_schema::<$out>,
            needs: $needs,
        },)*];

        /// Calls `tool` with `args` (decoded as it takes them: `invalid_arguments` if not).
        pub(crate) async fn run(
            cx: &Cx<'_>,
            tool: &str,
            args: JsonObject,
        ) -> Result<Result<ToolOutcome, Error>, Unknown> {
            match tool {
                $(stringify!($name) => Ok(match parse::<$args>(Some(args)) {
                    // Boxed: a tool's future is large, and the table's would hold them all.
                    Ok(a) => Box::pin($module::$name(cx, a)).await,
                    Err(e) => Err(e),
                }),)*
                _ => Err(Unknown),
            }
        }
    };
}

tools! {
    list_apps(read: ListAppsArgs => ListAppsOut, Reads, None,
        "Apps and their windows; one with a nearly empty tree is flagged blind, with a hint.");
    connect(read: ConnectArgs => ConnectOut, Reads, None,
        "A session on an app (pid or name: all its windows) or a window (title or window_id: it and its dialogs).");
    disconnect(read: SessionArgs => DisconnectOut, Reads, None,
        "Close a session; its refs stop working.");
    snapshot(read: SnapshotArgs => SnapshotOut, Reads, None,
        "The session's window as a tree, one line per element with a ref; an app session folds its other windows. A cut tree gives a cursor; `since` a version (# vN), the changed lines.");
    find(read: FindArgs => FindOut, Reads, None,
        "Elements matching a selector, each with a ref, visible and exact ones first; names what it could not search.");
    get_properties(read: TargetArgs => PropertiesOut, Reads, None,
        "Everything known about one element, unknown states included.");
    hit_test(read: HitTestArgs => HitTestOut, Reads, None,
        "The element at a screen point, with its ancestors.");
    get_focus(read: SessionArgs => FocusOut, Reads, None,
        "The element with the keyboard focus.");
    read_text(read: ReadTextArgs => ReadTextOut, Reads, None,
        "An element's text, paged by characters; never a password's.");
    wait_for(read: WaitForArgs => WaitForOut, Reads, None,
        "Wait until a selector's element appears, is attached, disappears, or has a state or value, judged as an action would; a timeout says what it last saw.");
    read_table(read: ReadTableArgs => ReadTableOut, Reads, None,
        "A table's rows, paged, with its headers on every page and its row count.");
    click(input: ClickArgs => ActionOut, Destroys, Some(Capability::Input),
        "Click via the element's own action (a row: select), else focus+Space, else a real click at its live bounds; reports route, effect and changes. Never sent twice.");
    set_value(input: SetValueArgs => ActionOut, Destroys, Some(Capability::Input),
        "Set a field's whole text, or a slider's or spin button's number, read back (a clamped number says so).");
    type_text(input: TypeTextArgs => ActionOut, Destroys, Some(Capability::Input),
        "Type keystrokes at the end of target (focused first) or into the focused element; never sent twice, never echoed.");
    press_key(input: PressKeyArgs => ActionOut, Destroys, Some(Capability::Input),
        "Press a key or chord in the session's window, on `target` (focused first) if given.");
    act(input: ActArgs => ActionOut, Destroys, Some(Capability::Input),
        "A semantic verb, confirmed by the state it should produce; a no-op falls to keys, then the pointer.");
    drag(input: DragArgs => ActionOut, Destroys, Some(Capability::Input),
        "Drag with the left button from an element or point to another (real pointer input, in steps).");
    window_action(windows: WindowActionArgs => ActionOut, Destroys, Some(Capability::Input),
        "Activate, minimize, maximize, restore or close the session's window; confirmed by its state.");
    launch_app(launch: LaunchAppArgs => LaunchOut, Adds, Some(Capability::Launch),
        "Start a program and wait until it (or a child) registers with a window; returns its pid and windows for connect.");
    screenshot(files: ScreenshotArgs => ScreenshotOut, Reads, None,
        "A PNG of the session's window with the latest snapshot's refs labelled, for what the tree cannot show.");
    run_steps(pipeline: RunStepsArgs => RunOut, Destroys, None,
        "Run steps (a tool and its args each) in one call, each judged by its tool and its expect; then captured states are restored and finally runs.");
    continue_run(pipeline: ContinueRunArgs => RunOut, Destroys, None,
        "Continue a failed run from its failed step (or `from`) if its apps and windows are unchanged.");
    validate_steps(pipeline: ValidateStepsArgs => ValidateOut, ReadsHere, None,
        "Checks run_steps arguments without running them.");
    packs(packs: PacksArgs => PacksOut, ReadsHere, None,
        "App packs (apps as data): list, or describe one's controls, contracts, workflows.");
    validate_pack(packs: ValidatePackArgs => ValidatePackOut, ReadsHere, None,
        "Check a pack (loaded, or a directory) without installing it.");
    reload_packs(packs: ReloadPacksArgs => ReloadPacksOut, Adds, Some(Capability::Files),
        "Load the app packs again; any error keeps the old ones.");
    probe_app(packs: ProbeAppArgs => ProbeAppOut, Reads, None,
        "Draft an app pack from the session's app: its controls with selectors.");
    run_workflow(workflow: RunWorkflowArgs => WorkflowOut, Destroys, None,
        "Run a pack's workflow with inputs in its app (started if need be, with launch), as run_steps.");
}

/// Every tool listed, whatever a server was granted: what a pack's workflows are checked
/// against.
pub(crate) fn every_tool() -> crate::catalog::Catalog {
    let every = crate::grants::Grants {
        input: true,
        launch: true,
        files: Some(crate::grants::FilesDir::Anywhere),
        apps: None,
    };
    crate::catalog::Catalog::new(SPECS, &every)
}

/// `body`, ended early (dropped) when the client cancels the request.
pub(crate) async fn cancellable(
    cx: &Cx<'_>,
    body: impl std::future::Future<Output = Result<ToolOutcome, Error>>,
) -> Result<ToolOutcome, Error> {
    tokio::select! {
        result = body => result,
        _ = cx.wire.cancel.cancelled() => Err(Error::new(
            Code::Cancelled,
            "cancelled by the client",
            "nothing to do",
        )),
    }
}

/// A success: the text a model reads and the structured content.
pub(crate) fn success<T: Serialize + JsonSchema>(text: String, value: T) -> ToolOutcome {
    ToolOutcome::success(text, value)
}

/// An action's report as a tool's outcome.
pub(crate) fn reported(report: ActionReport) -> ToolOutcome {
    ToolOutcome::acted(&report)
}

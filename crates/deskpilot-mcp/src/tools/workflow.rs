//! `run_workflow`: a pack's workflow by name. Its inputs are checked against their schema.
//! Its session is the one given (of the pack's app), else one opened on the app running,
//! else on the app started (with `launch`). Then it runs as `run_steps` would run it, kept
//! for `continue_run`.

use deskpilot_core::session::ConnectTarget;
use deskpilot_core::{Code, Error};
use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::call::Cx;
use crate::outcome::ToolOutcome;
use crate::packs::format::Pack;
use crate::packs::run::{self, Given, InputProblem};
use crate::pipeline::report::RunOut;
use crate::pipeline::spec::Mode;
use crate::pipeline::trace::Trace;
use crate::runner::Runner;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunWorkflowArgs {
    pub pack: String,
    pub workflow: String,
    // As the workflow's input schema says (`packs {pack}` shows it).
    pub inputs: Option<JsonObject>,
    /// Default: one opened on its app.
    pub session: Option<String>,
    pub timeout_ms: Option<u64>,
    pub mode: Option<Mode>,
}

/// A workflow's run: the session it ran in (opened by the run, which leaves it open), and
/// the run as `run_steps` reports it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WorkflowRun {
    pub session: String,
    pub opened: bool,
    #[serde(flatten)]
    pub run: RunOut,
}

/// The schema the catalog shows for a `WorkflowRun`: its steps are `run_steps`' (declared
/// there), which keeps `run_workflow` within 1 KiB (`the_catalog_stays_within_27_kib`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct WorkflowOut {
    pub session: String,
    pub opened: bool,
    pub run_id: String,
    pub passed: bool,
    pub failed_step: Option<String>,
    #[schemars(schema_with = "crate::schema::objects")]
    pub steps: Vec<serde_json::Value>,
}

pub(crate) async fn run_workflow(cx: &Cx<'_>, a: RunWorkflowArgs) -> Result<ToolOutcome, Error> {
    let packs = cx.packs.current();
    let pack = &packs
        .get(&a.pack)
        .ok_or_else(|| unknown(format!("no app pack {:?}", a.pack)))?
        .pack;
    let workflow = pack
        .workflows
        .workflows
        .iter()
        .find(|w| w.id == a.workflow)
        .ok_or_else(|| {
            unknown(format!(
                "pack {:?} has no workflow {:?}",
                a.pack, a.workflow
            ))
        })?;
    // Everything that can refuse the run does so before a session is opened or an app
    // started.
    let inputs = run::inputs(workflow, a.inputs.unwrap_or_default()).map_err(invalid_inputs)?;
    let given = Given {
        inputs,
        timeout_ms: a.timeout_ms,
        mode: a.mode,
    };
    let spec = run::pipeline(pack, workflow, given)?;
    let environment = run::environment(workflow, &|name| std::env::var(name).ok())?;
    super::pipeline::refuse_problems(cx, &spec, &run::AT_RUN)?;
    let (session, opened) = session_for(cx, pack, a.session).await?;
    let trace = Trace::given(vec![
        ("session".to_owned(), Value::String(session.clone())),
        ("env".to_owned(), Value::Object(environment)),
    ]);
    let run_id = cx.call.client.runs().issue();
    let runner = Runner::new(cx, spec.timeout_ms(), trace, packs.clone());
    let (out, trace) = runner.run(&run_id, &spec, 0).await;
    cx.call
        .client
        .runs()
        .keep(&run_id, &spec, trace, packs.clone());
    Ok(super::pipeline::answered(out, |run| WorkflowRun {
        session,
        opened,
        run,
    }))
}

fn unknown(message: String) -> Error {
    Error::new(
        Code::UnknownPack,
        message,
        "`packs` lists the packs; `packs {pack}` a pack's workflows",
    )
}

fn invalid_inputs(problems: Vec<InputProblem>) -> Error {
    Error::new(
        Code::WorkflowInputInvalid,
        format!(
            "the inputs do not match the workflow's schema: {}",
            run::problem_lines(&problems)
        ),
        "fix the inputs (`packs {pack}` shows the workflow's input schema) and run it again",
    )
}

/// The session a workflow runs in, and whether this call opened it.
async fn session_for(
    cx: &Cx<'_>,
    pack: &Pack,
    given: Option<String>,
) -> Result<(String, bool), Error> {
    let main = &pack.app.profile.main_window;
    if let Some(session) = given {
        let info = cx.session(&session)?.info()?;
        if !run::recognises(main, &info.app) {
            return Err(run::mismatch(pack, &info.app.name));
        }
        return Ok((session, false));
    }
    let running = cx.engine.apps().await?;
    let pid = match running.iter().find(|a| run::recognises(main, a)) {
        Some(app) => app.pid,
        None => launch(cx, pack).await?,
    };
    if let Some(mine) = held(cx, pid) {
        return Ok((mine, false));
    }
    let pid = pid.ok_or_else(|| {
        Error::new(
            Code::Unsupported,
            format!(
                "the app of pack {:?} has no process id to connect by",
                pack.app.manifest.id
            ),
            "connect to it yourself and give its session",
        )
    })?;
    let info = cx.engine.connect(&ConnectTarget::Pid(pid)).await?;
    if let Err(refused) = cx.grants.may_connect(&info.app.name) {
        let _ = cx.engine.session(&info.id)?.disconnect();
        return Err(refused);
    }
    cx.call.client.adopt(&info.id);
    Ok((info.id, true))
}

/// A session this call's client already holds on the whole app of `pid` (a run opens
/// none twice).
fn held(cx: &Cx<'_>, pid: Option<u32>) -> Option<String> {
    let open = cx.engine.sessions_open();
    let mine = open.into_iter().filter(|s| cx.call.client.owns(&s.id));
    mine.filter(|s| s.window.is_none() && pid.is_some() && s.app.pid == pid)
        .map(|s| s.id)
        .next()
}

/// Starts the pack's app (with the `launch` capability) and returns its pid.
async fn launch(cx: &Cx<'_>, pack: &Pack) -> Result<Option<u32>, Error> {
    let id = &pack.app.manifest.id;
    let launch = pack.app.profile.launch.as_ref().ok_or_else(|| {
        Error::new(
            Code::AppNotRunning,
            format!("the app of pack {id:?} is not running"),
            "start it, then run the workflow again",
        )
    })?;
    if !cx.grants.launch {
        return Err(Error::new(
            Code::AppNotRunning,
            format!(
                "the app of pack {id:?} is not running, and this server may not start programs"
            ),
            format!(
                "start {} yourself, or give the server the `launch` capability",
                launch.programs[0]
            ),
        ));
    }
    let from_env = launch
        .path_env
        .as_ref()
        .and_then(|name| std::env::var(name).ok())
        .filter(|path| !path.is_empty());
    let mut last = None;
    for program in from_env.iter().chain(&launch.programs) {
        let argv: Vec<String> = std::iter::once(program.clone())
            .chain(launch.args.iter().cloned())
            .collect();
        match cx.engine.launch_app(&argv, LAUNCH_WAIT).await {
            // A program that started another app than the pack's is not taken for it.
            Ok(launched) if !run::recognises(&pack.app.profile.main_window, &launched.app) => {
                return Err(run::mismatch(pack, &launched.app.name));
            }
            Ok(launched) => return Ok(launched.app.pid),
            Err(e) if e.code == Code::NotFound => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| unknown(format!("pack {id:?} names no program"))))
}

/// How long a started app has to register with a window: LibreOffice takes most of it on a
/// cold machine (the testkit's `SLOW_START`).
const LAUNCH_WAIT: std::time::Duration = std::time::Duration::from_secs(90);

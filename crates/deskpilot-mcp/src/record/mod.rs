//! `deskpilot mcp --record DIR`: one JSON-lines log per session (`docs/recording.md`), for
//! exporting what an agent did as a test, a pipeline or a pack workflow. The gate
//! (`dispatch.rs`) notes each call before it runs (its elements as stable locators, its
//! secret text masked) and writes the line once the call has an outcome. A directory that
//! cannot be written is said once, in the next result and on stderr, and never fails a
//! call.

pub mod export;
pub mod line;
mod log;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use deskpilot_core::act::{Change, effect_name, rung_name};

use deskpilot_core::{Engine, Selector, Target};
use rmcp::model::JsonObject;
use serde_json::Value;

use crate::call::Call;
use crate::outcome::ToolOutcome;
use line::{App, Element, Entry, Evidence, Header, Line, VERSION};
use log::Log;

/// The arguments that name an element.
const ELEMENT_ARGS: [&str; 3] = ["target", "from", "to"];

/// The recording of a server's sessions.
pub struct Recorder {
    dir: PathBuf,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// By session.
    logs: HashMap<String, Log>,
    /// The command line of each app this server started, by pid.
    launched: HashMap<u32, Vec<String>>,
    /// Why recording stopped, once it did; `said` once reported.
    broken: Option<String>,
    said: bool,
}

/// A call seen before it ran: what its line will say of its input.
pub struct Noted {
    tool: String,
    session: Option<String>,
    args: JsonObject,
    elements: Vec<Element>,
    /// The arguments that held secret text (masked now, named when written), and what kind.
    secret: Option<(Vec<String>, &'static str)>,
    /// The secret text itself, kept in memory only to keep it out of what was read back.
    hidden: Vec<String>,
    step: Option<String>,
    client: Option<String>,
}

impl Recorder {
    /// Recording into `dir`, created (0700) at the first line.
    pub fn new(dir: PathBuf) -> Self {
        Recorder {
            dir,
            state: Mutex::new(State::default()),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Notes `tool`'s call with `args` before it runs: its elements located in the app as
    /// they are now (after the call, a click may have closed their window).
    pub async fn before(
        &self,
        engine: &Engine,
        call: &Call,
        tool: &str,
        args: &JsonObject,
    ) -> Noted {
        let session = args
            .get("session")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let mut args = args.clone();
        args.remove("session");
        let mut elements = Vec::new();
        let mut secret_element = None;
        if let Some(session) = &session
            && let Ok(handle) = call.session(engine, session)
        {
            for arg in ELEMENT_ARGS {
                let Some(Value::String(given)) = args.get(arg) else {
                    continue;
                };
                let (element, secret) = located(&handle, arg, given).await;
                secret_element = secret_element.or(secret);
                elements.push(element);
            }
            // Text typed where the focus is: a password field's is secret too.
            if elements.is_empty() && matches!(tool, "type_text" | "set_value") {
                secret_element = focus_secret(&handle).await;
            }
        }
        let hidden = ["text", "value"]
            .iter()
            .filter_map(|key| args.get(*key).and_then(Value::as_str))
            .map(str::to_owned)
            .collect();
        let secret = masked(tool, &mut args, secret_element);
        let hidden = if secret.is_some() { hidden } else { Vec::new() };
        Noted {
            hidden,
            tool: tool.to_owned(),
            session,
            args,
            elements,
            secret,
            step: call.step.clone(),
            client: call.client_name.clone(),
        }
    }

    /// Writes the line of the call `noted`, which ended in `outcome`; the first failure to
    /// write is said in `outcome`'s text.
    pub fn after(&self, engine: &Engine, noted: Noted, outcome: &mut ToolOutcome) {
        let mut state = self.state();
        if noted.tool == "launch_app"
            && let (Some(pid), Some(argv)) = (outcome.started, argv(&noted.args))
        {
            state.launched.insert(pid, argv);
        }
        let written = match (&outcome.opened, noted.session.clone()) {
            (Some(opened), _) => self.open(&mut state, engine, opened, &noted),
            (None, Some(session)) => self.append(&mut state, &session, noted, outcome),
            (None, None) => Ok(()),
        };
        if let Err(why) = written {
            state.broken.get_or_insert(why);
        }
        if let (Some(why), false) = (&state.broken, state.said) {
            tracing::warn!("recording stopped: {why}");
            outcome.text = format!("(recording stopped: {why})\n{}", outcome.text);
            state.said = true;
        }
    }

    /// A new session's log, its header written.
    fn open(
        &self,
        state: &mut State,
        engine: &Engine,
        session: &str,
        noted: &Noted,
    ) -> Result<(), String> {
        if state.broken.is_some() {
            return Ok(());
        }
        let info = engine
            .session(session)
            .and_then(|s| s.info())
            .map_err(|e| e.message)?;
        let mut connect = noted.args.clone();
        connect.remove("pid");
        let header = Header {
            version: VERSION,
            session: session.to_owned(),
            client: noted.client.clone(),
            app: App {
                name: info.app.name.clone(),
                toolkit: info.app.toolkit.clone(),
                window: info.window.clone(),
                launched: info
                    .app
                    .pid
                    .and_then(|pid| state.launched.get(&pid).cloned()),
            },
            connect,
        };
        let mut log = Log::create(&self.dir, session, noted.client.as_deref())?;
        log.write(&Line::Header(header))?;
        state.logs.insert(session.to_owned(), log);
        Ok(())
    }

    /// The call's line in its session's log.
    fn append(
        &self,
        state: &mut State,
        session: &str,
        noted: Noted,
        outcome: &ToolOutcome,
    ) -> Result<(), String> {
        if state.broken.is_some() {
            return Ok(());
        }
        let Some(log) = state.logs.get_mut(session) else {
            // A session opened before recording could see it (none here), or another's.
            return Ok(());
        };
        let mut args = noted.args;
        if let Some((keys, kind)) = &noted.secret {
            log.secrets += 1;
            let name = format!("${{secret.{kind}_{}}}", log.secrets);
            for key in keys {
                args.insert(key.clone(), Value::String(name.clone()));
            }
        }
        log.seq += 1;
        let acted = outcome.acted.as_ref();
        let secret = noted.secret.is_some();
        let changes = acted.map(|a| a.changes.clone()).unwrap_or_default();
        let changes = changes
            .into_iter()
            .map(|line| {
                match noted
                    .hidden
                    .iter()
                    .any(|h| !h.is_empty() && line.contains(h.as_str()))
                    || (secret && line.starts_with("value:"))
                {
                    true => "value: (secret)".to_owned(),
                    false => line,
                }
            })
            .collect();
        let observed = acted.map(|a| a.observed.as_slice()).unwrap_or_default();
        let entry = Entry {
            seq: log.seq,
            tool: noted.tool.clone(),
            args,
            elements: noted.elements,
            step: noted.step,
            ok: outcome.failure.is_none(),
            code: outcome.failure.as_ref().map(|f| f.code.clone()),
            effect: acted.map(|a| effect_name(a.effect).to_owned()),
            route: acted.and_then(|a| a.route).map(|r| rung_name(r).to_owned()),
            changes,
            evidence: evidence(observed, secret),
        };
        log.write(&Line::Call(entry))?;
        if noted.tool == "disconnect" && outcome.failure.is_none() {
            state.logs.remove(session);
        }
        Ok(())
    }

    /// The log of `session` as written so far, when it is recorded.
    pub fn text(&self, session: &str) -> Option<String> {
        let state = self.state();
        let path = state.logs.get(session)?.path.clone();
        drop(state);
        std::fs::read_to_string(path).ok()
    }

    /// The sessions recorded now.
    pub fn sessions(&self) -> Vec<String> {
        let mut sessions: Vec<String> = self.state().logs.keys().cloned().collect();
        sessions.sort();
        sessions
    }
}

/// What `observed` shows was read back; a secret call's value is left out.
fn evidence(observed: &[Change], secret: bool) -> Vec<Evidence> {
    let window =
        |w: &deskpilot_core::act::ObservedWindow| (w.role.name().to_owned(), w.title.clone());
    observed
        .iter()
        .filter_map(|change| match change {
            // Focus follows most actions: no test asserts it.
            Change::State { state, .. } if *state == deskpilot_core::model::State::Focused => None,
            Change::State {
                state,
                now: Some(on),
                ..
            } => Some(Evidence::State {
                state: state.name().to_owned(),
                on: *on,
            }),
            Change::Value {
                value: Some(value), ..
            } if !secret => read_back(value).map(|value| Evidence::Value { value }),
            Change::Name { now, .. } => Some(Evidence::Name { name: now.clone() }),
            Change::Gone => Some(Evidence::Gone),
            Change::WindowOpened(w) => {
                let (role, title) = window(w);
                Some(Evidence::WindowOpened { role, title })
            }
            Change::WindowClosed(w) => {
                let (role, title) = window(w);
                Some(Evidence::WindowClosed { role, title })
            }
            _ => None,
        })
        .collect()
}

/// A value as an expectation takes it: a text whole, a number as written; none for a
/// hidden one.
fn read_back(value: &deskpilot_core::model::NodeValue) -> Option<String> {
    use deskpilot_core::model::NodeValue;
    match value {
        NodeValue::Text { text } => Some(text.clone()),
        NodeValue::Number { current, .. } => Some(current.to_string()),
        NodeValue::Redacted { .. } => None,
    }
}

/// `given` (the argument `arg`) as an element of the record, and whether the element holds
/// secret text (`password` for a password field).
async fn located(
    handle: &deskpilot_core::Session<'_>,
    arg: &str,
    given: &str,
) -> (Element, Option<&'static str>) {
    let target = match deskpilot_core::session::parse_ref(given) {
        Some(_) => Some(Target::Ref(given.to_owned())),
        None => Selector::parse(given).ok().map(Target::Selector),
    };
    let found = match &target {
        Some(target) => deskpilot_core::locator_of(handle, target).await.ok(),
        None => None,
    };
    let element = Element {
        arg: arg.to_owned(),
        given: given.to_owned(),
        locator: found.as_ref().map(|f| f.locator.selector.clone()),
        basis: found
            .as_ref()
            .map(|f| basis_name(f.locator.basis).to_owned()),
    };
    let secret = found.and_then(|f| {
        f.secret
            .then_some(if f.password { "password" } else { "secret" })
    });
    (element, secret)
}

/// Whether the focused element holds secret text, and what kind.
async fn focus_secret(handle: &deskpilot_core::Session<'_>) -> Option<&'static str> {
    let focused = handle.focus().await.ok().flatten()?;
    let node = &focused.node;
    let password = node.role == deskpilot_core::model::Role::Password;
    (password || node.is_secret()).then_some(if password { "password" } else { "secret" })
}

fn basis_name(basis: deskpilot_core::selector::Basis) -> &'static str {
    use deskpilot_core::selector::Basis;
    match basis {
        Basis::Id => "id",
        Basis::Name => "name",
        Basis::Role => "role",
        Basis::Position => "position",
    }
}

/// Masks the secret text of `args` (a `secret: true` call's text or value, or any text
/// given to a secret element); the keys masked and their kind.
fn masked(
    tool: &str,
    args: &mut JsonObject,
    element: Option<&'static str>,
) -> Option<(Vec<String>, &'static str)> {
    let flagged = args.get("secret").and_then(Value::as_bool) == Some(true);
    let texts = matches!(tool, "type_text" | "set_value");
    if !texts || (!flagged && element.is_none()) {
        return None;
    }
    let keys: Vec<String> = ["text", "value"]
        .into_iter()
        .filter(|key| args.get(*key).is_some_and(Value::is_string))
        .map(str::to_owned)
        .collect();
    for key in &keys {
        args.insert(key.clone(), Value::Null);
    }
    Some((keys, element.unwrap_or("secret")))
}

/// `launch_app`'s command line.
fn argv(args: &JsonObject) -> Option<Vec<String>> {
    let list = args.get("argv")?.as_array()?;
    list.iter().map(|v| v.as_str().map(str::to_owned)).collect()
}

//! One step on one rig: the engine's answer as a model reads it, then the oracle's news.

use std::time::Duration;

use deskpilot_core::act::DragEnd;
use deskpilot_core::present;
use deskpilot_core::read::Resolved;
use deskpilot_core::{Action, ActionReport, Error, Selector, Session, SnapshotRequest, Target};

use super::rigs::Rig;
use super::script::{Aim, Step};

/// The step's outcome and what the oracle saw, one line each.
pub async fn step(rig: &mut Rig, step: &Step, found: &mut Option<String>) -> Vec<String> {
    let handle = rig
        .engine
        .session(&rig.session)
        .expect("the case's session");
    let answer = match step {
        Step::Act {
            aim,
            action,
            background,
        } => {
            let handle = match background {
                true => handle.in_background(),
                false => handle,
            };
            let label = aim_label(aim);
            let report = handle.act(&target(aim, found), action).await;
            reported(report, label)
        }
        Step::Key(chord) => {
            let report = handle.act_on_window(&Action::PressKey(chord.clone())).await;
            reported(report, "the window")
        }
        Step::Window(action) => reported(handle.window_action(*action).await, "the window"),
        Step::Drag { from, to } => {
            let source = DragEnd::Element(by(from));
            let to = DragEnd::Point { x: to.0, y: to.1 };
            reported(handle.drag(&source, &to).await, from)
        }
        Step::Find { selector, within } => find(&handle, selector, within, found).await,
        Step::Resolve(selector) => match handle.resolve(&by(selector)).await {
            Ok(resolved) => element_line(&resolved),
            Err(e) => present::failure(&e),
        },
        Step::Properties(aim) => match handle.properties(&target(aim, found)).await {
            Ok(resolved) => element_line(&resolved),
            Err(e) => present::failure(&e),
        },
        Step::ReadText {
            aim,
            offset,
            length,
        } => match handle
            .read_text(&target(aim, found), *offset, *length)
            .await
        {
            Ok(read) => present::text_page(&read).joined(),
            Err(e) => present::failure(&e),
        },
        Step::ReadTable { aim, first, rows } => {
            match handle.read_table(&target(aim, found), *first, *rows).await {
                Ok(read) => present::table(&read),
                Err(e) => present::failure(&e),
            }
        }
        Step::Hit(x, y) => match handle.hit_test(*x, *y).await {
            Ok(path) => present::hit_path(&path, *x, *y),
            Err(e) => present::failure(&e),
        },
        Step::Focused => match handle.focus().await {
            Ok(focused) => present::focus(focused.as_ref()),
            Err(e) => present::failure(&e),
        },
        Step::Snapshot => match handle.snapshot(&SnapshotRequest::default()).await {
            Ok(snap) => present::snapshot(&snap).joined(),
            Err(e) => present::failure(&e),
        },
        Step::Launch(program) => {
            let argv = [program.clone()];
            match rig.engine.launch_app(&argv, Duration::from_secs(1)).await {
                Ok(launched) => format!("launched {:?}", launched.spawned_pid),
                Err(e) => present::failure(&e),
            }
        }
    };
    let mut lines: Vec<String> = answer.lines().map(str::to_owned).collect();
    lines.extend(rig.news());
    lines
}

fn by(selector: &str) -> Target {
    Target::Selector(Selector::parse(selector).expect("checked when parsed"))
}

fn target(aim: &Aim, found: &Option<String>) -> Target {
    match aim {
        Aim::Selector(selector) => by(selector),
        Aim::Found => Target::Ref(found.clone().expect("a find before $found")),
    }
}

fn aim_label(aim: &Aim) -> &str {
    match aim {
        Aim::Selector(selector) => selector,
        Aim::Found => "$found",
    }
}

/// A report with its ref named as the case names it (refs differ between rigs), without
/// the tree's changes it carries.
fn reported(report: Result<ActionReport, Error>, label: &str) -> String {
    match report {
        Ok(mut report) => {
            report.reference = label.to_owned();
            report.tree = None;
            present::action(&report)
        }
        Err(mut e) => {
            e.tree = None;
            present::failure(&e)
        }
    }
}

/// A resolved element on one line: its ref, role, name, value and the states that are on.
fn element_line(resolved: &Resolved) -> String {
    let node = &resolved.node;
    let states: Vec<&str> = node.states.iter_on().map(|s| s.name()).collect();
    format!(
        "[ref={}] {} {:?} value {:?} [{}]",
        resolved.reference,
        node.role.name(),
        node.name,
        node.value,
        states.join(" ")
    )
}

async fn find(
    handle: &Session<'_>,
    selector: &str,
    within: &Option<String>,
    found: &mut Option<String>,
) -> String {
    let selector = Selector::parse(selector).expect("checked when parsed");
    let within = within.as_deref().map(by);
    match handle.find(&selector, within.as_ref(), 10).await {
        Ok(result) => {
            *found = result.matches.first().map(|m| m.reference.clone());
            present::find(&result)
        }
        Err(e) => present::failure(&e),
    }
}

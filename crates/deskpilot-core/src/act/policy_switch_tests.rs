//! No verb answers "confirmed" or "already" on an on/off it cannot read: every role, as
//! AT-SPI reports it (absent bits read as off) and as a Qt checklist's item reports it.

use super::tests::{checkbox, click, judged, seen, send};
use super::*;
use crate::act::OnOff;
use crate::act::plan::{NO_ON_OFF_STATE, plan};
use crate::model::control::{self, Switch};
use crate::model::{ElementId, StateSet};
use crate::platform::{NativeRoute, NativeRoutes};
use deskpilot_platform::EditKeys;

/// Routes that can do anything the platform words name.
struct AllRoutes;

impl NativeRoutes for AllRoutes {
    fn native_route(&self, _: &Node, op: &crate::act::NativeOp) -> Result<NativeRoute, String> {
        Ok(NativeRoute {
            op: op.clone(),
            how: format!("{op:?}"),
        })
    }

    fn edit_keys(&self) -> EditKeys {
        EditKeys::ctrl()
    }
}

fn reported(role: Role, on: &[State]) -> Node {
    let mut node = Node::new(ElementId::new(":1.a", "/n"), role);
    node.states = StateSet::all_known(on.iter().copied());
    node
}

/// What a toggle to `want` answers, when the read-back saw a window open and nothing else.
fn answer(node: &Node, want: OnOff) -> (Option<String>, Next) {
    let action = Action::Toggle { ensure: Some(want) };
    let held = already(node, want);
    let planned = plan(&action, node, &AllRoutes);
    let before = seen(node.clone());
    let Start::Send(judging) = start(&action, planned.expect, planned.unreadable, &before) else {
        panic!("{}: nothing sent", node.role);
    };
    let mut after = seen(node.clone());
    after.windows.push(crate::act::ObservedWindow {
        id: ElementId::new(":1.a", "/w"),
        role: Role::Dialog,
        title: "Done".into(),
        minimized: None,
    });
    let next = judge(
        &action,
        &judging,
        &before,
        &Verdict::Changed(after),
        "e1",
        "test",
    );
    (held, next)
}

#[test]
fn no_role_is_already_off_or_confirmed_without_an_on_off_state() {
    for &role in Role::ALL {
        let node = reported(role, &[State::Enabled, State::Focusable]);
        let readable = control::switch(&node, false).is_some();
        for want in [OnOff::On, OnOff::Off] {
            let (held, next) = answer(&node, want);
            if readable {
                continue;
            }
            assert_eq!(held, None, "{role}: already {want:?} on no state");
            assert!(
                matches!(&next, Next::Report { effect: Effect::Unverified, note: Some(n) } if n == NO_ON_OFF_STATE),
                "{role} {want:?}: {next:?}"
            );
        }
    }
}

/// kdialog's checklist: `uncheck` on an item that is on is sent (it was answered "already
/// off"), judged by `selected`; on an item that is off it is nothing to do.
#[test]
fn a_checklist_item_is_judged_by_its_selection() {
    use State::*;
    let on = reported(
        Role::ListItem,
        &[Enabled, Focusable, Multiselectable, Selectable, Selected],
    );
    assert_eq!(already(&on, OnOff::Off), None);
    assert_eq!(
        already(&on, OnOff::On).as_deref(),
        Some("already on (selected)")
    );
    let p = plan(
        &Action::Toggle {
            ensure: Some(OnOff::Off),
        },
        &on,
        &AllRoutes,
    );
    assert_eq!(
        p.expect,
        Expect::OnOff {
            switch: Switch::Selected,
            on: false
        }
    );
    // Its own toggle, then its list's selection; never a key or a click on the list.
    let rungs: Vec<_> = p.attempts.iter().map(|a| a.rung).collect();
    assert_eq!(
        rungs,
        [crate::act::Rung::Semantic, crate::act::Rung::Semantic]
    );
    let off = reported(Role::ListItem, &[Multiselectable, Selectable]);
    assert!(met(&p.expect, &seen(off)));
    assert!(!met(&p.expect, &seen(on)));
}

#[test]
fn a_miss_of_a_repeatable_verb_tries_the_next_rung_and_of_a_click_does_not() {
    let toggle = Action::Toggle {
        ensure: Some(OnOff::On),
    };
    let before = seen(checkbox(false));
    let judging = send(start(
        &toggle,
        Expect::OnOff {
            switch: Switch::Checked,
            on: true,
        },
        None,
        &before,
    ));
    let missed = || Verdict::Missed {
        after: seen(checkbox(false)),
        quiet: false,
    };
    let next = judged(&toggle, &judging, &before, missed());
    assert!(
        matches!(&next, Next::TryAnother { why } if why.contains("no effect (checked on)")),
        "{next:?}"
    );
    // A click is not safe to repeat: one miss is the answer (no-op, since nothing changed).
    let judging = send(start(
        &click(),
        Expect::OnOff {
            switch: Switch::Checked,
            on: true,
        },
        None,
        &before,
    ));
    let next = judged(&click(), &judging, &before, missed());
    assert!(
        matches!(&next, Next::Report { effect: Effect::Noop, note: Some(n) } if n.contains("not sent again")),
        "{next:?}"
    );
}

//! The policy where a platform cannot show what would confirm an action.

use super::tests::{field, judged, seen, send};
use super::*;
use crate::act::InputText;

/// A password whose length the platform never gives is unverified, never "no effect" (which
/// would send it again by keys).
#[test]
fn a_password_of_unknown_length_is_unverified_not_missed() {
    let mut password = field("");
    password.role = Role::Password;
    password.value = Some(NodeValue::Redacted { chars: None });
    let action = Action::SetValue(ValueInput::Text(InputText::plain("pw")));
    let judging = send(start(
        &action,
        Expect::Chars(2),
        None,
        &seen(password.clone()),
    ));
    let missed = Verdict::Missed {
        after: seen(password.clone()),
        quiet: false,
    };
    let next = judged(&action, &judging, &seen(password), missed);
    assert!(
        matches!(
            next,
            Next::Report {
                effect: Effect::Unverified,
                ..
            }
        ),
        "{next:?}"
    );
}

//! The test library on the GTK3 fixture, judged by the fixture's own oracle (its JSON lines),
//! never by deskpilot's report: locators, auto-waiting actions, strictness, expectations.

use std::time::Duration;

use deskpilot_test::{Desktop, Effect, PrivateDisplay, Role, TestError, TreeMatch, expect};
use serde_json::json;

mod support;
use support::gtk3_fixture as fixture;

#[tokio::test]
async fn locators_act_and_expectations_wait() -> deskpilot_test::Result<()> {
    let desktop = Desktop::headless().await?;
    let (app, oracle) = fixture(&desktop).await;
    let wait = |widget: &str, prop: &str, value: serde_json::Value| {
        oracle
            .wait_value(widget, prop, value, Duration::from_secs(5))
            .unwrap()
    };

    let count = app.get_by_role(Role::Button).name("Count");
    let clicked = count.click().await?;
    // A plain click has no postcondition of its own: the counter label's announced text,
    // read back, confirms it.
    assert_eq!(clicked.effect, Effect::Confirmed, "{:?}", clicked.report);
    wait("counter", "clicks", json!(1));
    // A double click is real pointer input, sent once the button's bounds held still: the
    // button sees two clicks.
    count.dblclick().await?;
    wait("counter", "clicks", json!(3));

    let notify = app.get_by_role(Role::Checkbox).name_contains("notif");
    let checked = notify.check().await?;
    assert_eq!(checked.effect, Effect::Confirmed, "{:?}", checked.report);
    wait("check", "checked", json!(true));
    expect(&notify).to_be_checked().await?;
    // check is idempotent: nothing sent the second time.
    let again = notify.check().await?;
    assert!(again.route.is_none(), "{:?}", again.report);

    let name = app.get_by_role(Role::TextBox).name("Name");
    name.fill("Ada Lovelace").await?.expect_confirmed()?;
    wait("name", "text", json!("Ada Lovelace"));
    expect(&name).to_have_value("Ada Lovelace").await?;
    expect(&name).not().to_have_value("Grace").await?;
    // to_have_text is the whole text (a part is to_contain_text's); a button reads as its name.
    expect(&name).to_have_text("Ada Lovelace").await?;
    expect(&name)
        .not()
        .timeout(Duration::from_millis(200))
        .to_have_text("Ada")
        .await?;
    expect(&count).to_have_text("Count").await?;

    // An option in one call, its list closed; confirmed by the option the combo box shows.
    let color = app.get_by_role(Role::ComboBox);
    color.select_option("Blue").await?.expect_confirmed()?;
    wait("color", "selected", json!("Blue"));
    color.select_option_at(1).await?.expect_confirmed()?;
    wait("color", "selected", json!("Green"));

    // A drag is real pointer input: the volume slider's knob dragged onto the fruit list to
    // its right leaves the slider at its top.
    let volume = app.get_by_role(Role::Slider).name("Volume");
    volume
        .drag_to(&app.get_by_role(Role::ListItem).name("Banana"))
        .await?;
    oracle
        .wait_for(Duration::from_secs(5), |e| {
            e.is("volume", "value") && e.value.as_f64().is_some_and(|v| v >= 90.0)
        })
        .unwrap();

    // Tree assertions: strict by default, partial on request, names by regex.
    let list = app.get_by_role(Role::ListBox);
    // first() and last() count afresh at every use (a smell, but sometimes what is meant).
    expect(&list.get_by_role(Role::ListItem).last())
        .to_contain_text("Date")
        .await?;
    expect(&list.get_by_role(Role::ListItem).first())
        .to_contain_text("Apple")
        .await?;
    // A criterion after last() narrows what last() counts in.
    expect(&list.get_by_role(Role::ListItem).last().name_contains("an"))
        .to_contain_text("Banana")
        .await?;
    // An element scrolled out of view is found for scroll_into_view (hidden, as it is), and
    // the engine asked: GTK 3 declines Component.ScrollTo, which the engine says.
    let row = app.get_by_role(Role::Button).name("Row item 40");
    expect(&row).to_be_hidden().await?;
    match row.scroll_into_view().await {
        Ok(_) => expect(&row).to_be_visible().await?,
        Err(TestError::Engine { error, .. }) => {
            assert!(error.message.contains("ScrollTo"), "{error:?}")
        }
        Err(other) => panic!("the hidden row was not even tried: {other:?}"),
    }
    // A condition on one element does not hold, negated or not, without an element.
    let nothing = expect(&app.get_by_name("No such box"))
        .not()
        .timeout(Duration::from_millis(200))
        .to_be_checked()
        .await;
    assert!(nothing.is_err(), "a negation held without an element");
    let fruits = "- listbox\n - listitem \"Apple\"\n - listitem \"Banana\"\n - listitem \"Cherry\"\n - listitem \"Date\"\n";
    expect(&list)
        .to_match_tree(fruits, TreeMatch::Strict)
        .await?;
    expect(&list)
        .to_match_tree("- listitem /^B/\n- listitem \"Date\"", TreeMatch::Partial)
        .await?;
    expect(&list)
        .not()
        .to_match_tree("- listitem \"Apple\"", TreeMatch::Strict)
        .await?;
    let wrong = expect(&list)
        .timeout(Duration::from_millis(200))
        .to_match_tree("- listbox\n - listitem \"Apple\"", TreeMatch::Strict)
        .await;
    assert!(
        matches!(&wrong, Err(TestError::NotActionable { seen, .. }) if seen.contains("--- found")),
        "{wrong:?}"
    );

    // Strict: several visible radio buttons are refused at once, listed.
    let radios = app.get_by_role(Role::Radio);
    match radios.click().await {
        Err(TestError::Ambiguous { count, lines, .. }) => {
            assert!(count > 1, "{lines}");
            assert_eq!(lines.lines().count(), count, "{lines}");
        }
        other => panic!("expected ambiguous, got {other:?}"),
    }
    // A disabled button is waited for, then refused with what was seen.
    let locked = app
        .get_by_role(Role::Button)
        .name("Locked")
        .timeout(Duration::from_millis(300));
    match locked.click().await {
        Err(TestError::NotActionable { wanted, seen, .. }) => {
            assert_eq!(wanted, "visible and enabled");
            assert!(seen.contains("Locked"), "{seen}");
        }
        other => panic!("expected not actionable, got {other:?}"),
    }
    expect(&locked).to_be_disabled().await?;
    // Soft expectations do not stop the test: they are kept for its end.
    let short = Duration::from_millis(150);
    expect(&notify)
        .soft()
        .timeout(short)
        .not()
        .to_be_checked()
        .await?;
    expect(&count).soft().to_be_visible().await?;
    expect(&locked)
        .soft()
        .timeout(short)
        .to_be_enabled()
        .await?;
    let soft = desktop.take_soft_failures();
    assert_eq!(soft.len(), 2, "{soft:?}");
    assert!(
        soft[1].contains("Locked") && soft[1].contains("enabled"),
        "{soft:?}"
    );

    // An expectation that never holds says what it saw.
    let missing = expect(&app.get_by_name("No such thing"))
        .timeout(Duration::from_millis(200))
        .to_be_visible()
        .await;
    assert!(
        matches!(&missing, Err(TestError::NotActionable { seen, .. })
            if seen.starts_with("nothing matches; the app's active window:")
                && seen.contains("- window \"deskpilot GTK3 fixture\"")),
        "{missing:?}"
    );
    Ok(())
}

/// A soft expectation that failed fails the test when its desktop goes away.
#[tokio::test]
#[should_panic(expected = "1 soft expectation(s) failed")]
async fn soft_failures_fail_the_test_at_its_end() {
    let desktop = Desktop::headless().await.unwrap();
    let (app, _oracle) = fixture(&desktop).await;
    expect(&app.get_by_name("No such thing"))
        .soft()
        .timeout(Duration::from_millis(100))
        .to_be_visible()
        .await
        .unwrap();
    // Still running: the failure was kept, not returned.
    expect(&app.get_by_role(Role::Button).name("Count"))
        .to_be_visible()
        .await
        .unwrap();
}

/// Strict effects for a whole desktop: an action whose effect cannot be read back fails.
#[tokio::test]
async fn a_desktop_can_require_every_effect_confirmed() -> deskpilot_test::Result<()> {
    let desktop = Desktop::headless().await?.confirmed_only();
    let (app, oracle) = fixture(&desktop).await;
    // The unnamed button counts its clicks and shows nothing: sent, seen by the fixture, but
    // not confirmed.
    let unnamed = app.locator(r#"button[name=""]"#);
    match unnamed.click().await {
        Err(TestError::NotConfirmed { report, .. }) => assert!(report.contains("unverified")),
        other => panic!("expected not confirmed, got {other:?}"),
    }
    oracle
        .wait_value("unnamed", "clicks", json!(1), Duration::from_secs(5))
        .unwrap();
    // Count's label announces its new text: confirmed.
    app.get_by_role(Role::Button).name("Count").click().await?;
    oracle
        .wait_value("counter", "clicks", json!(1), Duration::from_secs(5))
        .unwrap();
    app.get_by_role(Role::Checkbox)
        .name_contains("notif")
        .check()
        .await?;
    Ok(())
}

/// The same library on headless sway (`PrivateDisplay::Wayland`): the GTK 3 fixture native on
/// Wayland, typed into with a chord and double-clicked through the compositor's virtual
/// keyboard and pointer, judged by the fixture's oracle.
#[tokio::test]
async fn a_wayland_desktop_types_and_clicks_through_the_compositor() -> deskpilot_test::Result<()> {
    let desktop = Desktop::headless_on(PrivateDisplay::Wayland).await?;
    assert_eq!(desktop.display(), None, "no X11 display on sway");
    replace_then_double_click(&desktop, "Ada ✓", &["Zoë"], "Zoë").await
}

/// The same on headless GNOME Shell (`PrivateDisplay::Gnome`): keys through mutter's remote
/// desktop session, the double click at the button's place in the window the shell placed.
/// Text mutter's keymap lacks goes through the field's own text interface: still confirmed.
#[tokio::test]
async fn a_gnome_desktop_types_and_clicks_through_mutter() -> deskpilot_test::Result<()> {
    let desktop = Desktop::headless_on(PrivateDisplay::Gnome).await?;
    assert_eq!(desktop.display(), None, "no X11 display on GNOME's Wayland");
    replace_then_double_click(&desktop, "Ada", &["Zoe", " ✓"], "Zoe ✓").await
}

/// Types `first` into the fixture's name field, replaces it through ctrl+a with `then`
/// typed in turn, and double-clicks Count; the oracle must see `expected` and two clicks.
async fn replace_then_double_click(
    desktop: &Desktop,
    first: &str,
    then: &[&str],
    expected: &str,
) -> deskpilot_test::Result<()> {
    let (app, oracle) = fixture(desktop).await;
    let name = app.get_by_role(Role::TextBox).name("Name");
    name.type_text(first).await?.expect_confirmed()?;
    name.press("ctrl+a").await?;
    for text in then {
        name.type_text(text).await?.expect_confirmed()?;
    }
    oracle
        .wait_value("name", "text", json!(expected), Duration::from_secs(5))
        .unwrap();
    app.get_by_role(Role::Button)
        .name("Count")
        .dblclick()
        .await?;
    oracle
        .wait_value("counter", "clicks", json!(2), Duration::from_secs(5))
        .unwrap();
    Ok(())
}

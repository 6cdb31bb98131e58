//! The display server's own rungs as matrix rows: a drag, a screenshot and a window's
//! activation. Each is judged outside deskpilot: the fixture's oracle, the compositor's
//! capture of the same rectangle, its own window list (`swaymsg`, gnome-shell's `Eval`).

use std::time::{Duration, Instant};

use deskpilot_core::act::{DragEnd, WindowAction};
use deskpilot_core::capture::{Region, ShotRequest};
use deskpilot_core::model::{NodeValue, Rect};
use deskpilot_core::{Action, MouseButton, Selector, Session, Target};
use deskpilot_testkit::{Oracle, VirtualDesktop};

/// How one rung went: the route or verb taken, the effect reported, the verdict.
pub struct RungOutcome {
    pub widget: &'static str,
    pub verb: &'static str,
    pub route: String,
    pub effect: String,
    pub verdict: &'static str,
}

fn by(selector: &str) -> Target {
    Target::Selector(Selector::parse(selector).unwrap())
}

fn outcome(widget: &'static str, verb: &'static str, report: String, ok: bool) -> RungOutcome {
    RungOutcome {
        widget,
        verb,
        route: "pointer".into(),
        effect: report,
        verdict: if ok { "delivered" } else { "FAILED" },
    }
}

/// Drags the volume slider's handle (where its value puts it: Qt's groove pages on a press
/// beside the handle) to eight tenths of its width: the oracle must report a value above
/// half.
pub async fn drag_slider(session: &Session<'_>, oracle: &Oracle) -> RungOutcome {
    let slider = session
        .properties(&by("slider[name=Volume]"))
        .await
        .unwrap();
    let b = slider.node.bounds.expect("the slider is on screen");
    let fraction = match slider.node.value {
        Some(NodeValue::Number { current, .. }) => current / 100.0,
        _ => 0.0,
    };
    let y = b.y + b.height / 2;
    let handle = b.x + 8 + (f64::from(b.width - 16) * fraction) as i32;
    let from = DragEnd::Point { x: handle, y };
    let to = DragEnd::Point {
        x: b.x + b.width * 8 / 10,
        y,
    };
    let seen = oracle.events().unwrap_or_default().len();
    let report = session.drag(&from, &to).await;
    let effect = effect_of(&report);
    let high = |e: &deskpilot_testkit::OracleEvent| {
        e.is("volume", "value") && e.value.as_f64().is_some_and(|v| v > 50.0)
    };
    let ok = report.is_ok() && oracle_within(oracle, seen, high);
    outcome("slider (drag)", "drag", effect, ok)
}

fn oracle_within(
    oracle: &Oracle,
    seen: usize,
    wanted: impl Fn(&deskpilot_testkit::OracleEvent) -> bool,
) -> bool {
    let deadline = Instant::now() + Duration::from_secs(4);
    loop {
        if oracle
            .events()
            .unwrap_or_default()
            .iter()
            .skip(seen)
            .any(&wanted)
        {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The session window's screenshot: its rectangle must be the window as the compositor
/// places it, and its pixels the compositor's capture of that rectangle (`grim` on sway),
/// but for one pixel in 200 at most (a caret blinks between the two).
pub async fn screenshot(
    session: &Session<'_>,
    desktop: &VirtualDesktop,
    title: &str,
) -> RungOutcome {
    let request = ShotRequest {
        region: Region::Window,
        annotate: false,
        max_side: 4096,
    };
    let shot = session.screenshot(&request).await.unwrap();
    let r = shot.region;
    let area = (r.x, r.y, r.width, r.height);
    let path = desktop.log_path("compositor-capture", "png");
    if let Err(said) = desktop.compositor_capture(area, &path) {
        panic!("the compositor's capture of {area:?} failed: {said}");
    }
    let ours = rgb_of(&shot.png);
    let grims = rgb_of(&std::fs::read(&path).unwrap());
    // Clipped to the screen, as the capture is.
    let screen = Rect::new(0, 0, 1280, 800);
    let window: Vec<Rect> = desktop
        .compositor_window(title)
        .into_iter()
        .filter_map(|(x, y, w, h)| Rect::new(x, y, w, h).intersection(&screen))
        .collect();
    let placed = window.contains(&r);
    let same =
        placed && ours.0 == grims.0 && differing(&ours.1, &grims.1) * 200 <= ours.1.len() / 3;
    let mut effect = format!("{}x{} at ({}, {})", shot.width, shot.height, r.x, r.y);
    if !same {
        let differ = differing(&ours.1, &grims.1);
        effect += &format!(
            " (compositor: {window:?}; sizes {:?} {:?}; {differ} pixels differ)",
            ours.0, grims.0
        );
    }
    RungOutcome {
        route: "capture".into(),
        ..outcome("window (screenshot)", "screenshot", effect, same)
    }
}

/// A PNG's size and its pixels as RGB.
fn rgb_of(png_bytes: &[u8]) -> ((u32, u32), Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png_bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks_exact(channels)
        .flat_map(|px| px[..3].to_vec())
        .collect();
    ((info.width, info.height), rgb)
}

fn differing(a: &[u8], b: &[u8]) -> usize {
    a.chunks_exact(3)
        .zip(b.chunks_exact(3))
        .filter(|(x, y)| x != y)
        .count()
}

/// sway has no minimized state: minimizing is refused as unsupported, and the window stays.
pub async fn minimize(session: &Session<'_>, desktop: &VirtualDesktop, title: &str) -> RungOutcome {
    let report = session.window_action(WindowAction::Minimize).await;
    let (effect, refused) = match &report {
        Ok(r) => (format!("{:?}", r.effect).to_lowercase(), false),
        Err(e) => (
            format!("refused {}", e.code.name()),
            e.code == deskpilot_core::Code::Unsupported,
        ),
    };
    let kept = desktop.sway_window(title).is_some();
    RungOutcome {
        route: "-".into(),
        verdict: if refused && kept { "refused" } else { "FAILED" },
        ..outcome("window (minimize)", "minimize", effect, false)
    }
}

/// GNOME minimizes: the shell must say the window is minimized; it is restored afterwards
/// (the shell's word again).
pub async fn minimize_on_gnome(
    session: &Session<'_>,
    desktop: &VirtualDesktop,
    title: &str,
) -> RungOutcome {
    let report = session.window_action(WindowAction::Minimize).await;
    let effect = effect_of(&report);
    let minimized = |on: bool| {
        wait_until(|| {
            desktop
                .gnome_window(title)
                .is_some_and(|w| w.minimized == on)
        })
    };
    let down = report.is_ok() && minimized(true);
    let restored = session.window_action(WindowAction::Restore).await;
    let up = restored.is_ok() && minimized(false);
    RungOutcome {
        route: "window_manager".into(),
        ..outcome("window (minimize)", "minimize", effect, down && up)
    }
}

/// GNOME focuses a window's modal dialog rather than the window: another app's window takes
/// the focus instead, then the fixture's window is activated; the shell says which has it.
pub async fn activation_on_gnome(
    session: &Session<'_>,
    desktop: &VirtualDesktop,
    title: &str,
) -> RungOutcome {
    let script = "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk; \
        w = Gtk.Window(title='Other'); w.connect('destroy', Gtk.main_quit); w.show_all(); Gtk.main()";
    let mut other = desktop
        .command(deskpilot_testkit::SYSTEM_PYTHON)
        .args(["-c", script])
        .spawn()
        .unwrap();
    let other_first = wait_until(|| desktop.compositor_focused().as_deref() == Some("Other"));
    let report = session.window_action(WindowAction::Activate).await;
    let effect = effect_of(&report);
    let main_now = wait_until(|| desktop.compositor_focused().as_deref() == Some(title));
    let _ = other.kill();
    let _ = other.wait();
    activated(effect, other_first && main_now && report.is_ok())
}

/// Opens the fixture's dialog (the compositor focuses it), activates the main window, and
/// asks the compositor which window has the focus; the dialog is answered afterwards.
pub async fn activation(
    session: &Session<'_>,
    desktop: &VirtualDesktop,
    title: &str,
) -> RungOutcome {
    let click = Action::Click {
        button: MouseButton::Left,
        double: false,
    };
    session
        .act(&by("button[name*=\"Open dialog\"]"), &click)
        .await
        .unwrap();
    let dialog_first = wait_until(|| desktop.compositor_focused().is_some_and(|t| t != title));
    let report = session.window_action(WindowAction::Activate).await;
    let effect = effect_of(&report);
    let main_now = wait_until(|| desktop.compositor_focused().as_deref() == Some(title));
    session
        .act(&by("dialog >> button[name=OK]"), &click)
        .await
        .unwrap();
    activated(effect, dialog_first && main_now && report.is_ok())
}

/// A report's effect in a row: its name, or the code it was refused with.
fn effect_of(report: &Result<deskpilot_core::ActionReport, deskpilot_core::Error>) -> String {
    match report {
        Ok(r) => format!("{:?}", r.effect).to_lowercase(),
        Err(e) => format!("refused {}", e.code.name()),
    }
}

fn activated(effect: String, ok: bool) -> RungOutcome {
    RungOutcome {
        route: "window_manager".into(),
        ..outcome("window (activation)", "activate", effect, ok)
    }
}

fn wait_until(check: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(4);
    while Instant::now() < deadline {
        if check() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

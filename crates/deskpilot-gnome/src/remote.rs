//! Mutter's remote desktop session (`org.gnome.Mutter.RemoteDesktop`, what the desktop
//! portal uses underneath): keys as keysyms, buttons, wheel steps, and the pointer in
//! absolute coordinates of a screen cast stream, one per monitor, linked to the session.
//! Mutter needs PipeWire running to start those streams; nothing reads them.

use std::collections::HashMap;
use std::time::Duration;

use deskpilot_platform::model::Rect;
use futures_util::StreamExt;
use zbus::zvariant::{ObjectPath, OwnedObjectPath, OwnedValue, Value};

use crate::bus::{Bus, GnomeError, Target};

const REMOTE_DESKTOP: Target<'static> = Target {
    service: "org.gnome.Mutter.RemoteDesktop",
    path: "/org/gnome/Mutter/RemoteDesktop",
    interface: "org.gnome.Mutter.RemoteDesktop",
};
const SCREEN_CAST: Target<'static> = Target {
    service: "org.gnome.Mutter.ScreenCast",
    path: "/org/gnome/Mutter/ScreenCast",
    interface: "org.gnome.Mutter.ScreenCast",
};
const DISPLAY_CONFIG: Target<'static> = Target {
    service: "org.gnome.Mutter.DisplayConfig",
    path: "/org/gnome/Mutter/DisplayConfig",
    interface: "org.gnome.Mutter.DisplayConfig",
};
const SESSION: &str = "org.gnome.Mutter.RemoteDesktop.Session";
const STREAM: &str = "org.gnome.Mutter.ScreenCast.Stream";

/// How long mutter may take to start a monitor's stream (it answers in about 50 ms here).
const STREAM_WAIT: Duration = Duration::from_secs(3);

/// A monitor's stream: pointer positions inside `area` (screen coordinates) go through it.
#[derive(Debug, Clone)]
struct Stream {
    path: OwnedObjectPath,
    area: Rect,
}

/// One remote desktop session, held for deskpilot's lifetime on a connection of its own.
#[derive(Debug)]
pub(crate) struct Remote {
    bus: Bus,
    session: OwnedObjectPath,
    streams: Vec<Stream>,
    /// Why the pointer cannot be placed, when no stream started.
    no_pointer: Option<String>,
}

impl Remote {
    /// Creates the session and a stream for every monitor, and starts them.
    pub(crate) async fn start(bus: Bus) -> Result<Remote, GnomeError> {
        let (session,): (OwnedObjectPath,) = bus.call(REMOTE_DESKTOP, "CreateSession", &()).await?;
        let id = bus.property(on(&session, SESSION), "SessionId").await?;
        let id = String::try_from(id).map_err(|e| GnomeError::Failed(e.to_string()))?;
        let linked = HashMap::from([("remote-desktop-session-id", Value::from(id))]);
        let (cast,): (OwnedObjectPath,) =
            bus.call(SCREEN_CAST, "CreateSession", &(linked,)).await?;
        let monitors = monitors(&bus).await?;
        let mut recorded = Vec::new();
        for monitor in &monitors {
            let empty: HashMap<&str, Value> = HashMap::new();
            let cast_session = on(&cast, "org.gnome.Mutter.ScreenCast.Session");
            let (stream,): (OwnedObjectPath,) = bus
                .call(
                    cast_session,
                    "RecordMonitor",
                    &(monitor.connector.as_str(), empty),
                )
                .await?;
            recorded.push(Stream {
                path: stream,
                area: monitor.area,
            });
        }
        let added = added_signals(&bus, &recorded).await?;
        bus.call::<_, ()>(on(&session, SESSION), "Start", &())
            .await?;
        let no_pointer = match tokio::time::timeout(STREAM_WAIT, added).await {
            Ok(()) => None,
            Err(_) => Some(NO_PIPEWIRE.to_owned()),
        };
        let remote = Remote {
            bus,
            session,
            streams: recorded,
            no_pointer,
        };
        remote.add_devices().await?;
        Ok(remote)
    }

    /// Mutter adds a session's keyboard and pointer to the seat on their first event, which
    /// can be lost on the way: a shift tap and a motion by nothing add them first.
    async fn add_devices(&self) -> Result<(), GnomeError> {
        self.keysym(deskpilot_xkb::SHIFT_L, true).await?;
        self.keysym(deskpilot_xkb::SHIFT_L, false).await?;
        self.bus
            .call(
                self.session(),
                "NotifyPointerMotionRelative",
                &(0.0f64, 0.0f64),
            )
            .await
    }

    fn session(&self) -> Target<'_> {
        on(&self.session, SESSION)
    }

    pub(crate) async fn keysym(&self, keysym: u32, pressed: bool) -> Result<(), GnomeError> {
        self.bus
            .call(self.session(), "NotifyKeyboardKeysym", &(keysym, pressed))
            .await
    }

    /// Presses or releases a button by its evdev code (`BTN_LEFT` is 272).
    pub(crate) async fn button(&self, code: i32, pressed: bool) -> Result<(), GnomeError> {
        self.bus
            .call(self.session(), "NotifyPointerButton", &(code, pressed))
            .await
    }

    /// Turns the wheel by `steps` on `axis` (0 vertical, 1 horizontal; positive: down, right).
    pub(crate) async fn wheel(&self, axis: u32, steps: i32) -> Result<(), GnomeError> {
        self.bus
            .call(self.session(), "NotifyPointerAxisDiscrete", &(axis, steps))
            .await
    }

    /// Moves the pointer to (x, y) in screen coordinates, through the monitor's stream there.
    pub(crate) async fn move_to(&self, x: i32, y: i32) -> Result<(), GnomeError> {
        if let Some(why) = &self.no_pointer {
            return Err(GnomeError::Missing(why.clone()));
        }
        let stream = self
            .streams
            .iter()
            .find(|s| s.area.contains(x, y))
            .ok_or_else(|| GnomeError::Failed(format!("({x}, {y}) is on no monitor")))?;
        let (dx, dy) = (f64::from(x - stream.area.x), f64::from(y - stream.area.y));
        let path = stream.path.as_str();
        self.bus
            .call(
                self.session(),
                "NotifyPointerMotionAbsolute",
                &(path, dx, dy),
            )
            .await
    }
}

const NO_PIPEWIRE: &str = "mutter started no screen cast stream (is PipeWire running in this session?): without one, the pointer cannot be placed";

fn on<'a>(path: &'a OwnedObjectPath, interface: &'static str) -> Target<'a> {
    Target {
        service: if interface.starts_with("org.gnome.Mutter.ScreenCast") {
            "org.gnome.Mutter.ScreenCast"
        } else {
            "org.gnome.Mutter.RemoteDesktop"
        },
        path: path.as_str(),
        interface,
    }
}

/// Whether mutter offers remote desktop sessions on this bus (asked without starting one).
pub(crate) async fn offered(bus: &Bus) -> Result<(), GnomeError> {
    let daemon = Target {
        service: "org.freedesktop.DBus",
        path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus",
    };
    let (owned,): (bool,) = bus
        .call(daemon, "NameHasOwner", &(REMOTE_DESKTOP.service,))
        .await?;
    match owned {
        true => Ok(()),
        false => Err(GnomeError::Missing(
            "mutter's remote desktop interface is not on this session bus".into(),
        )),
    }
}

/// The monitors' union, in screen coordinates; `None` without a monitor.
pub(crate) async fn screen(bus: &Bus) -> Result<Option<Rect>, GnomeError> {
    let monitors = monitors(bus).await?;
    Ok(monitors.into_iter().map(|m| m.area).reduce(hull))
}

/// A monitor in use: its connector and its area in screen (logical) coordinates.
#[derive(Debug, Clone)]
struct Monitor {
    connector: String,
    area: Rect,
}

/// The monitors in use (`DisplayConfig.GetCurrentState`): a logical monitor's size is its
/// mode's, divided by its scale where the layout is logical.
async fn monitors(bus: &Bus) -> Result<Vec<Monitor>, GnomeError> {
    type Spec = (String, String, String, String);
    type Mode = (
        String,
        i32,
        i32,
        f64,
        f64,
        Vec<f64>,
        HashMap<String, OwnedValue>,
    );
    type Physical = (Spec, Vec<Mode>, HashMap<String, OwnedValue>);
    type Logical = (
        i32,
        i32,
        f64,
        u32,
        bool,
        Vec<Spec>,
        HashMap<String, OwnedValue>,
    );
    type State = (
        u32,
        Vec<Physical>,
        Vec<Logical>,
        HashMap<String, OwnedValue>,
    );
    let (_, physical, logical, properties): State =
        bus.call(DISPLAY_CONFIG, "GetCurrentState", &()).await?;
    // layout-mode 1 is logical (sizes divided by the scale), 2 physical.
    let logical_layout = properties
        .get("layout-mode")
        .and_then(|v| u32::try_from(v).ok())
        .is_none_or(|mode| mode == 1);
    let mode_of = |connector: &str| {
        let (_, modes, _) = physical.iter().find(|p| p.0.0 == connector)?;
        let current = modes.iter().find(|m| {
            m.6.get("is-current")
                .and_then(|v| bool::try_from(v).ok())
                .unwrap_or(false)
        })?;
        Some((current.1, current.2))
    };
    let mut out = Vec::new();
    for (x, y, scale, _, _, specs, _) in logical {
        let divisor = if logical_layout && scale > 0.0 {
            scale
        } else {
            1.0
        };
        for spec in specs {
            let Some((width, height)) = mode_of(&spec.0) else {
                continue;
            };
            let size = |n: i32| (f64::from(n) / divisor).round() as i32;
            let area = Rect::new(x, y, size(width), size(height));
            out.push(Monitor {
                connector: spec.0,
                area,
            });
        }
    }
    Ok(out)
}

/// Resolves once every stream in `streams` said PipeWire has it.
async fn added_signals(
    bus: &Bus,
    streams: &[Stream],
) -> Result<impl std::future::Future<Output = ()> + use<>, GnomeError> {
    let mut waiting = Vec::new();
    for stream in streams {
        let rule = zbus::MatchRule::builder()
            .msg_type(zbus::message::Type::Signal)
            .interface(STREAM)
            .and_then(|r| r.member("PipeWireStreamAdded"))
            .and_then(|r| r.path(ObjectPath::from(stream.path.clone())))
            .map_err(|e| GnomeError::Failed(e.to_string()))?
            .build();
        let signals = zbus::MessageStream::for_match_rule(rule, bus.connection(), Some(4))
            .await
            .map_err(|e| GnomeError::Failed(format!("watching the screen cast: {e}")))?;
        waiting.push(signals);
    }
    Ok(async move {
        for mut signals in waiting {
            let _ = signals.next().await;
        }
    })
}

/// The smallest rectangle holding both.
fn hull(a: Rect, b: Rect) -> Rect {
    let (left, top) = (a.x.min(b.x), a.y.min(b.y));
    let right = (a.x + a.width).max(b.x + b.width);
    let bottom = (a.y + a.height).max(b.y + b.height);
    Rect::new(left, top, right - left, bottom - top)
}

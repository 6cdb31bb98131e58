//! Finding the user's desktop session when neither flags nor the environment say where it is
//! (an MCP host that spawns its servers with HOME, LOGNAME, PATH, SHELL, TERM and USER only):
//! the session bus where the desktop's own libraries look for it (`$XDG_RUNTIME_DIR/bus`,
//! then `/run/user/<uid>/bus`), the display from the session's environment (the systemd user
//! manager's, where desktops import it) or its only X server socket. Each finding says how it
//! was found.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where the X server sockets are (`X0` is display `:0`).
const X11_SOCKETS: &str = "/tmp/.X11-unix";
/// Longest wait for the session's systemd manager to say its environment.
const ENVIRONMENT_WAIT: Duration = Duration::from_secs(2);

/// A value found, and how.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub value: String,
    pub how: String,
    /// Given by a flag or the environment (not looked for).
    pub given: bool,
}

/// What this process can see of its surroundings; a seam for tests.
pub trait Surroundings {
    fn var(&self, name: &str) -> Option<String>;
    fn is_socket(&self, path: &Path) -> bool;
    /// The X server sockets' display numbers.
    fn x_displays(&self) -> Vec<u32>;
    fn uid(&self) -> u32;
}

/// This process's environment and file system.
pub struct Host;

impl Surroundings for Host {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok().filter(|v| !v.is_empty())
    }

    fn is_socket(&self, path: &Path) -> bool {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(path).is_ok_and(|m| m.file_type().is_socket())
    }

    fn x_displays(&self) -> Vec<u32> {
        let Ok(entries) = std::fs::read_dir(X11_SOCKETS) else {
            return Vec::new();
        };
        let mut out: Vec<u32> = entries
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.strip_prefix('X')?.parse().ok())
            .collect();
        out.sort_unstable();
        out
    }

    fn uid(&self) -> u32 {
        nix::unistd::getuid().as_raw()
    }
}

/// The value a flag or else an environment variable gives.
fn given(
    flag: Option<String>,
    flag_name: &str,
    var: &str,
    around: &dyn Surroundings,
) -> Option<Found> {
    let (value, how) = match flag {
        Some(value) => (value, flag_name),
        None => (around.var(var)?, var),
    };
    Some(Found {
        value,
        how: how.to_owned(),
        given: true,
    })
}

/// The session bus: the flag, the environment, then the sockets the desktop's libraries
/// connect to. `Err` says where it was looked for.
pub fn bus(flag: Option<String>, around: &dyn Surroundings) -> Result<Found, String> {
    if let Some(found) = given(flag, "--bus", "DBUS_SESSION_BUS_ADDRESS", around) {
        return Ok(found);
    }
    let runtime = around.var("XDG_RUNTIME_DIR").map(PathBuf::from);
    let user = PathBuf::from(format!("/run/user/{}", around.uid()));
    let mut looked = Vec::new();
    for (dir, why) in [
        (runtime, "$XDG_RUNTIME_DIR/bus"),
        (Some(user), "/run/user/<uid>/bus"),
    ] {
        let Some(dir) = dir else { continue };
        let socket = dir.join("bus");
        if around.is_socket(&socket) {
            return Ok(Found {
                value: format!("unix:path={}", socket.display()),
                how: format!("{why}, DBUS_SESSION_BUS_ADDRESS being unset"),
                given: false,
            });
        }
        looked.push(socket.display().to_string());
    }
    Err(format!(
        "no --bus given, DBUS_SESSION_BUS_ADDRESS is not set, and no session bus socket at {}",
        looked.join(" or ")
    ))
}

/// The display: the flag, the environment, the session's own environment (`session_env`, the
/// systemd user manager's), then the only X server socket. An empty flag means none (as on a
/// Wayland session with no X server), never a guess.
pub fn display(
    flag: Option<String>,
    session_env: Option<String>,
    around: &dyn Surroundings,
) -> Option<Found> {
    if flag.as_deref() == Some("") {
        return None;
    }
    if let Some(found) = given(flag, "--display", "DISPLAY", around) {
        return Some(found);
    }
    if let Some(value) = session_env {
        return Some(Found {
            value,
            how: "the session's environment (systemd user manager), DISPLAY being unset".into(),
            given: false,
        });
    }
    match around.x_displays().as_slice() {
        [only] => Some(Found {
            value: format!(":{only}"),
            how: format!("the only X server socket ({X11_SOCKETS}/X{only}), DISPLAY being unset"),
            given: false,
        }),
        _ => None,
    }
}

/// DISPLAY as the session's systemd user manager has it (desktops import it there), asked on
/// the session bus; `None` when there is no such manager or it has none.
pub async fn session_display(bus: &str) -> Option<String> {
    let ask = async {
        let connection = zbus::connection::Builder::address(bus)
            .ok()?
            .build()
            .await
            .ok()?;
        // Asked only when running: asking a name nobody owns would start an activation.
        let bus = zbus::fdo::DBusProxy::new(&connection).await.ok()?;
        let name = zbus::names::BusName::try_from("org.freedesktop.systemd1").ok()?;
        if !bus.name_has_owner(name).await.ok()? {
            return None;
        }
        let proxy = zbus::proxy::Builder::<zbus::Proxy>::new(&connection)
            .destination("org.freedesktop.systemd1")
            .ok()?
            .path("/org/freedesktop/systemd1")
            .ok()?
            .interface("org.freedesktop.systemd1.Manager")
            .ok()?
            .cache_properties(zbus::proxy::CacheProperties::No)
            .build()
            .await
            .ok()?;
        let environment: Vec<String> = proxy.get_property("Environment").await.ok()?;
        environment
            .iter()
            .find_map(|e| e.strip_prefix("DISPLAY=").map(str::to_owned))
            .filter(|d| !d.is_empty())
    };
    tokio::time::timeout(ENVIRONMENT_WAIT, ask).await.ok()?
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[derive(Default)]
    struct Seen {
        vars: HashMap<&'static str, String>,
        sockets: Vec<PathBuf>,
        displays: Vec<u32>,
    }

    impl Surroundings for Seen {
        fn var(&self, name: &str) -> Option<String> {
            self.vars.get(name).cloned()
        }
        fn is_socket(&self, path: &Path) -> bool {
            self.sockets.iter().any(|s| s == path)
        }
        fn x_displays(&self) -> Vec<u32> {
            self.displays.clone()
        }
        fn uid(&self) -> u32 {
            1000
        }
    }

    /// A host's minimal environment: the bus at /run/user/<uid>/bus and the only X server
    /// are found, each saying how; what is given always wins.
    #[test]
    fn the_session_is_found_where_the_desktop_keeps_it() {
        let mut seen = Seen {
            sockets: vec!["/run/user/1000/bus".into()],
            displays: vec![0],
            ..Seen::default()
        };
        let found = bus(None, &seen).unwrap();
        assert_eq!(found.value, "unix:path=/run/user/1000/bus");
        assert!(found.how.contains("/run/user/<uid>/bus"), "{}", found.how);
        let shown = display(None, None, &seen).unwrap();
        assert_eq!(shown.value, ":0");
        assert!(shown.how.contains("only X server"), "{}", shown.how);
        // The session's environment comes before a guess from sockets.
        assert_eq!(display(None, Some(":1".into()), &seen).unwrap().value, ":1");
        seen.vars.insert("XDG_RUNTIME_DIR", "/tmp/rt".into());
        seen.sockets.push("/tmp/rt/bus".into());
        assert_eq!(bus(None, &seen).unwrap().value, "unix:path=/tmp/rt/bus");
        seen.vars
            .insert("DBUS_SESSION_BUS_ADDRESS", "unix:path=/x".into());
        seen.vars.insert("DISPLAY", ":7".into());
        assert_eq!(bus(None, &seen).unwrap().how, "DBUS_SESSION_BUS_ADDRESS");
        assert_eq!(display(None, None, &seen).unwrap().value, ":7");
        assert_eq!(
            bus(Some("unix:path=/y".into()), &seen).unwrap().how,
            "--bus"
        );
        // An empty flag runs without a display, whatever the host has.
        assert!(display(Some(String::new()), Some(":1".into()), &seen).is_none());
    }

    /// Nothing there: the bus's absence says where it was looked for; two X servers are no
    /// answer.
    #[test]
    fn nothing_found_says_where_it_looked() {
        let seen = Seen {
            displays: vec![0, 1],
            ..Seen::default()
        };
        let missing = bus(None, &seen).unwrap_err();
        assert!(missing.contains("/run/user/1000/bus"), "{missing}");
        assert_eq!(display(None, None, &seen), None);
    }
}

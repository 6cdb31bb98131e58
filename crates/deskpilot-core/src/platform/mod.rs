//! What deskpilot needs from a platform: the traits of `deskpilot-platform` (the accessibility
//! backend, synthetic input with the window manager's requests, the display's pixels and
//! window list, a way to start programs), re-exported. Core only ever talks to these traits;
//! the Linux crates implement them, `deskpilot-fake` imitates them.

pub use deskpilot_platform::window_system;
pub use deskpilot_platform::{
    Backend, BackendError, Blindness, CaptureError, Caret, ClientWindow, Cover, Events, Exited,
    Exits, InputDevice, InputError, LaunchError, Launcher, NativeRoute, NativeRoutes, NoDesktop,
    NoEvents, Performed, ProgressSink, ScreenCapture, Secrecy, WalkLimits, WindowError,
    WindowImage, WindowSystem, descends,
};

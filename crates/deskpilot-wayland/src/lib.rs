//! deskpilot's Wayland side, on wlroots compositors (sway, and others that speak wlroots'
//! protocols). Synthetic input goes through the virtual keyboard (`zwp_virtual_keyboard_v1`,
//! on a keymap made for the characters typed) and the virtual pointer
//! (`zwlr_virtual_pointer_v1`). Screenshots come from screencopy
//! (`zwlr_screencopy_manager_v1`); on sway, the windows and their positions from its IPC,
//! elsewhere the windows without positions (`zwlr_foreign_toplevel_management_v1`).
//! Everything is pure Rust (`wayland-client`'s own protocol implementation), every call
//! bounded in time.

mod client;
mod input;
mod keyboard;
mod keymap;
mod outputs;
mod pointer;
mod screencopy;
mod sway_ipc;
mod sway_windows;
mod toplevels;

pub use client::ClientError;
pub use input::WaylandInput;
pub use sway_ipc::SwayIpc;
pub use sway_windows::SwayWindows;
pub use toplevels::ForeignToplevels;

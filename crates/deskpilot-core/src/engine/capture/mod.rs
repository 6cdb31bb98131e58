//! Screenshots of a session's window, element or the screen (`capture/` holds the requests).

pub(crate) mod shot;

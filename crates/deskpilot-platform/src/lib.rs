//! The contract between deskpilot's engine and its platform backends, in no platform's words:
//! the element model every backend fills in (`model`), and the escaping of the text apps give
//! (`escape`). A backend depends on this crate, never on the engine; `deskpilot-core`
//! re-exports both modules under their old paths.

// Nothing here prints to stdout: the faces decide where text goes.
#![deny(clippy::print_stdout)]

pub mod escape;
pub mod model;

//! App packs: an application described once as data (how to start it, its main window, its
//! controls by name), validated and loaded whole (`docs/app-packs.md`). This crate holds the
//! part the faces share. The app's files are `format`'s; reading them `read`'s (`builtin`
//! for the packs in the binary); what a schema cannot say of them `check`'s. How the app is
//! started is `launch`'s; a control named in a selector `named`'s, found in a session by
//! `resolve`. A set of packs by id is `set`'s and `sources`'. What acting means and the
//! workflows are the MCP server's.

pub mod builtin;
pub mod check;
pub mod format;
mod launch;
pub mod named;
pub mod read;
pub mod report;
pub mod resolve;
pub mod set;
mod shipped;
pub mod sources;

pub use format::AppPack;
pub use resolve::{Resolution, Resolved};

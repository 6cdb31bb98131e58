//! The backend when there is no desktop to drive: no session was found (every read fails
//! `no_desktop` with why), or deskpilot has no backend for this operating system yet (the
//! null platform: every call answers `unsupported`). The server still starts, so a host sees
//! it answer `initialize`.

use async_trait::async_trait;

use super::backend::{Backend, BackendError, NativeRoute, NativeRoutes, Secrecy, WalkLimits};
use crate::app::AppInfo;
use crate::model::{ElementId, Node, TableSlice, TextSlice, Tree};
use crate::vocabulary::NativeOp;

/// A backend with no desktop under it.
pub struct NoDesktop {
    /// Why none was found, and where it was looked for.
    pub why: String,
    /// How to give deskpilot a desktop, in its platform's words.
    pub hint: String,
    /// No backend exists for this operating system (`why` names it).
    pub platform_unsupported: bool,
}

impl NoDesktop {
    /// No desktop session was found: `why` says where deskpilot looked, `hint` how to give
    /// it one.
    pub fn session_missing(why: impl Into<String>, hint: impl Into<String>) -> Self {
        NoDesktop {
            why: why.into(),
            hint: hint.into(),
            platform_unsupported: false,
        }
    }

    /// The null platform: deskpilot has no backend for `os` (`std::env::consts::OS`) yet.
    pub fn unsupported_platform(os: &str) -> Self {
        NoDesktop {
            why: os.to_owned(),
            hint: String::new(),
            platform_unsupported: true,
        }
    }

    fn error(&self) -> BackendError {
        if self.platform_unsupported {
            BackendError::PlatformUnsupported(self.why.clone())
        } else {
            BackendError::NoDesktop {
                why: self.why.clone(),
                hint: self.hint.clone(),
            }
        }
    }

    fn fail<T>(&self) -> Result<T, BackendError> {
        Err(self.error())
    }
}

impl NativeRoutes for NoDesktop {
    fn native_route(&self, _node: &Node, _op: &NativeOp) -> Result<NativeRoute, String> {
        Err(self.error().to_string())
    }

    fn edit_keys(&self) -> crate::vocabulary::EditKeys {
        crate::vocabulary::EditKeys::ctrl()
    }
}

#[async_trait]
impl Backend for NoDesktop {
    async fn apps(&self) -> Result<Vec<AppInfo>, BackendError> {
        self.fail()
    }

    async fn snapshot(
        &self,
        _root: &ElementId,
        _limits: &WalkLimits,
    ) -> Result<Tree, BackendError> {
        self.fail()
    }

    async fn node(&self, _id: &ElementId, _secrecy: Secrecy) -> Result<Node, BackendError> {
        self.fail()
    }

    async fn properties(&self, _id: &ElementId, _secrecy: Secrecy) -> Result<Node, BackendError> {
        self.fail()
    }

    async fn hit_test(
        &self,
        _root: &ElementId,
        _x: i32,
        _y: i32,
    ) -> Result<Vec<Node>, BackendError> {
        self.fail()
    }

    async fn text(
        &self,
        _id: &ElementId,
        _start: u32,
        _end: Option<u32>,
    ) -> Result<TextSlice, BackendError> {
        self.fail()
    }

    async fn table(
        &self,
        _id: &ElementId,
        _first_row: u32,
        _max_rows: u32,
    ) -> Result<TableSlice, BackendError> {
        self.fail()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The null platform answers every read and route `unsupported`, naming the system.
    #[tokio::test]
    async fn the_null_platform_answers_every_call_unsupported() {
        let none = NoDesktop::unsupported_platform("windows");
        let id = ElementId::new("app", "/1");
        let unsupported = BackendError::PlatformUnsupported("windows".into());
        assert_eq!(none.apps().await, Err(unsupported.clone()));
        assert_eq!(
            none.snapshot(&id, &WalkLimits::default()).await,
            Err(unsupported.clone())
        );
        assert_eq!(
            none.node(&id, Secrecy::Plain).await,
            Err(unsupported.clone())
        );
        assert!(!unsupported.retryable());
        let route = none.native_route(&Node::new(id, crate::model::Role::Button), &NativeOp::Press);
        assert_eq!(
            route,
            Err("deskpilot cannot drive apps on windows yet".into())
        );
        let missing = NoDesktop::session_missing("no bus", "give it one");
        assert_eq!(
            missing.apps().await,
            Err(BackendError::NoDesktop {
                why: "no bus".into(),
                hint: "give it one".into()
            })
        );
    }
}

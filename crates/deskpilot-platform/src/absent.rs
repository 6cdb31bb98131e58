//! The backend when no desktop session was found: the server still starts (a host sees it
//! answer `initialize`), and every read fails `no_desktop` with why.

use async_trait::async_trait;

use super::backend::{Backend, BackendError, NativeRoute, NativeRoutes, Secrecy, WalkLimits};
use crate::app::AppInfo;
use crate::model::{ElementId, Node, TableSlice, TextSlice, Tree};
use crate::vocabulary::NativeOp;

/// A backend with no desktop under it.
pub struct NoDesktop {
    /// Why none was found, and where it was looked for.
    pub why: String,
}

impl NoDesktop {
    fn fail<T>(&self) -> Result<T, BackendError> {
        Err(BackendError::NoDesktop(self.why.clone()))
    }
}

impl NativeRoutes for NoDesktop {
    fn native_route(&self, _node: &Node, _op: &NativeOp) -> Result<NativeRoute, String> {
        Err(self.why.clone())
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

//! UI Automation's failures as the contract's: a table of `HRESULT`s.

use std::time::Duration;

use deskpilot_platform::BackendError;
use deskpilot_platform::model::ElementId;

use crate::raw::UiaError;

/// `HRESULT`s with a meaning of their own (UIAutomationCoreApi.h, winerror.h).
pub mod hresult {
    pub const UIA_E_ELEMENTNOTENABLED: i32 = 0x8004_0200_u32 as i32;
    pub const UIA_E_ELEMENTNOTAVAILABLE: i32 = 0x8004_0201_u32 as i32;
    pub const UIA_E_NOCLICKABLEPOINT: i32 = 0x8004_0202_u32 as i32;
    pub const UIA_E_NOTSUPPORTED: i32 = 0x8004_0204_u32 as i32;
    pub const UIA_E_TIMEOUT: i32 = 0x8013_1505_u32 as i32;
    pub const UIA_E_INVALIDOPERATION: i32 = 0x8013_1509_u32 as i32;
    pub const RPC_E_CALL_REJECTED: i32 = 0x8001_0001_u32 as i32;
    pub const RPC_E_SERVERCALL_RETRYLATER: i32 = 0x8001_010A_u32 as i32;
    pub const RPC_E_DISCONNECTED: i32 = 0x8001_0108_u32 as i32;
    pub const RPC_S_SERVER_UNAVAILABLE: i32 = 0x8007_06BA_u32 as i32;
    /// The remote procedure call failed: the app ended during the call.
    pub const RPC_S_CALL_FAILED: i32 = 0x8007_06BE_u32 as i32;
    /// `ElementFromHandle` on a window that was closed.
    pub const ERROR_INVALID_WINDOW_HANDLE: i32 = 0x8007_0578_u32 as i32;
    pub const CO_E_OBJNOTCONNECTED: i32 = 0x8004_01FD_u32 as i32;
    pub const E_ACCESSDENIED: i32 = 0x8007_0005_u32 as i32;
    pub const E_NOTIMPL: i32 = 0x8000_4001_u32 as i32;
    pub const E_NOINTERFACE: i32 = 0x8000_4002_u32 as i32;
    pub const E_INVALIDARG: i32 = 0x8007_0057_u32 as i32;
    pub const E_OUTOFMEMORY: i32 = 0x8007_000E_u32 as i32;
    pub const E_FAIL: i32 = 0x8000_4005_u32 as i32;
}

/// What a failed call on `id` (doing `what`) means, the per-call `timeout` given.
pub fn to_backend(error: UiaError, id: &ElementId, what: &str, timeout: Duration) -> BackendError {
    use hresult::*;
    let app = || id.app.clone();
    match error {
        UiaError::Timeout => BackendError::AppNotResponding {
            app: app(),
            timeout,
        },
        UiaError::Unknown => BackendError::Defunct { id: id.clone() },
        UiaError::Com { hresult, message } => match hresult {
            UIA_E_ELEMENTNOTAVAILABLE | ERROR_INVALID_WINDOW_HANDLE => {
                BackendError::Defunct { id: id.clone() }
            }
            UIA_E_TIMEOUT | RPC_E_CALL_REJECTED | RPC_E_SERVERCALL_RETRYLATER => {
                BackendError::AppNotResponding {
                    app: app(),
                    timeout,
                }
            }
            RPC_S_SERVER_UNAVAILABLE
            | RPC_S_CALL_FAILED
            | CO_E_OBJNOTCONNECTED
            | RPC_E_DISCONNECTED => BackendError::AppGone { app: app() },
            E_ACCESSDENIED => BackendError::AccessDenied {
                app: app(),
                why: "the system denies access (the app runs elevated)".into(),
            },
            UIA_E_NOTSUPPORTED
            | UIA_E_INVALIDOPERATION
            | E_NOTIMPL
            | E_NOINTERFACE
            | UIA_E_NOCLICKABLEPOINT
            | UIA_E_ELEMENTNOTENABLED => BackendError::Unsupported {
                id: id.clone(),
                what: what.to_owned(),
            },
            _ => BackendError::System(format!(
                "{what} on {id}: {message} ({:#010x})",
                hresult as u32
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn com(hresult: i32) -> UiaError {
        UiaError::Com {
            hresult,
            message: "failed".into(),
        }
    }

    /// The table: gone elements are defunct, a busy app retryable, a dead one gone, an
    /// elevated one denied, a missing pattern unsupported; the rest keep their `HRESULT`.
    #[test]
    fn hresults_map_to_the_contracts_failures() {
        let id = ElementId::new("w:1:2", "2a.7");
        let t = Duration::from_secs(2);
        let map = |e| to_backend(e, &id, "read", t);
        assert_eq!(
            map(com(hresult::UIA_E_ELEMENTNOTAVAILABLE)),
            BackendError::Defunct { id: id.clone() }
        );
        for busy in [hresult::UIA_E_TIMEOUT, hresult::RPC_E_CALL_REJECTED] {
            let error = map(com(busy));
            assert!(error.retryable(), "{error:?}");
            assert!(matches!(error, BackendError::AppNotResponding { .. }));
        }
        // A closed window's handle names nothing any more (review D3).
        assert_eq!(
            map(com(hresult::ERROR_INVALID_WINDOW_HANDLE)),
            BackendError::Defunct { id: id.clone() }
        );
        // RPC_S_CALL_FAILED: the app died during the call (review D3).
        for gone in [
            hresult::RPC_S_SERVER_UNAVAILABLE,
            hresult::CO_E_OBJNOTCONNECTED,
            hresult::RPC_S_CALL_FAILED,
        ] {
            assert_eq!(
                map(com(gone)),
                BackendError::AppGone {
                    app: "w:1:2".into()
                }
            );
        }
        let denied = map(com(hresult::E_ACCESSDENIED));
        assert!(matches!(denied, BackendError::AccessDenied { .. }) && !denied.retryable());
        assert!(matches!(
            map(com(hresult::E_NOTIMPL)),
            BackendError::Unsupported { .. }
        ));
        assert!(
            map(com(0x8000_4005_u32 as i32))
                .to_string()
                .contains("0x80004005")
        );
        assert!(matches!(
            map(UiaError::Timeout),
            BackendError::AppNotResponding { .. }
        ));
    }
}

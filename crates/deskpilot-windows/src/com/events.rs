//! UI Automation's event handlers: COM objects UIA calls on its own threads. They never call
//! back into UIA: they read the sender's cached `RuntimeId` and `ProcessId` and note the event
//! in the backend's log (`events.rs`), which only counts and remembers.

use std::sync::Arc;

use windows::Win32::System::Com::SAFEARRAY;
use windows::Win32::System::Variant::VARIANT;
use windows::Win32::UI::Accessibility::*;
use windows::core::{Ref, implement};

use super::props;
use crate::events::{EventLog, UiaEvent};

/// The properties whose changes are watched.
pub const WATCHED: &[UIA_PROPERTY_ID] = &[
    UIA_NamePropertyId,
    UIA_ValueValuePropertyId,
    UIA_ToggleToggleStatePropertyId,
    UIA_ExpandCollapseExpandCollapseStatePropertyId,
    UIA_IsEnabledPropertyId,
    UIA_IsOffscreenPropertyId,
    UIA_SelectionItemIsSelectedPropertyId,
];

/// One handler for every kind of event deskpilot watches.
#[implement(
    IUIAutomationStructureChangedEventHandler,
    IUIAutomationPropertyChangedEventHandler,
    IUIAutomationEventHandler,
    IUIAutomationFocusChangedEventHandler
)]
pub struct Handler {
    pub log: Arc<EventLog>,
}

impl Handler {
    /// The sender's process and id, from the cache its registration asked for.
    fn sender(sender: &Ref<IUIAutomationElement>) -> Option<(u32, crate::raw::RuntimeKey)> {
        let element = sender.as_ref()?;
        let pid = props::cached(element, UIA_ProcessIdPropertyId).i32()? as u32;
        Some((pid, props::key(element)))
    }

    fn changed(&self, sender: &Ref<IUIAutomationElement>) {
        if let Some((pid, key)) = Self::sender(sender) {
            let key = (!key.0.is_empty()).then_some(key);
            self.log.note(UiaEvent::Changed { pid, key });
        }
    }
}

impl IUIAutomationStructureChangedEventHandler_Impl for Handler_Impl {
    fn HandleStructureChangedEvent(
        &self,
        sender: Ref<IUIAutomationElement>,
        _change: StructureChangeType,
        _runtime_id: *const SAFEARRAY,
    ) -> windows::core::Result<()> {
        self.changed(&sender);
        Ok(())
    }
}

impl IUIAutomationPropertyChangedEventHandler_Impl for Handler_Impl {
    fn HandlePropertyChangedEvent(
        &self,
        sender: Ref<IUIAutomationElement>,
        _property: UIA_PROPERTY_ID,
        _value: &VARIANT,
    ) -> windows::core::Result<()> {
        self.changed(&sender);
        Ok(())
    }
}

impl IUIAutomationEventHandler_Impl for Handler_Impl {
    fn HandleAutomationEvent(
        &self,
        sender: Ref<IUIAutomationElement>,
        _event: UIA_EVENT_ID,
    ) -> windows::core::Result<()> {
        self.changed(&sender);
        Ok(())
    }
}

impl IUIAutomationFocusChangedEventHandler_Impl for Handler_Impl {
    fn HandleFocusChangedEvent(
        &self,
        sender: Ref<IUIAutomationElement>,
    ) -> windows::core::Result<()> {
        if let Some((pid, key)) = Handler::sender(&sender) {
            self.log.note(UiaEvent::Focused { pid, key });
        }
        Ok(())
    }
}

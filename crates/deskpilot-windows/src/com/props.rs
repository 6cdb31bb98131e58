//! The cache request every read uses, and one cached element read into a `RawElement`:
//! everything the model needs in one cross-process call per container, never a value.

use deskpilot_platform::model::Rect;
use windows::Win32::UI::Accessibility::*;

use super::variant::Owned;
use crate::raw::{Expansion, Pattern, PatternSet, Range, RawElement, RuntimeKey, Toggle, Visual};

/// Each pattern with the property that says it is available.
const AVAILABLE: &[(Pattern, UIA_PROPERTY_ID)] = &[
    (Pattern::Invoke, UIA_IsInvokePatternAvailablePropertyId),
    (Pattern::Toggle, UIA_IsTogglePatternAvailablePropertyId),
    (Pattern::Value, UIA_IsValuePatternAvailablePropertyId),
    (
        Pattern::RangeValue,
        UIA_IsRangeValuePatternAvailablePropertyId,
    ),
    (
        Pattern::ExpandCollapse,
        UIA_IsExpandCollapsePatternAvailablePropertyId,
    ),
    (
        Pattern::SelectionItem,
        UIA_IsSelectionItemPatternAvailablePropertyId,
    ),
    (
        Pattern::Selection,
        UIA_IsSelectionPatternAvailablePropertyId,
    ),
    (
        Pattern::ScrollItem,
        UIA_IsScrollItemPatternAvailablePropertyId,
    ),
    (Pattern::Scroll, UIA_IsScrollPatternAvailablePropertyId),
    (Pattern::Text, UIA_IsTextPatternAvailablePropertyId),
    (Pattern::Grid, UIA_IsGridPatternAvailablePropertyId),
    (Pattern::GridItem, UIA_IsGridItemPatternAvailablePropertyId),
    (Pattern::Table, UIA_IsTablePatternAvailablePropertyId),
    (
        Pattern::TableItem,
        UIA_IsTableItemPatternAvailablePropertyId,
    ),
    (Pattern::Window, UIA_IsWindowPatternAvailablePropertyId),
    (
        Pattern::ItemContainer,
        UIA_IsItemContainerPatternAvailablePropertyId,
    ),
    (
        Pattern::VirtualizedItem,
        UIA_IsVirtualizedItemPatternAvailablePropertyId,
    ),
    (
        Pattern::LegacyIAccessible,
        UIA_IsLegacyIAccessiblePatternAvailablePropertyId,
    ),
];

/// The properties a read caches (values excluded: `ValueValue` is read apart, where no
/// secret is).
const PROPERTIES: &[UIA_PROPERTY_ID] = &[
    UIA_RuntimeIdPropertyId,
    UIA_ControlTypePropertyId,
    UIA_LocalizedControlTypePropertyId,
    UIA_NamePropertyId,
    UIA_AutomationIdPropertyId,
    UIA_ClassNamePropertyId,
    UIA_FrameworkIdPropertyId,
    UIA_ProcessIdPropertyId,
    UIA_NativeWindowHandlePropertyId,
    UIA_BoundingRectanglePropertyId,
    UIA_HelpTextPropertyId,
    UIA_IsEnabledPropertyId,
    UIA_IsOffscreenPropertyId,
    UIA_HasKeyboardFocusPropertyId,
    UIA_IsKeyboardFocusablePropertyId,
    UIA_IsPasswordPropertyId,
    UIA_IsDialogPropertyId,
    UIA_HeadingLevelPropertyId,
    UIA_SizeOfSetPropertyId,
    UIA_AriaRolePropertyId,
    UIA_ToggleToggleStatePropertyId,
    UIA_ExpandCollapseExpandCollapseStatePropertyId,
    UIA_SelectionItemIsSelectedPropertyId,
    UIA_SelectionCanSelectMultiplePropertyId,
    UIA_ValueIsReadOnlyPropertyId,
    UIA_RangeValueValuePropertyId,
    UIA_RangeValueMinimumPropertyId,
    UIA_RangeValueMaximumPropertyId,
    UIA_RangeValueSmallChangePropertyId,
    UIA_WindowIsModalPropertyId,
    UIA_WindowWindowVisualStatePropertyId,
    UIA_LegacyIAccessibleDefaultActionPropertyId,
    UIA_GridRowCountPropertyId,
    UIA_GridColumnCountPropertyId,
];

/// The cache request of element reads: the properties above and pattern availability, in
/// the control view, with a live reference (`Full` mode: later calls need one).
pub fn element_request(
    automation: &IUIAutomation,
) -> windows::core::Result<IUIAutomationCacheRequest> {
    // SAFETY: COM calls on this thread's MTA objects.
    unsafe {
        let request = automation.CreateCacheRequest()?;
        // A property this UIA does not know (an older Windows, Wine) is left out: it reads
        // as unknown. The request's tree filter is the control view by default.
        for property in PROPERTIES.iter().chain(AVAILABLE.iter().map(|(_, p)| p)) {
            let _ = request.AddProperty(*property);
        }
        Ok(request)
    }
}

/// The cache request of a grid's rows: element reads of a row and its cells, with each
/// cell's row and column.
pub fn row_request(automation: &IUIAutomation) -> windows::core::Result<IUIAutomationCacheRequest> {
    let request = element_request(automation)?;
    // SAFETY: COM calls on this thread's MTA objects.
    unsafe {
        let _ = request.AddProperty(UIA_GridItemColumnPropertyId);
        let _ = request.AddProperty(UIA_GridItemRowPropertyId);
        request.SetTreeScope(TreeScope(TreeScope_Element.0 | TreeScope_Children.0))?;
    }
    Ok(request)
}

/// The cache request of value reads: the id, the value and whether it has one.
pub fn value_request(
    automation: &IUIAutomation,
) -> windows::core::Result<IUIAutomationCacheRequest> {
    // SAFETY: COM calls on this thread's MTA objects.
    unsafe {
        let request = automation.CreateCacheRequest()?;
        for property in [
            UIA_RuntimeIdPropertyId,
            UIA_IsValuePatternAvailablePropertyId,
            UIA_ValueValuePropertyId,
        ] {
            let _ = request.AddProperty(property);
        }
        Ok(request)
    }
}

/// The cache request of counting reads: the id alone, of each element and its children in
/// the control view, with no live reference (`AutomationElementMode_None`: nothing later
/// calls on them).
pub fn count_request(
    automation: &IUIAutomation,
) -> windows::core::Result<IUIAutomationCacheRequest> {
    // SAFETY: COM calls on this thread's MTA objects.
    unsafe {
        let request = automation.CreateCacheRequest()?;
        request.AddProperty(UIA_RuntimeIdPropertyId)?;
        request.SetTreeScope(TreeScope(TreeScope_Element.0 | TreeScope_Children.0))?;
        request.SetAutomationElementMode(AutomationElementMode_None)?;
        Ok(request)
    }
}

/// A cached property; unknown when the provider does not support it.
pub fn cached(element: &IUIAutomationElement, property: UIA_PROPERTY_ID) -> Owned {
    // SAFETY: reads the element's cache (no cross-process call).
    Owned(unsafe { element.GetCachedPropertyValueEx(property, true) }.unwrap_or_default())
}

/// The element's `RuntimeId`, from its cache.
pub fn key(element: &IUIAutomationElement) -> RuntimeKey {
    RuntimeKey(
        cached(element, UIA_RuntimeIdPropertyId)
            .i32s()
            .unwrap_or_default(),
    )
}

/// One element as its cache holds it.
pub fn raw(element: &IUIAutomationElement) -> RawElement {
    let get = |property| cached(element, property);
    let string = |property| get(property).string().filter(|s| !s.is_empty());
    let flag = |property| get(property).bool();
    let number = |property| get(property).f64().filter(|n| n.is_finite());
    let patterns: PatternSet = AVAILABLE
        .iter()
        .filter(|(_, property)| flag(*property) == Some(true))
        .map(|(pattern, _)| *pattern)
        .collect();
    let bounds = get(UIA_BoundingRectanglePropertyId);
    RawElement {
        key: key(element),
        control_type: get(UIA_ControlTypePropertyId).i32().unwrap_or(0),
        localized_type: string(UIA_LocalizedControlTypePropertyId),
        aria_role: string(UIA_AriaRolePropertyId),
        name: string(UIA_NamePropertyId).unwrap_or_default(),
        automation_id: string(UIA_AutomationIdPropertyId),
        class_name: string(UIA_ClassNamePropertyId),
        framework: string(UIA_FrameworkIdPropertyId),
        pid: get(UIA_ProcessIdPropertyId).i32().unwrap_or(0) as u32,
        // Set by the worker for frames (`uia.rs`): a window query, not a property.
        content_pid: None,
        hwnd: get(UIA_NativeWindowHandlePropertyId)
            .i32()
            .filter(|h| *h != 0)
            .map(|h| h as u32 as u64),
        bounds: rect(&bounds),
        help_text: string(UIA_HelpTextPropertyId),
        enabled: flag(UIA_IsEnabledPropertyId),
        offscreen: flag(UIA_IsOffscreenPropertyId),
        focused: flag(UIA_HasKeyboardFocusPropertyId),
        focusable: flag(UIA_IsKeyboardFocusablePropertyId),
        password: flag(UIA_IsPasswordPropertyId),
        is_dialog: flag(UIA_IsDialogPropertyId),
        heading_level: get(UIA_HeadingLevelPropertyId)
            .i32()
            .map(|id| id - HeadingLevel_None.0),
        size_of_set: get(UIA_SizeOfSetPropertyId).i32().filter(|n| *n > 0),
        patterns,
        toggle: get(UIA_ToggleToggleStatePropertyId)
            .i32()
            .filter(|_| patterns.has(Pattern::Toggle))
            .map(|state| match state {
                0 => Toggle::Off,
                1 => Toggle::On,
                _ => Toggle::Indeterminate,
            }),
        expansion: get(UIA_ExpandCollapseExpandCollapseStatePropertyId)
            .i32()
            .filter(|_| patterns.has(Pattern::ExpandCollapse))
            .map(|state| match state {
                0 => Expansion::Collapsed,
                1 => Expansion::Expanded,
                2 => Expansion::PartiallyExpanded,
                _ => Expansion::LeafNode,
            }),
        selected: flag(UIA_SelectionItemIsSelectedPropertyId)
            .filter(|_| patterns.has(Pattern::SelectionItem)),
        multiselect: flag(UIA_SelectionCanSelectMultiplePropertyId)
            .filter(|_| patterns.has(Pattern::Selection)),
        read_only: flag(UIA_ValueIsReadOnlyPropertyId).filter(|_| patterns.has(Pattern::Value)),
        range: patterns.has(Pattern::RangeValue).then(|| Range {
            value: number(UIA_RangeValueValuePropertyId).unwrap_or(0.0),
            minimum: number(UIA_RangeValueMinimumPropertyId),
            maximum: number(UIA_RangeValueMaximumPropertyId),
            small_change: number(UIA_RangeValueSmallChangePropertyId),
        }),
        modal: flag(UIA_WindowIsModalPropertyId).filter(|_| patterns.has(Pattern::Window)),
        visual: get(UIA_WindowWindowVisualStatePropertyId)
            .i32()
            .filter(|_| patterns.has(Pattern::Window))
            .map(|state| match state {
                1 => Visual::Maximized,
                2 => Visual::Minimized,
                _ => Visual::Normal,
            }),
        default_action: string(UIA_LegacyIAccessibleDefaultActionPropertyId)
            .filter(|_| patterns.has(Pattern::LegacyIAccessible)),
        grid: match (
            get(UIA_GridRowCountPropertyId).i32(),
            get(UIA_GridColumnCountPropertyId).i32(),
        ) {
            (Some(rows), Some(columns)) if patterns.has(Pattern::Grid) => Some((rows, columns)),
            _ => None,
        },
    }
}

/// `BoundingRectangle` (left, top, width, height in a double array); empty is none.
fn rect(bounds: &Owned) -> Option<Rect> {
    let values = bounds.f64s()?;
    let [x, y, width, height] = values.as_slice() else {
        return None;
    };
    let rect = Rect::new(*x as i32, *y as i32, *width as i32, *height as i32);
    (!rect.is_empty()).then_some(rect)
}

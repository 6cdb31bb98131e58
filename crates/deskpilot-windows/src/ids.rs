//! UI Automation's numeric ids that the pure code needs, as documented by Microsoft
//! (UIAutomationClient.h): control types. They never change; `com/` checks them against the
//! `windows` crate's constants where that crate builds.

/// `UIA_*ControlTypeId`.
pub mod control {
    pub const BUTTON: i32 = 50000;
    pub const CALENDAR: i32 = 50001;
    pub const CHECK_BOX: i32 = 50002;
    pub const COMBO_BOX: i32 = 50003;
    pub const EDIT: i32 = 50004;
    pub const HYPERLINK: i32 = 50005;
    pub const IMAGE: i32 = 50006;
    pub const LIST_ITEM: i32 = 50007;
    pub const LIST: i32 = 50008;
    pub const MENU: i32 = 50009;
    pub const MENU_BAR: i32 = 50010;
    pub const MENU_ITEM: i32 = 50011;
    pub const PROGRESS_BAR: i32 = 50012;
    pub const RADIO_BUTTON: i32 = 50013;
    pub const SCROLL_BAR: i32 = 50014;
    pub const SLIDER: i32 = 50015;
    pub const SPINNER: i32 = 50016;
    pub const STATUS_BAR: i32 = 50017;
    pub const TAB: i32 = 50018;
    pub const TAB_ITEM: i32 = 50019;
    pub const TEXT: i32 = 50020;
    pub const TOOL_BAR: i32 = 50021;
    pub const TOOL_TIP: i32 = 50022;
    pub const TREE: i32 = 50023;
    pub const TREE_ITEM: i32 = 50024;
    pub const CUSTOM: i32 = 50025;
    pub const GROUP: i32 = 50026;
    pub const THUMB: i32 = 50027;
    pub const DATA_GRID: i32 = 50028;
    pub const DATA_ITEM: i32 = 50029;
    pub const DOCUMENT: i32 = 50030;
    pub const SPLIT_BUTTON: i32 = 50031;
    pub const WINDOW: i32 = 50032;
    pub const PANE: i32 = 50033;
    pub const HEADER: i32 = 50034;
    pub const HEADER_ITEM: i32 = 50035;
    pub const TABLE: i32 = 50036;
    pub const TITLE_BAR: i32 = 50037;
    pub const SEPARATOR: i32 = 50038;
    pub const SEMANTIC_ZOOM: i32 = 50039;
    pub const APP_BAR: i32 = 50040;

    /// Each id with its name (`ControlType` without the suffix), for messages and the raw
    /// role of what maps to no role.
    pub const NAMES: &[(i32, &str)] = &[
        (BUTTON, "Button"),
        (CALENDAR, "Calendar"),
        (CHECK_BOX, "CheckBox"),
        (COMBO_BOX, "ComboBox"),
        (EDIT, "Edit"),
        (HYPERLINK, "Hyperlink"),
        (IMAGE, "Image"),
        (LIST_ITEM, "ListItem"),
        (LIST, "List"),
        (MENU, "Menu"),
        (MENU_BAR, "MenuBar"),
        (MENU_ITEM, "MenuItem"),
        (PROGRESS_BAR, "ProgressBar"),
        (RADIO_BUTTON, "RadioButton"),
        (SCROLL_BAR, "ScrollBar"),
        (SLIDER, "Slider"),
        (SPINNER, "Spinner"),
        (STATUS_BAR, "StatusBar"),
        (TAB, "Tab"),
        (TAB_ITEM, "TabItem"),
        (TEXT, "Text"),
        (TOOL_BAR, "ToolBar"),
        (TOOL_TIP, "ToolTip"),
        (TREE, "Tree"),
        (TREE_ITEM, "TreeItem"),
        (CUSTOM, "Custom"),
        (GROUP, "Group"),
        (THUMB, "Thumb"),
        (DATA_GRID, "DataGrid"),
        (DATA_ITEM, "DataItem"),
        (DOCUMENT, "Document"),
        (SPLIT_BUTTON, "SplitButton"),
        (WINDOW, "Window"),
        (PANE, "Pane"),
        (HEADER, "Header"),
        (HEADER_ITEM, "HeaderItem"),
        (TABLE, "Table"),
        (TITLE_BAR, "TitleBar"),
        (SEPARATOR, "Separator"),
        (SEMANTIC_ZOOM, "SemanticZoom"),
        (APP_BAR, "AppBar"),
    ];

    /// The control type's name, `ControlType(n)` for an id UIA does not document.
    pub fn name(id: i32) -> String {
        NAMES.iter().find(|(known, _)| *known == id).map_or_else(
            || format!("ControlType({id})"),
            |(_, name)| (*name).to_owned(),
        )
    }

    /// The id of a control type by name (`Button`), for the fake's text format.
    pub fn by_name(name: &str) -> Option<i32> {
        NAMES.iter().find(|(_, n)| *n == name).map(|(id, _)| *id)
    }
}

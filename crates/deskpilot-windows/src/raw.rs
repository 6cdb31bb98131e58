//! What a UI Automation read returns, in plain Rust: the seam's records. An `Option` is a
//! property the provider did not support (`ReservedNotSupportedValue`): unknown, never a
//! default.

use deskpilot_platform::model::Rect;

/// The control patterns deskpilot reads or uses (`Is*PatternAvailable`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Pattern {
    Invoke,
    Toggle,
    Value,
    RangeValue,
    ExpandCollapse,
    SelectionItem,
    Selection,
    ScrollItem,
    Scroll,
    Text,
    Grid,
    GridItem,
    Table,
    TableItem,
    Window,
    ItemContainer,
    VirtualizedItem,
    LegacyIAccessible,
}

impl Pattern {
    pub const ALL: &'static [Pattern] = &[
        Pattern::Invoke,
        Pattern::Toggle,
        Pattern::Value,
        Pattern::RangeValue,
        Pattern::ExpandCollapse,
        Pattern::SelectionItem,
        Pattern::Selection,
        Pattern::ScrollItem,
        Pattern::Scroll,
        Pattern::Text,
        Pattern::Grid,
        Pattern::GridItem,
        Pattern::Table,
        Pattern::TableItem,
        Pattern::Window,
        Pattern::ItemContainer,
        Pattern::VirtualizedItem,
        Pattern::LegacyIAccessible,
    ];

    /// UIA's name for it (`Invoke` for `InvokePattern`).
    pub fn name(self) -> &'static str {
        match self {
            Pattern::Invoke => "Invoke",
            Pattern::Toggle => "Toggle",
            Pattern::Value => "Value",
            Pattern::RangeValue => "RangeValue",
            Pattern::ExpandCollapse => "ExpandCollapse",
            Pattern::SelectionItem => "SelectionItem",
            Pattern::Selection => "Selection",
            Pattern::ScrollItem => "ScrollItem",
            Pattern::Scroll => "Scroll",
            Pattern::Text => "Text",
            Pattern::Grid => "Grid",
            Pattern::GridItem => "GridItem",
            Pattern::Table => "Table",
            Pattern::TableItem => "TableItem",
            Pattern::Window => "Window",
            Pattern::ItemContainer => "ItemContainer",
            Pattern::VirtualizedItem => "VirtualizedItem",
            Pattern::LegacyIAccessible => "LegacyIAccessible",
        }
    }

    pub fn from_name(name: &str) -> Option<Pattern> {
        Pattern::ALL.iter().copied().find(|p| p.name() == name)
    }
}

/// The patterns an element offers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct PatternSet(u32);

const _: () = assert!(Pattern::ALL.len() <= 32);

impl PatternSet {
    pub fn with(mut self, pattern: Pattern) -> Self {
        self.0 |= 1 << pattern as u8;
        self
    }

    pub fn has(self, pattern: Pattern) -> bool {
        self.0 & (1 << pattern as u8) != 0
    }

    /// The patterns, in `Pattern::ALL`'s order.
    pub fn iter(self) -> impl Iterator<Item = Pattern> {
        Pattern::ALL.iter().copied().filter(move |p| self.has(*p))
    }
}

impl FromIterator<Pattern> for PatternSet {
    fn from_iter<I: IntoIterator<Item = Pattern>>(iter: I) -> Self {
        iter.into_iter()
            .fold(PatternSet::default(), PatternSet::with)
    }
}

/// An element's `RuntimeId`: unique among the elements alive on the desktop at one time.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuntimeKey(pub Vec<i32>);

/// `ToggleState`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Toggle {
    Off,
    On,
    Indeterminate,
}

/// `ExpandCollapseState`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expansion {
    Collapsed,
    Expanded,
    PartiallyExpanded,
    /// A leaf: it neither expands nor collapses.
    LeafNode,
}

/// `WindowVisualState`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visual {
    Normal,
    Maximized,
    Minimized,
}

/// `RangeValue`'s properties.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    pub value: f64,
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
    pub small_change: Option<f64>,
}

/// One element as one cache request reads it: never its value (`UiaSource::values_below`
/// reads values afterwards, where no secret is).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RawElement {
    pub key: RuntimeKey,
    /// `UIA_*ControlTypeId`.
    pub control_type: i32,
    pub localized_type: Option<String>,
    /// `AriaRole` (web content, and providers that set it).
    pub aria_role: Option<String>,
    pub name: String,
    pub automation_id: Option<String>,
    pub class_name: Option<String>,
    /// `FrameworkId`: Win32, WinForm, WPF, XAML, DirectUI, Chrome, Gecko, Qt, ...
    pub framework: Option<String>,
    pub pid: u32,
    /// The process whose content a frame window shows: a UWP app's `Windows.UI.Core.
    /// CoreWindow` child of `ApplicationFrameHost`'s `ApplicationFrameWindow`. The window
    /// is that app's (review D1).
    pub content_pid: Option<u32>,
    /// `NativeWindowHandle`, for elements that are windows of their own.
    pub hwnd: Option<u64>,
    /// `BoundingRectangle`, physical pixels; `None` for an empty one.
    pub bounds: Option<Rect>,
    pub help_text: Option<String>,
    pub enabled: Option<bool>,
    pub offscreen: Option<bool>,
    pub focused: Option<bool>,
    pub focusable: Option<bool>,
    /// `IsPassword`: read with the first pass, so that no value of it is ever asked for.
    pub password: Option<bool>,
    pub is_dialog: Option<bool>,
    pub heading_level: Option<i32>,
    pub size_of_set: Option<i32>,
    pub patterns: PatternSet,
    pub toggle: Option<Toggle>,
    pub expansion: Option<Expansion>,
    pub selected: Option<bool>,
    pub multiselect: Option<bool>,
    pub read_only: Option<bool>,
    pub range: Option<Range>,
    pub modal: Option<bool>,
    pub visual: Option<Visual>,
    /// `LegacyIAccessible.DefaultAction`.
    pub default_action: Option<String>,
    /// `Grid`'s row and column counts.
    pub grid: Option<(i32, i32)>,
}

impl RawElement {
    pub fn has(&self, pattern: Pattern) -> bool {
        self.patterns.has(pattern)
    }

    /// `IsPassword`, unknown counting as no.
    pub fn is_password(&self) -> bool {
        self.password == Some(true)
    }

    /// The process a top-level window belongs to as an app: its content's, else its own.
    pub fn owner(&self) -> u32 {
        self.content_pid.unwrap_or(self.pid)
    }
}

/// The window class of a UWP app's frame (`ApplicationFrameHost.exe`'s) and of the app's own
/// window inside it, whose process is the app's.
pub mod frame {
    pub const FRAME_CLASS: &str = "ApplicationFrameWindow";
    pub const CONTENT_CLASS: &str = "Windows.UI.Core.CoreWindow";
}

/// A process with top-level windows on the desktop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawProcess {
    pub pid: u32,
    /// Its creation time (`FILETIME` as a number): with the pid, an identity a recycled pid
    /// never matches.
    pub started: u64,
    /// The executable's file name (`notepad.exe`).
    pub exe: String,
    /// Its description (the version resource's `FileDescription`), when it has one.
    pub description: Option<String>,
    /// Its rights beside deskpilot's.
    pub rights: Rights,
}

/// A process's rights beside deskpilot's (its token's integrity level).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rights {
    /// At deskpilot's level or below: its tree can be read, its input sent.
    #[default]
    Within,
    /// Above deskpilot's (an elevated app): UIPI hides its tree and drops input sent to it.
    Above,
    /// Its token cannot be read (another user's process, a protected one): treated as above,
    /// and said so.
    Unreadable,
}

impl Rights {
    /// Why deskpilot keeps away from a process with these rights, if it does.
    pub fn refusal(self) -> Option<&'static str> {
        match self {
            Rights::Within => None,
            Rights::Above => Some("runs elevated (a higher integrity level than deskpilot)"),
            Rights::Unreadable => Some(
                "its rights cannot be read (another user's or a protected process): deskpilot keeps away",
            ),
        }
    }
}

/// Why a UI Automation call failed: the `HRESULT`, and where the seam itself gave up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UiaError {
    /// The call failed with this `HRESULT`.
    #[error("HRESULT {:#010x}: {message}", *hresult as u32)]
    Com { hresult: i32, message: String },
    /// The element is not among those the source knows (resolved from a `RuntimeId`).
    #[error("no element with this RuntimeId")]
    Unknown,
    /// The source's worker for this app passed its deadline.
    #[error("the call did not return in time")]
    Timeout,
}

//! Platform-neutral roles. Names follow ARIA where one exists, because models already know them
//! (Playwright's snapshots use them); each backend maps its own roles here with an exhaustive
//! `match`, and keeps the raw platform name of anything that lands on `Unknown`.

use serde::{Deserialize, Serialize};

macro_rules! roles {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal ),* $(,)?) => {
        /// What an element is.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(into = "&'static str", try_from = "String")]
        pub enum Role {
            $( $(#[$doc])* $variant, )*
        }

        impl Role {
            /// Every role, in declaration order.
            pub const ALL: &'static [Role] = &[ $( Role::$variant, )* ];

            /// The role's name as rendered and as written in selectors (`button`, `checkbox`).
            pub fn name(self) -> &'static str {
                match self { $( Role::$variant => $name, )* }
            }

            /// The role with this rendered name.
            pub fn from_name(name: &str) -> Option<Role> {
                match name { $( $name => Some(Role::$variant), )* _ => None }
            }
        }
    };
}

roles! {
    /// A role the backend could not map; the raw platform role is kept on the node.
    Unknown => "unknown",
    Application => "application",
    Window => "window",
    Dialog => "dialog",
    Alert => "alert",
    Notification => "notification",
    /// A container without semantics of its own (AT-SPI filler, panel).
    Generic => "generic",
    Group => "group",
    Section => "section",
    ScrollPane => "scrollpane",
    Viewport => "viewport",
    SplitPane => "splitpane",
    ScrollBar => "scrollbar",
    MenuBar => "menubar",
    Menu => "menu",
    MenuItem => "menuitem",
    MenuItemCheckbox => "menuitemcheckbox",
    MenuItemRadio => "menuitemradio",
    Separator => "separator",
    Toolbar => "toolbar",
    StatusBar => "status",
    Tooltip => "tooltip",
    TitleBar => "titlebar",
    Button => "button",
    ToggleButton => "toggle",
    MenuButton => "menubutton",
    Checkbox => "checkbox",
    Radio => "radio",
    Switch => "switch",
    Link => "link",
    /// A single- or multi-line editable text field.
    TextBox => "textbox",
    /// A password field: its text is never read.
    Password => "password",
    SpinButton => "spinbutton",
    Slider => "slider",
    ProgressBar => "progressbar",
    LevelBar => "meter",
    ComboBox => "combobox",
    List => "list",
    ListBox => "listbox",
    ListItem => "listitem",
    Table => "table",
    TreeTable => "treegrid",
    Tree => "tree",
    TreeItem => "treeitem",
    Row => "row",
    Cell => "cell",
    ColumnHeader => "columnheader",
    RowHeader => "rowheader",
    TabList => "tablist",
    Tab => "tab",
    TabPanel => "tabpanel",
    /// Static text: a label or a run of text.
    Label => "label",
    Heading => "heading",
    Paragraph => "paragraph",
    Caption => "caption",
    Image => "img",
    Canvas => "canvas",
    Document => "document",
    Spreadsheet => "spreadsheet",
    Presentation => "presentation",
    Terminal => "terminal",
    Form => "form",
    Landmark => "landmark",
    Article => "article",
    Header => "header",
    Footer => "footer",
    BlockQuote => "blockquote",
    Math => "math",
    Comment => "comment",
    Calendar => "calendar",
    ColorChooser => "colorchooser",
    FileChooser => "filechooser",
    FontChooser => "fontchooser",
    Audio => "audio",
    Video => "video",
    Timer => "timer",
    Log => "log",
    Marquee => "marquee",
    Definition => "definition",
    Footnote => "footnote",
    Embedded => "embedded",
}

impl Role {
    /// Roles an agent acts on: they get refs in the `interactive` filter.
    pub fn is_interactive(self) -> bool {
        use Role::*;
        matches!(
            self,
            MenuItem
                | MenuItemCheckbox
                | MenuItemRadio
                | Button
                | ToggleButton
                | MenuButton
                | Checkbox
                | Radio
                | Switch
                | Link
                | TextBox
                | Password
                | SpinButton
                | Slider
                | ComboBox
                | ListItem
                | TreeItem
                | Row
                | Cell
                | ColumnHeader
                | RowHeader
                | Tab
                | Calendar
                | ColorChooser
                | FileChooser
                | FontChooser
        )
    }

    /// Containers that hold interactive items and are worth naming in a tree an agent reads
    /// (a list, a table, a dialog), even when they are not acted on themselves.
    pub fn is_landmark(self) -> bool {
        use Role::*;
        matches!(
            self,
            Application
                | Window
                | Dialog
                | Alert
                | MenuBar
                | Menu
                | Toolbar
                | List
                | ListBox
                | Table
                | TreeTable
                | Tree
                | TabList
                | TabPanel
                | Document
                | Spreadsheet
                | Presentation
                | Form
                | Group
        )
    }

    /// Item views: lists, tables and trees, whose items a toolkit makes from its model.
    pub fn is_item_view(self) -> bool {
        use Role::*;
        matches!(self, List | ListBox | Table | TreeTable | Tree)
    }

    /// Roles whose value is a number in a range.
    pub fn is_range(self) -> bool {
        use Role::*;
        matches!(
            self,
            Slider | SpinButton | ProgressBar | ScrollBar | LevelBar
        )
    }

    /// Roles whose content is text an agent reads (kept by the `text` filter).
    pub fn is_text(self) -> bool {
        use Role::*;
        matches!(
            self,
            Label | Heading | Paragraph | Caption | StatusBar | Tooltip | Alert | Notification
        )
    }
}

impl From<Role> for &'static str {
    fn from(role: Role) -> Self {
        role.name()
    }
}

impl TryFrom<String> for Role {
    type Error = String;
    fn try_from(name: String) -> Result<Self, Self::Error> {
        Role::from_name(&name).ok_or_else(|| format!("unknown role {name:?}"))
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &role in Role::ALL {
            assert!(seen.insert(role.name()), "duplicate name {}", role.name());
            assert_eq!(Role::from_name(role.name()), Some(role));
            assert!(
                role.name().chars().all(|c| c.is_ascii_lowercase()),
                "role names are one lowercase word: {}",
                role.name()
            );
        }
        assert_eq!(Role::from_name("no such role"), None);
    }
}

//! AT-SPI roles -> deskpilot roles: an exhaustive match, so a new AT-SPI role fails the build.

use atspi::Role as A;
use deskpilot_platform::model::Role;

/// Maps a raw AT-SPI role number. `editable` disambiguates AT-SPI's `text` role, which toolkits
/// use both for entries (GTK3) and for static text runs. Returns the raw role name as well when
/// the role maps to `Unknown`.
pub fn map_role(raw: u32, editable: bool) -> (Role, Option<String>) {
    let Ok(role) = A::try_from(raw) else {
        return (Role::Unknown, Some(format!("role#{raw}")));
    };
    let mapped = match role {
        A::Invalid | A::Unknown | A::Extended => Role::Unknown,
        A::AcceleratorLabel | A::Label | A::Static => Role::Label,
        A::Alert | A::InfoBar => Role::Alert,
        A::Notification => Role::Notification,
        A::Animation | A::Icon | A::Image | A::ImageMap | A::DesktopIcon | A::CHART => Role::Image,
        A::Arrow => Role::Image,
        A::Calendar | A::DateEditor => Role::Calendar,
        A::Canvas | A::DrawingArea => Role::Canvas,
        A::CheckBox => Role::Checkbox,
        A::CheckMenuItem => Role::MenuItemCheckbox,
        A::RadioMenuItem => Role::MenuItemRadio,
        A::ColorChooser => Role::ColorChooser,
        A::FileChooser => Role::FileChooser,
        A::FontChooser => Role::FontChooser,
        A::ColumnHeader | A::TableColumnHeader => Role::ColumnHeader,
        A::RowHeader | A::TableRowHeader => Role::RowHeader,
        A::ComboBox | A::Autocomplete => Role::ComboBox,
        A::Dial | A::Slider | A::Rating => Role::Slider,
        A::Dialog | A::OptionPane => Role::Dialog,
        A::DirectoryPane | A::Grouping => Role::Group,
        A::Filler
        | A::Panel
        | A::FocusTraversable
        | A::GlassPane
        | A::HTMLContainer
        | A::LayeredPane
        | A::RootPane
        | A::RedundantObject
        | A::Ruler
        | A::Subscript
        | A::Superscript
        | A::ContentDeletion
        | A::ContentInsertion
        | A::Mark
        | A::Suggestion => Role::Generic,
        A::Frame | A::Window | A::InternalFrame | A::DesktopFrame | A::InputMethodWindow => {
            Role::Window
        }
        A::List | A::DescriptionList => Role::List,
        A::ListItem | A::DescriptionTerm => Role::ListItem,
        A::ListBox => Role::ListBox,
        A::Menu | A::PopupMenu => Role::Menu,
        A::MenuBar => Role::MenuBar,
        A::MenuItem | A::TearoffMenuItem => Role::MenuItem,
        A::PageTab => Role::Tab,
        A::PageTabList => Role::TabList,
        A::PasswordText => Role::Password,
        A::ProgressBar => Role::ProgressBar,
        A::LevelBar => Role::LevelBar,
        A::Button => Role::Button,
        A::PushButtonMenu => Role::MenuButton,
        A::ToggleButton => Role::ToggleButton,
        A::RadioButton => Role::Radio,
        A::ScrollBar => Role::ScrollBar,
        A::ScrollPane => Role::ScrollPane,
        A::Viewport => Role::Viewport,
        A::Separator => Role::Separator,
        A::SpinButton => Role::SpinButton,
        A::SplitPane => Role::SplitPane,
        A::StatusBar => Role::StatusBar,
        A::Table => Role::Table,
        A::TreeTable => Role::TreeTable,
        A::Tree => Role::Tree,
        A::TreeItem => Role::TreeItem,
        A::TableRow => Role::Row,
        A::TableCell => Role::Cell,
        A::Terminal => Role::Terminal,
        A::Text if editable => Role::TextBox,
        A::Text => Role::Label,
        A::Entry | A::Editbar => Role::TextBox,
        A::ToolBar => Role::Toolbar,
        A::ToolTip => Role::Tooltip,
        A::TitleBar => Role::TitleBar,
        A::Header => Role::Header,
        A::Footer => Role::Footer,
        A::Paragraph => Role::Paragraph,
        A::Application => Role::Application,
        A::Embedded => Role::Embedded,
        A::Caption => Role::Caption,
        A::DocumentFrame | A::DocumentText | A::DocumentWeb | A::DocumentEmail => Role::Document,
        A::DocumentSpreadsheet => Role::Spreadsheet,
        A::DocumentPresentation => Role::Presentation,
        A::Heading => Role::Heading,
        A::Page | A::Section => Role::Section,
        A::Form => Role::Form,
        A::Link => Role::Link,
        A::Comment => Role::Comment,
        A::BlockQuote => Role::BlockQuote,
        A::Audio => Role::Audio,
        A::Video => Role::Video,
        A::Definition | A::DescriptionValue => Role::Definition,
        A::Article => Role::Article,
        A::Landmark => Role::Landmark,
        A::Log => Role::Log,
        A::Marquee => Role::Marquee,
        A::Math | A::MathFraction | A::MathRoot => Role::Math,
        A::Timer => Role::Timer,
        A::Footnote => Role::Footnote,
    };
    let raw_name = (mapped == Role::Unknown).then(|| role.name().to_owned());
    (mapped, raw_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_roles() {
        let cases = [
            (A::Button, false, Role::Button),
            (A::CheckBox, false, Role::Checkbox),
            (A::PasswordText, true, Role::Password),
            (A::Text, true, Role::TextBox),
            (A::Text, false, Role::Label),
            (A::Entry, true, Role::TextBox),
            (A::Frame, false, Role::Window),
            (A::Filler, false, Role::Generic),
            (A::TableCell, false, Role::Cell),
            (A::TreeTable, false, Role::TreeTable),
            (A::PageTab, false, Role::Tab),
            (A::DocumentText, false, Role::Document),
            (A::DocumentSpreadsheet, false, Role::Spreadsheet),
        ];
        for (atspi, editable, expected) in cases {
            assert_eq!(map_role(atspi as u32, editable).0, expected, "{atspi:?}");
        }
    }

    #[test]
    fn unknown_roles_keep_their_raw_name() {
        assert_eq!(
            map_role(A::Extended as u32, false),
            (Role::Unknown, Some("extended".into()))
        );
        assert_eq!(
            map_role(10_000, false),
            (Role::Unknown, Some("role#10000".into()))
        );
    }
}

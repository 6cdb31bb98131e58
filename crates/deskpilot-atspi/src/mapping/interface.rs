//! AT-SPI interface names -> deskpilot interfaces.

use deskpilot_platform::model::{Interface, Interfaces};

pub fn map_interfaces<S: AsRef<str>>(names: &[S]) -> Interfaces {
    names
        .iter()
        .filter_map(|name| match name.as_ref() {
            "org.a11y.atspi.Action" => Some(Interface::Action),
            "org.a11y.atspi.Component" => Some(Interface::Component),
            "org.a11y.atspi.Text" => Some(Interface::Text),
            "org.a11y.atspi.EditableText" => Some(Interface::EditableText),
            "org.a11y.atspi.Value" => Some(Interface::Value),
            "org.a11y.atspi.Selection" => Some(Interface::Selection),
            "org.a11y.atspi.Table" => Some(Interface::Table),
            "org.a11y.atspi.TableCell" => Some(Interface::TableCell),
            "org.a11y.atspi.Image" => Some(Interface::Image),
            "org.a11y.atspi.Document" => Some(Interface::Document),
            "org.a11y.atspi.Hypertext" => Some(Interface::Hypertext),
            "org.a11y.atspi.Hyperlink" => Some(Interface::Hyperlink),
            "org.a11y.atspi.Collection" => Some(Interface::Collection),
            _ => None,
        })
        .collect()
}

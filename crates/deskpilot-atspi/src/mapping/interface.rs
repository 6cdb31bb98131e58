//! AT-SPI interface names -> deskpilot interfaces.

use deskpilot_platform::model::{Capabilities, Capability};

pub fn map_interfaces<S: AsRef<str>>(names: &[S]) -> Capabilities {
    names
        .iter()
        .filter_map(|name| match name.as_ref() {
            "org.a11y.atspi.Action" => Some(Capability::Actions),
            "org.a11y.atspi.Component" => Some(Capability::Bounds),
            "org.a11y.atspi.Text" => Some(Capability::Text),
            "org.a11y.atspi.EditableText" => Some(Capability::TakesText),
            "org.a11y.atspi.Value" => Some(Capability::Number),
            "org.a11y.atspi.Selection" => Some(Capability::SelectableChildren),
            "org.a11y.atspi.Table" => Some(Capability::Table),
            "org.a11y.atspi.TableCell" => Some(Capability::TableCell),
            "org.a11y.atspi.Image" => Some(Capability::Image),
            "org.a11y.atspi.Document" => Some(Capability::Document),
            "org.a11y.atspi.Hypertext" => Some(Capability::Links),
            "org.a11y.atspi.Hyperlink" => Some(Capability::Link),
            "org.a11y.atspi.Collection" => Some(Capability::Query),
            _ => None,
        })
        .collect()
}

//! What an element can do or tell, in no platform's words: each backend fills these in from
//! its own vocabulary (AT-SPI's interfaces, UIA's patterns). A node's capabilities gate every
//! read and route: never ask an element for what it lacks.

use serde::{Deserialize, Serialize};

/// One capability of an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Capability {
    /// It offers actions the app runs for it (a default one, or named ones).
    Actions,
    /// It has a place on screen that can be read.
    Bounds,
    /// It has text that can be read.
    Text,
    /// Its text can be set outright.
    TakesText,
    /// It has a numeric value within a range, settable unless read-only.
    Number,
    /// Its children can be selected through it.
    SelectableChildren,
    /// It is a table whose cells can be read by row and column.
    Table,
    /// It is a cell of such a table.
    TableCell,
    /// It shows an image.
    Image,
    /// It is a document.
    Document,
    /// Its text holds links.
    Links,
    /// It is a link.
    Link,
    /// It answers a query over its descendants in one call.
    Query,
}

impl Capability {
    pub const ALL: &'static [Capability] = &[
        Capability::Actions,
        Capability::Bounds,
        Capability::Text,
        Capability::TakesText,
        Capability::Number,
        Capability::SelectableChildren,
        Capability::Table,
        Capability::TableCell,
        Capability::Image,
        Capability::Document,
        Capability::Links,
        Capability::Link,
        Capability::Query,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Capability::Actions => "actions",
            Capability::Bounds => "bounds",
            Capability::Text => "text",
            Capability::TakesText => "takes_text",
            Capability::Number => "number",
            Capability::SelectableChildren => "selectable_children",
            Capability::Table => "table",
            Capability::TableCell => "table_cell",
            Capability::Image => "image",
            Capability::Document => "document",
            Capability::Links => "links",
            Capability::Link => "link",
            Capability::Query => "query",
        }
    }

    /// The name selectors took before capabilities (`[interface=editable_text]`), kept as an
    /// alias (docs/selectors.md).
    pub fn alias(self) -> &'static str {
        match self {
            Capability::Actions => "action",
            Capability::Bounds => "component",
            Capability::Text => "text",
            Capability::TakesText => "editable_text",
            Capability::Number => "value",
            Capability::SelectableChildren => "selection",
            Capability::Table => "table",
            Capability::TableCell => "table_cell",
            Capability::Image => "image",
            Capability::Document => "document",
            Capability::Links => "hypertext",
            Capability::Link => "hyperlink",
            Capability::Query => "collection",
        }
    }

    /// The capability by its name or its alias.
    pub fn from_name(name: &str) -> Option<Capability> {
        Capability::ALL
            .iter()
            .copied()
            .find(|c| c.name() == name || c.alias() == name)
    }
}

/// A set of capabilities; as JSON, the list of their names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "Vec<Capability>", from = "Vec<Capability>")]
pub struct Capabilities(u16);

impl From<Capabilities> for Vec<Capability> {
    fn from(set: Capabilities) -> Self {
        set.iter().collect()
    }
}

impl From<Vec<Capability>> for Capabilities {
    fn from(list: Vec<Capability>) -> Self {
        list.into_iter().collect()
    }
}

impl Capabilities {
    pub fn contains(self, capability: Capability) -> bool {
        self.0 & (1 << capability as u8) != 0
    }

    pub fn remove(&mut self, capability: Capability) {
        self.0 &= !(1 << capability as u16);
    }

    pub fn insert(&mut self, capability: Capability) {
        self.0 |= 1 << capability as u8;
    }

    pub fn iter(self) -> impl Iterator<Item = Capability> {
        Capability::ALL
            .iter()
            .copied()
            .filter(move |c| self.contains(*c))
    }
}

impl FromIterator<Capability> for Capabilities {
    fn from_iter<I: IntoIterator<Item = Capability>>(iter: I) -> Self {
        let mut set = Capabilities::default();
        for capability in iter {
            set.insert(capability);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::Capability;

    #[test]
    fn every_capability_is_found_by_its_name_and_its_alias() {
        for c in Capability::ALL {
            assert_eq!(Capability::from_name(c.name()), Some(*c));
            assert_eq!(Capability::from_name(c.alias()), Some(*c));
        }
        assert_eq!(
            Capability::from_name("editable_text"),
            Some(Capability::TakesText)
        );
        assert_eq!(Capability::from_name("pattern"), None);
    }
}

//! What an element can do or tell, by platform-neutral interface (AT-SPI's interfaces, UIA's
//! patterns). A node's interfaces gate every read: never ask an element for what it lacks.

use serde::{Deserialize, Serialize};

/// One interface of an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Interface {
    Action,
    Component,
    Text,
    EditableText,
    Value,
    Selection,
    Table,
    TableCell,
    Image,
    Document,
    Hypertext,
    Hyperlink,
    Collection,
}

impl Interface {
    pub const ALL: &'static [Interface] = &[
        Interface::Action,
        Interface::Component,
        Interface::Text,
        Interface::EditableText,
        Interface::Value,
        Interface::Selection,
        Interface::Table,
        Interface::TableCell,
        Interface::Image,
        Interface::Document,
        Interface::Hypertext,
        Interface::Hyperlink,
        Interface::Collection,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Interface::Action => "action",
            Interface::Component => "component",
            Interface::Text => "text",
            Interface::EditableText => "editable_text",
            Interface::Value => "value",
            Interface::Selection => "selection",
            Interface::Table => "table",
            Interface::TableCell => "table_cell",
            Interface::Image => "image",
            Interface::Document => "document",
            Interface::Hypertext => "hypertext",
            Interface::Hyperlink => "hyperlink",
            Interface::Collection => "collection",
        }
    }

    pub fn from_name(name: &str) -> Option<Interface> {
        Interface::ALL.iter().copied().find(|i| i.name() == name)
    }
}

/// A set of interfaces; as JSON, the list of their names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "Vec<Interface>", from = "Vec<Interface>")]
pub struct Interfaces(u16);

impl From<Interfaces> for Vec<Interface> {
    fn from(set: Interfaces) -> Self {
        set.iter().collect()
    }
}

impl From<Vec<Interface>> for Interfaces {
    fn from(list: Vec<Interface>) -> Self {
        list.into_iter().collect()
    }
}

impl Interfaces {
    pub fn contains(self, interface: Interface) -> bool {
        self.0 & (1 << interface as u8) != 0
    }

    pub fn remove(&mut self, interface: Interface) {
        self.0 &= !(1 << interface as u16);
    }

    pub fn insert(&mut self, interface: Interface) {
        self.0 |= 1 << interface as u8;
    }

    pub fn iter(self) -> impl Iterator<Item = Interface> {
        Interface::ALL
            .iter()
            .copied()
            .filter(move |i| self.contains(*i))
    }
}

impl FromIterator<Interface> for Interfaces {
    fn from_iter<I: IntoIterator<Item = Interface>>(iter: I) -> Self {
        let mut set = Interfaces::default();
        for interface in iter {
            set.insert(interface);
        }
        set
    }
}

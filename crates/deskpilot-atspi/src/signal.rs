//! An AT-SPI object event's body, in each form the bridges send, and what an event announces:
//! the text a `TextChanged` inserted, or the name a `PropertyChange` gave.

use std::collections::HashMap;

use zbus::zvariant::{OwnedObjectPath, OwnedValue};

/// The longest announcement kept, in characters (a document loaded is one long insert).
const SAID: usize = 256;

/// An event's kind (`focused`, `insert`, `accessible-name`), its two numbers and its datum.
pub fn body(message: &zbus::Message) -> Option<(String, i32, i32, OwnedValue)> {
    let body = message.body();
    // AT-SPI's body (`siiva{sv}`), the older one without properties, and Qt 5's (`siiv(so)`,
    // the sender's application last).
    body.deserialize::<(String, i32, i32, OwnedValue, HashMap<String, OwnedValue>)>()
        .map(|b| (b.0, b.1, b.2, b.3))
        .or_else(|_| body.deserialize::<(String, i32, i32, OwnedValue)>())
        .or_else(|_| {
            body.deserialize::<(String, i32, i32, OwnedValue, (String, OwnedObjectPath))>()
                .map(|b| (b.0, b.1, b.2, b.3))
        })
        .ok()
}

/// What the event announces its object now shows: the text an insert put in, or a new name;
/// at most `SAID` characters of it.
pub fn announcement(message: &zbus::Message) -> Option<String> {
    let member = message.header().member()?.as_str().to_owned();
    let (kind, _, _, datum) = body(message)?;
    let announces = match member.as_str() {
        "TextChanged" => kind.starts_with("insert"),
        "PropertyChange" => kind == "accessible-name",
        _ => false,
    };
    if !announces {
        return None;
    }
    let said = String::try_from(datum).ok()?;
    (!said.is_empty()).then(|| said.chars().take(SAID).collect())
}

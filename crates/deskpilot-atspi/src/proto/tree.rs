//! Reading the tree: an element's identity (role, states, interfaces, name, properties),
//! its neighbours (children, parent, labels), geometry, and the registry's and applications'
//! own properties.

use std::collections::HashMap;

use deskpilot_platform::model::ElementId;
use serde::de::DeserializeOwned;
use zbus::zvariant::{OwnedObjectPath, OwnedValue};

use super::*;

impl Proto {
    pub async fn role(&self, id: &ElementId) -> zbus::Result<u32> {
        self.call(id, ACCESSIBLE, "GetRole", &()).await
    }

    /// The raw state bits (two u32 words, low word first).
    pub async fn state(&self, id: &ElementId) -> zbus::Result<u64> {
        let words: Vec<u32> = self.call(id, ACCESSIBLE, "GetState", &()).await?;
        Ok(words
            .iter()
            .take(2)
            .enumerate()
            .fold(0, |bits, (i, w)| bits | (u64::from(*w) << (32 * i))))
    }

    pub async fn interfaces(&self, id: &ElementId) -> zbus::Result<Vec<String>> {
        self.call(id, ACCESSIBLE, "GetInterfaces", &()).await
    }

    /// Name, Description, ChildCount, AccessibleId and Parent: in one `GetAll` where the
    /// app's bridge supports it (`bulk`), else one `Get` each, all in flight at once. Qt 5.15's
    /// bridge crashes the app on `GetAll` for any object but the root, so only bridges known to
    /// handle it get it.
    pub async fn accessible_props(&self, id: &ElementId, bulk: bool) -> zbus::Result<Props> {
        if bulk {
            return self.call(id, PROPERTIES, "GetAll", &(ACCESSIBLE,)).await;
        }
        let get = |name: &'static str| async move {
            let value: zbus::Result<OwnedValue> =
                self.call(id, PROPERTIES, "Get", &(ACCESSIBLE, name)).await;
            (name, value)
        };
        let (name, description, child_count, accessible_id, parent) = tokio::join!(
            get("Name"),
            get("Description"),
            get("ChildCount"),
            get("AccessibleId"),
            get("Parent"),
        );
        let mut props = Props::new();
        // Name and ChildCount are required; the rest may be missing on older bridges.
        for (key, value) in [name, child_count] {
            props.insert(key.to_owned(), value?);
        }
        for (key, value) in [description, accessible_id, parent] {
            if let Ok(value) = value {
                props.insert(key.to_owned(), value);
            }
        }
        Ok(props)
    }

    pub async fn children(&self, id: &ElementId) -> zbus::Result<Vec<ElementId>> {
        let refs: Vec<(String, OwnedObjectPath)> =
            self.call(id, ACCESSIBLE, "GetChildren", &()).await?;
        // A null reference names no child.
        let real =
            |(app, path): &(String, OwnedObjectPath)| !app.is_empty() && path.as_str() != NULL_PATH;
        Ok(refs.into_iter().filter(real).map(to_id).collect())
    }

    /// The element's child at `index` (`None` where it names none).
    pub async fn child_at_index(
        &self,
        id: &ElementId,
        index: i32,
    ) -> zbus::Result<Option<ElementId>> {
        let (app, path): (String, OwnedObjectPath) = self
            .call(id, ACCESSIBLE, "GetChildAtIndex", &(index,))
            .await?;
        Ok((!app.is_empty() && path.as_str() != NULL_PATH)
            .then(|| ElementId::new(app, path.as_str())))
    }

    /// The elements that label this one (LABELLED_BY relation targets).
    pub async fn labelled_by(&self, id: &ElementId) -> zbus::Result<Vec<ElementId>> {
        let relations: Vec<(u32, Vec<(String, OwnedObjectPath)>)> =
            self.call(id, ACCESSIBLE, "GetRelationSet", &()).await?;
        Ok(relations
            .into_iter()
            .filter(|(kind, _)| *kind == atspi::RelationType::LabelledBy as u32)
            .flat_map(|(_, targets)| targets.into_iter().map(to_id))
            .collect())
    }

    /// The element's parent (`None` at the top).
    pub async fn parent(&self, id: &ElementId) -> zbus::Result<Option<ElementId>> {
        let value: OwnedValue = self
            .call(id, PROPERTIES, "Get", &(ACCESSIBLE, "Parent"))
            .await?;
        let (app, path) = <(String, OwnedObjectPath)>::try_from(value)?;
        Ok((!app.is_empty() && path.as_str() != NULL_PATH)
            .then(|| ElementId::new(app, path.as_str())))
    }

    /// The element's attributes (toolkit-specific key/value pairs).
    pub async fn attributes(&self, id: &ElementId) -> zbus::Result<HashMap<String, String>> {
        self.call(id, ACCESSIBLE, "GetAttributes", &()).await
    }

    /// The child of `id` at screen point (x, y), if any (AT-SPI answers a null ref for none).
    pub async fn accessible_at_point(
        &self,
        id: &ElementId,
        x: i32,
        y: i32,
        window_relative: bool,
    ) -> zbus::Result<Option<ElementId>> {
        // GTK 4.8 takes and gives window-relative coordinates whatever is asked.
        let coord_type: u32 = if window_relative {
            1
        } else {
            COORD_TYPE_SCREEN
        };
        let (app, path): (String, OwnedObjectPath) = self
            .call(id, COMPONENT, "GetAccessibleAtPoint", &(x, y, coord_type))
            .await?;
        Ok((!app.is_empty() && path.as_str() != NULL_PATH)
            .then(|| ElementId::new(app, path.as_str())))
    }

    /// The number of rows and columns a table reports.
    pub async fn table_size(&self, id: &ElementId) -> zbus::Result<(i32, i32)> {
        let get = |name: &'static str| async move {
            let v: OwnedValue = self.call(id, PROPERTIES, "Get", &(TABLE, name)).await?;
            i32::try_from(v).map_err(zbus::Error::from)
        };
        let (rows, columns) = tokio::join!(get("NRows"), get("NColumns"));
        Ok((rows?, columns?))
    }

    /// The header object of a column, if the table has one.
    pub async fn column_header(
        &self,
        id: &ElementId,
        column: i32,
    ) -> zbus::Result<Option<ElementId>> {
        let (app, path): (String, OwnedObjectPath) =
            self.call(id, TABLE, "GetColumnHeader", &(column,)).await?;
        Ok((!app.is_empty() && path.as_str() != NULL_PATH)
            .then(|| ElementId::new(app, path.as_str())))
    }

    /// The text description of a column (tables without header objects).
    pub async fn column_description(&self, id: &ElementId, column: i32) -> zbus::Result<String> {
        self.call(id, TABLE, "GetColumnDescription", &(column,))
            .await
    }

    /// The cell at (row, column).
    pub async fn cell_at(
        &self,
        id: &ElementId,
        row: i32,
        column: i32,
    ) -> zbus::Result<Option<ElementId>> {
        let (app, path): (String, OwnedObjectPath) = self
            .call(id, TABLE, "GetAccessibleAt", &(row, column))
            .await?;
        Ok((!app.is_empty() && path.as_str() != NULL_PATH)
            .then(|| ElementId::new(app, path.as_str())))
    }

    /// The toolkit's id for the element ("" when unset).
    pub async fn accessible_id(&self, id: &ElementId) -> zbus::Result<String> {
        let value: OwnedValue = self
            .call(id, PROPERTIES, "Get", &(ACCESSIBLE, "AccessibleId"))
            .await?;
        String::try_from(value).map_err(zbus::Error::from)
    }

    /// The number of children the element reports.
    pub async fn child_count(&self, id: &ElementId) -> zbus::Result<i32> {
        let value: OwnedValue = self
            .call(id, PROPERTIES, "Get", &(ACCESSIBLE, "ChildCount"))
            .await?;
        i32::try_from(value).map_err(zbus::Error::from)
    }

    /// The accessible name alone.
    pub async fn name(&self, id: &ElementId) -> zbus::Result<String> {
        let value: OwnedValue = self
            .call(id, PROPERTIES, "Get", &(ACCESSIBLE, "Name"))
            .await?;
        String::try_from(value).map_err(zbus::Error::from)
    }

    /// (x, y, width, height) in screen coordinates (GTK 4.8: window-relative).
    pub async fn extents(&self, id: &ElementId) -> zbus::Result<(i32, i32, i32, i32)> {
        self.call(id, COMPONENT, "GetExtents", &(COORD_TYPE_SCREEN,))
            .await
    }

    /// (x, y, width, height) relative to the element's own surface (GTK 3 on Wayland: a
    /// popup menu's item, relative to the popup).
    pub async fn window_extents(&self, id: &ElementId) -> zbus::Result<(i32, i32, i32, i32)> {
        self.call(id, COMPONENT, "GetExtents", &(COORD_TYPE_WINDOW,))
            .await
    }

    /// One property of the Application interface (atk-bridge answers `Get` but not `GetAll`).
    pub async fn application_prop(&self, id: &ElementId, name: &str) -> zbus::Result<String> {
        let value: OwnedValue = self
            .call(id, PROPERTIES, "Get", &(APPLICATION, name))
            .await?;
        String::try_from(value).map_err(zbus::Error::from)
    }

    /// Every cached item of an app (`Cache.GetItems`, at-spi2 2.46 shape).
    pub async fn cache_items<T>(&self, app: &str) -> zbus::Result<T>
    where
        T: DeserializeOwned + zbus::zvariant::Type,
    {
        self.call(&ElementId::new(app, CACHE_PATH), CACHE, "GetItems", &())
            .await
    }

    /// The app's peer-to-peer address (`Application.GetApplicationBusAddress`); asking also
    /// makes GTK3-family apps expose their cache.
    pub async fn application_bus_address(&self, id: &ElementId) -> zbus::Result<String> {
        self.call(id, APPLICATION, "GetApplicationBusAddress", &())
            .await
    }

    /// The applications registered with the registry (bus name + root path).
    /// Each app once: one that embedded itself twice is listed twice by the registry.
    pub async fn registry_children(&self) -> zbus::Result<Vec<ElementId>> {
        let mut roots = self.children(&ElementId::new(REGISTRY, ROOT_PATH)).await?;
        let mut seen = std::collections::HashSet::new();
        roots.retain(|root| seen.insert(root.app.clone()));
        Ok(roots)
    }

    /// The pid behind a bus name (`Application.Id` is not the pid).
    pub async fn pid(&self, bus_name: &str) -> zbus::Result<u32> {
        let reply = self
            .conn
            .call_method(
                Some("org.freedesktop.DBus"),
                "/org/freedesktop/DBus",
                Some("org.freedesktop.DBus"),
                "GetConnectionUnixProcessID",
                &(bus_name,),
            )
            .await?;
        reply.body().deserialize()
    }
}

//! Reading what an element holds: its actions' names, its value, its text and caret, its
//! table's cells.

use deskpilot_platform::model::ElementId;
use zbus::zvariant::OwnedValue;

use super::*;

/// How an app's action names may be asked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ActionList {
    /// `Action.GetActions`, one call for all (GTK, LibreOffice, Chromium, Qt).
    Bulk,
    /// `NActions`, then `GetName` per index. Gecko's ATK callbacks return every action string
    /// from one static buffer, so atk-bridge's `GetActions` (which fetches name, description and
    /// key binding before appending them) sends a freed pointer when the buffer grows: libdbus
    /// aborts Firefox on the invalid UTF-8. An unknown bridge is not trusted with it either.
    #[default]
    ByIndex,
}

impl Proto {
    /// Action names, as the toolkit names them (`click`, `press`), never localized.
    /// `GetActions` gives localized names (GTK3: "Click"); the real name comes from `GetName`.
    /// Within one app a localized name always stands for the same real name, so each distinct
    /// localized name is asked once per app and remembered: Writer's 1400 actionable nodes
    /// then cost 1400 calls instead of 2800. Where `GetActions` may not be asked
    /// (`ActionList::ByIndex`: Gecko), `NActions` and one `GetName` per index. An index whose
    /// name cannot be read (GTK 4.8 labels claim 8 actions and have none) is left out.
    pub async fn action_names(
        &self,
        id: &ElementId,
        listing: ActionList,
    ) -> zbus::Result<Vec<String>> {
        let localized: Vec<String> = match listing {
            ActionList::Bulk => {
                let actions: Vec<(String, String, String)> =
                    self.call(id, ACTION, "GetActions", &()).await?;
                actions.into_iter().map(|(name, _, _)| name).collect()
            }
            ActionList::ByIndex => {
                let count = self.action_count(id).await?;
                vec![String::new(); count.clamp(0, 64) as usize]
            }
        };
        let names = futures_util::future::join_all(localized.iter().take(64).enumerate().map(
            |(i, localized)| async move {
                let memo = !localized.is_empty() && !localized.contains(';');
                if memo && let Some(name) = self.action_name(&id.app, localized) {
                    return Ok(name);
                }
                let name: String = self.call(id, ACTION, "GetName", &(i as i32,)).await?;
                if memo && !name.is_empty() {
                    self.learn_action_name(&id.app, localized, &name);
                }
                Ok::<_, zbus::Error>(name)
            },
        ))
        .await;
        let mut out = Vec::with_capacity(names.len());
        for name in names {
            match name {
                Ok(name) if !name.is_empty() => out.push(name),
                Ok(_) => {}
                Err(e) => match crate::error::classify(&e) {
                    crate::error::Failure::Timeout | crate::error::Failure::AppGone => {
                        return Err(e);
                    }
                    _ => {}
                },
            }
        }
        Ok(out)
    }

    /// The number of actions the element offers (`Action.NActions`).
    pub async fn action_count(&self, id: &ElementId) -> zbus::Result<i32> {
        let value: OwnedValue = self
            .call(id, PROPERTIES, "Get", &(ACTION, "NActions"))
            .await?;
        i32::try_from(value).map_err(zbus::Error::from)
    }

    /// CurrentValue, and MinimumValue, MaximumValue and MinimumIncrement where the app can
    /// say: one `Get` each, all in flight at once. Never `GetAll`: ATK's bridge leaves a half
    /// written reply when one getter fails, and libdbus then aborts the app (Chromium 156's
    /// sliders fail MinimumValue: a `GetAll` on one killed the browser).
    pub async fn value_props(&self, id: &ElementId) -> zbus::Result<Props> {
        let get = |name: &'static str| async move {
            let value: zbus::Result<OwnedValue> =
                self.call(id, PROPERTIES, "Get", &(VALUE, name)).await;
            (name.to_owned(), value)
        };
        let (current, min, max, step) = tokio::join!(
            get("CurrentValue"),
            get("MinimumValue"),
            get("MaximumValue"),
            get("MinimumIncrement"),
        );
        let mut props = Props::new();
        props.insert(current.0, current.1?);
        for (name, value) in [min, max, step] {
            match value {
                Ok(value) => {
                    props.insert(name, value);
                }
                Err(e) if crate::error::is_unreachable(&e) => return Err(e),
                Err(_) => {}
            }
        }
        Ok(props)
    }

    pub async fn character_count(&self, id: &ElementId) -> zbus::Result<i32> {
        let value: OwnedValue = self
            .call(id, PROPERTIES, "Get", &(TEXT, "CharacterCount"))
            .await?;
        i32::try_from(value).map_err(zbus::Error::from)
    }

    /// The caret's character offset.
    pub async fn caret_offset(&self, id: &ElementId) -> zbus::Result<i32> {
        let value: OwnedValue = self
            .call(id, PROPERTIES, "Get", &(TEXT, "CaretOffset"))
            .await?;
        i32::try_from(value).map_err(zbus::Error::from)
    }

    /// The first selection (start, end), when there is one.
    pub async fn selection(&self, id: &ElementId) -> zbus::Result<Option<(i32, i32)>> {
        let count: i32 = self.call(id, TEXT, "GetNSelections", &()).await?;
        if count < 1 {
            return Ok(None);
        }
        let (start, end): (i32, i32) = self.call(id, TEXT, "GetSelection", &(0i32,)).await?;
        Ok((end > start).then_some((start, end)))
    }

    /// Text between two character offsets (explicit end: GTK4 answers `GetText(0, -1)` with "").
    pub async fn text(&self, id: &ElementId, start: i32, end: i32) -> zbus::Result<String> {
        self.call(id, TEXT, "GetText", &(start, end)).await
    }
}

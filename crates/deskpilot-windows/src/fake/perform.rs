//! What the fake's elements do when a pattern is called: the effects a real provider would
//! have (a toggle flips, a value is set, a selection moves), or none (`inert`), or a call that
//! does not return (`blocks`: its handler opened a modal dialog).

use deskpilot_platform::Performed;

use super::{Element, FakeUia, com};
use crate::error::hresult;
use crate::mapping::routes::PatternOp;
use crate::raw::{Expansion, Pattern, RuntimeKey, Toggle, UiaError};

impl FakeUia {
    /// Does `op` on `key` as its provider would.
    pub(super) fn apply(&self, key: &RuntimeKey, op: &PatternOp) -> Result<Performed, UiaError> {
        let element = &self.elements[key];
        let mut w = element.w();
        // Any pattern call runs the app's handler, which may open a modal dialog; the source
        // answers it `Running` after its grace (`com/act.rs`).
        let blocks = w.blocks;
        let needs = |pattern: Pattern| {
            if w.raw.has(pattern) {
                Ok(())
            } else {
                Err(com(hresult::UIA_E_NOTSUPPORTED))
            }
        };
        match op {
            _ if w.inert => return Ok(Performed::Answered),
            PatternOp::Invoke => {
                needs(Pattern::Invoke)?;
                if let Some(name) = w.rename.clone() {
                    w.raw.name = name;
                }
            }
            PatternOp::DefaultAction(_) => {
                needs(Pattern::LegacyIAccessible)?;
                if w.raw.has(Pattern::Toggle) {
                    w.raw.toggle = Some(flipped(w.raw.toggle));
                } else if let Some(name) = w.rename.clone() {
                    w.raw.name = name;
                }
            }
            PatternOp::Toggle => {
                needs(Pattern::Toggle)?;
                w.raw.toggle = Some(flipped(w.raw.toggle));
            }
            PatternOp::Expand | PatternOp::Collapse => {
                needs(Pattern::ExpandCollapse)?;
                w.raw.expansion = Some(match op {
                    PatternOp::Expand => Expansion::Expanded,
                    _ => Expansion::Collapsed,
                });
            }
            PatternOp::SetValue(text) => {
                needs(Pattern::Value)?;
                if w.raw.read_only == Some(true) || w.raw.enabled == Some(false) {
                    return Err(com(hresult::UIA_E_ELEMENTNOTENABLED));
                }
                w.value = Some(text.expose().to_owned());
            }
            PatternOp::SetRange(n) => {
                needs(Pattern::RangeValue)?;
                let range = w.raw.range.as_mut().ok_or(com(hresult::E_INVALIDARG))?;
                let below = range.minimum.is_some_and(|min| *n < min);
                let above = range.maximum.is_some_and(|max| *n > max);
                if below || above {
                    return Err(com(hresult::E_INVALIDARG));
                }
                range.value = *n;
            }
            PatternOp::Focus => {
                let pid = w.raw.pid;
                drop(w);
                for other in self.elements.values() {
                    let mut o = other.w();
                    if o.raw.pid == pid {
                        o.raw.focused = Some(false);
                    }
                }
                element.w().raw.focused = Some(true);
            }
            PatternOp::CaretToEnd => {
                needs(Pattern::Text)?;
                w.caret = Some(w.value.as_deref().map_or(0, |v| v.chars().count() as u32));
                w.selection = None;
            }
            PatternOp::ScrollIntoView => {
                needs(Pattern::ScrollItem)?;
                w.raw.offscreen = Some(false);
            }
            PatternOp::Select | PatternOp::AddToSelection | PatternOp::RemoveFromSelection => {
                needs(Pattern::SelectionItem)?;
                drop(w);
                if *op == PatternOp::Select {
                    self.deselect_siblings(element);
                }
                element.w().raw.selected = Some(*op != PatternOp::RemoveFromSelection);
            }
        }
        if blocks {
            // It did its work (the dialog opened), and its call has not returned.
            return Ok(Performed::Running {
                why: "the call has not returned: the app may be running a dialog it opened".into(),
            });
        }
        Ok(Performed::Answered)
    }

    /// The value an element named `name` holds now, read from the fake's own state (an
    /// oracle for tests, never through the seam).
    pub fn value_now(&self, name: &str) -> Option<String> {
        self.elements
            .values()
            .map(|e| e.w())
            .find(|w| w.raw.name == name)
            .and_then(|w| w.value.clone())
    }

    fn deselect_siblings(&self, element: &Element) {
        let Some(parent) = &element.parent else {
            return;
        };
        for sibling in &self.elements[parent].children {
            let mut s = self.elements[sibling].w();
            if s.raw.selected.is_some() {
                s.raw.selected = Some(false);
            }
        }
    }
}

fn flipped(toggle: Option<Toggle>) -> Toggle {
    match toggle {
        Some(Toggle::On) => Toggle::Off,
        _ => Toggle::On,
    }
}

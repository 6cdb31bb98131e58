//! `FakeUia`: a `UiaSource` over trees written as text (`parse.rs`), with faults: slow
//! elements and processes, elements gone once read, failing `HRESULT`s, elevated processes.
//! It counts every call and logs every value it hands out, so tests can check what a read
//! cost and that no secret's value was ever requested.

mod keyboard;
mod parse;
mod perform;
mod windows;
mod worker;

pub use keyboard::FakeKeyboards;
pub use windows::FakeWindows;

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::Duration;

use async_trait::async_trait;

use crate::error::hresult;
use crate::ids::control;
use crate::raw::{Pattern, RawElement, RawProcess, RuntimeKey, UiaError};
use crate::source::{Below, RawGrid, TextRead, UiaSource};

struct Element {
    /// What a perform changes (states, values) with the rest of the element as written.
    state: Mutex<parse::Written>,
    parent: Option<RuntimeKey>,
    children: Vec<RuntimeKey>,
}

/// The fake UI Automation of a desktop.
pub struct FakeUia {
    processes: Vec<(RawProcess, bool)>,
    /// Top-level windows, in z-order (the first on top).
    top: Vec<RuntimeKey>,
    elements: HashMap<RuntimeKey, Element>,
    seen: Mutex<HashSet<RuntimeKey>>,
    calls: Mutex<HashMap<&'static str, u64>>,
    values: Mutex<Vec<RuntimeKey>>,
    performed: Mutex<Vec<(RuntimeKey, String)>>,
    workers: worker::Workers,
    ended: Mutex<HashSet<u32>>,
    log: Mutex<Option<std::sync::Arc<crate::events::EventLog>>>,
}

impl Element {
    fn w(&self) -> std::sync::MutexGuard<'_, parse::Written> {
        self.state.lock().unwrap()
    }
}

impl FakeUia {
    /// A desktop from its text (see `parse.rs`); panics on a malformed one.
    pub fn new(text: &str) -> Self {
        let processes = parse::parse(text).unwrap_or_else(|e| panic!("fake UIA text: {e}"));
        let mut fake = FakeUia {
            processes: Vec::new(),
            top: Vec::new(),
            elements: HashMap::new(),
            seen: Mutex::default(),
            calls: Mutex::default(),
            values: Mutex::default(),
            performed: Mutex::default(),
            workers: worker::Workers::default(),
            ended: Mutex::default(),
            log: Mutex::default(),
        };
        for process in processes {
            if process.slow {
                fake.workers
                    .frozen
                    .lock()
                    .unwrap()
                    .insert(process.process.pid);
            }
            let mut stack: Vec<RuntimeKey> = Vec::new();
            for element in process.elements {
                stack.truncate(element.depth);
                let key = element.raw.key.clone();
                let parent = stack.last().cloned();
                match &parent {
                    Some(p) => fake.elements.get_mut(p).unwrap().children.push(key.clone()),
                    None => fake.top.push(key.clone()),
                }
                fake.elements.insert(
                    key.clone(),
                    Element {
                        state: Mutex::new(element),
                        parent,
                        children: Vec::new(),
                    },
                );
                stack.push(key);
            }
            fake.processes.push((process.process, process.slow));
        }
        for key in fake.top.clone() {
            let content = fake.hosted_content(&key);
            fake.elements[&key].w().raw.content_pid = content;
        }
        fake
    }

    /// The process of a frame window's content, as user32 finds it: the frame's child
    /// window of the content's class (`FindWindowEx`), its process.
    fn hosted_content(&self, window: &RuntimeKey) -> Option<u32> {
        use crate::raw::frame::{CONTENT_CLASS, FRAME_CLASS};
        let element = &self.elements[window];
        if element.w().raw.class_name.as_deref() != Some(FRAME_CLASS) {
            return None;
        }
        element.children.iter().find_map(|k| {
            let raw = &self.elements[k].w().raw;
            let content = raw.class_name.as_deref() == Some(CONTENT_CLASS) && raw.hwnd.is_some();
            content.then_some(raw.pid)
        })
    }

    /// The app (process) an element belongs to: its top-level window's owner.
    fn app_of(&self, key: &RuntimeKey) -> Option<u32> {
        let mut at = key;
        while let Some(parent) = &self.elements.get(at)?.parent {
            at = parent;
        }
        Some(self.elements[at].w().raw.owner())
    }

    /// How many calls of `method` (`children`, `element`, ...) were made.
    pub fn calls(&self, method: &str) -> u64 {
        self.calls.lock().unwrap().get(method).copied().unwrap_or(0)
    }

    /// The elements whose value (or text) was handed out, in order.
    pub fn value_requests(&self) -> Vec<RuntimeKey> {
        self.values.lock().unwrap().clone()
    }

    /// The pattern calls made, each with the element it was made on, in order.
    pub fn performed(&self) -> Vec<(RuntimeKey, String)> {
        self.performed.lock().unwrap().clone()
    }

    /// Freezes or thaws a process: a frozen one's calls do not return (its worker ends each
    /// after UIA's transaction timeout).
    pub fn freeze(&self, pid: u32, frozen: bool) {
        let mut set = self.workers.frozen.lock().unwrap();
        if frozen {
            set.insert(pid);
        } else {
            set.remove(&pid);
        }
    }

    /// Each call to `pid` takes `latency` from now on, on its worker, one call at a time.
    pub fn slow_down(&self, pid: u32, latency: Duration) {
        self.workers.set_latency(pid, latency);
    }

    /// Each property a call to `pid` reads costs `cost` on its worker (with `slow_down`, a
    /// medium app's cost per call and per property).
    pub fn cost_per_property(&self, pid: u32, cost: Duration) {
        self.workers.set_property_cost(pid, cost);
    }

    /// Ends a process: its windows leave the desktop, its elements answer nothing.
    pub fn end(&self, pid: u32) {
        self.ended.lock().unwrap().insert(pid);
    }

    /// Sends an event, as UIA's handlers would, to the log of a watched app.
    pub fn emit(&self, event: crate::events::UiaEvent) {
        if let Some(log) = self.log.lock().unwrap().as_ref() {
            log.note(event);
        }
    }

    fn ended(&self, pid: u32) -> bool {
        self.ended.lock().unwrap().contains(&pid)
    }

    fn count(&self, method: &'static str) {
        *self.calls.lock().unwrap().entry(method).or_default() += 1;
    }

    /// A top-level window as a listing gets it: in full, or (an elevated app's, a hung one's)
    /// the desktop's own view of it alone.
    fn window_view(&self, key: &RuntimeKey) -> RawElement {
        let raw = self.elements[key].w().raw.clone();
        let hung = self.workers.frozen.lock().unwrap().contains(&raw.pid);
        match self.elevated(raw.pid) || hung {
            true => RawElement {
                key: raw.key.clone(),
                control_type: raw.control_type,
                name: raw.name.clone(),
                pid: raw.pid,
                content_pid: raw.content_pid,
                hwnd: raw.hwnd,
                bounds: raw.bounds,
                ..RawElement::default()
            },
            false => raw,
        }
    }

    /// How many children `key` has (none where it names nothing).
    /// The elements `below` reaches under `key`, in document order.
    fn below(&self, key: &RuntimeKey, below: Below) -> Vec<RuntimeKey> {
        let mut reached = Vec::new();
        let mut stack: Vec<&RuntimeKey> = self
            .elements
            .get(key)
            .map_or(Vec::new(), |e| e.children.iter().rev().collect());
        while let Some(k) = stack.pop() {
            reached.push(k.clone());
            if below == Below::Descendants {
                stack.extend(self.elements[k].children.iter().rev());
            }
        }
        reached
    }

    fn child_count(&self, key: &RuntimeKey) -> u32 {
        self.elements
            .get(key)
            .map_or(0, |e| e.children.len() as u32)
    }

    fn elevated(&self, pid: u32) -> bool {
        self.processes
            .iter()
            .any(|(p, _)| p.pid == pid && p.rights.refusal().is_some())
    }

    /// A call's time on `pid`'s worker (`worker.rs`), reading `properties`; a slow element
    /// never answers.
    async fn answer(
        &self,
        pid: u32,
        key: Option<&RuntimeKey>,
        properties: u32,
    ) -> Result<(), UiaError> {
        self.answer_all(pid, key, 1, properties).await
    }

    /// A job of `calls` cross-process calls on `pid`'s worker, reading `properties` in all.
    async fn answer_all(
        &self,
        pid: u32,
        key: Option<&RuntimeKey>,
        calls: u32,
        properties: u32,
    ) -> Result<(), UiaError> {
        let hung = key
            .and_then(|k| self.elements.get(k))
            .is_some_and(|e| e.w().slow);
        match self.workers.run(pid, hung, calls, properties).await {
            worker::Worked::Answered => Ok(()),
            worker::Worked::TimedOut => Err(UiaError::Timeout),
        }
    }

    /// The element `key` of `pid`, as a call on it that reads `properties` finds it.
    async fn lookup(
        &self,
        pid: u32,
        key: &RuntimeKey,
        properties: u32,
    ) -> Result<&Element, UiaError> {
        self.lookup_all(pid, key, 1, properties).await
    }

    /// The element `key` of `pid`, as a job of `calls` calls on it finds it.
    async fn lookup_all(
        &self,
        pid: u32,
        key: &RuntimeKey,
        calls: u32,
        properties: u32,
    ) -> Result<&Element, UiaError> {
        self.answer_all(pid, Some(key), calls, properties).await?;
        if self.ended(pid) {
            return Err(com(hresult::RPC_S_SERVER_UNAVAILABLE));
        }
        if self.elevated(pid) {
            return Err(com(hresult::E_ACCESSDENIED));
        }
        let element = self.elements.get(key).ok_or(UiaError::Unknown)?;
        // The worker finds elements under the app's own windows alone (`com/uia.rs`).
        if self.app_of(key) != Some(pid) {
            return Err(UiaError::Unknown);
        }
        if let Some(code) = element.w().hresult {
            return Err(com(code));
        }
        if element.w().gone && self.seen.lock().unwrap().contains(key) {
            return Err(com(hresult::UIA_E_ELEMENTNOTAVAILABLE));
        }
        Ok(element)
    }

    /// An element as a cache request reads it (its value never among what it carries).
    fn read(&self, element: &Element) -> RawElement {
        self.seen
            .lock()
            .unwrap()
            .insert(element.w().raw.key.clone());
        element.w().raw.clone()
    }

    fn value_of(&self, element: &Element) -> Option<String> {
        let value = element.w().value.clone()?;
        self.values
            .lock()
            .unwrap()
            .push(element.w().raw.key.clone());
        Some(value)
    }
}

fn com(hresult: i32) -> UiaError {
    UiaError::Com {
        hresult,
        message: "fake failure".into(),
    }
}

#[async_trait]
impl UiaSource for FakeUia {
    async fn top_level(&self) -> Result<Vec<RawElement>, UiaError> {
        self.count("top_level");
        // Listing the desktop's windows asks every window's provider for its element, one
        // after another on the desktop's worker: a hung app's costs the connection timeout,
        // after which UIA gives the desktop's own view of it.
        let mut top = Vec::new();
        for key in &self.top {
            let pid = self.elements[key].w().raw.pid;
            if self.ended(pid) {
                continue;
            }
            if self.workers.frozen.lock().unwrap().contains(&pid) {
                tokio::time::sleep(worker::CONNECTION).await;
            }
            top.push(self.window_view(key));
        }
        Ok(top)
    }

    async fn windows_of(&self, pid: u32) -> Result<Vec<RawElement>, UiaError> {
        self.count("windows_of");
        // The condition names the process: only its provider is asked, in its turn.
        self.answer(pid, None, 0).await?;
        if self.ended(pid) {
            return Err(com(hresult::RPC_S_SERVER_UNAVAILABLE));
        }
        let mine = self
            .top
            .iter()
            .filter(|k| self.elements[*k].w().raw.owner() == pid);
        Ok(mine.map(|key| self.window_view(key)).collect())
    }

    async fn watch(
        &self,
        pid: u32,
        log: std::sync::Arc<crate::events::EventLog>,
    ) -> Result<bool, UiaError> {
        self.count("watch");
        self.answer(pid, None, 0).await?;
        *self.log.lock().unwrap() = Some(log);
        Ok(true)
    }

    async fn process(&self, pid: u32) -> Result<RawProcess, UiaError> {
        self.count("process");
        self.processes
            .iter()
            .find(|(p, _)| p.pid == pid && !self.ended(pid))
            .map(|(p, _)| p.clone())
            .ok_or_else(|| com(hresult::E_INVALIDARG))
    }

    async fn element(&self, pid: u32, key: &RuntimeKey) -> Result<RawElement, UiaError> {
        self.count("element");
        let element = self.lookup(pid, key, worker::PROPERTIES).await?;
        Ok(self.read(element))
    }

    async fn children(&self, pid: u32, key: &RuntimeKey) -> Result<Vec<RawElement>, UiaError> {
        self.count("children");
        let read = self.child_count(key) * worker::PROPERTIES;
        let element = self.lookup(pid, key, read).await?;
        let children = element.children.iter().map(|k| &self.elements[k]);
        Ok(children.map(|child| self.read(child)).collect())
    }

    async fn child_counts(
        &self,
        pid: u32,
        key: &RuntimeKey,
    ) -> Result<Vec<(RuntimeKey, u32)>, UiaError> {
        self.count("child_counts");
        let children = self.elements.get(key).map_or(&[][..], |e| &e.children);
        // One property (the id) for each child and each grandchild cached.
        let read: u32 = children.iter().map(|c| 1 + self.child_count(c)).sum();
        let element = self.lookup(pid, key, read).await?;
        Ok(element
            .children
            .iter()
            .map(|c| (c.clone(), self.child_count(c)))
            .collect())
    }

    async fn parent(&self, pid: u32, key: &RuntimeKey) -> Result<Option<RawElement>, UiaError> {
        self.count("parent");
        let element = self.lookup(pid, key, worker::PROPERTIES).await?;
        Ok(element
            .parent
            .as_ref()
            .map(|p| self.read(&self.elements[p])))
    }

    async fn values_below(
        &self,
        pid: u32,
        key: &RuntimeKey,
        below: Below,
    ) -> Result<Vec<(RuntimeKey, String)>, UiaError> {
        self.count("values_below");
        let reached = self.below(key, below);
        // One property (the condition's) for each element the call tests.
        self.lookup(pid, key, reached.len() as u32).await?;
        // The condition of the real call, tested on each element alone: IsPassword is false.
        Ok(reached
            .iter()
            .map(|k| &self.elements[k])
            .filter(|e| !e.w().raw.is_password())
            .filter_map(|e| {
                // One lock at a time: `value_of` takes the element's own.
                let key = e.w().raw.key.clone();
                Some((key, self.value_of(e)?))
            })
            .collect())
    }

    async fn value(&self, pid: u32, key: &RuntimeKey) -> Result<Option<String>, UiaError> {
        self.count("value");
        let element = self.lookup(pid, key, 1).await?;
        Ok(self.value_of(element))
    }

    async fn element_at(&self, pid: u32, x: i32, y: i32) -> Result<Vec<RawElement>, UiaError> {
        self.count("element_at");
        let contains = |k: &RuntimeKey| {
            let raw = self.elements[k].w().raw.clone();
            raw.bounds.is_some_and(|b| b.contains(x, y)) && raw.offscreen != Some(true)
        };
        let Some(mut at) = self.top.iter().find(|k| contains(k)) else {
            return Ok(Vec::new());
        };
        self.answer(pid, None, 0).await?;
        let mut chain = vec![self.read(&self.elements[at])];
        while let Some(child) = self.elements[at]
            .children
            .iter()
            .rev()
            .find(|k| contains(k))
        {
            chain.push(self.read(&self.elements[child]));
            at = child;
        }
        Ok(chain)
    }

    async fn text(
        &self,
        pid: u32,
        key: &RuntimeKey,
        start: u32,
        end: Option<u32>,
    ) -> Result<TextRead, UiaError> {
        self.count("text");
        let written = self.elements.get(key).map(|e| {
            let w = e.w();
            w.text.clone().or(w.value.clone()).unwrap_or_default()
        });
        let written = written.unwrap_or_default();
        let total = written.chars().count() as u32;
        let (start, end) = (start.min(total), end.unwrap_or(total).min(total));
        let whole = written.contains("\r\n");
        // Looking for CR LF, counting, moving to the page, then the page: four calls.
        let (calls, handed) = match whole {
            true => (2, total),
            false => (4, end.saturating_sub(start)),
        };
        let marshalled = handed / worker::CHARS_PER_PROPERTY;
        let element = self.lookup_all(pid, key, calls, 1 + marshalled).await?;
        if !element.w().raw.has(Pattern::Text) {
            return Err(com(hresult::UIA_E_NOTSUPPORTED));
        }
        self.values.lock().unwrap().push(key.clone());
        Ok(match whole {
            true => TextRead::Whole(written),
            false => TextRead::Page {
                text: written
                    .chars()
                    .skip(start as usize)
                    .take(end.saturating_sub(start) as usize)
                    .collect(),
                start,
                end: end.max(start),
                total,
            },
        })
    }

    async fn perform(
        &self,
        pid: u32,
        key: &RuntimeKey,
        op: &crate::mapping::routes::PatternOp,
    ) -> Result<deskpilot_platform::Performed, UiaError> {
        self.count("perform");
        self.lookup(pid, key, worker::PROPERTIES).await?;
        self.performed.lock().unwrap().push((key.clone(), op.how()));
        self.apply(key, op)
    }

    async fn caret(
        &self,
        pid: u32,
        key: &RuntimeKey,
    ) -> Result<Option<deskpilot_platform::Caret>, UiaError> {
        self.count("caret");
        let element = self.lookup(pid, key, worker::PROPERTIES).await?;
        let written = element.w();
        Ok(written.caret.map(|offset| deskpilot_platform::Caret {
            offset,
            selection: written.selection,
        }))
    }

    async fn grid(&self, pid: u32, key: &RuntimeKey) -> Result<RawGrid, UiaError> {
        self.count("grid");
        let headers = self.elements.get(key).and_then(|e| {
            let header = e.children.iter().map(|k| &self.elements[k]);
            header
                .clone()
                .find(|h| h.w().raw.control_type == control::HEADER)
        });
        let names = headers.map_or(0, |h| h.children.len() as u32);
        let element = self.lookup(pid, key, 2 + names).await?;
        let Some((rows, columns)) = element.w().raw.grid else {
            return Err(com(hresult::UIA_E_NOTSUPPORTED));
        };
        let headers = headers.map(|h| {
            h.children
                .iter()
                .map(|k| self.elements[k].w().raw.name.clone())
        });
        Ok(RawGrid {
            headers: headers.map(Iterator::collect).unwrap_or_default(),
            row_count: rows.max(0) as u32,
            column_count: columns.max(0) as u32,
        })
    }

    async fn grid_row(
        &self,
        pid: u32,
        key: &RuntimeKey,
        row: u32,
    ) -> Result<Vec<RawElement>, UiaError> {
        self.count("grid_row");
        let rows = self.elements.get(key).map(|e| {
            let kids = e.children.iter().map(|k| &self.elements[k]);
            kids.filter(|e| e.w().raw.control_type == control::DATA_ITEM)
                .collect::<Vec<_>>()
        });
        let cells = rows.and_then(|r| r.get(row as usize).map(|r| r.children.clone()));
        let cells = cells.unwrap_or_default();
        // The pattern, the first cell, its parent, then the row with its cells cached.
        let read = cells.len() as u32 * worker::PROPERTIES;
        let element = self.lookup_all(pid, key, 4, read).await?;
        if element.w().raw.grid.is_none() {
            return Err(com(hresult::UIA_E_NOTSUPPORTED));
        }
        if cells.is_empty() {
            return Err(com(hresult::E_INVALIDARG));
        }
        Ok(cells.iter().map(|k| self.read(&self.elements[k])).collect())
    }
}

#[cfg(test)]
mod rules {
    use std::time::Duration;

    use tokio::time::Instant;

    use super::FakeUia;
    use crate::source::UiaSource;

    const TWO: &str = r#"
process "a.exe" pid=1 started=1
  Window "A" hwnd=0x10 patterns=Window
process "b.exe" pid=2 started=1
  Window "B" hwnd=0x20 patterns=Window
"#;

    const FORM: &str = r#"
process "form.exe" pid=3 started=1
  Window "Form" hwnd=0x30 patterns=Window
    Group "Account"
      Edit "PIN" password patterns=Value value="1234"
        Text "Digits" patterns=Value value="1234"
      Text "Label"
"#;

    /// Counting costs the id of each child and grandchild cached (one property each), and
    /// says each child's children.
    #[tokio::test(start_paused = true)]
    async fn counting_reads_an_id_per_child_and_grandchild() {
        let fake = FakeUia::new(FORM);
        fake.cost_per_property(3, Duration::from_millis(10));
        let window = fake.windows_of(3).await.unwrap().remove(0).key;
        let started = Instant::now();
        let counts = fake.child_counts(3, &window).await.unwrap();
        assert_eq!(
            started.elapsed(),
            Duration::from_millis(30),
            "Account and its two"
        );
        assert_eq!(counts.iter().map(|(_, n)| *n).collect::<Vec<_>>(), [2]);
    }

    /// A search's condition is tested on each element alone (UIA's `FindAll` tests every
    /// element in its scope): leaving password fields out leaves what is inside them in.
    #[tokio::test]
    async fn a_descendant_search_reaches_inside_a_password_field() {
        let fake = FakeUia::new(FORM);
        let window = fake.windows_of(3).await.unwrap().remove(0).key;
        let below = crate::source::Below::Descendants;
        let values = fake.values_below(3, &window, below).await.unwrap();
        let values: Vec<&str> = values.iter().map(|(_, v)| v.as_str()).collect();
        assert_eq!(values, ["1234"], "the digits inside, never the field's own");
        assert_eq!(fake.value_requests().len(), 1);
    }

    /// The fake's own rule, apart from any backend: listing the desktop asks each window's
    /// provider, so a hung app costs the connection timeout and comes back as the desktop
    /// sees it; asking one app's windows asks that app alone.
    #[tokio::test(start_paused = true)]
    async fn a_listing_waits_for_a_hung_provider_and_one_app_asks_only_its_own() {
        let fake = FakeUia::new(TWO);
        fake.freeze(1, true);
        let started = Instant::now();
        let top = fake.top_level().await.unwrap();
        assert_eq!(started.elapsed(), super::worker::CONNECTION);
        assert_eq!(top.len(), 2);
        assert_eq!(
            top[0].patterns,
            Default::default(),
            "the desktop's view of a hung one"
        );
        let started = Instant::now();
        let b = fake.windows_of(2).await.unwrap();
        assert_eq!((b.len(), started.elapsed()), (1, Duration::ZERO));
    }
}

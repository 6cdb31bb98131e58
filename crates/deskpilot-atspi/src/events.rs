//! What changed in an app since we last looked: AT-SPI object events (a name, a state, a
//! property or the children changed) name objects. Whether any event came since the last read
//! decides whether what was kept of the app holds (`prepare.rs`); the objects named wake waits
//! and tell their targeted looks where to read. Events are treated as hints to re-read, never
//! as the new truth.
//!
//! Ordering: the app's events reach us through the bus connection in the order the app sent
//! them, and before its reply to a call made on that same connection. So a check first pings
//! the app on the bus, then takes every event already queued: anything the app changed before
//! the ping is seen.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures_util::{FutureExt, StreamExt};
use tokio::sync::Mutex;
use zbus::message::Type as MessageType;

use deskpilot_platform::Announcement;
use deskpilot_platform::model::ElementId;

use crate::proto::REGISTRY;

/// The events whose arrival makes a cached identity stale.
const EVENTS: &[&str] = &[
    "object:property-change",
    "object:state-changed",
    "object:children-changed",
    // Text typed or set: Qt 5 announces a field's new text with this alone (a wait would
    // sleep through it); a kept identity is re-read too.
    "object:text-changed",
    // A table's rows and columns: GTK 3 announces a row added to a tree view's model with
    // `row-inserted` alone (no children-changed); a kept tree must hear of it.
    "object:row-inserted",
    "object:row-deleted",
    "object:row-reordered",
    "object:column-inserted",
    "object:column-deleted",
    "object:column-reordered",
    "object:model-changed",
];
const EVENT_INTERFACE: &str = "org.a11y.atspi.Event.Object";
/// How long the drain task waits for an event before looking whether its watch is still
/// wanted (a check wakes it sooner).
const DRAIN_SLICE: Duration = Duration::from_millis(20);

/// One watched app.
struct Watch {
    /// The app's own connection to the bus: its events and the pings that flush them. An app
    /// that floods events holds up only this connection's reader, never another app's pings
    /// nor the replies of calls (test `bad_answers_end_in_time_and_other_apps_are_not_kept_waiting`).
    bus: zbus::Connection,
    /// When the watch began: apps learn of a new registration asynchronously, so events just
    /// after it may not have been sent.
    since: std::time::Instant,
    stream: Mutex<zbus::MessageStream>,
    /// The event count at the last `take` (`None` before the first).
    taken: std::sync::Mutex<Option<u64>>,
    /// The stream ended (the app left, or the connection broke): nothing it says is fresh.
    dead: AtomicBool,
    /// Events noted so far: `quiet` compares it between pings, waits wake when it moves.
    events: tokio::sync::watch::Sender<u64>,
    /// The latest events, oldest first, at most `RECENT` of them.
    recent: std::sync::Mutex<std::collections::VecDeque<Noted>>,
    /// The object the latest `object:state-changed:focused` (on) named.
    focused: std::sync::Mutex<Option<String>>,
    /// Objects that said they are showing, latest last; at most `SHOWN`. Qt lists no popup
    /// among its app's children: this is how one is known.
    shown: std::sync::Mutex<std::collections::VecDeque<String>>,
    /// Asks the drain task to let go of the stream at once (a check waits for it).
    wake: tokio::sync::Notify,
}

/// One event as noted.
struct Noted {
    /// Its number: the event count once it was noted.
    number: u64,
    /// The object it named (empty when none).
    path: String,
    /// What it announced the object now shows (`signal::announcement`).
    said: Option<String>,
}

/// Events whose objects a wait can ask for (`named_since`).
const RECENT: usize = 256;
/// Objects remembered as shown (a dialog's widgets showing must not push a menu out).
const SHOWN: usize = 64;

/// Event watches on the accessibility bus, one per app.
pub struct Freshness {
    /// The calls' connection: for the registry.
    bus: zbus::Connection,
    /// The accessibility bus's address and the call timeout, for each watch's connection.
    address: String,
    timeout: Duration,
    /// Apps whose calls timed out: their pings fail at once.
    stalls: crate::stalls::Stalls,
    registered: Mutex<bool>,
    watches: std::sync::Mutex<HashMap<String, Arc<Watch>>>,
}

/// Objects changed since the last `take` (object paths).
pub type Changed = HashSet<String>;

/// How long a mark, and a look for what came after it, wait for the app's answer (far below
/// a call's timeout, which would take the app for frozen).
const MARK_WAIT: Duration = Duration::from_millis(250);

/// How long after a watch begins its marks are trusted.
const SETTLE: Duration = Duration::from_millis(500);

impl Freshness {
    pub fn new(
        bus: zbus::Connection,
        (address, timeout): (String, Duration),
        stalls: crate::stalls::Stalls,
    ) -> Self {
        Freshness {
            bus,
            address,
            timeout,
            stalls,
            registered: Mutex::new(false),
            watches: std::sync::Mutex::new(HashMap::new()),
        }
    }

    /// The objects `app` named in events since the previous `take` (every event it sent
    /// before this call counted), and starts a new period. `None` when that is not known
    /// (no watch, a watch too young to trust, more events than are remembered, an event
    /// naming no object): nothing read before may be reused.
    pub async fn take(&self, app: &str, timeout: Duration) -> Option<Changed> {
        let watch = self.watch(app).await?;
        let now = self.flush(app, &watch, timeout).await?;
        let since = watch.taken.lock().expect("taken").replace(now);
        if watch.dead.load(Ordering::SeqCst) || watch.since.elapsed() < SETTLE {
            return None;
        }
        let since = since?;
        let recent = watch.recent.lock().expect("recent");
        let events: Vec<&String> = recent
            .iter()
            .filter(|e| e.number > since && e.number <= now)
            .map(|e| &e.path)
            .collect();
        let all_named = events.len() as u64 == now - since && events.iter().all(|p| !p.is_empty());
        all_named.then(|| events.into_iter().cloned().collect())
    }

    /// Whether `app` went quiet: no event in a whole `quiet_for` between two pings (so every
    /// event sent before each ping counted). `Some(false)` when events still came once
    /// `within` ran out; `None` when its events are not watched (yet) or cannot be trusted.
    /// Events noted here are still returned by the next `take`.
    pub async fn quiet(&self, app: &str, quiet_for: Duration, within: Duration) -> Option<bool> {
        let started = std::time::Instant::now();
        let watch = self.watches.lock().expect("watches").get(app).cloned()?;
        if watch.since.elapsed() < SETTLE {
            return None;
        }
        let timeout = within.max(quiet_for);
        let mut seen = self.flush(app, &watch, timeout).await?;
        loop {
            tokio::time::sleep(quiet_for).await;
            let now = self.flush(app, &watch, timeout).await?;
            if now == seen {
                return Some(true);
            }
            if started.elapsed() + quiet_for > within {
                return Some(false);
            }
            seen = now;
        }
    }

    /// Pings `app` on the bus and notes every event already queued: the ping's reply comes
    /// after every event the app sent before it. Returns the number of events noted so far;
    /// `None` when the app did not answer or the watch ended.
    async fn flush(&self, app: &str, watch: &Watch, timeout: Duration) -> Option<u64> {
        let ping = crate::stalls::ping(&watch.bus, app);
        if self.stalls.stalled(app) {
            return None;
        }
        let failed = match tokio::time::timeout(timeout, ping).await {
            Ok(Ok(_)) => None,
            Ok(Err(e)) => Some(crate::error::classify(&e) == crate::error::Failure::Timeout),
            Err(_) => Some(true),
        };
        if let Some(timed_out) = failed {
            if timed_out && timeout >= self.stalls.timeout() {
                // A whole call timeout and no answer (the connection's or ours): the app is
                // frozen. A shorter wait proves nothing of the sort.
                self.stalls.timed_out(app);
            }
            return None;
        }
        // The drain task holds the stream while it waits for an event (up to DRAIN_SLICE):
        // it lets go when woken, and the lock is fair, so this is next.
        watch.wake.notify_one();
        let mut stream = watch.stream.lock().await;
        loop {
            match stream.next().now_or_never() {
                Some(Some(message)) => note(watch, message),
                Some(None) => {
                    watch.dead.store(true, Ordering::SeqCst);
                    break;
                }
                None => break,
            }
        }
        (!watch.dead.load(Ordering::SeqCst)).then(|| *watch.events.borrow())
    }

    /// How many events `app` sent so far, every event it sent before this call counted;
    /// `None` when its events are not watched (yet) or cannot be trusted.
    pub async fn count(&self, app: &str, timeout: Duration) -> Option<u64> {
        let watch = self.watch(app).await?;
        let count = self.flush(app, &watch, timeout).await?;
        (watch.since.elapsed() >= SETTLE).then_some(count)
    }

    /// `count` without waiting for the watch to settle: a mark that what comes after is
    /// measured from (an event the app did not send yet is missed, never invented). An app
    /// that does not answer within `MARK_WAIT` gives none, and is not taken for frozen: the
    /// action goes ahead as it would without (hostile_atspi's slow app lost presses when a
    /// whole call timeout here marked it frozen).
    pub async fn mark(&self, app: &str) -> Option<u64> {
        let watch = self.watch(app).await?;
        self.flush(app, &watch, MARK_WAIT).await
    }

    /// A count bumped at every event `app` sends, watched from now on (for waits to wake on);
    /// `None` when its events cannot be watched.
    pub async fn changes(&self, app: &str) -> Option<tokio::sync::watch::Receiver<u64>> {
        Some(self.watch(app).await?.events.subscribe())
    }

    /// The objects `app`'s events named after its event count was `since`, in order, each
    /// once; `None` when that is not known (no watch, or more events came since than are
    /// remembered).
    pub fn named_since(&self, app: &ElementId, since: u64) -> Option<Vec<ElementId>> {
        let watch = self
            .watches
            .lock()
            .expect("watches")
            .get(&app.app)
            .cloned()?;
        let recent = watch.recent.lock().expect("recent");
        if !remembered_since(&watch, &recent, since) {
            return None;
        }
        let mut named: Vec<ElementId> = Vec::new();
        for event in recent
            .iter()
            .filter(|e| e.number > since && !e.path.is_empty())
        {
            let id = ElementId::new(app.app.clone(), event.path.clone());
            if !named.contains(&id) {
                named.push(id);
            }
        }
        Some(named)
    }

    /// The texts and names `app` announced after its event count was `mark`, every event it
    /// sent before this call counted. `None` when that is not known: no watch, no answer
    /// within `MARK_WAIT`, or more events since than are remembered. A late answer never
    /// takes the app for frozen.
    pub async fn announced_since(&self, app: &ElementId, mark: u64) -> Option<Vec<Announcement>> {
        let watch = self.watch(&app.app).await?;
        self.flush(&app.app, &watch, MARK_WAIT).await?;
        let recent = watch.recent.lock().expect("recent");
        if !remembered_since(&watch, &recent, mark) {
            return None;
        }
        let announced = recent
            .iter()
            .filter(|e| e.number > mark && !e.path.is_empty());
        let announced = announced.filter_map(|e| {
            Some(Announcement {
                element: ElementId::new(app.app.clone(), e.path.clone()),
                said: e.said.clone()?,
            })
        });
        Some(announced.collect())
    }

    /// The object `app`'s latest focus event named (every event sent before this call
    /// counted); `None` when its events are not watched or named no focus yet.
    pub async fn focused(&self, app: &ElementId, timeout: Duration) -> Option<ElementId> {
        let watch = self.watch(&app.app).await?;
        self.flush(&app.app, &watch, timeout).await?;
        let path = watch.focused.lock().expect("focused").clone()?;
        Some(ElementId::new(app.app.clone(), path))
    }

    /// The objects `app`'s events last said are showing (they may have hidden since), as the
    /// drain task noted them (no ping: a popup that just opened is seen by the next look);
    /// empty when its events are not watched.
    pub fn shown(&self, app: &ElementId) -> Vec<ElementId> {
        let watch = self.watches.lock().expect("watches").get(&app.app).cloned();
        let Some(watch) = watch else {
            return Vec::new();
        };
        let shown = watch.shown.lock().expect("shown");
        shown
            .iter()
            .map(|path| ElementId::new(app.app.clone(), path.clone()))
            .collect()
    }

    /// Stops watching apps that are no longer registered (their drain tasks end).
    pub fn retain(&self, registered: &HashSet<String>) {
        self.watches
            .lock()
            .expect("watches")
            .retain(|app, _| registered.contains(app));
    }

    /// The apps watched.
    pub fn watched(&self) -> Vec<String> {
        self.watches
            .lock()
            .expect("watches")
            .keys()
            .cloned()
            .collect()
    }

    /// Starts watching `app` (once): asks the registry to have apps send the events, and
    /// listens to the app's.
    async fn watch(&self, app: &str) -> Option<Arc<Watch>> {
        if let Some(watch) = self.watches.lock().expect("watches").get(app) {
            return (!watch.dead.load(Ordering::SeqCst)).then(|| watch.clone());
        }
        self.register().await?;
        let rule = zbus::MatchRule::builder()
            .msg_type(MessageType::Signal)
            .sender(app)
            .ok()?
            .interface(EVENT_INTERFACE)
            .ok()?
            .build();
        let bus = crate::bus::connect(&self.address, self.timeout)
            .await
            .ok()?;
        let stream = zbus::MessageStream::for_match_rule(rule, &bus, Some(1024))
            .await
            .ok()?;
        let watch = Arc::new(Watch {
            bus,
            since: std::time::Instant::now(),
            stream: Mutex::new(stream),
            taken: std::sync::Mutex::new(None),
            dead: AtomicBool::new(false),
            events: tokio::sync::watch::Sender::new(0),
            recent: std::sync::Mutex::new(std::collections::VecDeque::new()),
            focused: std::sync::Mutex::new(None),
            shown: std::sync::Mutex::new(std::collections::VecDeque::new()),
            wake: tokio::sync::Notify::new(),
        });
        self.watches
            .lock()
            .expect("watches")
            .insert(app.to_owned(), watch.clone());
        tokio::spawn(drain(Arc::downgrade(&watch)));
        Some(watch)
    }

    /// Registers the events with the registry once (apps send only what someone asked for).
    async fn register(&self) -> Option<()> {
        let mut registered = self.registered.lock().await;
        if *registered {
            return Some(());
        }
        for event in EVENTS {
            // at-spi2-core before 2.50 takes the event alone; later ones also properties and
            // an app name.
            let old = self.call_registry(&(*event,)).await;
            if old.is_err() {
                let new = self
                    .call_registry(&(*event, Vec::<String>::new(), ""))
                    .await;
                if let Err(e) = new {
                    tracing::debug!(event, error = %e, "cannot register for events");
                    return None;
                }
            }
        }
        *registered = true;
        Some(())
    }
}

impl Freshness {
    async fn call_registry<B>(&self, body: &B) -> zbus::Result<()>
    where
        B: serde::Serialize + zbus::zvariant::DynamicType,
    {
        let call = self.bus.call_method(
            Some(REGISTRY),
            "/org/a11y/atspi/registry",
            Some(REGISTRY),
            "RegisterEvent",
            body,
        );
        tokio::time::timeout(Duration::from_secs(2), call)
            .await
            .map_err(|_| zbus::Error::Failure("the registry did not answer".into()))??;
        Ok(())
    }
}

/// Whether every event after `since` is among `recent`.
fn remembered_since(watch: &Watch, recent: &std::collections::VecDeque<Noted>, since: u64) -> bool {
    let now = *watch.events.borrow();
    now <= since
        || recent
            .front()
            .is_some_and(|first| first.number <= since + 1)
}

/// Remembers the object an event names.
fn note(watch: &Watch, message: zbus::Result<zbus::Message>) {
    let message = message.ok();
    let path = message
        .as_ref()
        .and_then(|m| m.header().path().map(|p| p.as_str().to_owned()));
    if let (Some(message), Some(path)) = (&message, &path) {
        match state_change(message) {
            Some((kind, 1)) if kind == "focused" => {
                *watch.focused.lock().expect("focused") = Some(path.clone());
            }
            // Hiding is not trusted: Qt may hand a new popup the path of one that hid after
            // it showed. Whether one still shows is read when it is asked for.
            Some((kind, 1)) if kind == "showing" => {
                let mut shown = watch.shown.lock().expect("shown");
                shown.retain(|p| p != path);
                if shown.len() >= SHOWN {
                    shown.pop_front();
                }
                shown.push_back(path.clone());
            }
            _ => {}
        }
    }
    let said = message.as_ref().and_then(crate::signal::announcement);
    // Remembered before the count moves: a wait woken by the count finds the object.
    {
        let mut recent = watch.recent.lock().expect("recent");
        let number = *watch.events.borrow() + 1;
        if recent.len() >= RECENT {
            recent.pop_front();
        }
        let path = path.unwrap_or_default();
        recent.push_back(Noted { number, path, said });
    }
    watch.events.send_modify(|n| *n += 1);
}

/// The state an `object:state-changed` event is about, and whether it turned on (1) or off.
fn state_change(message: &zbus::Message) -> Option<(String, i32)> {
    if message.header().member().map(|m| m.as_str()) != Some("StateChanged") {
        return None;
    }
    crate::signal::body(message).map(|(kind, on, _, _)| (kind, on))
}

/// Keeps a watch's queue drained (a full queue would stall the connection), counting events;
/// stops when the watch is dropped or its stream ends.
async fn drain(watch: std::sync::Weak<Watch>) {
    loop {
        let Some(watch) = watch.upgrade() else { return };
        let mut stream = watch.stream.lock().await;
        tokio::select! {
            message = stream.next() => match message {
                Some(message) => note(&watch, message),
                None => {
                    watch.dead.store(true, Ordering::SeqCst);
                    return;
                }
            },
            () = watch.wake.notified() => {}
            () = tokio::time::sleep(DRAIN_SLICE) => {}
        }
        drop(stream);
        drop(watch);
        tokio::task::yield_now().await;
    }
}

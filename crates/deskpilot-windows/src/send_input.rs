//! The `InputDevice` on Windows: records planned in `input_plan.rs`, sent by an `InputSink`
//! (`SendInput` in `com/input.rs`, a log in tests). Input to a window of an app with more
//! rights than deskpilot is refused before anything is sent: UIPI would drop it without a
//! word ("neither GetLastError nor the return value will indicate the failure").

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deskpilot_platform::model::Rect;
use deskpilot_platform::{
    Chord, Direction, InputDevice, InputError, InputText, MouseButton, WindowId,
};

use crate::input_plan::{self, Record};

/// Records sent at once while typing: a partial send then says how far it got.
const BATCH: usize = 64;

/// How long a drag holds the button down before it moves: an app sees the press on its
/// own before any move, as from a hand (drag detection starts on the press).
const DRAG_HOLD: Duration = Duration::from_millis(50);

/// The pause after each of a drag's steps, so that the app reads the moves one by one.
const DRAG_STEP: Duration = Duration::from_millis(15);

/// The steps of a drag's path.
const DRAG_STEPS: i32 = 8;

/// Where input lands, for the check that no elevated window gets it: keys at the foreground
/// window, the pointer at the window under it (review B5: a click was checked against the
/// foreground window, not the one it lands on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aim {
    Foreground,
    Point(i32, i32),
    /// Nowhere a message goes: the pointer moved, or a drag's path after its checked press.
    Nowhere,
}

/// A keyboard layout, as the system names it (an `HKL`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout(pub u64);

/// The system calls behind the input device.
pub trait InputSink: Send + Sync + 'static {
    /// The virtual screen (all monitors), in physical pixels.
    fn screen(&self) -> Rect;
    /// Sends records in order; answers how many went (`SendInput`'s count).
    fn send(&self, records: &[Record]) -> usize;
    /// The window input at `aim` goes to, with why, when it belongs to a process above
    /// deskpilot's integrity level.
    fn denied(&self, aim: Aim) -> Option<(u64, String)>;
    /// The keyboard layout of the thread owning the foreground window, where keys go
    /// (`GetKeyboardLayout`). Each thread has its own: deskpilot's may differ (review B3).
    fn target_layout(&self) -> Layout;
    /// The virtual key of a character on `layout`, and whether it needs Shift (`VkKeyScanExW`).
    fn vk_for(&self, c: char, layout: Layout) -> Option<(u16, bool)>;
    /// A virtual key's scan code on `layout`, with the extended prefix (0xE0) in its high
    /// byte (`MapVirtualKeyExW`, `MAPVK_VK_TO_VSC_EX`); `None` where it has none.
    fn scan_of(&self, vk: u16, layout: Layout) -> Option<u16>;
    /// Where the pointer is (`GetCursorPos`), in physical pixels.
    fn cursor(&self) -> Option<(i32, i32)>;
}

/// `SendInput` behind the contract.
pub struct SendInputDevice<S> {
    sink: Arc<S>,
    timeout: Duration,
}

impl<S: InputSink> SendInputDevice<S> {
    pub fn new(sink: Arc<S>, timeout: Duration) -> Self {
        SendInputDevice { sink, timeout }
    }

    /// Runs `call` on a blocking thread within the deadline, once the window at `aim` is
    /// known to take input.
    async fn call<T: Send + 'static>(
        &self,
        aim: Aim,
        call: impl FnOnce(&S) -> Result<T, InputError> + Send + 'static,
    ) -> Result<T, InputError> {
        let sink = self.sink.clone();
        let blocking = tokio::task::spawn_blocking(move || {
            let denied = (aim != Aim::Nowhere).then(|| sink.denied(aim)).flatten();
            if let Some((window, why)) = denied {
                return Err(InputError::Denied {
                    window: WindowId(window),
                    why,
                });
            }
            call(&sink)
        });
        match tokio::time::timeout(self.timeout, blocking).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(e)) => Err(InputError::Display(e.to_string())),
            Err(_) => Err(InputError::Display(
                "SendInput did not return in time".into(),
            )),
        }
    }

    /// A drag's path from `from` to `to`, a step a call, each followed by a pause.
    async fn drag_path(
        &self,
        from: (i32, i32),
        to: (i32, i32),
        screen: Rect,
    ) -> Result<(), InputError> {
        for step in 1..=DRAG_STEPS {
            let at = |a: i32, b: i32| a + (b - a) * step / DRAG_STEPS;
            let point = input_plan::move_to(at(from.0, to.0), at(from.1, to.1), screen);
            self.send_all(Aim::Nowhere, vec![point]).await?;
            tokio::time::sleep(DRAG_STEP).await;
        }
        Ok(())
    }

    /// Sends `records` (input at `aim`) whole, or says the system took only part of them.
    async fn send_all(&self, aim: Aim, records: Vec<Record>) -> Result<(), InputError> {
        self.call(aim, move |sink| {
            let sent = sink.send(&records);
            if sent == records.len() {
                Ok(())
            } else {
                Err(InputError::Display(format!(
                    "SendInput took {sent} of {} events (another program's input blocked it?)",
                    records.len()
                )))
            }
        })
        .await
    }
}

#[async_trait]
impl<S: InputSink> InputDevice for SendInputDevice<S> {
    async fn click(
        &self,
        x: i32,
        y: i32,
        button: MouseButton,
        double: bool,
    ) -> Result<(), InputError> {
        let screen = self.sink.screen();
        let mut records = vec![input_plan::move_to(x, y, screen)];
        for _ in 0..if double { 2 } else { 1 } {
            records.push(input_plan::button(button, false));
            records.push(input_plan::button(button, true));
        }
        self.send_all(Aim::Point(x, y), records).await
    }

    async fn pointer(&self) -> Result<Option<(i32, i32)>, InputError> {
        Ok(self.sink.cursor())
    }

    async fn move_pointer(&self, x: i32, y: i32) -> Result<(), InputError> {
        let screen = self.sink.screen();
        let to = vec![input_plan::move_to(x, y, screen)];
        self.send_all(Aim::Nowhere, to).await
    }

    async fn scroll(
        &self,
        x: i32,
        y: i32,
        direction: Direction,
        clicks: u32,
    ) -> Result<(), InputError> {
        let screen = self.sink.screen();
        let records = vec![
            input_plan::move_to(x, y, screen),
            input_plan::wheel(direction, clicks),
        ];
        self.send_all(Aim::Point(x, y), records).await
    }

    async fn press(&self, chord: &Chord) -> Result<(), InputError> {
        let chord = chord.clone();
        let records = {
            let sink = self.sink.clone();
            let layout = sink.target_layout();
            let planned = input_plan::chord(&chord, |c| sink.vk_for(c, layout));
            let planned = planned.map_err(InputError::Untypable)?;
            input_plan::with_scans(planned, |vk| sink.scan_of(vk, layout))
        };
        self.send_all(Aim::Foreground, records).await
    }

    async fn type_text(&self, text: &InputText) -> Result<(), InputError> {
        let planned = input_plan::text(text.expose());
        let total = planned.len();
        self.call(Aim::Foreground, move |sink| {
            let layout = sink.target_layout();
            let mut typed = 0;
            let mut batch: Vec<Record> = Vec::new();
            let mut in_batch = 0;
            for (i, (_, records)) in planned.iter().enumerate() {
                batch.extend(input_plan::with_scans(records.clone(), |vk| {
                    sink.scan_of(vk, layout)
                }));
                in_batch += 1;
                if batch.len() < BATCH && i + 1 < total {
                    continue;
                }
                let sent = sink.send(&batch);
                if sent < batch.len() {
                    return Err(InputError::Incomplete {
                        sent: typed,
                        total,
                        why: format!("SendInput took {sent} of {} events", batch.len()),
                    });
                }
                typed += in_batch;
                batch.clear();
                in_batch = 0;
            }
            Ok(())
        })
        .await
    }

    /// A drag as a hand makes it: the press, a pause, the path in steps with a pause after
    /// each, the release. One burst let OLE's and WPF's drag detection see a press and a
    /// release with no drag (review B4). A drag cut short still releases the button.
    async fn drag(&self, from: (i32, i32), to: (i32, i32)) -> Result<(), InputError> {
        let screen = self.sink.screen();
        // The drop's window is checked before the press: a refusal then leaves no button down.
        self.call(Aim::Point(to.0, to.1), |_| Ok(())).await?;
        let press = vec![
            input_plan::move_to(from.0, from.1, screen),
            input_plan::button(MouseButton::Left, false),
        ];
        self.send_all(Aim::Point(from.0, from.1), press).await?;
        tokio::time::sleep(DRAG_HOLD).await;
        let moved = self.drag_path(from, to, screen).await;
        let up = vec![input_plan::button(MouseButton::Left, true)];
        let released = self.send_all(Aim::Nowhere, up).await;
        moved.and(released)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::fake::FakeKeyboards;
    use crate::input_plan::{
        INPUT_KEYBOARD, INPUT_MOUSE, KEYEVENTF_EXTENDEDKEY, KEYEVENTF_KEYUP, KEYEVENTF_UNICODE,
    };

    /// A sink that logs what it was given, takes at most `room` records in all, and can play
    /// an elevated foreground window.
    #[derive(Default)]
    struct Log {
        sent: Mutex<Vec<Record>>,
        /// Each `SendInput` call: when (the runtime's clock), the records, how many went.
        calls: Mutex<Vec<(tokio::time::Instant, Vec<Record>, usize)>>,
        room: Option<usize>,
        /// The foreground window runs elevated.
        elevated: bool,
        /// An elevated window's area on screen.
        elevated_at: Option<Rect>,
        keyboards: FakeKeyboards,
    }

    impl InputSink for Log {
        fn screen(&self) -> Rect {
            Rect::new(-1920, 0, 3840, 1080)
        }

        fn send(&self, records: &[Record]) -> usize {
            let mut sent = self.sent.lock().unwrap();
            let room = self
                .room
                .map_or(records.len(), |r| r.saturating_sub(sent.len()));
            let n = room.min(records.len());
            sent.extend(&records[..n]);
            let now = tokio::time::Instant::now();
            self.calls.lock().unwrap().push((now, records.to_vec(), n));
            n
        }

        fn denied(&self, aim: Aim) -> Option<(u64, String)> {
            let elevated = match aim {
                Aim::Foreground => self.elevated,
                Aim::Point(x, y) => self.elevated_at.is_some_and(|r| r.contains(x, y)),
                Aim::Nowhere => false,
            };
            elevated.then(|| (0x77, "its process runs elevated".to_owned()))
        }

        fn target_layout(&self) -> Layout {
            Layout(self.keyboards.foreground)
        }

        fn vk_for(&self, c: char, layout: Layout) -> Option<(u16, bool)> {
            FakeKeyboards::vk_for(c, layout.0)
        }

        fn scan_of(&self, vk: u16, layout: Layout) -> Option<u16> {
            FakeKeyboards::scan_of(vk, layout.0)
        }

        fn cursor(&self) -> Option<(i32, i32)> {
            Some((5, 6))
        }
    }

    fn device(log: Log) -> (Arc<Log>, SendInputDevice<Log>) {
        let log = Arc::new(log);
        (
            log.clone(),
            SendInputDevice::new(log, Duration::from_secs(1)),
        )
    }

    /// Typing goes in batches of Unicode key events; a click is a move and a press; input to
    /// an elevated window is refused with nothing sent.
    #[tokio::test]
    async fn text_and_clicks_become_records_and_an_elevated_target_gets_none() {
        let (log, input) = device(Log::default());
        let text = "x".repeat(40);
        input.type_text(&InputText::plain(text)).await.unwrap();
        let sent = log.sent.lock().unwrap().clone();
        assert_eq!(sent.len(), 80);
        assert!(
            sent.iter()
                .all(|r| matches!(r, Record::Key { flags, .. } if flags & KEYEVENTF_UNICODE != 0))
        );
        input.click(10, 10, MouseButton::Left, true).await.unwrap();
        let sent = log.sent.lock().unwrap().clone();
        assert_eq!(
            sent[80..]
                .iter()
                .filter(|r| r.kind() == INPUT_MOUSE)
                .count(),
            5
        );
        let (log, input) = device(Log {
            elevated: true,
            elevated_at: Some(Rect::new(0, 0, 100, 100)),
            ..Log::default()
        });
        let error = input.type_text(&InputText::plain("hi")).await.unwrap_err();
        assert!(matches!(error, InputError::Denied { .. }), "{error:?}");
        let error = input
            .click(1, 1, MouseButton::Left, false)
            .await
            .unwrap_err();
        assert!(matches!(error, InputError::Denied { .. }), "{error:?}");
        assert!(log.sent.lock().unwrap().is_empty());
    }

    /// The pointer's place is the cursor's; moving it back is one absolute move, no click.
    #[tokio::test]
    async fn the_pointer_is_read_and_moved_back_without_a_click() {
        let (log, input) = device(Log::default());
        assert_eq!(input.pointer().await.unwrap(), Some((5, 6)));
        input.move_pointer(-100, 40).await.unwrap();
        let sent = log.sent.lock().unwrap().clone();
        let screen = Rect::new(-1920, 0, 3840, 1080);
        assert_eq!(sent, vec![input_plan::move_to(-100, 40, screen)]);
    }

    /// Typing that the system stops part way says how many whole characters went.
    #[tokio::test]
    async fn typing_cut_short_says_how_far_it_got() {
        let (log, input) = device(Log {
            room: Some(70),
            ..Log::default()
        });
        let error = input
            .type_text(&InputText::plain("y".repeat(50)))
            .await
            .unwrap_err();
        assert_eq!(
            error,
            InputError::Incomplete {
                sent: 32,
                total: 50,
                why: "SendInput took 6 of 36 events".into()
            }
        );
        assert!(
            log.sent
                .lock()
                .unwrap()
                .iter()
                .all(|r| r.kind() == INPUT_KEYBOARD)
        );
    }

    /// A drag is paced as a person's: the button goes down in one call, the pointer moves in
    /// steps of their own after a pause, the button comes up last. All in one burst, OLE's
    /// and WPF's drag detection saw down and up with no drag (review B4).
    #[tokio::test(start_paused = true)]
    async fn a_drag_is_paced() {
        let (log, input) = device(Log::default());
        input.drag((10, 10), (90, 50)).await.unwrap();
        let calls = log.calls.lock().unwrap().clone();
        let sizes: Vec<usize> = calls.iter().map(|(_, r, _)| r.len()).collect();
        assert_eq!(sizes, [2, 1, 1, 1, 1, 1, 1, 1, 1, 1], "down, 8 moves, up");
        let pause = calls[1].0 - calls[0].0;
        assert!(pause >= DRAG_HOLD, "{pause:?} after the button went down");
        let steps: Vec<Duration> = calls[1..].windows(2).map(|w| w[1].0 - w[0].0).collect();
        assert!(
            steps.iter().all(|d| *d >= DRAG_STEP),
            "{steps:?} between moves"
        );
        let sent = log.sent.lock().unwrap().clone();
        assert_eq!(
            sent.last(),
            Some(&input_plan::button(MouseButton::Left, true))
        );
    }

    /// A drag the system stops part way still lets the button go.
    #[tokio::test(start_paused = true)]
    async fn a_drag_cut_short_releases_the_button() {
        let (log, input) = device(Log {
            room: Some(4),
            ..Log::default()
        });
        assert!(input.drag((10, 10), (90, 50)).await.is_err());
        let calls = log.calls.lock().unwrap().clone();
        let (_, last, _) = calls.last().unwrap();
        let up = input_plan::button(MouseButton::Left, true);
        assert_eq!(last, &vec![up], "the release was tried after the cut");
        assert_eq!(calls.len(), 5, "down, two moves, the cut one, the release");
    }

    /// The pointer's input is checked where it lands. A click on an elevated window behind
    /// a normal foreground one is refused, a click beside an elevated foreground window is
    /// not. A drag onto an elevated window is refused before the button goes down.
    #[tokio::test(start_paused = true)]
    async fn pointer_input_is_checked_where_it_lands() {
        let (log, input) = device(Log {
            elevated_at: Some(Rect::new(0, 0, 100, 100)),
            ..Log::default()
        });
        let error = input.click(50, 50, MouseButton::Left, false).await;
        assert!(matches!(error, Err(InputError::Denied { .. })), "{error:?}");
        let error = input.drag((500, 500), (50, 50)).await;
        assert!(matches!(error, Err(InputError::Denied { .. })), "{error:?}");
        assert!(log.sent.lock().unwrap().is_empty());
        let (log, input) = device(Log {
            elevated: true,
            ..Log::default()
        });
        input
            .click(500, 500, MouseButton::Left, false)
            .await
            .unwrap();
        assert_eq!(log.sent.lock().unwrap().len(), 3, "move, down, up");
    }

    /// Keys carry their scan codes from the layout, an extended one its flag (review B2:
    /// with scan code 0, remote consoles and Chromium's `KeyboardEvent.code` missed keys).
    #[tokio::test]
    async fn keys_carry_their_scan_codes() {
        let (log, input) = device(Log::default());
        let chord = |text: &str| text.parse::<Chord>().unwrap();
        input.press(&chord("ctrl+a")).await.unwrap();
        input.press(&chord("Left")).await.unwrap();
        let scans: Vec<(u16, u16, bool)> = log
            .sent
            .lock()
            .unwrap()
            .iter()
            .filter_map(|r| match r {
                Record::Key { vk, scan, flags } if flags & KEYEVENTF_KEYUP == 0 => {
                    Some((*vk, *scan, flags & KEYEVENTF_EXTENDEDKEY != 0))
                }
                _ => None,
            })
            .collect();
        assert_eq!(
            scans,
            [(0x11, 0x1D, false), (0x41, 0x1E, false), (0x25, 0x4B, true)]
        );
    }

    /// The key downs sent so far: virtual key and scan code.
    fn downs(log: &Log) -> Vec<(u16, u16)> {
        let sent = log.sent.lock().unwrap();
        sent.iter()
            .filter_map(|r| match r {
                Record::Key { vk, scan, flags } if flags & KEYEVENTF_KEYUP == 0 => {
                    Some((*vk, *scan))
                }
                _ => None,
            })
            .collect()
    }

    /// Keys and their scan codes are mapped on the target's layout, asked once a press
    /// (review B3: each thread has its own layout; a German target's `/` is Shift+7).
    #[tokio::test]
    async fn keys_are_mapped_on_the_target_windows_layout() {
        let keyboards = FakeKeyboards {
            foreground: FakeKeyboards::GERMAN,
        };
        let (log, input) = device(Log {
            keyboards,
            ..Log::default()
        });
        let chord = |text: &str| text.parse::<Chord>().unwrap();
        input.press(&chord("ctrl+z")).await.unwrap();
        input.press(&chord("ctrl+/")).await.unwrap();
        let want = [
            (0x11, 0x1D),
            (0x5A, 0x15),
            (0x11, 0x1D),
            (0x10, 0x2A),
            (0x37, 0x08),
        ];
        assert_eq!(downs(&log), want);
    }
}

//! The fake's text format: processes, and under each its windows and their elements, one per
//! line, indented two spaces a level.
//!
//! ```text
//! process "notepad.exe" pid=4242 started=1d9f0c
//!   Window "Untitled - Notepad" hwnd=0x1000 class=Notepad framework=Win32 patterns=Window
//!     Edit "Text editor" patterns=Value,Text value="hello" bounds=10,40,300,200 focused
//!     Edit "Password" password patterns=Value value="hunter2"
//! ```
//!
//! An element line is a control type, a quoted name, then `key=value` pairs and flags.
//! Keys naming it: `rid` (hex parts with dots; numbered in order otherwise), `hwnd`, `class`,
//! `framework`, `id`, `help`, `aria`, `localized`. Keys of its state: `patterns`, `value`,
//! `text`, `bounds=x,y,w,h`, `default`, `toggle=on|off|mixed`, `expand=collapsed|expanded|leaf`,
//! `sizeofset`, `heading`, `grid=rows:columns`, `range=value:min:max:step`, `caret=N`,
//! `selection=start:end`, `hresult` (every call on it fails so), `rename` (what Invoke
//! renames it to). Its `pid` is its process and its descendants', where not its window's:
//! a UWP app's content in `ApplicationFrameHost`'s frame, a WebView2's in its host.
//! Flags: `password`, `disabled`, `offscreen`, `focused`, `focusable`, `selected`,
//! `readonly`, `multiselect`, `dialog`, `modal`, `minimized`, `gone` (it vanishes once read), `slow`
//! (calls on it never return), `inert` (takes pattern calls, does nothing), `blocks` (a pattern
//! call on it does not return: its handler opened a modal dialog). A process line takes `pid`, `started` and
//! `description`; its flags are `elevated`, `unreadable` (its token cannot be read), `slow`.

use deskpilot_platform::model::Rect;

use crate::ids::control;
use crate::raw::{
    Expansion, Pattern, Range, RawElement, RawProcess, Rights, RuntimeKey, Toggle, Visual,
};

/// One element as written, with its faults.
#[derive(Debug, Clone, Default)]
pub struct Written {
    pub raw: RawElement,
    pub value: Option<String>,
    pub text: Option<String>,
    pub depth: usize,
    pub gone: bool,
    pub slow: bool,
    pub hresult: Option<i32>,
    /// `caret=N` and `selection=start:end`, in characters.
    pub caret: Option<u32>,
    pub selection: Option<(u32, u32)>,
    /// Takes every pattern call and does nothing (a provider that lies).
    pub inert: bool,
    /// Its Invoke opens a modal dialog: the call does not return while it is open.
    pub blocks: bool,
    /// What Invoke renames it to (an effect to read back).
    pub rename: Option<String>,
    /// `pid=N`: its process, where not its window's (content another process draws).
    pub pid: Option<u32>,
}

/// A process as written, with its flags.
#[derive(Debug, Clone)]
pub struct WrittenProcess {
    pub process: RawProcess,
    pub slow: bool,
    pub elements: Vec<Written>,
}

/// Splits a line into words, a quoted string being one word (`\"` inside it a quote, `\r`
/// and `\n` a carriage return and a line feed: a Win32 edit's line break is both).
fn words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    // A quote makes a word even when empty (`""` is a nameless element's name).
    let (mut quoted, mut was_quoted) = (false, false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if quoted => word.push(match chars.next() {
                Some('r') => '\r',
                Some('n') => '\n',
                Some(c) => c,
                None => '\\',
            }),
            '"' => (quoted, was_quoted) = (!quoted, true),
            ' ' if !quoted => {
                if !word.is_empty() || was_quoted {
                    words.push(std::mem::take(&mut word));
                }
                was_quoted = false;
            }
            c => word.push(c),
        }
    }
    if quoted {
        return Err(format!("unclosed quote: {line:?}"));
    }
    if !word.is_empty() || was_quoted {
        words.push(word);
    }
    Ok(words)
}

fn number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{key}={value} is no number"))
}

fn hex(key: &str, value: &str) -> Result<u64, String> {
    u64::from_str_radix(value.trim_start_matches("0x"), 16)
        .map_err(|_| format!("{key}={value} is no hex number"))
}

/// Parses the whole text.
pub fn parse(text: &str) -> Result<Vec<WrittenProcess>, String> {
    let mut processes: Vec<WrittenProcess> = Vec::new();
    let mut counter = 0x100;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let indent = line.len() - line.trim_start().len();
        let words = words(line.trim())?;
        if words.first().map(String::as_str) == Some("process") {
            processes.push(process(&words)?);
            continue;
        }
        let Some(process) = processes.last_mut() else {
            return Err(format!("an element before any process: {line:?}"));
        };
        if indent % 2 != 0 || indent < 2 {
            return Err(format!("bad indentation: {line:?}"));
        }
        counter += 1;
        let mut written = element(&words, counter)?;
        written.depth = indent / 2 - 1;
        // An element's process is its own `pid=`, else its parent's, else the process's.
        let parent = process.elements[..]
            .iter()
            .rev()
            .find(|e| e.depth < written.depth)
            .map(|e| e.raw.pid);
        written.raw.pid = written.pid.or(parent).unwrap_or(process.process.pid);
        process.elements.push(written);
    }
    Ok(processes)
}

fn process(words: &[String]) -> Result<WrittenProcess, String> {
    let mut process = RawProcess {
        pid: 0,
        started: 1,
        exe: words.get(1).cloned().unwrap_or_default(),
        description: None,
        rights: Rights::Within,
    };
    let mut slow = false;
    for word in &words[2..] {
        match word.split_once('=') {
            Some(("pid", v)) => process.pid = number("pid", v)?,
            Some(("started", v)) => process.started = hex("started", v)?,
            Some(("description", v)) => process.description = Some(v.to_owned()),
            None if word == "elevated" => process.rights = Rights::Above,
            None if word == "unreadable" => process.rights = Rights::Unreadable,
            None if word == "slow" => slow = true,
            _ => return Err(format!("unknown process word {word:?}")),
        }
    }
    Ok(WrittenProcess {
        process,
        slow,
        elements: Vec::new(),
    })
}

fn element(words: &[String], counter: i32) -> Result<Written, String> {
    let kind = words.first().ok_or("an empty line")?;
    let control_type =
        control::by_name(kind).ok_or_else(|| format!("unknown control type {kind:?}"))?;
    let mut w = Written {
        raw: RawElement {
            key: RuntimeKey(vec![42, counter]),
            control_type,
            name: words.get(1).cloned().unwrap_or_default(),
            enabled: Some(true),
            offscreen: Some(false),
            focused: Some(false),
            password: Some(false),
            ..RawElement::default()
        },
        ..Written::default()
    };
    let raw = &mut w.raw;
    for word in words.iter().skip(2) {
        let Some((key, v)) = word.split_once('=') else {
            match word.as_str() {
                "password" => raw.password = Some(true),
                "disabled" => raw.enabled = Some(false),
                "offscreen" => raw.offscreen = Some(true),
                "focused" => raw.focused = Some(true),
                "focusable" => raw.focusable = Some(true),
                "selected" => raw.selected = Some(true),
                "readonly" => raw.read_only = Some(true),
                "multiselect" => raw.multiselect = Some(true),
                "dialog" => raw.is_dialog = Some(true),
                "modal" => raw.modal = Some(true),
                "minimized" => raw.visual = Some(Visual::Minimized),
                "gone" => w.gone = true,
                "inert" => w.inert = true,
                "blocks" => w.blocks = true,
                "slow" => w.slow = true,
                other => return Err(format!("unknown flag {other:?}")),
            }
            continue;
        };
        match key {
            "pid" => w.pid = Some(number("pid", v)?),
            "rid" => {
                let parts: Result<Vec<i32>, String> = v
                    .split('.')
                    .map(|p| hex("rid", p).map(|n| n as i32))
                    .collect();
                raw.key = RuntimeKey(parts?);
            }
            "hwnd" => raw.hwnd = Some(hex(key, v)?),
            "class" => raw.class_name = Some(v.to_owned()),
            "framework" => raw.framework = Some(v.to_owned()),
            "id" => raw.automation_id = Some(v.to_owned()),
            "help" => raw.help_text = Some(v.to_owned()),
            "aria" => raw.aria_role = Some(v.to_owned()),
            "localized" => raw.localized_type = Some(v.to_owned()),
            "default" => raw.default_action = Some(v.to_owned()),
            "value" => w.value = Some(v.to_owned()),
            "text" => w.text = Some(v.to_owned()),
            "sizeofset" => raw.size_of_set = Some(number(key, v)?),
            "heading" => raw.heading_level = Some(number(key, v)?),
            "hresult" => w.hresult = Some(hex(key, v)? as u32 as i32),
            "caret" => w.caret = Some(number(key, v)?),
            "rename" => w.rename = Some(v.to_owned()),
            "selection" => {
                let (start, end) = v.split_once(':').ok_or("selection=start:end")?;
                w.selection = Some((number(key, start)?, number(key, end)?));
            }
            "patterns" => {
                for name in v.split(',') {
                    let pattern =
                        Pattern::from_name(name).ok_or_else(|| format!("no pattern {name:?}"))?;
                    raw.patterns = raw.patterns.with(pattern);
                }
            }
            "bounds" => {
                let n: Result<Vec<i32>, String> = v.split(',').map(|p| number(key, p)).collect();
                match n?.as_slice() {
                    [x, y, width, height] => raw.bounds = Some(Rect::new(*x, *y, *width, *height)),
                    _ => return Err(format!("bounds={v} is not x,y,w,h")),
                }
            }
            "toggle" => {
                raw.toggle = Some(match v {
                    "on" => Toggle::On,
                    "off" => Toggle::Off,
                    _ => Toggle::Indeterminate,
                })
            }
            "expand" => {
                raw.expansion = Some(match v {
                    "expanded" => Expansion::Expanded,
                    "collapsed" => Expansion::Collapsed,
                    "partly" => Expansion::PartiallyExpanded,
                    _ => Expansion::LeafNode,
                })
            }
            "grid" => {
                let (rows, columns) = v.split_once(':').ok_or("grid=rows:columns")?;
                raw.grid = Some((number(key, rows)?, number(key, columns)?));
            }
            "range" => {
                let n: Result<Vec<f64>, String> = v.split(':').map(|p| number(key, p)).collect();
                let n = n?;
                let at = |i: usize| n.get(i).copied();
                raw.range = Some(Range {
                    value: at(0).unwrap_or(0.0),
                    minimum: at(1),
                    maximum: at(2),
                    small_change: at(3),
                });
            }
            other => return Err(format!("unknown key {other:?}")),
        }
    }
    if raw.has(Pattern::SelectionItem) && raw.selected.is_none() {
        raw.selected = Some(false);
    }
    if raw.has(Pattern::Value) && raw.read_only.is_none() {
        raw.read_only = Some(false);
    }
    if raw.has(Pattern::Window) && raw.visual.is_none() {
        raw.visual = Some(Visual::Normal);
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    /// A nameless element is written `""`: the empty name is a word, not skipped.
    #[test]
    fn an_empty_quoted_name_is_a_word() {
        let words = super::words(r#"DataItem "" patterns=ScrollItem"#).unwrap();
        assert_eq!(words, ["DataItem", "", "patterns=ScrollItem"]);
    }
}

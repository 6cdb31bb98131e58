//! A case file: an app in the fake's text format, then cases, each a list of steps.
//!
//! ```text
//! # A comment.
//! app
//!   application "Form" pid=7
//!     window "Main" bounds=0,0,400,400
//!       checkbox "Plain" actions=click bounds=10,10,100,20
//!
//! case a semantic action that works is confirmed
//!   given no input
//!   check checkbox[name=Plain]
//! ```
//!
//! Each case starts from the app as written, connected to its first window. `given` lines set
//! the rig up (`no input`, `activation refused`); every other line is a step (see `Step`).

use deskpilot_core::act::{Direction, WindowAction};
use deskpilot_core::model::ActionName;
use deskpilot_core::{Action, Chord, MouseButton, OnOff, Selector, ValueInput};

/// A case file, parsed.
pub struct Script {
    pub app: String,
    pub cases: Vec<Case>,
}

/// One case: a name, how its rig is set up, and its steps as written and parsed.
pub struct Case {
    pub name: String,
    pub givens: Vec<Given>,
    pub steps: Vec<(String, Step)>,
}

/// How a case's rig differs from the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Given {
    /// No input device and no window system: only semantic routes.
    NoInput,
    /// The window manager refuses to raise a window.
    ActivationRefused,
}

/// Where a step aims: a selector, or the ref the last `find` gave first.
#[derive(Debug, Clone)]
pub enum Aim {
    Selector(String),
    Found,
}

/// One line of a case.
#[derive(Debug, Clone)]
pub enum Step {
    /// An action on an element; `background` forbids raising a window or moving the pointer.
    Act {
        aim: Aim,
        action: Action,
        background: bool,
    },
    /// A key to the session's window (`key ctrl+s`).
    Key(Chord),
    /// A window manager's action on the session's window (`minimize`, `close`).
    Window(WindowAction),
    /// A drag from an element to a point (`drag button[name=Go] to 300,300`).
    Drag { from: String, to: (i32, i32) },
    /// A find (`find listitem within list`): its matches, the first one's ref kept for
    /// `$found`.
    Find {
        selector: String,
        within: Option<String>,
    },
    /// The one element a selector names, as an action would resolve it.
    Resolve(String),
    /// An element's role, name, value and states (`properties button[name=Go]`).
    Properties(Aim),
    /// A page of an element's text (`read-text textbox 2 5`: from 2, 5 characters).
    ReadText {
        aim: Aim,
        offset: u32,
        length: Option<u32>,
    },
    /// A page of a table's rows (`read-table table 0 2`: from row 0, 2 rows).
    ReadTable { aim: Aim, first: u32, rows: u32 },
    /// The elements at a point, outermost first (`hit 20,70`).
    Hit(i32, i32),
    /// The element with the keyboard focus.
    Focused,
    /// A snapshot of the session's window, as rendered.
    Snapshot,
    /// Start a program (`launch gedit`).
    Launch(String),
}

pub fn parse(text: &str) -> Result<Script, String> {
    let mut app = String::new();
    let mut cases: Vec<Case> = Vec::new();
    let mut in_app = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if trimmed == "app" {
            in_app = true;
        } else if let Some(name) = trimmed.strip_prefix("case ") {
            in_app = false;
            cases.push(Case {
                name: name.to_owned(),
                givens: Vec::new(),
                steps: Vec::new(),
            });
        } else if in_app {
            app.push_str(line);
            app.push('\n');
        } else {
            let case = cases
                .last_mut()
                .ok_or(format!("a step before any case: {line:?}"))?;
            match trimmed.strip_prefix("given ") {
                Some(given) => case.givens.push(parse_given(given)?),
                None => case.steps.push((trimmed.to_owned(), parse_step(trimmed)?)),
            }
        }
    }
    Ok(Script { app, cases })
}

impl Given {
    const ALL: [Given; 2] = [Given::NoInput, Given::ActivationRefused];

    /// As a case writes it after `given`.
    pub fn words(self) -> &'static str {
        match self {
            Given::NoInput => "no input",
            Given::ActivationRefused => "activation refused",
        }
    }
}

fn parse_given(text: &str) -> Result<Given, String> {
    let given = Given::ALL.into_iter().find(|g| g.words() == text);
    given.ok_or(format!("unknown given {text:?}"))
}

/// Splits a line into words; brackets and quotes hold spaces, quotes are dropped outside
/// brackets.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut depth, mut quoted) = (0, false);
    for c in line.chars() {
        match c {
            '"' if depth == 0 => quoted = !quoted,
            '[' if !quoted => {
                depth += 1;
                word.push(c);
            }
            ']' if !quoted => {
                depth -= 1;
                word.push(c);
            }
            ' ' if depth == 0 && !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

fn parse_step(line: &str) -> Result<Step, String> {
    let words = words(line);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let (background, words) = match words.as_slice() {
        ["background", rest @ ..] => (true, rest),
        all => (false, all),
    };
    let step = match words {
        ["key", chord] => Step::Key(chord.parse().map_err(|e| format!("{e:?}"))?),
        ["minimize"] => Step::Window(WindowAction::Minimize),
        ["maximize"] => Step::Window(WindowAction::Maximize),
        ["close"] => Step::Window(WindowAction::Close),
        ["drag", from, "to", point] => Step::Drag {
            from: checked(from)?,
            to: point_of(point)?,
        },
        ["find", selector] => Step::Find {
            selector: checked(selector)?,
            within: None,
        },
        ["find", selector, "within", within] => Step::Find {
            selector: checked(selector)?,
            within: Some(checked(within)?),
        },
        ["resolve", selector] => Step::Resolve(checked(selector)?),
        ["properties", aim] => Step::Properties(aim_of(aim)?),
        ["read-text", aim, offset, length @ ..] => Step::ReadText {
            aim: aim_of(aim)?,
            offset: count(offset)?,
            length: length.first().map(|l| count(l)).transpose()?,
        },
        ["read-table", aim, first, rows] => Step::ReadTable {
            aim: aim_of(aim)?,
            first: count(first)?,
            rows: count(rows)?,
        },
        ["hit", point] => {
            let (x, y) = point_of(point)?;
            Step::Hit(x, y)
        }
        ["focused"] => Step::Focused,
        ["snapshot"] => Step::Snapshot,
        ["launch", program] => Step::Launch((*program).to_owned()),
        [verb, aim, rest @ ..] => Step::Act {
            aim: aim_of(aim)?,
            action: action(verb, rest)?,
            background,
        },
        _ => return Err(format!("unknown step {line:?}")),
    };
    Ok(step)
}

fn checked(selector: &str) -> Result<String, String> {
    Selector::parse(selector).map_err(|e| format!("{selector}: {e:?}"))?;
    Ok(selector.to_owned())
}

fn aim_of(word: &str) -> Result<Aim, String> {
    match word {
        "$found" => Ok(Aim::Found),
        selector => checked(selector).map(Aim::Selector),
    }
}

fn count(word: &str) -> Result<u32, String> {
    word.parse().map_err(|_| format!("{word} is no count"))
}

fn point_of(word: &str) -> Result<(i32, i32), String> {
    let (x, y) = word.split_once(',').ok_or(format!("{word} is no x,y"))?;
    let number = |n: &str| n.parse().map_err(|_| format!("{word} is no x,y"));
    Ok((number(x)?, number(y)?))
}

/// An element's verb and its arguments.
fn action(verb: &str, args: &[&str]) -> Result<Action, String> {
    let action = match (verb, args) {
        ("check", []) => Action::Toggle {
            ensure: Some(OnOff::On),
        },
        ("uncheck", []) => Action::Toggle {
            ensure: Some(OnOff::Off),
        },
        ("toggle", []) => Action::Toggle { ensure: None },
        ("click", []) => Action::Click {
            button: MouseButton::Left,
            double: false,
        },
        ("set", [number]) if number.parse::<f64>().is_ok() => {
            Action::SetValue(ValueInput::Number(number.parse().unwrap()))
        }
        ("set", [text]) => Action::SetValue(ValueInput::Text((*text).into())),
        ("type", [text]) => Action::TypeText((*text).into()),
        ("press", [chord]) => Action::PressKey(chord.parse().map_err(|e| format!("{e:?}"))?),
        ("select", []) => Action::Select,
        ("expand", []) => Action::Expand,
        ("collapse", []) => Action::Collapse,
        ("focus", []) => Action::Focus,
        ("scroll-into-view", []) => Action::ScrollIntoView,
        ("activate", []) => Action::Activate(ActionName::Default),
        ("scroll", [direction, amount]) => Action::Scroll {
            direction: match *direction {
                "up" => Direction::Up,
                "down" => Direction::Down,
                "left" => Direction::Left,
                "right" => Direction::Right,
                other => return Err(format!("no direction {other:?}")),
            },
            amount: count(amount)?,
        },
        _ => return Err(format!("unknown verb {verb:?} with {args:?}")),
    };
    Ok(action)
}

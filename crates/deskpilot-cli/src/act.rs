//! The CLI's action verbs: `click`, `type`, `press`, `set`, `act`, over the engine's ladder.

use std::process::ExitCode;

use anyhow::anyhow;
use clap::{Subcommand, ValueEnum};
use deskpilot_core::{
    Action, Chord, Engine, InputText, MouseButton, OnOff, Selector, Target, ValueInput,
};

#[derive(Clone, Copy, ValueEnum)]
pub enum Button {
    Left,
    Right,
    Middle,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Verb {
    Toggle,
    Check,
    Uncheck,
    Select,
    AddToSelection,
    Deselect,
    Expand,
    Collapse,
    Focus,
    ScrollIntoView,
}

#[derive(Subcommand)]
pub enum ActCommand {
    /// Click an element (a selector matching exactly one), through the route ladder.
    Click {
        target: String,
        selector: String,
        #[arg(long, value_enum, default_value = "left")]
        button: Button,
        #[arg(long)]
        double: bool,
        #[arg(long)]
        json: bool,
    },
    /// Type text (keystrokes) into an element, or into the focused one of the window.
    Type {
        target: String,
        text: String,
        /// Focus this element first.
        #[arg(long, value_name = "SELECTOR")]
        into: Option<String>,
        /// Keep the text secret: the result shows the field's length only.
        #[arg(long)]
        secret: bool,
        #[arg(long)]
        json: bool,
    },
    /// Press a key or chord (Enter, ctrl+s, alt+F4) in the window, or on an element.
    Press {
        target: String,
        key: String,
        /// Focus this element first.
        #[arg(long, value_name = "SELECTOR")]
        on: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Set an element's whole text, or a number on a slider or spin button.
    Set {
        target: String,
        selector: String,
        value: String,
        /// Treat the value as a number.
        #[arg(long)]
        number: bool,
        /// Keep the text secret: the result shows the field's length only.
        #[arg(long, conflicts_with = "number")]
        secret: bool,
        #[arg(long)]
        json: bool,
    },
    /// Drag with the left button from an element (selector) or point (`x,y`) to another.
    Drag {
        target: String,
        from: String,
        to: String,
        #[arg(long)]
        json: bool,
    },
    /// A semantic verb: toggle, check, uncheck, select, expand, collapse, focus, ...
    Act {
        target: String,
        selector: String,
        #[arg(value_enum)]
        verb: Verb,
        #[arg(long)]
        json: bool,
    },
}

impl ActCommand {
    pub fn target(&self) -> &str {
        match self {
            ActCommand::Click { target, .. }
            | ActCommand::Type { target, .. }
            | ActCommand::Press { target, .. }
            | ActCommand::Set { target, .. }
            | ActCommand::Drag { target, .. }
            | ActCommand::Act { target, .. } => target,
        }
    }

    fn json(&self) -> bool {
        match self {
            ActCommand::Click { json, .. }
            | ActCommand::Type { json, .. }
            | ActCommand::Press { json, .. }
            | ActCommand::Set { json, .. }
            | ActCommand::Drag { json, .. }
            | ActCommand::Act { json, .. } => *json,
        }
    }

    /// The element (None: the window) and the action.
    fn action(&self) -> anyhow::Result<(Option<&str>, Action)> {
        Ok(match self {
            ActCommand::Drag { .. } => unreachable!("drags are run by `drag`"),
            ActCommand::Click {
                selector,
                button,
                double,
                ..
            } => (
                Some(selector),
                Action::Click {
                    button: match button {
                        Button::Left => MouseButton::Left,
                        Button::Right => MouseButton::Right,
                        Button::Middle => MouseButton::Middle,
                    },
                    double: *double,
                },
            ),
            ActCommand::Type {
                text, into, secret, ..
            } => (
                into.as_deref(),
                Action::TypeText(InputText::new(text.as_str(), *secret)),
            ),
            ActCommand::Press { key, on, .. } => {
                let chord: Chord = key.parse().map_err(|e| anyhow!("{e}"))?;
                (on.as_deref(), Action::PressKey(chord))
            }
            ActCommand::Set {
                selector,
                value,
                number,
                secret,
                ..
            } => {
                let value = if *number {
                    ValueInput::Number(
                        value
                            .parse()
                            .map_err(|_| anyhow!("--number: the value is not a number"))?,
                    )
                } else {
                    ValueInput::Text(InputText::new(value.as_str(), *secret))
                };
                (Some(selector), Action::SetValue(value))
            }
            ActCommand::Act { selector, verb, .. } => (
                Some(selector),
                match verb {
                    Verb::Toggle => Action::Toggle { ensure: None },
                    Verb::Check => Action::Toggle {
                        ensure: Some(OnOff::On),
                    },
                    Verb::Uncheck => Action::Toggle {
                        ensure: Some(OnOff::Off),
                    },
                    Verb::Select => Action::Select,
                    Verb::AddToSelection => Action::AddToSelection,
                    Verb::Deselect => Action::Deselect,
                    Verb::Expand => Action::Expand,
                    Verb::Collapse => Action::Collapse,
                    Verb::Focus => Action::Focus,
                    Verb::ScrollIntoView => Action::ScrollIntoView,
                },
            ),
        })
    }
}

/// `x,y` is a screen point; anything else a selector.
fn drag_end(text: &str) -> anyhow::Result<deskpilot_core::act::DragEnd> {
    if let Some((x, y)) = text.split_once(',')
        && let (Ok(x), Ok(y)) = (x.trim().parse(), y.trim().parse())
    {
        return Ok(deskpilot_core::act::DragEnd::Point { x, y });
    }
    Ok(deskpilot_core::act::DragEnd::Element(Target::Selector(
        Selector::parse(text)?,
    )))
}

/// Runs one action verb in `session` and prints its report.
pub async fn run(engine: &Engine, session: &str, command: &ActCommand) -> anyhow::Result<ExitCode> {
    let result = if let ActCommand::Drag { from, to, .. } = command {
        engine.drag(session, &drag_end(from)?, &drag_end(to)?).await
    } else {
        let (selector, action) = command.action()?;
        match selector {
            Some(selector) => {
                let target = Target::Selector(Selector::parse(selector)?);
                engine.act(session, &target, &action).await
            }
            None => engine.act_on_window(session, &action).await,
        }
    };
    match result {
        Ok(report) if command.json() => {
            outln!("{}", serde_json::to_string_pretty(&report)?);
            Ok(ExitCode::SUCCESS)
        }
        Ok(report) => {
            outln!("{}", deskpilot_core::present::action(&report));
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Ok(crate::report(&e)),
    }
}

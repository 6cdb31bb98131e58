//! The commands that act: `click`, `type`, `press`, `set`, `act` (every semantic verb),
//! `drag`, `window`, `launch`, over the engine's ladder; the same verbs as the MCP server's.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::anyhow;
use clap::Subcommand;
use deskpilot_core::act::{DragEnd, Verb, VerbOptions, WindowAction};
use deskpilot_core::{
    Action, ActionReport, Chord, Direction, Engine, InputText, MouseButton, OnOff, ValueInput,
    present,
};

use crate::words::{named, selector};
use crate::{connect, finish};

#[derive(Subcommand)]
pub enum ActCommand {
    /// Click an element (a selector matching exactly one), through the route ladder.
    Click {
        target: String,
        selector: String,
        #[arg(long, default_value = "left", value_parser = named::<MouseButton>())]
        button: MouseButton,
        #[arg(long)]
        double: bool,
        #[command(flatten)]
        wait: Wait,
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
        #[command(flatten)]
        wait: Wait,
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
        #[command(flatten)]
        wait: Wait,
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
        #[command(flatten)]
        wait: Wait,
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
    /// A semantic verb: toggle, check, uncheck, select, select_option (on a combo box),
    /// expand, collapse, focus, scroll, activate (an action by name, or the default one), ...
    Act {
        target: String,
        selector: String,
        #[arg(value_parser = named::<Verb>())]
        verb: Verb,
        /// For toggle: only act when it is not already on (or off).
        #[arg(long, value_parser = named::<OnOff>())]
        ensure: Option<OnOff>,
        /// For activate: the action's name as `props` lists it (none: the default action);
        /// for select_option: the option's.
        #[arg(long)]
        name: Option<String>,
        /// For select_option: the option's place, from 0.
        #[arg(long)]
        index: Option<u32>,
        /// For scroll: which way.
        #[arg(long, value_parser = named::<Direction>())]
        direction: Option<Direction>,
        /// For scroll: wheel clicks (default 3).
        #[arg(long)]
        amount: Option<u32>,
        #[command(flatten)]
        wait: Wait,
        #[arg(long)]
        json: bool,
    },
    /// Activate, minimize, maximize, restore or close a window.
    Window {
        target: String,
        #[arg(value_parser = named::<WindowAction>())]
        action: WindowAction,
        #[arg(long)]
        json: bool,
    },
    /// Start a program (no shell, a clean environment) and wait until it registers on the
    /// accessibility bus.
    Launch {
        /// Give up after this many seconds.
        #[arg(long, default_value_t = 30)]
        timeout: u64,
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        argv: Vec<String>,
    },
}

/// How long an action on an element waits for it to be actionable.
#[derive(clap::Args, Clone, Copy)]
pub struct Wait {
    /// Wait up to this long (ms) for the element to be visible, enabled (and editable for
    /// text, still for pointer input); 0 does not wait.
    #[arg(long = "timeout-ms", default_value_t = 2000)]
    timeout_ms: u64,
}

/// `x,y` is a screen point; anything else a selector.
fn drag_end(text: &str) -> anyhow::Result<DragEnd> {
    if let Some((x, y)) = text.split_once(',')
        && let (Ok(x), Ok(y)) = (x.trim().parse(), y.trim().parse())
    {
        return Ok(DragEnd::Point { x, y });
    }
    Ok(DragEnd::Element(selector(text)?))
}

/// Prints an action's report (text, or the MCP server's JSON).
fn reported(result: deskpilot_core::error::Result<ActionReport>, json: bool) -> ExitCode {
    finish(result, |report| {
        if json {
            let out = deskpilot_mcp::output::ActionOut::from(&report);
            outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        } else {
            outln!("{}", present::action(&report));
        }
    })
}

/// Runs one action command.
pub async fn run(engine: &Engine, command: ActCommand) -> anyhow::Result<ExitCode> {
    if let ActCommand::Launch { timeout, argv } = &command {
        let launched = engine.launch_app(argv, Duration::from_secs(*timeout)).await;
        return Ok(finish(launched, |launched| {
            outln!("{}", present::launched(&argv[0], &launched));
        }));
    }
    let target = match &command {
        ActCommand::Click { target, .. }
        | ActCommand::Type { target, .. }
        | ActCommand::Press { target, .. }
        | ActCommand::Set { target, .. }
        | ActCommand::Drag { target, .. }
        | ActCommand::Act { target, .. }
        | ActCommand::Window { target, .. } => target,
        ActCommand::Launch { .. } => unreachable!("handled above"),
    };
    let Some(session) = connect(engine, target).await? else {
        return Ok(ExitCode::from(1));
    };
    let session = session.as_str();
    // The element (None: the window), the action, the wait, and whether to print JSON.
    let (element, action, wait, json) = match command {
        ActCommand::Drag { from, to, json, .. } => {
            let result = engine
                .session(session)?
                .drag(&drag_end(&from)?, &drag_end(&to)?)
                .await;
            return Ok(reported(result, json));
        }
        ActCommand::Window { action, json, .. } => {
            return Ok(reported(
                engine.session(session)?.window_action(action).await,
                json,
            ));
        }
        ActCommand::Click {
            selector,
            button,
            double,
            wait,
            json,
            ..
        } => (Some(selector), Action::Click { button, double }, wait, json),
        ActCommand::Type {
            text,
            into,
            secret,
            wait,
            json,
            ..
        } => (
            into,
            Action::TypeText(InputText::new(text, secret)),
            wait,
            json,
        ),
        ActCommand::Press {
            key,
            on,
            wait,
            json,
            ..
        } => {
            let chord: Chord = key.parse().map_err(|e| anyhow!("{e}"))?;
            (on, Action::PressKey(chord), wait, json)
        }
        ActCommand::Set {
            selector,
            value,
            number,
            secret,
            wait,
            json,
            ..
        } => {
            let value = if number {
                let n = value
                    .parse()
                    .map_err(|_| anyhow!("--number: the value is not a number"))?;
                ValueInput::Number(n)
            } else {
                ValueInput::Text(InputText::new(value, secret))
            };
            (Some(selector), Action::SetValue(value), wait, json)
        }
        ActCommand::Act {
            selector,
            verb,
            ensure,
            name,
            index,
            direction,
            amount,
            wait,
            json,
            ..
        } => {
            let options = VerbOptions {
                ensure,
                name,
                index,
                direction,
                amount,
            };
            (Some(selector), verb.action(options)?, wait, json)
        }
        ActCommand::Launch { .. } => unreachable!("handled above"),
    };
    let result = match element {
        Some(text) => {
            let wait = Duration::from_millis(wait.timeout_ms);
            engine
                .session(session)?
                .act_when_ready(&selector(&text)?, &action, wait)
                .await
        }
        None => engine.session(session)?.act_on_window(&action).await,
    };
    Ok(reported(result, json))
}

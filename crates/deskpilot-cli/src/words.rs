//! Command-line words for core's closed sets (verbs, buttons, directions, window actions):
//! the names come from core, so the CLI and the MCP server accept the same ones.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use deskpilot_core::act::Named;
use deskpilot_core::{Selector, Target};

/// A clap parser that accepts exactly `T`'s names (and lists them in `--help`).
pub fn named<T: Named + Clone + Send + Sync>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(T::names())
        .map(|name| T::from_name(&name).expect("clap accepts only listed names"))
}

/// A selector argument as a target.
pub fn selector(text: &str) -> anyhow::Result<Target> {
    Ok(Target::Selector(Selector::parse(text)?))
}

//! The words faces accept for verbs and their options, each with the one name it goes by
//! everywhere (CLI arguments, MCP argument values, reports), and the one mapping from a verb
//! with its options to an `Action`. Renaming a verb is one line here.

use super::action::{Action, Choice, Direction, MouseButton, OnOff, WindowAction};
use crate::error::{Code, Error};
use crate::filter::Filter;
use crate::model::ActionName;
use crate::wait::Until;

/// A closed set of words.
pub trait Named: Copy + Sized + 'static {
    /// What the words name, for messages (`verb`, `button`).
    const KIND: &'static str;
    /// Every word, in the order they are offered.
    fn all() -> &'static [Self];
    fn name(self) -> &'static str;
    fn from_name(name: &str) -> Option<Self> {
        Self::all().iter().copied().find(|v| v.name() == name)
    }
    /// Every name, in order.
    fn names() -> Vec<&'static str> {
        Self::all().iter().map(|v| v.name()).collect()
    }
}

macro_rules! named {
    ($ty:ident, $kind:literal, { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl Named for $ty {
            const KIND: &'static str = $kind;
            fn all() -> &'static [Self] {
                &[$($ty::$variant),+]
            }
            fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }
    };
}

/// A semantic verb of `act`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Toggle,
    Check,
    Uncheck,
    Select,
    SelectOption,
    AddToSelection,
    Deselect,
    Expand,
    Collapse,
    Focus,
    ScrollIntoView,
    Scroll,
    Activate,
}

named!(Verb, "verb", {
    Toggle => "toggle",
    Check => "check",
    Uncheck => "uncheck",
    Select => "select",
    SelectOption => "select_option",
    AddToSelection => "add_to_selection",
    Deselect => "deselect",
    Expand => "expand",
    Collapse => "collapse",
    Focus => "focus",
    ScrollIntoView => "scroll_into_view",
    Scroll => "scroll",
    Activate => "activate",
});
named!(MouseButton, "button", { Left => "left", Right => "right", Middle => "middle" });
named!(OnOff, "state", { On => "on", Off => "off" });
named!(Filter, "filter", { Interactive => "interactive", Text => "text", All => "all" });
named!(Until, "until", { Appears => "appears", Attached => "attached", Disappears => "disappears" });
named!(Direction, "direction", { Up => "up", Down => "down", Left => "left", Right => "right" });
named!(WindowAction, "window action", {
    Activate => "activate",
    Minimize => "minimize",
    Maximize => "maximize",
    Restore => "restore",
    Close => "close",
});

/// The options `act` takes beside its verb; each goes with one verb only.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VerbOptions {
    /// For `toggle`: only act when it is not already on (or off).
    pub ensure: Option<OnOff>,
    /// For `activate`: the action's name as the element lists it; for `select_option`: the
    /// option's name.
    pub name: Option<String>,
    /// For `select_option`: the option's place, from 0.
    pub index: Option<u32>,
    /// For `scroll`: which way.
    pub direction: Option<Direction>,
    /// For `scroll`: wheel clicks (default 3, at most 50).
    pub amount: Option<u32>,
}

impl Verb {
    /// The action this verb asks for with these options; an option that does not go with the
    /// verb (or a missing one it needs) is `invalid_arguments`.
    pub fn action(self, options: VerbOptions) -> Result<Action, Error> {
        let invalid = |message: &str| {
            Error::new(
                Code::InvalidArguments,
                message,
                "check which options go with the verb",
            )
        };
        if options.ensure.is_some() && self != Verb::Toggle {
            return Err(invalid("ensure goes with verb toggle only"));
        }
        if (self == Verb::Scroll) != options.direction.is_some()
            || (options.amount.is_some() && self != Verb::Scroll)
        {
            return Err(invalid(
                "direction (and amount) go with verb scroll, which needs a direction",
            ));
        }
        if self == Verb::SelectOption {
            if options.name.is_some() == options.index.is_some() {
                return Err(invalid(
                    "verb select_option takes the option's name or its index (one of them)",
                ));
            }
        } else if options.index.is_some() {
            return Err(invalid("index goes with verb select_option only"));
        } else if options.name.is_some() != (self == Verb::Activate) {
            return Err(invalid(
                "name is required with verb activate (and names the option of select_option)",
            ));
        }
        Ok(match self {
            Verb::Toggle => Action::Toggle {
                ensure: options.ensure,
            },
            Verb::Check => Action::Toggle {
                ensure: Some(OnOff::On),
            },
            Verb::Uncheck => Action::Toggle {
                ensure: Some(OnOff::Off),
            },
            Verb::Select => Action::Select,
            Verb::SelectOption => Action::SelectOption(match (options.name, options.index) {
                (Some(name), _) => Choice::Name(name),
                (None, index) => Choice::Index(index.unwrap_or_default()),
            }),
            Verb::AddToSelection => Action::AddToSelection,
            Verb::Deselect => Action::Deselect,
            Verb::Expand => Action::Expand,
            Verb::Collapse => Action::Collapse,
            Verb::Focus => Action::Focus,
            Verb::ScrollIntoView => Action::ScrollIntoView,
            Verb::Activate => {
                Action::Activate(options.name.map_or(ActionName::Default, ActionName::Named))
            }
            Verb::Scroll => Action::Scroll {
                direction: options.direction.unwrap_or(Direction::Down),
                amount: options.amount.unwrap_or(3).clamp(1, 50),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        fn check<T: Named + PartialEq + std::fmt::Debug>() {
            let names = T::names();
            let unique: std::collections::HashSet<_> = names.iter().collect();
            assert_eq!(unique.len(), names.len(), "{}", T::KIND);
            for v in T::all() {
                assert_eq!(T::from_name(v.name()), Some(*v));
            }
            assert_eq!(T::from_name("nonsense"), None);
        }
        check::<Verb>();
        check::<MouseButton>();
        check::<OnOff>();
        check::<Direction>();
        check::<WindowAction>();
    }

    #[test]
    fn options_go_with_their_verb_only() {
        let ensure = VerbOptions {
            ensure: Some(OnOff::On),
            ..VerbOptions::default()
        };
        assert_eq!(
            Verb::Toggle.action(ensure.clone()),
            Ok(Action::Toggle {
                ensure: Some(OnOff::On)
            })
        );
        assert_eq!(
            Verb::Select.action(ensure).unwrap_err().code,
            Code::InvalidArguments
        );
        assert!(Verb::Scroll.action(VerbOptions::default()).is_err());
        assert!(Verb::Activate.action(VerbOptions::default()).is_err());
        let named = |name: &str| VerbOptions {
            name: Some(name.into()),
            ..VerbOptions::default()
        };
        assert_eq!(
            Verb::SelectOption.action(named("Large")),
            Ok(Action::SelectOption(Choice::Name("Large".into())))
        );
        let index = VerbOptions {
            index: Some(2),
            ..VerbOptions::default()
        };
        assert_eq!(
            Verb::SelectOption.action(index.clone()),
            Ok(Action::SelectOption(Choice::Index(2)))
        );
        assert!(Verb::SelectOption.action(VerbOptions::default()).is_err());
        assert!(
            Verb::SelectOption
                .action(VerbOptions {
                    index: Some(2),
                    ..named("Large")
                })
                .is_err()
        );
        assert!(Verb::Select.action(index).is_err());
        assert!(Verb::Select.action(named("Large")).is_err());
        let scroll = VerbOptions {
            direction: Some(Direction::Up),
            amount: Some(500),
            ..VerbOptions::default()
        };
        assert_eq!(
            Verb::Scroll.action(scroll),
            Ok(Action::Scroll {
                direction: Direction::Up,
                amount: 50
            })
        );
    }
}

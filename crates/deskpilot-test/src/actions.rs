//! What a locator does: the verified actions, each after the actionability wait it needs.

use deskpilot_core::act::DragEnd;
use deskpilot_core::{
    Action, Choice, Chord, InputText, MouseButton, OnOff, Target, ValueInput, present,
};

use crate::error::{Result, TestError};
use crate::locator::{Acted, Locator, Needs, Still};

impl Locator {
    const ACTIONABLE: Needs = Needs {
        enabled: true,
        editable: false,
        still: Still::Never,
        hidden_too: false,
        chooses: false,
    };

    /// For real pointer input: also where it was a moment ago.
    const POINTABLE: Needs = Needs {
        enabled: true,
        editable: false,
        still: Still::Always,
        hidden_too: false,
        chooses: false,
    };

    /// Clicks the element: its own action first, else focus and Space, else a real click at
    /// its live bounds (then only once they held still); the effect read back.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::Button).name("Save").click().await?;
    /// # Ok(()) }
    /// ```
    pub async fn click(&self) -> Result<Acted> {
        let action = Action::Click {
            button: MouseButton::Left,
            double: false,
        };
        let needs = Needs {
            still: Still::IfPointed,
            chooses: true,
            ..Self::ACTIONABLE
        };
        self.act(needs, action).await
    }

    /// Double-clicks the element (real pointer input).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::Cell).name("notes.txt").dblclick().await?;
    /// # Ok(()) }
    /// ```
    pub async fn dblclick(&self) -> Result<Acted> {
        let action = Action::Click {
            button: MouseButton::Left,
            double: true,
        };
        self.act(Self::POINTABLE, action).await
    }

    /// Replaces the element's whole text with `text`, then reads it back.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::TextBox).name("Name").fill("notes.txt").await?;
    /// # Ok(()) }
    /// ```
    pub async fn fill(&self, text: &str) -> Result<Acted> {
        let needs = Needs {
            enabled: true,
            editable: true,
            still: Still::Never,
            hidden_too: false,
            chooses: false,
        };
        let action = Action::SetValue(ValueInput::Text(InputText::plain(text)));
        self.act(needs, action).await
    }

    /// Replaces the element's text with a secret: no result, error or trace shows it.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// let password = std::env::var("TEST_PASSWORD").unwrap_or_default();
    /// app.get_by_role(Role::Password).fill_secret(&password).await?;
    /// # Ok(()) }
    /// ```
    pub async fn fill_secret(&self, text: &str) -> Result<Acted> {
        let needs = Needs {
            enabled: true,
            editable: true,
            still: Still::Never,
            hidden_too: false,
            chooses: false,
        };
        let action = Action::SetValue(ValueInput::Text(InputText::new(text, true)));
        self.act(needs, action).await
    }

    /// Sets a slider's or spin button's number.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::SpinButton).name("Tab width").set_number(4.0).await?;
    /// # Ok(()) }
    /// ```
    pub async fn set_number(&self, value: f64) -> Result<Acted> {
        let action = Action::SetValue(ValueInput::Number(value));
        self.act(Self::ACTIONABLE, action).await
    }

    /// Types `text` as keystrokes into the element (focused first, at the end of its text).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::TextBox).type_text(", world").await?; // appended, key by key
    /// # Ok(()) }
    /// ```
    pub async fn type_text(&self, text: &str) -> Result<Acted> {
        let action = Action::TypeText(InputText::plain(text));
        self.act(Self::ACTIONABLE, action).await
    }

    /// Types `text` as keystrokes, kept secret: no result, error or trace shows it or its keys.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// let pin = std::env::var("TEST_PIN").unwrap_or_default();
    /// app.get_by_role(Role::Password).name("PIN").type_secret(&pin).await?;
    /// # Ok(()) }
    /// ```
    pub async fn type_secret(&self, text: &str) -> Result<Acted> {
        let action = Action::TypeText(InputText::new(text, true));
        self.act(Self::ACTIONABLE, action).await
    }

    /// Presses a key or chord (`Enter`, `ctrl+a`) with the element focused.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::TextBox).name("Find").press("Enter").await?;
    /// # Ok(()) }
    /// ```
    pub async fn press(&self, key: &str) -> Result<Acted> {
        let chord: Chord = key
            .parse()
            .map_err(|e: deskpilot_core::act::KeyError| TestError::Desktop(e.to_string()))?;
        self.act(Self::ACTIONABLE, Action::PressKey(chord)).await
    }

    /// Checks the element; nothing is sent when it is checked already.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// let wrap = app.get_by_role(Role::Checkbox).name("Word wrap");
    /// wrap.check().await?;
    /// wrap.check().await?; // already checked: nothing sent, no failure
    /// # Ok(()) }
    /// ```
    pub async fn check(&self) -> Result<Acted> {
        let action = Action::Toggle {
            ensure: Some(OnOff::On),
        };
        self.act(Self::ACTIONABLE, action).await
    }

    /// Unchecks the element; nothing is sent when it is unchecked already.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// let wrap = app.get_by_role(Role::Checkbox).name("Word wrap");
    /// wrap.uncheck().await?; // whatever it was before, it is unchecked now
    /// # Ok(()) }
    /// ```
    pub async fn uncheck(&self) -> Result<Acted> {
        let action = Action::Toggle {
            ensure: Some(OnOff::Off),
        };
        self.act(Self::ACTIONABLE, action).await
    }

    /// Selects the element (a list item, a row, a tab, a radio item).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::Tab).name("Editor").select().await?;
    /// # Ok(()) }
    /// ```
    pub async fn select(&self) -> Result<Acted> {
        let needs = Needs {
            chooses: true,
            ..Self::ACTIONABLE
        };
        self.act(needs, Action::Select).await
    }

    /// Makes the combo box show the option named `name` (its list need not be open),
    /// confirmed by the option it shows.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::ComboBox).name("Encoding").select_option("UTF-8").await?;
    /// # Ok(()) }
    /// ```
    pub async fn select_option(&self, name: &str) -> Result<Acted> {
        let choice = Choice::Name(name.to_owned());
        self.act(Self::ACTIONABLE, Action::SelectOption(choice))
            .await
    }

    /// Makes the combo box show its option at `index` (from 0), for toolkits that do not
    /// expose the options' names (GTK 4's combo box).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::ComboBox).name("Color").select_option_at(1).await?;
    /// # Ok(()) }
    /// ```
    pub async fn select_option_at(&self, index: u32) -> Result<Acted> {
        self.act(Self::ACTIONABLE, Action::SelectOption(Choice::Index(index)))
            .await
    }

    /// Expands the element (a tree item, an expander); nothing is sent when it is expanded.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::TreeItem).name("Documents").expand().await?;
    /// # Ok(()) }
    /// ```
    pub async fn expand(&self) -> Result<Acted> {
        self.act(Self::ACTIONABLE, Action::Expand).await
    }

    /// Collapses the element; nothing is sent when it is collapsed.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::TreeItem).name("Documents").collapse().await?;
    /// # Ok(()) }
    /// ```
    pub async fn collapse(&self) -> Result<Acted> {
        self.act(Self::ACTIONABLE, Action::Collapse).await
    }

    /// Gives the element the keyboard focus.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::TextBox).name("Find").focus().await?;
    /// # Ok(()) }
    /// ```
    pub async fn focus(&self) -> Result<Acted> {
        self.act(Self::ACTIONABLE, Action::Focus).await
    }

    /// Scrolls the element's containers until it is on screen (it need not be visible yet).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::ListItem).name("Zoom").scroll_into_view().await?;
    /// # Ok(()) }
    /// ```
    pub async fn scroll_into_view(&self) -> Result<Acted> {
        let needs = Needs {
            hidden_too: true,
            ..Needs::default()
        };
        self.act(needs, Action::ScrollIntoView).await
    }

    /// Drags the element onto `target` (real pointer input, in steps).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// let note = app.get_by_role(Role::Row).name("note.txt");
    /// note.drag_to(&app.get_by_role(Role::Row).name("Archive")).await?;
    /// # Ok(()) }
    /// ```
    pub async fn drag_to(&self, target: &Locator) -> Result<Acted> {
        let title = || format!("drag {} to {}", self.selector(), target.selector());
        let body = self.drag_untraced(target);
        self.session
            .traced(title, body, |acted| present::action(&acted.report))
            .await
    }

    async fn drag_untraced(&self, target: &Locator) -> Result<Acted> {
        let (from, mut controls) = self.actionable(Self::POINTABLE).await?;
        let (to, theirs) = target
            .actionable(Needs {
                still: Still::Always,
                ..Needs::default()
            })
            .await?;
        controls.extend(theirs);
        let drag = async {
            self.session
                .handle()?
                .drag(
                    &DragEnd::Element(Target::Ref(from.reference)),
                    &DragEnd::Element(Target::Ref(to.reference)),
                )
                .await
        };
        let report = drag
            .await
            .map_err(|e| TestError::engine(self.selector(), e))?;
        self.acted(report, controls)
    }
}

//! Text an action carries (typed, set, inserted): it may be a password, so it never prints.

/// Text to type or set. `Debug` and `Display` give only its length, so no error message,
/// skipped-rung reason or log line built from an action can carry it; `expose` is the one way
/// to the characters, for the code that delivers them. `secret` marks text the caller asked
/// to keep secret (`secret: true`): the report then shows no value of the field either.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct InputText {
    text: String,
    secret: bool,
}

impl InputText {
    /// Text whose field's value may be shown in reports (the field is not a password).
    pub fn plain(text: impl Into<String>) -> Self {
        InputText {
            text: text.into(),
            secret: false,
        }
    }

    /// Text to keep secret whatever the field: no value of the field appears in the report.
    pub fn secret(text: impl Into<String>) -> Self {
        InputText {
            text: text.into(),
            secret: true,
        }
    }

    /// Secret when `secret` (a caller's `secret: true`), else plain.
    pub fn new(text: impl Into<String>, secret: bool) -> Self {
        InputText {
            text: text.into(),
            secret,
        }
    }

    /// The characters, for delivering them. Never format this into a message.
    pub fn expose(&self) -> &str {
        &self.text
    }

    pub fn is_secret(&self) -> bool {
        self.secret
    }

    /// Its length in characters (what reports say instead of the text).
    pub fn chars(&self) -> usize {
        self.text.chars().count()
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

impl From<&str> for InputText {
    fn from(text: &str) -> Self {
        InputText::plain(text)
    }
}

impl From<String> for InputText {
    fn from(text: String) -> Self {
        InputText::plain(text)
    }
}

impl std::fmt::Debug for InputText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "InputText(<{} characters>)", self.chars())
    }
}

impl std::fmt::Display for InputText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.chars();
        write!(f, "{n} character{}", if n == 1 { "" } else { "s" })
    }
}

#[cfg(test)]
mod tests {
    use super::InputText;
    use crate::vocabulary::NativeOp;

    #[test]
    fn text_never_prints() {
        let text = InputText::secret("hunter2");
        for shown in [
            format!("{text:?}"),
            format!("{text}"),
            format!("{text:#?}"),
            format!("{:?}", NativeOp::SetText(text.clone())),
            format!("{:?}", NativeOp::AppendText(text.clone())),
        ] {
            assert!(!shown.contains("hunter2"), "{shown}");
            assert!(shown.contains('7'), "{shown}");
        }
        assert_eq!(text.expose(), "hunter2");
        assert_eq!(InputText::plain("é").to_string(), "1 character");
    }
}

//! What a test typed as secret, kept out of its trace and its failure messages.

use std::sync::Arc;

/// What the test typed as secret, shared by every app of the desktop.
#[derive(Clone, Default)]
pub(crate) struct Secrets(Arc<std::sync::Mutex<SecretState>>);

#[derive(Default)]
struct SecretState {
    texts: Vec<String>,
    /// A secret went into a field that shows its text (not a password field): screenshots
    /// could show it from then on.
    on_screen: bool,
}

impl Secrets {
    /// Notes a secret typed into a field; `shown` when the field shows its text.
    pub(crate) fn add(&self, text: &str, shown: bool) {
        let mut state = self.0.lock().expect("secrets");
        if !text.is_empty() {
            state.texts.push(text.to_owned());
        }
        state.on_screen |= shown;
    }

    /// Whether a screenshot could show a secret.
    pub(crate) fn on_screen(&self) -> bool {
        self.0.lock().expect("secrets").on_screen
    }

    /// `text` with every secret (as typed, and as the compact tree escapes and cuts it)
    /// replaced by `[secret]`.
    pub(crate) fn redact(&self, text: &str) -> String {
        let state = self.0.lock().expect("secrets");
        let mut out = text.to_owned();
        for secret in &state.texts {
            let forms = [
                secret.clone(),
                deskpilot_core::escape::escape(secret, usize::MAX),
                deskpilot_core::escape::escape(secret, 100),
                deskpilot_core::escape::escape(secret, 20),
            ];
            for form in forms {
                out = out.replace(&form, "[secret]");
            }
        }
        out
    }
}

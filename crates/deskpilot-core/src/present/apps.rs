//! The app list: one line per app (flags for apps deskpilot cannot read), one per window.

use super::escape;
use crate::read::ListedApp;

/// `name (pid P, toolkit) [blind]`, then `  role "title"` per window.
pub fn apps(apps: &[ListedApp]) -> String {
    let mut text = String::new();
    for app in apps {
        let pid = app.pid.map_or("?".into(), |p| p.to_string());
        let flags = match (app.responding, app.blind) {
            (false, _) => " [not responding]",
            (true, true) => " [blind]",
            _ => "",
        };
        text.push_str(&format!(
            "{} (pid {pid}{}){flags}\n",
            escape(&app.name, 80),
            app.toolkit
                .as_deref()
                .map(|t| format!(", {}", escape(t, 40)))
                .unwrap_or_default()
        ));
        for w in &app.windows {
            text.push_str(&format!("  {} \"{}\"\n", w.role, escape(&w.title, 100)));
        }
    }
    text
}

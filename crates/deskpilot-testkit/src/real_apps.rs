//! Launchers for the real applications tests and benchmarks use, with what each needs to
//! show itself on AT-SPI under a private desktop.

use std::time::Duration;

use crate::Result;
use crate::VirtualDesktop;
use crate::{App, LaunchOptions, Registration};

/// LibreOffice starts slowly on a cold machine.
const SLOW_START: Duration = Duration::from_secs(90);

impl VirtualDesktop {
    /// Starts LibreOffice (`soffice` with `args`, e.g. `["--calc"]` or `["--writer", path]`)
    /// with a fresh profile in the desktop's directory and the GTK 3 plugin (the only one that
    /// shows LibreOffice on AT-SPI). With `address_space_limit` (bytes), it runs under
    /// `prlimit --as` so that a runaway allocation fails instead of taking the machine down.
    pub fn launch_libreoffice(
        &self,
        args: &[&str],
        address_space_limit: Option<u64>,
    ) -> Result<App> {
        let profile = format!(
            "-env:UserInstallation=file://{}/lo-profile",
            self.dir().display()
        );
        let mut soffice_args = vec![
            "--norestore",
            "--nologo",
            "--nofirststartwizard",
            profile.as_str(),
        ];
        soffice_args.extend(args);
        let mut cmd = match address_space_limit {
            Some(bytes) => {
                let mut cmd = self.command("prlimit");
                cmd.arg(format!("--as={bytes}")).arg("soffice");
                cmd
            }
            None => self.command("soffice"),
        };
        cmd.args(&soffice_args).env("SAL_USE_VCLPLUGIN", "gtk3");
        self.launch_with(
            cmd,
            LaunchOptions {
                registration: Registration::Within(SLOW_START),
            },
        )
    }

    /// Starts Debian's Chromium on `url` with a fresh profile, its page exposed on AT-SPI as
    /// `pages` says.
    pub fn launch_chromium(&self, url: &str, pages: ChromiumPages) -> Result<App> {
        let profile = self.dir().join(format!("chromium-profile-{pages:?}"));
        let mut cmd = self.command("chromium");
        cmd.args([
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--password-store=basic",
        ])
        .arg(format!("--user-data-dir={}", profile.display()));
        match pages {
            ChromiumPages::Default => {}
            ChromiumPages::Forced => {
                cmd.arg("--force-renderer-accessibility");
            }
            ChromiumPages::OffTheBus => {
                cmd.env_remove("QT_ACCESSIBILITY")
                    .env_remove("GNOME_ACCESSIBILITY");
            }
        }
        cmd.arg(url);
        let registration = match pages {
            // It never registers: do not wait for it.
            ChromiumPages::OffTheBus => Registration::DontWait,
            _ => Registration::Within(SLOW_START),
        };
        self.launch_with(cmd, LaunchOptions { registration })
    }

    /// Starts Firefox ESR on `url` with a fresh profile and accessibility on.
    pub fn launch_firefox(&self, url: &str) -> Result<App> {
        let profile = self.dir().join("firefox-profile");
        std::fs::create_dir_all(&profile).map_err(|source| crate::DesktopError::Io {
            path: profile.clone(),
            source,
        })?;
        // No first-run tabs: a fresh profile otherwise opens the privacy notice, which fails
        // offline as a second tab, "Problem loading page".
        let prefs = profile.join("user.js");
        std::fs::write(&prefs, FIREFOX_PREFS).map_err(|source| crate::DesktopError::Io {
            path: prefs.clone(),
            source,
        })?;
        let mut cmd = self.command("firefox-esr");
        cmd.args(["--no-remote", "--new-instance", "--profile"])
            .arg(&profile)
            .arg(url)
            .env("GNOME_ACCESSIBILITY", "1")
            .env("MOZ_ENABLE_WAYLAND", "0");
        self.launch_with(
            cmd,
            LaunchOptions {
                registration: Registration::Within(SLOW_START),
            },
        )
    }
}

/// Preferences of the fresh Firefox profile: no first-run pages, no update or telemetry
/// traffic on a machine with no network.
const FIREFOX_PREFS: &str = r#"user_pref("datareporting.policy.firstRunURL", "");
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("browser.aboutwelcome.enabled", false);
user_pref("app.update.enabled", false);
user_pref("browser.shell.checkDefaultBrowser", false);
"#;

/// How Chromium exposes its pages on AT-SPI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChromiumPages {
    /// No switch: Chromium 156 turns page accessibility on when an AT-SPI client reads it.
    Default,
    /// `--force-renderer-accessibility`.
    Forced,
    /// No accessibility variable in its environment (the desktop sets `QT_ACCESSIBILITY`,
    /// which Chromium also honours): Chromium 156 then never registers on AT-SPI; only its
    /// window is on the display. (`--disable-renderer-accessibility` is ignored once an AT-SPI
    /// client reads it.)
    OffTheBus,
}

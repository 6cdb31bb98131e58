//! `deskpilot doctor`: what deskpilot finds on this desktop, as text or JSON. Exit code 0
//! when the desktop is reached and every rung served, 1 when some rung is missing, 2 when no
//! desktop is reached.

use std::process::ExitCode;

use deskpilot_core::present;
use deskpilot_desktop::{Doctor, Rung};

use crate::desktop::PlatformArgs;

#[derive(clap::Args)]
pub struct DoctorArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

pub async fn run(platform: PlatformArgs, args: DoctorArgs) -> anyhow::Result<ExitCode> {
    let doctor = deskpilot_desktop::doctor(platform.into()).await;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&doctor)?);
    } else {
        out!("{}", text(&doctor));
    }
    Ok(ExitCode::from(match (&doctor.desktop, doctor.healthy()) {
        (None, _) => 2,
        (Some(_), false) => 1,
        (Some(_), true) => 0,
    }))
}

fn text(doctor: &Doctor) -> String {
    let mut text = String::from("session:\n");
    for var in &doctor.session {
        let value = var.value.as_deref().unwrap_or("(unset)");
        text.push_str(&format!("  {}={value}\n", var.name));
    }
    match (&doctor.desktop, &doctor.missing) {
        (Some(desktop), _) => text.push_str(&format!("desktop: {desktop}\n")),
        (None, Some(missing)) => text.push_str(&format!("no desktop: {missing}\n")),
        (None, None) => text.push_str("no desktop\n"),
    }
    if let Some(found) = &doctor.found {
        text.push_str(&format!("  {found}\n"));
    }
    for rung in &doctor.rungs {
        text.push_str(&rung_line(rung));
    }
    if doctor.desktop.is_some() {
        text.push_str(&format!("apps ({}):\n", doctor.apps.len()));
        for line in present::apps(&doctor.apps).lines() {
            text.push_str(&format!("  {line}\n"));
        }
        for app in doctor.apps.iter().filter(|a| a.blind) {
            let fix = app.hint.as_deref().unwrap_or("no fix known");
            text.push_str(&format!("  {} is blind: {fix}\n", app.name));
        }
    }
    text.push_str(&format!("a host passes: {}\n", doctor.pass.join(", ")));
    for note in &doctor.notes {
        text.push_str(&format!("note: {note}\n"));
    }
    text
}

fn rung_line(rung: &Rung) -> String {
    let name = serde_json::to_value(rung.rung).unwrap_or_default();
    let name = name.as_str().unwrap_or("?");
    match rung.served {
        true => format!("  {name}: yes ({})\n", rung.detail),
        false => format!("  {name}: no ({})\n", rung.detail),
    }
}

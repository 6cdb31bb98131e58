//! `cargo xtask manifests`: the winget and Scoop manifests of a release, from its version and
//! the SHA-256 of its two zips (the release workflow hashes them; this machine cannot
//! download a release). Each file is parsed back and validated against the published schema
//! committed under `packaging/schemas/` before it is written.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::Serialize;
use serde_json::{Value, json};

/// winget's manifest schema version, the one committed.
const WINGET_SCHEMA: &str = "1.10.0";
const IDENTIFIER: &str = "deskpilot.deskpilot";
const REPOSITORY: &str = "https://github.com/deskpilot/deskpilot";
const SHORT: &str = "See and drive desktop apps through their accessibility tree: an MCP server, a CLI and a test library.";
const LICENSE: &str = "MIT OR Apache-2.0";

/// The two Windows builds a release ships, by Rust target and by each manager's name.
pub const TARGETS: [Build; 2] = [
    Build {
        target: "x86_64-pc-windows-msvc",
        winget: "x64",
        scoop: "64bit",
    },
    Build {
        target: "aarch64-pc-windows-msvc",
        winget: "arm64",
        scoop: "arm64",
    },
];

pub struct Build {
    pub target: &'static str,
    winget: &'static str,
    scoop: &'static str,
}

/// What a release is: its version and each build's zip hash, in `TARGETS`' order.
pub struct Release {
    pub version: String,
    pub sha256: [String; 2],
}

/// A manifest file: its path under the output folder, its text and the schema it must fit.
pub struct Manifest {
    pub path: PathBuf,
    pub text: String,
    schema: String,
}

pub fn run(release: &Release, out: &Path) -> anyhow::Result<()> {
    let manifests = all(release)?;
    check(&manifests)?;
    for manifest in &manifests {
        let path = out.join(&manifest.path);
        std::fs::create_dir_all(path.parent().unwrap_or(out))
            .with_context(|| format!("creating the folder of {}", path.display()))?;
        std::fs::write(&path, &manifest.text)
            .with_context(|| format!("writing {}", path.display()))?;
        eprintln!("xtask: {} fits {}", path.display(), manifest.schema);
    }
    Ok(())
}

/// A release's zip, as the release workflow names it.
pub fn zip_name(version: &str, target: &str) -> String {
    format!("deskpilot-{version}-{target}.zip")
}

fn url(version: &str, target: &str) -> String {
    let zip = zip_name(version, target);
    format!("{REPOSITORY}/releases/download/v{version}/{zip}")
}

/// Every manifest of `release`: winget's three files in winget-pkgs' layout, Scoop's one.
pub fn all(release: &Release) -> anyhow::Result<Vec<Manifest>> {
    let folder = PathBuf::from(format!(
        "winget/manifests/d/deskpilot/deskpilot/{}",
        release.version
    ));
    let winget = |file: &str, kind: &str, value: &dyn erased::Yaml| -> anyhow::Result<Manifest> {
        let header = format!(
            "# Created by cargo xtask manifests.\n\
             # yaml-language-server: $schema=https://aka.ms/winget-manifest.{kind}.{WINGET_SCHEMA}.schema.json\n"
        );
        Ok(Manifest {
            path: folder.join(file),
            text: header + &value.yaml()?,
            schema: format!("winget-{WINGET_SCHEMA}/manifest.{kind}.{WINGET_SCHEMA}.json"),
        })
    };
    let scoop = Manifest {
        path: PathBuf::from("scoop/deskpilot.json"),
        text: serde_json::to_string_pretty(&scoop_manifest(release))? + "\n",
        schema: "scoop/schema.json".into(),
    };
    Ok(vec![
        winget(
            &format!("{IDENTIFIER}.yaml"),
            "version",
            &version_manifest(release),
        )?,
        winget(
            &format!("{IDENTIFIER}.installer.yaml"),
            "installer",
            &installer_manifest(release),
        )?,
        winget(
            &format!("{IDENTIFIER}.locale.en-US.yaml"),
            "defaultLocale",
            &locale_manifest(release),
        )?,
        scoop,
    ])
}

/// Serializing to YAML behind a reference (the three winget manifests are three types).
mod erased {
    pub trait Yaml {
        fn yaml(&self) -> anyhow::Result<String>;
    }

    impl<T: serde::Serialize> Yaml for T {
        fn yaml(&self) -> anyhow::Result<String> {
            Ok(serde_yaml_ng::to_string(self)?)
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct VersionManifest<'a> {
    package_identifier: &'a str,
    package_version: &'a str,
    default_locale: &'a str,
    manifest_type: &'a str,
    manifest_version: &'a str,
}

fn version_manifest(release: &Release) -> VersionManifest<'_> {
    VersionManifest {
        package_identifier: IDENTIFIER,
        package_version: &release.version,
        default_locale: "en-US",
        manifest_type: "version",
        manifest_version: WINGET_SCHEMA,
    }
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct InstallerManifest<'a> {
    package_identifier: &'a str,
    package_version: &'a str,
    /// Windows 10 1809: UI Automation's caching and per-monitor DPI v2 are there.
    #[serde(rename = "MinimumOSVersion")]
    minimum_os_version: &'a str,
    installer_type: &'a str,
    nested_installer_type: &'a str,
    nested_installer_files: Vec<NestedFile<'a>>,
    installers: Vec<Installer>,
    manifest_type: &'a str,
    manifest_version: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct NestedFile<'a> {
    relative_file_path: &'a str,
    portable_command_alias: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Installer {
    architecture: &'static str,
    installer_url: String,
    installer_sha256: String,
}

fn installer_manifest(release: &Release) -> InstallerManifest<'_> {
    let installers = TARGETS
        .iter()
        .zip(&release.sha256)
        .map(|(build, hash)| Installer {
            architecture: build.winget,
            installer_url: url(&release.version, build.target),
            installer_sha256: hash.to_uppercase(),
        })
        .collect();
    InstallerManifest {
        package_identifier: IDENTIFIER,
        package_version: &release.version,
        minimum_os_version: "10.0.17763.0",
        installer_type: "zip",
        nested_installer_type: "portable",
        nested_installer_files: vec![NestedFile {
            relative_file_path: "deskpilot.exe",
            portable_command_alias: "deskpilot",
        }],
        installers,
        manifest_type: "installer",
        manifest_version: WINGET_SCHEMA,
    }
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct LocaleManifest<'a> {
    package_identifier: &'a str,
    package_version: &'a str,
    package_locale: &'a str,
    publisher: &'a str,
    publisher_url: &'a str,
    package_name: &'a str,
    package_url: &'a str,
    license: &'a str,
    short_description: &'a str,
    moniker: &'a str,
    tags: [&'a str; 5],
    release_notes_url: String,
    manifest_type: &'a str,
    manifest_version: &'a str,
}

fn locale_manifest(release: &Release) -> LocaleManifest<'_> {
    LocaleManifest {
        package_identifier: IDENTIFIER,
        package_version: &release.version,
        package_locale: "en-US",
        publisher: "deskpilot",
        publisher_url: REPOSITORY,
        package_name: "deskpilot",
        package_url: REPOSITORY,
        license: LICENSE,
        short_description: SHORT,
        moniker: "deskpilot",
        tags: [
            "accessibility",
            "automation",
            "mcp",
            "testing",
            "ui-automation",
        ],
        release_notes_url: format!("{REPOSITORY}/releases/tag/v{}", release.version),
        manifest_type: "defaultLocale",
        manifest_version: WINGET_SCHEMA,
    }
}

/// Scoop's manifest: the two builds, and how Scoop's updater finds the next release.
fn scoop_manifest(release: &Release) -> Value {
    let mut now = serde_json::Map::new();
    let mut next = serde_json::Map::new();
    for (build, hash) in TARGETS.iter().zip(&release.sha256) {
        let at = url(&release.version, build.target);
        now.insert(
            build.scoop.into(),
            json!({ "url": at, "hash": hash.to_lowercase() }),
        );
        next.insert(
            build.scoop.into(),
            json!({ "url": url("$version", build.target) }),
        );
    }
    json!({
        "version": release.version,
        "description": SHORT,
        "homepage": REPOSITORY,
        "license": "MIT|Apache-2.0",
        "architecture": now,
        "bin": "deskpilot.exe",
        "checkver": "github",
        "autoupdate": { "architecture": next, "hash": { "url": "$url.sha256" } },
    })
}

/// Each manifest parsed back from its text and validated against its committed schema.
pub fn check(manifests: &[Manifest]) -> anyhow::Result<()> {
    let mut problems = Vec::new();
    for manifest in manifests {
        for problem in problems_of(manifest)? {
            problems.push(format!("{}: {problem}", manifest.path.display()));
        }
    }
    if !problems.is_empty() {
        bail!(
            "the manifests do not fit their schemas:\n{}",
            problems.join("\n")
        );
    }
    Ok(())
}

/// What in `manifest` its schema refuses.
pub fn problems_of(manifest: &Manifest) -> anyhow::Result<Vec<String>> {
    let value: Value = if manifest.path.extension().is_some_and(|e| e == "json") {
        serde_json::from_str(&manifest.text)?
    } else {
        serde_yaml_ng::from_str(&manifest.text)?
    };
    let path = crate::root()
        .join("packaging/schemas")
        .join(&manifest.schema);
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("reading the schema {}", path.display()))?;
    let schema: Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))?;
    let validator = jsonschema::validator_for(&schema)
        .map_err(|e| anyhow::anyhow!("{}: not a schema: {e}", manifest.schema))?;
    Ok(validator
        .iter_errors(&value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn release(version: &str, hash: &str) -> Release {
        Release {
            version: version.into(),
            sha256: [hash.into(), hash.to_uppercase()],
        }
    }

    /// Every manifest of a release fits the published schema committed for it.
    #[test]
    fn the_manifests_fit_their_published_schemas() {
        let manifests = all(&release("0.2.0", &"ab12".repeat(16))).unwrap();
        let paths: Vec<String> = manifests
            .iter()
            .map(|m| m.path.display().to_string())
            .collect();
        assert_eq!(
            paths,
            [
                "winget/manifests/d/deskpilot/deskpilot/0.2.0/deskpilot.deskpilot.yaml",
                "winget/manifests/d/deskpilot/deskpilot/0.2.0/deskpilot.deskpilot.installer.yaml",
                "winget/manifests/d/deskpilot/deskpilot/0.2.0/deskpilot.deskpilot.locale.en-US.yaml",
                "scoop/deskpilot.json",
            ]
        );
        check(&manifests).unwrap();
        let installer = &manifests[1].text;
        assert!(installer.contains(
            "InstallerUrl: https://github.com/deskpilot/deskpilot/releases/download/v0.2.0/deskpilot-0.2.0-aarch64-pc-windows-msvc.zip"
        ), "{installer}");
    }

    /// The schemas can refuse: a hash that is not one and a version with a slash in it are
    /// named, file by file.
    #[test]
    fn the_schemas_refuse_a_bad_hash_and_version() {
        let manifests = all(&release("0.2/0", "not-a-hash")).unwrap();
        let problems: Vec<usize> = manifests
            .iter()
            .map(|m| problems_of(m).unwrap().len())
            .collect();
        assert!(problems.iter().all(|n| *n > 0), "{problems:?}");
        let error = check(&manifests).unwrap_err().to_string();
        assert!(error.contains("/InstallerSha256"), "{error}");
        assert!(error.contains("/hash"), "{error}");
    }
}

//! Project automation: `cargo xtask <command>`.

mod bench;
mod bench_record;
mod cargo;
mod check_windows;
mod conformance;
mod deb;
mod demo;
mod desktop;
mod faces;
mod functions;
mod image;
mod imports;
mod install;
mod layers;
mod lexed;
mod manifests;
mod matrix;
mod methods;
mod node;
mod package;
mod probe;
mod sentences;
mod source;
mod structure;
mod tasks;
mod test;
mod under_load;
mod venv;
mod wine_smoke;
mod workflows;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "cargo xtask", about = "deskpilot project automation")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Install what the tests and the demo need: Debian packages (apt-get when root), the
    /// MCP SDKs the tests speak with (PyPI, npm).
    Install,
    /// Check the layout rules, install what is missing, build, and run every test,
    /// real-desktop tests included.
    Test {
        /// Extra arguments passed to `cargo test` (e.g. a test name filter).
        #[arg(trailing_var_arg = true)]
        args: Vec<String>,
    },
    /// Compile-check and lint, for Windows (x86_64-pc-windows-gnu), the crates that must
    /// build there: platform, core, fake, MCP, the Windows backend, the test library and the
    /// CLI. Installs
    /// Debian's Rust with std's sources and MinGW first.
    CheckWindows,
    /// Run the official MCP conformance suite against `deskpilot mcp --http`, both protocol
    /// eras, the product build and the test-only build with the suite's fixtures (also run by
    /// `test`; known failures in conformance/).
    Conformance,
    /// Run the desktop tests that once failed only on a busy machine, each `--runs` times
    /// under stress-ng's two CPU workers; every run must pass.
    UnderLoad {
        #[arg(long, default_value_t = 10)]
        runs: u32,
    },
    /// Lint the GitHub workflows (`.github/workflows`) with actionlint.
    LintWorkflows,
    /// Write a release's winget and Scoop manifests, each validated against its published
    /// schema (packaging/schemas/), from the version and the SHA-256 of its two zips.
    Manifests {
        /// The release's version, without the tag's `v`.
        #[arg(long)]
        version: String,
        /// The SHA-256 of the x86_64-pc-windows-msvc zip.
        #[arg(long)]
        x64_sha256: String,
        /// The SHA-256 of the aarch64-pc-windows-msvc zip.
        #[arg(long)]
        arm64_sha256: String,
        /// Where to write them (winget/ and scoop/ inside).
        #[arg(long, default_value = "target/manifests")]
        out: std::path::PathBuf,
    },
    /// On demand, root only: build deskpilot.exe and the Windows fixture, and run the CLI's
    /// reads against the fixture under Wine 10 in a Debian trixie chroot (target/wine-chroot).
    WineSmoke,
    /// Start a headless desktop with the GTK3 fixture and show deskpilot at work on it.
    Demo,
    /// Build deskpilot's container image from Debian's archive alone (root: debootstrap,
    /// podman): a base kept in target/image/, deploy/Containerfile with the binary, and the
    /// app layers asked for (deploy/apps/).
    Image {
        /// The debug binary the tests build, not an optimized one.
        #[arg(long)]
        debug: bool,
        /// An app layer to build over it (deploy/apps/APP.Containerfile); repeatable.
        #[arg(long = "app", value_name = "APP")]
        apps: Vec<String>,
    },
    /// `cargo package` the test library and the crates it needs, each built from its
    /// packaged sources (what `cargo publish` would upload).
    Package {
        /// Package without building each from its packaged sources (CI: 4.6 minutes less).
        #[arg(long)]
        no_verify: bool,
    },
    /// Build deskpilot's Debian package (target/deb/deskpilot_VERSION-1_ARCH.deb): the
    /// binary, its manual pages, and what it depends on declared.
    Deb {
        /// The debug binary the tests build, not an optimized one.
        #[arg(long)]
        debug: bool,
    },
    /// Run a benchmark: `snapshot` (deskpilot vs pyatspi vs Cache.GetItems on real apps, and
    /// the LibreOffice Calc memory guard), `screenshot` (a labelled 1280x800 window capture),
    /// `act` (an action's latency), `list` (listing apps with one frozen) or `testlib` (how soon
    /// an expect sees a change, and a locator's overhead per action) or `live` (tokens over a
    /// 10-step task with changes in action results vs a snapshot after each step, change to
    /// wait_for latency, snapshots through the server) or `load` (1, 8 and 32 agents at once
    /// over HTTP, each on its own field: throughput, latency, memory, input kept whole) or
    /// `hostile` (a 9,300-label GTK 3 box,
    /// another app's snapshot while a hostile app misbehaves) or `windows` (a whole app read
    /// through the strict fake UI Automation, in simulated time). Results go to target/bench/
    /// and, with the date and commit, to docs/benchmarks.md.
    Bench {
        /// Which benchmark (snapshot, screenshot, act, list, testlib, live, load, hostile,
        /// windows).
        which: String,
        /// Only the apps whose name contains one of these (gtk3, gtk4, writer, firefox, calc).
        filter: Vec<String>,
    },
    /// Run the action-support matrix (GTK3, GTK4, Qt5 fixtures and LibreOffice Writer; every
    /// row judged by the app's own oracle) and print its tables (also in target/matrix/).
    Matrix,
    /// Run the real-app task suite (third-party apps driven through deskpilot mcp, each judged
    /// by an oracle that is not deskpilot) and print its table (rows in target/tasks/).
    Tasks,
    /// Check the layout rules: files of at most 500 lines, no import cycles within a crate,
    /// no platform names in deskpilot-core (also run by `test`).
    Structure,
    /// Start PROGRAM on a new headless desktop with a clean home and draft an app pack from
    /// it with `deskpilot probe` (written to target/probe/NAME).
    Probe {
        program: String,
        /// The app's name as `deskpilot apps` lists it, when not the program's.
        #[arg(long)]
        name: Option<String>,
    },
    /// Start a headless desktop for a person; prints its environment (DISPLAY or
    /// WAYLAND_DISPLAY, DBUS_SESSION_BUS_ADDRESS) and keeps it up until Ctrl-C.
    Desktop {
        /// Also launch these fixtures (gtk3, gtk4, qt5, qt6).
        #[arg(long = "fixture", value_name = "NAME")]
        fixtures: Vec<String>,
        /// Run headless sway instead of Xvfb: apps native on Wayland.
        #[arg(long, conflicts_with = "gnome")]
        sway: bool,
        /// Run headless GNOME Shell instead of Xvfb: apps native on mutter's Wayland.
        #[arg(long)]
        gnome: bool,
    },
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Install => {
            install::ensure_packages()?;
            venv::ensure()?;
            node::ensure().map(|_| ())
        }
        Command::Test { args } => test::run(&args),
        Command::Conformance => conformance::run(image::Build::Debug),
        Command::CheckWindows => check_windows::run(),
        Command::LintWorkflows => workflows::run(),
        Command::Manifests {
            version,
            x64_sha256,
            arm64_sha256,
            out,
        } => manifests::run(
            &manifests::Release {
                version,
                sha256: [x64_sha256, arm64_sha256],
            },
            &out,
        ),
        Command::UnderLoad { runs } => under_load::run(runs),
        Command::WineSmoke => wine_smoke::run(),
        Command::Demo => demo::run(),
        Command::Image { debug, apps } => {
            let build = match debug {
                true => image::Build::Debug,
                false => image::Build::Release,
            };
            image::run(build, &apps)
        }
        Command::Deb { debug } => {
            let build = match debug {
                true => image::Build::Debug,
                false => image::Build::Release,
            };
            let binary = image::binary(build)?;
            deb::package(&binary, &root().join("target/deb")).map(|_| ())
        }
        Command::Package { no_verify } => package::run(match no_verify {
            true => package::Verify::Skip,
            false => package::Verify::Build,
        }),
        Command::Matrix => matrix::run(),
        Command::Tasks => tasks::run(),
        Command::Bench { which, filter } => bench::run(&which, &filter),
        Command::Structure => structure::run(&root()),
        Command::Probe { program, name } => probe::run(&program, name.as_deref()),
        Command::Desktop {
            fixtures,
            sway,
            gnome,
        } => {
            let server = match (sway, gnome) {
                (true, _) => deskpilot_testkit::DisplayServer::Sway,
                (_, true) => deskpilot_testkit::DisplayServer::Gnome,
                _ => deskpilot_testkit::DisplayServer::Xvfb,
            };
            desktop::run(&fixtures, server)
        }
    }
}

/// The workspace root (xtask lives one level below it).
fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask has a parent")
        .to_path_buf()
}

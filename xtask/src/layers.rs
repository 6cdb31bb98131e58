//! Layers, as Playwright's DEPS lists them: a crate's top-level modules, bottom first. A
//! module uses only modules of lower layers; each use against the order that the code still
//! has is listed, with why, as a known exception.

use std::collections::BTreeSet;

use crate::imports::Graph;

/// One crate's layer table.
pub struct Layers {
    /// The crate's `src`, relative to the workspace root.
    pub src: &'static str,
    /// Bottom first: the top-level modules of each layer.
    pub layers: &'static [&'static [&'static str]],
    /// Uses allowed against the order: (module, the module it uses, why).
    pub exceptions: &'static [(&'static str, &'static str, &'static str)],
}

pub const TABLES: &[Layers] = &[
    Layers {
        src: "crates/deskpilot-platform/src",
        layers: &[
            &["escape", "font", "admission", "drag_path"],
            &["model", "keys"],
            &["app", "text", "image"],
            &["vocabulary"],
            &["input", "window_system", "launcher", "events"],
            &["backend", "capture", "blocking"],
            &["absent", "budget"],
        ],
        exceptions: &[],
    },
    Layers {
        src: "crates/deskpilot-core/src",
        // escape, model, app and the platform traits are deskpilot-platform's, re-exported.
        layers: &[
            &["visibility"],
            &["selector", "derive", "filter", "hint"],
            &["render", "platform", "tree_update"],
            &["error"],
            &["live"],
            &["session"],
            &["scope", "launch"],
            &["read"],
            &["wait"],
            &["act"],
            &["capture"],
            &["present"],
            &["engine"],
        ],
        exceptions: &[],
    },
    Layers {
        src: "crates/deskpilot-packs/src",
        layers: &[
            &["format", "report", "named", "shipped"],
            &["read", "check", "launch", "resolve"],
            &["builtin", "set"],
            &["sources"],
        ],
        exceptions: &[],
    },
    Layers {
        src: "crates/deskpilot-mcp/src",
        layers: &[
            &["write", "jsonrpc", "output", "limit"],
            &["grants", "outcome"],
            &["args", "schema"],
            &["condition"],
            &["catalog"],
            &["pipeline"],
            &["packs"],
            &["prompts", "runs"],
            &["clients"],
            &["call"],
            &["controls", "record"],
            &["runner"],
            &["tools"],
            &["dispatch"],
            &["subscriptions"],
            &["server"],
            &["resources"],
            &["recordings"],
            &["stdio", "http"],
        ],
        exceptions: &[],
    },
];

/// The uses in `graph` against `table`, and the exceptions that no longer occur.
pub fn violations(table: &Layers, graph: &Graph) -> Vec<String> {
    let layer_of = |module: &str| table.layers.iter().position(|l| l.contains(&module));
    let mut problems = Vec::new();
    let mut used_exceptions = BTreeSet::new();
    let mut unplaced = BTreeSet::new();
    for (from, targets) in &graph.edges {
        let Some(top) = from.first() else { continue };
        let file = graph.files.get(from).cloned().unwrap_or_default();
        for to in targets {
            let Some(used) = to.first() else { continue };
            if used == top {
                continue;
            }
            let (Some(here), Some(there)) = (layer_of(top), layer_of(used)) else {
                for module in [top, used] {
                    if layer_of(module).is_none() {
                        unplaced.insert(module.clone());
                    }
                }
                continue;
            };
            if there < here {
                continue;
            }
            if let Some(known) = table
                .exceptions
                .iter()
                .find(|(m, u, _)| m == top && u == used)
            {
                used_exceptions.insert((known.0, known.1));
                continue;
            }
            let side = if there == here { "beside" } else { "above" };
            problems.push(format!(
                "{}/{file}: {top} uses {used}, a module {side} it (modules use lower layers only: xtask/src/layers.rs)",
                table.src
            ));
        }
    }
    for module in unplaced {
        problems.push(format!(
            "{}: module {module} is in no layer of xtask/src/layers.rs",
            table.src
        ));
    }
    for (module, used, _) in table.exceptions {
        if !used_exceptions.contains(&(*module, *used)) {
            problems.push(format!(
                "{}: {module} no longer uses {used}: remove the known exception",
                table.src
            ));
        }
    }
    problems
}

//! Random arguments for every tool, in process on the fake desktop (proptest): every call is
//! answered with a result, a failure with a documented code where the arguments do not fit,
//! never a protocol error, a panic or a hang.

use std::sync::Arc;
use std::time::Duration;

use deskpilot_mcp::{DeskpilotServer, Grants};
use proptest::prelude::*;
use rmcp::model::CallToolRequestParams;
use serde_json::{Map, Value, json};

mod support;

const APP: &str = r#"
application "Editor" pid=42 toolkit=GTK
  window "Main" path=/win bounds=0,0,800,600
    button "OK" path=/ok actions=click bounds=10,10,80,30
    checkbox "Notify" path=/notify actions=toggle bounds=10,50,80,30
    textbox "Name" path=/name value=Ada bounds=10,90,200,30
"#;

/// Argument names the tools take, and some they do not.
const KEYS: &[&str] = &[
    "session",
    "target",
    "selector",
    "ref",
    "text",
    "value",
    "verb",
    "keys",
    "key",
    "app",
    "pid",
    "window",
    "window_id",
    "filter",
    "since",
    "cursor",
    "timeout_ms",
    "until",
    "state",
    "count",
    "steps",
    "finally",
    "mode",
    "run_id",
    "from",
    "secret",
    "button",
    "double",
    "x",
    "y",
    "to",
    "path",
    "name",
    "index",
    "direction",
    "amount",
    "max_nodes",
    "rows",
    "columns",
    "start",
    "end",
    "label",
    "bogus",
    "",
    "\u{0}",
];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5i64..3000).prop_map(|n| json!(n)),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        prop::sample::select(vec![
            "s1", "e1", "button", "OK", "toggle", "Enter", "ctrl+a", "all", "/x/", "${a.b}"
        ])
        .prop_map(|s| json!(s)),
        "\\PC{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(prop::sample::select(KEYS.to_vec()), inner, 0..4).prop_map(
                |m| Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            ),
        ]
    })
}

fn arguments() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::btree_map(prop::sample::select(KEYS.to_vec()), json_value(), 0..6)
        .prop_map(|m| m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

type Client = rmcp::service::RunningService<rmcp::RoleClient, ()>;

/// One runtime and one server for every case: a connected session `s1` on the fake app.
fn served() -> &'static (tokio::runtime::Runtime, Client, Vec<String>) {
    static SERVED: std::sync::OnceLock<(tokio::runtime::Runtime, Client, Vec<String>)> =
        std::sync::OnceLock::new();
    SERVED.get_or_init(|| {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let (client, tools) = runtime.block_on(async {
            let (_fake, _input, engine) = support::fake_desktop(APP);
            let grants = Grants::parse(&["input".to_owned()], None).unwrap();
            let server = DeskpilotServer::with_grants(Arc::new(engine), grants);
            let client = support::client_for(server).await;
            support::call(&client, "connect", json!({"app": "Editor"})).await;
            let tools = client.list_all_tools().await.unwrap();
            (
                client,
                tools.into_iter().map(|t| t.name.to_string()).collect(),
            )
        });
        (runtime, client, tools)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_tool_answers_any_arguments_with_a_result(tool in any::<prop::sample::Index>(), args in arguments()) {
        let (runtime, client, tools) = served();
        let name = tools[tool.index(tools.len())].clone();
        let call = client.call_tool(CallToolRequestParams::new(name.clone()).with_arguments(args.clone()));
        let answer = runtime
            .block_on(async { tokio::time::timeout(Duration::from_secs(60), call).await })
            .map_err(|_| TestCaseError::fail(format!("{name} {args:?}: no answer in 60 s")))?
            .map_err(|e| TestCaseError::fail(format!("{name} {args:?}: protocol error {e}")))?;
        if answer.is_error == Some(true) {
            let code = answer
                .structured_content
                .as_ref()
                .and_then(|c| c["code"].as_str())
                .unwrap_or_default()
                .to_owned();
            prop_assert!(
                deskpilot_core::Code::ALL.iter().any(|c| c.name() == code),
                "{} {:?}: a failure without a documented code: {:?}", name, args, answer
            );
        }
    }
}

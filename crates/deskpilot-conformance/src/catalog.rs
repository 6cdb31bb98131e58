//! The fixture resources, the resource template, the prompts and their completion.

use rmcp::ErrorData;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, Prompt, PromptArgument, PromptMessage, ReadResourceResult, Reference,
    Resource, ResourceContents, ResourceTemplate, Role,
};
use serde_json::json;

use crate::content::PNG;

/// The resource the suite subscribes to; it never changes.
const WATCHED: &str = "test://watched-resource";
const TEMPLATE: &str = "test://template/{id}/data";

/// `listed` with the fixture resources first: the caching scenario reads the first one.
pub fn with_resources(mut listed: ListResourcesResult) -> ListResourcesResult {
    let fixtures = [
        ("test://static-text", "Static text", "text/plain"),
        ("test://static-binary", "Static binary", "image/png"),
        (WATCHED, "Watched resource", "text/plain"),
    ]
    .map(|(uri, name, mime_type)| {
        Resource::new(uri, name)
            .with_description(format!("A conformance fixture: {name}"))
            .with_mime_type(mime_type)
    });
    listed.resources.splice(0..0, fixtures);
    listed
}

/// A fixture resource's contents; `None` for any other URI.
pub fn read(uri: &str) -> Option<ReadResourceResult> {
    let contents = match uri {
        "test://static-text" => {
            ResourceContents::text("This is the content of the static text resource.", uri)
        }
        "test://static-binary" => ResourceContents::blob(PNG, uri).with_mime_type("image/png"),
        _ => {
            let id = uri
                .strip_prefix("test://template/")?
                .strip_suffix("/data")
                .filter(|id| !id.is_empty() && !id.contains('/'))?;
            let data =
                json!({ "id": id, "templateTest": true, "data": format!("Data for ID: {id}") });
            ResourceContents::text(data.to_string(), uri).with_mime_type("application/json")
        }
    };
    Some(ReadResourceResult::new(vec![contents]))
}

/// Whether `uri` is the fixture one subscribes to.
pub fn is_watched(uri: &str) -> bool {
    uri == WATCHED
}

pub fn templates() -> ListResourceTemplatesResult {
    ListResourceTemplatesResult::with_all_items(vec![
        ResourceTemplate::new(TEMPLATE, "Template data")
            .with_description("A conformance fixture: data for any id")
            .with_mime_type("application/json"),
    ])
}

pub fn prompts() -> ListPromptsResult {
    let required = |name: &str, description: &str| {
        PromptArgument::new(name)
            .with_description(description)
            .with_required(true)
    };
    ListPromptsResult::with_all_items(vec![
        Prompt::new(
            "test_simple_prompt",
            Some("A prompt without arguments"),
            None,
        ),
        Prompt::new(
            "test_prompt_with_arguments",
            Some("A prompt that quotes its two arguments"),
            Some(vec![
                required("arg1", "The first argument"),
                required("arg2", "The second argument"),
            ]),
        ),
        Prompt::new(
            "test_prompt_with_embedded_resource",
            Some("A prompt with an embedded resource"),
            Some(vec![required("resourceUri", "The resource's URI")]),
        ),
        Prompt::new(
            "test_prompt_with_image",
            Some("A prompt with an image"),
            None,
        ),
        Prompt::new(
            "test_input_required_result_prompt",
            Some("A prompt that asks the user for a context first (SEP-2322)"),
            None,
        ),
    ])
}

pub fn get_prompt(request: &GetPromptRequestParams) -> Result<GetPromptResponse, ErrorData> {
    let argument = |name: &str| {
        let value = request.arguments.as_ref().and_then(|a| a.get(name));
        value
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_owned()
    };
    let messages = match request.name.as_str() {
        "test_simple_prompt" => vec![PromptMessage::new_text(
            Role::User,
            "This is a simple prompt for testing.",
        )],
        "test_prompt_with_arguments" => vec![PromptMessage::new_text(
            Role::User,
            format!(
                "Prompt with arguments: arg1='{}', arg2='{}'",
                argument("arg1"),
                argument("arg2")
            ),
        )],
        "test_prompt_with_embedded_resource" => vec![
            PromptMessage::new(
                Role::User,
                ContentBlock::embedded_text(
                    argument("resourceUri"),
                    "Embedded resource content for testing.",
                ),
            ),
            PromptMessage::new_text(Role::User, "Please process the embedded resource above."),
        ],
        "test_prompt_with_image" => vec![
            PromptMessage::new(Role::User, ContentBlock::image(PNG, "image/png")),
            PromptMessage::new_text(Role::User, "Please analyze the image above."),
        ],
        "test_input_required_result_prompt" => return Ok(crate::mrtr::prompt(request)),
        other => {
            return Err(ErrorData::invalid_params(
                format!("no such prompt: {other}"),
                Some(json!({ "name": other })),
            ));
        }
    };
    Ok(GetPromptResult::new(messages).into())
}

/// The values the suite sends for a fixture's argument, those that start as typed.
pub fn complete(request: &CompleteRequestParams) -> Result<CompleteResult, ErrorData> {
    let argument = request.argument.name.as_str();
    let known: &[&str] = match (&request.r#ref, argument) {
        (Reference::Prompt(p), "arg1") if p.name == "test_prompt_with_arguments" => &["testValue1"],
        (Reference::Prompt(p), "arg2") if p.name == "test_prompt_with_arguments" => &["testValue2"],
        (Reference::Resource(r), "id") if r.uri == TEMPLATE => &["123"],
        _ => &[],
    };
    let values = known
        .iter()
        .filter(|v| v.starts_with(&request.argument.value))
        .map(|v| (*v).to_owned())
        .collect();
    let completion = CompletionInfo::new(values).map_err(|e| ErrorData::internal_error(e, None))?;
    Ok(CompleteResult::new(completion))
}

/// Whether `name` is a fixture prompt.
pub fn has_prompt(name: &str) -> bool {
    prompts().prompts.iter().any(|p| p.name == name)
}

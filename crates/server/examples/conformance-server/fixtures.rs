//! Fixtures of the MCP conformance suite (`@modelcontextprotocol/conformance` 0.1.16),
//! written from its scenario descriptions. They live in this test-only example, served by
//! a handler that wraps the real one, so the whole suite can gate the real server stack
//! while a shipped `mooring` carries none of it.

#![allow(deprecated)] // sampling and logging: deprecated from 2026-07-28, used by the suite

use std::time::Duration;

use rmcp::model::{
    AudioContent, CallToolResult, ContentBlock, CreateMessageRequestParams, ElicitRequestParams,
    ElicitationAction, GetPromptResult, ImageContent, JsonObject, LoggingLevel,
    LoggingMessageNotificationParam, ProgressNotificationParam, Prompt, PromptArgument, PromptMessage,
    ReadResourceResult, Resource, ResourceContents, ResourceTemplate, Role, SamplingMessage, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value, json};

/// A 1×1 PNG.
const PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";
/// An empty WAV file.
const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=";

fn object(v: Value) -> JsonObject {
    v.as_object().cloned().unwrap_or_default()
}

fn no_args() -> JsonObject {
    object(json!({ "type": "object", "properties": {} }))
}

/// The suite's fixture tools.
pub fn tools() -> Vec<Tool> {
    let plain = [
        ("test_simple_text", "Returns a simple text response"),
        ("test_image_content", "Returns an image"),
        ("test_audio_content", "Returns an audio clip"),
        ("test_embedded_resource", "Returns an embedded text resource"),
        ("test_multiple_content_types", "Returns text, an image and a resource together"),
        ("test_tool_with_logging", "Sends three log messages while it runs"),
        ("test_error_handling", "Always fails with a tool error"),
        ("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100"),
        ("test_elicitation_sep1034_defaults", "Asks for values that all have defaults (SEP-1034)"),
        ("test_elicitation_sep1330_enums", "Asks with every enum shape (SEP-1330)"),
        ("test_reconnection", "Answers after a short pause (SSE reconnection)"),
    ];
    let mut tools: Vec<Tool> = plain.iter().map(|(n, d)| Tool::new(*n, *d, no_args())).collect();
    let with_string = |name: &'static str, desc: &'static str, arg: &str, arg_desc: &str| {
        Tool::new(
            name,
            desc,
            object(json!({
                "type": "object",
                "properties": { arg: { "type": "string", "description": arg_desc } },
                "required": [arg]
            })),
        )
    };
    tools.push(with_string(
        "test_sampling",
        "Asks the client's model to answer a prompt",
        "prompt",
        "The prompt",
    ));
    tools.push(with_string(
        "test_elicitation",
        "Asks the person for a username and email",
        "message",
        "What to ask",
    ));
    tools.push(Tool::new(
        "json_schema_2020_12_tool",
        "Takes arguments described with JSON Schema 2020-12",
        object(json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "address": {
                    "type": "object",
                    "properties": { "street": { "type": "string" }, "city": { "type": "string" } }
                }
            },
            "properties": { "name": { "type": "string" }, "address": { "$ref": "#/$defs/address" } },
            "additionalProperties": false
        })),
    ));
    tools
}

fn text(s: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(s.into())])
}

fn embedded(uri: &str, mime: &str, body: &str) -> ContentBlock {
    ContentBlock::resource(ResourceContents::TextResourceContents {
        uri: uri.into(),
        mime_type: Some(mime.into()),
        text: body.into(),
        meta: None,
    })
}

async fn elicit(ctx: &RequestContext<RoleServer>, message: &str, schema: Value) -> Result<String, String> {
    let schema = serde_json::from_value(schema).map_err(|e| e.to_string())?;
    let params = ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: message.into(),
        requested_schema: schema,
    };
    let result = ctx.peer.create_elicitation(params).await.map_err(|e| e.to_string())?;
    let action = match result.action {
        ElicitationAction::Accept => "accept",
        ElicitationAction::Decline => "decline",
        _ => "cancel",
    };
    Ok(format!("action={action}, content={}", result.content.unwrap_or(Value::Null)))
}

/// Run a fixture tool; `None` when `name` is not one.
pub async fn call(name: &str, args: &JsonObject, ctx: &RequestContext<RoleServer>) -> Option<CallToolResult> {
    let arg = |k: &str| args.get(k).and_then(Value::as_str).map(str::to_owned);
    let result = match name {
        "test_simple_text" => text("This is a simple text response for testing."),
        "test_image_content" => CallToolResult::success(vec![ContentBlock::image(PNG, "image/png")]),
        "test_audio_content" => {
            CallToolResult::success(vec![ContentBlock::Audio(AudioContent::new(WAV, "audio/wav"))])
        }
        "test_embedded_resource" => CallToolResult::success(vec![embedded(
            "test://embedded-resource",
            "text/plain",
            "This is an embedded resource content.",
        )]),
        "test_multiple_content_types" => CallToolResult::success(vec![
            ContentBlock::text("Multiple content types test:"),
            ContentBlock::image(PNG, "image/png"),
            embedded("test://mixed-content-resource", "application/json", r#"{"test":"data","value":123}"#),
        ]),
        "test_tool_with_logging" => {
            for step in ["Tool execution started", "Tool processing data", "Tool execution completed"] {
                let param = LoggingMessageNotificationParam::new(LoggingLevel::Info, json!(step))
                    .with_logger("mooring");
                let _ = ctx.peer.notify_logging_message(param).await;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            text("Logging test completed")
        }
        "test_error_handling" => CallToolResult::error(vec![ContentBlock::text(
            "This tool intentionally returns an error for testing",
        )]),
        "test_tool_with_progress" => {
            let token = ctx.meta.get_progress_token();
            for (done, message) in [(0.0, "Starting"), (50.0, "Halfway"), (100.0, "Complete")] {
                if let Some(token) = &token {
                    let p = ProgressNotificationParam::new(token.clone(), done)
                        .with_total(100.0)
                        .with_message(message);
                    let _ = ctx.peer.notify_progress(p).await;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            text("Progress test completed")
        }
        "test_sampling" => {
            let prompt = arg("prompt").unwrap_or_else(|| "Hello".into());
            let request = CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt)], 100);
            match ctx.peer.create_message(request).await {
                Ok(r) => {
                    let answer = r.message.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone());
                    text(format!("LLM response: {}", answer.unwrap_or_default()))
                }
                Err(e) => CallToolResult::error(vec![ContentBlock::text(format!("Sampling error: {e}"))]),
            }
        }
        "test_elicitation" => {
            let message = arg("message").unwrap_or_else(|| "Please provide your information".into());
            let schema = json!({
                "type": "object",
                "properties": {
                    "username": { "type": "string", "description": "User's response" },
                    "email": { "type": "string", "description": "User's email address" }
                },
                "required": ["username", "email"]
            });
            elicitation_result("User response", elicit(ctx, &message, schema).await)
        }
        "test_elicitation_sep1034_defaults" => {
            let schema = json!({
                "type": "object",
                "properties": {
                    "name": { "type": "string", "description": "User's name", "default": "John Doe" },
                    "age": { "type": "integer", "description": "User's age", "default": 30 },
                    "score": { "type": "number", "description": "User's score", "default": 95.5 },
                    "status": {
                        "type": "string", "description": "User's status",
                        "enum": ["active", "inactive", "pending"], "default": "active"
                    },
                    "verified": { "type": "boolean", "description": "Whether user is verified", "default": true }
                }
            });
            let outcome = elicit(ctx, "Please provide values (all have defaults)", schema).await;
            elicitation_result("Elicitation completed", outcome)
        }
        "test_elicitation_sep1330_enums" => {
            let titled = |prefix: &str, word: &str| {
                json!([
                    { "const": format!("{prefix}1"), "title": format!("First {word}") },
                    { "const": format!("{prefix}2"), "title": format!("Second {word}") },
                    { "const": format!("{prefix}3"), "title": format!("Third {word}") }
                ])
            };
            let schema = json!({
                "type": "object",
                "properties": {
                    "untitledSingle": { "type": "string", "enum": ["option1", "option2", "option3"] },
                    "titledSingle": { "type": "string", "oneOf": titled("value", "Option") },
                    "legacyEnum": {
                        "type": "string", "enum": ["opt1", "opt2", "opt3"],
                        "enumNames": ["Option One", "Option Two", "Option Three"]
                    },
                    "untitledMulti": {
                        "type": "array", "items": { "type": "string", "enum": ["option1", "option2", "option3"] }
                    },
                    "titledMulti": { "type": "array", "items": { "anyOf": titled("value", "Choice") } }
                }
            });
            elicitation_result(
                "Enum elicitation completed",
                elicit(ctx, "Test enum schema improvements", schema).await,
            )
        }
        "json_schema_2020_12_tool" => {
            text(format!("Hello, {}!", arg("name").unwrap_or_else(|| "world".into())))
        }
        "test_reconnection" => {
            tokio::time::sleep(Duration::from_millis(100)).await;
            text("Reconnection test completed")
        }
        _ => return None,
    };
    Some(result)
}

fn elicitation_result(label: &str, outcome: Result<String, String>) -> CallToolResult {
    match outcome {
        Ok(summary) => text(format!("{label}: {summary}")),
        Err(e) => CallToolResult::error(vec![ContentBlock::text(format!("Elicitation error: {e}"))]),
    }
}

/// The suite's static resources (plus the one it subscribes to).
pub fn resources() -> Vec<Resource> {
    vec![
        Resource::new("test://static-text", "Static Text Resource")
            .with_description("A static text resource")
            .with_mime_type("text/plain"),
        Resource::new("test://static-binary", "Static Binary Resource")
            .with_description("A static binary resource")
            .with_mime_type("image/png"),
        Resource::new("test://watched-resource", "Watched Resource")
            .with_description("A resource clients may subscribe to")
            .with_mime_type("text/plain"),
    ]
}

/// The suite's resource template.
pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new("test://template/{id}/data", "Template Resource")
            .with_description("A resource with an id parameter")
            .with_mime_type("application/json"),
    ]
}

/// Read a fixture resource; `None` when `uri` is not one.
pub fn read(uri: &str) -> Option<ReadResourceResult> {
    let text = |mime: &str, body: String| ResourceContents::TextResourceContents {
        uri: uri.into(),
        mime_type: Some(mime.into()),
        text: body,
        meta: None,
    };
    let contents = match uri {
        "test://static-text" => text("text/plain", "This is the content of the static text resource.".into()),
        "test://watched-resource" => text("text/plain", "Watched resource content.".into()),
        "test://static-binary" => ResourceContents::BlobResourceContents {
            uri: uri.into(),
            mime_type: Some("image/png".into()),
            blob: PNG.into(),
            meta: None,
        },
        _ => {
            let id = uri.strip_prefix("test://template/")?.strip_suffix("/data")?;
            text(
                "application/json",
                json!({ "id": id, "templateTest": true, "data": format!("Data for ID: {id}") }).to_string(),
            )
        }
    };
    Some(ReadResourceResult::new(vec![contents]))
}

/// Whether `uri` names a fixture resource (for subscribe).
pub fn is_resource(uri: &str) -> bool {
    read(uri).is_some()
}

/// The suite's prompts.
pub fn prompts() -> Vec<Prompt> {
    vec![
        Prompt::new("test_simple_prompt", Some("A prompt without arguments"), None),
        Prompt::new(
            "test_prompt_with_arguments",
            Some("A prompt with two arguments"),
            Some(vec![
                PromptArgument::new("arg1").with_description("First argument").with_required(true),
                PromptArgument::new("arg2").with_description("Second argument").with_required(false),
            ]),
        ),
        Prompt::new("test_prompt_with_embedded_resource", Some("A prompt that embeds a resource"), None),
        Prompt::new("test_prompt_with_image", Some("A prompt with an image"), None),
    ]
}

/// Get a fixture prompt; `None` when `name` is not one.
pub fn prompt(name: &str, args: &JsonObject) -> Option<GetPromptResult> {
    let arg = |k: &str| args.get(k).and_then(Value::as_str).unwrap_or_default().to_owned();
    let messages = match name {
        "test_simple_prompt" => vec![PromptMessage::new_text(Role::User, "This is a simple test prompt.")],
        "test_prompt_with_arguments" => vec![PromptMessage::new_text(
            Role::User,
            format!("Prompt with arguments: arg1='{}', arg2='{}'", arg("arg1"), arg("arg2")),
        )],
        "test_prompt_with_embedded_resource" => vec![
            PromptMessage::new_text(Role::User, "Here is a resource:"),
            PromptMessage::new_resource(
                Role::User,
                "test://static-text".into(),
                Some("text/plain".into()),
                Some("Resource content for prompt".into()),
                None,
                None,
                None,
            ),
        ],
        "test_prompt_with_image" => vec![
            PromptMessage::new_text(Role::User, "Here is an image:"),
            PromptMessage::new(Role::User, ContentBlock::Image(ImageContent::new(PNG, "image/png"))),
        ],
        _ => return None,
    };
    Some(GetPromptResult::new(messages))
}

//! A tool's definition as clients receive it, built from its Rust types: the input and
//! output schemas (made as compact as they can be without losing meaning) and the hints.

use rmcp::handler::server::common::{schema_for_empty_input, schema_for_input, schema_for_output};
use rmcp::model::{Tool, ToolAnnotations};
use schemars::JsonSchema;

/// What a tool's annotations tell a client about it.
pub struct ToolHints {
    /// Changes nothing.
    pub read_only: bool,
    /// May undo or hide what is there.
    pub destructive: bool,
    /// Calling twice does what calling once does.
    pub idempotent: bool,
}

/// Reads only.
pub const READ: ToolHints = ToolHints { read_only: true, destructive: false, idempotent: true };
/// Adds something.
pub const WRITE: ToolHints = ToolHints { read_only: false, destructive: false, idempotent: false };
/// Sets a value (again changes nothing more).
pub const SET: ToolHints = ToolHints { read_only: false, destructive: false, idempotent: true };

/// The definition of tool `name` taking `P` and answering `O`.
pub fn tool<P: JsonSchema + 'static, O: JsonSchema + 'static>(
    name: &'static str,
    description: &'static str,
    h: &ToolHints,
) -> Tool {
    let input = schema_for_input::<P>().unwrap_or_else(|e| {
        tracing::error!(tool = name, error = %e, "input schema could not be generated");
        schema_for_empty_input()
    });
    let output = schema_for_output::<O>();
    Tool::new(name, description, compact(input, true))
        .with_raw_output_schema(compact(output, false))
        .with_annotations(ToolAnnotations::from_raw(
            None,
            Some(h.read_only),
            Some(h.destructive),
            Some(h.idempotent),
            Some(false),
        ))
}

/// The definition of tool `name` taking `P` with no output schema: an app calls it, and its
/// answers are for the app, not a structured result a client checks.
pub fn app_tool<P: JsonSchema + 'static>(
    name: &'static str,
    description: &'static str,
    h: &ToolHints,
) -> Tool {
    let mut t = tool::<P, serde_json::Value>(name, description, h);
    t.output_schema = None;
    t
}

/// The schema as compact as it can be without losing meaning, since clients send every
/// tool's schema to their model on every turn: no `$schema`, no `"default": null`, an
/// optional field typed by what it holds (`["string","null"]` → `"string"`), enums of
/// documented constants as plain `enum`s (the property's description names them), and no
/// Rust-width formats (`uint64`…: not JSON Schema formats; Ajv-based clients such as
/// Gemini CLI warn per field). Nullable types stay in output schemas: results do carry
/// nulls, and clients validate results against them (Claude Code, the Python SDK).
fn compact(
    schema: std::sync::Arc<rmcp::model::JsonObject>,
    input: bool,
) -> std::sync::Arc<rmcp::model::JsonObject> {
    use serde_json::Value;
    fn walk(v: &mut Value, input: bool) {
        match v {
            Value::Object(map) => {
                map.remove("$schema");
                if map.get("default").is_some_and(Value::is_null) {
                    map.remove("default");
                }
                if map.get("format").and_then(|f| f.as_str()).is_some_and(|f| !STANDARD_FORMATS.contains(&f))
                {
                    map.remove("format");
                }
                if input
                    && let Some(Value::Array(types)) = map.get("type")
                    && types.len() == 2
                    && types.iter().any(|t| t == "null")
                    && let Some(other) = types.iter().find(|t| *t != "null").cloned()
                {
                    map.insert("type".into(), other);
                }
                if let Some(Value::Array(alts)) = map.get("oneOf")
                    && !alts.is_empty()
                    && alts.iter().all(|a| a.get("const").is_some())
                {
                    let consts: Vec<Value> = alts.iter().filter_map(|a| a.get("const").cloned()).collect();
                    let kind = alts[0].get("type").cloned();
                    map.remove("oneOf");
                    map.insert("enum".into(), Value::Array(consts));
                    if let Some(k) = kind {
                        map.insert("type".into(), k);
                    }
                }
                // `anyOf: [X, {type: null}]` is an optional X.
                if input
                    && let Some(Value::Array(alts)) = map.get("anyOf")
                    && alts.len() == 2
                    && let Some(i) = alts.iter().position(|a| a.get("type").is_some_and(|t| t == "null"))
                {
                    let keep = alts[1 - i].clone();
                    map.remove("anyOf");
                    if let Value::Object(k) = keep {
                        for (key, val) in k {
                            map.entry(key).or_insert(val);
                        }
                    }
                }
                map.values_mut().for_each(|v| walk(v, input));
            }
            Value::Array(items) => items.iter_mut().for_each(|v| walk(v, input)),
            _ => {}
        }
    }
    let mut value = serde_json::Value::Object((*schema).clone());
    walk(&mut value, input);
    match value {
        serde_json::Value::Object(map) => std::sync::Arc::new(map),
        _ => schema,
    }
}

/// The formats JSON Schema 2020-12 defines.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

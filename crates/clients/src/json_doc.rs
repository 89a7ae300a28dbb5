//! A JSON or JSONC file edited in place: only the value at a key path changes; comments,
//! key order, indentation and everything else stay as the person wrote them.

use std::path::Path;

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstObject, CstRootNode};
use serde_json::Value;

use crate::ConfigError;
use crate::catalog::Format;

/// A parsed JSON/JSONC document whose root is an object.
pub struct JsonDoc {
    root: CstRootNode,
}

fn options(format: Format) -> ParseOptions {
    let jsonc = format == Format::Jsonc;
    ParseOptions {
        allow_comments: jsonc,
        allow_trailing_commas: jsonc,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

impl JsonDoc {
    /// Parse `text` (an empty file is an empty object). Errors name the file and line.
    pub fn parse(text: &str, format: Format, file: &Path) -> Result<Self, ConfigError> {
        let source = if text.trim().is_empty() { "{}\n" } else { text };
        // The CST parser keeps comments as tokens whatever the options say, so plain JSON
        // is checked by the strict parser the clients themselves use.
        if format == Format::Json
            && let Err(e) = serde_json::from_str::<Value>(source)
        {
            return Err(ConfigError::Unparseable {
                file: file.to_path_buf(),
                line: e.line(),
                message: format!("{e}; the client expects plain JSON (no comments or trailing commas)"),
            });
        }
        let root = CstRootNode::parse(source, &options(format)).map_err(|e| {
            let dialect = if format == Format::Jsonc {
                "JSON with comments"
            } else {
                "plain JSON (no comments or trailing commas)"
            };
            ConfigError::Unparseable {
                file: file.to_path_buf(),
                line: e.line_display(),
                message: format!(
                    "{} at column {}; the client expects {dialect}",
                    e.kind(),
                    e.column_display()
                ),
            }
        })?;
        match root.value() {
            None => {
                root.object_value_or_set();
            }
            Some(v) if v.as_object().is_none() => {
                return Err(ConfigError::Unparseable {
                    file: file.to_path_buf(),
                    line: 1,
                    message: "the top level is not an object ({ ... })".into(),
                });
            }
            Some(_) => {}
        }
        Ok(Self { root })
    }

    fn object_at(&self, keys: &[&str]) -> Option<CstObject> {
        let mut obj = self.root.object_value()?;
        for key in keys {
            obj = obj.object_value(key)?;
        }
        Some(obj)
    }

    /// The value at `keys`, if present.
    pub fn get(&self, keys: &[&str]) -> Option<Value> {
        let (last, parents) = keys.split_last()?;
        self.object_at(parents)?.get(last)?.value()?.to_serde_value()
    }

    /// Set the value at `keys`, creating objects on the way (a non-object in the way is
    /// an error naming the key).
    pub fn set(&mut self, keys: &[&str], value: &Value, file: &Path) -> Result<(), ConfigError> {
        let Some((last, parents)) = keys.split_last() else { return Ok(()) };
        let mut obj = self.root.object_value_or_set();
        for (i, key) in parents.iter().enumerate() {
            obj = match obj.get(key) {
                Some(prop) => prop.object_value().ok_or_else(|| ConfigError::Unparseable {
                    file: file.to_path_buf(),
                    line: 1,
                    message: format!("\"{}\" is not an object", keys[..=i].join(".")),
                })?,
                None => obj.object_value_or_set(key),
            };
        }
        let input = to_input(value);
        match obj.get(last) {
            Some(prop) => prop.set_value(input),
            None => {
                obj.append(last, input);
            }
        }
        Ok(())
    }

    /// Remove the value at `keys`; true when something was removed.
    pub fn remove(&mut self, keys: &[&str]) -> bool {
        let Some((last, parents)) = keys.split_last() else { return false };
        match self.object_at(parents).and_then(|o| o.get(last)) {
            Some(prop) => {
                prop.remove();
                true
            }
            None => false,
        }
    }

    /// In the array at `keys` (created when missing), replace the first element `ours`
    /// accepts with `new` (or drop it when `new` is None), drop any further ones, and
    /// append `new` when none matched. Other elements keep their bytes.
    pub fn upsert_in_array(
        &mut self,
        keys: &[&str],
        ours: impl Fn(&Value) -> bool,
        new: Option<&Value>,
        file: &Path,
    ) -> Result<(), ConfigError> {
        let Some((last, parents)) = keys.split_last() else { return Ok(()) };
        let existing = self.object_at(parents).and_then(|o| o.get(last));
        let array = match existing {
            Some(prop) => match prop.array_value() {
                Some(a) => a,
                None => {
                    return Err(ConfigError::Unparseable {
                        file: file.to_path_buf(),
                        line: 1,
                        message: format!("\"{}\" is not an array", keys.join(".")),
                    });
                }
            },
            None => {
                let Some(new) = new else { return Ok(()) };
                self.set(keys, &Value::Array(vec![new.clone()]), file)?;
                return Ok(());
            }
        };
        let mut placed = false;
        for (index, element) in array.elements().into_iter().enumerate() {
            let Some(value) = element.to_serde_value() else { continue };
            if !ours(&value) {
                continue;
            }
            match new {
                Some(n) if !placed => {
                    placed = true;
                    if &value != n {
                        element.remove();
                        array.insert(index, to_input(n));
                    }
                }
                _ => element.remove(),
            }
        }
        if let (Some(n), false) = (new, placed) {
            array.append(to_input(n));
        }
        Ok(())
    }

    /// The document as text.
    pub fn text(&self) -> String {
        let mut text = self.root.to_string();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text
    }
}

fn to_input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(to_input).collect()),
        Value::Object(map) => CstInputValue::Object(
            crate::entry::ordered(map).into_iter().map(|(k, v)| (k.clone(), to_input(v))).collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p() -> &'static Path {
        Path::new("/t/settings.json")
    }

    #[test]
    fn setting_a_key_keeps_comments_and_other_entries_byte_for_byte() {
        let before = "{\n  // my servers\n  \"servers\": {\n    \"other\": { \"url\": \"http://x\" }, // keep\n  },\n  \"theme\": \"dark\"\n}\n";
        let mut doc = JsonDoc::parse(before, Format::Jsonc, p()).unwrap();
        doc.set(&["servers", "mooring"], &json!({"command": "/bin/m", "args": ["stdio"]}), p()).unwrap();
        let after = doc.text();
        assert!(
            after.contains("// my servers")
                && after.contains("// keep")
                && after.contains("\"theme\": \"dark\"")
        );
        assert!(after.contains("\"other\": { \"url\": \"http://x\" }"), "{after}");
        let again = JsonDoc::parse(&after, Format::Jsonc, p()).unwrap();
        assert_eq!(again.get(&["servers", "mooring", "args"]), Some(json!(["stdio"])));
        let mut removed = JsonDoc::parse(&after, Format::Jsonc, p()).unwrap();
        assert!(removed.remove(&["servers", "mooring"]));
        assert_eq!(removed.get(&["servers", "other", "url"]), Some(json!("http://x")));
        assert!(!removed.text().contains("mooring"));
    }

    #[test]
    fn strict_json_refuses_comments_with_the_line() {
        let err = JsonDoc::parse("{\n  \"a\": 1\n  // no\n}", Format::Json, p()).err().unwrap();
        match err {
            ConfigError::Unparseable { line, message, .. } => {
                assert_eq!(line, 3, "{message}");
                assert!(message.contains("plain JSON"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_non_object_in_the_way_is_refused_by_name() {
        let mut doc = JsonDoc::parse("{\"mcpServers\": []}", Format::Json, p()).unwrap();
        let err = doc.set(&["mcpServers", "mooring"], &json!({}), p()).unwrap_err();
        assert!(err.to_string().contains("\"mcpServers\" is not an object"), "{err}");
        assert!(JsonDoc::parse("[1]", Format::Json, p()).is_err());
    }

    #[test]
    fn array_upsert_replaces_ours_and_keeps_the_others() {
        let before = "{\n  \"hooks\": {\n    \"SessionStart\": [\n      {\"command\": \"other\"},  // theirs\n      {\"command\": \"old mooring\"}\n    ]\n  }\n}\n";
        let ours = |v: &Value| v["command"].as_str().is_some_and(|c| c.contains("mooring"));
        let mut doc = JsonDoc::parse(before, Format::Jsonc, p()).unwrap();
        let new = json!({"command": "new mooring"});
        doc.upsert_in_array(&["hooks", "SessionStart"], ours, Some(&new), p()).unwrap();
        let after = doc.text();
        assert!(after.contains("{\"command\": \"other\"},  // theirs"), "{after}");
        assert_eq!(
            doc.get(&["hooks", "SessionStart"]),
            Some(json!([{"command": "other"}, {"command": "new mooring"}]))
        );
        let mut twice = JsonDoc::parse(&after, Format::Jsonc, p()).unwrap();
        twice.upsert_in_array(&["hooks", "SessionStart"], ours, Some(&new), p()).unwrap();
        assert_eq!(twice.text(), after);
        twice.upsert_in_array(&["hooks", "SessionStart"], ours, None, p()).unwrap();
        assert_eq!(twice.get(&["hooks", "SessionStart"]), Some(json!([{"command": "other"}])));
    }

    #[test]
    fn an_empty_file_is_an_empty_object() {
        let mut doc = JsonDoc::parse("  \n", Format::Json, p()).unwrap();
        doc.set(&["mcpServers", "mooring"], &json!({"command": "m"}), p()).unwrap();
        let v: Value = serde_json::from_str(&doc.text()).unwrap();
        assert_eq!(v, json!({"mcpServers": {"mooring": {"command": "m"}}}));
    }
}

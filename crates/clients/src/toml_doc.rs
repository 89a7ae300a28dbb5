//! A TOML file (Codex's `config.toml`) edited in place with `toml_edit`: comments, order
//! and formatting of everything but Mooring's own table are kept.

use std::path::Path;

use serde_json::Value;
use toml_edit::{Array, DocumentMut, InlineTable, Item, Table};

use crate::ConfigError;

/// A parsed TOML document.
pub struct TomlDoc {
    doc: DocumentMut,
}

impl TomlDoc {
    /// Parse `text`; errors name the file and line.
    pub fn parse(text: &str, file: &Path) -> Result<Self, ConfigError> {
        let doc = text.parse::<DocumentMut>().map_err(|e| {
            let line =
                e.span().map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1).unwrap_or(1);
            ConfigError::Unparseable {
                file: file.to_path_buf(),
                line,
                message: e.message().trim().to_owned(),
            }
        })?;
        Ok(Self { doc })
    }

    /// The table at `[outer.inner]` as JSON, if present.
    pub fn get(&self, outer: &str, inner: &str) -> Option<Value> {
        let item = self.doc.get(outer)?.get(inner)?;
        to_json(item)
    }

    /// Make `[outer.inner]` exactly `value` (an object of strings, arrays of strings and
    /// string maps), keeping its place when it exists.
    pub fn set(&mut self, outer: &str, inner: &str, value: &Value, file: &Path) -> Result<(), ConfigError> {
        let not_table = || ConfigError::Unparseable {
            file: file.to_path_buf(),
            line: 1,
            message: format!("\"{outer}\" is not a table"),
        };
        let outer_item = self.doc.entry(outer).or_insert_with(|| {
            let mut t = Table::new();
            t.set_implicit(true);
            Item::Table(t)
        });
        let table = outer_item.as_table_like_mut().ok_or_else(not_table)?;
        let mut new = Table::new();
        if let Value::Object(map) = value {
            for (k, v) in crate::entry::ordered(map) {
                new.insert(k, toml_edit::value(to_toml(v)));
            }
        }
        match table.get_mut(inner) {
            Some(existing) if existing.is_table() => {
                // Keep the header's comments and position; replace the body.
                let old = existing.as_table_mut().expect("checked");
                old.clear();
                for (k, v) in new.iter() {
                    old.insert(k, v.clone());
                }
            }
            _ => {
                table.insert(inner, Item::Table(new));
            }
        }
        Ok(())
    }

    /// Remove `[outer.inner]`; true when something was removed.
    pub fn remove(&mut self, outer: &str, inner: &str) -> bool {
        self.doc.get_mut(outer).and_then(Item::as_table_like_mut).and_then(|t| t.remove(inner)).is_some()
    }

    /// The document as text.
    pub fn text(&self) -> String {
        self.doc.to_string()
    }
}

fn to_toml(v: &Value) -> toml_edit::Value {
    match v {
        Value::String(s) => s.as_str().into(),
        Value::Bool(b) => (*b).into(),
        Value::Number(n) => n.as_i64().map(Into::into).unwrap_or_else(|| n.to_string().into()),
        Value::Array(items) => {
            let mut a = Array::new();
            for i in items {
                a.push(to_toml(i));
            }
            a.into()
        }
        Value::Object(map) => {
            let mut t = InlineTable::new();
            for (k, v) in map {
                t.insert(k, to_toml(v));
            }
            t.into()
        }
        Value::Null => "".into(),
    }
}

fn to_json(item: &Item) -> Option<Value> {
    match item {
        Item::Value(v) => Some(value_json(v)),
        Item::Table(t) => {
            Some(Value::Object(t.iter().filter_map(|(k, v)| Some((k.to_owned(), to_json(v)?))).collect()))
        }
        _ => None,
    }
}

fn value_json(v: &toml_edit::Value) -> Value {
    match v {
        toml_edit::Value::String(s) => Value::String(s.value().clone()),
        toml_edit::Value::Integer(i) => Value::from(*i.value()),
        toml_edit::Value::Float(f) => Value::from(*f.value()),
        toml_edit::Value::Boolean(b) => Value::Bool(*b.value()),
        toml_edit::Value::Datetime(d) => Value::String(d.value().to_string()),
        toml_edit::Value::Array(a) => Value::Array(a.iter().map(value_json).collect()),
        toml_edit::Value::InlineTable(t) => {
            Value::Object(t.iter().map(|(k, v)| (k.to_owned(), value_json(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p() -> &'static Path {
        Path::new("/t/config.toml")
    }

    #[test]
    fn mooring_table_is_added_without_touching_the_rest() {
        let before = "# my codex\nmodel = \"o3\"  # fast\n\n[mcp_servers.other]\ncommand = \"x\"\n\n[profiles.work]\nmodel = \"o4\"\n";
        let mut doc = TomlDoc::parse(before, p()).unwrap();
        let entry = json!({"command": "/bin/mooring", "args": ["stdio"], "env": {"MOORING_HOME": "/d"}});
        doc.set("mcp_servers", "mooring", &entry, p()).unwrap();
        let after = doc.text();
        assert!(after.starts_with("# my codex\nmodel = \"o3\"  # fast\n\n[mcp_servers.other]\ncommand = \"x\"\n\n[mcp_servers.mooring]"), "{after}");
        assert!(after.contains("[mcp_servers.mooring]\ncommand = \"/bin/mooring\"\nargs = [\"stdio\"]\nenv = { MOORING_HOME = \"/d\" }"), "{after}");
        assert_eq!(TomlDoc::parse(&after, p()).unwrap().get("mcp_servers", "mooring"), Some(entry.clone()));
        let mut again = TomlDoc::parse(&after, p()).unwrap();
        again.set("mcp_servers", "mooring", &entry, p()).unwrap();
        assert_eq!(again.text(), after, "setting the same entry twice changes nothing");
        assert!(again.remove("mcp_servers", "mooring"));
        assert_eq!(again.text(), before);
    }

    #[test]
    fn a_broken_file_names_its_line() {
        let err = TomlDoc::parse("a = 1\n[mcp_servers\nb = 2\n", p()).err().unwrap();
        match err {
            ConfigError::Unparseable { line, .. } => assert_eq!(line, 2),
            other => panic!("{other:?}"),
        }
    }
}

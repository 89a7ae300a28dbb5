//! Finding a key that a JSON message gives twice in one object. serde_json keeps the
//! last of two equal keys without a word, while rmcp's typed messages refuse them and
//! fall through to "method not found", so the front layer names the key itself. RFC 8259
//! leaves the meaning of a repeated name to each reader: refusing it is the one reading
//! that cannot differ between two readers of the same message.

use std::cell::RefCell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// The path of the first key given twice in one object of `bytes` (`params.name`,
/// `params.arguments.kind`, `[0].id`), or `None` when every object's keys differ (or
/// the body is not JSON, which the caller reports on its own).
pub fn first_repeated(bytes: &[u8]) -> Option<String> {
    let found = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let walk = Walk { path: &Path::Root, found: &found };
    walk.deserialize(&mut de).ok()?;
    found.into_inner()
}

/// Where a value sits, from the message's top; built into text only for the one key
/// reported, so a well-formed message costs no string per key beyond the key itself.
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Key(Path::Root, key) => write!(f, "{key}"),
            Path::Key(parent, key) => write!(f, "{parent}.{key}"),
            Path::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

struct Walk<'p, 'f> {
    path: &'p Path<'p>,
    found: &'f RefCell<Option<String>>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        // Objects in MCP messages hold a handful of keys: a scan beats hashing them.
        let mut keys: Vec<String> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let repeated = keys.contains(&key);
            {
                let path = Path::Key(self.path, &key);
                if repeated && self.found.borrow().is_none() {
                    *self.found.borrow_mut() = Some(path.to_string());
                }
                map.next_value_seed(Walk { path: &path, found: self.found })?;
            }
            if !repeated {
                keys.push(key);
            }
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        loop {
            let path = Path::Index(self.path, i);
            if seq.next_element_seed(Walk { path: &path, found: self.found })?.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::first_repeated;

    #[test]
    fn the_first_repeated_key_is_named_by_its_path_at_any_depth() {
        for (body, want) in [
            (r#"{"jsonrpc":"2.0","id":1,"method":"x"}"#, None),
            (r#"{"id":1,"id":2}"#, Some("id")),
            (r#"{"params":{"name":"a","name":"b"}}"#, Some("params.name")),
            (
                r#"{"params":{"arguments":{"kind":"a","x":[1,{"k":1,"k":2}]}}}"#,
                Some("params.arguments.x[1].k"),
            ),
            (r#"{"a":{"b":1},"c":{"b":1}}"#, None),
            (r#"[{"id":1},{"id":1,"id":1}]"#, Some("[1].id")),
            (r#"{"a\u0062":1,"ab":2}"#, Some("ab")),
            (r#"{"a":1,"a":2,"b":1,"b":2}"#, Some("a")),
            ("not json", None),
            (r#"{"a":1,"a":2"#, None),
        ] {
            assert_eq!(first_repeated(body.as_bytes()).as_deref(), want, "{body}");
        }
    }
}

//! libpq's key=value connection strings (`host=db.example dbname=team sslmode=verify-full`),
//! read and written by the rules tokio-postgres reads them with (values optionally in
//! single quotes, a backslash escaping the next character), so the TLS settings can be
//! taken out of one as out of a `postgres://` URL.

use mooring_core::{Error, Result};

/// The settings of a key=value connection string, in order.
pub fn parse(text: &str) -> Result<Vec<(String, String)>> {
    let bad = |why: &str| {
        Error::invalid(
            "url",
            format!("the connection string is neither a postgres:// URL nor key=value settings: {why}"),
        )
    };
    let mut chars = text.chars().peekable();
    let skip_spaces = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>| {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
    };
    let mut pairs = Vec::new();
    loop {
        skip_spaces(&mut chars);
        let mut key = String::new();
        while let Some(c) = chars.next_if(|c| !c.is_whitespace() && *c != '=') {
            key.push(c);
        }
        if key.is_empty() {
            return match chars.peek() {
                None => Ok(pairs),
                Some(_) => Err(bad("a setting without a name before `=`")),
            };
        }
        skip_spaces(&mut chars);
        if chars.next() != Some('=') {
            return Err(bad(&format!("`{key}` has no `=value`")));
        }
        skip_spaces(&mut chars);
        let quoted = chars.next_if_eq(&'\'').is_some();
        let mut value = String::new();
        loop {
            match chars.peek().copied() {
                None if quoted => return Err(bad(&format!("the quote after `{key}=` is never closed"))),
                None => break,
                Some('\'') if quoted => {
                    chars.next();
                    break;
                }
                Some(c) if c.is_whitespace() && !quoted => break,
                Some('\\') => {
                    chars.next();
                    value.extend(chars.next());
                }
                Some(c) => {
                    chars.next();
                    value.push(c);
                }
            }
        }
        if value.is_empty() && !quoted {
            return Err(bad(&format!("`{key}=` has no value (write {key}='' for an empty one)")));
        }
        pairs.push((key, value));
    }
}

/// Settings written back as one string, each value quoted so any character survives.
pub fn render(pairs: &[(String, String)]) -> String {
    let quote = |v: &str| v.replace('\\', "\\\\").replace('\'', "\\'");
    pairs.iter().map(|(k, v)| format!("{k}='{}'", quote(v))).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
        items.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn reads_what_libpq_writes_and_writes_what_tokio_postgres_reads() {
        let read =
            parse(r"host=db.example  port = 5433 application_name='a b\'c' user=a\ b options=''").unwrap();
        let want = pairs(&[
            ("host", "db.example"),
            ("port", "5433"),
            ("application_name", "a b'c"),
            ("user", "a b"),
            ("options", ""),
        ]);
        assert_eq!(read, want);
        let written = render(&read);
        assert_eq!(parse(&written).unwrap(), want, "round trip through {written}");
        let config: tokio_postgres::Config = written.parse().expect("tokio-postgres reads what we write");
        assert_eq!(config.get_application_name(), Some("a b'c"));
        assert_eq!(config.get_ports(), [5433]);
        assert_eq!(config.get_user(), Some("a b"));
    }

    #[test]
    fn broken_strings_name_what_is_wrong() {
        for (text, words) in [
            ("host=db sslmode", "`sslmode` has no `=value`"),
            ("host='db", "never closed"),
            ("host= ", "has no value"),
            ("=db", "without a name"),
        ] {
            let e = parse(text).unwrap_err();
            assert_eq!(e.field.as_deref(), Some("url"));
            assert!(e.message.contains(words), "{text:?}: {}", e.message);
        }
    }
}

//! Reading a client's transcript (JSON lines) from where the last turn stopped. The file
//! is the client's and can be anything: only complete lines count (a line still being
//! written is read next time), a line that is not JSON is skipped without losing the lines
//! around it, a line of any size still gives its structure (its long string values are
//! cut as it streams by, so a pasted screenshot costs no memory and loses no request),
//! and one call reads one slice, so a 100 MB transcript is taken in over a few turns, each
//! saving its progress.

use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::Path;

use serde_json::Value;

/// Lines up to this size are parsed as they are; a longer one is read with its long
/// strings cut.
pub const MAX_LINE: usize = 1 << 20;
/// One slice: a read stops at the first line end past this many bytes.
pub const SLICE: u64 = 8 << 20;
/// What a long line keeps of each string value: far more than any field shows.
const KEEP_STRING: usize = 16 << 10;
/// A long line whose structure alone is past this is skipped.
const MAX_SHRUNK: usize = 8 << 20;

/// What one read found.
#[derive(Debug, Default)]
pub struct Chunk {
    /// The complete lines that parsed as JSON, in order.
    pub lines: Vec<Value>,
    /// Where the next read starts: just past the last complete line.
    pub read_to: u64,
    /// Complete lines skipped (not JSON, or too large even with their strings cut).
    pub skipped: usize,
    /// Whether the file was shorter than `from` (replaced or cut): read from its start.
    pub restarted: bool,
    /// Whether the read reached the end of the file.
    pub at_end: bool,
}

/// Read the complete lines of the transcript at `path` from byte `from`, one slice of
/// about `slice` bytes.
pub fn read_from(path: &Path, from: u64, slice: u64) -> std::io::Result<Chunk> {
    let meta = std::fs::symlink_metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "the transcript is not a regular file",
        ));
    }
    let restarted = meta.len() < from;
    let start = if restarted { 0 } else { from };
    let mut file = std::fs::File::open(path)?;
    file.seek(SeekFrom::Start(start))?;
    let mut reader = BufReader::with_capacity(64 << 10, file);
    let mut chunk = Chunk { read_to: start, restarted, ..Chunk::default() };
    let mut line: Vec<u8> = Vec::new();
    let mut long: Option<Shrinker> = None;
    let mut at = start;
    loop {
        if line.is_empty() && long.is_none() && at - start >= slice {
            break;
        }
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            chunk.at_end = true;
            break;
        }
        let (part, newline) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..i], true),
            None => (buf, false),
        };
        match &mut long {
            Some(s) => s.feed(part),
            None if line.len() + part.len() > MAX_LINE => {
                let mut s = Shrinker::default();
                s.feed(&line);
                s.feed(part);
                line.clear();
                long = Some(s);
            }
            None => line.extend_from_slice(part),
        }
        let used = part.len() + usize::from(newline);
        reader.consume(used);
        at += used as u64;
        if newline {
            chunk.read_to = at;
            let text = match long.take() {
                Some(s) => s.finish(),
                None => Some(std::mem::take(&mut line)),
            };
            match text {
                Some(t) if t.iter().all(u8::is_ascii_whitespace) => {}
                Some(t) => match serde_json::from_slice::<Value>(&t) {
                    Ok(v) => chunk.lines.push(v),
                    Err(_) => chunk.skipped += 1,
                },
                None => chunk.skipped += 1,
            }
            line.clear();
        }
    }
    Ok(chunk)
}

/// A JSON text streamed through with every string value cut to [`KEEP_STRING`] bytes
/// (at a character boundary, never inside an escape or between the halves of a surrogate
/// pair), so the result is valid JSON of bounded size whatever the line held.
#[derive(Debug, Default)]
struct Shrinker {
    out: Vec<u8>,
    in_string: bool,
    after_backslash: bool,
    hex_left: u8,
    string_len: usize,
    cut: bool,
    overflow: bool,
}

impl Shrinker {
    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.byte(b);
        }
    }

    fn push(&mut self, b: u8) {
        if self.out.len() >= MAX_SHRUNK {
            self.overflow = true;
        } else {
            self.out.push(b);
        }
    }

    fn byte(&mut self, b: u8) {
        if !self.in_string {
            if b == b'"' {
                self.in_string = true;
                self.string_len = 0;
                self.cut = false;
            }
            return self.push(b);
        }
        if self.after_backslash {
            self.after_backslash = false;
            self.hex_left = if b == b'u' { 4 } else { 0 };
            if !self.cut {
                self.push(b);
            }
            return;
        }
        if self.hex_left > 0 {
            self.hex_left -= 1;
            if !self.cut {
                self.push(b);
            }
            return;
        }
        match b {
            b'"' => {
                if self.cut {
                    self.drop_high_surrogate();
                }
                self.in_string = false;
                self.push(b);
            }
            b'\\' => {
                if self.string_len + 6 > KEEP_STRING {
                    self.cut = true;
                }
                self.after_backslash = true;
                if !self.cut {
                    self.push(b);
                    self.string_len += 6;
                }
            }
            _ => {
                // Cut only where a character starts, so no UTF-8 sequence is split.
                if self.string_len >= KEEP_STRING && b & 0xC0 != 0x80 {
                    self.cut = true;
                }
                if !self.cut {
                    self.push(b);
                    self.string_len += 1;
                }
            }
        }
    }

    /// A kept `\uD8xx` whose low half was cut would not parse: drop it.
    fn drop_high_surrogate(&mut self) {
        let n = self.out.len();
        if n >= 6 && &self.out[n - 6..n - 4] == b"\\u" {
            let hex = &self.out[n - 4..n - 2];
            if matches!(hex[0], b'd' | b'D') && matches!(hex[1], b'8' | b'9' | b'a' | b'b' | b'A' | b'B') {
                self.out.truncate(n - 6);
            }
        }
    }

    fn finish(self) -> Option<Vec<u8>> {
        (!self.overflow).then_some(self.out)
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::{MAX_LINE, read_from};

    fn file(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(bytes).unwrap();
        f
    }

    #[test]
    fn a_line_still_being_written_is_read_next_time() {
        let f = file(b"{\"a\":1}\n{\"b\":");
        let first = read_from(f.path(), 0, super::SLICE).unwrap();
        assert_eq!((first.lines.len(), first.read_to), (1, 8));
        let mut g = std::fs::OpenOptions::new().append(true).open(f.path()).unwrap();
        g.write_all(b"2}\n").unwrap();
        let next = read_from(f.path(), first.read_to, super::SLICE).unwrap();
        assert_eq!(next.lines, vec![serde_json::json!({ "b": 2 })]);
    }

    #[test]
    fn junk_is_skipped_and_a_huge_line_keeps_its_structure_with_its_long_strings_cut() {
        let mut bytes = b"{\"type\":\"user\"}\n\xff\xfe\x00binary\n".to_vec();
        bytes.extend(
            format!("{{\"huge\":\"{}\",\"asked\":\"fix it\"}}\n", "x".repeat(MAX_LINE + 10)).as_bytes(),
        );
        bytes.extend(b"not json at all\n\n{\"type\":\"from-the-future\",\"x\":[1]}\n");
        let f = file(&bytes);
        let c = read_from(f.path(), 0, super::SLICE).unwrap();
        assert_eq!(c.lines.len(), 3, "{:?}", c.lines.iter().map(|l| l.to_string().len()).collect::<Vec<_>>());
        assert_eq!(c.lines[1]["asked"], "fix it");
        assert_eq!(c.lines[1]["huge"].as_str().map(str::len), Some(super::KEEP_STRING));
        assert_eq!(c.skipped, 2);
        assert_eq!(c.read_to, bytes.len() as u64);
        assert!(c.at_end);
    }

    #[test]
    fn a_long_string_is_cut_at_a_character_never_inside_an_escape_or_a_surrogate_pair() {
        for filler in ["é", "\\n", "\\ud83d\\ude00", "\\u00e9", "ab\\\"", "😀"] {
            for pad in 0..7 {
                let body = format!("{}{}", "a".repeat(pad), filler.repeat(MAX_LINE / filler.len() + 10));
                let line = format!("{{\"prompt\":\"start {body}\",\"tail\":[\"kept\"]}}\n");
                let f = file(line.as_bytes());
                let c = read_from(f.path(), 0, super::SLICE).unwrap();
                assert_eq!(c.lines.len(), 1, "{filler} {pad}");
                assert_eq!(c.lines[0]["tail"][0], "kept");
                assert!(c.lines[0]["prompt"].as_str().unwrap().starts_with("start "));
            }
        }
    }

    #[test]
    fn a_read_stops_after_a_slice_at_a_line_end_and_the_next_goes_on() {
        let lines: String =
            (0..100).map(|i| format!("{{\"n\":{i},\"pad\":\"{}\"}}\n", "p".repeat(100))).collect();
        let f = file(lines.as_bytes());
        let mut from = 0;
        let mut seen = Vec::new();
        let mut reads = 0;
        loop {
            let c = read_from(f.path(), from, 1_000).unwrap();
            reads += 1;
            seen.extend(c.lines.iter().map(|l| l["n"].as_i64().unwrap()));
            from = c.read_to;
            if c.at_end {
                break;
            }
        }
        assert_eq!(seen, (0..100).collect::<Vec<_>>());
        assert!(reads > 5, "{reads}");
    }

    #[test]
    fn a_file_shorter_than_the_offset_is_read_from_its_start() {
        let f = file(b"{\"a\":1}\n");
        let c = read_from(f.path(), 10_000, super::SLICE).unwrap();
        assert!(c.restarted);
        assert_eq!(c.lines.len(), 1);
    }

    #[test]
    fn only_a_regular_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read_from(dir.path(), 0, super::SLICE).is_err());
        #[cfg(unix)]
        {
            let target = file(b"{\"a\":1}\n");
            let link = dir.path().join("link.jsonl");
            std::os::unix::fs::symlink(target.path(), &link).unwrap();
            assert!(read_from(&link, 0, super::SLICE).is_err(), "a link could point anywhere");
        }
    }
}

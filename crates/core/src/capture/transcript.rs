//! Reading a client's transcript (JSON lines) from where the last turn stopped. The file
//! is the client's and can be anything: only complete lines count (a line still being
//! written is read next time), a line that is not JSON or is too long is skipped without
//! losing the lines around it, and one call reads a bounded amount, so a 100 MB
//! transcript costs only its new lines.

use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::Path;

use serde_json::Value;

/// The longest line kept; a longer one (a pasted blob, an image) is skipped whole.
pub const MAX_LINE: usize = 1 << 20;
/// The most one call reads; the rest waits for the next turn.
pub const MAX_READ: u64 = 64 << 20;

/// What one read found.
#[derive(Debug, Default)]
pub struct Chunk {
    /// The complete lines that parsed as JSON, in order.
    pub lines: Vec<Value>,
    /// Where the next read starts: just past the last complete line.
    pub read_to: u64,
    /// Complete lines skipped (not JSON, or longer than [`MAX_LINE`]).
    pub skipped: usize,
    /// Whether the file was shorter than `from` (replaced or cut): read from its start.
    pub restarted: bool,
}

/// Read the complete lines of the transcript at `path` from byte `from`.
pub fn read_from(path: &Path, from: u64) -> std::io::Result<Chunk> {
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
    let mut too_long = false;
    let mut at = start;
    while at - start < MAX_READ {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                if !too_long && line.len() + i <= MAX_LINE {
                    line.extend_from_slice(&buf[..i]);
                } else {
                    too_long = true;
                }
                reader.consume(i + 1);
                at += i as u64 + 1;
                chunk.read_to = at;
                if too_long {
                    chunk.skipped += 1;
                } else if !line.iter().all(u8::is_ascii_whitespace) {
                    match serde_json::from_slice::<Value>(&line) {
                        Ok(v) => chunk.lines.push(v),
                        Err(_) => chunk.skipped += 1,
                    }
                }
                line.clear();
                too_long = false;
            }
            None => {
                let n = buf.len();
                if !too_long && line.len() + n <= MAX_LINE {
                    line.extend_from_slice(buf);
                } else {
                    too_long = true;
                    line.clear();
                }
                reader.consume(n);
                at += n as u64;
            }
        }
    }
    Ok(chunk)
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
        let first = read_from(f.path(), 0).unwrap();
        assert_eq!((first.lines.len(), first.read_to), (1, 8));
        let mut g = std::fs::OpenOptions::new().append(true).open(f.path()).unwrap();
        g.write_all(b"2}\n").unwrap();
        let next = read_from(f.path(), first.read_to).unwrap();
        assert_eq!(next.lines, vec![serde_json::json!({ "b": 2 })]);
    }

    #[test]
    fn junk_unknown_and_huge_lines_are_skipped_and_the_rest_kept() {
        let mut bytes = b"{\"type\":\"user\"}\n\xff\xfe\x00binary\n".to_vec();
        bytes.extend(format!("{{\"huge\":\"{}\"}}\n", "x".repeat(MAX_LINE + 10)).as_bytes());
        bytes.extend(b"not json at all\n\n{\"type\":\"from-the-future\",\"x\":[1]}\n");
        let f = file(&bytes);
        let c = read_from(f.path(), 0).unwrap();
        assert_eq!(c.lines.len(), 2, "{:?}", c.lines);
        assert_eq!(c.skipped, 3);
        assert_eq!(c.read_to, bytes.len() as u64);
    }

    #[test]
    fn a_file_shorter_than_the_offset_is_read_from_its_start() {
        let f = file(b"{\"a\":1}\n");
        let c = read_from(f.path(), 10_000).unwrap();
        assert!(c.restarted);
        assert_eq!(c.lines.len(), 1);
    }

    #[test]
    fn only_a_regular_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read_from(dir.path(), 0).is_err());
        #[cfg(unix)]
        {
            let target = file(b"{\"a\":1}\n");
            let link = dir.path().join("link.jsonl");
            std::os::unix::fs::symlink(target.path(), &link).unwrap();
            assert!(read_from(&link, 0).is_err(), "a link could point anywhere");
        }
    }
}

//! Reading text lines from a byte stream with a bound on the memory a line
//! may take, so that a file without line ends cannot exhaust memory.

use std::io::{self, BufRead};

/// What [`LineReader::next_line`] read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineInfo {
    /// 1-based number of the line in the stream.
    pub number: usize,
    /// The line was longer than the bound: only its first bytes were kept
    /// (the rest was read and thrown away).
    pub overlong: bool,
    /// The whole line's length in bytes, its line end not counted (more
    /// than was kept when it was overlong).
    pub length: u64,
}

/// Splits a byte stream into lines. LF, CR LF and a lone CR all end a line;
/// the terminator is not part of the line. Bytes that are not valid UTF-8 are
/// read as ISO 8859-1 (the character set of PGN), so decoding never fails.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    max_bytes: usize,
    line_no: usize,
    skip_lf: bool,
    bytes: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// A reader that keeps at most `max_bytes` bytes of any line.
    pub fn new(inner: R, max_bytes: usize) -> Self {
        LineReader {
            inner,
            max_bytes,
            line_no: 0,
            skip_lf: false,
            bytes: Vec::new(),
        }
    }

    /// Reads the next line into `out` (replacing its contents). Returns
    /// `Ok(None)` at the end of the stream.
    pub fn next_line(&mut self, out: &mut String) -> io::Result<Option<LineInfo>> {
        out.clear();
        let info = self.next_bytes()?;
        if info.is_some() {
            match std::str::from_utf8(&self.bytes) {
                Ok(s) => out.push_str(s),
                Err(_) => out.extend(self.bytes.iter().map(|&b| char::from(b))),
            }
        }
        Ok(info)
    }

    /// The bytes kept of the line [`LineReader::next_bytes`] read last.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Reads the next line, as bytes kept in [`LineReader::bytes`]. Returns
    /// `Ok(None)` at the end of the stream.
    pub fn next_bytes(&mut self) -> io::Result<Option<LineInfo>> {
        self.bytes.clear();
        let mut any = false;
        let mut overlong = false;
        let mut length: u64 = 0;
        loop {
            let avail = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                break;
            }
            if self.skip_lf {
                self.skip_lf = false;
                if avail.first() == Some(&b'\n') {
                    self.inner.consume(1);
                    continue;
                }
            }
            any = true;
            let end = avail.iter().position(|&b| b == b'\n' || b == b'\r');
            let take = end.unwrap_or(avail.len());
            length = length.saturating_add(take as u64);
            let room = self.max_bytes.saturating_sub(self.bytes.len());
            if take > room {
                overlong = true;
            }
            self.bytes
                .extend_from_slice(avail.get(..take.min(room)).unwrap_or_default());
            match end {
                Some(i) => {
                    self.skip_lf = avail.get(i) == Some(&b'\r');
                    self.inner.consume(i.saturating_add(1));
                    break;
                }
                None => {
                    let n = avail.len();
                    self.inner.consume(n);
                }
            }
        }
        if !any {
            return Ok(None);
        }
        self.line_no = self.line_no.saturating_add(1);
        Ok(Some(LineInfo {
            number: self.line_no,
            overlong,
            length,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<(String, LineInfo)> {
        let mut r = LineReader::new(input, max);
        let mut out = Vec::new();
        let mut s = String::new();
        while let Some(info) = r.next_line(&mut s).unwrap() {
            out.push((s.clone(), info));
        }
        out
    }

    #[test]
    fn bytes_and_the_whole_length_of_an_overlong_line() {
        // A buffer of 3 bytes: the line arrives in pieces.
        let mut r = LineReader::new(
            io::BufReader::with_capacity(3, &b"abcdefgh\r\nxy\xff"[..]),
            4,
        );
        let first = r.next_bytes().unwrap().unwrap();
        assert_eq!((first.number, first.overlong, first.length), (1, true, 8));
        assert_eq!(r.bytes(), b"abcd");
        let second = r.next_bytes().unwrap().unwrap();
        assert_eq!(
            (second.number, second.overlong, second.length),
            (2, false, 3)
        );
        assert_eq!(r.bytes(), b"xy\xff");
        assert_eq!(r.next_bytes().unwrap(), None);
    }

    #[test]
    fn every_line_end_kind_ends_a_line() {
        let got: Vec<String> = all(b"a\nb\r\nc\rd", 100)
            .into_iter()
            .map(|(s, _)| s)
            .collect();
        assert_eq!(got, ["a", "b", "c", "d"]);
    }

    #[test]
    fn empty_lines_are_kept_and_numbered() {
        let got = all(b"\n\r\n\nx\n", 100);
        assert_eq!(got.len(), 4);
        assert_eq!(got[3].0, "x");
        assert_eq!(got[3].1.number, 4);
    }

    #[test]
    fn overlong_lines_are_cut_and_flagged() {
        let got = all(b"abcdef\nxy\n", 3);
        assert_eq!(got[0].0, "abc");
        assert!(got[0].1.overlong);
        assert_eq!(got[1].0, "xy");
        assert!(!got[1].1.overlong);
    }

    #[test]
    fn latin1_bytes_decode() {
        let got = all(b"R\xe9ti\n", 100);
        assert_eq!(got[0].0, "Réti");
    }
}

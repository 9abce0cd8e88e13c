//! A scripted (usually misbehaving) client: plays a small scenario file
//! against a referee over a serial port, to see what the referee makes of
//! bad input. The scenario language, one command a line (`#` starts a
//! comment line, blank lines are skipped):
//!
//! | command | what the client does |
//! |---|---|
//! | `sign-on [NAME]` | sends `<initial position> refreq sign_on; tcsi "scripted" "NAME";` (NAME defaults to `scripted`) |
//! | `send TEXT` | sends TEXT and CR LF |
//! | `send-bytes HEX ...` | sends the bytes written as hex pairs (spaces ignored), nothing added |
//! | `long N` | sends one line of N `x` bytes and CR LF |
//! | `flood N` | sends N junk lines back to back, as fast as the port takes them |
//! | `expect REFCOM` | waits (at most 30 s) for a record with `refcom REFCOM`, skipping others |
//! | `reply SAN [OPS]` | replies to the last `respond`: the right echo, `refreq reply;`, `sm SAN;` then OPS verbatim. SAN `any` is the first legal move; `-` sends no `sm` |
//! | `echo-wrong SAN` | like `reply SAN`, but echoes the initial position (wrong unless it is the position to echo) |
//! | `wait MS` | sleeps MS milliseconds (reading what arrives meanwhile) |
//!
//! After the last command the client keeps reading (so the referee never
//! blocks on a full port) until it gets `refcom disconnect;` or is told to
//! stop.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use argus::epd::{Fields, Record, RefCom};
use argus::game::{Chess, fields_of, parse_san, position_from_fields, san_of};
use serialport::SerialPort;
use shakmaty::Position;

/// How long `expect` waits.
const EXPECT_WITHIN: Duration = Duration::from_secs(30);
/// Longest wait for the port to take more bytes.
const WRITE_WITHIN: Duration = Duration::from_secs(60);
/// The most bytes kept of an unfinished incoming line.
const MAX_PARTIAL: usize = 16 * 1024;

/// One scenario command (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `sign-on [NAME]`.
    SignOn(String),
    /// `send TEXT`.
    Send(String),
    /// `send-bytes HEX`.
    SendBytes(Vec<u8>),
    /// `long N`.
    Long(usize),
    /// `flood N`.
    Flood(usize),
    /// `expect REFCOM`.
    Expect(String),
    /// `reply SAN [OPS]`.
    Reply { san: String, ops: String },
    /// `echo-wrong SAN`.
    EchoWrong(String),
    /// `wait MS`.
    Wait(u64),
}

/// Parses a scenario; the error names the line.
pub fn parse_script(text: &str) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        let at = || format!("line {}: {line:?}", i + 1);
        let number = |s: &str| -> Result<u64, String> {
            s.parse()
                .map_err(|_| format!("{}: {s:?} is not a number", at()))
        };
        let step = match cmd {
            "sign-on" if rest.is_empty() => Step::SignOn("scripted".into()),
            "sign-on" => Step::SignOn(rest.into()),
            "send" => Step::Send(rest.into()),
            "send-bytes" => {
                let hex: String = rest.chars().filter(|c| !c.is_whitespace()).collect();
                if !hex.len().is_multiple_of(2) {
                    return Err(format!("{}: odd number of hex digits", at()));
                }
                let bytes: Result<Vec<u8>, _> = (0..hex.len())
                    .step_by(2)
                    .map(|k| u8::from_str_radix(&hex[k..k + 2], 16))
                    .collect();
                Step::SendBytes(bytes.map_err(|e| format!("{}: {e}", at()))?)
            }
            "long" => Step::Long(number(rest)? as usize),
            "flood" => Step::Flood(number(rest)? as usize),
            "expect" if !rest.is_empty() => Step::Expect(rest.into()),
            "reply" if !rest.is_empty() => {
                let (san, ops) = rest.split_once(' ').unwrap_or((rest, ""));
                Step::Reply {
                    san: san.into(),
                    ops: ops.trim().into(),
                }
            }
            "echo-wrong" if !rest.is_empty() => Step::EchoWrong(rest.into()),
            "wait" => Step::Wait(number(rest)?),
            _ => return Err(format!("{}: unknown command or missing argument", at())),
        };
        steps.push(step);
    }
    Ok(steps)
}

/// Reads and parses the scenario file at `path`.
pub fn load_script(path: &Path) -> Result<Vec<Step>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_script(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// A scripted client on one port.
pub struct Scripted {
    port: Box<dyn SerialPort>,
    partial: Vec<u8>,
    /// Every record received, in order.
    pub received: Vec<Record>,
    /// How many of `received` `expect` has passed over.
    seen: usize,
    /// The position to echo in a reply (the last `respond` with its `sm`
    /// played).
    echo: Option<Chess>,
    disconnected: bool,
}

impl Scripted {
    /// Opens `port` (9600 8N1, short read timeout).
    pub fn open(port: &str) -> Result<Scripted, String> {
        let port = serialport::new(port, 9600)
            .timeout(Duration::from_millis(20))
            .open()
            .map_err(|e| format!("cannot open {port}: {e}"))?;
        Ok(Scripted {
            port,
            partial: Vec::new(),
            received: Vec::new(),
            seen: 0,
            echo: None,
            disconnected: false,
        })
    }

    /// Runs `steps`, sets `done`, then reads until `disconnect` or until
    /// `stop` is set (at most `linger`). The error says which step failed
    /// and why.
    pub fn run(
        &mut self,
        steps: &[Step],
        done: &Arc<AtomicBool>,
        stop: &Arc<AtomicBool>,
        linger: Duration,
    ) -> Result<(), String> {
        for (i, step) in steps.iter().enumerate() {
            self.step(step)
                .map_err(|e| format!("step {} ({step:?}): {e}", i + 1))?;
        }
        done.store(true, Ordering::SeqCst);
        let deadline = Instant::now() + linger;
        while !self.disconnected && !stop.load(Ordering::SeqCst) && Instant::now() < deadline {
            self.pump()?;
        }
        Ok(())
    }

    fn step(&mut self, step: &Step) -> Result<(), String> {
        match step {
            Step::SignOn(name) => {
                let line = format!(
                    "{} refreq sign_on; tcsi \"scripted\" \"{name}\";\r\n",
                    fields_text(&Fields::initial())
                );
                self.write(line.as_bytes())
            }
            Step::Send(text) => self.write(format!("{text}\r\n").as_bytes()),
            Step::SendBytes(bytes) => self.write(bytes),
            Step::Long(n) => {
                let mut line = vec![b'x'; *n];
                line.extend_from_slice(b"\r\n");
                self.write(&line)
            }
            Step::Flood(n) => {
                let mut chunk = Vec::new();
                for k in 0..*n {
                    chunk.extend_from_slice(
                        format!("flood line {k} of {n}: junk junk junk junk junk\r\n").as_bytes(),
                    );
                    if chunk.len() >= 4096 {
                        self.write(&chunk)?;
                        chunk.clear();
                    }
                }
                self.write(&chunk)
            }
            Step::Expect(what) => self.expect(what),
            Step::Reply { san, ops } => {
                let pos = self
                    .echo
                    .clone()
                    .ok_or("no respond to reply to has arrived")?;
                let line = reply_line(&pos, &pos, san, ops)?;
                self.write(line.as_bytes())
            }
            Step::EchoWrong(san) => {
                let pos = self
                    .echo
                    .clone()
                    .ok_or("no respond to reply to has arrived")?;
                let line = reply_line(&Chess::default(), &pos, san, "")?;
                self.write(line.as_bytes())
            }
            Step::Wait(ms) => {
                let until = Instant::now() + Duration::from_millis(*ms);
                while Instant::now() < until {
                    self.pump()?;
                }
                Ok(())
            }
        }
    }

    fn expect(&mut self, what: &str) -> Result<(), String> {
        let deadline = Instant::now() + EXPECT_WITHIN;
        loop {
            while self.seen < self.received.len() {
                let r = &self.received[self.seen];
                self.seen += 1;
                let refcom = r.refcom().ok().flatten().map(RefCom::as_str);
                if refcom == Some(what) {
                    return Ok(());
                }
            }
            if Instant::now() >= deadline {
                let got: Vec<String> = self.received.iter().map(|r| r.to_string()).collect();
                return Err(format!(
                    "no refcom {what} within {EXPECT_WITHIN:?}; received: {got:#?}"
                ));
            }
            self.pump()?;
        }
    }

    /// Writes all of `bytes`, reading meanwhile so neither side blocks.
    fn write(&mut self, bytes: &[u8]) -> Result<(), String> {
        let deadline = Instant::now() + WRITE_WITHIN;
        let mut rest = bytes;
        while !rest.is_empty() {
            match self.port.write(rest) {
                Ok(n) => rest = &rest[n..],
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::TimedOut
                            | std::io::ErrorKind::WouldBlock
                            | std::io::ErrorKind::Interrupted
                    ) =>
                {
                    self.pump()?;
                }
                Err(e) => return Err(format!("write failed: {e}")),
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "the port took no more bytes within {WRITE_WITHIN:?}"
                ));
            }
        }
        Ok(())
    }

    /// Reads what has arrived (waiting at most the port's short timeout)
    /// and files complete records.
    fn pump(&mut self) -> Result<(), String> {
        let mut buf = [0u8; 4096];
        let n = match self.port.read(&mut buf) {
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::TimedOut
                        | std::io::ErrorKind::WouldBlock
                        | std::io::ErrorKind::Interrupted
                ) =>
            {
                0
            }
            Err(e) => return Err(format!("read failed: {e}")),
        };
        for &b in &buf[..n] {
            if matches!(b, b'\r' | b'\n' | 0) {
                let line = std::mem::take(&mut self.partial);
                self.file_line(&line);
            } else if self.partial.len() < MAX_PARTIAL {
                self.partial.push(b);
            }
        }
        Ok(())
    }

    fn file_line(&mut self, line: &[u8]) {
        if line.is_empty() {
            return;
        }
        let Ok(rec) = Record::parse_bytes(line) else {
            return;
        };
        match rec.refcom().ok().flatten() {
            Some(RefCom::Respond) => self.echo = echo_of(&rec),
            Some(RefCom::Disconnect) => self.disconnected = true,
            _ => {}
        }
        self.received.push(rec);
    }
}

/// The position a client must echo to `respond`: its position with its
/// `sm` (if any) played.
fn echo_of(rec: &Record) -> Option<Chess> {
    let hmvc = rec.hmvc().ok().flatten();
    let fmvn = rec.fmvn().ok().flatten();
    let mut pos = position_from_fields(&rec.fields, hmvc, fmvn).ok()?;
    if let Ok(Some(sm)) = rec.sm() {
        let m = parse_san(&pos, sm).ok()?;
        pos.play_unchecked(m);
    }
    Some(pos)
}

/// A reply line echoing `shown`, moving `san` (resolved in `actual`).
fn reply_line(shown: &Chess, actual: &Chess, san: &str, ops: &str) -> Result<String, String> {
    let sm = match san {
        "-" => String::new(),
        "any" => {
            let moves = actual.legal_moves();
            let m = moves.first().ok_or("no legal move to play")?;
            format!(" sm {};", san_of(actual, m))
        }
        other => format!(" sm {other};"),
    };
    let ops = if ops.is_empty() {
        String::new()
    } else {
        format!(" {ops}")
    };
    Ok(format!(
        "{} refreq reply;{sm}{ops}\r\n",
        fields_text(&fields_of(shown))
    ))
}

/// The four fields as they go on the wire.
fn fields_text(f: &Fields) -> String {
    format!("{} {} {} {}", f.placement, f.side, f.castling, f.en_passant)
}

//! `Link` over real pseudo-terminals joined by socat (virtual null-modem
//! cables). Skipped, with a message, where socat is not installed.

#![cfg(unix)]

use std::time::{Duration, Instant};

use crate::common::{Cable, next_event, nothing_more, open_peer, read_bytes, wait_for, write_all};
use argus::link::{
    FIRST_OPEN_BUSY_FOR, LineEnd, Link, LinkEvent, LinkEventKind, MAX_LINE, MAX_QUEUED,
    OpenErrorKind, PortSettings, SendError, Stamp, open_port,
};
use crossbeam_channel::Receiver;

/// Upper bound for anything to happen (generous: CI machines are slow).
const WITHIN: Duration = Duration::from_secs(10);

fn open_link(
    label: &'static str,
    path: &str,
    line_end: LineEnd,
) -> (
    Link<&'static str>,
    Receiver<LinkEvent<&'static str>>,
    Instant,
) {
    let (tx, rx) = crossbeam_channel::unbounded();
    let epoch = Instant::now();
    let settings = PortSettings {
        line_end,
        ..PortSettings::default()
    };
    let link = Link::open(label, path, settings, epoch, tx)
        .unwrap_or_else(|e| panic!("cannot open link {label}: {e}"));
    (link, rx, epoch)
}

/// The next event must be a line; returns (text, raw).
fn expect_line(rx: &Receiver<LinkEvent<&'static str>>) -> (String, Vec<u8>) {
    let ev = next_event(rx, WITHIN, "a line");
    match ev.kind {
        LinkEventKind::Line { text, raw, .. } => (text, raw),
        other => panic!("expected a line, got {other:?}"),
    }
}

#[test]
fn records_go_out_with_each_line_end() {
    skip_unless_socat!();
    for (end, bytes) in [
        (LineEnd::CrLf, &b"\r\n"[..]),
        (LineEnd::Lf, b"\n"),
        (LineEnd::Cr, b"\r"),
    ] {
        // A cable per line end, not one port opened three times: the
        // serialport crate flocks the port, and a process another test
        // spawns at that moment holds a copy of the descriptor (and so the
        // lock) until its exec, which CI once hit as "Unable to acquire
        // exclusive lock". This test is about the bytes, not reopening.
        let cable = Cable::new();
        let mut peer = open_peer(&cable.b);
        let (link, rx, _) = open_link("A", cable.a_str(), end);
        let record = "refcom respond; cc \"000:00:00:00\";";
        link.send(9, record.to_string()).unwrap();
        let mut want = record.as_bytes().to_vec();
        want.extend_from_slice(bytes);
        assert_eq!(read_bytes(peer.as_mut(), want.len(), WITHIN), want);
        let ev = wait_for(&rx, WITHIN, "Sent", |k| {
            matches!(k, LinkEventKind::Sent { .. })
        });
        assert_eq!(ev.id, "A");
        match ev.kind {
            LinkEventKind::Sent {
                seq, text, wire, ..
            } => {
                assert_eq!(seq, 9);
                assert_eq!(text, record);
                assert_eq!(wire, want, "the bytes written, exactly");
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn lines_arrive_with_every_line_end() {
    skip_unless_socat!();
    let cable = Cable::new();
    let (_link, rx, _) = open_link("A", cable.a_str(), LineEnd::CrLf);
    let mut peer = open_peer(&cable.b);
    write_all(peer.as_mut(), b"one\ntwo\rthree\r\nfour\0\r\n\nfive\n");
    assert_eq!(expect_line(&rx), ("one".into(), b"one\n".to_vec()));
    assert_eq!(expect_line(&rx), ("two".into(), b"two\r".to_vec()));
    assert_eq!(expect_line(&rx), ("three".into(), b"three\r\n".to_vec()));
    assert_eq!(expect_line(&rx), ("four".into(), b"four\0".to_vec()));
    // The empty lines after "four" were read before "five": had they been
    // reported, they would come first.
    assert_eq!(
        expect_line(&rx).0,
        "five",
        "empty lines must not be reported"
    );
    assert!(nothing_more(&rx), "empty lines must not be reported");
}

#[test]
fn two_links_talk_both_ways() {
    skip_unless_socat!();
    let cable = Cable::new();
    let (a, rx_a, _) = open_link("A", cable.a_str(), LineEnd::CrLf);
    let (b, rx_b, _) = open_link("B", cable.b_str(), LineEnd::Lf);
    a.send(1, "refcom reset;".into()).unwrap();
    b.send(1, "refreq sign_on;".into()).unwrap();
    let got_b = wait_for(&rx_b, WITHIN, "line at B", |k| {
        matches!(k, LinkEventKind::Line { .. })
    });
    assert_eq!(got_b.id, "B");
    assert!(
        matches!(got_b.kind, LinkEventKind::Line { ref text, ref raw, .. }
        if text == "refcom reset;" && raw == b"refcom reset;\r\n")
    );
    let got_a = wait_for(&rx_a, WITHIN, "line at A", |k| {
        matches!(k, LinkEventKind::Line { .. })
    });
    assert!(
        matches!(got_a.kind, LinkEventKind::Line { ref text, ref raw, .. }
        if text == "refreq sign_on;" && raw == b"refreq sign_on;\n")
    );
}

#[test]
fn part_of_a_line_is_reported_as_receiving_before_the_line() {
    skip_unless_socat!();
    let cable = Cable::new();
    let (_link, rx, _) = open_link("A", cable.a_str(), LineEnd::CrLf);
    let mut peer = open_peer(&cable.b);
    write_all(
        peer.as_mut(),
        b"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 ",
    );
    // No line end yet: the first event says bytes are arriving.
    let ev = rx
        .recv_timeout(WITHIN)
        .expect("an event for the partial line");
    assert!(
        matches!(ev.kind, LinkEventKind::Receiving { .. }),
        "expected Receiving, got {ev:?}"
    );
    write_all(peer.as_mut(), b"refreq reply; sm e5;\r\n");
    let (text, _) = expect_line(&rx);
    assert!(text.ends_with("sm e5;"), "{text}");
}

#[test]
fn crlf_split_across_writes_is_one_line_end() {
    skip_unless_socat!();
    let cable = Cable::new();
    let (_link, rx, _) = open_link("A", cable.a_str(), LineEnd::CrLf);
    let mut peer = open_peer(&cable.b);
    write_all(peer.as_mut(), b"abc\r");
    // The line is reported at its CR, before the LF has even been written.
    assert_eq!(expect_line(&rx).0, "abc");
    write_all(peer.as_mut(), b"\ndef\r\n");
    assert_eq!(expect_line(&rx), ("def".into(), b"def\r\n".to_vec()));
    assert!(nothing_more(&rx));
}

#[test]
fn bad_lines_are_dropped_and_the_next_line_survives() {
    skip_unless_socat!();
    let cable = Cable::new();
    let (_link, rx, _) = open_link("A", cable.a_str(), LineEnd::CrLf);
    let mut peer = open_peer(&cable.b);
    let mut input = vec![b'x'; 5000];
    input.extend_from_slice(b"\r\nok1\r\ncaf\xe9 au lait\r\nok2\r\n");
    write_all(peer.as_mut(), &input);

    match next_event(&rx, WITHIN, "the over-long drop").kind {
        LinkEventKind::Dropped {
            reason, raw, len, ..
        } => {
            assert_eq!(len, 5000);
            assert_eq!(raw.len(), MAX_LINE);
            assert!(reason.contains("5000 bytes"), "{reason}");
        }
        other => panic!("expected a drop, got {other:?}"),
    }
    assert_eq!(expect_line(&rx).0, "ok1");
    match next_event(&rx, WITHIN, "the non-ASCII drop").kind {
        LinkEventKind::Dropped { reason, raw, .. } => {
            assert!(reason.contains("0xE9 at column 4"), "{reason}");
            assert_eq!(raw, b"caf\xe9 au lait");
        }
        other => panic!("expected a drop, got {other:?}"),
    }
    assert_eq!(expect_line(&rx).0, "ok2");
}

#[test]
fn stamps_are_monotonic_and_lines_in_order() {
    skip_unless_socat!();
    let cable = Cable::new();
    let (_link, rx, epoch) = open_link("A", cable.a_str(), LineEnd::CrLf);
    let mut peer = open_peer(&cable.b);
    let before = Stamp::since(epoch);
    for batch in 0..5 {
        let mut bytes = Vec::new();
        for i in 0..10 {
            bytes.extend_from_slice(format!("line {batch}-{i}\r\n").as_bytes());
        }
        write_all(peer.as_mut(), &bytes);
    }
    let mut last = before.us;
    for batch in 0..5 {
        for i in 0..10 {
            match next_event(&rx, WITHIN, "a line").kind {
                LinkEventKind::Line {
                    text, at_ms, at_us, ..
                } => {
                    assert_eq!(text, format!("line {batch}-{i}"));
                    assert!(at_us >= last, "stamp went back: {at_us} < {last}");
                    assert_eq!(at_ms, at_us / 1000);
                    last = at_us;
                }
                other => panic!("expected a line, got {other:?}"),
            }
        }
    }
}

#[test]
fn sent_is_reported_in_order_after_the_write() {
    skip_unless_socat!();
    let cable = Cable::new();
    let (link, rx, epoch) = open_link("A", cable.a_str(), LineEnd::CrLf);
    let mut peer = open_peer(&cable.b);
    let records: Vec<String> = (0..5)
        .map(|i| format!("refcom respond; sm e4; id \"{i}\"; {}", "c".repeat(150)))
        .collect();
    let mut last = Stamp::since(epoch).us;
    for (seq, r) in (100..).zip(&records) {
        link.send(seq, r.clone()).unwrap();
    }
    let mut total = 0;
    for (want_seq, r) in (100..).zip(&records) {
        match next_event(&rx, WITHIN, "Sent").kind {
            LinkEventKind::Sent {
                seq,
                text,
                wire,
                at_us,
                ..
            } => {
                assert_eq!(seq, want_seq, "Sent in order, with its number");
                assert_eq!(&text, r);
                assert_eq!(wire.len(), r.len() + 2);
                assert!(at_us >= last, "Sent stamps go back");
                last = at_us;
                total += wire.len();
            }
            other => panic!("expected Sent, got {other:?}"),
        }
    }
    let got = read_bytes(peer.as_mut(), total, WITHIN);
    let want: Vec<u8> = records
        .iter()
        .flat_map(|r| r.bytes().chain(*b"\r\n"))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn send_refuses_line_ends_and_over_long_records() {
    skip_unless_socat!();
    let cable = Cable::new();
    let (link, _rx, _) = open_link("A", cable.a_str(), LineEnd::CrLf);
    assert!(link.send(1, "two\nlines".into()).is_err());
    assert!(link.send(2, "x".repeat(MAX_LINE + 1)).is_err());
}

#[test]
fn lost_when_the_cable_is_pulled_and_back_when_it_is_remade() {
    skip_unless_socat!();
    let mut cable = Cable::new();
    let (link, rx, _) = open_link("A", cable.a_str(), LineEnd::CrLf);
    cable.kill();
    let lost = wait_for(&rx, WITHIN, "Lost", |k| {
        matches!(k, LinkEventKind::Lost { .. })
    });
    assert_eq!(lost.id, "A");
    // A record sent while the link is down waits in the queue.
    link.send(1, "refcom inform;".into()).unwrap();

    cable.remake();
    let mut peer = open_peer(&cable.b);
    let back = next_event(&rx, WITHIN, "Back");
    assert!(
        matches!(back.kind, LinkEventKind::Back { .. }),
        "expected Back right after Lost, got {back:?}"
    );
    let want = b"refcom inform;\r\n";
    assert_eq!(read_bytes(peer.as_mut(), want.len(), WITHIN), want);
    assert!(matches!(
        next_event(&rx, WITHIN, "Sent").kind,
        LinkEventKind::Sent { ref text, .. } if text == "refcom inform;"
    ));
    write_all(peer.as_mut(), b"refreq sign_on;\r\n");
    assert_eq!(expect_line(&rx).0, "refreq sign_on;");
}

#[test]
fn closing_a_lost_link_reports_what_was_still_queued() {
    skip_unless_socat!();
    let mut cable = Cable::new();
    let (link, rx, _) = open_link("A", cable.a_str(), LineEnd::CrLf);
    cable.kill();
    wait_for(&rx, WITHIN, "Lost", |k| {
        matches!(k, LinkEventKind::Lost { .. })
    });
    for i in 0..MAX_QUEUED {
        link.send(i as u64, format!("record {i}")).unwrap();
    }
    assert_eq!(
        link.send(999, "one too many".into()),
        Err(SendError::QueueFull)
    );
    // Closing does not wait for the port to come back.
    link.close();
    for i in 0..MAX_QUEUED {
        match next_event(&rx, WITHIN, "SendFailed").kind {
            LinkEventKind::SendFailed { seq, text, reason } => {
                assert_eq!(seq, i as u64);
                assert_eq!(text, format!("record {i}"));
                assert!(reason.contains("closed"), "{reason}");
            }
            other => panic!("expected SendFailed, got {other:?}"),
        }
    }
    assert!(nothing_more(&rx));
}

#[test]
fn a_port_is_opened_exclusively() {
    skip_unless_socat!();
    let cable = Cable::new();
    let (link, _rx, _) = open_link("A", cable.a_str(), LineEnd::CrLf);
    let (tx, _rx2) = crossbeam_channel::unbounded();
    let second = Link::open(
        "again",
        cable.a_str(),
        PortSettings::default(),
        Instant::now(),
        tx,
    );
    let e = second.expect_err("a second open of the same port succeeded");
    assert_eq!(e.kind, OpenErrorKind::Busy, "{e}");
    assert!(e.to_string().contains(cable.a_str()), "{e}");
    assert!(e.to_string().contains("in use"), "{e}");
    assert!(open_port(cable.a_str(), &PortSettings::default()).is_err());
    // Closing the link frees the port.
    link.close();
    assert!(open_port(cable.a_str(), &PortSettings::default()).is_ok());
}

/// An exclusive `flock` on the port at `path`, as the serialport crate
/// takes it, held until the file is dropped.
fn hold_lock(path: &str) -> std::fs::File {
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::io::AsRawFd;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOCTTY)
        .open(path)
        .unwrap_or_else(|e| panic!("cannot open {path}: {e}"));
    // SAFETY: flock on a descriptor this function owns.
    let r = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    assert_eq!(
        r,
        0,
        "cannot lock {path}: {}",
        std::io::Error::last_os_error()
    );
    f
}

/// Since serialport 4.8 a port is `flock`ed, and a process argus forks at
/// that moment (an engine instance) holds the lock until its exec: a
/// port's first open waits out a lock held for a moment, and one held
/// for good is refused after the tries, naming the port. (Seen failing
/// with the retry taken out, `first_open_retry` always `None`: "cannot
/// open link A: cannot open serial port ...: it is in use".)
#[test]
fn a_first_open_waits_out_a_lock_held_for_a_moment_and_names_a_port_that_stays_busy() {
    skip_unless_socat!();
    let cable = Cable::new();
    let held = hold_lock(cable.a_str());
    assert!(
        open_port(cable.a_str(), &PortSettings::default()).is_err(),
        "the lock makes the port busy"
    );
    let release = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(400));
        drop(held);
    });
    let (link, _rx, _) = open_link("A", cable.a_str(), LineEnd::CrLf);
    release.join().unwrap();
    link.close();

    let held = hold_lock(cable.a_str());
    let (tx, _rx) = crossbeam_channel::unbounded();
    let started = Instant::now();
    let e = Link::open(
        "again",
        cable.a_str(),
        PortSettings::default(),
        Instant::now(),
        tx,
    )
    .expect_err("a port locked for good was opened");
    assert!(
        started.elapsed() >= FIRST_OPEN_BUSY_FOR,
        "it was tried again"
    );
    assert_eq!(e.kind, OpenErrorKind::Busy, "{e}");
    let said = e.to_string();
    assert!(
        said.contains(cable.a_str()) && said.contains("in use") && said.contains("s of tries"),
        "{said}"
    );
    drop(held);
}

//! `argus cbf` end to end, as a user runs it: a PGN corpus (the PGN
//! standard's example, annotated games with nested variations, comments and
//! NAGs, a game from a FEN, seeded random games with variations) written to
//! a ChessBase base with `from-pgn`, read back with `to-pgn`, and compared
//! tree by tree; bad games reported with their numbers by all three verbs.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use argus::game::san_of;
use argus::record::pgn_read::{PgnText, read_pgn_games};
use argus::record::pgn_tree::{PgnLine, PgnNode, TreeGame, write_tree};
use shakmaty::{Chess, Position};

/// The PGN standard's example game (section 2.3), its comment kept.
const STANDARD: &str = r#"[Event "F/S Return Match"]
[Site "Belgrade, Serbia JUG"]
[Date "1992.11.04"]
[Round "29"]
[White "Fischer, Robert J."]
[Black "Spassky, Boris V."]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 {This opening is called the Ruy Lopez.} 3... a6
4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7
11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5
Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6
23. Ne5 Rae8 24. Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5
hxg5 29. b3 Ke6 30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5
35. Ra7 g6 36. Ra6+ Kc5 37. Ke1 Nf4 38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6
Nf2 42. g4 Bd3 43. Re6 1/2-1/2

"#;

/// Nested variations, every kind of NAG, castling both ways, en passant
/// and promotions (in a variation too), a game from a FEN.
const ANNOTATED: &str = r#"[Event "Hastings"]
[Date "1895.08.05"]
[White "Pillsbury, H"]
[Black "Tarrasch, S"]
[Result "0-1"]
[WhiteElo "2600"]
[BlackElo "2605"]
[ECO "D63"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. Nf3 Nbd7 6. Rc1 O-O 7. e3 b6 $6
{Loses time} (7... c5 $1 $14 {Better} 8. dxc5 (8. Qa4 a6 (8... Qc7 $146) 9. Qb3)
8... Nxc5) 8. cxd5 exd5 9. Qa4 c5 10. Qc6 Rb8 0-1

[Event "Promotions"]
[White "A"]
[Black "B"]
[Result "1-0"]
[SetUp "1"]
[FEN "4k3/1P6/8/3pP3/8/8/6p1/R3K2R w KQ d6 0 50"]

50. exd6 $1 (50. b8=N {under} g1=Q+ 51. Rxg1) (50. O-O-O g1=Q 51. Rhxg1) 50... g1=R+
51. Rxg1 Kd7 52. b8=Q 1-0

"#;

fn argus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_argus"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("argus runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `count` seeded random games of up to 80 plies, each with a few
/// variations (an other legal move and two more) and comments.
fn random_games(seed: u64, count: usize) -> String {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = String::new();
    for g in 0..count {
        let mut pos = Chess::default();
        let mut line = PgnLine::default();
        for ply in 0..rng.usize(1..80) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.usize(..moves.len())];
            let mut node = PgnNode {
                san: san_of(&pos, &mv),
                ..PgnNode::default()
            };
            if rng.u8(..8) == 0 {
                node.comments.push(format!("ply {ply} of game {g}"));
                node.nags.push(rng.u8(1..7));
            }
            if moves.len() > 1 && rng.u8(..6) == 0 {
                let other = moves.iter().find(|m| **m != mv).copied();
                let mut p = pos.clone();
                let mut var = PgnLine::default();
                for i in 0..3 {
                    let Some(m) = (if i == 0 {
                        other
                    } else {
                        p.legal_moves().first().copied()
                    }) else {
                        break;
                    };
                    var.moves.push(PgnNode {
                        san: san_of(&p, &m),
                        ..PgnNode::default()
                    });
                    p.play_unchecked(m);
                }
                node.variations.push(var);
            }
            line.moves.push(node);
            pos.play_unchecked(mv);
        }
        out.push_str(&write_tree(&TreeGame {
            tags: vec![
                ("Event".into(), format!("random {seed}")),
                ("White".into(), format!("W{g}")),
                ("Black".into(), format!("B{g}")),
            ],
            first_move_number: 1,
            black_first: false,
            moves: line,
            result: "*".into(),
        }));
    }
    out
}

/// What a CBF record keeps of a game: tags with a field, the year, the
/// result and the movetext tree.
fn kept(g: &PgnText) -> (Vec<(String, String)>, Option<String>, PgnLine) {
    let tags = [
        "Event", "White", "Black", "WhiteElo", "BlackElo", "ECO", "FEN",
    ]
    .iter()
    .filter_map(|n| g.tag(n).map(|v| (n.to_string(), v.to_string())))
    .collect();
    let year = g
        .tag("Date")
        .map(|d| d[..4].to_string())
        .filter(|y| y.parse::<i32>().is_ok());
    (tags, year, g.tree.without_lines())
}

#[test]
fn pgn_to_cbf_and_back_keeps_moves_variations_comments_and_tags() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("corpus.pgn");
    let corpus = format!("{STANDARD}{ANNOTATED}{}", random_games(7, 30));
    std::fs::write(&input, &corpus).unwrap();
    let base = dir.path().join("CORPUS");
    let out = argus(&["cbf", "from-pgn", path(&input), path(&base)]);
    let report = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(
        report.contains(
            "game 1 (line 1): tags not kept (the format has no place for them): Site, Round, Date (month and day)"
        ),
        "{report}"
    );
    assert!(report.contains("33 games, 0 bad, 33 written"), "{report}");
    // The summary agrees with the list: as many games with tags not kept
    // as it says, and none that lost a part.
    let listed = report.matches("tags not kept").count();
    assert!(listed > 0, "{report}");
    assert!(
        report.ends_with(&format!(
            "; 0 lost a part the format cannot hold, {listed} had tags it has no place for\n"
        )),
        "{report}"
    );

    let back = dir.path().join("back.pgn");
    let cbi = dir.path().join("CORPUS.cbi");
    let out = argus(&["cbf", "to-pgn", path(&cbi), path(&back)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "33 games, 0 bad\n");

    let before = read_pgn_games(&corpus).unwrap();
    let after = read_pgn_games(&std::fs::read_to_string(&back).unwrap()).unwrap();
    assert_eq!(after.len(), before.len());
    let with_variations = before[3..]
        .iter()
        .filter(|g| g.tree.moves.iter().any(|n| !n.variations.is_empty()))
        .count();
    assert!(with_variations > 10, "{with_variations}");
    for (i, (a, b)) in before.iter().zip(&after).enumerate() {
        assert_eq!(kept(a), kept(b), "game {}", i + 1);
        assert_eq!(a.result, b.result, "game {}", i + 1);
        assert_eq!(a.sans, b.sans, "game {}", i + 1);
    }
    // The variations survived, nested.
    let hastings = &after[1].tree.moves[13];
    assert_eq!(hastings.nags, [6]);
    assert_eq!(hastings.comments, ["Loses time"]);
    let c5 = &hastings.variations[0].moves[0];
    assert_eq!((c5.san.as_str(), c5.nags.as_slice()), ("c5", &[1, 14][..]));
    let qa4 = &hastings.variations[0].moves[1].variations[0];
    assert_eq!(qa4.moves[1].variations[0].moves[0].nags, [146]);

    let out = argus(&["cbf", "check", path(&base)]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "33 games, 0 bad\n");
}

#[test]
fn bad_games_are_reported_by_number_and_the_others_kept() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pgn");
    let mut long = String::from("[White \"Long\"]\n\n");
    for _ in 0..70 {
        long.push_str("Nf3 Nf6 Ng1 Ng8 ");
    }
    long.push_str("*\n\n");
    let pgn = format!(
        "{STANDARD}[White \"Bad\"]\n\n1. e4 e5 2. Ke3 *\n\n{long}[White \"Mid\"]\n\n1. c4 *\n\n\
         [White \"Last\"]\n\n1. d4 *\n"
    );
    std::fs::write(&input, pgn).unwrap();
    let base = dir.path().join("b");
    let out = argus(&["cbf", "from-pgn", path(&input), path(&base)]);
    let report = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let name = input.display();
    for want in [
        format!("{name}: game 2 (line 18): left out: line 20: move \"Ke3\""),
        format!("{name}: game 3 (line 22): the main line cut after 250 of 280 half-moves"),
        "5 games, 1 bad, 4 written".to_string(),
    ] {
        assert!(report.contains(&want), "{want} in {report}");
    }
    assert!(!report.contains("game 4"), "{report}");
    assert!(!report.contains("game 5"), "{report}");

    // Damage the base (games 1 Fischer, 2 Long, 3 Mid, 4 Last): game 2's
    // index entry points past the CBF, game 4's record loses its last bytes.
    let cbi_path = dir.path().join("b.cbi");
    let cbf_path = dir.path().join("b.cbf");
    let mut cbi = std::fs::read(&cbi_path).unwrap();
    cbi[8..12].copy_from_slice(&1_000_000u32.to_be_bytes());
    std::fs::write(&cbi_path, &cbi).unwrap();
    let cbf = std::fs::read(&cbf_path).unwrap();
    std::fs::write(&cbf_path, &cbf[..cbf.len() - 2]).unwrap();

    let out = argus(&["cbf", "check", path(&cbi_path)]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let cbi_name = cbi_path.display();
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 4, "{report}");
    let end = cbf.len();
    assert_eq!(
        lines[0],
        format!(
            "{cbi_name}: CBI byte 20: the index ends the games at byte {end}, the CBF has {} bytes",
            end - 2
        )
    );
    assert!(
        lines[1].starts_with(&format!(
            "{cbi_name}: game 2: CBI byte 8: the index points outside the CBF"
        )),
        "{report}"
    );
    assert!(
        lines[2].starts_with(&format!("{cbi_name}: game 4: CBF byte ")),
        "{report}"
    );
    assert_eq!(lines[3], "4 games, 2 bad");

    let back = dir.path().join("back.pgn");
    let out = argus(&["cbf", "to-pgn", path(&base), path(&back)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let games = read_pgn_games(&std::fs::read_to_string(&back).unwrap()).unwrap();
    let whites: Vec<_> = games.iter().map(|g| g.tag("White").unwrap()).collect();
    assert_eq!(whites, ["Fischer, Robert J.", "Mid"]);

    // Not a base at all, or no base: status 2, and no output written.
    let out = argus(&["cbf", "check", path(&dir.path().join("none"))]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("none.cbi"),
        "{}",
        text(&out.stderr)
    );
    for ext in ["cbi", "cbf"] {
        std::fs::copy(&input, dir.path().join(format!("junk.{ext}"))).unwrap();
    }
    let not = dir.path().join("not.pgn");
    let out = argus(&["cbf", "to-pgn", path(&dir.path().join("junk")), path(&not)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not a ChessBase base"),
        "{}",
        text(&out.stderr)
    );
    assert!(!not.exists());
}

/// `-` is standard input for from-pgn; to-pgn writes to standard output
/// without OUT (or with `-`), the report staying on standard error.
#[test]
fn standard_input_and_output() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("piped");
    let mut child = Command::new(env!("CARGO_BIN_EXE_argus"))
        .args(["cbf", "from-pgn", "-", path(&base)])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(STANDARD.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for args in [
        vec!["cbf", "to-pgn", path(&base)],
        vec!["cbf", "to-pgn", path(&base), "-"],
    ] {
        let out = argus(&args);
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(text(&out.stderr), "1 games, 0 bad\n");
        let games = read_pgn_games(&text(&out.stdout)).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tag("White"), Some("Fischer, Robert J."));
        assert_eq!(games[0].sans.len(), 85);
    }
}

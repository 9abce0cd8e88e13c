//! The words for each kind of event, checked sentence by sentence.

use std::sync::Arc;

use super::*;
use crate::game::{DrawClaim, SanErrorKind};
use crate::referee::adjudication::Adjudged;
use crate::referee::client::ClientId;
use crate::referee::event::{
    Ending, EventKind, GameOver, Offence, PauseReason, Problem, Rejection,
};
use crate::referee::messages::{Command, GameResult, Termination};

fn over(ending: Ending) -> Event {
    Event::GameOver(GameOver {
        game_number: 4,
        result: GameResult::Win(Color::White),
        termination: Termination::Normal,
        ending,
        moves_played: 1,
        pgn: Arc::default(),
    })
}

#[test]
fn a_game_over_reads_as_the_docs_show_it() {
    let e = over(Ending::Resigned {
        color: Color::Black,
    });
    assert_eq!(sentence(&e), "game 4: 1-0 (Black resigns)");
    // A board's game end is not its headline: the event it is part of
    // says it (tournament::words), in these words.
    assert_eq!(headline(&e), None);
    assert_eq!(watch_line(&e), Some(sentence(&e)));
    let offence = Offence {
        problem: Problem::BadMove {
            kind: SanErrorKind::Illegal,
            text: "O-O".into(),
            why: "Black cannot castle kingside here".into(),
        },
        asked_again: 0,
    };
    let forfeit = Ending::Forfeit {
        color: Color::Black,
        offence,
    };
    assert_eq!(
        forfeit.to_string(),
        "Black forfeits: illegal move \"O-O\": Black cannot castle kingside here"
    );
    let claim = Ending::DrawClaimed {
        by: Color::Black,
        claim: DrawClaim::ThreefoldRepetition,
    };
    assert_eq!(
        claim.to_string(),
        "Draw by 3-fold repetition: claimed by Black"
    );
}

#[test]
fn games_and_moves_read_as_watch_prints_them() {
    let started = Event::GameStarted {
        game: 1,
        games: 2,
        white: "alpha".into(),
        black: "beta".into(),
    };
    assert_eq!(
        sentence(&started),
        "game 1 of 2: alpha (White) vs beta (Black)"
    );
    assert_eq!(
        watch_line(&started).as_deref(),
        Some("game 1: alpha (White) vs beta (Black)")
    );
    let moved = |color, number| Event::MoveMade {
        game: 1,
        ply: 3,
        number,
        color,
        san: "Kc7+".into(),
        charged_ms: None,
    };
    assert_eq!(
        watch_line(&moved(Color::White, 12)).as_deref(),
        Some("game 1: 12. Kc7+")
    );
    assert_eq!(
        watch_line(&moved(Color::Black, 1)).as_deref(),
        Some("game 1: 1... Kc7+")
    );
    assert!(
        !moved(Color::White, 1).logged(),
        "moves stay out of the log"
    );
    assert_eq!(headline(&moved(Color::White, 1)), None);
}

#[test]
fn client_strings_lose_their_control_characters() {
    let e = Event::SignedOn {
        client: ClientId::B,
        name: "Evil\x1b[2J\x07Bot".into(),
        again: true,
        line_check: true,
    };
    assert_eq!(
        sentence(&e),
        "B: Evil[2JBot signed on again, its lines checked (Acrc)"
    );
    let lost = Event::LinkLost {
        client: ClientId::A,
        reason: "gone\r\n\x1b]0;pwned\x07".into(),
    };
    assert_eq!(lost.kind(), EventKind::Link);
    assert_eq!(
        headline(&lost).as_deref(),
        Some("A: link lost: gone]0;pwned")
    );
    // A long refused line is quoted cut, with its length.
    let e = Event::Rejected {
        client: ClientId::A,
        why: Rejection::NoRefreq,
        line: "x".repeat(100),
    };
    let s = sentence(&e);
    assert!(
        s.ends_with(&format!("{}...\" (100 bytes)", "x".repeat(80))),
        "{s}"
    );
}

#[test]
fn offences_say_how_often_the_client_was_asked_again() {
    let offence = Offence {
        problem: Problem::NoMove,
        asked_again: 2,
    };
    let e = Event::Forfeit {
        client: ClientId::A,
        offence: offence.clone(),
    };
    assert_eq!(
        sentence(&e),
        "A: reply without a move (sm) while a legal move exists (asked again 2 times)"
    );
    assert_eq!(
        Ending::Forfeit {
            color: Color::White,
            offence: offence.clone()
        }
        .to_string(),
        "White forfeits: reply without a move (sm) while a legal move exists \
         (asked again 2 times)"
    );
    let pause = PauseReason::Offence {
        client: ClientId::A,
        offence,
    };
    assert!(pause.to_string().starts_with("A: reply without a move"));
}

#[test]
fn events_serialise_as_tagged_json_without_the_pgn() {
    let e = over(Ending::Checkmate {
        loser: Color::Black,
    });
    let json = serde_json::to_value(&e).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "event": "game_over",
            "game_number": 4,
            "result": "1-0",
            "termination": "normal",
            "ending": { "ending": "checkmate", "loser": "black" },
            "moves_played": 1,
        })
    );
    let cmd = Event::Supervisor {
        command: Command::RestartClient(ClientId::B),
    };
    assert_eq!(
        serde_json::to_value(&cmd).unwrap(),
        serde_json::json!({
            "event": "supervisor",
            "command": { "command": "restart_client", "arg": "B" },
        })
    );
    // An adjudication says which rule and what it found.
    let rule = over(Ending::Rule(Adjudged::Resign {
        winner: Color::White,
        score: 400,
        moves: 3,
        two_sided: true,
    }));
    assert_eq!(
        serde_json::to_value(&rule).unwrap()["ending"],
        serde_json::json!({
            "ending": "rule",
            "rule": "resign",
            "winner": "white",
            "score": 400,
            "moves": 3,
            "two_sided": true,
        })
    );
    // Client strings are data, kept as they came.
    let dropped = Event::LineDropped {
        client: ClientId::A,
        reason: "<b>".into(),
    };
    assert_eq!(
        serde_json::to_value(&dropped).unwrap(),
        serde_json::json!({ "event": "line_dropped", "client": "A", "reason": "<b>" })
    );
}

/// Every ending in cutechess-cli's words (fastchess's for the tables), as
/// the PGN's closing comment and the result lines say it.
#[test]
fn each_ending_reads_as_cutechess_cli_says_it() {
    use crate::referee::messages::Verdict;
    use crate::referee::tablebase::TablebaseOutcome;
    let white = Color::White;
    let black = Color::Black;
    let cases: Vec<(Ending, &str)> = vec![
        (Ending::Checkmate { loser: black }, "White mates"),
        (Ending::Checkmate { loser: white }, "Black mates"),
        (Ending::Stalemate, "Draw by stalemate"),
        (Ending::DeadPosition, "Draw by insufficient mating material"),
        (Ending::SeventyFiveMoves, "Draw by 75-move rule"),
        (Ending::FivefoldRepetition, "Draw by 5-fold repetition"),
        (Ending::Resigned { color: black }, "Black resigns"),
        (
            Ending::DrawAgreed { accepted_by: white },
            "Draw by agreement: White accepted the offer",
        ),
        (
            Ending::DrawClaimed {
                by: white,
                claim: DrawClaim::FiftyMoves,
            },
            "Draw by fifty moves rule: claimed by White",
        ),
        (
            Ending::DrawClaimed {
                by: black,
                claim: DrawClaim::InsufficientMaterial,
            },
            "Draw by insufficient mating material: claimed by Black",
        ),
        (
            Ending::FalseClaim { by: white },
            "White makes a false draw claim",
        ),
        (
            Ending::Flag {
                color: black,
                drawn: false,
            },
            "Black loses on time",
        ),
        (
            Ending::Flag {
                color: white,
                drawn: true,
            },
            "Draw by timeout: White's flag fell, but Black has no mating material",
        ),
        (
            Ending::Verdict {
                verdict: Verdict::BlackWins,
            },
            "Black wins by adjudication: the supervisor's verdict",
        ),
        (
            Ending::Verdict {
                verdict: Verdict::Draw,
            },
            "Draw by adjudication: the supervisor's verdict",
        ),
        (
            Ending::Rule(Adjudged::MaxMoves { moves: 80 }),
            "Draw by adjudication: 80 moves played (--max-moves)",
        ),
        (
            Ending::Tablebase {
                material: "KPvK".into(),
                outcome: TablebaseOutcome::Draw,
            },
            "Draw by adjudication: SyzygyTB (KPvK is drawn in the tables)",
        ),
        (
            Ending::Tablebase {
                material: "KRvK".into(),
                outcome: TablebaseOutcome::Win(white),
            },
            "White wins by adjudication: SyzygyTB (KRvK is won in the tables)",
        ),
        (Ending::Aborted, "No result: aborted by the supervisor"),
        (
            Ending::SessionEnded,
            "No result: the session was ended by the supervisor",
        ),
    ];
    for (ending, words) in cases {
        assert_eq!(ending.to_string(), words);
        assert_eq!(closing_comment(&ending, None), words);
    }
    assert_eq!(
        closing_comment(
            &Ending::DrawClaimed {
                by: black,
                claim: DrawClaim::ThreefoldRepetition
            },
            Some(&claim_note("Ng8"))
        ),
        "Draw by 3-fold repetition: claimed by Black; the move Ng8 written down, not played"
    );
}

#[test]
fn a_sentence_about_a_client_names_it_as_the_sides_are_named() {
    let lost = Event::LinkLost {
        client: ClientId::A,
        reason: "cable pulled".into(),
    };
    // A match's game 2: White (client A) is the match's player B.
    let swapped = crate::referee::ByClient::new("B".to_string(), "A".to_string());
    assert_eq!(sentence(&lost), "A: link lost: cable pulled");
    assert_eq!(
        naming_sides(&lost, sentence(&lost), &swapped),
        "B: link lost: cable pulled"
    );
    let headline_said = headline(&lost).unwrap();
    assert_eq!(
        naming_sides(&lost, headline_said, &swapped),
        "B: link lost: cable pulled"
    );
    // The board's own letters, or an event about no client: unchanged.
    let same = crate::referee::ByClient::new("A".to_string(), "B".to_string());
    assert_eq!(naming_sides(&lost, sentence(&lost), &same), sentence(&lost));
    let over = over(Ending::Resigned {
        color: Color::Black,
    });
    assert_eq!(
        naming_sides(&over, sentence(&over), &swapped),
        sentence(&over)
    );
    // A control character in a label never reaches the words.
    let odd = crate::referee::ByClient::new("B\u{1b}[2J".to_string(), "A".to_string());
    assert_eq!(
        naming_sides(&lost, sentence(&lost), &odd),
        "B[2J: link lost: cable pulled"
    );
}

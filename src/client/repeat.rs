//! Answering a `respond` that was sent again.
//!
//! The referee sends a `respond` again when the reply did not arrive (after
//! `--resend-after` seconds of silence, after a damaged line or an `Anak`).
//! If the client had already answered it, thinking again would waste the
//! engine's time, and a resent `respond` that waits in the queue while an
//! engine thinks would make it search a stale position after replying,
//! while its clock runs for the real next one. So a `respond` that asks
//! the same question as the one just answered (same position fields and
//! supplied move, nothing else received in between) gets the same reply
//! again at once. A position that recurs later in the game (a repetition)
//! is not "the same question": other records came in between.

use crate::epd::{Fields, Record, RefCom};

/// The last `respond` answered and the reply sent to it.
#[derive(Debug, Default, Clone)]
pub struct LastAnswer {
    question: Option<(Fields, Option<String>)>,
    reply: Option<String>,
}

impl LastAnswer {
    /// The reply to send again if `record` repeats the question just
    /// answered; otherwise `None`, and `record` (whatever it is) becomes
    /// the last record seen.
    pub fn repeat_for(&mut self, record: &str) -> Option<String> {
        let question = question_of(record);
        if question.is_some() && question == self.question {
            return self.reply.clone();
        }
        self.question = question;
        self.reply = None;
        None
    }

    /// The client answered the last record with `reply`.
    pub fn answered(&mut self, reply: &str) {
        if self.question.is_some() {
            self.reply = Some(reply.to_string());
        }
    }
}

/// A `respond` record's question: its position fields and supplied move.
fn question_of(record: &str) -> Option<(Fields, Option<String>)> {
    let r = Record::parse(record).ok()?;
    if r.refcom().ok()?? != RefCom::Respond {
        return None;
    }
    let sm = r.sm().ok()?.map(str::to_owned);
    Some((r.fields, sm))
}

#[cfg(test)]
mod tests {
    use super::*;

    const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

    fn respond(cc: &str, sm: &str) -> String {
        format!("{AFTER_E4} cc {cc} 000:00:00:00; fmvn 1; hmvc 0; refcom respond; sm {sm};")
    }

    #[test]
    fn a_respond_sent_again_gets_the_same_reply() {
        let mut last = LastAnswer::default();
        assert_eq!(last.repeat_for(&respond("000:00:00:01", "e4")), None);
        last.answered("reply e5");
        // The clocks moved on in the resent record; the question did not.
        assert_eq!(
            last.repeat_for(&respond("000:00:00:05", "e4")).as_deref(),
            Some("reply e5")
        );
    }

    #[test]
    fn a_different_question_or_anything_in_between_is_answered_afresh() {
        let mut last = LastAnswer::default();
        last.repeat_for(&respond("000:00:00:01", "e4"));
        last.answered("reply e5");
        assert_eq!(last.repeat_for(&respond("000:00:00:01", "d4")), None);
        last.answered("reply d5");
        let inform = format!("{AFTER_E4} refcom inform;");
        assert_eq!(last.repeat_for(&inform), None);
        assert_eq!(last.repeat_for(&respond("000:00:00:01", "d4")), None);
    }

    #[test]
    fn a_respond_not_yet_answered_is_not_repeated() {
        let mut last = LastAnswer::default();
        last.repeat_for(&respond("000:00:00:01", "e4"));
        assert_eq!(last.repeat_for(&respond("000:00:00:02", "e4")), None);
    }
}

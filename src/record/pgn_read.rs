//! A streaming PGN reader (import format, `specs/pgn-standard-1994.txt`
//! sections 7-8) that keeps the tags, the main-line SAN tokens of each game
//! and the whole movetext as a tree (variations, comments, NAGs: see
//! [`super::pgn_tree`]).
//!
//! Memory is bounded per game (see the `MAX_*` constants) whatever the input
//! holds, and no input makes it panic. A game with an error is reported once
//! (with its line number) and dropped; reading goes on with the next game.

use std::collections::VecDeque;
use std::fmt;
use std::io::BufRead;

use super::lines::LineReader;
use super::pgn_tree::{PgnLine, PgnNode, suffix_nag};

/// Longest line kept; a longer line is an error (and is skipped).
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Most tag pairs in one game.
pub const MAX_TAGS: usize = 256;
/// Longest tag value, in bytes (a FEN is under 100).
pub const MAX_TAG_VALUE: usize = 4096;
/// Most main-line moves (plies) in one game. The longest possible chess game
/// under the 75-move rule has fewer than 18 000 plies.
pub const MAX_PLIES: usize = 20_000;
/// Longest symbol (SAN token), as the PGN standard limits symbols.
pub const MAX_SYMBOL: usize = 255;
/// Most moves in one game's tree (main line and variations together).
pub const MAX_NODES: usize = 100_000;
/// Most bytes of comment text in one game.
pub const MAX_COMMENT_BYTES: usize = 1 << 20;
/// Deepest variation nesting kept.
pub const MAX_VARIATION_DEPTH: u32 = 255;

/// One game as read: text only, no chess checked.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PgnText {
    /// Tag pairs in file order, values unescaped.
    pub tags: Vec<(String, String)>,
    /// The main-line moves as written (without move numbers, NAGs, `!`/`?`
    /// suffixes, comments or variations), e.g. `["e4", "e5", "Nf3"]`.
    pub sans: Vec<String>,
    /// The 1-based line of each of `sans` (for errors about a move).
    pub san_lines: Vec<usize>,
    /// The whole movetext: the main line (the same moves as `sans`) with
    /// its comments, NAGs and variations.
    pub tree: PgnLine,
    /// The game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`), or `None`
    /// when the game ended without one (end of input or next game's tags).
    pub result: Option<String>,
    /// 1-based line where the game starts (its first tag or token).
    pub line: usize,
}

impl PgnText {
    /// The value of the first tag named `name` (case-sensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Which kind of wrong a [`PgnParseError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// The input could not be read (an I/O error): reading ends here.
    Unreadable,
    /// The text is not good PGN: this game is bad, reading goes on with
    /// the next.
    Malformed,
}

/// What was wrong in the input, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnParseError {
    /// 1-based line of the problem.
    pub line: usize,
    /// Whether the input could not be read, or the text was bad.
    pub kind: PgnErrorKind,
    /// What was wrong, including where the game containing it started.
    pub message: String,
}

impl fmt::Display for PgnParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PgnParseError {}

/// Reads all games of a PGN text; stops at the first error.
pub fn read_pgn_games(text: &str) -> Result<Vec<PgnText>, PgnParseError> {
    PgnReader::new(text.as_bytes()).collect()
}

#[derive(Debug)]
struct Builder {
    text: PgnText,
    /// A movetext token was seen: a tag pair now starts the next game.
    in_movetext: bool,
    /// An error was reported for this game: it is parsed but dropped.
    poisoned: bool,
    /// The variations being read, innermost last (the main line is
    /// `text.tree`).
    open: Vec<PgnLine>,
    /// Moves in the tree so far.
    nodes: usize,
    /// Comment bytes so far.
    comment_bytes: usize,
}

impl Builder {
    fn new(line: usize) -> Self {
        Builder {
            text: PgnText {
                line,
                ..PgnText::default()
            },
            in_movetext: false,
            poisoned: false,
            open: Vec::new(),
            nodes: 0,
            comment_bytes: 0,
        }
    }

    /// The line being read (innermost open variation, or the main line).
    fn top(&mut self) -> &mut PgnLine {
        match self.open.last_mut() {
            Some(l) => l,
            None => &mut self.text.tree,
        }
    }
}

/// An iterator over the games of a PGN stream: `Ok(game)` for each good
/// game, `Err` once for each game with a problem (that game is skipped).
/// After an I/O error the iterator ends.
///
/// ```
/// use argus::record::pgn_read::PgnReader;
/// let text = "[White \"A\"]\n\n1. e4 {best} e5 (1... c5) 2. Nf3 $1 1-0\n";
/// let games: Vec<_> = PgnReader::new(text.as_bytes()).collect();
/// let g = games[0].as_ref().unwrap();
/// assert_eq!(g.sans, ["e4", "e5", "Nf3"]);
/// assert_eq!(g.tag("White"), Some("A"));
/// assert_eq!(g.result.as_deref(), Some("1-0"));
/// ```
#[derive(Debug)]
pub struct PgnReader<R> {
    lines: LineReader<R>,
    line: String,
    pos: usize,
    line_no: usize,
    /// Inside a `{...}` comment opened at this line.
    in_brace: Option<usize>,
    /// The text of the comment being read.
    comment: String,
    /// Variation nesting depth, and where the outermost one opened.
    depth: u32,
    var_line: usize,
    game: Option<Builder>,
    out: VecDeque<Result<PgnText, PgnParseError>>,
    done: bool,
}

impl<R: BufRead> PgnReader<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> Self {
        PgnReader {
            lines: LineReader::new(input, MAX_LINE_BYTES),
            line: String::new(),
            pos: 0,
            line_no: 0,
            in_brace: None,
            comment: String::new(),
            depth: 0,
            var_line: 0,
            game: None,
            out: VecDeque::new(),
            done: false,
        }
    }

    /// Loads the next line; false at the end of the input or on an error.
    fn load_line(&mut self) -> bool {
        self.pos = 0;
        match self.lines.next_line(&mut self.line) {
            Err(e) => {
                self.line.clear();
                self.out.push_back(Err(PgnParseError {
                    line: self.line_no.saturating_add(1),
                    kind: PgnErrorKind::Unreadable,
                    message: format!("cannot read the input: {e}"),
                }));
                self.done = true;
                false
            }
            Ok(None) => {
                self.line.clear();
                self.end_of_input();
                false
            }
            Ok(Some(info)) => {
                self.line_no = info.number;
                if info.overlong {
                    self.line.clear();
                    self.movetext();
                    self.error(format!("line longer than {MAX_LINE_BYTES} bytes (skipped)"));
                } else if self.in_brace.is_none() && self.line.starts_with('%') {
                    // Escape line: ignored by definition.
                    self.line.clear();
                }
                true
            }
        }
    }

    fn end_of_input(&mut self) {
        if let Some(l) = self.in_brace {
            self.error(format!(
                "comment opened at line {l} is not closed at the end of the input"
            ));
        } else if self.depth > 0 {
            self.error(format!(
                "variation opened at line {} is not closed at the end of the input",
                self.var_line
            ));
        }
        if let Some(b) = self.game.take() {
            self.emit(b);
        }
        self.done = true;
    }

    fn emit(&mut self, b: Builder) {
        if !b.poisoned {
            self.out.push_back(Ok(b.text));
        }
    }

    /// Reports `message` for the current game (only its first error) and
    /// marks the game to be dropped.
    fn error(&mut self, message: String) {
        let line = self.line_no;
        let b = self.game.get_or_insert_with(|| Builder::new(line));
        if b.poisoned {
            return;
        }
        b.poisoned = true;
        b.text.tags = Vec::new();
        b.text.sans = Vec::new();
        b.text.san_lines = Vec::new();
        b.text.tree = PgnLine::default();
        b.open = Vec::new();
        let message = if b.text.line == line {
            message
        } else {
            format!("{message} (in the game starting at line {})", b.text.line)
        };
        self.out.push_back(Err(PgnParseError {
            line,
            kind: PgnErrorKind::Malformed,
            message,
        }));
    }

    /// Notes a movetext token: makes sure a game is open and in movetext.
    fn movetext(&mut self) -> &mut Builder {
        let line = self.line_no;
        let b = self.game.get_or_insert_with(|| Builder::new(line));
        b.in_movetext = true;
        b
    }

    fn rest(&self) -> &str {
        self.line.get(self.pos..).unwrap_or("")
    }

    /// Handles one token (or the rest of a comment) at `pos`.
    fn step(&mut self) {
        if self.in_brace.is_some() {
            let rest = self.rest();
            match rest.find('}') {
                Some(i) => {
                    let text = rest.get(..i).unwrap_or("").to_string();
                    self.pos = self.pos.saturating_add(i + 1);
                    self.in_brace = None;
                    self.comment_text(&text);
                    let c = std::mem::take(&mut self.comment);
                    self.add_comment(c);
                }
                None => {
                    let text = rest.to_string();
                    self.pos = self.line.len();
                    self.comment_text(&text);
                    self.comment_text("\n");
                }
            }
            return;
        }
        let Some(c) = self.rest().chars().next() else {
            self.pos = self.line.len();
            return;
        };
        match c {
            c if c.is_whitespace() => self.pos += c.len_utf8(),
            '{' => {
                self.in_brace = Some(self.line_no);
                self.comment.clear();
                self.pos += 1;
            }
            ';' => {
                let text = self.rest().get(1..).unwrap_or("").to_string();
                self.pos = self.line.len();
                self.comment_text(&text);
                let c = std::mem::take(&mut self.comment);
                self.add_comment(c);
            }
            '(' => {
                self.pos += 1;
                self.movetext();
                if self.depth == 0 {
                    self.var_line = self.line_no;
                }
                self.depth = self.depth.saturating_add(1);
                self.open_variation();
            }
            ')' => {
                self.pos += 1;
                if self.depth == 0 {
                    self.movetext();
                    self.error("')' without a matching '('".to_string());
                } else {
                    self.depth -= 1;
                    self.close_variation();
                }
            }
            '[' => self.tag_pair(),
            '$' => {
                let digits = self
                    .rest()
                    .get(1..)
                    .unwrap_or("")
                    .bytes()
                    .take_while(u8::is_ascii_digit)
                    .count();
                let nag = self.rest().get(1..1 + digits).unwrap_or("").parse::<u8>();
                self.pos = self.pos.saturating_add(1 + digits);
                self.movetext();
                match nag {
                    _ if digits == 0 => self.error("'$' not followed by a NAG number".to_string()),
                    Ok(n) => self.add_nag(n),
                    Err(_) => self.error("NAG number over 255".to_string()),
                }
            }
            '.' => self.pos += 1,
            '!' | '?' => {
                let len = self
                    .rest()
                    .bytes()
                    .take_while(|b| *b == b'!' || *b == b'?')
                    .count();
                let nag = suffix_nag(self.rest().get(..len).unwrap_or(""));
                self.pos = self.pos.saturating_add(len);
                if let Some(n) = nag {
                    self.add_nag(n);
                }
            }
            '*' => {
                self.pos += 1;
                self.result("*");
            }
            '<' => match self.rest().find('>') {
                Some(i) => self.pos = self.pos.saturating_add(i + 1),
                None => self.pos = self.line.len(),
            },
            c if c.is_ascii_alphanumeric() || self.rest().starts_with("--") => self.symbol(),
            other => {
                self.pos += other.len_utf8();
                self.movetext();
                self.error(format!("unexpected character {other:?} in the movetext"));
            }
        }
    }

    fn symbol(&mut self) {
        let rest = self.rest();
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || "_+#=:-/".contains(c)))
            .unwrap_or(rest.len());
        let token = rest.get(..len).unwrap_or("").to_string();
        self.pos = self.pos.saturating_add(len);
        if matches!(token.as_str(), "1-0" | "0-1" | "1/2-1/2") {
            if self.depth == 0 {
                self.result(&token);
            }
            return;
        }
        let depth = self.depth;
        let line = self.line_no;
        let b = self.movetext();
        if token.bytes().all(|c| c.is_ascii_digit()) || b.poisoned {
            return; // a move number
        }
        if token.len() > MAX_SYMBOL {
            self.error(format!("move token longer than {MAX_SYMBOL} characters"));
        } else if depth == 0 && b.text.sans.len() >= MAX_PLIES {
            self.error(format!("game longer than {MAX_PLIES} moves (plies)"));
        } else if b.nodes >= MAX_NODES {
            self.error(format!(
                "more than {MAX_NODES} moves in the game and its variations"
            ));
        } else {
            if depth == 0 {
                b.text.sans.push(token.clone());
                b.text.san_lines.push(line);
            }
            b.nodes += 1;
            b.top().moves.push(PgnNode {
                san: token,
                line,
                ..PgnNode::default()
            });
        }
    }

    /// Appends to the comment being read, unless the game is over its
    /// comment budget (then the game is reported once).
    fn comment_text(&mut self, text: &str) {
        let b = self.movetext();
        if b.poisoned {
            return;
        }
        b.comment_bytes = b.comment_bytes.saturating_add(text.len());
        if b.comment_bytes > MAX_COMMENT_BYTES {
            self.comment.clear();
            self.error(format!("more than {MAX_COMMENT_BYTES} bytes of comments"));
        } else {
            self.comment.push_str(text);
        }
    }

    /// Attaches a finished comment to the last move read (or to the line
    /// when none is there yet).
    fn add_comment(&mut self, text: String) {
        let b = self.movetext();
        if b.poisoned {
            return;
        }
        let top = b.top();
        match top.moves.last_mut() {
            // After a variation too: the tree has one place for it.
            Some(n) => n.comments.push(text),
            None => top.comments.push(text),
        }
    }

    fn add_nag(&mut self, nag: u8) {
        let b = self.movetext();
        if b.poisoned {
            return;
        }
        match b.top().moves.last_mut() {
            Some(n) => n.nags.push(nag),
            None => self.error(format!("NAG ${nag} before any move")),
        }
    }

    fn open_variation(&mut self) {
        let depth = self.depth;
        let b = self.movetext();
        if b.poisoned {
            return;
        }
        if b.top().moves.is_empty() {
            self.error("variation '(' before any move of its line".to_string());
        } else if depth > MAX_VARIATION_DEPTH {
            self.error(format!(
                "variations nested deeper than {MAX_VARIATION_DEPTH}"
            ));
        } else {
            b.open.push(PgnLine::default());
        }
    }

    fn close_variation(&mut self) {
        let b = self.movetext();
        if b.poisoned {
            return;
        }
        if let Some(v) = b.open.pop()
            && let Some(n) = b.top().moves.last_mut()
        {
            n.variations.push(v);
        }
    }

    fn result(&mut self, token: &str) {
        let line = self.line_no;
        let mut b = self.game.take().unwrap_or_else(|| Builder::new(line));
        b.text.result = Some(token.to_string());
        self.emit(b);
    }

    fn tag_pair(&mut self) {
        if self.depth > 0 {
            if self.pos != 0 {
                self.pos += 1;
                self.movetext();
                self.error("'[' inside a variation".to_string());
                return;
            }
            // A tag pair in the first column: the variation was never closed
            // and this is the next game.
            self.error(format!(
                "variation opened at line {} is not closed before the next tag pair",
                self.var_line
            ));
            self.depth = 0;
        }
        if self.game.as_ref().is_none_or(|b| b.in_movetext) {
            if let Some(b) = self.game.take() {
                self.emit(b);
            }
            self.game = Some(Builder::new(self.line_no));
        }
        match parse_tag(self.rest()) {
            Err(e) => {
                self.pos = self.line.len();
                self.error(e.to_string());
            }
            Ok((name, value, used)) => {
                self.pos = self.pos.saturating_add(used);
                let line = self.line_no;
                let b = self.game.get_or_insert_with(|| Builder::new(line));
                if b.poisoned {
                } else if b.text.tags.len() >= MAX_TAGS {
                    self.error(format!("more than {MAX_TAGS} tag pairs"));
                } else {
                    b.text.tags.push((name, value));
                }
            }
        }
    }
}

/// Why a tag pair does not read: what is wrong, and the tag's name when
/// it has one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum TagError {
    #[error("tag pair without a tag name")]
    NoName,
    #[error("tag pair {0}: value does not start with '\"'")]
    NoOpeningQuote(String),
    #[error("tag pair {0}: value not closed with '\"'")]
    NotClosed(String),
    #[error("tag pair {0}: value longer than {MAX_TAG_VALUE} bytes")]
    TooLong(String),
    #[error("tag pair {0}: missing ']'")]
    NoBracket(String),
}

/// Parses `[Name "value"]` at the start of `s`; returns the name, the
/// unescaped value and the bytes used.
fn parse_tag(s: &str) -> Result<(String, String, usize), TagError> {
    let mut it = s.char_indices().peekable();
    it.next(); // '['
    while it.next_if(|(_, c)| c.is_whitespace()).is_some() {}
    let mut name = String::new();
    while let Some((_, c)) = it.next_if(|(_, c)| c.is_ascii_alphanumeric() || *c == '_') {
        if name.len() < MAX_SYMBOL {
            name.push(c);
        }
    }
    if name.is_empty() {
        return Err(TagError::NoName);
    }
    while it.next_if(|(_, c)| c.is_whitespace()).is_some() {}
    if it.next().map(|(_, c)| c) != Some('"') {
        return Err(TagError::NoOpeningQuote(name));
    }
    let mut value = String::new();
    loop {
        match it.next() {
            None => return Err(TagError::NotClosed(name)),
            Some((_, '"')) => break,
            Some((_, '\\')) => match it.next() {
                Some((_, c)) => value.push(c),
                None => return Err(TagError::NotClosed(name)),
            },
            Some((_, c)) => value.push(c),
        }
        if value.len() > MAX_TAG_VALUE {
            return Err(TagError::TooLong(name));
        }
    }
    while it.next_if(|(_, c)| c.is_whitespace()).is_some() {}
    match it.next() {
        Some((i, ']')) => Ok((name, value, i + 1)),
        _ => Err(TagError::NoBracket(name)),
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<PgnText, PgnParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.out.pop_front() {
                return Some(item);
            }
            if self.done {
                return None;
            }
            if self.pos >= self.line.len() {
                self.load_line();
            } else {
                self.step();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::pgn::{PgnGame, PgnMove, write_pgn};
    use proptest::prelude::*;

    #[test]
    fn a_bad_tag_pair_says_which_tag_and_what_is_wrong() {
        let long = format!("[Event \"{}\"]", "x".repeat(MAX_TAG_VALUE + 1));
        for (text, kind, says) in [
            ("[ \"x\"]", TagError::NoName, "tag pair without a tag name"),
            (
                "[Event x]",
                TagError::NoOpeningQuote("Event".into()),
                "tag pair Event: value does not start with '\"'",
            ),
            (
                "[Site \"x\\",
                TagError::NotClosed("Site".into()),
                "tag pair Site: value not closed with '\"'",
            ),
            (
                "[Round \"1\" x",
                TagError::NoBracket("Round".into()),
                "tag pair Round: missing ']'",
            ),
            (
                long.as_str(),
                TagError::TooLong("Event".into()),
                &format!("tag pair Event: value longer than {MAX_TAG_VALUE} bytes"),
            ),
        ] {
            let e = parse_tag(text).unwrap_err();
            assert_eq!(e, kind, "{text}");
            assert_eq!(e.to_string(), says);
        }
        assert_eq!(
            parse_tag("[Event \"a\\\"b\"] 1. e4"),
            Ok(("Event".into(), "a\"b".into(), 14))
        );
    }

    fn all(text: &str) -> Vec<Result<PgnText, PgnParseError>> {
        PgnReader::new(text.as_bytes()).collect()
    }

    fn one(text: &str) -> PgnText {
        let mut games = read_pgn_games(text).unwrap();
        assert_eq!(games.len(), 1, "{games:?}");
        games.remove(0)
    }

    #[test]
    fn tags_and_moves() {
        let g = one(
            "[Event \"A \\\"quoted\\\" \\\\ name\"]\n[Site \"x\"]\n\n1. e4 e5 2. Nf3 1/2-1/2\n",
        );
        assert_eq!(
            g.tags,
            vec![
                ("Event".to_string(), "A \"quoted\" \\ name".to_string()),
                ("Site".to_string(), "x".to_string())
            ]
        );
        assert_eq!(g.sans, ["e4", "e5", "Nf3"]);
        assert_eq!(g.result.as_deref(), Some("1/2-1/2"));
        assert_eq!(g.line, 1);
    }

    #[test]
    fn skips_comments_variations_nags_numbers_and_escapes() {
        let text = "%escape line [Event \"no\"]\n\
                    [Event \"E\"]\n\
                    \n\
                    1.e4 {a comment ; with ( and [ inside\n\
                    over two lines} e5!? ; rest of line { not a comment\n\
                    2. Nf3 $14 (2. f4 exf4 (2... d5 3. exd5) 3. Nf3) 2... Nc6\n\
                    3. Bb5 <reserved> a6 *\n";
        let g = one(text);
        assert_eq!(g.tag("Event"), Some("E"));
        assert_eq!(g.sans, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        assert_eq!(g.result.as_deref(), Some("*"));
        assert_eq!(g.line, 2);
    }

    #[test]
    fn results_inside_variations_do_not_end_the_game() {
        let g = one("1. f3 e5 (1... e6 2. g4 Qh4# 0-1) 2. g4 Qh4# 0-1");
        assert_eq!(g.sans, ["f3", "e5", "g4", "Qh4#"]);
    }

    #[test]
    fn several_games_and_lines() {
        let text = "[Event \"1\"]\n\n1. e4 1-0\n\n[Event \"2\"]\n\n1. d4 d5 0-1\n1. c4 *";
        let games = read_pgn_games(text).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].line, 1);
        assert_eq!(games[1].line, 5);
        assert_eq!(games[1].sans, ["d4", "d5"]);
        assert_eq!(games[1].san_lines, [7, 7]);
        assert_eq!(games[2].san_lines, [8]);
        assert_eq!(games[2].line, 8);
        assert!(games[2].tags.is_empty());
    }

    #[test]
    fn game_without_result_ends_at_next_tags_or_eof() {
        let text = "[Event \"1\"]\n1. e4 e5\n[Event \"2\"]\n1. d4";
        let games = read_pgn_games(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].result, None);
        assert_eq!(games[0].sans, ["e4", "e5"]);
        assert_eq!(games[1].sans, ["d4"]);
    }

    #[test]
    fn crlf_and_cr_lines() {
        let g = one("[Event \"x\"]\r\n\r\n1. e4 e5\r2. Nf3 *\r\n");
        assert_eq!(g.sans, ["e4", "e5", "Nf3"]);
    }

    #[test]
    fn bad_game_is_reported_once_and_skipped() {
        let text = "[Event \"good\"]\n1. e4 *\n\n[Event \"bad]\n1. e4 ) @ e5 *\n\n[Event \"next\"]\n1. d4 *\n";
        let got = all(text);
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[0].as_ref().unwrap().sans, ["e4"]);
        let err = got[1].as_ref().unwrap_err();
        assert_eq!(err.line, 4);
        assert!(err.message.contains("Event"), "{err}");
        assert_eq!(got[2].as_ref().unwrap().tag("Event"), Some("next"));
    }

    /// A reader that gives `first`, then fails.
    struct FailsAfter(Option<&'static [u8]>);

    impl std::io::Read for FailsAfter {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            match self.0.take() {
                Some(bytes) => {
                    buf[..bytes.len()].copy_from_slice(bytes);
                    Ok(bytes.len())
                }
                None => Err(std::io::Error::other("the disk went away")),
            }
        }
    }

    #[test]
    fn an_unreadable_input_is_told_from_bad_text_by_its_kind() {
        let bad: Vec<_> = PgnReader::new(std::io::BufReader::new(FailsAfter(Some(
            b"[Event \"x\"]\n1. e4 ) *\n\n",
        ))))
        .collect();
        let kinds: Vec<_> = bad.iter().map(|g| g.as_ref().unwrap_err().kind).collect();
        assert_eq!(
            kinds,
            [PgnErrorKind::Malformed, PgnErrorKind::Unreadable],
            "{bad:?}"
        );
        let err = bad[1].as_ref().unwrap_err();
        assert!(err.message.contains("the disk went away"), "{err}");
    }

    #[test]
    fn error_messages_name_line_and_game_start() {
        let got = all("[Event \"x\"]\n\n1. e4 e5\n2. Nf3 ) Nc6 *\n");
        let err = got[0].as_ref().unwrap_err();
        assert_eq!(err.line, 4);
        assert!(err.to_string().starts_with("line 4: ')' without"), "{err}");
        assert!(err.message.contains("starting at line 1"), "{err}");
        assert_eq!(got.len(), 1);
    }

    #[test]
    fn unclosed_comment_and_variation_are_errors() {
        let got = all("1. e4 {never closed\n2. d4 *\n");
        assert_eq!(got.len(), 1);
        let err = got[0].as_ref().unwrap_err();
        assert!(err.message.contains("comment opened at line 1"), "{err}");

        let got = all("1. e4 (1. d4 d5\n[Event \"next\"]\n1. c4 *\n");
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].as_ref().unwrap_err().message.contains("variation"));
        assert_eq!(got[1].as_ref().unwrap().sans, ["c4"]);
    }

    #[test]
    fn overlong_line_is_an_error_not_a_memory_hog() {
        let text = format!(
            "[Event \"x\"]\n1. e4 {} *\n[Event \"y\"]\n1. d4 *\n",
            "a".repeat(MAX_LINE_BYTES + 10)
        );
        let got = all(&text);
        assert_eq!(got.len(), 2);
        assert!(got[0].as_ref().unwrap_err().message.contains("longer than"));
        assert_eq!(got[1].as_ref().unwrap().sans, ["d4"]);
    }

    #[test]
    fn too_many_plies_is_an_error() {
        let text = format!("{}*\n", "Nf3 Nf6 Ng1 Ng8 ".repeat(MAX_PLIES / 4 + 1));
        let got = all(&text);
        assert_eq!(got.len(), 1);
        assert!(got[0].as_ref().unwrap_err().message.contains("longer than"));
    }

    #[test]
    fn tag_errors() {
        for (text, want) in [
            ("[ \"v\"]\n*", "without a tag name"),
            ("[Event v]\n*", "does not start"),
            ("[Event \"v\"\n*", "missing ']'"),
            ("[Event \"v\\", "not closed"),
        ] {
            let got = all(text);
            let err = got[0].as_ref().unwrap_err();
            assert!(err.message.contains(want), "{text:?}: {err}");
        }
    }

    #[test]
    fn null_move_and_castling_kept_as_written() {
        let g = one("1. O-O 0-0-0 2. -- e5+ *");
        assert_eq!(g.sans, ["O-O", "0-0-0", "--", "e5+"]);
    }

    #[test]
    fn writer_output_reads_back() {
        let g = PgnGame {
            tags: vec![
                ("White".into(), "Mr \"X\" \\ Y".into()),
                ("FEN".into(), "8/8/8/8/8/8/8/K6k b - - 0 40".into()),
                ("SetUp".into(), "1".into()),
            ],
            first_move_number: 40,
            black_first: true,
            moves: ["Kg7", "Ka2", "Kf6", "Kb3"]
                .iter()
                .map(|s| PgnMove {
                    san: s.to_string(),
                    clk_ms: Some(60_000),
                    emt_ms: Some(1_000),
                    eval: None,
                    book: false,
                    ponder_hit: None,
                })
                .collect(),
            result: "1/2-1/2".into(),
            final_comment: Some("drawn by { agreement }".into()),
        };
        let text = write_pgn(&g);
        let back = one(&text);
        assert_eq!(back.tag("White"), Some("Mr \"X\" \\ Y"));
        assert_eq!(back.tag("FEN"), Some("8/8/8/8/8/8/8/K6k b - - 0 40"));
        assert_eq!(back.tag("Result"), Some("1/2-1/2"));
        assert_eq!(back.sans, ["Kg7", "Ka2", "Kf6", "Kb3"]);
        assert_eq!(back.result.as_deref(), Some("1/2-1/2"));
    }

    fn san_strategy() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-h][1-8]",
            "[NBRQK][a-h]?x?[a-h][1-8][+#]?",
            "[a-h]x[a-h][1-8]=[QRBN]",
            Just("O-O".to_string()),
            Just("O-O-O+".to_string()),
        ]
    }

    proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,300}|[\\[\\]{}();%$*\"\\\\0-9a-h. \n\r-]{0,300}") {
            let mut n = 0;
            for item in PgnReader::new(text.as_bytes()) {
                n += 1;
                if let Err(e) = item {
                    prop_assert!(e.line >= 1);
                }
            }
            // Each item takes at least one character of input.
            prop_assert!(n <= text.len() + 1);
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            for _ in PgnReader::new(bytes.as_slice()) {}
        }

        #[test]
        fn write_then_read_round_trips(
            sans in proptest::collection::vec(san_strategy(), 0..120),
            white in "\\PC{0,40}",
            event in "[ -~]{0,40}",
            black_first in any::<bool>(),
            first in 1u32..200,
            clocks in any::<bool>(),
            comment in proptest::option::of("\\PC{0,100}"),
            result in prop_oneof![Just("1-0"), Just("0-1"), Just("1/2-1/2"), Just("*")],
        ) {
            let g = PgnGame {
                tags: vec![("White".into(), white.clone()), ("Event".into(), event.clone())],
                first_move_number: first,
                black_first,
                moves: sans.iter().map(|s| PgnMove {
                    san: s.clone(),
                    clk_ms: clocks.then_some(123_456),
                    emt_ms: clocks.then_some(7_890),
                    eval: None,
                    book: false,
                    ponder_hit: None,
                }).collect(),
                result: result.to_string(),
                final_comment: comment,
            };
            let text = write_pgn(&g);
            for line in text.lines() {
                if !line.starts_with('[') {
                    prop_assert!(line.chars().count() < 80, "{:?}", line);
                }
            }
            let back = read_pgn_games(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(back.len(), 1);
            let stripped: String = white.chars().filter(|c| !c.is_control()).collect();
            prop_assert_eq!(back[0].tag("White"), Some(stripped.as_str()));
            prop_assert_eq!(back[0].tag("Event"), Some(event.as_str()));
            prop_assert_eq!(&back[0].sans, &sans);
            prop_assert_eq!(back[0].result.as_deref(), Some(result));
        }
    }
}

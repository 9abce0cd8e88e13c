//! The HTTP of the audience's server, I/O-free: a request head parsed
//! (with `httparse`), the route it asks for, and the response heads.
//! Only GET and HEAD exist; every response closes its connection.

use crate::text::strip_control;

/// The longest request head read (request line and headers).
pub const MAX_HEAD: usize = 8 * 1024;
/// The most headers a request may have.
const MAX_HEADERS: usize = 64;
/// The most characters of a path kept for the log.
const LOGGED_PATH: usize = 200;

/// A parsed request head: what the server needs of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    pub method: String,
    /// The path, without the query string.
    pub path: String,
}

impl Head {
    /// The method and path for the log: stripped of control characters
    /// and cut short.
    pub fn for_log(&self) -> String {
        let path: String = self.path.chars().take(LOGGED_PATH).collect();
        strip_control(&format!("{} {path}", self.method))
    }
}

/// Why a request head cannot be served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeadError {
    /// Not HTTP (the parser's word for it).
    Malformed(String),
    /// Longer than [`MAX_HEAD`] without its end.
    TooLong,
}

/// Parses the request head at the start of `buf`: `Ok(None)` while it is
/// incomplete.
pub fn parse_head(buf: &[u8]) -> Result<Option<Head>, HeadError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut headers);
    match req.parse(buf) {
        Ok(httparse::Status::Complete(_)) => {
            let method = req.method.unwrap_or_default().to_string();
            let target = req.path.unwrap_or_default();
            let path = target.split(['?', '#']).next().unwrap_or_default();
            Ok(Some(Head {
                method,
                path: path.to_string(),
            }))
        }
        Ok(httparse::Status::Partial) if buf.len() >= MAX_HEAD => Err(HeadError::TooLong),
        Ok(httparse::Status::Partial) => Ok(None),
        Err(e) => Err(HeadError::Malformed(e.to_string())),
    }
}

/// What a request asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// A file built into the binary (the page, its script, styles, pieces).
    Asset(&'static str),
    /// `/events`: the live stream.
    Events,
    /// `/state.json`.
    State,
    /// `/games.pgn`: every game so far.
    Games,
    /// `/game/N.pgn`.
    Game(u32),
    /// `/game/N.json`: a finished game to step through.
    GameView(u32),
    /// `/round/N.pgn`: the games of round N (by their `Round` tags).
    Round(u32),
    /// Nothing here.
    NotFound,
    /// Not GET or HEAD.
    MethodNotAllowed,
}

/// The route for `method` and `path`; `asset` finds a built-in file by
/// its path.
pub fn route(method: &str, path: &str, asset: impl Fn(&str) -> Option<&'static str>) -> Route {
    if method != "GET" && method != "HEAD" {
        return Route::MethodNotAllowed;
    }
    match path {
        "/events" => return Route::Events,
        "/state.json" => return Route::State,
        "/games.pgn" => return Route::Games,
        _ => {}
    }
    let numbered = |prefix: &str, suffix: &str| -> Option<u32> {
        path.strip_prefix(prefix)
            .and_then(|r| r.strip_suffix(suffix))
            .filter(|n| !n.is_empty() && n.len() <= 10 && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse().ok())
    };
    if let Some(n) = numbered("/game/", ".pgn") {
        return Route::Game(n);
    }
    if let Some(n) = numbered("/game/", ".json") {
        return Route::GameView(n);
    }
    if let Some(n) = numbered("/round/", ".pgn") {
        return Route::Round(n);
    }
    let name = if path == "/" { "/index.html" } else { path };
    asset(name).map_or(Route::NotFound, Route::Asset)
}

/// The reason phrase of the status codes the server uses.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// Headers every response carries: no sniffing, a strict content
/// security policy (scripts and styles from this server only, images
/// also as data URLs, which the piece set is), anyone may read.
const COMMON: &str = "Connection: close\r\n\
X-Content-Type-Options: nosniff\r\n\
Content-Security-Policy: default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'\r\n\
Access-Control-Allow-Origin: *\r\n";

/// The head of a response with a body of `len` bytes.
pub fn response_head(status: u16, content_type: &str, len: usize, cache: bool) -> String {
    let cache = if cache {
        "Cache-Control: max-age=300\r\n"
    } else {
        "Cache-Control: no-cache\r\n"
    };
    let allow = if status == 405 {
        "Allow: GET, HEAD\r\n"
    } else {
        ""
    };
    format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {len}\r\n{cache}{allow}{COMMON}\r\n",
        reason(status)
    )
}

/// A whole plain-text response (head and body), for errors.
pub fn text_response(status: u16, body: &str, head_only: bool) -> String {
    let body = format!("{body}\n");
    let mut r = response_head(status, "text/plain; charset=utf-8", body.len(), false);
    if !head_only {
        r.push_str(&body);
    }
    r
}

/// The head of the event stream (Server-Sent Events, no length).
pub fn stream_head() -> String {
    format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-cache\r\n{COMMON}\r\n"
    )
}

/// One Server-Sent Event: its type and a one-line JSON document.
pub fn sse_event(event: &str, data: &str) -> String {
    // JSON from serde has no raw line ends; any other would cut the event.
    let data = data.replace(['\r', '\n'], " ");
    format!("event: {event}\ndata: {data}\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two built-in files.
    fn known(path: &str) -> Option<&'static str> {
        ["/index.html", "/app.js"].into_iter().find(|a| *a == path)
    }

    #[test]
    fn only_get_and_head_are_served() {
        assert_eq!(route("GET", "/", known), Route::Asset("/index.html"));
        assert_eq!(route("HEAD", "/app.js", known), Route::Asset("/app.js"));
        for m in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "get"] {
            assert_eq!(route(m, "/", known), Route::MethodNotAllowed, "{m}");
        }
    }

    #[test]
    fn routes_by_path() {
        assert_eq!(route("GET", "/events", known), Route::Events);
        assert_eq!(route("GET", "/state.json", known), Route::State);
        assert_eq!(route("GET", "/games.pgn", known), Route::Games);
        assert_eq!(route("GET", "/game/12.pgn", known), Route::Game(12));
        assert_eq!(route("GET", "/game/12.json", known), Route::GameView(12));
        assert_eq!(route("GET", "/round/3.pgn", known), Route::Round(3));
        assert_eq!(route("GET", "/round/x.pgn", known), Route::NotFound);
        for p in [
            "/game/.pgn",
            "/game/-1.pgn",
            "/game/1x.pgn",
            "/game/99999999999.pgn",
            "/game/1.pgn/x",
            "/game/x.json",
            "/game/1.json.pgn",
            "/nothing",
            "/../Cargo.toml",
            "",
        ] {
            assert_eq!(route("GET", p, known), Route::NotFound, "{p}");
        }
    }

    #[test]
    fn a_head_is_parsed_once_complete_without_its_query() {
        let req = b"GET /state.json?x=1 HTTP/1.1\r\nHost: a\r\n\r\n";
        assert_eq!(parse_head(&req[..20]), Ok(None));
        assert_eq!(
            parse_head(req),
            Ok(Some(Head {
                method: "GET".into(),
                path: "/state.json".into()
            }))
        );
        assert!(matches!(
            parse_head(b"\x00\x01 nonsense\r\n\r\n"),
            Err(HeadError::Malformed(_))
        ));
        let mut long = b"GET / HTTP/1.1\r\nX: ".to_vec();
        long.resize(MAX_HEAD, b'a');
        assert_eq!(parse_head(&long), Err(HeadError::TooLong));
    }

    #[test]
    fn the_logged_request_is_short_and_has_no_control_characters() {
        let h = Head {
            method: "GET".into(),
            path: format!("/\x1b[31m{}", "a".repeat(500)),
        };
        let l = h.for_log();
        assert!(!l.contains('\x1b') && l.len() < 220, "{l}");
    }

    #[test]
    fn a_405_says_what_is_allowed_and_a_head_response_has_no_body() {
        let r = text_response(405, "only GET and HEAD", true);
        assert!(r.starts_with("HTTP/1.1 405 Method Not Allowed\r\n"), "{r}");
        assert!(
            r.contains("Allow: GET, HEAD\r\n") && r.ends_with("\r\n\r\n"),
            "{r}"
        );
        assert!(r.contains("Content-Length: 18\r\n"), "{r}");
    }

    #[test]
    fn an_event_is_one_data_line() {
        assert_eq!(
            sse_event("state", "{\"a\":\"x\ny\"}"),
            "event: state\ndata: {\"a\":\"x y\"}\n\n"
        );
    }
}

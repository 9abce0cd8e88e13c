//! The page's files, built into the binary: the page needs no network.
//! The board widget is chessground, vendored unchanged with its licence
//! (`src/web/assets/chessground/README.md`).

/// A built-in file: its path on the server, content type and bytes.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static [u8],
}

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const TEXT: &str = "text/plain; charset=utf-8";

/// The [`Asset`] of the file `assets/FILE`, served at `/FILE`.
macro_rules! asset {
    ($content_type:expr, $file:literal) => {
        Asset {
            path: concat!("/", $file),
            content_type: $content_type,
            body: include_bytes!(concat!("assets/", $file)),
        }
    };
}

const ASSETS: &[Asset] = &[
    asset!(HTML, "index.html"),
    asset!(JS, "app.js"),
    asset!(CSS, "app.css"),
    asset!(JS, "chessground/chessground.min.js"),
    asset!(CSS, "chessground/chessground.base.css"),
    asset!(CSS, "chessground/chessground.brown.css"),
    asset!(CSS, "chessground/chessground.cburnett.css"),
    asset!(TEXT, "chessground/LICENSE"),
    asset!(TEXT, "chessground/README.md"),
];

/// The built-in file's own path, if `path` names one.
pub fn asset_path(path: &str) -> Option<&'static str> {
    ASSETS.iter().find(|a| a.path == path).map(|a| a.path)
}

/// The content type and bytes of the built-in file at `path`.
pub fn asset(path: &str) -> Option<(&'static str, &'static [u8])> {
    ASSETS
        .iter()
        .find(|a| a.path == path)
        .map(|a| (a.content_type, a.body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_the_board_widget_are_built_in() {
        for p in ["/index.html", "/app.js", "/chessground/chessground.min.js"] {
            assert_eq!(asset_path(p), Some(p));
            assert!(!asset(p).unwrap().1.is_empty(), "{p}");
        }
        assert_eq!(asset_path("/src/main.rs"), None);
    }
}

//! Where each pane goes for a given terminal size, and how big the squares
//! are.

use ratatui::layout::Rect;

use super::board::LABEL_WIDTH;

/// The smallest terminal the board is drawn in; below it the screen says
/// that the terminal is too small.
pub const MIN_WIDTH: u16 = 80;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 24;

/// Rows of the status bar at the bottom (one per link, one for the phase).
const STATUS_ROWS: u16 = 3;
/// Rows of each player panel (name line, clock line).
const PLAYER_ROWS: u16 = 2;
/// Rows of the header above the move list.
const HEADER_ROWS: u16 = 3;
/// Columns between the board and the right-hand panes.
const GAP: u16 = 2;
/// The right-hand panes get at least this many columns.
const MIN_RIGHT: u16 = 36;
/// The log pane gets at least this many rows (borders included).
const MIN_LOG: u16 = 6;

/// The size of one board square in terminal cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scale {
    /// Columns per square.
    pub w: u16,
    /// Rows per square.
    pub h: u16,
}

impl Scale {
    /// Square sizes from largest to smallest; cells are about twice as tall
    /// as wide, so `w` is about `2 * h`.
    const ALL: [Scale; 4] = [
        Scale { w: 9, h: 4 },
        Scale { w: 7, h: 3 },
        Scale { w: 5, h: 2 },
        Scale { w: 3, h: 1 },
    ];

    /// Columns of the board with its rank labels.
    pub fn board_width(self) -> u16 {
        LABEL_WIDTH + 8 * self.w
    }

    /// Rows of the board with its file labels.
    pub fn board_height(self) -> u16 {
        8 * self.h + 1
    }
}

/// The rectangles of every pane on one screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Panes {
    pub scale: Scale,
    /// The player drawn above the board (Black unless flipped).
    pub top_player: Rect,
    pub board: Rect,
    /// The player drawn below the board (White unless flipped).
    pub bottom_player: Rect,
    /// Game number, time control, match score.
    pub header: Rect,
    pub moves: Rect,
    pub log: Rect,
    pub status: Rect,
}

/// Splits `area` into panes, choosing the largest squares that leave the
/// other panes their minimum size. `None` when `area` is smaller than
/// [`MIN_WIDTH`] x [`MIN_HEIGHT`].
pub fn panes(area: Rect) -> Option<Panes> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    let main_h = area.height - STATUS_ROWS;
    let band = |s: Scale| s.board_height() + 2 * PLAYER_ROWS;
    let scale = Scale::ALL
        .into_iter()
        .find(|&s| s.board_width() + GAP + MIN_RIGHT <= area.width && band(s) + MIN_LOG <= main_h)
        .unwrap_or(Scale { w: 3, h: 1 });
    let band_h = band(scale).min(main_h);
    let (x, y) = (area.x, area.y);
    let bw = scale.board_width().min(area.width);
    let right_x = x.saturating_add(bw).saturating_add(GAP);
    let right_w = area.width.saturating_sub(bw + GAP);
    let top_player = Rect::new(x, y, bw, PLAYER_ROWS);
    let board = Rect::new(x, y.saturating_add(PLAYER_ROWS), bw, scale.board_height());
    let bottom_player = Rect::new(x, board.bottom(), bw, PLAYER_ROWS);
    let header = Rect::new(right_x, y, right_w, HEADER_ROWS);
    let moves = Rect::new(
        right_x,
        y.saturating_add(HEADER_ROWS),
        right_w,
        band_h.saturating_sub(HEADER_ROWS),
    );
    let log = Rect::new(x, y.saturating_add(band_h), area.width, main_h - band_h);
    let status = Rect::new(x, y.saturating_add(main_h), area.width, STATUS_ROWS);
    Some(Panes {
        scale,
        top_player,
        board,
        bottom_player,
        header,
        moves,
        log,
        status,
    })
}

/// A rectangle of at most `w` x `h` centred in `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn within(inner: Rect, outer: Rect) -> bool {
        inner.x >= outer.x
            && inner.y >= outer.y
            && inner.right() <= outer.right()
            && inner.bottom() <= outer.bottom()
    }

    #[test]
    fn too_small_is_none() {
        assert!(panes(Rect::new(0, 0, 79, 24)).is_none());
        assert!(panes(Rect::new(0, 0, 80, 23)).is_none());
        assert!(panes(Rect::new(0, 0, 0, 0)).is_none());
    }

    #[test]
    fn squares_grow_with_the_terminal() {
        let small = panes(Rect::new(0, 0, 80, 24)).map(|p| p.scale);
        let mid = panes(Rect::new(0, 0, 100, 30)).map(|p| p.scale);
        let big = panes(Rect::new(0, 0, 120, 40)).map(|p| p.scale);
        let huge = panes(Rect::new(0, 0, 200, 60)).map(|p| p.scale);
        assert_eq!(small, Some(Scale { w: 3, h: 1 }));
        assert_eq!(mid, Some(Scale { w: 5, h: 2 }));
        assert_eq!(big, Some(Scale { w: 7, h: 3 }));
        assert_eq!(huge, Some(Scale { w: 9, h: 4 }));
    }

    #[test]
    fn panes_stay_inside_and_do_not_overlap() {
        for (w, h) in [
            (80, 24),
            (81, 25),
            (100, 30),
            (120, 40),
            (300, 100),
            (u16::MAX, u16::MAX),
        ] {
            let area = Rect::new(0, 0, w, h);
            let p = panes(area).expect("big enough");
            let all = [
                p.top_player,
                p.board,
                p.bottom_player,
                p.header,
                p.moves,
                p.log,
                p.status,
            ];
            for (i, a) in all.iter().enumerate() {
                assert!(within(*a, area), "{w}x{h}: pane {i} {a:?} outside");
                for b in &all[i + 1..] {
                    assert!(!a.intersects(*b), "{w}x{h}: {a:?} overlaps {b:?}");
                }
            }
            assert_eq!(p.board.height, p.scale.board_height());
            assert_eq!(p.board.width, p.scale.board_width());
        }
    }
}

//! Screen geometry.

use serde::{Deserialize, Serialize};

/// A rectangle in screen coordinates (pixels, origin at the top-left of the screen).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
}

impl Rect {
    pub fn new(x: i32, y: i32, width: i32, height: i32) -> Self {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.width <= 0 || self.height <= 0
    }

    pub fn contains(&self, x: i32, y: i32) -> bool {
        !self.is_empty()
            && x >= self.x
            && y >= self.y
            && x < self.x.saturating_add(self.width)
            && y < self.y.saturating_add(self.height)
    }

    /// The rectangle moved by (dx, dy).
    pub fn offset(&self, dx: i32, dy: i32) -> Rect {
        Rect::new(
            self.x.saturating_add(dx),
            self.y.saturating_add(dy),
            self.width,
            self.height,
        )
    }

    /// True when some of `self` lies inside `other`.
    pub fn intersects(&self, other: &Rect) -> bool {
        !self.is_empty()
            && !other.is_empty()
            && self.x < other.x.saturating_add(other.width)
            && other.x < self.x.saturating_add(self.width)
            && self.y < other.y.saturating_add(other.height)
            && other.y < self.y.saturating_add(self.height)
    }

    /// The part of `self` inside `other`; `None` when they do not meet.
    pub fn intersection(&self, other: &Rect) -> Option<Rect> {
        if !self.intersects(other) {
            return None;
        }
        let (left, top) = (self.x.max(other.x), self.y.max(other.y));
        let right = self
            .x
            .saturating_add(self.width)
            .min(other.x.saturating_add(other.width));
        let bottom = (self.y.saturating_add(self.height)).min(other.y.saturating_add(other.height));
        Some(Rect::new(left, top, right - left, bottom - top))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_intersection_is_the_part_inside_both() {
        let screen = Rect::new(0, 0, 100, 50);
        let inside = Rect::new(10, 10, 20, 20);
        assert_eq!(inside.intersection(&screen), Some(inside));
        let across = Rect::new(-26, 40, 200, 20);
        assert_eq!(
            across.intersection(&screen),
            Some(Rect::new(0, 40, 100, 10))
        );
        assert_eq!(Rect::new(200, 0, 5, 5).intersection(&screen), None);
    }
}

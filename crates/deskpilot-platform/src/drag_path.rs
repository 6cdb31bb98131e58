//! The pointer's path of a drag, paced as a person's: XDND drops only land when the source saw
//! the pointer pass its drag threshold in separate motions, and the target had time to answer
//! the source's position messages before the release (a release sent at once cancels the
//! drop: Thunar, Qt).

use std::time::Duration;

/// One pointer motion of a drag, and how long to wait after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub x: i32,
    pub y: i32,
    pub pause: Duration,
}

/// Motions that cross a drag threshold (GTK's default is 8 px, Qt's 10) before heading off.
const START_MOTIONS: i32 = 4;
const START_PX: i32 = 4;
/// Motions on the way to the target, and the time between two.
const TRAVEL_MOTIONS: i32 = 16;
const TRAVEL_PAUSE: Duration = Duration::from_millis(15);
/// Small motions over the target while its answers arrive (each motion is one more XDND
/// position message for it to accept).
const DWELL_MOTIONS: i32 = 3;
const DWELL_PAUSE: Duration = Duration::from_millis(80);

/// The motions after the press, from `from` to `to`; the last one is the drop point.
pub fn drag_path(from: (i32, i32), to: (i32, i32)) -> Vec<Step> {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = (f64::from(dx).hypot(f64::from(dy))).max(1.0);
    // The threshold is crossed toward the target (or downwards on a drop onto itself).
    let (ux, uy) = if dx == 0 && dy == 0 {
        (0.0, 1.0)
    } else {
        (f64::from(dx) / length, f64::from(dy) / length)
    };
    let mut steps = Vec::new();
    for i in 1..=START_MOTIONS {
        let along = f64::from(i * START_PX);
        steps.push(Step {
            x: from.0 + (ux * along).round() as i32,
            y: from.1 + (uy * along).round() as i32,
            pause: TRAVEL_PAUSE,
        });
    }
    let start = *steps.last().expect("start motions");
    for i in 1..=TRAVEL_MOTIONS {
        steps.push(Step {
            x: start.x + (to.0 - start.x) * i / TRAVEL_MOTIONS,
            y: start.y + (to.1 - start.y) * i / TRAVEL_MOTIONS,
            pause: TRAVEL_PAUSE,
        });
    }
    // Wiggle by a pixel and come back: the drop point is the target's centre.
    for i in 0..DWELL_MOTIONS {
        let offset = if i % 2 == 0 { 1 } else { 0 };
        steps.push(Step {
            x: to.0 + offset,
            y: to.1,
            pause: DWELL_PAUSE,
        });
    }
    steps.push(Step {
        x: to.0,
        y: to.1,
        pause: DWELL_PAUSE,
    });
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_crosses_the_threshold_in_steps_and_dwells_on_the_target() {
        let path = drag_path((100, 336), (100, 308));
        // Past 10 px from the press within the first motions, none of them a jump.
        let first = path[START_MOTIONS as usize - 1];
        assert!((336 - first.y) >= 10, "{first:?}");
        let mut last = (100, 336);
        for step in &path {
            assert!(
                (step.y - last.1).abs() <= START_PX,
                "{step:?} after {last:?}"
            );
            last = (step.x, step.y);
        }
        // Ends on the target after dwelling there.
        assert_eq!(last, (100, 308));
        let dwell: Duration = path
            .iter()
            .filter(|s| (s.x - 100).abs() <= 1 && s.y == 308)
            .map(|s| s.pause)
            .sum();
        assert!(dwell >= Duration::from_millis(300), "{dwell:?}");
    }

    #[test]
    fn a_drop_onto_the_press_point_still_moves() {
        let path = drag_path((50, 50), (50, 50));
        assert!(path.iter().any(|s| s.y >= 60));
        assert_eq!(path.last().map(|s| (s.x, s.y)), Some((50, 50)));
    }
}

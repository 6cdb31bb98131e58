//! A 3x5 pixel font, drawn at 2x: enough for ref labels (`e`, digits) and a few letters.

/// Glyph height in pixels (after scaling).
pub const HEIGHT: i32 = 10;
const SCALE: i32 = 2;

/// Rows of 3 bits, top to bottom.
fn glyph(c: char) -> [u8; 5] {
    match c {
        '0' => [0b111, 0b101, 0b101, 0b101, 0b111],
        '1' => [0b010, 0b110, 0b010, 0b010, 0b111],
        '2' => [0b111, 0b001, 0b111, 0b100, 0b111],
        '3' => [0b111, 0b001, 0b111, 0b001, 0b111],
        '4' => [0b101, 0b101, 0b111, 0b001, 0b001],
        '5' => [0b111, 0b100, 0b111, 0b001, 0b111],
        '6' => [0b111, 0b100, 0b111, 0b101, 0b111],
        '7' => [0b111, 0b001, 0b010, 0b010, 0b010],
        '8' => [0b111, 0b101, 0b111, 0b101, 0b111],
        '9' => [0b111, 0b101, 0b111, 0b001, 0b111],
        'e' => [0b000, 0b111, 0b111, 0b100, 0b111],
        _ => [0b000, 0b000, 0b010, 0b000, 0b000],
    }
}

/// Width of `text` in pixels (after scaling).
pub fn width(text: &str) -> i32 {
    text.chars().count() as i32 * 4 * SCALE - SCALE
}

/// Calls `dot(x, y)` for every lit pixel of `text`.
pub fn draw(text: &str, mut dot: impl FnMut(i32, i32)) {
    for (i, c) in text.chars().enumerate() {
        let rows = glyph(c);
        for (row, bits) in rows.iter().enumerate() {
            for col in 0..3 {
                if bits & (0b100 >> col) != 0 {
                    for sy in 0..SCALE {
                        for sx in 0..SCALE {
                            dot(
                                i as i32 * 4 * SCALE + col * SCALE + sx,
                                row as i32 * SCALE + sy,
                            );
                        }
                    }
                }
            }
        }
    }
}

//! A 5x7 pixel font for ref labels (`e` and digits): legible to a model at 1:1, 7 px tall.

/// Glyph height in pixels.
pub const HEIGHT: i32 = 7;
/// Glyph width plus one column of space.
const ADVANCE: i32 = 6;

/// Rows of 5 bits, top to bottom.
fn glyph(c: char) -> [u8; 7] {
    match c {
        '0' => [
            0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110,
        ],
        '1' => [
            0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110,
        ],
        '2' => [
            0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111,
        ],
        '3' => [
            0b11110, 0b00001, 0b00001, 0b01110, 0b00001, 0b00001, 0b11110,
        ],
        '4' => [
            0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010,
        ],
        '5' => [
            0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110,
        ],
        '6' => [
            0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110,
        ],
        '7' => [
            0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000,
        ],
        '8' => [
            0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110,
        ],
        '9' => [
            0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100,
        ],
        'e' => [
            0b00000, 0b00000, 0b01110, 0b10001, 0b11111, 0b10000, 0b01110,
        ],
        _ => [0, 0, 0, 0b00100, 0, 0, 0],
    }
}

/// Width of `text` in pixels.
pub fn width(text: &str) -> i32 {
    (text.chars().count() as i32 * ADVANCE - 1).max(0)
}

/// Calls `dot(x, y)` for every lit pixel of `text`.
pub fn draw(text: &str, mut dot: impl FnMut(i32, i32)) {
    for (i, c) in text.chars().enumerate() {
        for (row, bits) in glyph(c).iter().enumerate() {
            for col in 0..5 {
                if bits & (0b10000 >> col) != 0 {
                    dot(i as i32 * ADVANCE + col, row as i32);
                }
            }
        }
    }
}

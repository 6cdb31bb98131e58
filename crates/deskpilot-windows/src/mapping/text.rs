//! Text as the model has it. Win32 edits (and the Text pattern over them) report a line
//! break as CR LF; deskpilot writes one as LF (a typed `\n` is Enter). What is read is
//! compared with what was typed once CR LF reads as LF.

/// `text` with every CR LF as LF.
pub fn line_feeds(text: String) -> String {
    match text.contains("\r\n") {
        true => text.replace("\r\n", "\n"),
        false => text,
    }
}

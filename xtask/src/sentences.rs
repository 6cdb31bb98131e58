//! A ratchet on long comment sentences: one idea per sentence (`STYLE.md`). Consecutive
//! comment lines are one text, split into sentences at a `. ` before a capital; a sentence
//! over `MAX_WORDS` words counts, and never more than `LIMIT` of them.

use crate::lexed::Lexed;

/// A sentence longer than this many words counts.
pub const MAX_WORDS: usize = 40;

/// At most this many long sentences: the count when the ratchet was set (2026-12-03). The
/// review's script counted 65 at 25baa15; this one also reads `xtask/src` and trailing
/// comments. Lower it as sentences are split.
pub const LIMIT: usize = 101;

/// Each long sentence of a lexed file: its comment run's first line (from 1) and its words.
pub fn long_ones(lexed: &Lexed) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut run = String::new();
    let mut run_start = 0;
    for (n, comment) in lexed.comments.iter().enumerate() {
        if comment.is_empty() || !lexed.code[n].trim().is_empty() {
            found.extend(sentences_over(&run).map(|words| (run_start + 1, words)));
            run.clear();
            if comment.is_empty() {
                continue;
            }
        }
        if run.is_empty() {
            run_start = n;
        }
        run.push(' ');
        run.push_str(comment);
    }
    found.extend(sentences_over(&run).map(|words| (run_start + 1, words)));
    found
}

/// The word counts of `text`'s sentences over `MAX_WORDS`.
fn sentences_over(text: &str) -> impl Iterator<Item = usize> + '_ {
    split_sentences(text)
        .into_iter()
        .map(|s| s.split_whitespace().count())
        .filter(|words| *words > MAX_WORDS)
}

/// `text` cut after each `. ` (or `? `, `! `) that a capital follows.
fn split_sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut from = 0;
    let bytes = text.as_bytes();
    for i in 0..bytes.len().saturating_sub(2) {
        let ends = matches!(bytes[i], b'.' | b'?' | b'!') && bytes[i + 1] == b' ';
        if ends && text[i + 2..].starts_with(|c: char| c.is_uppercase()) {
            out.push(&text[from..=i]);
            from = i + 2;
        }
    }
    out.push(&text[from..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexed::lex;

    #[test]
    fn a_sentence_of_41_words_over_two_lines_is_long() {
        let words = |n: usize| format!("Word{}", " word".repeat(n - 1));
        let text = format!(
            "// Short one. {}\n// {}.\nfn f() {{}}\n",
            words(20),
            words(21)
        );
        assert_eq!(long_ones(&lex(&text)), [(1, 41)]);
        let text = format!("// Short one. {}\n// {}.\n", words(20), words(20));
        assert!(long_ones(&lex(&text)).is_empty());
    }

    #[test]
    fn a_trailing_comment_ends_a_run() {
        let words = vec!["word"; 30].join(" ");
        let text = format!("// {words}\nlet a = 1; // {words}\n");
        assert!(long_ones(&lex(&text)).is_empty());
    }
}

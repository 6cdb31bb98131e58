//! Comparing an element's subtree with an expected compact tree (refs aside): strictly (every
//! line, in order, at its level, with the same flags) or partially (the expected lines appear
//! in order; other lines, levels and flags may be there too). A name written `/regex/` instead
//! of quoted matches by regular expression.

use deskpilot_core::present::{TreeLine, parse_tree};

/// How an expected tree is compared.
///
/// ```
/// use deskpilot_test::TreeMatch;
/// // `expect(&dialog).to_match_tree(tree, TreeMatch::Partial)`: these lines, in order.
/// let mode = TreeMatch::Partial;
/// assert_ne!(mode, TreeMatch::Strict); // Strict: every line, level and flag
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeMatch {
    /// The same lines, levels and flags (the default: a partial default hides regressions).
    Strict,
    /// The expected lines appear in this order; anything else may be there too.
    Partial,
}

/// Whether `actual` (the compact tree as rendered) matches `expected`; the reason when not.
pub(crate) fn compare(expected: &str, actual: &str, mode: TreeMatch) -> Result<(), String> {
    let expected = parse_tree(expected).map_err(|e| format!("the expected tree: {e}"))?;
    let actual = parse_tree(actual).map_err(|e| format!("the app's tree: {e}"))?;
    let base = |lines: &[TreeLine]| lines.first().map_or(0, |l| l.depth);
    let (eb, ab) = (base(&expected), base(&actual));
    match mode {
        TreeMatch::Strict => {
            if expected.len() != actual.len() {
                return Err(format!(
                    "{} lines expected, {} found",
                    expected.len(),
                    actual.len()
                ));
            }
            for (i, (e, a)) in expected.iter().zip(&actual).enumerate() {
                if e.depth - eb != a.depth.saturating_sub(ab) || !same(e, a, mode)? {
                    return Err(format!("line {} differs", i + 1));
                }
            }
            Ok(())
        }
        TreeMatch::Partial => {
            let mut rest = actual.iter();
            for (i, e) in expected.iter().enumerate() {
                let mut found = false;
                for a in rest.by_ref() {
                    if same(e, a, mode)? {
                        found = true;
                        break;
                    }
                }
                if !found {
                    return Err(format!("expected line {} not found in order", i + 1));
                }
            }
            Ok(())
        }
    }
}

fn same(e: &TreeLine, a: &TreeLine, mode: TreeMatch) -> Result<bool, String> {
    if e.role != a.role {
        return Ok(false);
    }
    let name_ok = match &e.name_pattern {
        Some(pattern) => {
            let inner = pattern.trim_start_matches('/').trim_end_matches('/');
            let regex = regex::Regex::new(inner).map_err(|err| format!("{pattern}: {err}"))?;
            regex.is_match(a.name.as_deref().unwrap_or(""))
        }
        None => e.name == a.name || (mode == TreeMatch::Partial && e.name.is_none()),
    };
    let value_ok = match mode {
        TreeMatch::Strict => e.value == a.value,
        TreeMatch::Partial => e.value.is_none() || e.value == a.value,
    };
    let flags_ok = match mode {
        TreeMatch::Strict => e.flags == a.flags,
        TreeMatch::Partial => e.flags.iter().all(|f| a.flags.contains(f)),
    };
    Ok(name_ok && value_ok && flags_ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    const APP: &str = "- window \"Main\" [ref=e1]\n - button \"Save\" [focused] [ref=e2]\n - checkbox \"Wrap\" [checked] [ref=e3]\n - textbox \"Name\": \"Ada\" [ref=e4]\n";

    #[test]
    fn strict_wants_every_line_and_partial_the_ones_given() {
        let all = "- window \"Main\"\n - button \"Save\" [focused]\n - checkbox \"Wrap\" [checked]\n - textbox \"Name\": \"Ada\"\n";
        assert_eq!(compare(all, APP, TreeMatch::Strict), Ok(()));
        let some = "- button /Sa.e/\n- textbox \"Name\": \"Ada\"\n";
        assert!(compare(some, APP, TreeMatch::Strict).is_err());
        assert_eq!(compare(some, APP, TreeMatch::Partial), Ok(()));
        let unchecked = "- window \"Main\"\n - button \"Save\" [focused]\n - checkbox \"Wrap\"\n - textbox \"Name\": \"Ada\"\n";
        assert!(
            compare(unchecked, APP, TreeMatch::Strict).is_err(),
            "a flag missing"
        );
        let out_of_order = "- textbox \"Name\"\n- button \"Save\"\n";
        assert!(compare(out_of_order, APP, TreeMatch::Partial).is_err());
        let other_value = "- textbox \"Name\": \"Grace\"\n";
        assert!(compare(other_value, APP, TreeMatch::Partial).is_err());
    }
}

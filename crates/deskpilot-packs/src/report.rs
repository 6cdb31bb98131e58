//! What a pack's validation says: errors (the pack is not loaded) and warnings (it is), each
//! with its file and the JSON path in it.

use schemars::JsonSchema;
use serde::Serialize;

/// One thing said of a pack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Finding {
    /// The pack's directory (or `shipped:ID` for a pack in the binary).
    pub pack: String,
    /// The file, when one is meant (`controls.json`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub file: String,
    /// A JSON pointer into the file (`/controls/save/within`); empty for the whole file.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub path: String,
    /// A stable word: schema, not_json, missing_file, too_large, escape, duplicate_id,
    /// unknown_control, within_cycle, unknown_page, unknown_group, verb, unsafe_retry,
    /// reserved_id, dangling_reference, bad_inputs, step (a run_steps problem), literal
    /// (an absolute path, pid, window id or coordinate), secret (a warning).
    pub code: String,
    pub message: String,
}

/// Errors and warnings of one check.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Report {
    pub errors: Vec<Finding>,
    pub warnings: Vec<Finding>,
}

impl Report {
    pub fn valid(&self) -> bool {
        self.errors.is_empty()
    }

    pub fn extend(&mut self, other: Report) {
        self.errors.extend(other.errors);
        self.warnings.extend(other.warnings);
    }
}

/// Findings about one file of one pack.
pub struct Notes<'a> {
    pub pack: &'a str,
    pub file: &'a str,
    pub report: &'a mut Report,
}

impl Notes<'_> {
    pub fn error(&mut self, path: &str, code: &str, message: impl Into<String>) {
        let finding = self.finding(path, code, message.into());
        self.report.errors.push(finding);
    }

    pub fn warn(&mut self, path: &str, code: &str, message: impl Into<String>) {
        let finding = self.finding(path, code, message.into());
        self.report.warnings.push(finding);
    }

    fn finding(&self, path: &str, code: &str, message: String) -> Finding {
        Finding {
            pack: self.pack.to_owned(),
            file: self.file.to_owned(),
            path: path.to_owned(),
            code: code.to_owned(),
            message,
        }
    }
}

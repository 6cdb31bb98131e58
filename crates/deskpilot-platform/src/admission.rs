//! Secrets before values: which elements of a bulk read may have their value fetched, decided
//! before any value is. A platform whose bulk read could return values with everything else
//! (UI Automation's cache requests) reads in two passes: the first learns what makes an
//! element secret (a password field, or a place inside one), the second fetches values only
//! where `ValueAdmission` admits them. A secret's value is then never requested at all.

/// The elements of one bulk read whose values may be fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueAdmission {
    admitted: Vec<bool>,
}

impl ValueAdmission {
    /// From the first pass: `parents[i]` is element i's parent (parents come before their
    /// children; `None` at the root), `password[i]` says element i is a password field, and
    /// `root_inside_secret` that the read starts inside one.
    pub fn decide(parents: &[Option<usize>], password: &[bool], root_inside_secret: bool) -> Self {
        let mut secret = vec![false; parents.len()];
        for i in 0..parents.len() {
            let inside = match parents[i] {
                Some(parent) => secret[parent],
                None => root_inside_secret,
            };
            secret[i] = inside || password.get(i).copied().unwrap_or(true);
        }
        ValueAdmission {
            admitted: secret.into_iter().map(|s| !s).collect(),
        }
    }

    /// Whether element `i`'s value may be fetched (an unknown element's may not).
    pub fn admits(&self, i: usize) -> bool {
        self.admitted.get(i).copied().unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::ValueAdmission;

    /// A password field and everything below it are never fetched; the rest are.
    #[test]
    fn nothing_in_or_under_a_password_field_is_admitted() {
        // 0 window, 1 field, 2 password, 3 inside the password, 4 a sibling after it.
        let parents = [None, Some(0), Some(0), Some(2), Some(0)];
        let password = [false, false, true, false, false];
        let admission = ValueAdmission::decide(&parents, &password, false);
        let admitted: Vec<bool> = (0..6).map(|i| admission.admits(i)).collect();
        assert_eq!(admitted, [true, true, false, false, true, false]);
        let inside = ValueAdmission::decide(&parents, &password, true);
        assert!((0..5).all(|i| !inside.admits(i)));
    }
}

//! The issuer's signing keys, kept as long as their answer's `Cache-Control` allows (within
//! `KEEP_AT_LEAST` and `KEEP_AT_MOST`). A token naming a key not among them fetches them
//! again (a rotation); when that finds nothing new or fails, none for `QUIET`. Keys past
//! their time serve on while the issuer does not answer.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::Jwk;
use serde_json::Value;

use super::Problem;
use super::discovery;
use super::fetch::Fetcher;

/// Kept this long when the answer says nothing, or less than this.
const KEEP_AT_LEAST: Duration = Duration::from_secs(60);
/// Kept at most this long, whatever the answer says.
const KEEP_AT_MOST: Duration = Duration::from_secs(24 * 3600);
/// Kept this long when the answer gives no `max-age`.
const KEEP_BY_DEFAULT: Duration = Duration::from_secs(300);
/// After a fetch that failed or did not find a token's key, none for this long.
const QUIET: Duration = Duration::from_secs(10);

/// Where the keys come from.
pub enum Source {
    /// The `jwks_uri` of the issuer's metadata (RFC 8414 or OpenID Connect discovery).
    Issuer { issuer: String, fetcher: Fetcher },
    /// A JWKS file (an air-gapped cluster), read again as a fetch would be.
    File(PathBuf),
}

#[derive(Default)]
struct State {
    keys: Vec<Jwk>,
    jwks_uri: Option<String>,
    fresh_until: Option<Instant>,
    quiet_until: Option<Instant>,
}

pub struct Keys {
    source: Source,
    state: tokio::sync::Mutex<State>,
}

impl Keys {
    pub fn new(source: Source) -> Self {
        Keys {
            source,
            state: Default::default(),
        }
    }

    /// The keys that may have signed a token naming `kid` (all keys when it names none).
    pub async fn for_kid(&self, kid: Option<&str>) -> Result<Vec<Jwk>, Problem> {
        let mut state = self.state.lock().await;
        let now = Instant::now();
        let fresh = state.fresh_until.is_some_and(|t| now < t);
        let quiet = state.quiet_until.is_some_and(|t| now < t);
        if (!fresh || matching(&state.keys, kid).is_empty()) && !quiet {
            match self.load(&mut state).await {
                Ok((keys, keep)) => {
                    state.keys = keys;
                    state.fresh_until = Some(now + keep);
                }
                Err(e) => {
                    tracing::warn!("the OAuth issuer's keys: {e}");
                    state.quiet_until = Some(now + QUIET);
                }
            }
        }
        let found = matching(&state.keys, kid);
        if found.is_empty() {
            if state.keys.is_empty() {
                return Err(Problem::KeysUnavailable);
            }
            state.quiet_until.get_or_insert(now + QUIET);
            return Err(Problem::UnknownKey);
        }
        Ok(found)
    }

    /// The current key set and how long to keep it.
    async fn load(&self, state: &mut State) -> Result<(Vec<Jwk>, Duration), String> {
        let (json, max_age) = match &self.source {
            Source::File(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let json = serde_json::from_str(&text)
                    .map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
                (json, None)
            }
            Source::Issuer { issuer, fetcher } => {
                let uri = match &state.jwks_uri {
                    Some(uri) => uri.clone(),
                    None => discovery::jwks_uri(fetcher, issuer).await?,
                };
                state.jwks_uri = Some(uri.clone());
                let fetched = fetcher.get(&uri).await.map_err(|e| e.message)?;
                (fetched.json, fetched.max_age)
            }
        };
        let keys = parse_set(&json)?;
        Ok((keys, keep_for(max_age)))
    }
}

/// How long a key set is kept, from its answer's `max-age`.
fn keep_for(max_age: Option<Duration>) -> Duration {
    max_age
        .unwrap_or(KEEP_BY_DEFAULT)
        .clamp(KEEP_AT_LEAST, KEEP_AT_MOST)
}

/// The keys of a JWKS that deskpilot can read (others, of types it does not know, are skipped).
fn parse_set(json: &Value) -> Result<Vec<Jwk>, String> {
    let keys = json["keys"]
        .as_array()
        .ok_or("the key set has no \"keys\" list")?;
    let keys: Vec<Jwk> = keys
        .iter()
        .filter_map(|k| serde_json::from_value(k.clone()).ok())
        .collect();
    if keys.is_empty() {
        return Err("the key set has no key deskpilot can read".into());
    }
    Ok(keys)
}

fn matching(keys: &[Jwk], kid: Option<&str>) -> Vec<Jwk> {
    keys.iter()
        .filter(|k| kid.is_none_or(|kid| k.common.key_id.as_deref() == Some(kid)))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_set_is_kept_within_bounds() {
        let secs = Duration::from_secs;
        assert_eq!(keep_for(None), KEEP_BY_DEFAULT);
        assert_eq!(keep_for(Some(secs(0))), KEEP_AT_LEAST);
        assert_eq!(keep_for(Some(secs(900))), secs(900));
        assert_eq!(keep_for(Some(secs(10_000_000))), KEEP_AT_MOST);
    }

    #[test]
    fn unreadable_keys_are_skipped_and_none_at_all_is_an_error() {
        let set = serde_json::json!({"keys": [
            {"kty": "EC", "crv": "P-256", "x": "AA", "y": "AA", "kid": "a"},
            {"kty": "weird"},
        ]});
        let keys = parse_set(&set).unwrap();
        assert_eq!(matching(&keys, Some("a")).len(), 1);
        assert!(matching(&keys, Some("b")).is_empty());
        assert_eq!(matching(&keys, None).len(), keys.len());
        assert!(parse_set(&serde_json::json!({"keys": []})).is_err());
        assert!(parse_set(&serde_json::json!({})).is_err());
    }
}

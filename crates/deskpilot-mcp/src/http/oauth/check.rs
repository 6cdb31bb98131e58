//! One access token checked against the keys that may have signed it: its header's algorithm
//! must be one its key allows (never `none`, never a shared secret), then its signature,
//! `iss`, `aud`, `exp` and `nbf` (within `LEEWAY`), and a subject.

use std::str::FromStr;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};

use super::Problem;

/// Seconds a token's `exp` and `nbf` may be off, for clocks that disagree.
pub const LEEWAY: u64 = 60;

/// What a token's header says, read before any key is chosen.
#[derive(Debug)]
pub struct Head {
    pub alg: Algorithm,
    pub kid: Option<String>,
}

/// The header of `token`; `none` and unknown algorithms are refused here.
pub fn head(token: &str) -> Result<Head, Problem> {
    let parts: Vec<&str> = token.split('.').collect();
    let [encoded, _, _] = parts[..] else {
        return Err(Problem::Malformed);
    };
    let bytes = URL_SAFE_NO_PAD
        .decode(encoded)
        .map_err(|_| Problem::Malformed)?;
    let header: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|_| Problem::Malformed)?;
    let alg = header["alg"].as_str().ok_or(Problem::Malformed)?;
    let alg = Algorithm::from_str(alg).map_err(|_| Problem::Algorithm)?;
    let kid = header["kid"].as_str().map(str::to_owned);
    Ok(Head { alg, kid })
}

/// The algorithms `jwk` may verify: those of its type and curve, narrowed to its `alg`. A
/// shared secret (`oct`) or an encryption key verifies nothing.
pub fn algorithms_of(jwk: &Jwk) -> Vec<Algorithm> {
    use Algorithm::*;
    if matches!(jwk.common.public_key_use, Some(PublicKeyUse::Encryption)) {
        return Vec::new();
    }
    let family: &[Algorithm] = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => &[RS256, RS384, RS512, PS256, PS384, PS512],
        AlgorithmParameters::EllipticCurve(p) => match p.curve {
            EllipticCurve::P256 => &[ES256],
            EllipticCurve::P384 => &[ES384],
            _ => &[],
        },
        AlgorithmParameters::OctetKeyPair(p) if p.curve == EllipticCurve::Ed25519 => &[EdDSA],
        _ => &[],
    };
    let named = jwk
        .common
        .key_algorithm
        .and_then(|a| serde_json::to_value(a).ok())
        .and_then(|a| a.as_str().and_then(|a| Algorithm::from_str(a).ok()));
    family
        .iter()
        .copied()
        .filter(|a| named.is_none_or(|named| named == *a))
        .collect()
}

/// What the issuer and audience must be.
pub struct Expected<'a> {
    pub issuer: &'a str,
    pub audience: &'a str,
}

/// What deskpilot reads of a token's claims (the others are checked by `Validation`); a
/// missing `sub` is the validation's to report.
#[derive(serde::Deserialize)]
struct Claims {
    sub: Option<String>,
}

/// The subject of `token`, checked with `key` (one `algorithms_of` allows for `alg`).
pub fn subject(
    token: &str,
    alg: Algorithm,
    key: &Jwk,
    expected: &Expected,
) -> Result<String, Problem> {
    let key = DecodingKey::from_jwk(key).map_err(|_| Problem::UnknownKey)?;
    let mut validation = Validation::new(alg);
    validation.leeway = LEEWAY;
    validation.validate_nbf = true;
    validation.set_audience(&[expected.audience]);
    validation.set_issuer(&[expected.issuer]);
    validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
    let data =
        jsonwebtoken::decode::<Claims>(token, &key, &validation).map_err(|e| match e.kind() {
            ErrorKind::ExpiredSignature => Problem::Expired,
            ErrorKind::ImmatureSignature => Problem::NotYetValid,
            ErrorKind::InvalidAudience => Problem::Audience,
            ErrorKind::InvalidIssuer => Problem::Issuer,
            ErrorKind::InvalidSignature => Problem::Signature,
            ErrorKind::MissingRequiredClaim(_) | ErrorKind::InvalidClaimFormat(_) => {
                Problem::Claims
            }
            ErrorKind::InvalidAlgorithm => Problem::Algorithm,
            _ => Problem::Malformed,
        })?;
    match data.claims.sub {
        Some(sub) if !sub.is_empty() => Ok(sub),
        _ => Err(Problem::Claims),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jwk(json: serde_json::Value) -> Jwk {
        serde_json::from_value(json).unwrap()
    }

    fn encoded(header: &str) -> String {
        format!("{}.e30.c2ln", URL_SAFE_NO_PAD.encode(header))
    }

    #[test]
    fn a_key_allows_the_algorithms_of_its_kind_and_its_alg() {
        use Algorithm::*;
        let rsa = serde_json::json!({"kty": "RSA", "n": "AQAB", "e": "AQAB"});
        assert_eq!(algorithms_of(&jwk(rsa.clone())).len(), 6);
        let mut named = rsa.clone();
        named["alg"] = "RS384".into();
        assert_eq!(algorithms_of(&jwk(named)), vec![RS384]);
        let ec = serde_json::json!({"kty": "EC", "crv": "P-256", "x": "AA", "y": "AA"});
        assert_eq!(algorithms_of(&jwk(ec.clone())), vec![ES256]);
        let mut wrong = ec;
        wrong["alg"] = "RS256".into();
        assert!(algorithms_of(&jwk(wrong)).is_empty());
        let secret = serde_json::json!({"kty": "oct", "k": "c2VjcmV0", "alg": "HS256"});
        assert!(algorithms_of(&jwk(secret)).is_empty());
        let mut encryption = rsa;
        encryption["use"] = "enc".into();
        assert!(algorithms_of(&jwk(encryption)).is_empty());
    }

    #[test]
    fn a_header_without_an_algorithm_deskpilot_verifies_is_refused() {
        let head_of = |h: &str| head(&encoded(h));
        let ok = head_of(r#"{"alg":"ES256","kid":"k1"}"#).unwrap();
        assert_eq!((ok.alg, ok.kid.as_deref()), (Algorithm::ES256, Some("k1")));
        assert_eq!(
            head_of(r#"{"alg":"none"}"#).unwrap_err(),
            Problem::Algorithm
        );
        assert_eq!(head_of(r#"{"alg":"XS1"}"#).unwrap_err(), Problem::Algorithm);
        assert_eq!(head_of(r#"{"kid":"k1"}"#).unwrap_err(), Problem::Malformed);
        assert_eq!(head("opaque-token").unwrap_err(), Problem::Malformed);
        assert_eq!(head("a.b").unwrap_err(), Problem::Malformed);
    }
}

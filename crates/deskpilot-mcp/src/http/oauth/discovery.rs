//! The issuer's `jwks_uri`, from its metadata: RFC 8414's `oauth-authorization-server`, then
//! OpenID Connect's `openid-configuration`, in the order MCP's authorization asks of clients.
//! The metadata must name the configured issuer (RFC 8414 §3.3).

use super::fetch::Fetcher;

/// Where an issuer's metadata may be, first to last.
pub fn metadata_urls(issuer: &str) -> Vec<String> {
    let issuer = issuer.trim_end_matches('/');
    let (origin, path) = split_origin(issuer);
    let mut urls = vec![format!(
        "{origin}/.well-known/oauth-authorization-server{path}"
    )];
    if !path.is_empty() {
        urls.push(format!("{origin}/.well-known/openid-configuration{path}"));
    }
    urls.push(format!("{issuer}/.well-known/openid-configuration"));
    urls
}

/// `https://host:port` and the path after it (empty, or starting with `/`).
fn split_origin(url: &str) -> (&str, &str) {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find('/') {
        Some(i) => url.split_at(after_scheme + i),
        None => (url, ""),
    }
}

/// The key set's URL the issuer's metadata gives.
pub async fn jwks_uri(fetcher: &Fetcher, issuer: &str) -> Result<String, String> {
    let mut misses = Vec::new();
    for url in metadata_urls(issuer) {
        let metadata = match fetcher.get(&url).await {
            Ok(fetched) => fetched.json,
            // Another place on a server that answered may have it; one that did not, no.
            Err(e) if e.answered => {
                misses.push(e.message);
                continue;
            }
            Err(e) => return Err(e.message),
        };
        let named = metadata["issuer"].as_str().unwrap_or_default();
        if named.trim_end_matches('/') != issuer.trim_end_matches('/') {
            return Err(format!(
                "{url} names the issuer {named:?}, not {issuer:?}: refused (RFC 8414 §3.3)"
            ));
        }
        return metadata["jwks_uri"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("{url} gives no jwks_uri"));
    }
    Err(format!("no metadata for the issuer: {}", misses.join("; ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_is_looked_for_where_rfc_8414_and_openid_put_it() {
        assert_eq!(
            metadata_urls("https://id.example.com/"),
            [
                "https://id.example.com/.well-known/oauth-authorization-server",
                "https://id.example.com/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            metadata_urls("https://id.example.com:8443/realms/desk"),
            [
                "https://id.example.com:8443/.well-known/oauth-authorization-server/realms/desk",
                "https://id.example.com:8443/.well-known/openid-configuration/realms/desk",
                "https://id.example.com:8443/realms/desk/.well-known/openid-configuration",
            ]
        );
    }
}

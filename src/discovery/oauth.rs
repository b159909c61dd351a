//! OAuth for crawling protected servers: the client-credentials grant.
//!
//! When a server answers 401 (MCP 2025-11-25 and 2026-07-28, Authorization
//! §Authorization Server Discovery), the scanner:
//!
//! 1. reads the `WWW-Authenticate` challenge for `resource_metadata` and
//!    `scope` (RFC 6750 §3, RFC 9728 §5.1);
//! 2. fetches the protected resource metadata (RFC 9728 §3) from that URL, or
//!    from the `.well-known/oauth-protected-resource` URLs of the server's
//!    origin (path-suffixed first, then the root), and checks that its
//!    `resource` is the crawled server (RFC 9728 §3.3);
//! 3. fetches the first authorisation server's metadata (RFC 8414 §3, then
//!    OpenID Connect Discovery 1.0 §4, in the order the MCP specification
//!    gives) and checks its `issuer` (RFC 8414 §3.3);
//! 4. requests a token from its `token_endpoint` with the `client_credentials`
//!    grant (RFC 6749 §4.4), the resource indicator (RFC 8707 §2) and only the
//!    scopes the challenge or the metadata named, authenticating with
//!    `client_secret_basic` or `client_secret_post` (RFC 6749 §2.3.1) as the
//!    metadata allows, or with a `private_key_jwt` client assertion (RFC 7523
//!    §2.2, `client_assertion.rs`) when the credentials are a key;
//! 5. obtains a new token shortly before it expires: with the refresh token
//!    when one was issued (RFC 6749 §6), else with the same grant.
//!
//! Every request goes through the crawl's SSRF-guarded client and byte meter:
//! metadata documents and token answers are hostile input like any other. The
//! client secret goes only to the token endpoint the metadata names; the
//! caller's static headers and the token go only to the server's own origin
//! (`transport.rs`). Nothing secret is logged or put in an error message.
//! Credentials bound to an issuer are never sent to another one (2026-07-28,
//! Authorization: credentials are keyed by the issuer that issued them).

use std::time::Duration;

use base64::Engine;
use reqwest::Url;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderValue};
use serde_json::Value;
use tokio::time::Instant;

use super::client_assertion;
use super::http::{Fault, check_url, describe, read_body};
use super::jsonrpc;
use super::transport::Link;
use super::{ClientAuth, OAuthCredentials};
use crate::snapshot::AuthInfo;

/// How long before its expiry a token is replaced.
const EXPIRY_MARGIN: Duration = Duration::from_secs(30);

/// Longest access or refresh token accepted (they are echoed in a header).
const MAX_TOKEN_LEN: usize = 8192;

/// Most scopes kept from a challenge or metadata document, and the longest one.
const MAX_SCOPES: usize = 32;
const MAX_SCOPE_LEN: usize = 128;

/// What the flow knows between requests of one crawl.
pub(crate) struct OAuthState {
    credentials: Option<OAuthCredentials>,
    /// The crawled server: the resource indicator, and the origin metadata is discovered on.
    server: Url,
    /// Scopes from the challenge or the protected resource metadata.
    scopes: Vec<String>,
    /// The issuer and token endpoint, once discovered.
    issuer: Option<String>,
    token_endpoint: Option<Url>,
    /// Client authentication methods the authorisation server lists (empty: not said).
    auth_methods: Vec<String>,
    /// `token_endpoint_auth_signing_alg_values_supported` (empty: not said).
    signing_algs: Vec<String>,
    refresh_token: Option<String>,
    expires_at: Option<Instant>,
    /// Whether the flow ran at all (the server asked for OAuth).
    asked: bool,
    /// Why the last attempt failed, for the crawl failure's message.
    failure: Option<String>,
}

impl OAuthState {
    /// The state for crawling `server` with `credentials` (if any).
    pub fn new(credentials: Option<OAuthCredentials>, server: Url) -> OAuthState {
        OAuthState {
            credentials,
            server,
            scopes: Vec::new(),
            issuer: None,
            token_endpoint: None,
            auth_methods: Vec::new(),
            signing_algs: Vec::new(),
            refresh_token: None,
            expires_at: None,
            asked: false,
            failure: None,
        }
    }

    /// `crawl.auth` for the snapshot: the scopes asked for and the issuer used.
    pub fn info(&self) -> Option<AuthInfo> {
        self.asked.then(|| AuthInfo {
            scopes: self.scopes.clone(),
            issuer: self.issuer.clone(),
        })
    }

    /// Whether the token in use expires within the margin.
    pub fn due(&self) -> bool {
        self.expires_at
            .is_some_and(|at| Instant::now() + EXPIRY_MARGIN >= at)
    }

    /// The scopes the server asked for: those of `challenge`, else those learnt so far.
    pub fn scopes_asked(&self, challenge: &str) -> Vec<String> {
        let from_challenge = challenge_param(challenge, "scope")
            .map(|s| split_scopes(&s))
            .unwrap_or_default();
        if from_challenge.is_empty() {
            self.scopes.clone()
        } else {
            from_challenge
        }
    }

    /// Why no token could be obtained, when credentials were given.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }
}

/// Runs the flow for a 401's `challenge` and returns the `Authorization` value.
///
/// Without credentials it still learns the scopes (from the challenge and the
/// protected resource metadata) for the failure message, then returns the 401.
pub(crate) async fn authorise(
    state: &mut OAuthState,
    link: &mut Link,
    challenge: &str,
    timeout: Duration,
) -> Result<HeaderValue, Fault> {
    state.asked = true;
    let unauthorized = || Fault::Unauthorized {
        challenge: challenge.to_string(),
    };
    let result = discover_and_grant(state, link, challenge, timeout).await;
    match result {
        Ok(bearer) => {
            state.failure = None;
            Ok(bearer)
        }
        Err(why) => {
            if state.credentials.is_some() {
                state.failure = Some(why);
            }
            Err(unauthorized())
        }
    }
}

/// Obtains a new token before the current one expires.
pub(crate) async fn refresh(
    state: &mut OAuthState,
    link: &mut Link,
    timeout: Duration,
) -> Result<HeaderValue, Fault> {
    state.expires_at = None;
    let result = match state.refresh_token.take() {
        Some(refresh_token) => {
            let form = vec![
                ("grant_type".to_string(), "refresh_token".to_string()),
                ("refresh_token".to_string(), refresh_token),
            ];
            match token_request(state, link, form, timeout).await {
                Ok(bearer) => Ok(bearer),
                // A refused refresh token: fall back to the grant itself.
                Err(_) => grant(state, link, timeout).await,
            }
        }
        None => grant(state, link, timeout).await,
    };
    result.map_err(|why| {
        state.failure = Some(why);
        Fault::Unauthorized {
            challenge: String::new(),
        }
    })
}

/// Steps 1 to 4 of the module documentation; the error is a message for people.
async fn discover_and_grant(
    state: &mut OAuthState,
    link: &mut Link,
    challenge: &str,
    timeout: Duration,
) -> Result<HeaderValue, String> {
    let from_challenge = challenge_param(challenge, "scope")
        .map(|s| split_scopes(&s))
        .unwrap_or_default();
    if !from_challenge.is_empty() {
        state.scopes = from_challenge;
    }
    if state.token_endpoint.is_none() {
        let metadata = protected_resource_metadata(state, link, challenge, timeout).await?;
        if state.scopes.is_empty() {
            state.scopes = metadata
                .get("scopes_supported")
                .and_then(Value::as_array)
                .map(|list| {
                    list.iter()
                        .filter_map(Value::as_str)
                        .take(MAX_SCOPES)
                        .filter(|s| is_scope_token(s))
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default();
        }
        if state.credentials.is_none() {
            return Err("no crawl credentials".into());
        }
        let issuer = metadata
            .get("authorization_servers")
            .and_then(Value::as_array)
            .and_then(|list| list.first())
            .and_then(Value::as_str)
            .ok_or("the protected resource metadata names no authorization server")?
            .to_string();
        let issuer_url =
            Url::parse(&issuer).map_err(|_| "the authorization server is not a URL".to_string())?;
        require_secure(&issuer_url, &state.server, "the authorization server")?;
        if let Some(bound) = state.credentials.as_ref().and_then(|c| c.issuer.as_deref())
            && bound != issuer
        {
            return Err(format!(
                "the crawl credentials belong to the issuer {bound:?}, but the server names {:?}",
                shown(&issuer)
            ));
        }
        authorization_server_metadata(state, link, &issuer_url, &issuer, timeout).await?;
    } else if state.credentials.is_none() {
        return Err("no crawl credentials".into());
    }
    grant(state, link, timeout).await
}

/// RFC 9728: the protected resource metadata of the crawled server.
async fn protected_resource_metadata(
    state: &OAuthState,
    link: &mut Link,
    challenge: &str,
    timeout: Duration,
) -> Result<serde_json::Map<String, Value>, String> {
    let origin = state.server.origin().ascii_serialization();
    let mut candidates = Vec::new();
    if let Some(url) = challenge_param(challenge, "resource_metadata") {
        candidates.push(url);
    } else {
        // RFC 9728 §3.1: the well-known segment goes between host and path.
        let path = state.server.path().trim_end_matches('/');
        if !path.is_empty() {
            candidates.push(format!(
                "{origin}/.well-known/oauth-protected-resource{path}"
            ));
        }
        candidates.push(format!("{origin}/.well-known/oauth-protected-resource"));
    }
    let mut last = String::from("no protected resource metadata was found");
    for candidate in candidates {
        let Ok(url) = Url::parse(&candidate) else {
            last = "the resource_metadata URL is not a URL".into();
            continue;
        };
        match get_json(link, url, timeout).await {
            Ok(metadata) => {
                check_resource(&metadata, &state.server)?;
                return Ok(metadata);
            }
            Err(why) => last = format!("protected resource metadata: {why}"),
        }
    }
    Err(last)
}

/// RFC 9728 §3.3: the metadata must be about the server being crawled.
fn check_resource(metadata: &serde_json::Map<String, Value>, server: &Url) -> Result<(), String> {
    let Some(resource) = metadata.get("resource").and_then(Value::as_str) else {
        return Err("the protected resource metadata has no resource".into());
    };
    let matches = Url::parse(resource).is_ok_and(|r| {
        let path = r.path().trim_end_matches('/');
        r.origin() == server.origin()
            && (path.is_empty() || server.path().trim_end_matches('/').starts_with(path))
    });
    if matches {
        Ok(())
    } else {
        Err(format!(
            "the protected resource metadata is for {:?}, not for the crawled server",
            shown(resource)
        ))
    }
}

/// RFC 8414 §3 and OpenID Connect Discovery: the authorisation server's metadata,
/// tried at the URLs the MCP specification lists (Authorization §Authorization
/// Server Metadata Discovery).
async fn authorization_server_metadata(
    state: &mut OAuthState,
    link: &mut Link,
    issuer_url: &Url,
    issuer: &str,
    timeout: Duration,
) -> Result<(), String> {
    let origin = issuer_url.origin().ascii_serialization();
    let path = issuer_url.path().trim_end_matches('/');
    let candidates = if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    };
    let mut last = String::from("no authorization server metadata was found");
    for candidate in candidates {
        let Ok(url) = Url::parse(&candidate) else {
            continue;
        };
        let metadata = match get_json(link, url, timeout).await {
            Ok(metadata) => metadata,
            Err(why) => {
                last = format!("authorization server metadata: {why}");
                continue;
            }
        };
        // RFC 8414 §3.3: a document about another issuer must not be used.
        let said = metadata.get("issuer").and_then(Value::as_str).unwrap_or("");
        if said.trim_end_matches('/') != issuer.trim_end_matches('/') {
            return Err(format!(
                "the authorization server metadata names the issuer {:?}, not {:?}",
                shown(said),
                shown(issuer)
            ));
        }
        let endpoint = metadata
            .get("token_endpoint")
            .and_then(Value::as_str)
            .and_then(|e| Url::parse(e).ok())
            .ok_or("the authorization server metadata has no token_endpoint URL")?;
        require_secure(&endpoint, &state.server, "the token endpoint")?;
        check_url(&endpoint, &link.policy)?;
        state.auth_methods = short_list(&metadata, "token_endpoint_auth_methods_supported");
        state.signing_algs = short_list(
            &metadata,
            "token_endpoint_auth_signing_alg_values_supported",
        );
        state.issuer = Some(issuer.to_string());
        state.token_endpoint = Some(endpoint);
        return Ok(());
    }
    Err(last)
}

/// The `client_credentials` grant.
async fn grant(
    state: &mut OAuthState,
    link: &mut Link,
    timeout: Duration,
) -> Result<HeaderValue, String> {
    let mut form = vec![("grant_type".to_string(), "client_credentials".to_string())];
    if !state.scopes.is_empty() {
        form.push(("scope".to_string(), state.scopes.join(" ")));
    }
    token_request(state, link, form, timeout).await
}

/// One token request (with the resource indicator and client authentication);
/// stores the refresh token and expiry and returns the `Authorization` value.
async fn token_request(
    state: &mut OAuthState,
    link: &mut Link,
    mut form: Vec<(String, String)>,
    timeout: Duration,
) -> Result<HeaderValue, String> {
    let credentials = state.credentials.as_ref().ok_or("no crawl credentials")?;
    let endpoint = state
        .token_endpoint
        .clone()
        .ok_or("no token endpoint is known")?;
    // RFC 8707 §2: the token is for this server only.
    form.push(("resource".to_string(), resource_indicator(&state.server)));
    let mut request = link
        .client
        .post(endpoint.clone())
        .header(ACCEPT, "application/json")
        .timeout(timeout);
    let supports = |method: &str| state.auth_methods.iter().any(|m| m == method);
    match &credentials.auth {
        ClientAuth::Secret(secret) => {
            // RFC 8414 §2: client_secret_basic is the default when nothing is listed.
            if state.auth_methods.is_empty() || supports("client_secret_basic") {
                // RFC 6749 §2.3.1: both halves form-urlencoded before Base64.
                let pair = format!(
                    "{}:{}",
                    form_encode(&credentials.client_id),
                    form_encode(secret)
                );
                let basic = base64::engine::general_purpose::STANDARD.encode(pair);
                let mut value = HeaderValue::from_str(&format!("Basic {basic}"))
                    .map_err(|_| "the client id or secret cannot be sent in a header")?;
                value.set_sensitive(true);
                request = request.header(AUTHORIZATION, value);
            } else if supports("client_secret_post") {
                form.push(("client_id".to_string(), credentials.client_id.clone()));
                form.push(("client_secret".to_string(), secret.clone()));
            } else {
                return Err(
                    "the authorization server accepts neither client_secret_basic nor client_secret_post"
                        .into(),
                );
            }
        }
        ClientAuth::PrivateKey(pem) => {
            if !state.auth_methods.is_empty() && !supports("private_key_jwt") {
                return Err("the authorization server does not accept private_key_jwt".into());
            }
            let issuer = state.issuer.as_deref().ok_or("no issuer is known")?;
            let assertion =
                client_assertion::sign(pem, &credentials.client_id, issuer, &state.signing_algs)?;
            // RFC 7523 §3: client_id is optional beside an assertion naming it; sent for
            // servers that look the client up before reading the assertion.
            form.push(("client_id".to_string(), credentials.client_id.clone()));
            form.push((
                "client_assertion_type".to_string(),
                client_assertion::ASSERTION_TYPE.to_string(),
            ));
            form.push(("client_assertion".to_string(), assertion));
        }
    }
    let body = form
        .iter()
        .map(|(k, v)| format!("{}={}", form_encode(k), form_encode(v)))
        .collect::<Vec<_>>()
        .join("&");
    let request = request
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(body);
    let mut response = request
        .send()
        .await
        .map_err(|e| format!("token request: {}", describe(&e)))?;
    super::http::check_peer(&response, &link.policy).map_err(|f| f.to_string())?;
    let status = response.status();
    let bytes = read_body(&mut response, &mut link.meter)
        .await
        .map_err(|f| format!("token response: {f}"))?;
    let answer = parse_one_meaning(&bytes, link).map_err(|f| format!("token response: {f}"))?;
    if !status.is_success() {
        // RFC 6749 §5.2: `error` is an ASCII code; it is quoted, never the description.
        let code = answer.get("error").and_then(Value::as_str).unwrap_or("");
        return Err(format!(
            "the token endpoint refused the request (HTTP {}, error {:?})",
            status.as_u16(),
            shown(code)
        ));
    }
    let token = answer
        .get("access_token")
        .and_then(Value::as_str)
        .filter(|t| is_token(t))
        .ok_or("the token response has no valid access_token")?;
    let kind = answer
        .get("token_type")
        .and_then(Value::as_str)
        .unwrap_or("");
    if !kind.eq_ignore_ascii_case("bearer") {
        return Err(format!("the token type is {:?}, not Bearer", shown(kind)));
    }
    state.expires_at = answer
        .get("expires_in")
        .and_then(Value::as_u64)
        .map(|s| Instant::now() + Duration::from_secs(s.min(u32::MAX as u64)));
    state.refresh_token = answer
        .get("refresh_token")
        .and_then(Value::as_str)
        .filter(|t| is_token(t))
        .map(str::to_string);
    let mut value = HeaderValue::from_str(&format!("Bearer {token}"))
        .map_err(|_| "the access token cannot be sent in a header")?;
    value.set_sensitive(true);
    Ok(value)
}

/// The first strings of a metadata array member (bounded: the document is hostile).
fn short_list(metadata: &serde_json::Map<String, Value>, key: &str) -> Vec<String> {
    metadata
        .get(key)
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .take(16)
                .filter(|m| m.len() <= 64)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// GETs a JSON object within the crawl's bounds.
async fn get_json(
    link: &mut Link,
    url: Url,
    timeout: Duration,
) -> Result<serde_json::Map<String, Value>, String> {
    check_url(&url, &link.policy)?;
    let request = link
        .client
        .get(url)
        .header(ACCEPT, "application/json")
        .timeout(timeout);
    let mut response = request.send().await.map_err(|e| describe(&e).to_string())?;
    super::http::check_peer(&response, &link.policy).map_err(|f| f.to_string())?;
    if !response.status().is_success() {
        return Err(format!("HTTP status {}", response.status().as_u16()));
    }
    let bytes = read_body(&mut response, &mut link.meter)
        .await
        .map_err(|f| f.to_string())?;
    match parse_one_meaning(&bytes, link)? {
        Value::Object(map) => Ok(map),
        _ => Err("not a JSON object".into()),
    }
}

/// Plain `http:` is refused for the authorisation server and token endpoint,
/// unless the crawled server itself is plain HTTP (a development set-up, which
/// the network policy must already have allowed).
fn require_secure(url: &Url, server: &Url, what: &str) -> Result<(), String> {
    match url.scheme() {
        "https" => Ok(()),
        "http" if server.scheme() == "http" => Ok(()),
        _ => Err(format!("{what} is not an https URL")),
    }
}

/// The resource indicator: the server's URL without fragment (RFC 8707 §2,
/// MCP Authorization §Canonical Server URI).
fn resource_indicator(server: &Url) -> String {
    let mut url = server.clone();
    url.set_fragment(None);
    url.to_string()
}

/// One parameter of a `Bearer` challenge (RFC 6750 §3): `name="value"` or `name=token`.
fn challenge_param(challenge: &str, name: &str) -> Option<String> {
    let mut rest = challenge.trim();
    let lower = rest.to_ascii_lowercase();
    if let Some(at) = lower.find("bearer") {
        rest = &rest[at + "bearer".len()..];
    }
    loop {
        rest = rest.trim_start_matches(|c: char| c == ',' || c.is_ascii_whitespace());
        let eq = rest.find('=')?;
        let key = rest[..eq].trim().to_ascii_lowercase();
        rest = &rest[eq + 1..];
        let value;
        if let Some(quoted) = rest.strip_prefix('"') {
            let mut out = String::new();
            let mut chars = quoted.char_indices();
            let mut end = quoted.len();
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, next)) = chars.next() {
                            out.push(next);
                        }
                    }
                    '"' => {
                        end = i + 1;
                        break;
                    }
                    c => out.push(c),
                }
            }
            value = out;
            rest = &quoted[end.min(quoted.len())..];
        } else {
            let end = rest
                .find(|c: char| c == ',' || c.is_ascii_whitespace())
                .unwrap_or(rest.len());
            value = rest[..end].to_string();
            rest = &rest[end..];
        }
        if key == name {
            return Some(value);
        }
    }
}

/// The scope tokens of a space-separated list, bounded (RFC 6749 §3.3 syntax).
fn split_scopes(text: &str) -> Vec<String> {
    text.split(' ')
        .filter(|s| is_scope_token(s))
        .take(MAX_SCOPES)
        .map(str::to_string)
        .collect()
}

/// RFC 6749 §3.3: `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )`, bounded.
fn is_scope_token(scope: &str) -> bool {
    (1..=MAX_SCOPE_LEN).contains(&scope.len())
        && scope
            .bytes()
            .all(|b| b == 0x21 || (0x23..=0x5b).contains(&b) || (0x5d..=0x7e).contains(&b))
}

/// A token safe to put in a header: visible ASCII, bounded.
fn is_token(token: &str) -> bool {
    (1..=MAX_TOKEN_LEN).contains(&token.len()) && token.bytes().all(|b| (0x21..=0x7e).contains(&b))
}

/// `application/x-www-form-urlencoded` encoding of one name or value.
fn form_encode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// Server text for a message: cut short, shown with `{:?}` by the caller.
fn shown(text: &str) -> String {
    text.chars().take(120).collect()
}

/// Parses an authorisation document, refusing one that repeats a key: the
/// issuer or endpoint a first-key parser reads would not be the one checked.
fn parse_one_meaning(bytes: &[u8], link: &mut Link) -> Result<Value, String> {
    let mut duplicates = Vec::new();
    let value = jsonrpc::parse(bytes, link.max_depth, &mut link.meter, &mut duplicates)
        .map_err(|f| f.to_string())?;
    match duplicates.first() {
        Some(pointer) => Err(format!("the document repeats the key at {pointer}")),
        None => Ok(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenge_parameters_are_read_quoted_or_bare() {
        let challenge = r#"Bearer error="invalid_token", resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp", scope="read write""#;
        assert_eq!(
            challenge_param(challenge, "resource_metadata").as_deref(),
            Some("https://a.example/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(
            challenge_param(challenge, "scope").as_deref(),
            Some("read write")
        );
        assert_eq!(
            challenge_param("Bearer scope=tools", "scope").as_deref(),
            Some("tools")
        );
        assert_eq!(challenge_param("Bearer", "scope"), None);
    }

    #[test]
    fn scopes_outside_the_rfc_character_set_are_dropped() {
        assert_eq!(
            split_scopes("read  wr\"ite tools:list"),
            vec!["read", "tools:list"]
        );
    }

    #[test]
    fn metadata_for_another_resource_is_refused() {
        let server = Url::parse("https://mcp.example/mcp").unwrap();
        let ok = serde_json::json!({"resource": "https://mcp.example/mcp"});
        let root = serde_json::json!({"resource": "https://mcp.example"});
        let other = serde_json::json!({"resource": "https://evil.example/mcp"});
        assert!(check_resource(ok.as_object().unwrap(), &server).is_ok());
        assert!(check_resource(root.as_object().unwrap(), &server).is_ok());
        assert!(check_resource(other.as_object().unwrap(), &server).is_err());
    }

    #[test]
    fn credentials_never_show_in_debug_output() {
        let credentials = OAuthCredentials {
            client_id: "id".into(),
            auth: ClientAuth::Secret("s3cr3t".into()),
            issuer: None,
        };
        assert!(!format!("{credentials:?}").contains("s3cr3t"));
        let options = crate::discovery::CrawlOptions {
            oauth: Some(credentials),
            headers: vec![("X-Api-Key".into(), "h3ader".into())],
            ..Default::default()
        };
        let shown = format!("{options:?}");
        assert!(
            shown.contains("X-Api-Key") && !shown.contains("h3ader") && !shown.contains("s3cr3t")
        );
    }
}

//! JSON over HTTPS to a chat platform's API (plain HTTP only to this machine, for the
//! stand-ins tests use). Outbound only; the token rides in the URL or a header and never
//! reaches a log line.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;

/// Why a call did not give an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// No connection, a timeout, or an answer that is not JSON: try again later.
    Network(String),
    /// The platform said no (a revoked token, a bad request); its words.
    Refused { status: u16, message: String, retry_after: Option<u64> },
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CallError::Network(why) => write!(f, "unreachable ({why})"),
            CallError::Refused { status, message, .. } => write!(f, "refused ({status}: {message})"),
        }
    }
}

/// What the platform answered.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The body.
    pub json: Value,
    /// Seconds to wait before the next call, when the platform said so in a header.
    pub retry_after: Option<u64>,
}

/// A client for one platform.
#[derive(Clone)]
pub struct Api {
    client: Client<hyper_rustls::HttpsConnector<HttpConnector>, Full<Bytes>>,
}

impl Api {
    /// A client trusting the system's roots, with the ring provider.
    pub fn new() -> Result<Self, String> {
        let provider = std::sync::Arc::new(rustls_ring());
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_native_roots(provider)
            .map_err(|e| format!("no TLS roots on this machine: {e}"))?
            .https_or_http()
            .enable_http1()
            .build();
        Ok(Api { client: Client::builder(TokioExecutor::new()).build(connector) })
    }

    /// POST `body` as JSON to `url` with `headers`; the answer's JSON, whatever its status.
    pub async fn post(
        &self,
        url: &str,
        headers: &[(&str, &str)],
        body: &Value,
        timeout: Duration,
    ) -> Result<Answer, CallError> {
        let mut req = hyper::Request::post(url).header("content-type", "application/json; charset=utf-8");
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let req = req
            .body(Full::new(Bytes::from(body.to_string())))
            .map_err(|e| CallError::Network(format!("bad request: {e}")))?;
        let call = async {
            let res = self.client.request(req).await.map_err(|e| CallError::Network(plain(&e)))?;
            let status = res.status().as_u16();
            let retry_after = res
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok());
            let bytes =
                res.into_body().collect().await.map_err(|e| CallError::Network(e.to_string()))?.to_bytes();
            let json = serde_json::from_slice(&bytes)
                .map_err(|_| CallError::Network(format!("HTTP {status} without JSON")))?;
            Ok(Answer { status, json, retry_after })
        };
        tokio::time::timeout(timeout, call).await.map_err(|_| CallError::Network("timed out".into()))?
    }
}

/// Whether `api` may carry a token: HTTPS anywhere, HTTP only to this machine.
pub fn safe_base(api: &str) -> bool {
    let Ok(url) = url::Url::parse(api) else { return false };
    match url.scheme() {
        "https" => true,
        "http" => matches!(url.host_str(), Some("127.0.0.1" | "localhost" | "[::1]")),
        _ => false,
    }
}

fn plain(e: &hyper_util::client::legacy::Error) -> String {
    use std::error::Error as _;
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text = format!("{text}: {s}");
        source = s.source();
    }
    text
}

fn rustls_ring() -> rustls::crypto::CryptoProvider {
    rustls::crypto::ring::default_provider()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_goes_over_https_or_to_this_machine_only() {
        assert!(safe_base("https://api.telegram.org"));
        assert!(safe_base("http://127.0.0.1:8081"));
        assert!(!safe_base("http://api.telegram.org"));
        assert!(!safe_base("http://10.0.0.2:8081"));
        assert!(!safe_base("ftp://x"));
    }
}

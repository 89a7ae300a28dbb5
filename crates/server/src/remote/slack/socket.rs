//! Opening a Socket Mode connection: `apps.connections.open` with the app-level token
//! gives a one-time WebSocket address, reached over TLS with the system's roots (plain
//! `ws://` only to this machine, for the stand-in tests use).

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;

use crate::remote::http::{Api, CallError};

/// Any byte stream the WebSocket can ride on.
pub trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// An open Socket Mode connection.
pub type Socket = WebSocketStream<Box<dyn Io>>;

/// Ask for a WebSocket address and connect to it.
pub async fn open(api: &Api, base: &str, app_token: &str) -> Result<Socket, CallError> {
    let auth = format!("Bearer {app_token}");
    let answer = api
        .post(
            &format!("{base}/apps.connections.open"),
            &[("authorization", &auth)],
            &serde_json::json!({}),
            Duration::from_secs(15),
        )
        .await?;
    let url = super::ok(answer)?.get("url").and_then(|u| u.as_str()).map(str::to_owned);
    let url = url.ok_or_else(|| CallError::Network("apps.connections.open gave no url".into()))?;
    connect(&url).await
}

async fn connect(address: &str) -> Result<Socket, CallError> {
    let bad = |why: &str| CallError::Network(format!("the socket address {why}"));
    let url = url::Url::parse(address).map_err(|_| bad("is not a URL"))?;
    let host = url.host_str().ok_or_else(|| bad("has no host"))?.to_owned();
    let tls = match url.scheme() {
        "wss" => true,
        // The messages are the person's: in the clear only to this machine.
        "ws" if matches!(host.as_str(), "127.0.0.1" | "localhost" | "[::1]") => false,
        _ => return Err(bad("is neither wss:// nor ws:// to this machine")),
    };
    let port = url.port_or_known_default().unwrap_or(if tls { 443 } else { 80 });
    let reach = async {
        let tcp = TcpStream::connect((host.trim_matches(['[', ']']), port))
            .await
            .map_err(|e| CallError::Network(e.to_string()))?;
        let stream: Box<dyn Io> = if tls { Box::new(wrap(tcp, &host).await?) } else { Box::new(tcp) };
        let (socket, _) = tokio_tungstenite::client_async(address, stream)
            .await
            .map_err(|e| CallError::Network(format!("WebSocket: {e}")))?;
        Ok(socket)
    };
    tokio::time::timeout(Duration::from_secs(20), reach)
        .await
        .map_err(|_| CallError::Network("timed out opening the socket".into()))?
}

async fn wrap(tcp: TcpStream, host: &str) -> Result<tokio_rustls::client::TlsStream<TcpStream>, CallError> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls_native_certs::load_native_certs().certs {
        let _ = roots.add(cert);
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| CallError::Network(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from(host.to_owned())
        .map_err(|e| CallError::Network(format!("the socket's host: {e}")))?;
    tokio_rustls::TlsConnector::from(Arc::new(config))
        .connect(name, tcp)
        .await
        .map_err(|e| CallError::Network(format!("TLS: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_socket_is_tls_or_on_this_machine() {
        for bad in ["ws://wss-primary.slack.example/link", "http://127.0.0.1:1/", "nonsense"] {
            let Err(CallError::Network(why)) = connect(bad).await else { panic!("{bad} was taken") };
            assert!(why.starts_with("the socket address"), "{why}");
        }
    }
}

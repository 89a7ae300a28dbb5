//! TLS to the team database, with the meanings `sslmode` has in libpq (what `psql` and
//! every PostgreSQL host's instructions use): `disable` sends plain text; `prefer` (the
//! default) and `require` encrypt without checking who answers, except that a
//! `sslrootcert` makes `require` check the chain as `verify-ca` does; `verify-ca` checks the chain, `verify-full` the chain and the host
//! name. The roots are `sslrootcert`'s certificates, or the system's when it is absent
//! or `system`. tokio-postgres knows only the first three modes and no root
//! certificates, so both come out of the URL here.

use std::path::PathBuf;
use std::sync::Arc;

use mooring_core::{Error, Result};
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme};
use tokio_postgres::config::SslMode;
use tokio_postgres_rustls::MakeRustlsConnect;

/// How a connection is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Plain text.
    Disable,
    /// Encrypted when the server offers it.
    Prefer,
    /// Encrypted, or no connection.
    Require,
    /// Encrypted, the server's certificate chain checked.
    VerifyCa,
    /// Encrypted, the chain and the host name checked.
    VerifyFull,
}

/// The TLS part of a team URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tls {
    /// The mode.
    pub mode: Mode,
    /// The certificate authority file, if the URL names one.
    pub root_cert: Option<PathBuf>,
}

impl Tls {
    /// Take `sslmode` and `sslrootcert` out of a `postgres://` URL or a key=value
    /// connection string: the rest for tokio-postgres, and the TLS settings.
    pub fn split(url: &str) -> Result<(String, Self)> {
        let mut tls = Self { mode: Mode::Prefer, root_cert: None };
        let settings = Settings::read(url)?;
        let mut kept = Vec::new();
        for (key, value) in settings.pairs() {
            match key.as_str() {
                "sslmode" => tls.mode = mode(&value)?,
                "sslrootcert" if value != "system" => tls.root_cert = Some(PathBuf::from(value)),
                "sslrootcert" => {}
                _ => kept.push((key, value)),
            }
        }
        Ok((settings.with_pairs(kept), tls))
    }

    /// `url` with a relative `sslrootcert` made absolute against `base` (where the person
    /// typed it), so the stored URL works from any directory later.
    pub fn absolute_root(url: &str, base: &std::path::Path) -> Result<String> {
        let settings = Settings::read(url)?;
        let mut changed = false;
        let pairs: Vec<(String, String)> = settings
            .pairs()
            .into_iter()
            .map(|(k, v)| {
                if k == "sslrootcert" && v != "system" && !std::path::Path::new(&v).is_absolute() {
                    changed = true;
                    let absolute = base.join(&v).display().to_string();
                    (k, absolute)
                } else {
                    (k, v)
                }
            })
            .collect();
        Ok(if changed { settings.with_pairs(pairs) } else { url.to_owned() })
    }

    /// Whether connections to `url`'s hosts are checked to reach the real server (or
    /// every host is this machine, where nobody sits in between).
    pub fn trusted_path(&self, url: &str) -> bool {
        let local =
            |h: &str| matches!(h, "" | "localhost" | "127.0.0.1" | "[::1]" | "::1") || h.starts_with('/');
        // libpq takes the last of a repeated setting; no host is the local socket.
        let all_local = match Settings::read(url) {
            Ok(Settings::Url(u)) => u.host_str().is_none_or(local),
            Ok(Settings::KeyValue(pairs)) => pairs
                .iter()
                .rev()
                .find(|(k, _)| k == "host" || k == "hostaddr")
                .is_none_or(|(_, hosts)| hosts.split(',').all(local)),
            Err(_) => false,
        };
        all_local || self.checks().is_some()
    }

    /// tokio-postgres's own mode for this one.
    pub fn ssl_mode(&self) -> SslMode {
        match self.mode {
            Mode::Disable => SslMode::Disable,
            Mode::Prefer => SslMode::Prefer,
            Mode::Require | Mode::VerifyCa | Mode::VerifyFull => SslMode::Require,
        }
    }

    /// What is checked of the server's certificate: `None` (nothing), `Some(false)`
    /// (the chain), `Some(true)` (the chain and the host name).
    fn checks(&self) -> Option<bool> {
        match self.mode {
            Mode::Disable | Mode::Prefer => None,
            Mode::Require if self.root_cert.is_none() => None,
            Mode::Require | Mode::VerifyCa => Some(false),
            Mode::VerifyFull => Some(true),
        }
    }

    /// One line for `mooring team status`.
    pub fn describe(&self) -> &'static str {
        match (self.mode, self.checks()) {
            (Mode::Disable, _) => "off (sslmode=disable)",
            (Mode::Prefer, None) => "when the server offers it, server not verified (sslmode=prefer)",
            (_, None) => "encrypted, server not verified (use sslmode=verify-full to check it)",
            (_, Some(false)) => "encrypted, server's certificate authority checked",
            (_, Some(true)) => "encrypted, server's certificate and host name checked",
        }
    }

    /// The connector for tokio-postgres.
    pub fn connector(&self) -> Result<MakeRustlsConnect> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .map_err(|e| Error::storage(format!("cannot set up TLS: {e}")))?;
        let verifier: Arc<dyn ServerCertVerifier> = match self.checks() {
            None => Arc::new(Unchecked(provider)),
            Some(host) => {
                let roots = Arc::new(self.roots()?);
                let webpki = WebPkiServerVerifier::builder_with_provider(roots, provider)
                    .build()
                    .map_err(|e| Error::storage(format!("cannot set up TLS: {e}")))?;
                if host { webpki } else { Arc::new(AnyName(webpki)) }
            }
        };
        let config = builder.dangerous().with_custom_certificate_verifier(verifier).with_no_client_auth();
        Ok(MakeRustlsConnect::new(config))
    }

    fn roots(&self) -> Result<RootCertStore> {
        let mut roots = RootCertStore::empty();
        match &self.root_cert {
            Some(path) => {
                let certs = CertificateDer::pem_file_iter(path)
                    .and_then(|certs| certs.collect::<std::result::Result<Vec<_>, _>>())
                    .map_err(|e| {
                        Error::invalid(
                            "sslrootcert",
                            format!("cannot read the certificate authority file {}: {e}", path.display()),
                        )
                    })?;
                let (added, _) = roots.add_parsable_certificates(certs);
                if added == 0 {
                    return Err(Error::invalid(
                        "sslrootcert",
                        format!("{} holds no usable certificate (PEM expected)", path.display()),
                    ));
                }
            }
            None => {
                let found = rustls_native_certs::load_native_certs();
                roots.add_parsable_certificates(found.certs);
                if roots.is_empty() {
                    return Err(Error::invalid(
                        "sslrootcert",
                        "no system certificate authorities found to check the server with; give the \
                         server's with sslrootcert=/path/to/ca.pem in the URL",
                    ));
                }
            }
        }
        Ok(roots)
    }
}

fn mode(value: &str) -> Result<Mode> {
    Ok(match value {
        "disable" => Mode::Disable,
        "allow" | "prefer" => Mode::Prefer,
        "require" => Mode::Require,
        "verify-ca" => Mode::VerifyCa,
        "verify-full" => Mode::VerifyFull,
        other => {
            return Err(Error::invalid(
                "url",
                format!("sslmode '{other}' is not one of disable, prefer, require, verify-ca, verify-full"),
            ));
        }
    })
}

/// A connection string in either of PostgreSQL's two forms.
enum Settings {
    /// `postgres://user@host:port/db?key=value`.
    Url(url::Url),
    /// `host=… dbname=… key=value`.
    KeyValue(Vec<(String, String)>),
}

impl Settings {
    fn read(text: &str) -> Result<Self> {
        match url::Url::parse(text) {
            Ok(u) if matches!(u.scheme(), "postgres" | "postgresql") => Ok(Self::Url(u)),
            Ok(u) => Err(Error::invalid(
                "url",
                format!("'{}:' is not a PostgreSQL address: start it with postgres://", u.scheme()),
            )),
            Err(_) => Ok(Self::KeyValue(crate::conninfo::parse(text)?)),
        }
    }

    /// The URL's query settings, or every key=value setting.
    fn pairs(&self) -> Vec<(String, String)> {
        match self {
            Self::Url(u) => u.query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).collect(),
            Self::KeyValue(pairs) => pairs.clone(),
        }
    }

    /// The same string with `pairs` in place of its settings.
    fn with_pairs(self, pairs: Vec<(String, String)>) -> String {
        match self {
            Self::Url(mut u) if pairs.is_empty() => {
                u.set_query(None);
                u.into()
            }
            Self::Url(mut u) => {
                u.query_pairs_mut().clear().extend_pairs(pairs);
                u.into()
            }
            Self::KeyValue(_) => crate::conninfo::render(&pairs),
        }
    }
}

/// `verify-ca`: the chain must lead to a trusted authority; the name may be any.
#[derive(Debug)]
struct AnyName(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for AnyName {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        match self.0.verify_server_cert(end_entity, intermediates, server_name, ocsp, now) {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

/// `prefer`/`require` without an authority: encrypted against listeners, not against a
/// server that pretends (as libpq). The handshake's signatures are still checked.
#[derive(Debug)]
struct Unchecked(Arc<CryptoProvider>);

impl ServerCertVerifier for Unchecked {
    fn verify_server_cert(
        &self,
        _: &CertificateDer<'_>,
        _: &[CertificateDer<'_>],
        _: &ServerName<'_>,
        _: &[u8],
        _: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(message, cert, dss, &self.0.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(message, cert, dss, &self.0.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_loses_only_the_tls_settings() {
        let (url, tls) =
            Tls::split("postgres://ada@db.example:5433/team?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&connect_timeout=5")
                .unwrap();
        assert_eq!(url, "postgres://ada@db.example:5433/team?connect_timeout=5");
        assert_eq!(tls, Tls { mode: Mode::VerifyFull, root_cert: Some("/etc/ca.pem".into()) });
        assert_eq!(tls.ssl_mode(), SslMode::Require);
        let (url, tls) = Tls::split("postgres://ada@127.0.0.1/team").unwrap();
        assert_eq!(
            (url.as_str(), tls.mode, tls.checks()),
            ("postgres://ada@127.0.0.1/team", Mode::Prefer, None)
        );
        let typed = Tls::absolute_root(
            "postgres://h/db?sslrootcert=certs%2Fca.pem&sslmode=verify-ca",
            "/home/ada".as_ref(),
        );
        assert_eq!(Tls::split(&typed.unwrap()).unwrap().1.root_cert, Some("/home/ada/certs/ca.pem".into()));
        let (rest, tls) =
            Tls::split("host=db.example dbname=team sslmode=verify-ca sslrootcert='certs/ca.pem'").unwrap();
        assert_eq!(rest, "host='db.example' dbname='team'");
        assert_eq!(tls, Tls { mode: Mode::VerifyCa, root_cert: Some("certs/ca.pem".into()) });
        let typed = Tls::absolute_root("host=h sslrootcert=certs/ca.pem", "/home/ada".as_ref()).unwrap();
        assert_eq!(Tls::split(&typed).unwrap().1.root_cert, Some("/home/ada/certs/ca.pem".into()));
        let wrong = Tls::split("mysql://h/db").unwrap_err();
        assert!(wrong.message.contains("postgres://"), "{}", wrong.message);
        let bad = Tls::split("postgres://h/db?sslmode=always").unwrap_err();
        assert_eq!(bad.field.as_deref(), Some("url"));
        assert!(bad.message.contains("verify-full"), "{}", bad.message);
    }

    #[test]
    fn what_each_mode_checks_follows_libpq() {
        let tls = |mode, root: Option<&str>| Tls { mode, root_cert: root.map(PathBuf::from) };
        assert_eq!(tls(Mode::Require, None).checks(), None);
        assert_eq!(
            tls(Mode::Require, Some("ca.pem")).checks(),
            Some(false),
            "a root file makes require check the chain"
        );
        assert_eq!(tls(Mode::VerifyCa, None).checks(), Some(false));
        assert_eq!(tls(Mode::VerifyFull, None).checks(), Some(true));
        assert_eq!(tls(Mode::Disable, Some("ca.pem")).checks(), None);
        assert!(tls(Mode::Require, None).trusted_path("postgres://ada@127.0.0.1/team"));
        assert!(!tls(Mode::Require, None).trusted_path("postgres://ada@db.example/team"));
        assert!(tls(Mode::VerifyFull, None).trusted_path("postgres://ada@db.example/team"));
        assert!(tls(Mode::Require, None).trusted_path("host=/run/postgresql dbname=team"));
        assert!(tls(Mode::Require, None).trusted_path("dbname=team"), "no host: the local socket");
        assert!(!tls(Mode::Require, None).trusted_path("host=localhost,db.example dbname=team"));
        let missing = tls(Mode::VerifyFull, Some("/nonexistent/ca.pem")).connector().err().unwrap();
        assert_eq!(missing.field.as_deref(), Some("sslrootcert"));
    }
}

//! Values Mooring hands to a client and must trust when they come back: the MRTR
//! `requestState` of a question or a project pick, and the handle an agent follows a
//! question up with. Each is keyed-MAC'd (HMAC-SHA256 with a per-install secret kept
//! 0600 in the data directory) over what it names, the identity it was issued to and
//! (for request states) an expiry and a single-use nonce. MCP 2026-07-28 says a
//! client controls `requestState`; with this, a client can only return what it was given.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{KeyInit, Mac};
use mooring_core::Error;

type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// File name of the install secret in the data directory.
pub const FILE: &str = "secret";

/// The install id of the data directory `data_dir` (creating its secret if needed).
pub fn install_id(data_dir: &Path) -> Option<String> {
    Sealer::load_or_create(data_dir).ok().map(|s| s.install_id())
}

/// What a sealed request state was issued for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The answer to one question (subject: the interaction id).
    Choice,
    /// The person's pick of the session's project.
    Project,
    /// An answer from Mooring's app in the conversation (subject: the interaction id).
    App,
}

impl Purpose {
    fn tag(self) -> &'static str {
        match self {
            Purpose::Choice => "choice",
            Purpose::Project => "project",
            Purpose::App => "app",
        }
    }
}

/// A request state that checked out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issued {
    /// What it names (an interaction id, or `session` for a project pick).
    pub subject: String,
    /// Single-use nonce.
    pub nonce: String,
    /// Expiry, seconds since the epoch.
    pub expires: u64,
}

/// Issues and checks sealed values with this install's secret.
pub struct Sealer {
    key: [u8; 32],
    /// Nonces already used, with their expiry (pruned as they lapse).
    used: Mutex<HashMap<String, u64>>,
}

impl Sealer {
    /// The install's secret from `data_dir`, created (0600) on first use.
    pub fn load_or_create(data_dir: &Path) -> std::io::Result<Self> {
        let path = data_dir.join(FILE);
        if let Ok(text) = std::fs::read_to_string(&path)
            && let Some(key) = decode_key(text.trim())
        {
            mooring_core::store::datadir::tighten(&path, 0o600);
            return Ok(Self::with_key(key));
        }
        mooring_core::store::datadir::ensure(data_dir).map_err(|e| std::io::Error::other(e.message))?;
        let key = mooring_core::guard::secret::random_bytes::<32>();
        let tmp = data_dir.join(format!(".{FILE}.{}", std::process::id()));
        let _ = std::fs::remove_file(&tmp);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut f = options.open(&tmp)?;
        f.write_all(hex(&key).as_bytes())?;
        f.sync_all()?;
        // Two processes starting at once: the first rename wins and both read it back.
        if path.exists() {
            let _ = std::fs::remove_file(&tmp);
        } else {
            std::fs::rename(&tmp, &path)?;
        }
        match std::fs::read_to_string(&path).ok().and_then(|t| decode_key(t.trim())) {
            Some(key) => Ok(Self::with_key(key)),
            None => Err(std::io::Error::other(format!("{} is not a Mooring secret", path.display()))),
        }
    }

    /// A secret for this process only (no data directory: in-memory stores, tests).
    pub fn ephemeral() -> Self {
        Self::with_key(mooring_core::guard::secret::random_bytes::<32>())
    }

    fn with_key(key: [u8; 32]) -> Self {
        Self { key, used: Mutex::new(HashMap::new()) }
    }

    /// A non-secret id for this install (a MAC of a fixed label): servers and shims of
    /// one data directory recognise each other by it without revealing the path.
    pub fn install_id(&self) -> String {
        let full = self.mac(&["install-id"]);
        full[..22].to_owned()
    }

    /// A request state for `purpose` on `subject`, issued to `identity`, valid for `ttl`.
    pub fn issue(&self, purpose: Purpose, subject: &str, identity: Option<&str>, ttl: Duration) -> String {
        let expires = now_secs() + ttl.as_secs();
        let nonce = hex(&mooring_core::guard::secret::random_bytes::<16>());
        let exp = expires.to_string();
        let mac = self.mac(&["state", purpose.tag(), subject, &exp, &nonce, identity.unwrap_or("")]);
        format!("v1.{}.{subject}.{exp}.{nonce}.{mac}", purpose.tag())
    }

    /// Check a request state a client sent back: ours, for this purpose, issued to this
    /// identity, not expired. Does not consume it (see [`Sealer::consume`]).
    ///
    /// An app's state needs an identity: callers without one are indistinguishable, so
    /// one of them could redeem another's. An MRTR state (`Choice`, `Project`) is itself
    /// the capability: single-use, and handed only to the client in its input request,
    /// never to the model.
    pub fn check(&self, state: &str, purpose: Purpose, identity: Option<&str>) -> Result<Issued, Error> {
        if purpose == Purpose::App && identity.is_none() {
            return Err(Error::invalid("requestState", NO_IDENTITY));
        }
        let refuse = |why: &str| {
            Error::invalid(
                "requestState",
                format!(
                    "requestState {why}; an answer is accepted only with the requestState this server \
                     issued to this client with its question; call the tool again without inputResponses"
                ),
            )
        };
        let parts: Vec<&str> = state.split('.').collect();
        let [version, tag, subject, exp, nonce, mac] = parts.as_slice() else {
            return Err(refuse("is not one this server issued"));
        };
        if *version != "v1" || *tag != purpose.tag() {
            return Err(refuse("is not one this server issued for this question"));
        }
        if !self.verify(&["state", tag, subject, exp, nonce, identity.unwrap_or("")], mac) {
            return Err(refuse("was not issued to this client by this server"));
        }
        let expires: u64 = exp.parse().map_err(|_| refuse("is malformed"))?;
        if expires < now_secs() {
            return Err(refuse("has expired"));
        }
        Ok(Issued { subject: (*subject).to_owned(), nonce: (*nonce).to_owned(), expires })
    }

    /// Whether a checked state's nonce was used already (a replay), without using it.
    pub fn used(&self, issued: &Issued) -> bool {
        self.used.lock().unwrap_or_else(|p| p.into_inner()).contains_key(&issued.nonce)
    }

    /// Use a checked state's nonce; false if it was used before (a replay).
    pub fn consume(&self, issued: &Issued) -> bool {
        let now = now_secs();
        let mut used = self.used.lock().unwrap_or_else(|p| p.into_inner());
        used.retain(|_, exp| *exp >= now);
        used.insert(issued.nonce.clone(), issued.expires).is_none()
    }

    /// The handle an agent follows question `id` up with: only the identity it was
    /// given to can use it.
    pub fn handle(&self, id: &str, identity: Option<&str>) -> String {
        let mac = self.mac(&["handle", id, identity.unwrap_or("")]);
        format!("{id}.{}", &mac[..22])
    }

    /// The question id behind a handle this identity was given. A caller without an
    /// identity opens none: the handle is in the model's view, and every such caller
    /// would match every other.
    pub fn open_handle(&self, handle: &str, identity: Option<&str>) -> Result<String, Error> {
        if identity.is_none() {
            return Err(Error::invalid("session_id", NO_IDENTITY));
        }
        let refuse = || {
            Error::invalid(
                "session_id",
                "session_id is not a question this client asked; pass the session_id that \
                 provide_choice returned to this client",
            )
        };
        let (id, mac) = handle.rsplit_once('.').ok_or_else(refuse)?;
        let expected = self.mac(&["handle", id, identity.unwrap_or("")]);
        if mooring_core::guard::secret::same(&expected.as_bytes()[..22], mac) {
            Ok(id.to_owned())
        } else {
            Err(refuse())
        }
    }

    fn mac(&self, parts: &[&str]) -> String {
        URL_SAFE_NO_PAD.encode(self.raw_mac(parts))
    }

    fn raw_mac(&self, parts: &[&str]) -> Vec<u8> {
        let mut mac =
            <HmacSha256 as KeyInit>::new_from_slice(&self.key).expect("HMAC takes a key of any size");
        for p in parts {
            // Length-prefixed, so ("ab","c") and ("a","bc") differ.
            mac.update(&(p.len() as u64).to_be_bytes());
            mac.update(p.as_bytes());
        }
        mac.finalize().into_bytes().to_vec()
    }

    fn verify(&self, parts: &[&str], given: &str) -> bool {
        let Ok(given) = URL_SAFE_NO_PAD.decode(given) else { return false };
        mooring_core::guard::secret::same(self.raw_mac(parts), given)
    }
}

/// Why a caller without an identity is refused a handle or an app's answer.
pub const NO_IDENTITY: &str = "this client has no session (no Mcp-Session-Id and not Mooring's stdio shim), so \
     Mooring cannot tell its calls from another client's and answers no follow-up or app call for it; \
     connect through `mooring stdio` (each agent session gets its own identity), or let the person \
     answer in Mooring's window or dashboard";

fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn decode_key(text: &str) -> Option<[u8; 32]> {
    if text.len() != 64 {
        return None;
    }
    let mut key = [0u8; 32];
    for (i, chunk) in text.as_bytes().chunks(2).enumerate() {
        key[i] = u8::from_str_radix(std::str::from_utf8(chunk).ok()?, 16).ok()?;
    }
    Some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_holds_only_for_its_purpose_identity_and_time() {
        let s = Sealer::ephemeral();
        let st = s.issue(Purpose::Choice, "c-1", Some("mcs_a"), Duration::from_secs(60));
        let ok = s.check(&st, Purpose::Choice, Some("mcs_a")).unwrap();
        assert_eq!(ok.subject, "c-1");
        assert!(s.consume(&ok), "first use");
        assert!(!s.consume(&ok), "a replay is caught");
        assert!(s.check(&st, Purpose::Choice, Some("mcs_b")).is_err(), "another identity");
        assert!(s.check(&st, Purpose::Choice, None).is_err(), "no identity");
        assert!(s.check(&st, Purpose::Project, Some("mcs_a")).is_err(), "another purpose");
        let forged = st.replace("c-1", "c-2");
        assert!(s.check(&forged, Purpose::Choice, Some("mcs_a")).is_err(), "another subject");
        assert!(Sealer::ephemeral().check(&st, Purpose::Choice, Some("mcs_a")).is_err(), "another install");
        for junk in ["", "c-1", "mooring:select-project", "v1.choice.c-1.9999999999.n.", "a.b.c.d.e.f.g"] {
            let e = s.check(junk, Purpose::Choice, Some("mcs_a")).unwrap_err();
            assert_eq!(e.field.as_deref(), Some("requestState"), "{junk}");
        }
        let expired = s.issue(Purpose::Project, "session", None, Duration::ZERO);
        std::thread::sleep(Duration::from_millis(1100));
        assert!(s.check(&expired, Purpose::Project, None).unwrap_err().message.contains("expired"));
    }

    #[test]
    fn handles_open_only_for_their_identity() {
        let s = Sealer::ephemeral();
        let h = s.handle("c-9", Some("msh_x"));
        assert_eq!(s.open_handle(&h, Some("msh_x")).unwrap(), "c-9");
        assert!(s.open_handle(&h, Some("msh_y")).is_err());
        assert!(s.open_handle("c-9", Some("msh_x")).is_err(), "the bare id is not enough");
        // No identity matches no identity: every session-less caller would be the same.
        let anon = s.handle("c-9", None);
        assert_eq!(s.open_handle(&anon, None).unwrap_err().message, NO_IDENTITY);
        assert!(s.open_handle(&anon, Some("msh_x")).is_err());
        let app = s.issue(Purpose::App, "c-9", None, Duration::from_secs(60));
        assert_eq!(s.check(&app, Purpose::App, None).unwrap_err().message, NO_IDENTITY);
        // An MRTR state is a capability only its client was handed: it holds without one.
        let mrtr = s.issue(Purpose::Choice, "c-9", None, Duration::from_secs(60));
        assert_eq!(s.check(&mrtr, Purpose::Choice, None).unwrap().subject, "c-9");
    }

    #[test]
    fn the_secret_is_created_private_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let a = Sealer::load_or_create(dir.path()).unwrap();
        let b = Sealer::load_or_create(dir.path()).unwrap();
        assert_eq!(a.install_id(), b.install_id());
        assert_ne!(a.install_id(), Sealer::ephemeral().install_id());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}

//! Who may use this server: the person's own operating-system user, and nobody else.
//!
//! Every TCP connection is tagged with its owner when it is accepted ([`Peer`]). A
//! connection owned by another local user is refused on every route, token or not.
//! Where the owner is unknown (a platform without a way to ask), `/mcp` needs the local
//! API token, which `mooring stdio` reads from the private data directory by itself; the
//! REST API and the pages need their tokens as always.

pub mod peer;
pub mod sealed;
pub mod token;

use axum::Json;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// The owner of the connection a request came on, as learned at accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Peer {
    /// The uid owning the client's socket, if the kernel said.
    pub uid: Option<u32>,
}

/// What a request may do, from who sent it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// The person's own user (or a valid local token where the user is unknown).
    Allowed,
    /// Another local user: refused everywhere.
    OtherUser,
    /// Unknown user without the local token, on a route that needs one.
    NeedsToken,
}

/// Decide from the connection's owner, our own uid, whether the route needs proof when
/// the owner is unknown, and whether the request carries the local token.
pub fn decide(peer: Option<u32>, own: Option<u32>, needs_proof: bool, has_token: bool) -> Access {
    match (peer, own) {
        (Some(p), Some(o)) if p == o => Access::Allowed,
        (Some(_), Some(_)) => Access::OtherUser,
        _ if !needs_proof || has_token => Access::Allowed,
        _ => Access::NeedsToken,
    }
}

/// What the middleware needs: our uid and the local token.
#[derive(Clone)]
pub struct LocalAccess {
    /// This process's uid.
    pub own_uid: Option<u32>,
    /// The local API token.
    pub token: std::sync::Arc<str>,
}

/// Refuse other users everywhere, and unproven callers on `/mcp`.
pub async fn guard(State(gate): State<LocalAccess>, request: Request, next: Next) -> Response {
    let peer = request.extensions().get::<Peer>().and_then(|p| p.uid);
    let needs_proof = request.uri().path().starts_with("/mcp");
    let has_token = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .is_some_and(|t| mooring_core::guard::secret::same(&*gate.token, t.trim()));
    match decide(peer, gate.own_uid, needs_proof, has_token) {
        Access::Allowed => next.run(request).await,
        Access::OtherUser => refuse(StatusCode::FORBIDDEN, "OTHER_USER", OTHER_USER),
        Access::NeedsToken => refuse(
            StatusCode::UNAUTHORIZED,
            "UNAUTHORIZED",
            "this connection's user could not be confirmed; let your client launch `mooring stdio` \
             (it authenticates by itself), or send `Authorization: Bearer <token>` with the token \
             `mooring token` prints",
        ),
    }
}

/// Why another local user is refused.
pub const OTHER_USER: &str = "this Mooring belongs to another user of this machine; run your own \
     (`mooring serve`, or the desktop app), which listens on a port of its own";

fn refuse(status: StatusCode, code: &str, message: &str) -> Response {
    (status, Json(json!({ "error": { "code": code, "message": message } }))).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_same_user_or_the_token_gets_in() {
        assert_eq!(decide(Some(1000), Some(1000), true, false), Access::Allowed);
        assert_eq!(decide(Some(65534), Some(1000), false, false), Access::OtherUser);
        assert_eq!(
            decide(Some(65534), Some(1000), true, true),
            Access::OtherUser,
            "a token does not make a stranger us"
        );
        assert_eq!(decide(None, Some(1000), true, false), Access::NeedsToken);
        assert_eq!(decide(None, Some(1000), true, true), Access::Allowed);
        assert_eq!(
            decide(None, None, false, false),
            Access::Allowed,
            "pages and REST check their own tokens"
        );
    }
}

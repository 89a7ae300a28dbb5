//! Who may hold a connection, decided at accept before a byte of the request is read:
//! another local user's connection is answered `403 OTHER_USER` and closed (so slow
//! headers from them hold nothing of ours), and no one owner, the person included, may
//! hold more than its share of the server's connections.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Refused connections drained at once (so their client reads the 403 instead of a
/// reset); past this, a refused connection is simply closed.
const DRAINING: usize = 16;
/// How long a refused connection is drained.
const DRAIN_FOR: Duration = Duration::from_millis(500);

/// What to do with a new connection, from its owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admit {
    /// Serve it.
    Serve,
    /// Another local user: refuse.
    OtherUser,
    /// This owner holds its share already.
    TooMany,
}

/// Open connections by owner (`None`: an owner the kernel did not name).
pub struct Owners {
    own: Option<u32>,
    per_owner: usize,
    open: Mutex<HashMap<Option<u32>, usize>>,
    draining: Mutex<usize>,
}

/// A served connection's place; gives it back when dropped.
pub struct Slot {
    owners: Arc<Owners>,
    owner: Option<u32>,
}

impl Owners {
    /// Counts for a server run by `own`, each owner holding at most `per_owner`.
    pub fn new(own: Option<u32>, per_owner: usize) -> Arc<Self> {
        Arc::new(Self { own, per_owner: per_owner.max(1), open: Mutex::default(), draining: Mutex::new(0) })
    }

    /// Decide for a connection owned by `owner`; a `Slot` while it is served.
    pub fn admit(self: &Arc<Self>, owner: Option<u32>) -> Result<Slot, Admit> {
        if let (Some(peer), Some(own)) = (owner, self.own)
            && peer != own
        {
            return Err(Admit::OtherUser);
        }
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let n = open.entry(owner).or_default();
        if *n >= self.per_owner {
            return Err(Admit::TooMany);
        }
        *n += 1;
        Ok(Slot { owners: self.clone(), owner })
    }

    /// Answer a refused connection and close it, without reading its request.
    pub async fn refuse(&self, mut stream: TcpStream, why: Admit) {
        let (status, code, message) = match why {
            Admit::OtherUser => ("403 Forbidden", "OTHER_USER", crate::access::OTHER_USER),
            _ => (
                "503 Service Unavailable",
                "TOO_MANY_CONNECTIONS",
                "this user holds as many connections as one user may; close some and retry",
            ),
        };
        let body = serde_json::json!({ "error": { "code": code, "message": message } }).to_string();
        let head = format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\n\r\n",
            body.len()
        );
        let _ = tokio::time::timeout(DRAIN_FOR, stream.write_all((head + &body).as_bytes())).await;
        let _ = stream.shutdown().await;
        // Closing with the request unread makes the kernel reset the connection, which
        // can reach the client before our answer: drain briefly (a few at a time).
        if self.enter_draining() {
            let mut sink = [0u8; 4096];
            let _ = tokio::time::timeout(DRAIN_FOR, async {
                while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {}
            })
            .await;
            *self.draining.lock().unwrap_or_else(|p| p.into_inner()) -= 1;
        }
    }

    fn enter_draining(&self) -> bool {
        let mut d = self.draining.lock().unwrap_or_else(|p| p.into_inner());
        (*d < DRAINING).then(|| *d += 1).is_some()
    }

    /// Connections `owner` holds now.
    pub fn holding(&self, owner: Option<u32>) -> usize {
        self.open.lock().unwrap_or_else(|p| p.into_inner()).get(&owner).copied().unwrap_or(0)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.owners.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = open.get_mut(&self.owner) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.owner);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_user_is_refused_and_each_owner_holds_at_most_its_share() {
        let owners = Owners::new(Some(1000), 2);
        assert_eq!(owners.admit(Some(65534)).err(), Some(Admit::OtherUser));
        let a = owners.admit(Some(1000)).unwrap();
        let _b = owners.admit(Some(1000)).unwrap();
        assert_eq!(owners.admit(Some(1000)).err(), Some(Admit::TooMany));
        // The unknown owner has a share of its own, not the person's.
        let _c = owners.admit(None).unwrap();
        assert_eq!(owners.holding(Some(1000)), 2);
        drop(a);
        assert_eq!(owners.holding(Some(1000)), 1);
        assert!(owners.admit(Some(1000)).is_ok(), "a closed connection gives its place back");
    }

    #[test]
    fn where_users_are_unknown_everyone_is_served_within_the_share() {
        let owners = Owners::new(None, 1);
        let _a = owners.admit(Some(7)).unwrap();
        assert_eq!(owners.admit(Some(7)).err(), Some(Admit::TooMany));
    }

    #[tokio::test]
    async fn a_refused_client_reads_the_403_even_while_still_sending() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let owners = Owners::new(Some(1), 4);
        let server = tokio::spawn(async move {
            let (stream, _) = listener.accept().await.unwrap();
            owners.refuse(stream, Admit::OtherUser).await;
        });
        let mut client = TcpStream::connect(addr).await.unwrap();
        client.write_all(b"POST /mcp HTTP/1.1\r\nhost: x\r\ncontent-length: 100000\r\n\r\n").await.unwrap();
        let _ = client.write_all(&[b'x'; 8192]).await;
        let mut got = String::new();
        let _ = client.read_to_string(&mut got).await;
        assert!(got.starts_with("HTTP/1.1 403"), "{got}");
        assert!(got.contains("OTHER_USER"));
        server.await.unwrap();
    }
}

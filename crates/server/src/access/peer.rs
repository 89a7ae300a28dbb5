//! Who is on the other end of a loopback TCP connection: the operating-system user that
//! owns the client's socket. Mooring serves only its own user; on Linux the kernel says
//! who that is (sock_diag), so the person's clients need no token and another local
//! user is refused on every endpoint. Where the owner cannot be learned, the local token
//! stands in (see [`crate::access`]).

use std::net::SocketAddr;

/// The effective user id of this process.
#[cfg(unix)]
pub fn own_uid() -> Option<u32> {
    // SAFETY: geteuid has no preconditions and cannot fail.
    Some(unsafe { libc::geteuid() })
}

/// Users are not uids here.
#[cfg(not(unix))]
pub fn own_uid() -> Option<u32> {
    None
}

/// The uid owning the client socket of the connection `local` ← `peer`, if the kernel
/// tells (Linux), else `None`.
#[cfg(target_os = "linux")]
pub fn owner_uid(local: SocketAddr, peer: SocketAddr) -> Option<u32> {
    match linux::owner(local, peer) {
        Ok(uid) => uid,
        Err(e) => {
            tracing::debug!(error = %e, "could not learn who owns a connection");
            None
        }
    }
}

/// No way to ask here (yet): the local token decides.
#[cfg(not(target_os = "linux"))]
pub fn owner_uid(_local: SocketAddr, _peer: SocketAddr) -> Option<u32> {
    None
}

#[cfg(target_os = "linux")]
mod linux {
    use std::net::SocketAddr;

    use netlink_packet_core::{NLM_F_REQUEST, NetlinkHeader, NetlinkMessage, NetlinkPayload};
    use netlink_packet_sock_diag::SockDiagMessage;
    use netlink_packet_sock_diag::constants::{AF_INET, AF_INET6, IPPROTO_TCP};
    use netlink_packet_sock_diag::inet::{ExtensionFlags, InetRequest, SocketId, StateFlags};
    use netlink_sys::protocols::NETLINK_SOCK_DIAG;
    use netlink_sys::{Socket, SocketAddr as NlAddr};

    /// One exact-match sock_diag query for the client's end of the connection: its source
    /// is the peer, its destination is us.
    pub fn owner(local: SocketAddr, peer: SocketAddr) -> std::io::Result<Option<u32>> {
        let mut socket = Socket::new(NETLINK_SOCK_DIAG)?;
        socket.bind_auto()?;
        socket.connect(&NlAddr::new(0, 0))?;
        let family = if peer.is_ipv4() { AF_INET } else { AF_INET6 };
        let mut header = NetlinkHeader::default();
        header.flags = NLM_F_REQUEST;
        let mut packet = NetlinkMessage::new(
            header,
            SockDiagMessage::InetRequest(InetRequest {
                family,
                protocol: IPPROTO_TCP,
                extensions: ExtensionFlags::empty(),
                states: StateFlags::all(),
                socket_id: SocketId {
                    source_port: peer.port(),
                    destination_port: local.port(),
                    source_address: peer.ip(),
                    destination_address: local.ip(),
                    interface_id: 0,
                    // "No cookie": match by address and port alone.
                    cookie: [0xff; 8],
                },
            })
            .into(),
        );
        packet.finalize();
        let mut out = vec![0; packet.buffer_len()];
        packet.serialize(&mut out);
        socket.send(&out, 0)?;
        let mut buf = vec![0u8; 8192];
        let n = socket.recv(&mut &mut buf[..], 0)?;
        let reply = <NetlinkMessage<SockDiagMessage>>::deserialize(&buf[..n])
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok(match reply.payload {
            NetlinkPayload::InnerMessage(SockDiagMessage::InetResponse(r)) => Some(r.header.uid),
            _ => None,
        })
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn the_owner_of_our_own_client_socket_is_us() {
        for host in ["127.0.0.1:0", "[::1]:0"] {
            let Ok(listener) = std::net::TcpListener::bind(host) else { continue };
            let client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
            let (server_side, peer) = listener.accept().unwrap();
            assert_eq!(peer, client.local_addr().unwrap());
            assert_eq!(owner_uid(server_side.local_addr().unwrap(), peer), own_uid(), "{host}");
        }
    }

    #[test]
    fn a_connection_that_is_not_there_has_no_owner() {
        let local: SocketAddr = "127.0.0.1:1".parse().unwrap();
        let peer: SocketAddr = "127.0.0.1:2".parse().unwrap();
        assert_eq!(owner_uid(local, peer), None);
    }
}

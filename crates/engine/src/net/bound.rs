//! Sockets bound as fio 3.33 binds its receiving ones: `SO_REUSEADDR` and `SO_REUSEPORT`
//! set before `bind`, so that several receivers (`numjobs`, or several programs) may wait
//! on the same port, as the members of one multicast group do. The standard library binds
//! in the same call that makes the socket, with no room for options in between.

use std::io;
use std::net::{Ipv4Addr, SocketAddr, TcpListener, UdpSocket};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// fio 3.33's backlog for a listening socket.
const BACKLOG: libc::c_int = 10;

/// A UDP socket bound to `addr`, the port shared; a member of multicast group `join`
/// (the group, and the address of the interface to join it on) before it is bound, as
/// fio's is, so that it receives from the moment its port shows.
pub(super) fn udp(addr: SocketAddr, join: Option<(Ipv4Addr, Ipv4Addr)>) -> io::Result<UdpSocket> {
    bound(addr, libc::SOCK_DGRAM, join).map(UdpSocket::from)
}

/// A TCP socket listening at `addr`, the port shared.
pub(super) fn listener(addr: SocketAddr) -> io::Result<TcpListener> {
    let fd = bound(addr, libc::SOCK_STREAM, None)?;
    // SAFETY: `fd` is a bound stream socket of ours.
    if unsafe { libc::listen(fd.as_raw_fd(), BACKLOG) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(TcpListener::from(fd))
}

/// A socket of `kind` for `addr`'s family, bound to it after its address and port were
/// made reusable (and it joined multicast group `join`).
fn bound(
    addr: SocketAddr,
    kind: libc::c_int,
    join: Option<(Ipv4Addr, Ipv4Addr)>,
) -> io::Result<OwnedFd> {
    let family = if addr.is_ipv6() { libc::AF_INET6 } else { libc::AF_INET };
    // SAFETY: socket makes a new descriptor or fails; it touches no memory of ours.
    let raw = unsafe { libc::socket(family, kind | libc::SOCK_CLOEXEC, 0) };
    if raw < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `raw` is the new descriptor, owned by nothing else.
    let fd = unsafe { OwnedFd::from_raw_fd(raw) };
    let on: libc::c_int = 1;
    for option in [libc::SO_REUSEADDR, libc::SO_REUSEPORT] {
        super::setsockopt(raw, libc::SOL_SOCKET, option, &on);
    }
    if let Some((group, interface)) = join {
        let mreq = libc::ip_mreq {
            imr_multiaddr: libc::in_addr { s_addr: u32::from_ne_bytes(group.octets()) },
            imr_interface: libc::in_addr { s_addr: u32::from_ne_bytes(interface.octets()) },
        };
        let len = std::mem::size_of::<libc::ip_mreq>() as libc::socklen_t;
        // SAFETY: `mreq` is a live ip_mreq of `len` bytes; the kernel checks the rest.
        let rc = unsafe {
            libc::setsockopt(
                raw,
                libc::IPPROTO_IP,
                libc::IP_ADD_MEMBERSHIP,
                (&mreq as *const libc::ip_mreq).cast(),
                len,
            )
        };
        if rc < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    let (storage, len) = sockaddr(addr);
    // SAFETY: `storage` holds a socket address of `len` bytes of `addr`'s family.
    let rc = unsafe { libc::bind(raw, (&storage as *const libc::sockaddr_storage).cast(), len) };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(fd)
}

/// `addr` as the C library lays it out, and its length.
fn sockaddr(addr: SocketAddr) -> (libc::sockaddr_storage, libc::socklen_t) {
    // SAFETY: all-zero bytes are a valid sockaddr_storage.
    let mut storage: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
    let len = match addr {
        SocketAddr::V4(a) => {
            // SAFETY: all-zero bytes are a valid sockaddr_in.
            let mut sin: libc::sockaddr_in = unsafe { std::mem::zeroed() };
            sin.sin_family = libc::AF_INET as libc::sa_family_t;
            sin.sin_port = a.port().to_be();
            sin.sin_addr = libc::in_addr { s_addr: u32::from_ne_bytes(a.ip().octets()) };
            // SAFETY: sockaddr_storage is larger than sockaddr_in and aligned for it.
            unsafe { std::ptr::write((&mut storage as *mut libc::sockaddr_storage).cast(), sin) };
            std::mem::size_of::<libc::sockaddr_in>()
        }
        SocketAddr::V6(a) => {
            // SAFETY: all-zero bytes are a valid sockaddr_in6.
            let mut sin6: libc::sockaddr_in6 = unsafe { std::mem::zeroed() };
            sin6.sin6_family = libc::AF_INET6 as libc::sa_family_t;
            sin6.sin6_port = a.port().to_be();
            sin6.sin6_flowinfo = a.flowinfo().to_be();
            sin6.sin6_addr = libc::in6_addr { s6_addr: a.ip().octets() };
            sin6.sin6_scope_id = a.scope_id();
            // SAFETY: sockaddr_storage is larger than sockaddr_in6 and aligned for it.
            unsafe { std::ptr::write((&mut storage as *mut libc::sockaddr_storage).cast(), sin6) };
            std::mem::size_of::<libc::sockaddr_in6>()
        }
    };
    (storage, len as libc::socklen_t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_receivers_share_a_port_of_either_family() {
        for any in ["0.0.0.0:0", "[::1]:0"] {
            let first = udp(any.parse().unwrap(), None).expect("a first receiver");
            let port = first.local_addr().unwrap();
            let second = udp(port, None).expect("a second one on the same port");
            assert_eq!(second.local_addr().unwrap(), port);
            let l = listener(any.parse().unwrap()).expect("a listener");
            assert_eq!(l.local_addr().unwrap().is_ipv6(), any.starts_with('['));
        }
    }
}

//! Who is asking: the client's address (the key of the per-address limits)
//! and whether the page was served over HTTPS. Forwarding headers
//! (`X-Forwarded-For`, `X-Forwarded-Proto`) are believed only from a peer
//! listed with `--trusted-proxy`: anyone else could write them.

use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::HeaderMap;

use crate::security::Security;
use crate::state::AppState;

/// The key of the per-address limits: an IPv4 address, or the /64 network
/// of an IPv6 one (one subscriber usually holds a whole /64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AddressKey(IpAddr);

impl AddressKey {
    /// The key of `ip`.
    pub fn of(ip: IpAddr) -> AddressKey {
        match ip {
            IpAddr::V4(v4) => AddressKey(IpAddr::V4(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => AddressKey(IpAddr::V4(v4)),
                None => {
                    let network = u128::from(v6) & !((1u128 << 64) - 1);
                    AddressKey(IpAddr::V6(Ipv6Addr::from(network)))
                }
            },
        }
    }
}

impl std::fmt::Display for AddressKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            IpAddr::V4(v4) => write!(f, "{v4}"),
            IpAddr::V6(v6) => write!(f, "{v6}/64"),
        }
    }
}

/// The client of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client {
    /// Its address's key.
    pub address: AddressKey,
    /// Whether the browser reached us over HTTPS (`--behind-tls`, or a
    /// trusted proxy's `X-Forwarded-Proto: https`).
    pub https: bool,
}

impl Client {
    /// The client of a request from `peer` with `headers`.
    pub fn of(peer: Option<SocketAddr>, headers: &HeaderMap, security: &Security) -> Client {
        // Without a peer address (a router called in process) all requests
        // share one key, which is the safe side of a limit.
        let peer = peer.map_or(IpAddr::from([0, 0, 0, 0]), |p| p.ip());
        let trusted = |ip: &IpAddr| security.trusted_proxies.contains(&normal(*ip));
        if !trusted(&peer) {
            return Client {
                address: AddressKey::of(peer),
                https: security.behind_tls,
            };
        }
        // Each proxy appends the address it got the request from: the
        // rightmost entry that is not one of ours is the client.
        let forwarded: Vec<IpAddr> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|part| part.trim().parse::<IpAddr>().ok())
            .collect();
        let address = forwarded
            .iter()
            .rev()
            .find(|ip| !trusted(ip))
            .copied()
            .unwrap_or(peer);
        let forwarded_https = headers
            .get_all("x-forwarded-proto")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .next_back()
            .is_some_and(|proto| proto.trim().eq_ignore_ascii_case("https"));
        Client {
            address: AddressKey::of(address),
            https: security.behind_tls || forwarded_https,
        }
    }
}

/// An IPv4 address written as IPv6 (`::ffff:1.2.3.4`) is the IPv4 one.
fn normal(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

impl FromRequestParts<AppState> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Client, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|info| info.0);
        Ok(Client::of(peer, &parts.headers, &state.guards.security))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn forwarding_headers_count_only_from_a_trusted_proxy() {
        let security = Security {
            trusted_proxies: vec!["10.0.0.1".parse().unwrap()],
            ..Security::default()
        };
        let forged = headers(&[
            ("x-forwarded-for", "9.9.9.9"),
            ("x-forwarded-proto", "https"),
        ]);
        let direct = Client::of(
            Some("203.0.113.5:4000".parse().unwrap()),
            &forged,
            &security,
        );
        assert_eq!(
            direct.address,
            AddressKey::of("203.0.113.5".parse().unwrap())
        );
        assert!(!direct.https);
        let chain = headers(&[
            ("x-forwarded-for", "9.9.9.9, 198.51.100.7"),
            ("x-forwarded-proto", "https"),
        ]);
        let proxied = Client::of(Some("10.0.0.1:4000".parse().unwrap()), &chain, &security);
        assert_eq!(
            proxied.address,
            AddressKey::of("198.51.100.7".parse().unwrap())
        );
        assert!(proxied.https);
    }

    #[test]
    fn an_ipv6_client_is_keyed_by_its_64_network() {
        let a = AddressKey::of("2001:db8:1:2:aaaa::1".parse().unwrap());
        let b = AddressKey::of("2001:db8:1:2:bbbb::9".parse().unwrap());
        let c = AddressKey::of("2001:db8:1:3::1".parse().unwrap());
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(
            AddressKey::of("::ffff:192.0.2.1".parse().unwrap()),
            AddressKey::of("192.0.2.1".parse().unwrap())
        );
    }
}

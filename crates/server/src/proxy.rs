//! Who the client is behind a reverse proxy. A connection from a trusted
//! proxy (`serve --trust-proxy CIDR`) carries the client's address in a
//! header the proxy writes (`X-Forwarded-For` by default, or RFC 7239's
//! `Forwarded`); every per-address limit, cap and log line counts that
//! address. Without trusted proxies nothing is read from headers.
//!
//! The client is the right-most hop that is not a trusted proxy: each proxy
//! appends the address it was reached from, so the hops to the right of
//! the first untrusted one were written by proxies this server trusts, and
//! anything to its left may be forged by the client. A header that does not
//! read is passed over with a warning: the proxy's own address counts.

use std::net::IpAddr;
use std::str::FromStr;

use axum::http::HeaderMap;
use ipnet::IpNet;

/// The header a trusted proxy writes the client's address in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ProxyHeader {
    /// `X-Forwarded-For: client, proxy1, …` (Caddy's and nginx's usual).
    #[default]
    XForwardedFor,
    /// RFC 7239: `Forwarded: for=client;proto=https, for=proxy1`.
    Forwarded,
}

impl FromStr for ProxyHeader {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "x-forwarded-for" => Ok(ProxyHeader::XForwardedFor),
            "forwarded" => Ok(ProxyHeader::Forwarded),
            _ => Err(format!(
                "'{s}' is no proxy header: x-forwarded-for or forwarded"
            )),
        }
    }
}

/// The proxies whose word on the client's address is taken.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrustedProxies {
    pub nets: Vec<IpNet>,
    pub header: ProxyHeader,
}

/// A `--trust-proxy` value: a network (`10.0.0.0/8`) or one address
/// (`127.0.0.1`, `::1`).
pub fn parse_net(s: &str) -> Result<IpNet, String> {
    let s = s.trim();
    if let Ok(net) = s.parse::<IpNet>() {
        return Ok(net.trunc());
    }
    s.parse::<IpAddr>().map(IpNet::from).map_err(|_| {
        format!("'{s}' is neither an address nor a network (CIDR, e.g. 10.0.0.0/8 or 127.0.0.1)")
    })
}

impl TrustedProxies {
    /// Whether `ip` is a trusted proxy (an IPv4 address reached over IPv6,
    /// `::ffff:a.b.c.d`, is taken as the IPv4 address).
    pub fn trusts(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.nets.iter().any(|n| n.contains(&ip))
    }

    /// The client's address for a request from `peer` with `headers`.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return canonical(peer);
        }
        let name = match self.header {
            ProxyHeader::XForwardedFor => "x-forwarded-for",
            ProxyHeader::Forwarded => "forwarded",
        };
        // Several header lines are one list, in order.
        let mut hops = Vec::new();
        for value in headers.get_all(name) {
            let read = value
                .to_str()
                .map_err(|_| "not text".to_string())
                .and_then(|v| match self.header {
                    ProxyHeader::XForwardedFor => x_forwarded_for(v),
                    ProxyHeader::Forwarded => forwarded(v),
                });
            match read {
                Ok(more) => hops.extend(more),
                Err(why) => {
                    tracing::warn!(proxy = %peer, header = name, why = %why,
                        "a trusted proxy sent a client address that does not read: the proxy's address counts");
                    return canonical(peer);
                }
            }
        }
        // The right-most hop no trusted proxy holds; where every hop is a
        // trusted proxy, the left-most (the first proxy's client).
        let mut client = canonical(peer);
        for hop in hops.iter().rev() {
            match hop {
                Some(ip) => {
                    client = canonical(*ip);
                    if !self.trusts(*ip) {
                        break;
                    }
                }
                // `unknown` or a hidden name: the hop cannot be counted, so
                // the nearest known address (a proxy's) stands for it.
                None => break,
            }
        }
        client
    }
}

/// `::ffff:a.b.c.d` as `a.b.c.d`.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// One hop's address: `1.2.3.4`, `1.2.3.4:80`, `::1`, `[::1]`, `[::1]:80`.
fn address(s: &str) -> Option<IpAddr> {
    let s = s.trim();
    if let Ok(ip) = s.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Some(rest) = s.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        if !(after.is_empty() || after.starts_with(':')) {
            return None;
        }
        return inside.parse::<std::net::Ipv6Addr>().ok().map(IpAddr::V6);
    }
    s.parse::<std::net::SocketAddrV4>()
        .ok()
        .map(|a| IpAddr::V4(*a.ip()))
}

/// `X-Forwarded-For`'s hops, left to right; any that is no address makes
/// the whole header unreadable.
fn x_forwarded_for(v: &str) -> Result<Vec<Option<IpAddr>>, String> {
    v.split(',')
        .map(|hop| {
            address(hop)
                .map(Some)
                .ok_or_else(|| format!("'{}' is no address", hop.trim()))
        })
        .collect()
}

/// `Forwarded`'s `for=` hops, left to right (RFC 7239 §4, §6: `unknown`
/// and obfuscated names are hops with no address).
fn forwarded(v: &str) -> Result<Vec<Option<IpAddr>>, String> {
    let mut hops = Vec::new();
    for element in v.split(',') {
        let mut hop = None;
        for pair in element.split(';') {
            let Some((key, value)) = pair.split_once('=') else {
                if pair.trim().is_empty() {
                    continue;
                }
                return Err(format!("'{}' is no name=value pair", pair.trim()));
            };
            if !key.trim().eq_ignore_ascii_case("for") {
                continue;
            }
            let value = value.trim();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .unwrap_or(value);
            hop = Some(
                if value.eq_ignore_ascii_case("unknown") || value.starts_with('_') {
                    None
                } else {
                    Some(address(value).ok_or_else(|| format!("for={value} is no address"))?)
                },
            );
        }
        // An element without for= names no hop.
        if let Some(hop) = hop {
            hops.push(hop);
        }
    }
    Ok(hops)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proxies(nets: &[&str], header: ProxyHeader) -> TrustedProxies {
        TrustedProxies {
            nets: nets.iter().map(|n| parse_net(n).unwrap()).collect(),
            header,
        }
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn client(p: &TrustedProxies, peer: &str, lines: &[(&str, &str)]) -> IpAddr {
        let mut h = HeaderMap::new();
        for (name, value) in lines {
            let name = axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap();
            h.append(name, value.parse().unwrap());
        }
        p.client(ip(peer), &h)
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_sends() {
        let p = proxies(&["127.0.0.1"], ProxyHeader::XForwardedFor);
        let forged = [("x-forwarded-for", "9.9.9.9")];
        assert_eq!(client(&p, "10.0.0.5", &forged), ip("10.0.0.5"));
        let none = TrustedProxies::default();
        assert_eq!(client(&none, "127.0.0.1", &forged), ip("127.0.0.1"));
    }

    #[test]
    fn the_right_most_untrusted_hop_is_the_client() {
        let p = proxies(&["127.0.0.1/32", "10.0.0.0/8"], ProxyHeader::XForwardedFor);
        // The client forged a first hop; the proxies appended the rest.
        let h = [("x-forwarded-for", "6.6.6.6, 203.0.113.7, 10.1.2.3")];
        assert_eq!(client(&p, "127.0.0.1", &h), ip("203.0.113.7"));
        // Two header lines are one list.
        let two = [
            ("x-forwarded-for", "6.6.6.6"),
            ("x-forwarded-for", "203.0.113.8"),
        ];
        assert_eq!(client(&p, "127.0.0.1", &two), ip("203.0.113.8"));
        // Every hop a proxy: the left-most.
        let all = [("x-forwarded-for", "10.0.0.9, 10.0.0.8")];
        assert_eq!(client(&p, "127.0.0.1", &all), ip("10.0.0.9"));
        // No header from a trusted proxy: the proxy itself.
        assert_eq!(client(&p, "127.0.0.1", &[]), ip("127.0.0.1"));
        // Ports and brackets, and v4 reached over v6.
        let ported = [("x-forwarded-for", "[2001:db8::1]:443, 198.51.100.2:5000")];
        assert_eq!(client(&p, "::ffff:127.0.0.1", &ported), ip("198.51.100.2"));
    }

    #[test]
    fn a_header_that_does_not_read_counts_the_proxy() {
        let p = proxies(&["127.0.0.1"], ProxyHeader::XForwardedFor);
        for bad in [
            "not an address",
            "1.2.3.4, ",
            "1.2.3.4.5",
            "[::1",
            "300.1.1.1",
        ] {
            assert_eq!(
                client(&p, "127.0.0.1", &[("x-forwarded-for", bad)]),
                ip("127.0.0.1"),
                "{bad}"
            );
        }
    }

    #[test]
    fn forwarded_is_read_as_rfc_7239_says() {
        let p = proxies(&["127.0.0.1"], ProxyHeader::Forwarded);
        let h = [(
            "forwarded",
            r#"for=6.6.6.6, for="[2001:db8:cafe::17]:4711";proto=https, For=127.0.0.1;by=127.0.0.1"#,
        )];
        assert_eq!(client(&p, "127.0.0.1", &h), ip("2001:db8:cafe::17"));
        // Unknown and hidden hops: the nearest known address counts.
        let hidden = [("forwarded", "for=203.0.113.1, for=_hidden")];
        assert_eq!(client(&p, "127.0.0.1", &hidden), ip("127.0.0.1"));
        // X-Forwarded-For is not read when Forwarded is the header.
        assert_eq!(
            client(&p, "127.0.0.1", &[("x-forwarded-for", "9.9.9.9")]),
            ip("127.0.0.1")
        );
        let bad = [("forwarded", "for=nonsense")];
        assert_eq!(client(&p, "127.0.0.1", &bad), ip("127.0.0.1"));
    }

    #[test]
    fn networks_and_headers_are_read_or_refused_with_the_reason() {
        assert_eq!(parse_net("10.1.2.3/8").unwrap().to_string(), "10.0.0.0/8");
        assert_eq!(parse_net("::1").unwrap().to_string(), "::1/128");
        assert!(parse_net("10.0.0.0/33")
            .unwrap_err()
            .contains("10.0.0.0/33"));
        assert!("Forwarded".parse::<ProxyHeader>().is_ok());
        assert!("x-real-ip"
            .parse::<ProxyHeader>()
            .unwrap_err()
            .contains("x-real-ip"));
    }
}

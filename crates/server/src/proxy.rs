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
//!
//! An IPv6 client is limited by its /64 ([`limited_as`]): a host is given
//! a whole /64, and could otherwise take a fresh address for each request.

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
        // Several header lines are one list, in order: its hops as written.
        // A line whose quotes do not close cannot be cut into hops (its
        // open quote would swallow the commas a proxy appended after it):
        // it stands as one hop that does not read.
        let mut hops: Vec<Option<&str>> = Vec::new();
        for value in headers.get_all(name) {
            let Ok(v) = value.to_str() else {
                return unreadable(peer, name, "not text");
            };
            match self.header {
                ProxyHeader::XForwardedFor => hops.extend(v.split(',').map(Some)),
                ProxyHeader::Forwarded => match split_outside_quotes(v, ',') {
                    Some(elements) => hops.extend(elements.into_iter().map(Some)),
                    None => hops.push(None),
                },
            }
        }
        // From the right: the first hop no trusted proxy holds is the
        // client. Only the hops read on the way must read: what stands to
        // the left of the client (the client's own words) is never looked at.
        let mut client = canonical(peer);
        for raw in hops.iter().rev() {
            let hop = match (self.header, raw) {
                (_, None) => Err("a quoted string left open"),
                (ProxyHeader::XForwardedFor, Some(raw)) => {
                    address(raw).map(Some).ok_or("no address")
                }
                (ProxyHeader::Forwarded, Some(raw)) => forwarded_hop(raw),
            };
            match hop {
                Ok(Some(ip)) => {
                    client = canonical(ip);
                    if !self.trusts(ip) {
                        break;
                    }
                }
                // `unknown` or a hidden name: the hop cannot be counted, so
                // the nearest known address (a proxy's) stands for it.
                Ok(None) => break,
                // A trusted proxy wrote something that is no address.
                Err(why) => return unreadable(peer, name, why),
            }
        }
        client
    }
}

/// A trusted proxy's header that does not read: the proxy's own address
/// counts (said in the log, the header cut short).
fn unreadable(peer: IpAddr, header: &str, why: &str) -> IpAddr {
    tracing::warn!(proxy = %peer, header, why,
        "a trusted proxy sent a client address that does not read: the proxy's address counts");
    canonical(peer)
}

/// `text` split at `sep` where it stands outside double quotes; `None`
/// when a quote is still open at the end.
fn split_outside_quotes(text: &str, sep: char) -> Option<Vec<&str>> {
    let mut parts = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (k, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            c if c == sep && !quoted => {
                parts.push(&text[start..k]);
                start = k + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    (!quoted).then_some(parts)
}

/// What per-address limits count a client as: an IPv4 address, or the
/// /64 network of an IPv6 address (the least a host is given, RFC 6177:
/// one host holds every address in it). An IPv6 address that carries an
/// IPv4 one counts as that IPv4 address: 6to4 (2002::/16, one IPv4 host
/// holds 2^80 of them), NAT64 (64:ff9b::/96, where every IPv4 client of
/// an IPv6-only front end would share one /64), Teredo (2001::/32) and
/// the old IPv4-compatible ::a.b.c.d.
pub fn limited_as(ip: IpAddr) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6);
            let v4 = |b: u128| IpAddr::V4(std::net::Ipv4Addr::from(b as u32));
            if bits >> 112 == 0x2002 {
                return v4(bits >> 80);
            }
            if bits >> 32 == 0x0064_ff9b_0000_0000_0000_0000 {
                return v4(bits);
            }
            if bits >> 96 == 0x2001_0000 {
                return v4(!bits);
            }
            if bits >> 32 == 0 && bits > 0xffff {
                return v4(bits);
            }
            IpAddr::V6(std::net::Ipv6Addr::from(bits & !(u128::MAX >> 64)))
        }
        v4 => v4,
    }
}

/// `::ffff:a.b.c.d` as `a.b.c.d`.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// One hop's address: `1.2.3.4`, `1.2.3.4:80`, `::1`, `[::1]`, `[::1]:80`;
/// an IPv6 zone (`fe80::1%eth0`, `%25eth0` in a URI's brackets) is passed over.
fn address(s: &str) -> Option<IpAddr> {
    let s = s.trim();
    let unzoned = |v6: &str| {
        v6.split_once('%')
            .map_or(v6, |(a, _)| a)
            .parse::<std::net::Ipv6Addr>()
            .ok()
    };
    if let Ok(ip) = s.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Some(rest) = s.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        if !(after.is_empty() || after.starts_with(':')) {
            return None;
        }
        return unzoned(inside).map(IpAddr::V6);
    }
    if s.contains('%') && s.contains(':') {
        return unzoned(s).map(IpAddr::V6);
    }
    s.parse::<std::net::SocketAddrV4>()
        .ok()
        .map(|a| IpAddr::V4(*a.ip()))
}

/// One element of `Forwarded` (RFC 7239 §4): its `for=` address; `None`
/// for `unknown` and obfuscated names (§6), and for an element that names
/// no hop.
fn forwarded_hop(element: &str) -> Result<Option<IpAddr>, &'static str> {
    let mut hop = None;
    let pairs = split_outside_quotes(element, ';').ok_or("a quoted string left open")?;
    for pair in pairs {
        let Some((key, value)) = pair.split_once('=') else {
            if pair.trim().is_empty() {
                continue;
            }
            return Err("a part that is no name=value pair");
        };
        if !key.trim().eq_ignore_ascii_case("for") {
            continue;
        }
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(value);
        hop = if value.eq_ignore_ascii_case("unknown") || value.starts_with('_') {
            None
        } else {
            Some(address(value).ok_or("for= is no address")?)
        };
    }
    Ok(hop)
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
    fn an_ipv6_zone_is_passed_over() {
        let x = proxies(&["127.0.0.1"], ProxyHeader::XForwardedFor);
        let h = [("x-forwarded-for", "fe80::1%eth0")];
        assert_eq!(client(&x, "127.0.0.1", &h), ip("fe80::1"));
        let f = proxies(&["127.0.0.1"], ProxyHeader::Forwarded);
        let h = [("forwarded", r#"for="[fe80::1%25eth0]:80""#)];
        assert_eq!(client(&f, "127.0.0.1", &h), ip("fe80::1"));
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
    fn what_the_client_wrote_left_of_itself_is_never_read() {
        // nginx appends to what the client sent: the client's junk stands
        // to the left of its real address, which is the one counted.
        let x = proxies(&["127.0.0.1"], ProxyHeader::XForwardedFor);
        let h = [("x-forwarded-for", "garbage, [oops, 203.0.113.7")];
        assert_eq!(client(&x, "127.0.0.1", &h), ip("203.0.113.7"));
        let f = proxies(&["127.0.0.1"], ProxyHeader::Forwarded);
        let quoted = [(
            "forwarded",
            r#"x="a,b", for=203.0.113.4;by="x,y;z", for=127.0.0.1"#,
        )];
        assert_eq!(client(&f, "127.0.0.1", &quoted), ip("203.0.113.4"));
    }

    #[test]
    fn a_quote_the_client_leaves_open_cannot_swallow_the_proxys_hop() {
        // nginx appending to the client's line: `$http_forwarded, for=…`.
        // The client's open quote would make the proxy's comma part of a
        // quoted string, and the client's `for=` the right-most hop.
        let f = proxies(&["127.0.0.1"], ProxyHeader::Forwarded);
        let appended = [("forwarded", r#"for=9.9.9.9;x=", for=5.6.7.8"#)];
        assert_eq!(client(&f, "127.0.0.1", &appended), ip("127.0.0.1"));
        let element = [("forwarded", r#"for=9.9.9.9;x="a, for=5.6.7.8"#)];
        assert_eq!(client(&f, "127.0.0.1", &element), ip("127.0.0.1"));
        // The proxy's own line after the client's: the client is found
        // before the line that does not read is reached.
        let own_line = [
            ("forwarded", r#"for=9.9.9.9;x=""#),
            ("forwarded", "for=5.6.7.8"),
        ];
        assert_eq!(client(&f, "127.0.0.1", &own_line), ip("5.6.7.8"));
        // X-Forwarded-For has no quoted strings: a quote is no address.
        let x = proxies(&["127.0.0.1"], ProxyHeader::XForwardedFor);
        let xff = [("x-forwarded-for", r#""9.9.9.9, 5.6.7.8"#)];
        assert_eq!(client(&x, "127.0.0.1", &xff), ip("5.6.7.8"));
    }

    #[test]
    fn an_ipv6_client_is_limited_by_its_64() {
        let a = limited_as(ip("2001:db8:1:2:aaaa::1"));
        assert_eq!(a, ip("2001:db8:1:2::"));
        assert_eq!(limited_as(ip("2001:db8:1:2:ffff:ffff:ffff:ffff")), a);
        assert_ne!(limited_as(ip("2001:db8:1:3::1")), a);
        assert_eq!(limited_as(ip("203.0.113.9")), ip("203.0.113.9"));
        assert_eq!(limited_as(ip("::ffff:203.0.113.9")), ip("203.0.113.9"));
        // IPv6 addresses that carry an IPv4 one count as that address.
        let v4 = ip("192.0.2.1");
        for carried in [
            "2002:c000:0201:1::1", // 6to4: every /64 of one IPv4 host
            "2002:c000:0201:ffff::9",
            "64:ff9b::192.0.2.1",                   // NAT64
            "2001:0:4136:e378:8000:63bf:3fff:fdfe", // Teredo (client 192.0.2.1)
            "::192.0.2.1",                          // IPv4-compatible
        ] {
            assert_eq!(limited_as(ip(carried)), v4, "{carried}");
        }
        assert_ne!(
            limited_as(ip("64:ff9b::192.0.2.2")),
            v4,
            "other IPv4 clients of NAT64"
        );
        assert_eq!(limited_as(ip("::1")), ip("::"), "the loopback stays IPv6");
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

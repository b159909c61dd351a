//! The SSRF guard's rules: which addresses and host names the scanner may reach.
//!
//! A publisher chooses the URL we crawl, so the URL is hostile: it may point at
//! the registry's own loopback services, the cloud metadata endpoint, or a
//! private network. The rules here decide on an *address*; `http.rs` makes sure
//! the address decided on is the one connected to (the resolver filters its own
//! answers, so there is no second lookup an attacker's DNS could answer
//! differently).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

/// Host names of cloud metadata services, refused whatever they resolve to.
///
/// Their addresses (169.254.169.254, fd00:ec2::254) are refused by range as
/// well; the names are refused up front so that a resolver configured to map
/// them elsewhere cannot be used to reach them.
const METADATA_HOSTS: &[&str] = &[
    "metadata",
    "metadata.google.internal",
    "metadata.goog",
    "metadata.azure.internal",
    "instance-data",
    "instance-data.ec2.internal",
    "metadata.tencentyun.com",
    "metadata.platformequinix.com",
];

/// Cloud metadata addresses: refused even when `GATEHOUSE_SCAN_ALLOW_PRIVATE=1`
/// opens private ranges for development, because they hand out credentials.
/// Only a CIDR list that names one explicitly reaches it (issue 11). Link-local
/// IPv4 as a whole is included: AWS (169.254.169.254, 169.254.170.2 for ECS
/// tasks), GCP, Azure, OpenStack and DigitalOcean all live there.
const METADATA_NETWORKS: &[(&str, u8)] = &[
    ("169.254.0.0", 16),
    ("fd00:ec2::254", 128),
    // Alibaba Cloud.
    ("100.100.100.200", 32),
];

/// Ranges a scan must not reach unless the operator allows them (issue 3, SSRF guard).
const BLOCKED: &[(&str, u8)] = &[
    ("0.0.0.0", 8),
    ("10.0.0.0", 8),
    ("100.64.0.0", 10),
    ("127.0.0.0", 8),
    ("169.254.0.0", 16),
    ("172.16.0.0", 12),
    ("192.168.0.0", 16),
    ("224.0.0.0", 4),
    ("240.0.0.0", 4),
    ("::1", 128),
    ("::", 128),
    ("fc00::", 7),
    ("fe80::", 10),
    // Multicast is as unreachable a target as IPv4's 224/4.
    ("ff00::", 8),
];

/// An IP network in CIDR notation (`10.0.0.0/8`, `fd00::/8`, or a bare address).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    network: IpAddr,
    prefix: u8,
}

impl Cidr {
    /// Whether `ip` lies inside this network (IPv4 and IPv6 never match each other).
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.network, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                prefix_match(&net.octets(), &ip.octets(), self.prefix)
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                prefix_match(&net.octets(), &ip.octets(), self.prefix)
            }
            _ => false,
        }
    }
}

impl FromStr for Cidr {
    type Err = String;

    fn from_str(text: &str) -> Result<Cidr, String> {
        let text = text.trim();
        let (addr, prefix) = match text.split_once('/') {
            Some((addr, prefix)) => (addr, Some(prefix)),
            None => (text, None),
        };
        let network: IpAddr = addr
            .parse()
            .map_err(|_| format!("{text:?} is not an IP address or CIDR network"))?;
        let max = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("{text:?} has an invalid prefix length"))?,
            None => max,
        };
        Ok(Cidr { network, prefix })
    }
}

fn prefix_match(net: &[u8], ip: &[u8], prefix: u8) -> bool {
    let full = usize::from(prefix / 8);
    let rest = prefix % 8;
    if net[..full] != ip[..full] {
        return false;
    }
    if rest == 0 {
        return true;
    }
    let mask = 0xffu8 << (8 - rest);
    (net[full] & mask) == (ip[full] & mask)
}

/// Which addresses the scanner may connect to (`GATEHOUSE_SCAN_ALLOW_PRIVATE`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NetPolicy {
    allow_all_private: bool,
    allowed: Vec<Cidr>,
}

impl NetPolicy {
    /// Parses `GATEHOUSE_SCAN_ALLOW_PRIVATE`: unset, empty or `0` refuses private
    /// addresses, `1` allows all, anything else is a comma-separated CIDR list of
    /// otherwise refused networks to allow.
    pub fn from_config(value: Option<&str>) -> Result<NetPolicy, String> {
        match value.map(str::trim) {
            None | Some("") | Some("0") => Ok(NetPolicy::default()),
            Some("1") => Ok(NetPolicy::allow_all()),
            Some(list) => {
                let allowed = list
                    .split(',')
                    .filter(|part| !part.trim().is_empty())
                    .map(Cidr::from_str)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| format!("GATEHOUSE_SCAN_ALLOW_PRIVATE: {e}"))?;
                Ok(NetPolicy {
                    allow_all_private: false,
                    allowed,
                })
            }
        }
    }

    /// A policy that allows every address and host name (development and tests).
    pub fn allow_all() -> NetPolicy {
        NetPolicy {
            allow_all_private: true,
            allowed: Vec::new(),
        }
    }

    /// Whether a connection to `ip` is allowed.
    pub fn is_allowed(&self, ip: IpAddr) -> bool {
        // The allow list names networks as the operator wrote them, so it is
        // checked against the address as given before mapped forms are unwrapped.
        if self.allowed.iter().any(|cidr| cidr.contains(ip)) {
            return true;
        }
        if let IpAddr::V6(v6) = ip
            && let Some(v4) = embedded_ipv4(v6)
        {
            // `::ffff:127.0.0.1` reaches 127.0.0.1: judge the IPv4 address it carries.
            return self.is_allowed(IpAddr::V4(v4));
        }
        // Metadata services only ever through an explicit CIDR (checked above).
        if in_ranges(METADATA_NETWORKS, ip) {
            return false;
        }
        self.allow_all_private || !in_ranges(BLOCKED, ip)
    }

    /// Whether a host name may be looked up at all: cloud metadata names never
    /// are, whatever the policy (their addresses can be allowed by CIDR only).
    pub fn is_host_allowed(&self, host: &str) -> bool {
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        !METADATA_HOSTS.contains(&host.as_str())
    }
}

/// The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`), the deprecated
/// IPv4-compatible (`::a.b.c.d`) or a NAT64 (`64:ff9b::a.b.c.d`, RFC 6052)
/// address; `::` and `::1` stay IPv6.
fn embedded_ipv4(v6: Ipv6Addr) -> Option<Ipv4Addr> {
    if v6.is_loopback() || v6.is_unspecified() {
        return None;
    }
    let octets = v6.octets();
    if octets[..12] == [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] {
        return Some(Ipv4Addr::new(
            octets[12], octets[13], octets[14], octets[15],
        ));
    }
    v6.to_ipv4()
}

/// Whether `ip` lies in one of `ranges` (static `(network, prefix)` pairs).
fn in_ranges(ranges: &[(&str, u8)], ip: IpAddr) -> bool {
    ranges.iter().any(|(net, prefix)| {
        let cidr = Cidr {
            network: net.parse().expect("static network parses"),
            prefix: *prefix,
        };
        cidr.contains(ip)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(policy: &NetPolicy, ip: &str) -> bool {
        !policy.is_allowed(ip.parse().unwrap())
    }

    #[test]
    fn the_default_policy_refuses_every_listed_range() {
        let policy = NetPolicy::from_config(None).unwrap();
        for ip in [
            "0.1.2.3",
            "10.0.0.1",
            "100.64.0.1",
            "100.127.255.255",
            "127.0.0.1",
            "127.3.4.5",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "224.0.0.1",
            "239.1.1.1",
            "240.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fc00::1",
            "fd00:ec2::254",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::ffff:10.1.2.3",
            "64:ff9b::a9fe:a9fe",
        ] {
            assert!(refused(&policy, ip), "{ip} should be refused");
        }
    }

    #[test]
    fn the_default_policy_allows_public_addresses() {
        let policy = NetPolicy::default();
        for ip in [
            "8.8.8.8",
            "100.128.0.1",
            "172.32.0.1",
            "2606:4700::1111",
            "::ffff:1.1.1.1",
        ] {
            assert!(!refused(&policy, ip), "{ip} should be allowed");
        }
    }

    #[test]
    fn one_allows_private_addresses_but_not_cloud_metadata() {
        let policy = NetPolicy::from_config(Some("1")).unwrap();
        assert!(!refused(&policy, "127.0.0.1"));
        assert!(!refused(&policy, "10.1.2.3"));
        for ip in [
            "169.254.169.254",
            "169.254.170.2",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "fd00:ec2::254",
            "100.100.100.200",
        ] {
            assert!(refused(&policy, ip), "{ip} should stay refused under 1");
        }
        assert!(!policy.is_host_allowed("metadata.google.internal"));
        assert!(!policy.is_host_allowed("Instance-Data.ec2.internal."));
    }

    #[test]
    fn a_metadata_address_is_reached_only_when_named_as_a_cidr() {
        let policy = NetPolicy::from_config(Some("169.254.169.254/32")).unwrap();
        assert!(!refused(&policy, "169.254.169.254"));
        assert!(refused(&policy, "169.254.170.2"));
    }

    #[test]
    fn a_cidr_list_allows_only_the_networks_it_names() {
        let policy = NetPolicy::from_config(Some("127.0.0.2/32, 10.0.0.0/8")).unwrap();
        assert!(!refused(&policy, "127.0.0.2"));
        assert!(!refused(&policy, "10.9.9.9"));
        assert!(!refused(&policy, "::ffff:127.0.0.2"));
        assert!(refused(&policy, "127.0.0.1"));
        assert!(refused(&policy, "169.254.169.254"));
        assert!(!policy.is_host_allowed("metadata.google.internal."));
    }

    #[test]
    fn a_malformed_cidr_list_is_an_error() {
        assert!(NetPolicy::from_config(Some("10.0.0.0/33")).is_err());
        assert!(NetPolicy::from_config(Some("yes")).is_err());
    }

    #[test]
    fn zero_and_empty_refuse_private_addresses() {
        for value in ["0", ""] {
            let policy = NetPolicy::from_config(Some(value)).unwrap();
            assert!(refused(&policy, "127.0.0.1"));
        }
    }
}

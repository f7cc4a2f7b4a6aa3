// Package ssrf keeps the browser away from addresses a page should never
// make it reach: cloud metadata services (which hand out credentials) and
// link-local or unique-local networks. Loopback and private addresses stay
// allowed: developers test their local apps, as in the reference.
package ssrf

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Error says why a host is refused.
type Error struct {
	Host   string
	Reason string
}

func (e *Error) Error() string { return fmt.Sprintf("%s is %s", e.Host, e.Reason) }

// isMetadataName reports a metadata service reached by name.
func isMetadataName(h string) bool {
	switch h {
	case "metadata.google.internal", "metadata.azure.internal", "metadata",
		"instance-data": // EC2's name for its metadata service
		return true
	}
	return false
}

// blockedPrefixes are the networks refused whatever the spelling of the
// address. They are parsed on first use, not at start-up: every CLI call
// links this package, and most never check a URL.
var blockedPrefixes = sync.OnceValue(func() []blockedPrefix {
	return []blockedPrefix{
		{netip.MustParsePrefix("169.254.0.0/16"), "a link-local address (cloud metadata lives there)"},
		{netip.MustParsePrefix("100.100.100.200/32"), "a cloud metadata address (Alibaba)"},
		{netip.MustParsePrefix("fd00:ec2::254/128"), "a cloud metadata address (AWS, IPv6)"},
		{netip.MustParsePrefix("fc00::/7"), "an IPv6 unique-local address"},
		{netip.MustParsePrefix("fe80::/10"), "an IPv6 link-local address"},
	}
})

type blockedPrefix struct {
	prefix netip.Prefix
	reason string
}

// CheckHost refuses a URL host (a name, an IPv4 address in any of the
// spellings browsers accept, or a bracketed IPv6 address) that is a
// metadata service or in a blocked network. It does not resolve names.
func CheckHost(host string) error {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if isMetadataName(h) {
		return &Error{Host: host, Reason: "a cloud metadata service"}
	}
	addr, ok := ParseHostIP(h)
	if !ok {
		return nil
	}
	return CheckAddr(host, addr)
}

// CheckAddr refuses an address in a blocked network. IPv4-mapped IPv6
// addresses are judged as the IPv4 address they carry.
func CheckAddr(host string, addr netip.Addr) error {
	addr = addr.Unmap()
	for _, b := range blockedPrefixes() {
		if b.prefix.Contains(addr) {
			return &Error{Host: host, Reason: b.reason + " (" + addr.String() + ")"}
		}
	}
	return nil
}

// ParseHostIP reads a URL host as an IP address the way a browser does:
// bracketed IPv6, and IPv4 as one to four parts in decimal, octal (leading
// 0) or hex (0x), the last part filling the remaining bytes (so
// 2852039166, 0xA9FEA9FE and 0251.0376.0251.0376 are all 169.254.169.254).
func ParseHostIP(host string) (netip.Addr, bool) {
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		a, err := netip.ParseAddr(host[1 : len(host)-1])
		return a, err == nil
	}
	if a, err := netip.ParseAddr(host); err == nil {
		return a, true
	}
	parts := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(parts) == 0 || len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := parseIPv4Part(p)
		if !ok {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	// Every part but the last is one byte; the last fills what is left.
	var v uint64
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v = v<<8 | n
	}
	rest := 8 * uint(5-len(nums))
	last := nums[len(nums)-1]
	if last >= 1<<rest {
		return netip.Addr{}, false
	}
	v = v<<rest | last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

func parseIPv4Part(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(p) > 1 && (p[:2] == "0x" || p[:2] == "0X"):
		base, p = 16, p[2:]
		if p == "" {
			return 0, true // "0x" alone is zero, as browsers read it
		}
	case len(p) > 1 && p[0] == '0':
		base, p = 8, p[1:]
	}
	n, err := strconv.ParseUint(p, base, 64)
	if err != nil || n > 1<<32 {
		return 0, false
	}
	return n, true
}

// lookupTimeout bounds the DNS check: a slow resolver must not stall goto.
const lookupTimeout = 2 * time.Second

// Resolver looks names up; net.DefaultResolver in the daemon.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// CheckName refuses a host name that resolves to a blocked address (a DNS
// name pointed at 169.254.169.254, say). A name that does not resolve is
// let through: the browser's own load then fails with its DNS error.
func CheckName(ctx context.Context, r Resolver, host string) error {
	if err := CheckHost(host); err != nil {
		return err
	}
	if _, ok := ParseHostIP(strings.ToLower(host)); ok || host == "" || strings.EqualFold(host, "localhost") {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		if err := CheckAddr(host, a); err != nil {
			return &Error{Host: host, Reason: "a name for " + err.(*Error).Reason}
		}
	}
	return nil
}

// DefaultResolver is the system's resolver.
var DefaultResolver Resolver = net.DefaultResolver

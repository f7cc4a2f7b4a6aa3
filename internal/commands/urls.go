package commands

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
)

// schemeOf returns the URL scheme s starts with ("" for none), by RFC 3986's
// grammar: a letter, then letters, digits, '+', '.' or '-', then ':'.
func schemeOf(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'):
		case i > 0 && c == ':':
			return s[:i]
		default:
			return ""
		}
	}
	return ""
}

// NormalizeURL checks a goto target and fills in what an agent leaves out.
// Allowed: http, https, file and about:blank. A bare host ("example.com",
// "localhost:3000/x") gets http:// for loopback and https:// otherwise.
// file://./rel and file://~/rel are made absolute against base and home.
func NormalizeURL(raw, base, home string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", fmt.Errorf("empty URL")
	}
	if strings.ContainsAny(s, "\x00\n\r") {
		return "", fmt.Errorf("URL contains control characters")
	}
	scheme := schemeOf(s)
	if scheme != "" && isPortAfter(s[len(scheme)+1:]) {
		scheme = "" // "localhost:3000" is a host and port, not a scheme
	}
	if scheme == "" {
		host := s
		if i := strings.IndexAny(host, "/?#"); i >= 0 {
			host = host[:i]
		}
		if host == "" || strings.ContainsAny(host, " \t") {
			return "", fmt.Errorf("%q is not a URL", raw)
		}
		scheme = "https"
		if isLoopback(host) {
			scheme = "http"
		}
		s = scheme + "://" + s
	}
	switch strings.ToLower(scheme) {
	case "http", "https":
		u, err := url.Parse(s)
		if err != nil || u.Host == "" {
			return "", fmt.Errorf("%q is not a valid URL", raw)
		}
		return u.String(), nil
	case "about":
		if strings.EqualFold(s, "about:blank") {
			return "about:blank", nil
		}
		return "", fmt.Errorf("only about:blank is allowed among about: URLs")
	case "file":
		return fileURL(s, base, home)
	}
	return "", fmt.Errorf("the %s: scheme is not allowed: use http, https, file or about:blank", strings.ToLower(scheme))
}

func isPortAfter(rest string) bool {
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	return i > 0 && (i == len(rest) || strings.ContainsRune("/?#", rune(rest[i])))
}

func isLoopback(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// fileURL turns file://…, file://./rel and file://~/rel into file:///abs,
// keeping the query and fragment (single-page apps route on them).
func fileURL(s, base, home string) (string, error) {
	rest := s[len("file:"):]
	rest = strings.TrimPrefix(rest, "//")
	suffix := ""
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest, suffix = rest[:i], rest[i:]
	}
	var p string
	switch {
	case strings.HasPrefix(rest, "./") || rest == ".":
		p = filepath.Join(base, rest)
	case strings.HasPrefix(rest, "~/"):
		if home == "" {
			return "", fmt.Errorf("cannot expand ~: no home directory")
		}
		p = filepath.Join(home, rest[2:])
	case strings.HasPrefix(rest, "/"):
		p = rest
	case strings.HasPrefix(rest, "localhost/"):
		p = rest[len("localhost"):]
	default:
		return "", fmt.Errorf("file URLs need an absolute path (file:///path), ./ or ~/")
	}
	unescaped, err := url.PathUnescape(p)
	if err != nil {
		return "", fmt.Errorf("bad escape in file URL: %v", err)
	}
	u := url.URL{Scheme: "file", Path: filepath.Clean(unescaped)}
	return u.String() + suffix, nil
}

// FilePath returns the local path of a file:// URL, or "" for other URLs.
func FilePath(u string) string {
	if !strings.HasPrefix(u, "file://") {
		return ""
	}
	parsed, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return parsed.Path
}

package commands

import (
	"strings"
	"testing"
)

func TestNormalizeURL(t *testing.T) {
	ok := map[string]string{
		"https://example.com/a?b#c": "https://example.com/a?b#c",
		"http://127.0.0.1:8080":     "http://127.0.0.1:8080",
		"example.com":               "https://example.com",
		"localhost:3000/x":          "http://localhost:3000/x",
		"127.0.0.1:9/":              "http://127.0.0.1:9/",
		"about:blank":               "about:blank",
		"file:///tmp/a.html#/route": "file:///tmp/a.html#/route",
		"file://./page.html?x=1":    "file:///work/page.html?x=1",
		"file://~/p.html":           "file:///home/u/p.html",
		"file:///tmp/a%20b.html":    "file:///tmp/a%20b.html",
		"  https://example.com/  ":  "https://example.com/",
	}
	for in, want := range ok {
		got, err := NormalizeURL(in, "/work", "/home/u")
		if err != nil || got != want {
			t.Errorf("NormalizeURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "javascript:alert(1)", "data:text/html,x", "chrome://settings", "about:config", "ftp://x", "file://relative.html", "http://", "a b"} {
		if got, err := NormalizeURL(bad, "/work", "/home/u"); err == nil {
			t.Errorf("NormalizeURL(%q) = %q, want an error", bad, got)
		}
	}
}

func FuzzNormalizeURL(f *testing.F) {
	for _, s := range []string{"example.com", "file://./x", "javascript:1", "localhost:80", "http://[::1]:3/", "about:blank", "file:///%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := NormalizeURL(raw, "/work", "/home/u")
		if err != nil {
			return
		}
		for _, p := range []string{"http://", "https://", "file://", "about:blank"} {
			if strings.HasPrefix(got, p) {
				return
			}
		}
		t.Fatalf("NormalizeURL(%q) = %q: a scheme that is not allowed", raw, got)
	})
}

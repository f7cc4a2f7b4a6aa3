package e2e

import (
	"strings"
	"testing"
)

// Cloud metadata and link-local hosts are refused in every spelling, by
// every command that loads or fetches a URL; loopback stays allowed.
func TestMetadataAddressesAreRefused(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/home.html"))
	tabsBefore := w.ok("tabs")
	for _, u := range []string{
		"http://169.254.169.254/latest/meta-data/",
		"http://2852039166/",
		"http://0xA9FEA9FE/",
		"http://0251.0376.0251.0376/",
		"http://[::ffff:169.254.169.254]/",
		"http://[fd00:ec2::254]/",
		"http://metadata.google.internal/computeMetadata/v1/",
	} {
		r := w.fails("Refusing to open", "goto", u)
		if !strings.Contains(r.stderr, "metadata") && !strings.Contains(r.stderr, "link-local") {
			t.Errorf("goto %s: the refusal does not say why: %s", u, r.stderr)
		}
		w.fails("Refusing to open", "newtab", u)
		w.fails("Refusing to open", "download", u)
	}
	w.fails("Refusing to open", "diff", url("/home.html"), "http://169.254.169.254/")
	if got := w.ok("tabs"); got != tabsBefore {
		t.Fatalf("a refused newtab left a tab behind:\n%s\nwas\n%s", got, tabsBefore)
	}
	contains(t, w.ok("url"), url("/home.html")) // the page never moved
	contains(t, w.ok("goto", url("/other.html")), "(200)")
}

package e2e

import (
	"os"
	"path/filepath"
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
		"http://0xa9.0xfe.0xa9.0xfe/",
		"http://169.254.43518/",
		"http://0xA9.254.0251.0xFE/",
		"http://[0:0:0:0:0:ffff:a9fe:a9fe]/",
		"http://metadata.azure.internal/metadata/instance",
		"http://[fe80::1]/",
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

// Every command that reads or writes a file keeps to the workspace and the
// temp directory, after resolving symlinks and "..", and names the allowed
// directories when it refuses.
func TestEveryFileArgumentIsConfined(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/interact.html"))
	// A symlink inside a safe directory that points outside it.
	link := filepath.Join(t.TempDir(), "etc-link")
	if err := os.Symlink("/etc", link); err != nil {
		t.Fatal(err)
	}
	outside := []string{"/etc/browse-x", filepath.Join(link, "browse-x"), filepath.Join(w.dir, "..", "..", "etc", "browse-x")}
	for _, p := range outside {
		for _, args := range [][]string{
			{"eval", p + ".js"},
			{"load-html", p + ".html"},
			{"load-html", "--from-file", p + ".json"},
			{"pdf", "--from-file", p + ".json"},
			{"cookie-import", p + ".json"},
			{"upload", "[name=doc]", p + ".txt"},
			{"goto", "file://" + p + ".html"},
			{"screenshot", p + ".png"},
			{"pdf", p + ".pdf"},
			{"snapshot", "-a", "-o", p + ".png"},
			{"archive", p + ".mhtml"},
			{"responsive", p},
			{"prettyscreenshot", p + ".png"},
			{"download", url("/home.html"), p + ".html"},
			{"scrape", "images", "--dir", p},
		} {
			r := w.run(args...)
			if r.code != 1 || !strings.Contains(r.stderr, "outside the allowed directories") || !strings.Contains(r.stderr, os.TempDir()) {
				t.Errorf("browse %s: exit %d, stderr %q; want a refusal naming the allowed directories", strings.Join(args, " "), r.code, r.stderr)
			}
		}
	}
	for _, p := range []string{"/etc/browse-x.png", "/etc/browse-x.pdf", "/etc/browse-x.mhtml", "/etc/browse-x"} {
		if _, err := os.Lstat(p); err == nil {
			os.Remove(p)
			t.Errorf("%s was written", p)
		}
	}
}

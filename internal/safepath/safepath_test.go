package safepath

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	inside := filepath.Join(root, "a.js")
	os.WriteFile(inside, []byte("1"), 0o600)
	link := filepath.Join(root, "escape")
	os.Symlink(outside, link)

	if _, err := Check(inside, []string{root}); err != nil {
		t.Fatalf("inside rejected: %v", err)
	}
	if _, err := Check(filepath.Join(root, "new", "out.png"), []string{root}); err != nil {
		t.Fatalf("not-yet-existing file inside rejected: %v", err)
	}
	for _, bad := range []string{
		filepath.Join(outside, "x.js"),
		filepath.Join(root, "..", filepath.Base(outside), "x.js"),
		filepath.Join(link, "x.js"), // a symlink out of the root
		"relative/x.js",
		"",
	} {
		if _, err := Check(bad, []string{root}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := Check(root+"-sibling/x", []string{root}); err == nil {
		t.Error("a sibling with the root as name prefix was accepted")
	}
}

func FuzzCheck(f *testing.F) {
	root := f.TempDir()
	for _, s := range []string{"/etc/passwd", root + "/a", root + "/../x", "\x00", root + "/./b/../../c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, err := Check(p, []string{root})
		if err == nil && !strings.HasPrefix(got, resolveExisting(root)) {
			t.Fatalf("Check(%q) = %q escapes the root", p, got)
		}
	})
}

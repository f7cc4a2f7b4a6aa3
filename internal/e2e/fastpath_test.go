package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// browse answers warm commands itself and hands the rest to browse-core:
// without browse-core beside it, a warm command still works, and anything
// else says what is missing.
func TestFastPathAndCore(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/home.html"))

	lonely := filepath.Join(t.TempDir(), "browse")
	data, err := os.ReadFile(w.bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lonely, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := w.runBin(lonely, "url"); got.code != 0 || !strings.Contains(got.stdout, "/home.html") {
		t.Fatalf("a warm url without browse-core: exit %d\n%s%s", got.code, got.stdout, got.stderr)
	}
	if got := w.runBin(lonely, "--tab-id", "1", "text"); got.code != 0 || !strings.Contains(got.stdout, "Welcome to the fixture") {
		t.Fatalf("a warm text without browse-core: exit %d\n%s%s", got.code, got.stdout, got.stderr)
	}
	// A usage error comes from the daemon, worded as the full CLI words it.
	if got := w.runBin(lonely, "goto"); got.code != 1 || got.stderr != "Error: 'goto' needs 1 argument.\nHint: Usage: browse goto <url>\n" {
		t.Fatalf("a usage error on the fast path: exit %d\n%s", got.code, got.stderr)
	}
	for _, args := range [][]string{{"help"}, {"status"}, {"frobnicate"}} {
		got := w.runBin(lonely, args...)
		if got.code != 1 || !strings.Contains(got.stderr, "browse-core") {
			t.Fatalf("%v without browse-core: exit %d\n%s%s", args, got.code, got.stdout, got.stderr)
		}
	}

	// Relative file arguments are relative to the caller's directory, as
	// they were when the CLI made them absolute itself.
	sub := filepath.Join(w.dir, "shots")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(w.bin, "screenshot", "--viewport", "here.png")
	cmd.Dir, cmd.Env = sub, w.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("screenshot from a subdirectory: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(sub, "here.png")); err != nil {
		t.Fatalf("the screenshot did not land beside the caller: %v", err)
	}
}

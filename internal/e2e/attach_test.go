package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/browsehq/browse/internal/browser"
)

// startRemoteChromium runs a Chromium the daemon did not launch, with a
// debugging port on loopback, and returns its http://127.0.0.1:PORT.
func startRemoteChromium(t *testing.T) (string, *exec.Cmd) {
	t.Helper()
	path, err := browser.FindChromium()
	if err != nil {
		t.Fatal(err)
	}
	profile := t.TempDir()
	cmd := exec.Command(path, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--user-data-dir="+profile, "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
		if err == nil {
			if port, _, ok := strings.Cut(string(data), "\n"); ok && port != "" {
				return "http://127.0.0.1:" + port, cmd
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the remote Chromium did not open its debugging port")
	return "", nil
}

func TestAttachToRunningBrowser(t *testing.T) {
	remote, cmd := startRemoteChromium(t)
	w := newWorkspace(t)
	contains(t, w.ok("--cdp-url", remote, "goto", url("/home.html")), "(200)")
	status := w.ok("status")
	contains(t, status, "Mode: cdp")
	contains(t, status, "attached to "+remote)
	if st := w.state(); st.Mode != "cdp" || st.ChromiumPID != 0 {
		t.Fatalf("state = %+v", st)
	}
	// Later calls reuse the attached daemon without repeating the flag.
	contains(t, w.ok("text"), "Welcome to the fixture")
	contains(t, w.ok("newtab", url("/other.html")), "Opened tab")
	contains(t, w.ok("console"), "fixture loaded")

	// A daemon driving one browser is never silently swapped for another.
	r := w.fails("run 'browse stop' first", "--cdp-url", "http://127.0.0.1:9/", "url")
	contains(t, r.stderr, remote)

	// Stopping the daemon leaves the user's browser running.
	st := w.state()
	w.ok("stop")
	waitGone(st.PID, 2*time.Second)
	time.Sleep(200 * time.Millisecond)
	if !alive(cmd.Process.Pid) {
		t.Fatal("stopping an attached daemon killed the user's browser")
	}
}

func TestAttachFailureIsClear(t *testing.T) {
	w := newWorkspace(t)
	w.fails("could not start", "--cdp-url", "http://127.0.0.1:"+freePort(t), "url")
	w.fails("must start with ws://", "--cdp-url", "ftp://x", "url")
}

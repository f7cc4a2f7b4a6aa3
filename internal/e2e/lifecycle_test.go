package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/browsehq/browse/internal/state"
)

func TestFirstCallSpawnsLaterCallsReuse(t *testing.T) {
	w := newWorkspace(t)
	contains(t, w.ok("goto", url("/home.html")), "Navigated to "+url("/home.html")+" (200)")
	st := w.state()
	if w.ok("url") != url("/home.html")+"\n" {
		t.Fatal("second call did not see the first call's page")
	}
	if w.state().PID != st.PID {
		t.Fatal("second call started another daemon")
	}

	// The state file and its directory are private, and git-ignored.
	fi, _ := os.Stat(w.statePath())
	di, _ := os.Stat(filepath.Dir(w.statePath()))
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Fatalf("modes: file %v dir %v", fi.Mode().Perm(), di.Mode().Perm())
	}
	if b, _ := os.ReadFile(filepath.Join(w.dir, ".gstack", ".gitignore")); string(b) != "*\n" {
		t.Fatalf(".gitignore = %q", b)
	}
	if st.Port < 10000 || st.Port > 60000 || len(st.Token) < 32 || st.BinaryVersion != "e2e-A" {
		t.Fatalf("state = %+v", st)
	}
	// The daemon log exists and never holds the token.
	logData, _ := os.ReadFile(filepath.Join(w.dir, ".gstack", "browse-daemon.log"))
	if len(logData) == 0 || strings.Contains(string(logData), st.Token) {
		t.Fatal("daemon log missing, or it leaks the token")
	}
}

func TestConcurrentFirstCallsMakeOneDaemon(t *testing.T) {
	w := newWorkspace(t)
	var wg sync.WaitGroup
	results := make([]result, 10)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = w.run("url")
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 {
			t.Fatalf("call %d failed: %s", i, r.stderr)
		}
	}
	st := w.state()
	daemons := processesWith("serve", "--state-file", w.statePath())
	if len(daemons) != 1 || daemons[0] != st.PID {
		t.Fatalf("daemons %v, state pid %d", daemons, st.PID)
	}
	browsers := browserProcesses(w.dir)
	if len(browsers) != 1 {
		t.Fatalf("%d Chromium browser processes, want 1: %v", len(browsers), browsers)
	}
}

func TestIdleExit(t *testing.T) {
	w := newWorkspace(t, "BROWSE_IDLE_TIMEOUT=1500")
	w.ok("url")
	st := w.state()
	if !waitGone(st.PID, 10*time.Second) {
		t.Fatal("daemon did not exit when idle")
	}
	if !waitGone(st.ChromiumPID, 2*time.Second) {
		t.Fatal("Chromium outlived the idle daemon")
	}
	if _, err := os.Stat(w.statePath()); !os.IsNotExist(err) {
		t.Fatal("idle daemon left its state file")
	}
}

func TestChromiumKilledNextCommandRestarts(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/home.html"))
	st := w.state()
	syscall.Kill(st.ChromiumPID, syscall.SIGKILL)
	if !waitGone(st.PID, 5*time.Second) {
		t.Fatal("daemon did not exit when its browser died")
	}
	r := w.run("goto", url("/other.html"))
	if r.code != 0 {
		t.Fatalf("command after a browser crash failed: %s", r.stderr)
	}
	contains(t, r.stderr, "had exited")
	if st2 := w.state(); st2.PID == st.PID || st2.ChromiumPID == st.ChromiumPID {
		t.Fatal("no fresh daemon and browser")
	}
}

func TestChromiumKilledMidFlightIsReplacedOnNextCall(t *testing.T) {
	// The daemon may not have noticed the crash yet when the next CLI comes:
	// it must still answer, or be replaced, never hang.
	w := newWorkspace(t)
	w.ok("url")
	st := w.state()
	syscall.Kill(st.ChromiumPID, syscall.SIGKILL)
	r := w.run("url")
	if r.code != 0 {
		// Acceptable only if it says the daemon went away; the next call works.
		contains(t, r.stderr, "went away")
		w.ok("url")
	}
}

func TestDaemonKilledLeavesNoChromium(t *testing.T) {
	w := newWorkspace(t)
	w.ok("url")
	st := w.state()
	syscall.Kill(st.PID, syscall.SIGKILL)
	if !waitGone(st.ChromiumPID, 3*time.Second) {
		t.Fatal("Chromium survived its daemon's SIGKILL")
	}
	// The stale state file (dead pid) is replaced transparently.
	r := w.run("url")
	if r.code != 0 {
		t.Fatalf("after daemon SIGKILL: %s", r.stderr)
	}
	contains(t, r.stderr, "had exited")
}

func TestStaleStateFileWithDeadPID(t *testing.T) {
	w := newWorkspace(t)
	if err := state.Write(w.statePath(), &state.File{PID: 999999, Port: 1, Token: "x", BinaryVersion: "e2e-A"}); err != nil {
		t.Fatal(err)
	}
	w.ok("url")
	if st := w.state(); st.PID == 999999 {
		t.Fatal("stale state file was not replaced")
	}
}

func TestVersionMismatchRestartsOnce(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/home.html"))
	old := w.state()
	b := binaryB(t)

	r := w.runBin(b, "url")
	if r.code != 0 {
		t.Fatalf("new binary failed: %s", r.stderr)
	}
	contains(t, r.stderr, "restarting")
	st := w.state()
	if st.PID == old.PID || st.BinaryVersion != "e2e-B" {
		t.Fatalf("no restart: %+v", st)
	}
	if !waitGone(old.PID, 2*time.Second) || !waitGone(old.ChromiumPID, 2*time.Second) {
		t.Fatal("the old daemon or its browser is still running")
	}
	// Once restarted, the same binary reuses the new daemon: no loop.
	r = w.runBin(b, "url")
	if r.code != 0 || strings.Contains(r.stderr, "restarting") || w.state().PID != st.PID {
		t.Fatalf("restarted again: %s", r.stderr)
	}
}

func TestStopLeavesNoProcess(t *testing.T) {
	w := newWorkspace(t)
	w.ok("url")
	st := w.state()
	start := time.Now()
	contains(t, w.ok("stop"), "Stopped")
	// A hang, not a speed, is what this looks for (speed is in the
	// benchmarks): stop must not wait out a timeout on a loaded machine.
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("stop took %s", took)
	}
	if !waitGone(st.PID, 5*time.Second) || !waitGone(st.ChromiumPID, 5*time.Second) {
		t.Fatal("processes left 5 s after stop")
	}
	if _, err := os.Stat(w.statePath()); !os.IsNotExist(err) {
		t.Fatal("state file left after stop")
	}
	contains(t, w.ok("status"), "not running") // and status does not start one
	if _, err := os.Stat(w.statePath()); !os.IsNotExist(err) {
		t.Fatal("status started a daemon")
	}
}

func TestRestartKeepsWorking(t *testing.T) {
	w := newWorkspace(t)
	w.ok("url")
	old := w.state()
	contains(t, w.ok("restart"), "Restarted")
	st := w.state()
	if st.PID == old.PID || !waitGone(old.PID, time.Second) {
		t.Fatal("restart did not replace the daemon")
	}
	w.ok("url")
}

func TestDaemonOutlivesItsShell(t *testing.T) {
	w := newWorkspace(t)
	// The CLI runs in a shell of its own process group, which then gets
	// SIGHUP, as when an agent's terminal closes.
	cmd := exec.Command("sh", "-c", w.bin+" url")
	cmd.Dir, cmd.Env = w.dir, w.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	st := w.state()
	syscall.Kill(-cmd.Process.Pid, syscall.SIGHUP)
	syscall.Kill(st.PID, syscall.SIGHUP)
	time.Sleep(200 * time.Millisecond)
	if !alive(st.PID) {
		t.Fatal("daemon died with its shell")
	}
	w.ok("url")
}

func TestSessionsAreSeparateDaemons(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/home.html"))
	w.ok("--session", "agent2", "goto", url("/other.html"))
	t.Cleanup(func() { w.run("--session", "agent2", "stop") })
	if got := w.ok("url"); got != url("/home.html")+"\n" {
		t.Fatalf("default session url = %q", got)
	}
	if got := w.ok("--session", "agent2", "url"); got != url("/other.html")+"\n" {
		t.Fatalf("agent2 url = %q", got)
	}
	st2, err := state.Read(filepath.Join(w.dir, ".gstack", "browse-agent2.json"))
	if err != nil || st2.PID == w.state().PID {
		t.Fatalf("session state: %+v %v", st2, err)
	}
	w.fails("invalid session name", "--session", "../x", "url")
}

func TestStateFileAndPortOverrides(t *testing.T) {
	custom := filepath.Join(t.TempDir(), "st", "b.json")
	w := newWorkspace(t, "BROWSE_STATE_FILE="+custom, "BROWSE_PORT=0")
	w.ok("url")
	st, err := state.Read(custom)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(st.PID, syscall.SIGKILL) })
	w.ok("stop")

	port := freePort(t)
	w2 := newWorkspace(t, "BROWSE_PORT="+port)
	w2.ok("url")
	if got := w2.state().Port; got != atoi(port) {
		t.Fatalf("BROWSE_PORT ignored: port %d", got)
	}
}

func TestStopAndStatusNeverReplaceAnOutdatedDaemon(t *testing.T) {
	w := newWorkspace(t)
	w.ok("url")
	old := w.state()
	b := binaryB(t)
	r := w.runBin(b, "status")
	if r.code != 0 || !strings.Contains(r.stdout, "Status: healthy") || !strings.Contains(r.stderr, "next command restarts it") {
		t.Fatalf("status from another build: %+v", r)
	}
	if w.state().PID != old.PID {
		t.Fatal("status replaced the daemon")
	}
	r = w.runBin(b, "stop")
	if r.code != 0 || strings.Contains(r.stderr, "restarting") {
		t.Fatalf("stop from another build: %+v", r)
	}
	if !waitGone(old.PID, time.Second) || !waitGone(old.ChromiumPID, time.Second) {
		t.Fatal("stop left the daemon or its browser")
	}
	if _, err := os.Stat(w.statePath()); !os.IsNotExist(err) {
		t.Fatal("stop started a new daemon")
	}
}

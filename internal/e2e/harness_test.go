// Package e2e drives the real browse binary, as an agent would: a fresh CLI
// process per command, a real daemon and a real Chromium, against pages served
// by this test process. Nothing here is mocked.
package e2e

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/browsehq/browse/internal/browser"
	"github.com/browsehq/browse/internal/state"
)

var (
	binDir  string
	binA    string // built with version e2e-A
	buildMu sync.Mutex
	binB    string // built on demand with version e2e-B
	fixture *httptest.Server
)

func TestMain(m *testing.M) {
	if _, err := browser.FindChromium(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e tests need Chromium:", err)
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "browse-e2e-bin")
	if err != nil {
		panic(err)
	}
	binDir = dir
	binA = filepath.Join(dir, "a", "browse")
	if err := build(binA, "e2e-A"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fixture = httptest.NewServer(fixtureHandler())
	code := m.Run()
	if sharedCleanup() != 0 && code == 0 {
		code = 1
	}
	fixture.Close()
	os.RemoveAll(dir)
	os.Exit(code)
}

// build makes out (browse, the fast path) and browse-core beside it, as
// `make build` does.
func build(out, version string) error {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	dir := filepath.Dir(out)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	args := []string{"build", "-o", dir + "/", "-ldflags", "-X github.com/browsehq/browse/internal/version.Version=" + version}
	env := append(os.Environ(), "CGO_ENABLED=0")
	if raceBuild {
		args = append(args, "-race")
		env = append(os.Environ(), "CGO_ENABLED=1")
	}
	cmd := exec.Command("go", append(args, "./cmd/browse", "./cmd/browse-core")...)
	cmd.Dir = root
	cmd.Env = env
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building browse: %v\n%s", err, b)
	}
	return nil
}

func binaryB(t *testing.T) string {
	buildMu.Lock()
	defer buildMu.Unlock()
	if binB == "" {
		p := filepath.Join(binDir, "b", "browse")
		if err := build(p, "e2e-B"); err != nil {
			t.Fatal(err)
		}
		binB = p
	}
	return binB
}

func fixtureHandler() http.Handler {
	_, file, _, _ := runtime.Caller(0)
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir(filepath.Join(filepath.Dir(file), "..", "..", "testdata"))))
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(60 * time.Second):
		}
	})
	mux.HandleFunc("/status/", func(w http.ResponseWriter, r *http.Request) {
		code, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/status/"))
		w.WriteHeader(code)
		fmt.Fprintf(w, "<title>Status %d</title><p>status page %d</p>", code, code)
	})
	mux.HandleFunc("/slowasset", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(400 * time.Millisecond)
		w.Write([]byte("ok"))
	})
	// frames.html embeds child.html twice: once from this origin, once from
	// "localhost" — another site, so Chromium runs it out of process.
	mux.HandleFunc("/frames.html", func(w http.ResponseWriter, r *http.Request) {
		port := r.Host[strings.LastIndexByte(r.Host, ':')+1:]
		fmt.Fprintf(w, `<!doctype html><title>Frames</title><h1>Frames page</h1>
<iframe name="same" src="/child.html" width="400" height="150"></iframe>
<iframe name="cross" src="http://localhost:%s/child.html" width="400" height="150" style="margin-left: 50px"></iframe>`, port)
	})
	mux.HandleFunc("/fetching.html", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Fetching</title><script>setTimeout(() => fetch('/slowasset'), 50)</script>`)
	})
	for _, add := range extraFixtures {
		add(mux)
	}
	return mux
}

// extraFixtures lets each test file add its own fixture routes (from an
// init function) without editing this one.
var extraFixtures []func(*http.ServeMux)

// testEnv is the environment of every browse process the tests run. A race
// build sleeps a second at exit unless told not to.
func testEnv() []string {
	return append(os.Environ(), "GORACE=atexit_sleep_ms=0")
}

// workspace is one project directory with its own daemon.
type workspace struct {
	t   *testing.T
	dir string
	bin string
	env []string
}

func newWorkspace(t *testing.T, env ...string) *workspace {
	t.Helper()
	w := &workspace{t: t, dir: t.TempDir(), bin: binA}
	w.env = append(testEnv(), "BROWSE_IDLE_TIMEOUT=120000")
	w.env = append(w.env, env...)
	t.Cleanup(w.cleanup)
	return w
}

func (w *workspace) statePath() string { return filepath.Join(w.dir, ".gstack", "browse.json") }

// cleanup stops every daemon of this workspace (all sessions), waits until
// none of their processes is left, so the temp dir can be removed, and fails
// the test if a race-checked daemon reported a data race.
func (w *workspace) cleanup() {
	if report := w.stopAll(); report != "" {
		w.t.Errorf("%s", report)
	}
}

func (w *workspace) stopAll() (raceReport string) {
	files, _ := filepath.Glob(filepath.Join(w.dir, ".gstack", "browse*.json"))
	for _, f := range files {
		st, err := state.Read(f)
		if err != nil || st.PID <= 0 {
			continue // not a daemon's state (a saved browser state, say): never kill(0)
		}
		syscall.Kill(st.PID, syscall.SIGTERM)
		if !waitGone(st.PID, 3*time.Second) {
			syscall.Kill(st.PID, syscall.SIGKILL)
		}
		if st.ChromiumPID > 0 {
			syscall.Kill(-st.ChromiumPID, syscall.SIGKILL)
			waitGone(st.ChromiumPID, 2*time.Second)
		}
	}
	for _, pid := range processesWith(w.dir) {
		syscall.Kill(pid, syscall.SIGKILL)
		waitGone(pid, time.Second)
	}
	logs, _ := filepath.Glob(filepath.Join(w.dir, ".gstack", "*daemon.log"))
	for _, l := range logs {
		if data, _ := os.ReadFile(l); bytes.Contains(data, []byte("DATA RACE")) {
			raceReport += "the daemon reported a data race:\n" + string(data)
		}
	}
	return raceReport
}

type result struct {
	stdout, stderr string
	code           int
}

func (w *workspace) runBin(bin string, args ...string) result {
	return w.runWith(bin, nil, args...)
}

// runWith runs bin with stdin (nil: none) and returns its outputs.
func (w *workspace) runWith(bin string, stdin io.Reader, args ...string) result {
	cmd := exec.Command(bin, args...)
	cmd.Dir = w.dir
	cmd.Env = w.env
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		w.t.Fatalf("running %v: %v", args, err)
	}
	return result{out.String(), errb.String(), code}
}

func (w *workspace) run(args ...string) result { return w.runBin(w.bin, args...) }

// ok runs a command that must succeed and returns its stdout.
func (w *workspace) ok(args ...string) string {
	w.t.Helper()
	r := w.run(args...)
	if r.code != 0 {
		w.t.Fatalf("browse %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// page runs a page-content command that must succeed and returns its
// output without the untrusted-content envelope, which it must have (and
// without any content-warnings line above it).
func (w *workspace) page(args ...string) string {
	w.t.Helper()
	return unwrap(w.t, w.ok(args...))
}

// unwrap returns the content of an enveloped output, failing the test when
// the envelope is missing or malformed.
func unwrap(t *testing.T, out string) string {
	t.Helper()
	const begin, end = "--- BEGIN UNTRUSTED EXTERNAL CONTENT (source: ", "\n--- END UNTRUSTED EXTERNAL CONTENT ---\n"
	i := strings.Index(out, begin)
	if i < 0 || !strings.HasSuffix(out, end) {
		t.Fatalf("output is not in the untrusted-content envelope:\n%s", out)
	}
	body := out[i:]
	nl := strings.IndexByte(body, '\n')
	return body[nl+1 : len(body)-len(end)+1]
}

// fails runs a command that must fail with exit 1 and an error mentioning want.
func (w *workspace) fails(want string, args ...string) result {
	w.t.Helper()
	r := w.run(args...)
	if r.code != 1 {
		w.t.Fatalf("browse %s: exit %d, want 1\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, want) {
		w.t.Fatalf("browse %s: stderr %q does not mention %q", strings.Join(args, " "), r.stderr, want)
	}
	return r
}

// call sends one HTTP request to the workspace's running daemon, with token
// as the bearer ("" sends none), and returns the response and its body.
func (w *workspace) call(method, path, token, body string) (*http.Response, []byte) {
	w.t.Helper()
	req, err := http.NewRequest(method, "http://127.0.0.1:"+strconv.Itoa(w.state().Port)+path, strings.NewReader(body))
	if err != nil {
		w.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, data
}

func (w *workspace) state() *state.File {
	w.t.Helper()
	st, err := state.Read(w.statePath())
	if err != nil {
		w.t.Fatalf("reading state: %v", err)
	}
	return st
}

func contains(t *testing.T, got, want string) {
	t.Helper()
	if !strings.Contains(got, want) {
		t.Fatalf("output does not contain %q:\n%s", want, got)
	}
}

func alive(pid int) bool { return state.ProcessAlive(pid) }

func waitGone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for alive(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

// processesWith lists pids whose command line contains every needle.
func processesWith(needles ...string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || !alive(pid) {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		all := true
		for _, n := range needles {
			if !bytes.Contains(cmdline, []byte(n)) {
				all = false
				break
			}
		}
		if all {
			pids = append(pids, pid)
		}
	}
	return pids
}

func url(path string) string { return fixture.URL + path }

func freePort(t *testing.T) string {
	srv := httptest.NewServer(http.NotFoundHandler())
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	srv.Close()
	return port
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// browserProcesses lists the Chromium browser processes (not their renderers
// and helpers, which carry --type=) using a profile under dir.
func browserProcesses(dir string) []int {
	var out []int
	for _, pid := range processesWith("--remote-debugging-pipe", dir) {
		cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if !bytes.Contains(cmdline, []byte("--type=")) {
			out = append(out, pid)
		}
	}
	return out
}

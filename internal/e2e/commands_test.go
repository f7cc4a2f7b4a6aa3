package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// shared is one daemon for the command tests: commands, unlike lifecycle,
// do not need a fresh browser each.
var (
	sharedOnce    sync.Once
	sharedWS      *workspace
	sharedCleanup = func() int { return 0 }
)

func shared(t *testing.T) *workspace {
	sharedOnce.Do(func() {
		sharedWS = &workspace{dir: mustTempDir(), bin: binA, env: append(testEnv(), "BROWSE_IDLE_TIMEOUT=300000")}
		sharedCleanup = func() int {
			defer os.RemoveAll(sharedWS.dir)
			if report := sharedWS.stopAll(); report != "" {
				fmt.Fprintln(os.Stderr, report)
				return 1
			}
			return 0
		}
	})
	w := *sharedWS
	w.t = t
	return &w
}

func mustTempDir() string {
	d, err := os.MkdirTemp("", "browse-e2e-shared")
	if err != nil {
		panic(err)
	}
	return d
}

func TestGotoAndHistory(t *testing.T) {
	w := shared(t)
	contains(t, w.ok("goto", url("/home.html")), "(200)")
	contains(t, w.ok("goto", url("/status/404")), "Navigated to "+url("/status/404")+" (404)")
	contains(t, w.ok("back"), url("/home.html"))
	contains(t, w.ok("forward"), url("/status/404"))
	contains(t, w.ok("reload"), "(404)")
	contains(t, w.ok("goto", "about:blank"), "Navigated to about:blank")
	if got := w.ok("url"); got != "about:blank\n" {
		t.Fatalf("url = %q", got)
	}

	file := filepath.Join(t.TempDir(), "page.html")
	os.WriteFile(file, []byte("<title>F</title><p>from a file</p>"), 0o600)
	contains(t, w.ok("goto", "file://"+file), "Navigated to file://"+file)
	contains(t, w.ok("text"), "from a file")
}

func TestGotoErrors(t *testing.T) {
	w := shared(t)
	w.fails("scheme is not allowed", "goto", "javascript:alert(1)")
	w.fails("CONNECTION_REFUSED", "goto", "http://127.0.0.1:"+freePort(t)+"/")
	w.fails("outside the allowed directories", "goto", "file:///etc/hostname")
	start := time.Now()
	r := w.fails("timed out", "--timeout", "1000", "goto", url("/hang"))
	contains(t, r.stderr, "--timeout")
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("a page that never loads took %s to fail", took)
	}
	w.ok("goto", url("/home.html")) // the tab still works
	w.fails("Usage: browse goto <url>", "goto")
	w.fails("at most 1 argument", "goto", "a", "b")
	w.ok("goto", "about:blank")
	w.fails("no previous page", "--tab-id", strconv.Itoa(newTab(t, w)), "back")
}

func newTab(t *testing.T, w *workspace) int {
	var v struct {
		TabID int    `json:"tabId"`
		URL   string `json:"url"`
	}
	if err := json.Unmarshal([]byte(w.ok("newtab", "--json")), &v); err != nil || v.TabID == 0 {
		t.Fatalf("newtab --json: %v", err)
	}
	return v.TabID
}

func TestReadCommands(t *testing.T) {
	w := shared(t)
	tab := strconv.Itoa(newTab(t, w))
	w.ok("--tab-id", tab, "goto", url("/home.html"))

	text := w.ok("--tab-id", tab, "text")
	contains(t, text, "Welcome to the fixture\n\nSome text with spaces.")
	if strings.Contains(text, "hidden paragraph") || strings.Contains(text, "console.log") {
		t.Fatalf("text shows hidden or script content:\n%s", text)
	}
	if got := w.page("--tab-id", tab, "text", "#box"); got != "bold inside box\n" {
		t.Fatalf("text #box = %q", got)
	}
	if got := w.page("--tab-id", tab, "html", "#box"); got != "<b>bold</b> inside box\n" {
		t.Fatalf("html #box = %q", got)
	}
	contains(t, w.ok("--tab-id", tab, "html"), "<title>Fixture Home</title>")
	w.fails("not found", "--tab-id", tab, "html", "#nope")
	w.fails("not a valid CSS selector", "--tab-id", tab, "html", "##bad[")

	links := w.ok("--tab-id", tab, "links")
	contains(t, links, "The form → "+url("/form.html"))
	contains(t, links, "External → https://example.invalid/x")

	w.ok("--tab-id", tab, "goto", url("/form.html"))
	var forms []struct {
		ID     string `json:"id"`
		Method string `json:"method"`
		Fields []map[string]any
	}
	if err := json.Unmarshal([]byte(w.page("--tab-id", tab, "forms")), &forms); err != nil {
		t.Fatal(err)
	}
	if len(forms) != 2 || forms[0].ID != "signup" || forms[0].Method != "POST" || len(forms[0].Fields) != 6 {
		t.Fatalf("forms = %+v", forms)
	}
	raw := w.page("--tab-id", tab, "forms")
	if strings.Contains(raw, "secret123") {
		t.Fatal("forms leaks a password value")
	}
	contains(t, raw, `"label": "Email"`)
	w.fails("takes at most", "--tab-id", tab, "links", "extra")
}

func TestJSAndEval(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/home.html"))
	if got := w.ok("js", "document.title"); got != "Fixture Home\n" {
		t.Fatalf("js = %q", got)
	}
	if got := w.ok("js", "1 + 2"); got != "3\n" {
		t.Fatalf("js 1+2 = %q", got)
	}
	contains(t, w.ok("js", "({a: 1, b: [2]})"), "\"a\": 1")
	if got := w.ok("js", "await new Promise(r => setTimeout(() => r('late'), 50))"); got != "late\n" {
		t.Fatalf("await expression = %q", got)
	}
	if got := w.ok("js", "const r = await Promise.resolve(5); return r * 2"); got != "10\n" {
		t.Fatalf("await statements = %q", got)
	}
	if got := w.ok("js", "-1"); got != "-1\n" {
		t.Fatalf("js -1 = %q", got)
	}
	w.fails("JavaScript error", "js", "nope.nope")
	w.fails("JavaScript error", "js", "throw new Error('mine')")

	script := filepath.Join(w.dir, "s.js")
	os.WriteFile(script, []byte("// await in a comment\nconst t = document.title;\nt + '!'"), 0o600)
	if got := w.ok("eval", script); got != "Fixture Home!\n" {
		t.Fatalf("eval = %q", got)
	}
	w.fails("outside the allowed directories", "eval", "/etc/hostname")
	w.fails("Cannot read", "eval", filepath.Join(w.dir, "missing.js"))
}

func TestWait(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/late.html"))
	contains(t, w.ok("wait", "#late"), "#late")
	contains(t, w.ok("text"), "I arrived")
	start := time.Now()
	r := w.fails("Timed out after 300ms", "wait", "#never", "300")
	contains(t, r.stderr, "snapshot -i")
	if time.Since(start) > 3*time.Second {
		t.Fatal("wait for a missing element did not honour its deadline")
	}
	w.fails("not a valid CSS selector", "wait", "[[")
	w.ok("goto", url("/fetching.html"))
	contains(t, w.ok("wait", "--networkidle"), "network idle")
	contains(t, w.ok("wait", "--load"), "load event")
	contains(t, w.ok("wait", "--domcontentloaded"), "DOMContentLoaded")
	w.fails("Say what to wait for", "wait")
	w.fails("Unknown flag", "wait", "--bogus")
}

func TestTabs(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/home.html"))
	contains(t, w.ok("newtab", url("/other.html")), "Opened tab 2: Navigated to "+url("/other.html"))
	tabs := w.ok("tabs")
	contains(t, tabs, "  [1] Fixture Home — "+url("/home.html"))
	contains(t, tabs, "→ [2] Other — "+url("/other.html"))
	// --tab-id pins a tab without switching.
	if got := w.ok("--tab-id", "1", "url"); got != url("/home.html")+"\n" {
		t.Fatalf("pinned url = %q", got)
	}
	if got := w.ok("url"); got != url("/other.html")+"\n" {
		t.Fatalf("active url = %q", got)
	}
	contains(t, w.ok("tab", "1"), "Switched to tab 1")
	if got := w.ok("url", "--tab-id", "2"); got != url("/other.html")+"\n" {
		t.Fatalf("--tab-id after the command = %q", got)
	}
	contains(t, w.ok("closetab", "2"), "Closed tab 2")
	w.fails("No such tab", "tab", "2")
	w.fails("No tab with id 9", "--tab-id", "9", "url")
	w.fails("not a positive number", "tab", "x")
	contains(t, w.ok("closetab"), "Closed tab 1") // the last tab: a blank one replaces it
	contains(t, w.ok("tabs"), "about:blank")
}

func TestTabsRunInParallel(t *testing.T) {
	w := newWorkspace(t)
	w.ok("url")
	slow := strconv.Itoa(newTab(t, w))
	done := make(chan result, 1)
	go func() { done <- w.run("--tab-id", slow, "--timeout", "3000", "goto", url("/hang")) }()
	time.Sleep(300 * time.Millisecond)
	// Another tab answers while the slow one loads; the daemon is not replaced.
	pid := w.state().PID
	start := time.Now()
	w.ok("--tab-id", "1", "goto", url("/other.html"))
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("tab 1 waited %s behind tab %s", took, slow)
	}
	r := <-done
	contains(t, r.stderr, "timed out")
	if w.state().PID != pid {
		t.Fatal("a busy daemon was replaced")
	}
}

func TestConsoleNetworkDialog(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/home.html"))
	contains(t, w.ok("console"), "[log] fixture loaded 7")
	errs := w.ok("console", "--errors")
	contains(t, errs, "[warning] careful")
	if strings.Contains(errs, "fixture loaded") {
		t.Fatal("--errors shows plain logs")
	}
	w.ok("goto", url("/errors.html"))
	w.ok("wait", "--load")
	time.Sleep(100 * time.Millisecond)
	errs = w.ok("console", "--errors")
	contains(t, errs, "explicit error")
	contains(t, errs, "boom uncaught")
	contains(t, w.ok("console", "--clear"), "Cleared")
	contains(t, w.ok("console"), "(no console messages)")

	contains(t, w.ok("network"), "GET "+url("/home.html")+" → 200")
	contains(t, w.ok("network", "--clear"), "Cleared")
	contains(t, w.ok("network"), "(no network requests)")

	w.ok("goto", url("/dialogs.html"))
	got := w.ok("js", "JSON.stringify(runDialogs())")
	contains(t, got, `"confirm":true`)
	contains(t, got, `"prompt":"def"`)
	d := w.ok("dialog")
	contains(t, d, `[alert] "hello alert" → accepted`)
	contains(t, d, `[prompt] "name?" → accepted with "def"`)
	contains(t, w.ok("dialog", "--clear"), "Cleared 3")
}

func TestUsageAndHelp(t *testing.T) {
	w := newWorkspace(t)
	r := w.fails("Unknown command \"gto\"", "gto", "x")
	contains(t, r.stderr, "Did you mean 'goto'")
	if _, err := os.Stat(w.statePath()); !os.IsNotExist(err) {
		t.Fatal("an unknown command started a daemon")
	}
	help := w.ok("help")
	for _, name := range []string{"goto", "text", "tabs", "console", "wait"} {
		contains(t, help, name)
	}
	contains(t, w.ok("help", "wait"), "--networkidle")
	w.fails("Unknown command", "help", "nope")
	contains(t, w.ok("--version"), "browse e2e-A")
	w.fails("Unknown flag \"--bogus\"", "console", "--bogus")
	w.fails("--tab-id takes a positive number", "--tab-id", "x", "url")
}

func TestHTTPAPIErrors(t *testing.T) {
	w := newWorkspace(t)
	w.ok("url")
	st := w.state()
	post := func(path, token, body string) (int, map[string]string, string) {
		resp, raw := w.call("POST", path, token, body)
		var m map[string]string
		json.Unmarshal(raw, &m)
		return resp.StatusCode, m, string(raw)
	}
	if code, m, _ := post("/command", "", `{"command":"url"}`); code != 401 || m["hint"] == "" {
		t.Fatalf("no token: %d %v", code, m)
	}
	if code, _, _ := post("/command", st.Token+"x", `{"command":"url"}`); code != 401 {
		t.Fatalf("wrong token: %d", code)
	}
	if code, m, _ := post("/command", st.Token, `{"command":`); code != 400 || !strings.Contains(m["error"], "malformed JSON") {
		t.Fatalf("malformed body: %d %v", code, m)
	}
	if code, m, _ := post("/command", st.Token, `{"command":"nope"}`); code != 404 || !strings.Contains(m["error"], "Unknown command") {
		t.Fatalf("unknown command: %d %v", code, m)
	}
	if code, _, body := post("/command", st.Token, `{"command":"js","args":["6*7"]}`); code != 200 || body != "42" {
		t.Fatalf("js over HTTP: %d %q", code, body)
	}
	code, _, body := post("/batch", st.Token, `{"commands":[{"command":"url"},{"command":"nope"},{"command":"js","args":["1"]}]}`)
	if code != 200 || !strings.Contains(body, `"status":200`) || !strings.Contains(body, `"status":404`) || !strings.Contains(body, "Unknown command") ||
		!strings.Contains(body, `"total":3,"succeeded":2,"failed":1`) {
		t.Fatalf("batch: %d %s", code, body)
	}
	if _, _, body := post("/batch", st.Token, `{"commands":[{"command":"stop"}]}`); !strings.Contains(body, "cannot run inside a batch") {
		t.Fatalf("stop in a batch: %s", body)
	}
	// /health needs no token and gives none out.
	resp, raw := w.call("GET", "/health", "", "")
	if resp.StatusCode != 200 || bytes.Contains(raw, []byte(st.Token)) || !bytes.Contains(raw, []byte(`"healthy"`)) {
		t.Fatalf("health: %d %s", resp.StatusCode, raw)
	}
	// The daemon survived all of it.
	w.ok("url")
	contains(t, w.ok("status"), "Status: healthy")
}

func TestWedgedPageDoesNotWedgeTheDaemon(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/home.html"))
	wedged := strconv.Itoa(newTab(t, w))
	w.ok("--tab-id", wedged, "goto", url("/wedge.html"))
	// The click's events reach a page that then spins forever.
	w.run("--tab-id", wedged, "--timeout", "1500", "click", "button")
	start := time.Now()
	r := w.run("--tab-id", wedged, "--timeout", "1000", "text")
	if r.code != 1 || time.Since(start) > 5*time.Second {
		t.Fatalf("a command on the wedged tab: exit %d after %s: %s", r.code, time.Since(start), r.stderr)
	}
	contains(t, r.stderr, "timed out")
	// Other tabs, and the daemon itself, carry on.
	contains(t, w.ok("--tab-id", "1", "text"), "Welcome to the fixture")
	contains(t, w.ok("tabs"), "Wedge")
	contains(t, w.ok("status"), "healthy")
	// Closing the wedged tab frees it.
	contains(t, w.ok("closetab", wedged), "Closed tab")
}

func TestCapturesAreFlushedToDisk(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/home.html"))
	w.ok("goto", url("/dialogs.html"))
	w.ok("js", "runDialogs()")
	read := func(kind string) string {
		data, _ := os.ReadFile(filepath.Join(w.dir, ".gstack", "browse-"+kind+".log"))
		return string(data)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && !(strings.Contains(read("console"), "fixture loaded") &&
		strings.Contains(read("network"), "GET "+url("/home.html")+" → 200") && strings.Contains(read("dialog"), "hello alert")) {
		time.Sleep(100 * time.Millisecond)
	}
	contains(t, read("console"), "fixture loaded 7")
	contains(t, read("network"), "GET "+url("/home.html")+" → 200")
	contains(t, read("dialog"), `[alert] "hello alert" → accepted`)
	fi, err := os.Stat(filepath.Join(w.dir, ".gstack", "browse-console.log"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("console log mode: %v %v", fi, err)
	}
	// Each entry is written once.
	time.Sleep(1500 * time.Millisecond)
	if n := strings.Count(read("console"), "fixture loaded 7"); n != 1 {
		t.Fatalf("console entry written %d times", n)
	}
}

package e2e

import (
	"fmt"
	"html"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func init() {
	extraFixtures = append(extraFixtures, func(mux *http.ServeMux) {
		// Echoes the request headers the page was fetched with, so a test
		// can check what reached the server.
		mux.HandleFunc("/state-echo", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `<!doctype html><title>Echo</title>
<p id="cookie">cookie=[%s]</p>
<p id="ua">ua=[%s]</p>
<p id="xtest">x-test=[%s]</p>
<p id="auth">authorization=[%s]</p>
<button id="b" onclick="this.textContent = 'clicked ' + navigator.userAgent">Press me</button>`,
				html.EscapeString(r.Header.Get("Cookie")), html.EscapeString(r.Header.Get("User-Agent")),
				html.EscapeString(r.Header.Get("X-Test")), html.EscapeString(r.Header.Get("Authorization")))
		})
	})
}

// stateWorkspace is a new workspace whose saved states are removed before
// its daemons are stopped: the harness's clean-up reads every
// .gstack/browse*.json as a daemon state file, and a saved state has no pid.
func stateWorkspace(t *testing.T) *workspace {
	w := newWorkspace(t)
	t.Cleanup(func() { // runs before the workspace's own clean-up
		files, _ := filepath.Glob(filepath.Join(w.dir, ".gstack", "browse-state-*.json"))
		for _, f := range files {
			os.Remove(f)
		}
	})
	return w
}

// tabIDs parses the ids out of 'tabs' output, and the active one.
func tabIDs(t *testing.T, w *workspace) (ids []string, active string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(w.ok("tabs")), "\n") {
		open, close := strings.Index(line, "["), strings.Index(line, "]")
		if open < 0 || close < open {
			t.Fatalf("unexpected tabs line %q", line)
		}
		id := line[open+1 : close]
		ids = append(ids, id)
		if strings.HasPrefix(line, "→") {
			active = id
		}
	}
	return ids, active
}

// writeFile writes a test input into the workspace and returns its path.
func writeFile(t *testing.T, w *workspace, name, content string) string {
	t.Helper()
	p := filepath.Join(w.dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCookieSetReadImport(t *testing.T) {
	w := shared(t)
	w.ok("goto", "about:blank")
	w.fails("no domain to set a cookie for", "cookie", "a=b")
	w.ok("goto", url("/state-echo"))
	w.fails("Expected <name>=<value>", "cookie", "no-equals-sign")
	w.fails("Expected <name>=<value>", "cookie", "=value")
	w.fails("'='", "cookie", "a b=value")

	contains(t, w.ok("cookie", "e2e_sid=supersecretvalue123"), `Set cookie "e2e_sid" for 127.0.0.1`)
	w.ok("reload")
	contains(t, w.ok("text"), "e2e_sid=supersecretvalue123")

	// The listing truncates values.
	out := w.ok("cookies")
	contains(t, out, `"name": "e2e_sid"`)
	contains(t, out, `"value": "supe…(19 chars)"`)
	if strings.Contains(out, "supersecretvalue123") {
		t.Fatalf("cookies shows a value in full:\n%s", out)
	}

	// The reference's shape (Playwright cookie objects) and a DevTools export.
	pw := writeFile(t, w, "pw-cookies.json", `[
 {"name":"e2e_pw","value":"from-playwright","domain":"127.0.0.1","path":"/","expires":-1,"httpOnly":true,"secure":false,"sameSite":"Lax"},
 {"name":"e2e_other","value":"x","domain":".example.org","path":"/","expires":-1,"httpOnly":false,"secure":false,"sameSite":"Strict"}]`)
	contains(t, w.ok("cookie-import", pw), "Imported 2 cookies for 2 domains")
	dt := writeFile(t, w, "devtools-cookies.json", `[{"domain":"127.0.0.1","expirationDate":4102444800,"hostOnly":true,"httpOnly":false,
 "name":"e2e_dt","path":"/","sameSite":"unspecified","secure":false,"session":false,"storeId":"0","value":"from-devtools","id":1}]`)
	contains(t, w.ok("cookie-import", dt), "Imported 1 cookies for 1 domains")
	w.ok("reload")
	text := w.ok("text")
	contains(t, text, "e2e_pw=from-playwright")
	contains(t, text, "e2e_dt=from-devtools")
	if strings.Contains(text, "e2e_other") {
		t.Fatalf("a cookie of another domain was sent:\n%s", text)
	}

	// Playwright's storage state: cookies and localStorage.
	origin := strings.TrimSuffix(url("/"), "/")
	ss := writeFile(t, w, "storage-state.json", `{"cookies":[{"name":"e2e_ss","value":"from-state","domain":"127.0.0.1","path":"/","expires":-1,"httpOnly":false,"secure":false,"sameSite":"Lax"}],
 "origins":[{"origin":"`+origin+`","localStorage":[{"name":"e2e_ls","value":"from-state-ls"}]}]}`)
	contains(t, w.ok("cookie-import", ss), "Imported 1 cookies for 1 domains, and 1 localStorage items for 1 origins")
	w.ok("reload")
	contains(t, w.ok("text"), "e2e_ss=from-state")
	contains(t, w.ok("storage"), `"e2e_ls": "from-state-ls"`)
}

func TestCookieImportWrongShapeImportsNothing(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/state-echo"))
	for name, content := range map[string]string{
		"object.json":   `{"name":"e2e_bad1","value":"x","domain":"127.0.0.1"}`,
		"one-bad.json":  `[{"name":"e2e_bad2","value":"x","domain":"127.0.0.1","path":"/"},{"name":"e2e_bad3","value":"x"}]`,
		"samesite.json": `[{"name":"e2e_bad4","value":"x","domain":"127.0.0.1","sameSite":"sometimes"}]`,
		"not-json.txt":  `e2e_bad5=x`,
	} {
		w.fails("Nothing was imported", "cookie-import", writeFile(t, w, name, content))
	}
	out := w.ok("cookies")
	if strings.Contains(out, "e2e_bad") {
		t.Fatalf("a refused import set cookies:\n%s", out)
	}
	w.ok("reload")
	if text := w.ok("text"); strings.Contains(text, "e2e_bad") {
		t.Fatalf("a refused import reached the server:\n%s", text)
	}
	w.fails("Refusing to read", "cookie-import", "/etc/hostname")
}

func TestStorage(t *testing.T) {
	w := shared(t)
	w.ok("goto", "about:blank")
	w.fails("has no storage", "storage")
	w.ok("goto", url("/state-echo"))
	w.ok("js", "localStorage.clear(); sessionStorage.setItem('e2e_sess', 'in-session'); sessionStorage.setItem('sessionToken', 'hidden-session-token')")
	contains(t, w.ok("storage", "set", "e2e_theme", "dark mode"), `Set localStorage "e2e_theme"`)
	out := w.ok("storage")
	contains(t, out, `"e2e_theme": "dark mode"`)
	contains(t, out, `"e2e_sess": "in-session"`)
	contains(t, out, `"sessionToken": "[redacted: hidd…(20 chars)]"`)
	if got := w.ok("js", "localStorage.getItem('e2e_theme')"); got != "dark mode\n" {
		t.Fatalf("localStorage.getItem = %q", got)
	}
	w.fails("Usage: browse storage", "storage", "set", "only-key")
	w.fails("Unknown storage action", "storage", "get")
}

func TestHeaderReachesLaterTabsAndIsRedacted(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/state-echo"))
	_, first := tabIDs(t, w)
	out := w.ok("header", "Authorization: Bearer e2e-secret-token")
	contains(t, out, "Authorization: Bearer ****")
	if strings.Contains(out, "e2e-secret-token") {
		t.Fatalf("header output shows the secret:\n%s", out)
	}
	contains(t, w.ok("header", "X-Test:", "hello", "world"), "X-Test: hello world")
	list := w.ok("header")
	contains(t, list, "Authorization: Bearer ****")
	contains(t, list, "X-Test: hello world")
	if strings.Contains(list, "e2e-secret-token") {
		t.Fatalf("header list shows the secret:\n%s", list)
	}

	// A tab opened after the header was set sends it too.
	w.ok("newtab", url("/state-echo"))
	text := w.ok("text")
	contains(t, text, "x-test=[hello world]")
	contains(t, text, "authorization=[Bearer e2e-secret-token]")
	// And the tab that was open before.
	w.ok("--tab-id", first, "reload")
	contains(t, w.ok("--tab-id", first, "text"), "x-test=[hello world]")

	// Clearing.
	contains(t, w.ok("header", "X-Test:"), "Removed header X-Test")
	w.ok("reload")
	contains(t, w.ok("text"), "x-test=[]")
	w.fails("control character", "header", "X-Test: a\r\nInjected: 1")
	w.fails("header name", "header", "Bad Name: 1")

	// The daemon log never holds the value.
	logs, _ := filepath.Glob(filepath.Join(w.dir, ".gstack", "*.log"))
	for _, l := range logs {
		if data, _ := os.ReadFile(l); strings.Contains(string(data), "e2e-secret-token") {
			t.Fatalf("%s holds the Authorization value", l)
		}
	}
}

func TestUserAgentKeepsTabsAndRefs(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/state-echo"))
	contains(t, w.ok("snapshot", "-i"), `@e1 [button] "Press me"`)
	contains(t, w.ok("useragent", "E2EAgent/1.0", "(test)"), "E2EAgent/1.0 (test)")
	// The ref from before still works, and the page sees the new agent.
	contains(t, w.ok("click", "@e1"), "Clicked @e1")
	contains(t, w.ok("attrs", "@e1"), `"id": "b"`)
	contains(t, w.ok("text"), "clicked E2EAgent/1.0 (test)")
	// The server gets it on the next load, and so does a later tab.
	w.ok("reload")
	contains(t, w.ok("text"), "ua=[E2EAgent/1.0 (test)]")
	w.ok("newtab", url("/state-echo"))
	contains(t, w.ok("text"), "ua=[E2EAgent/1.0 (test)]")
	w.fails("one line", "useragent", "bad\nagent")
}

func TestStateSaveStopLoad(t *testing.T) {
	w := stateWorkspace(t)
	w.ok("goto", url("/state-echo?tab=one"))
	w.ok("cookie", "e2e_state=kept-across-restarts")
	w.ok("storage", "set", "e2e_saved", "saved-value")
	w.ok("newtab", url("/state-echo?tab=two"))
	_, second := tabIDs(t, w)
	w.ok("newtab", url("/state-echo?tab=three"))
	w.ok("newtab")
	w.ok("load-html", writeFile(t, w, "secret.html", "<p>do-not-persist-this</p>"))
	w.ok("tab", second) // the active tab is the second of four

	contains(t, w.ok("state", "save", "e2e"), `Saved state "e2e"`)
	path := filepath.Join(w.dir, ".gstack", "browse-state-e2e.json")
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("state file mode %v, want 0600", info.Mode().Perm())
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "do-not-persist-this") {
		t.Fatal("load-html content was written to the state file")
	}

	// Forget the localStorage (the profile keeps it across restarts), then
	// restart the daemon: session cookies and tabs are gone.
	w.ok("js", "localStorage.clear()")
	w.ok("stop")
	tabs := w.ok("tabs")
	if strings.Contains(tabs, "state-echo") {
		t.Fatalf("tabs survived the restart:\n%s", tabs)
	}
	before, _ := tabIDs(t, w)

	out := w.ok("state", "load", "e2e")
	contains(t, out, `Loaded state "e2e"`)
	contains(t, out, "1 localStorage items for 1 origins")
	tabs = w.ok("tabs")
	one, two, three := strings.Index(tabs, "tab=one"), strings.Index(tabs, "tab=two"), strings.Index(tabs, "tab=three")
	if one < 0 || two < 0 || three < 0 || !(one < two && two < three) {
		t.Fatalf("tabs not restored in order:\n%s", tabs)
	}
	if n := strings.Count(tabs, "state-echo"); n != 3 {
		t.Fatalf("want the 3 saved pages once each:\n%s", tabs)
	}
	after, _ := tabIDs(t, w)
	for _, id := range before {
		if slices.Contains(after, id) {
			t.Fatalf("tab %s, open before the load, is still open:\n%s", id, tabs)
		}
	}
	if got := w.ok("url"); !strings.Contains(got, "tab=two") {
		t.Fatalf("active tab is %q, want the tab=two one", got)
	}
	text := w.ok("text")
	contains(t, text, "e2e_state=kept-across-restarts")
	contains(t, w.ok("storage"), `"e2e_saved": "saved-value"`)
}

func TestStateRefusals(t *testing.T) {
	w := stateWorkspace(t)
	w.ok("goto", url("/state-echo?refusals"))
	w.ok("newtab", url("/state-echo?second"))
	before := w.ok("tabs")

	w.fails("Invalid state name", "state", "save", "../escape")
	w.fails("Invalid state name", "state", "load", "a/b")
	w.fails("Invalid state name", "state", "load", "..")
	w.fails("Unknown state action", "state", "drop", "x")
	w.fails(`No saved state "missing"`, "state", "load", "missing")

	dir := filepath.Join(w.dir, ".gstack")
	for name, content := range map[string]string{
		"garbage":    "not json at all",
		"badcookie":  `{"version":1,"cookies":[{"name":"e2e_partial","value":"x","domain":"127.0.0.1"},{"name":"nodomain","value":"x"}],"origins":[],"tabs":[{"url":"about:blank"}]}`,
		"notabs":     `{"version":1,"cookies":[],"origins":[],"tabs":[]}`,
		"badversion": `{"version":99,"cookies":[],"origins":[],"tabs":[{"url":"about:blank"}]}`,
		"badurl":     `{"version":1,"cookies":[],"origins":[],"tabs":[{"url":"javascript:alert(1)"}]}`,
	} {
		os.WriteFile(filepath.Join(dir, "browse-state-"+name+".json"), []byte(content), 0o600)
		w.fails("The browser was not changed", "state", "load", name)
	}
	if after := w.ok("tabs"); after != before {
		t.Fatalf("a refused load changed the tabs:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if out := w.ok("cookies"); strings.Contains(out, "e2e_partial") {
		t.Fatalf("a refused load set cookies:\n%s", out)
	}
}

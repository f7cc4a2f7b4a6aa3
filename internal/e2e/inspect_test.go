package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func init() {
	extraFixtures = append(extraFixtures, func(mux *http.ServeMux) {
		// A second page for the memory test's tabs.
		mux.HandleFunc("/inspect-nodes.html", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>Nodes</title>`+strings.Repeat("<p>node</p>", 300))
		})
	})
}

// computed reads one computed style property of the first element sel matches.
func computed(w *workspace, sel, prop string) string {
	w.t.Helper()
	return strings.TrimSpace(w.ok("js", fmt.Sprintf("getComputedStyle(document.querySelector(%q)).getPropertyValue(%q)", sel, prop)))
}

func TestStyleAndUndo(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/inspect-page.html"))
	if got := computed(w, "#title", "color"); got != "rgb(0, 0, 255)" {
		t.Fatalf("stylesheet colour = %q", got)
	}
	contains(t, w.ok("style", "#title", "color", "red"), "Set color: red on #title (was: unset)")
	if got := computed(w, "#title", "color"); got != "rgb(255, 0, 0)" {
		t.Fatalf("after style, colour = %q", got)
	}
	contains(t, w.ok("style", ".note", "font-weight", "300", "!important"), "Set font-weight: 300 !important on .note (was: bold)")
	if got := computed(w, ".note", "font-weight"); got != "300" {
		t.Fatalf("after style, weight = %q", got)
	}

	out := w.ok("style", "--undo", "2")
	contains(t, out, "Undid 2 style changes")
	if got := computed(w, "#title", "color"); got != "rgb(0, 0, 255)" {
		t.Fatalf("after undo, colour = %q", got)
	}
	// The old inline values come back exactly: none at all on #title, the
	// original declaration on .note.
	if got := strings.TrimSpace(w.ok("js", `JSON.stringify([document.querySelector('#title').getAttribute('style'), document.querySelector('.note').getAttribute('style')])`)); got != `[null,"font-weight: bold;"]` {
		t.Fatalf("style attributes after undo = %s", got)
	}

	w.fails("no style changes to undo", "style", "--undo")
	w.ok("style", "#title", "color", "red")
	contains(t, w.ok("style", "--undo", "4"), "Undid 1 style change (asked for 4: 3 more than the history held)")
	w.fails("does not accept", "style", "#title", "color", "blorp")
	w.fails("does not accept", "style", "#title", "colr", "red")
	w.fails("positive number", "style", "--undo", "zero")
}

func TestInspect(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/inspect-page.html"))

	out := w.ok("inspect", "#title")
	contains(t, out, `Element: <h1 id="title" class="big"> (#title)`)
	// The served stylesheet's rule, with its specificity and place.
	contains(t, out, ".card h1#title  specificity (1,1,1)  "+url("/inspect-style.css")+":4")
	contains(t, out, "    color: rgb(0, 0, 255);")
	contains(t, out, "h1  specificity (0,0,1)  "+url("/inspect-style.css")+":9")
	contains(t, out, "user-agent rules not shown")
	if strings.Contains(out, "  user-agent\n") {
		t.Fatalf("user-agent rules shown without --all:\n%s", out)
	}
	contains(t, out, "  font-size: 32px\n")
	contains(t, out, "  padding: 4px 6px 4px 6px\n")
	// The rules come highest priority first.
	if strings.Index(out, ".card h1#title") > strings.Index(out, "h1  specificity (0,0,1)") {
		t.Fatalf("rules out of cascade order:\n%s", out)
	}

	all := w.ok("inspect", "#title", "--all")
	contains(t, all, "  user-agent\n")
	contains(t, all, "Computed style (all ")
	contains(t, all, "  -webkit-")

	note := w.ok("inspect", ".note")
	contains(t, note, ".note  specificity (0,1,0)  <style> in "+url("/inspect-page.html")+":5")
	contains(t, note, "Inline style (style attribute):\n    font-weight: bold;")

	box := w.ok("inspect", "#boxed")
	contains(t, box, "  content  100 x 40\n")
	contains(t, box, "  padding  120 x 60  (10 10 10 10)\n")
	contains(t, box, "  border   124 x 64  (2 2 2 2)\n")
	contains(t, box, "  margin   138 x 74  (5 7 5 7)\n")

	contains(t, w.ok("inspect"), "Element: <body> (body)")

	w.ok("style", "#boxed", "color", "red")
	contains(t, w.ok("inspect", "#boxed", "--history"), "Style changes on this page (1, oldest first):\n  1. #boxed  color: red (was: unset)")
	w.ok("style", "--undo")

	w.fails("not found", "inspect", "#missing")
	// A click still works right after an inspection.
	contains(t, w.ok("click", "#go"), "Clicked #go")
}

func TestCDP(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/inspect-page.html"))

	var version map[string]any
	if err := json.Unmarshal([]byte(w.ok("cdp", "Browser.getVersion")), &version); err != nil || version["product"] == nil {
		t.Fatalf("Browser.getVersion: %v %v", err, version)
	}
	var layout map[string]any
	if err := json.Unmarshal([]byte(w.ok("cdp", "Page.getLayoutMetrics", "{}")), &layout); err != nil || layout["cssLayoutViewport"] == nil {
		t.Fatalf("Page.getLayoutMetrics: %v %v", err, layout)
	}
	contains(t, w.ok("cdp", "Emulation.setCPUThrottlingRate", "--json", `{"rate": 1}`), "{}")

	w.fails("cdp --list", "cdp", "Runtime.evaluate", `{"expression": "1"}`)
	w.fails("cdp --list", "cdp", "Network.getCookies")
	w.fails("not a JSON object", "cdp", "Emulation.setCPUThrottlingRate", "{rate: 4}")
	w.fails("not a JSON object", "cdp", "Emulation.setCPUThrottlingRate", "[4]")
	w.fails("Chromium refused DOM.getBoxModel", "cdp", "DOM.getBoxModel", `{"nodeId": 987654}`)

	list := w.ok("cdp", "--list")
	contains(t, list, "Performance.getMetrics")
	contains(t, list, "Browser.getVersion                   browser")
	contains(t, list, "untrusted output")

	// Over HTTP, a method outside the list is 403 Forbidden.
	token := w.state().Token
	resp, body := w.call("POST", "/command", token, `{"command":"cdp","args":["Runtime.evaluate","{\"expression\":\"1\"}"]}`)
	if resp.StatusCode != 403 || !strings.Contains(string(body), "cdp --list") {
		t.Fatalf("denied method over HTTP: %d %s", resp.StatusCode, body)
	}
	resp, body = w.call("POST", "/command", token, `{"command":"cdp","args":["Runtime.getHeapUsage"]}`)
	if resp.StatusCode != 200 || !strings.Contains(string(body), "usedSize") {
		t.Fatalf("allowed method over HTTP: %d %s", resp.StatusCode, body)
	}
}

// memorySnapshot is the part of the memory JSON the test looks at.
type memorySnapshot struct {
	Daemon struct {
		PID            int   `json:"pid"`
		RSSBytes       int64 `json:"rssBytes"`
		HeapAllocBytes int64 `json:"heapAllocBytes"`
	} `json:"daemon"`
	Tabs []struct {
		ID              int    `json:"tabId"`
		URL             string `json:"url"`
		JSHeapUsedBytes int64  `json:"jsHeapUsedBytes"`
		DOMNodes        int64  `json:"domNodes"`
		Error           string `json:"error"`
	} `json:"tabs"`
	Processes []struct {
		PID      int    `json:"pid"`
		Type     string `json:"type"`
		RSSBytes int64  `json:"rssBytes"`
	} `json:"processes"`
	Buffers []struct {
		Name     string `json:"name"`
		Len      int    `json:"len"`
		Capacity int    `json:"capacity"`
	} `json:"buffers"`
}

func TestMemory(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/inspect-page.html"))
	w.ok("newtab", url("/inspect-nodes.html"))
	w.ok("newtab", url("/home.html"))

	// Every open tab, as 'tabs' lists them (a slow start can add a blank one).
	var open []string
	for _, m := range regexp.MustCompile(`\[(\d+)\]`).FindAllStringSubmatch(w.ok("tabs"), -1) {
		open = append(open, m[1])
	}
	sort.Strings(open)
	if len(open) < 3 {
		t.Fatalf("tabs: %v", open)
	}

	check := func(what string, data []byte) {
		t.Helper()
		var m memorySnapshot
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s: not JSON: %v\n%s", what, err, data)
		}
		var ids []string
		urls := map[string]bool{}
		for _, tab := range m.Tabs {
			if tab.Error != "" || tab.JSHeapUsedBytes <= 0 || tab.DOMNodes <= 0 {
				t.Fatalf("%s: tab without numbers: %+v", what, tab)
			}
			ids = append(ids, strconv.Itoa(tab.ID))
			urls[tab.URL] = true
		}
		sort.Strings(ids)
		if strings.Join(ids, " ") != strings.Join(open, " ") {
			t.Fatalf("%s: tabs %v, want every open tab %v", what, ids, open)
		}
		for _, u := range []string{url("/home.html"), url("/inspect-nodes.html"), url("/inspect-page.html")} {
			if !urls[u] {
				t.Fatalf("%s: no tab for %s in %+v", what, u, m.Tabs)
			}
		}
		if m.Daemon.RSSBytes <= 0 || m.Daemon.HeapAllocBytes <= 0 {
			t.Fatalf("%s: daemon numbers missing: %+v", what, m.Daemon)
		}
		types := map[string]bool{}
		for _, p := range m.Processes {
			if p.RSSBytes > 0 {
				types[p.Type] = true
			}
		}
		if !types["browser"] || !types["renderer"] {
			t.Fatalf("%s: want browser and renderer processes with RSS > 0, got %+v", what, m.Processes)
		}
		names := map[string]bool{}
		for _, b := range m.Buffers {
			if b.Capacity <= 0 {
				t.Fatalf("%s: buffer without capacity: %+v", what, b)
			}
			names[b.Name] = true
		}
		if !names["console"] || !names["network"] || !names["dialog"] {
			t.Fatalf("%s: buffers %+v", what, m.Buffers)
		}
	}
	check("memory --json", []byte(w.ok("memory", "--json")))

	text := w.ok("memory")
	contains(t, text, fmt.Sprintf("Tabs: %d, by JS heap in use", len(open)))
	contains(t, text, "renderer")
	contains(t, text, "console")

	if resp, _ := w.call("GET", "/memory", "", ""); resp.StatusCode != 401 {
		t.Fatalf("GET /memory without a token: %d", resp.StatusCode)
	}
	resp, body := w.call("GET", "/memory", w.state().Token, "")
	if resp.StatusCode != 200 {
		t.Fatalf("GET /memory: %d %s", resp.StatusCode, body)
	}
	check("GET /memory", body)
}

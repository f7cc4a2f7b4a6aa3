package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// slowNavHits counts requests for /compose-hang5, so a test knows when its
// navigation is in flight.
var slowNavHits atomic.Int32

func init() {
	extraFixtures = append(extraFixtures, func(mux *http.ServeMux) {
		mux.HandleFunc("/compose.html", func(w http.ResponseWriter, r *http.Request) {
			name := r.URL.Query().Get("name")
			fmt.Fprintf(w, `<!doctype html><title>Compose %s</title><h1>Page %s</h1><button id="b">Go</button>`, name, name)
		})
		// Answers after 400 ms: what a batch command waits on.
		mux.HandleFunc("/compose-slow", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(400 * time.Millisecond):
			case <-r.Context().Done():
			}
			w.Write([]byte("slow " + r.URL.Query().Get("i")))
		})
		// A page that takes 5 s to answer.
		mux.HandleFunc("/compose-hang5", func(w http.ResponseWriter, r *http.Request) {
			slowNavHits.Add(1)
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
			fmt.Fprint(w, `<!doctype html><title>Finally</title><p>loaded at last</p>`)
		})
	})
}

// runStdin runs the CLI with input on its standard input, as an agent piping
// a chain does.
func (w *workspace) runStdin(input string, args ...string) result {
	w.t.Helper()
	return w.runWith(w.bin, strings.NewReader(input), args...)
}

func chainJSON(t *testing.T, steps ...[]string) string {
	b, err := json.Marshal(steps)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestChainStopsAtFirstError(t *testing.T) {
	w := shared(t)
	steps := chainJSON(t,
		[]string{"goto", url("/compose.html?name=chain")},
		[]string{"js", "document.title = 'one'"},
		[]string{"js", "throw new Error('boom in step 3')"},
		[]string{"js", "document.title = 'four'"},
	)
	r := w.runStdin(steps, "chain")
	if r.code != 1 {
		t.Fatalf("a failing chain: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	contains(t, r.stderr, "Chain stopped at step 3 of 4")
	contains(t, r.stderr, "[1/4] goto "+url("/compose.html?name=chain")+" → ok")
	contains(t, r.stderr, "Navigated to")
	contains(t, r.stderr, `[3/4] js "throw new Error('boom in step 3')" → error`)
	contains(t, r.stderr, "boom in step 3")
	contains(t, r.stderr, `[4/4] js "document.title = 'four'" → not run`)
	if got := w.ok("js", "document.title"); got != "one\n" {
		t.Fatalf("after a stopped chain the title is %q: step 4 ran", got)
	}

	r = w.runStdin(steps, "chain", "--continue")
	if r.code != 1 {
		t.Fatalf("--continue with a failing step: exit %d", r.code)
	}
	contains(t, r.stderr, "Chain: 1 of 4 steps failed (3).")
	contains(t, r.stderr, `[4/4] js "document.title = 'four'" → ok`)
	if got := w.ok("js", "document.title"); got != "four\n" {
		t.Fatalf("--continue: title %q, step 4 did not run", got)
	}
}

func TestChainSucceedsAndTakesHTTP(t *testing.T) {
	w := shared(t)
	steps := chainJSON(t, []string{"goto", url("/compose.html?name=ok")}, []string{"text"}, []string{"js", "6*7"})
	out := w.runStdin(steps, "chain")
	if out.code != 0 {
		t.Fatalf("chain: exit %d: %s", out.code, out.stderr)
	}
	contains(t, out.stdout, "[2/3] text → ok\n--- BEGIN UNTRUSTED EXTERNAL CONTENT (source: "+url("/compose.html?name=ok")+") ---\nPage ok\nGo\n--- END UNTRUSTED EXTERNAL CONTENT ---")
	contains(t, out.stdout, "[3/3] js 6*7 → ok\n42")

	// Over HTTP the JSON is the single argument.
	body, _ := json.Marshal(map[string]any{"command": "chain", "args": []string{chainJSON(t, []string{"js", "'via http'"})}})
	resp, raw := w.call("POST", "/command", w.state().Token, string(body))
	if resp.StatusCode != 200 || !strings.Contains(string(raw), "[1/1] js \"'via http'\" → ok\nvia http") {
		t.Fatalf("chain over HTTP: %d %s", resp.StatusCode, raw)
	}
}

func TestChainChecksEveryStepFirst(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/compose.html?name=check"))
	r := w.runStdin(chainJSON(t, []string{"js", "document.title = 'ran'"}, []string{"clck", "#b"}), "chain")
	if r.code != 1 {
		t.Fatalf("unknown step: exit %d", r.code)
	}
	contains(t, r.stderr, `Step 2: Unknown command "clck". Nothing was run.`)
	contains(t, r.stderr, "Did you mean 'click'")
	// Wrong arguments and nesting are caught before anything runs too.
	w.runStdin(chainJSON(t, []string{"js", "document.title = 'ran'"}, []string{"goto"}), "chain")
	r = w.runStdin(chainJSON(t, []string{"js", "document.title = 'ran'"}, []string{"chain", "[]"}), "chain")
	contains(t, r.stderr, "Step 2: 'chain' cannot run inside")
	r = w.runStdin(chainJSON(t, []string{"tab-each", "url"}), "chain")
	contains(t, r.stderr, "Step 1: 'tab-each' cannot run inside")
	if got := w.ok("js", "document.title"); got != "Compose check\n" {
		t.Fatalf("a rejected chain ran a step: title %q", got)
	}
}

func TestChainMalformed(t *testing.T) {
	w := shared(t)
	for input, want := range map[string]string{
		`[["goto"`:         "Bad chain: not a JSON array of steps",
		``:                 "Bad chain: no input",
		`[]`:               "the chain has no steps",
		`[["text"], [42]]`: "step 2 is not an array of strings",
		`{"steps": []}`:    "not a JSON array of steps",
	} {
		r := w.runStdin(input, "chain")
		if r.code != 1 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "Hint: Pipe a JSON array") {
			t.Errorf("chain with %q: exit %d, stderr %q, want %q", input, r.code, r.stderr, want)
		}
	}
}

// A chain's own deadline (here 1 s) applies to each step, not to the whole:
// three steps of 0.7 s each finish.
func TestChainDeadlineIsPerStep(t *testing.T) {
	w := shared(t)
	nap := []string{"js", "await new Promise(r => setTimeout(r, 700))"}
	r := w.runStdin(chainJSON(t, nap, nap, nap), "--timeout", "1000", "chain")
	if r.code != 0 {
		t.Fatalf("a chain longer than its per-step deadline: exit %d\n%s", r.code, r.stderr)
	}
	contains(t, r.stdout, "[3/3]")
}

func TestTabEach(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/compose.html?name=1"))
	w.ok("newtab", url("/compose.html?name=2"))
	w.ok("newtab", url("/compose.html?name=3"))
	var got []struct {
		TabID  int    `json:"tabId"`
		URL    string `json:"url"`
		OK     bool   `json:"ok"`
		Output string `json:"output"`
		Error  string `json:"error"`
	}
	out := w.ok("tab-each", "js", "document.title")
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got) != 3 {
		t.Fatalf("tab-each: %v\n%s", err, out)
	}
	for i, r := range got {
		n := strconv.Itoa(i + 1)
		if r.TabID != i+1 || !r.OK || r.Output != "Compose "+n || r.URL != url("/compose.html?name="+n) {
			t.Fatalf("tab %d: %+v", i+1, r)
		}
	}
	// A failure on one tab is reported in its element.
	w.ok("--tab-id", "2", "goto", "about:blank")
	out = w.ok("tab-each", "text", "h1")
	if err := json.Unmarshal([]byte(out), &got); err != nil || got[0].OK != true || got[1].OK || got[1].Error == "" || !got[2].OK {
		t.Fatalf("tab-each with one failure: %v\n%s", err, out)
	}
	w.fails("'chain' cannot run inside", "tab-each", "chain")
	w.fails(`Unknown command "txt"`, "tab-each", "txt")
}

type batchAnswer struct {
	Results []struct {
		Index    int    `json:"index"`
		Status   int    `json:"status"`
		Result   string `json:"result"`
		Command  string `json:"command"`
		TabID    int    `json:"tabId"`
		Error    string `json:"error"`
		Hint     string `json:"hint"`
		Duration int64  `json:"duration"`
	} `json:"results"`
	Duration  int64 `json:"duration"`
	Total     int   `json:"total"`
	Succeeded int   `json:"succeeded"`
	Failed    int   `json:"failed"`
}

func postBatch(t *testing.T, w *workspace, commands ...map[string]any) batchAnswer {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"commands": commands})
	resp, raw := w.call("POST", "/batch", w.state().Token, string(body))
	var ans batchAnswer
	if err := json.Unmarshal(raw, &ans); resp.StatusCode != 200 || err != nil {
		t.Fatalf("batch: %d %v %s", resp.StatusCode, err, raw)
	}
	return ans
}

func TestBatchRunsTabsInParallel(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/compose.html?name=1"))
	for range 3 {
		newTab(t, w)
	}
	var cmds []map[string]any
	for tab := 1; tab <= 4; tab++ {
		w.ok("--tab-id", strconv.Itoa(tab), "goto", url("/compose.html?name="+strconv.Itoa(tab)))
		cmds = append(cmds, map[string]any{"command": "js", "tabId": tab,
			"args": []string{fmt.Sprintf("await fetch('/compose-slow?i=%d').then(r => r.text())", tab)}})
	}
	ans := postBatch(t, w, cmds...)
	var sum int64
	for i, r := range ans.Results {
		if r.Status != 200 || r.Result != "slow "+strconv.Itoa(i+1) || r.Duration < 350 {
			t.Fatalf("item %d: %+v", i, r)
		}
		sum += r.Duration
	}
	if float64(ans.Duration) >= 0.6*float64(sum) {
		t.Fatalf("the batch took %d ms for items summing to %d ms: not parallel", ans.Duration, sum)
	}
}

func TestBatchShape(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/compose.html?name=shape"))
	active := 0
	for _, line := range strings.Split(w.ok("tabs"), "\n") {
		if strings.HasPrefix(line, "→ [") {
			active = atoi(line[len("→ ["):strings.IndexByte(line, ']')])
		}
	}
	ans := postBatch(t, w,
		map[string]any{"command": "url"},
		map[string]any{"command": "nope"},
		map[string]any{"command": "js", "args": []string{"1+1"}, "tabId": active},
		map[string]any{"command": "stop"},
		map[string]any{"command": "chain", "args": []string{`[["url"]]`}},
		map[string]any{"command": "js", "args": []string{"throw new Error('bad item')"}},
	)
	if ans.Total != 6 || ans.Succeeded != 2 || ans.Failed != 4 || len(ans.Results) != 6 || ans.Duration < 0 {
		t.Fatalf("counts: %+v", ans)
	}
	r := ans.Results
	if r[0].Index != 0 || r[0].Status != 200 || r[0].Result != url("/compose.html?name=shape") || r[0].Command != "url" || r[0].TabID != active {
		t.Fatalf("item 0: %+v", r[0])
	}
	if r[1].Index != 1 || r[1].Status != 404 || !strings.Contains(r[1].Error, `Unknown command "nope"`) {
		t.Fatalf("item 1: %+v", r[1])
	}
	// result holds the error object, as POST /command would have answered.
	var body map[string]string
	if err := json.Unmarshal([]byte(r[1].Result), &body); err != nil || body["error"] != r[1].Error || body["hint"] == "" {
		t.Fatalf("item 1's result: %q %v", r[1].Result, err)
	}
	if r[2].Status != 200 || r[2].Result != "2" {
		t.Fatalf("item 2: %+v", r[2])
	}
	if r[3].Status != 400 || !strings.Contains(r[3].Error, "'stop' cannot run inside a batch") {
		t.Fatalf("item 3: %+v", r[3])
	}
	if r[4].Status != 400 || !strings.Contains(r[4].Error, "'chain' cannot run inside a batch") {
		t.Fatalf("item 4: %+v", r[4])
	}
	if r[5].Status == 200 || !strings.Contains(r[5].Error, "bad item") || r[5].Hint == "" {
		t.Fatalf("item 5: %+v", r[5])
	}
}

func TestBatchSameTabInOrder(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/compose.html?name=order"))
	var cmds []map[string]any
	const n = 30
	for i := range n {
		code := fmt.Sprintf("window.__order = (window.__order || []).concat(%d); %d", i, i)
		if i%5 == 0 { // some items wait a little, giving later ones a chance to overtake
			code = fmt.Sprintf("await new Promise(r => setTimeout(r, 30)); window.__order = (window.__order || []).concat(%d); %d", i, i)
		}
		cmds = append(cmds, map[string]any{"command": "js", "args": []string{code}})
	}
	cmds = append(cmds, map[string]any{"command": "js", "args": []string{"JSON.stringify(window.__order)"}})
	ans := postBatch(t, w, cmds...)
	want := make([]int, n)
	for i := range want {
		want[i] = i
	}
	wantJSON, _ := json.Marshal(want)
	if got := ans.Results[n].Result; got != string(wantJSON) {
		t.Fatalf("one tab's commands ran in the order %s", got)
	}
}

func TestWatch(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/compose.html?name=A"))
	w.ok("snapshot", "-i")
	_, refsBefore := w.call("GET", "/refs", w.state().Token, "")

	contains(t, w.ok("watch"), "Watching tab 1 ("+url("/compose.html?name=A")+"); 'watch stop' for a summary")
	w.fails("Already watching tab 1", "watch")
	time.Sleep(500 * time.Millisecond) // the baseline snapshot
	// The watcher's snapshots leave the agent's refs alone.
	if _, refs := w.call("GET", "/refs", w.state().Token, ""); !bytes.Equal(refs, refsBefore) || !bytes.Contains(refs, []byte(`"ref":"e1"`)) {
		t.Fatalf("refs changed:\n%s\n%s", refsBefore, refs)
	}
	w.ok("goto", url("/compose.html?name=B"))
	w.ok("js", "document.body.insertAdjacentHTML('beforeend', '<h2>Added while watched</h2>')")
	sum := w.ok("watch", "stop")
	contains(t, sum, "Watched tab 1 for")
	contains(t, sum, "1 navigation")
	contains(t, sum, url("/compose.html?name=A")+"  (where it started)")
	contains(t, sum, url("/compose.html?name=B"))
	if strings.Index(sum, "name=A") > strings.Index(sum, "name=B") {
		t.Fatalf("navigations out of order:\n%s", sum)
	}
	contains(t, sum, `+[heading] "Added while watched" [level=2]`)
	w.fails("Not watching", "watch", "stop")
	w.fails("Unknown argument", "watch", "later")

	// A watch ends when its tab closes.
	tab := strconv.Itoa(newTab(t, w))
	contains(t, w.ok("--tab-id", tab, "watch"), "Watching tab "+tab)
	w.ok("closetab", tab)
	time.Sleep(300 * time.Millisecond)
	contains(t, w.ok("watch", "stop"), "its tab closed")
}

func TestInbox(t *testing.T) {
	w := newWorkspace(t)
	contains(t, w.ok("inbox"), "Inbox is empty")
	lines := []string{
		`{"type":"observation","timestamp":"2025-06-01T10:00:00Z","page":{"url":"https://example.com/a","title":"A"},"userMessage":"first note"}`,
		`this line is not JSON`,
		`{"timestamp":"2025-06-01T10:05:00Z","url":"https://example.com/b","message":"second note"}`,
	}
	path := filepath.Join(w.dir, ".gstack", "browser-scout.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := w.ok("inbox")
	contains(t, out, "Inbox: 2 messages, oldest first (1 malformed line skipped)")
	contains(t, out, "[2025-06-01T10:00:00Z] observation https://example.com/a \"A\"\n  first note")
	if strings.Index(out, "first note") > strings.Index(out, "second note") {
		t.Fatalf("not oldest first:\n%s", out)
	}
	contains(t, w.ok("inbox", "--clear"), "(inbox cleared)")
	contains(t, w.ok("inbox"), "Inbox is empty")
}

func TestTabsArrow(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/compose.html?name=1"))
	w.ok("newtab", url("/compose.html?name=2"))
	tabs := w.ok("tabs")
	contains(t, tabs, "  [1] Compose 1 — "+url("/compose.html?name=1"))
	contains(t, tabs, "→ [2] Compose 2 — "+url("/compose.html?name=2"))
}

func TestStopOnce(t *testing.T) {
	w := newWorkspace(t)
	w.ok("url")
	if out := w.ok("stop"); out != "Stopped\n" {
		t.Fatalf("stop printed %q", out)
	}
}

// url, tabs and status do not wait for a slow load on the same tab.
func TestURLDuringNav(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/compose.html?name=before"))
	hits := slowNavHits.Load()
	gotoDone := make(chan time.Time, 1)
	go func() {
		w.run("goto", url("/compose-hang5"))
		gotoDone <- time.Now()
	}()
	for deadline := time.Now().Add(5 * time.Second); slowNavHits.Load() == hits; {
		if time.Now().After(deadline) {
			t.Fatal("the slow page was never requested")
		}
		time.Sleep(10 * time.Millisecond)
	}
	w.ok("url")
	contains(t, w.ok("tabs"), "[1]")
	contains(t, w.ok("status"), "Status: healthy")
	answered := time.Now()
	finished := <-gotoDone
	if !answered.Before(finished) {
		t.Fatal("url, tabs and status waited for the navigation to finish")
	}
	contains(t, w.ok("url"), "/compose-hang5")
}

package daemon

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/browsehq/browse/internal/browser"
	"github.com/browsehq/browse/internal/commands"
	"github.com/browsehq/browse/internal/envelope"
)

func (d *Daemon) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", d.handleHealth)
	mux.HandleFunc("POST /command", d.commandAuth(d.handleCommand))
	mux.HandleFunc("POST /batch", d.commandAuth(d.handleBatch))
	mux.HandleFunc("GET /refs", d.rootOnly(d.handleRefs))
	mux.HandleFunc("GET /file", d.rootOnly(d.handleFile))
	mux.HandleFunc("GET /memory", d.rootOnly(d.handleMemory))
	// Pairing: /connect is open (a setup key is its credential); the rest
	// is the local user's.
	mux.HandleFunc("GET /connect", d.handleConnectProbe)
	mux.HandleFunc("POST /connect", d.handleConnect)
	mux.HandleFunc("POST /pair", d.rootOnly(d.handlePair))
	mux.HandleFunc("POST /token", d.rootOnly(d.handleMint))
	mux.HandleFunc("DELETE /token/{client}", d.rootOnly(d.handleRevoke))
	mux.HandleFunc("GET /agents", d.rootOnly(d.handleAgents))
	mux.HandleFunc("POST /tunnel/start", d.rootOnly(d.handleTunnelStart))
	mux.HandleFunc("POST /tunnel/stop", d.rootOnly(d.handleTunnelStop))
	// The activity feed: the root token, or the view-only stream cookie.
	mux.HandleFunc("POST /sse-session", d.rootOnly(d.handleSSESession))
	mux.HandleFunc("GET /activity/stream", d.streamAuth(d.handleActivityStream))
	mux.HandleFunc("GET /activity/history", d.streamAuth(d.handleActivityHistory))
	mux.HandleFunc("/", noSuchEndpoint)
	return mux
}

// noSuchEndpoint answers, as JSON like every other error, a path or method
// the daemon does not serve.
func noSuchEndpoint(w http.ResponseWriter, r *http.Request) {
	writeError(w, &commands.Error{Status: http.StatusNotFound, Msg: fmt.Sprintf("No such endpoint: %s %q.", r.Method, clip(r.URL.Path, 200)),
		Hint: "Commands go to POST /command; the README lists the HTTP API."})
}

// handleHealth needs no token and hands none out.
func (d *Daemon) handleHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"status":  "healthy",
		"mode":    d.mode(),
		"pid":     os.Getpid(),
		"uptime":  int(time.Since(d.started).Seconds()),
		"tabs":    len(d.browser.Tabs()),
		"version": d.cfg.Version,
	})
}

// readBody reads a request body of at most MaxBodyBytes, answering 413 itself
// when it cannot.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
	if err != nil || len(body) > MaxBodyBytes {
		writeError(w, &commands.Error{Status: http.StatusRequestEntityTooLarge, Msg: "Request body unreadable or over 1 MiB.", Hint: "Commands are short; send one at a time."})
		return nil, false
	}
	return body, true
}

func (d *Daemon) handleCommand(w http.ResponseWriter, r *http.Request) {
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	req, err := ParseRequest(body)
	if err != nil {
		writeError(w, &commands.Error{Status: http.StatusBadRequest, Msg: "Bad request: " + err.Error() + ".",
			Hint: `Send JSON like {"command": "goto", "args": ["https://example.com"], "tabId": 1}.`})
		return
	}
	out, cerr := d.Execute(r.Context(), req)
	if cerr != nil {
		writeError(w, cerr)
	} else {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(out)))
		io.WriteString(w, out)
	}
	if d.stopAsked.Load() {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		d.Stop()
	}
}

// handleRefs returns a tab's current ref map (?tabId=N; default the active
// tab) as JSON, ordered as the snapshot listed them.
func (d *Daemon) handleRefs(w http.ResponseWriter, r *http.Request) {
	id := 0
	if v := r.URL.Query().Get("tabId"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			writeError(w, &commands.Error{Status: 400, Msg: "tabId must be a positive tab id.", Hint: "Run 'tabs' to list open tabs."})
			return
		}
		id = n
	}
	tab, err := d.browser.Tab(id)
	if err != nil {
		writeError(w, &commands.Error{Status: 404, Msg: fmt.Sprintf("No tab with id %d.", id), Hint: "Run 'tabs' to list open tabs."})
		return
	}
	refs := tab.Refs()
	list := make([]browser.RefEntry, 0, len(refs))
	for _, e := range refs {
		list = append(list, e)
	}
	sort.Slice(list, func(i, j int) bool { return refOrder(list[i].ID) < refOrder(list[j].ID) })
	writeJSON(w, http.StatusOK, map[string]any{"tabId": tab.ID, "url": tab.URL(), "refs": list})
}

// refOrder sorts @e refs before @c refs, each by number.
func refOrder(id string) int {
	n, _ := strconv.Atoi(id[1:])
	if id[0] == 'c' {
		n += 1 << 30
	}
	return n
}

// batchResult is one command's answer in POST /batch, in the reference's
// shape: status is the HTTP status POST /command would have answered, and
// result the body it would have sent (on a failure, the JSON error object
// as a string). error and hint repeat a failure's parts, ready to read;
// duration (ms) is how long the command took.
type batchResult struct {
	Index    int    `json:"index"`
	Status   int    `json:"status"`
	Result   string `json:"result"`
	Command  string `json:"command"`
	TabID    int    `json:"tabId"`
	Error    string `json:"error,omitempty"`
	Hint     string `json:"hint,omitempty"`
	Duration int64  `json:"duration"`
}

// batchAnswer is the body of POST /batch's answer.
type batchAnswer struct {
	Results   []batchResult `json:"results"`
	Duration  int64         `json:"duration"` // ms, the whole batch
	Total     int           `json:"total"`
	Succeeded int           `json:"succeeded"`
	Failed    int           `json:"failed"`
}

// handleBatch runs up to 50 commands; each succeeds or fails on its own.
// Commands are grouped by tab: the groups run in parallel, as separate
// requests would, and the commands of one group strictly in index order.
// A command without a tabId belongs to the tab active when the batch
// arrives (it still runs on whichever tab is active when its turn comes, so
// "newtab" then "goto" work as they would one by one). Commands that run
// other commands (chain, tab-each) or end the daemon (stop) are refused.
func (d *Daemon) handleBatch(w http.ResponseWriter, r *http.Request) {
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	batch, err := ParseBatch(body)
	if err != nil {
		writeError(w, &commands.Error{Status: http.StatusBadRequest, Msg: "Bad batch: " + err.Error() + ".",
			Hint: `Send {"commands": [{"command": "text", "tabId": 1}, …]} with at most 50 commands.`})
		return
	}
	start := time.Now()
	results := make([]batchResult, len(batch.Commands))
	active := d.browser.ActiveID()
	groups := map[int][]int{} // tab id → indexes of its commands, in order
	var order []int           // the tab ids in order of first appearance
	for i := range batch.Commands {
		req := &batch.Commands[i]
		results[i] = batchResult{Index: i, Command: req.Command, TabID: req.TabID}
		if err := req.validate(); err != nil {
			results[i].fail(&commands.Error{Status: http.StatusBadRequest, Msg: "Bad command: " + err.Error() + "."})
			continue
		}
		if cerr := commands.CheckComposable(req.Command, fmt.Sprintf("commands[%d]", i)); cerr != nil {
			if cmd, ok := commands.Lookup(req.Command); ok && cmd.NoBatch {
				cerr.Msg = fmt.Sprintf("'%s' cannot run inside a batch.", cmd.Name)
			}
			results[i].fail(cerr)
			continue
		}
		if req.TabID == 0 {
			// Pinned to the tab active on arrival: a 'tab N' item earlier in
			// the batch must not move later items into another group's tab.
			req.TabID = active
			results[i].TabID = active
		}
		tab := req.TabID
		if _, seen := groups[tab]; !seen {
			order = append(order, tab)
		}
		groups[tab] = append(groups[tab], i)
	}
	var wg sync.WaitGroup
	for _, tab := range order {
		wg.Add(1)
		go func(indexes []int) {
			defer wg.Done()
			for _, i := range indexes {
				req := &batch.Commands[i]
				res := &results[i]
				began := time.Now()
				out, cerr := d.Execute(r.Context(), req)
				res.Duration = time.Since(began).Milliseconds()
				if cerr != nil {
					res.fail(cerr)
				} else {
					res.Status, res.Result = http.StatusOK, out
				}
			}
		}(groups[tab])
	}
	wg.Wait()
	ans := batchAnswer{Results: results, Duration: time.Since(start).Milliseconds(), Total: len(results)}
	for _, res := range results {
		if res.Status == http.StatusOK {
			ans.Succeeded++
		} else {
			ans.Failed++
		}
	}
	writeJSON(w, http.StatusOK, ans)
}

// fail records a failed command: result holds the error object as POST
// /command would have sent it.
func (res *batchResult) fail(e *commands.Error) {
	res.Status = cmp.Or(e.Status, http.StatusInternalServerError)
	body, _ := json.Marshal(map[string]string{"error": e.Msg, "hint": e.Hint})
	res.Result, res.Error, res.Hint = string(body), e.Msg, e.Hint
}

// Execute runs one command: look it up, check its arguments, take its tab's
// turn, and run it under its deadline. It never panics.
func (d *Daemon) Execute(ctx context.Context, req *Request) (out string, cerr *commands.Error) {
	d.busy.Add(1)
	defer d.busy.Add(-1)
	d.touch()
	defer d.touch()
	defer func() {
		if p := recover(); p != nil {
			log.Printf("panic in %q: %v\n%s", req.Command, p, debug.Stack())
			cerr = &commands.Error{Status: 500, Msg: fmt.Sprintf("Internal error running '%s'.", req.Command),
				Hint: "This is a bug in browse; the daemon is still running. The daemon log has details."}
		}
	}()

	cmd, ok := commands.Lookup(req.Command)
	if !ok {
		return "", commands.UnknownCommand(req.Command)
	}
	cl := callerFrom(ctx)
	if cerr := d.authorize(ctx, cl, cmd, req); cerr != nil {
		d.refusedCommand(cl, cmd, cerr)
		return "", cerr
	}
	if cerr := d.checkCanary(ctx, cmd, req.Args); cerr != nil {
		return "", cerr
	}
	clientID := ""
	if cl.scoped() {
		clientID = cl.client.ID
	}
	began := time.Now()
	d.recordStart(cmd, req, clientID)
	var call *commands.Call
	defer func() {
		pageURL := ""
		if call != nil && call.Tab != nil {
			pageURL = call.Tab.URL()
		}
		d.recordEnd(cmd, req, clientID, pageURL, time.Since(began), cerr)
	}()
	if cmd.Run == nil {
		return "", &commands.Error{Status: 400, Msg: fmt.Sprintf("'%s' runs in the CLI, not in the daemon.", cmd.Name), Hint: "Run 'browse " + cmd.Name + "'."}
	}
	if req.Cwd != "" && !cl.scoped() {
		req.Args = commands.AbsPathArgs(cmd, req.Args, req.Cwd)
	}
	args, flags, err := commands.Parse(cmd, req.Args)
	if err != nil {
		return "", asError(err)
	}
	if cl.surface == tunnelSurface && cmd.WritesFile != nil && cmd.WritesFile(args, flags) {
		cerr := &commands.Error{Status: http.StatusForbidden, Msg: fmt.Sprintf("'%s' would write a file on the user's machine; over the tunnel it may not.", cmd.Name),
			Hint: "Use 'screenshot --base64' for an image; 'snapshot' without -a."}
		d.refusedCommand(cl, cmd, cerr)
		return "", cerr
	}
	timeout := d.deadline(cmd.Deadline)
	if req.Timeout > 0 {
		timeout = time.Duration(req.Timeout) * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	call = &commands.Call{Args: args, Flags: flags, Browser: d.browser, Daemon: d, Timeout: timeout, ActionTimeout: d.cfg.ActionTimeout}
	if !cl.scoped() && d.cfg.RawContent {
		call.Raw = true
	}
	if cl.scoped() {
		call.Strict = true
		if cl.client.OwnOnly() {
			call.Owner = cl.client.ID // the tabs it opens are its own
		}
	}
	if !cmd.NoTab || req.TabID != 0 {
		tab, err := d.browser.Tab(req.TabID)
		if err != nil {
			msg := fmt.Sprintf("No tab with id %d.", req.TabID)
			if req.TabID == 0 {
				msg = "There is no active tab (the last one just closed; a new one is opening)."
			}
			return "", &commands.Error{Status: 404, Msg: msg, Hint: "Run 'tabs' to list open tabs."}
		}
		call.Tab = tab
	}
	if !cmd.NoTab {
		if err := call.Tab.Acquire(ctx); err != nil {
			return "", &commands.Error{Status: 503, Msg: fmt.Sprintf("Tab %d stayed busy with earlier commands for %s.", call.Tab.ID, timeout),
				Hint: "Wait for them to finish, or run this on another tab (--tab-id)."}
		}
		defer call.Tab.Release()
		if err := call.Tab.Alive(); err != nil {
			return "", &commands.Error{Status: 410, Msg: fmt.Sprintf("Tab %d is gone: %v.", call.Tab.ID, err), Hint: "Run 'tabs', then 'tab <id>' or 'newtab <url>'."}
		}
		var unbind context.CancelFunc
		ctx, unbind = call.Tab.Bound(ctx)
		defer unbind()
	}
	out, err = cmd.Run(ctx, call)
	if err != nil {
		if call.Tab != nil && call.Tab.Alive() != nil {
			// Whatever the browser said, the real cause is the tab going away.
			return "", &commands.Error{Status: 410, Msg: fmt.Sprintf("Tab %d went away while '%s' ran: %v.", call.Tab.ID, cmd.Name, call.Tab.Alive()),
				Hint: "Run 'tabs', then 'tab <id>' or 'newtab <url>', and run the command again."}
		}
		return "", asError(err)
	}
	if cmd.PageContent && !call.Raw {
		out = d.untrusted(ctx, cmd, call, out)
	}
	return out, nil
}

// untrusted wraps page content in the envelope, with warnings about text
// the page hides from its readers but not from a model.
func (d *Daemon) untrusted(ctx context.Context, cmd *commands.Command, call *commands.Call, out string) string {
	if cmd.DOMContent && cmd.Name != "text" && call.Tab != nil {
		commands.AddHiddenWarnings(ctx, call)
	}
	tab := call.Tab
	if tab == nil {
		tab, _ = d.browser.Tab(0)
	}
	source := ""
	if tab != nil {
		source = tab.URL()
	}
	return envelope.Wrap(out, source, call.Warnings)
}

func (d *Daemon) deadline(kind commands.Deadline) time.Duration {
	switch kind {
	case commands.NavDeadline:
		return d.cfg.NavTimeout
	case commands.ActionDeadline:
		return d.cfg.ActionTimeout
	}
	return d.cfg.QuickTimeout
}

// asError makes sure every failure leaves as a commands.Error, never as a raw
// Go or CDP message alone.
func asError(err error) *commands.Error {
	var ce *commands.Error
	if errors.As(err, &ce) {
		return ce
	}
	if errors.Is(err, browser.ErrTabGone) {
		return &commands.Error{Status: 410, Msg: "The tab is gone.", Hint: "Run 'tabs'."}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &commands.Error{Status: 504, Msg: "The command timed out.", Hint: "Retry with a longer --timeout, or check the page with 'snapshot'."}
	}
	return &commands.Error{Status: 500, Msg: strings.TrimSuffix(err.Error(), ".") + ".", Hint: "Run 'status' to check the browser."}
}

func writeError(w http.ResponseWriter, e *commands.Error) {
	status := e.Status
	if status == 0 {
		status = 500
	}
	writeJSON(w, status, map[string]string{"error": e.Msg, "hint": e.Hint})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

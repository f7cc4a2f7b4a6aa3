package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/browsehq/browse/internal/browser"
	"github.com/browsehq/browse/internal/snapshot"
)

// A watch observes one tab in the background while the user (or another
// agent) drives it: it notes every navigation and, every five seconds, takes
// a snapshot and keeps the diff against the one before. 'watch stop' prints
// what it saw.
const (
	watchInterval = 5 * time.Second
	// watchURLPoll is how often the tab's URL is looked at. It is a field
	// the browser package keeps up to date: no browser call, no tab turn.
	watchURLPoll = 250 * time.Millisecond
	// watchSnapshotTimeout bounds one snapshot, the wait for the tab's turn
	// included; a tab busy for longer is looked at again next time.
	watchSnapshotTimeout = 10 * time.Second
	watchFinalTimeout    = 3 * time.Second // the last one, taken by 'watch stop'

	// What a summary keeps: the newest diffs and navigations, each diff
	// shortened to a number of lines.
	watchMaxDiffs     = 20
	watchMaxDiffLines = 80
	watchMaxNavs      = 200
)

// watches holds the running watch of each browser (one per daemon).
var watches = struct {
	mu        sync.Mutex
	byBrowser map[*browser.Browser]*watcher
}{byBrowser: map[*browser.Browser]*watcher{}}

type watchEvent struct {
	at   time.Duration // since the watch started
	url  string
	diff string // for a change
}

type watcher struct {
	tab     *browser.Tab
	started time.Time
	stop    context.CancelFunc
	done    chan struct{} // closed when the loop has returned

	mu           sync.Mutex // guards what follows: the loop writes, 'watch stop' reads
	navs         []watchEvent
	changes      []watchEvent
	droppedNavs  int
	droppedDiffs int
	snapshots    int
	last         string        // the previous snapshot's text
	lastAt       time.Duration // and when it was taken
	lastURL      string
	lastNavSeq   int64
	ended        string // why the watch ended on its own, if it did
}

func runWatch(ctx context.Context, c *Call) (string, error) {
	if len(c.Args) == 1 {
		if c.Args[0] != "stop" {
			return "", UsageError(mustLookup("watch"), "Unknown argument %q: 'watch' starts a watch, 'watch stop' ends it.", c.Args[0])
		}
		return stopWatch(ctx, c)
	}
	tab := c.Tab
	if tab == nil {
		t, err := c.Browser.Tab(0)
		if err != nil {
			return "", noSuchTab(err)
		}
		tab = t
	}
	watches.mu.Lock()
	defer watches.mu.Unlock()
	if w := watches.byBrowser[c.Browser]; w != nil {
		return "", &Error{Status: 409, Msg: fmt.Sprintf("Already watching tab %d (for %s).", w.tab.ID, since(time.Since(w.started))),
			Hint: "Run 'watch stop' for its summary, then 'watch' again."}
	}
	w := &watcher{tab: tab, started: time.Now(), done: make(chan struct{})}
	w.noteURL(tab.URL(), tab.NavSeq())
	base, cancelBase := context.WithCancel(context.Background())
	bound, unbind := tab.Bound(base) // also ends when the tab closes or crashes
	w.stop = func() { unbind(); cancelBase() }
	watches.byBrowser[c.Browser] = w
	go w.loop(bound, c.Browser)
	return fmt.Sprintf("Watching tab %d (%s); 'watch stop' for a summary", tab.ID, tab.URL()), nil
}

// loop runs until the watch is stopped, its tab goes away or the browser
// does. It takes the tab's turn only while a snapshot is taken.
func (w *watcher) loop(ctx context.Context, b *browser.Browser) {
	defer close(w.done)
	defer w.stop()           // on every way out, so the tab-bound context's goroutine ends too
	snap := time.NewTimer(0) // the first snapshot at once: the baseline
	defer snap.Stop()
	poll := time.NewTicker(watchURLPoll)
	defer poll.Stop()
	for {
		select {
		case <-ctx.Done():
			if errors.Is(context.Cause(ctx), browser.ErrTabGone) {
				w.end("its tab closed")
			}
			return
		case <-b.Done():
			w.end("the browser went away")
			return
		case <-poll.C:
			w.noteURL(w.tab.URL(), w.tab.NavSeq())
		case <-snap.C:
			w.observe(ctx, b, watchSnapshotTimeout)
			snap.Reset(watchInterval)
		}
	}
}

// observe takes one snapshot under the tab's turn, as a command would, and
// records the navigation and the change since the last one.
func (w *watcher) observe(ctx context.Context, b *browser.Browser, timeout time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	b.RefreshInfo(ctx) // the exact URL; a failure leaves the last one known
	if err := w.tab.Acquire(ctx); err != nil {
		return // busy all along: next time
	}
	text, err := w.snapshot(ctx)
	w.tab.Release()
	if err != nil {
		return
	}
	w.noteURL(w.tab.URL(), w.tab.NavSeq())
	at := time.Since(w.started)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.snapshots++
	if w.snapshots > 1 && text != w.last {
		diff := snapshot.Diff("+"+since(w.lastAt), "+"+since(at), w.last, text)
		if diff != "" {
			w.changes = append(w.changes, watchEvent{at: at, url: w.lastURL, diff: capLines(strings.TrimRight(diff, "\n"), watchMaxDiffLines)})
			if len(w.changes) > watchMaxDiffs {
				w.changes = w.changes[1:]
				w.droppedDiffs++
			}
		}
	}
	w.last, w.lastAt = text, at
}

// snapshot renders the tab's accessibility tree as 'snapshot' does, but
// without refs: the agent's ref map and diff baseline stay as they are.
func (w *watcher) snapshot(ctx context.Context) (string, error) {
	if err := w.tab.Alive(); err != nil {
		return "", err
	}
	tree, err := w.tab.AXTree(ctx, "")
	if err != nil {
		return "", err
	}
	return snapshot.Render(tree, snapshot.Options{NoRefs: true}, nil).Text, nil
}

// noteURL records a navigation when the URL or the navigation count moved.
func (w *watcher) noteURL(url string, navSeq int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if url == w.lastURL && navSeq == w.lastNavSeq {
		return
	}
	w.lastURL, w.lastNavSeq = url, navSeq
	w.navs = append(w.navs, watchEvent{at: time.Since(w.started), url: url})
	if len(w.navs) > watchMaxNavs {
		w.navs = w.navs[1:]
		w.droppedNavs++
	}
}

func (w *watcher) end(reason string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ended = fmt.Sprintf("+%s: %s", since(time.Since(w.started)), reason)
}

func stopWatch(ctx context.Context, c *Call) (string, error) {
	watches.mu.Lock()
	w := watches.byBrowser[c.Browser]
	delete(watches.byBrowser, c.Browser)
	watches.mu.Unlock()
	if w == nil {
		return "", &Error{Status: 409, Msg: "Not watching.", Hint: "Run 'watch' to start watching the active tab (or --tab-id N)."}
	}
	w.stop()
	<-w.done
	// One last look, so what happened since the last tick is in the summary;
	// a tab busy for long (a slow load) is not waited for.
	if w.tab.Alive() == nil {
		bound, unbind := w.tab.Bound(ctx)
		w.observe(bound, c.Browser, watchFinalTimeout)
		unbind()
	}
	return w.summary(), nil
}

func (w *watcher) summary() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "Watched tab %d for %s: %d %s, %d %s, %d %s.", w.tab.ID, since(time.Since(w.started)),
		w.snapshots, plural(w.snapshots, "snapshot", "snapshots"),
		len(w.navs)-1+w.droppedNavs, plural(len(w.navs)-1+w.droppedNavs, "navigation", "navigations"),
		len(w.changes)+w.droppedDiffs, plural(len(w.changes)+w.droppedDiffs, "change", "changes"))
	if w.ended != "" {
		fmt.Fprintf(&b, "\nThe watch ended at %s.", w.ended)
	}
	b.WriteString("\n\nPages:")
	if w.droppedNavs > 0 {
		fmt.Fprintf(&b, "\n  (%d earlier navigations not shown)", w.droppedNavs)
	}
	for i, n := range w.navs {
		note := ""
		if i == 0 && w.droppedNavs == 0 {
			note = "  (where it started)"
		}
		fmt.Fprintf(&b, "\n  +%-7s %s%s", since(n.at), n.url, note)
	}
	if len(w.changes) == 0 {
		b.WriteString("\n\nChanges: none seen in the snapshots.")
		return b.String()
	}
	b.WriteString("\n\nChanges:")
	if w.droppedDiffs > 0 {
		fmt.Fprintf(&b, "\n  (%d earlier changes not shown)", w.droppedDiffs)
	}
	for _, ch := range w.changes {
		fmt.Fprintf(&b, "\n\n  +%s on %s\n    %s", since(ch.at), ch.url, strings.ReplaceAll(ch.diff, "\n", "\n    "))
	}
	return b.String()
}

// since renders a duration for a summary: 0.4s, 12.0s, 3m05s.
func since(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	d = d.Round(time.Second)
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// capLines keeps the first n lines of s and says how many it left out.
func capLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n… (%d more lines)", len(lines)-n)
}

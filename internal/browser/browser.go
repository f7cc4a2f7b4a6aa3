// Package browser owns one Chromium: it launches or attaches to it, keeps the
// tabs and their flat CDP sessions (pages and out-of-process iframes), and
// records console, network and dialog events from the first attach.
package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/target"

	"github.com/browsehq/browse/internal/cdp"
	"github.com/browsehq/browse/internal/ring"
)

// BufferSize is the capacity of each event ring buffer.
const BufferSize = 50_000

// Browser is one connected Chromium.
type Browser struct {
	conn   *cdp.Conn
	root   *cdp.Session
	proc   *os.Process // nil when attached over BROWSE_CDP_URL
	exited <-chan struct{}

	Console *ring.Buffer[LogEntry]
	Network *ring.Buffer[*NetEntry]
	Dialogs *ring.Buffer[LogEntry]

	mu        sync.Mutex
	tabs      []*Tab                  // creation order
	byTarget  map[target.ID]*Tab      // page targets
	sessions  map[string]*frameTarget // every attached page/iframe session
	activeID  int
	nextTabID int
	waiting   map[target.ID]chan *Tab // newtab callers waiting for the attach
	owners    map[target.ID]string    // owners of tabs being opened for paired clients
	requests  map[string]*NetEntry    // in-flight requests by session+requestId
	dialog    DialogPolicy
	viewport  *Viewport // applied to every new tab (set by the viewport command)
	closing   bool
	firstTab  chan struct{} // closed when the first tab is ready
	firstOnce sync.Once
	tabGuard  tabGuardrail // warns in the log as the tab count grows

	// Set by the header and useragent commands and applied to every session
	// as it attaches (see applyOverrides in cookies.go); guarded by mu.
	extraHeaders map[string]string // sent on every request; nil: none
	userAgent    string            // "" keeps the browser's own
	overrides    sync.Mutex        // serialises header and user-agent updates
}

// DialogPolicy says how dialogs are answered. The default accepts.
type DialogPolicy struct {
	Dismiss    bool
	PromptText string
}

// frameTarget is one attached session: a page, or an out-of-process iframe
// that belongs to a page.
type frameTarget struct {
	tab     *Tab
	session *cdp.Session
	frameID cdproto.FrameID // the session's own root frame
}

// Start launches Chromium, or attaches to opts.CDPURL, and returns once a tab
// is ready to drive.
func Start(ctx context.Context, opts Options) (*Browser, error) {
	b := &Browser{
		Console:  ring.New[LogEntry](BufferSize),
		Network:  ring.New[*NetEntry](BufferSize),
		Dialogs:  ring.New[LogEntry](BufferSize),
		byTarget: make(map[target.ID]*Tab),
		sessions: make(map[string]*frameTarget),
		waiting:  make(map[target.ID]chan *Tab),
		owners:   make(map[target.ID]string),
		requests: make(map[string]*NetEntry),
		firstTab: make(chan struct{}),
	}
	if opts.CDPURL == "" {
		// Headless Chromium leaves room for window chrome it does not draw
		// (a 1280x720 window shows a 1280x577 page): emulate the reference's
		// 1280x720 viewport instead. An attached browser keeps its own.
		v := DefaultViewport
		b.viewport = &v
	}
	var t cdp.Transport
	if opts.CDPURL != "" {
		ws, err := resolveWebSocketURL(ctx, opts.CDPURL)
		if err != nil {
			return nil, err
		}
		if t, err = cdp.DialWebSocket(ctx, ws); err != nil {
			return nil, fmt.Errorf("connecting to the browser at %s: %w", opts.CDPURL, err)
		}
	} else {
		var err error
		if t, b.proc, b.exited, err = launch(opts); err != nil {
			return nil, err
		}
	}
	b.conn = cdp.NewConn(t, b.onEvent)
	b.root = b.conn.Session("")

	if err := b.setup(ctx); err != nil {
		b.Close()
		return nil, fmt.Errorf("setting up the browser: %w", err)
	}
	if err := b.waitFirstTab(ctx); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// waitFirstTab waits for a page to attach. A launched browser always opens
// one (about:blank); an attached browser may have none, and then gets one.
// Asking beats a timer: on a loaded machine the first page can take longer
// than any fixed wait, and a timer then opened a second, stray tab.
func (b *Browser) waitFirstTab(ctx context.Context) error {
	if b.proc == nil {
		res, err := cdproto.Call(ctx, b.root, target.GetTargets, target.GetTargetsParams{})
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(res.TargetInfos, func(i *target.Info) bool { return i.Type == "page" }) {
			_, err := b.NewTab(ctx, "")
			return err
		}
	}
	select {
	case <-b.firstTab:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for the browser's first tab: %w", ctx.Err())
	}
}

func (b *Browser) setup(ctx context.Context) error {
	if err := b.root.Call(ctx, "Target.setDiscoverTargets", &target.SetDiscoverTargetsParams{Discover: true}, nil); err != nil {
		return err
	}
	// Pages are not paused at start: a page paused before its first
	// navigation loses that navigation when a link opened it (target=_blank
	// stays on about:blank). Iframes and workers are paused (see
	// Tab.enableSession) so their events are captured from the start.
	return b.root.Call(ctx, "Target.setAutoAttach", autoAttachParams(false), nil)
}

func autoAttachParams(pause bool) *target.SetAutoAttachParams {
	flatten := true
	return &target.SetAutoAttachParams{AutoAttach: true, WaitForDebuggerOnStart: pause, Flatten: &flatten}
}

// Done is closed when the browser is gone: its process exited or the CDP
// connection dropped.
func (b *Browser) Done() <-chan struct{} { return b.conn.Done() }

// PID is the launched browser's pid, or 0 when attached.
func (b *Browser) PID() int {
	if b.proc == nil {
		return 0
	}
	return b.proc.Pid
}

// Close ends the browser this daemon launched (its whole process group, by
// the pid it started) or drops the connection to an attached one.
func (b *Browser) Close() {
	b.mu.Lock()
	b.closing = true
	b.mu.Unlock()
	if b.proc == nil {
		if b.conn != nil {
			b.conn.Close()
		}
		return
	}
	// Ask politely so the profile's cookies are flushed, but never wait long.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	b.root.Call(ctx, "Browser.close", nil, nil)
	cancel()
	select {
	case <-b.exited:
	case <-time.After(400 * time.Millisecond):
	}
	syscall.Kill(-b.proc.Pid, syscall.SIGKILL)
	b.proc.Kill()
	select {
	case <-b.exited:
	case <-time.After(time.Second):
	}
	b.conn.Close()
}

// Tabs returns the open tabs in creation order.
func (b *Browser) Tabs() []*Tab {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.tabs)
}

// RefreshInfo asks the browser for every tab's current URL and title:
// targetInfoChanged events can trail a load, and a tab list must be exact.
func (b *Browser) RefreshInfo(ctx context.Context) error {
	res, err := cdproto.Call(ctx, b.root, target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, info := range res.TargetInfos {
		if t := b.byTarget[info.TargetID]; t != nil {
			t.setInfo(info.URL, info.Title)
		}
	}
	return nil
}

// ErrNoTab is returned for a tab id that does not exist.
var ErrNoTab = errors.New("no such tab")

// Tab returns the tab with the given id, or the active tab for id 0.
func (b *Browser) Tab(id int) (*Tab, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if id == 0 {
		id = b.activeID
	}
	for _, t := range b.tabs {
		if t.ID == id {
			return t, nil
		}
	}
	return nil, fmt.Errorf("%w: %d", ErrNoTab, id)
}

// ActiveID is the id of the tab commands go to by default.
func (b *Browser) ActiveID() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.activeID
}

// Activate makes tab id the default for later commands.
func (b *Browser) Activate(ctx context.Context, id int) (*Tab, error) {
	t, err := b.Tab(id)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.activeID = t.ID
	b.mu.Unlock()
	return t, nil
}

// NewTab opens a tab, makes it active and, if url is set, navigates it.
func (b *Browser) NewTab(ctx context.Context, url string) (*Tab, error) {
	return b.newTab(ctx, "")
}

// NewTabFor opens a tab owned by a paired client. It does not become the
// active tab: the local user's next command still goes where it went.
func (b *Browser) NewTabFor(ctx context.Context, owner string) (*Tab, error) {
	return b.newTab(ctx, owner)
}

func (b *Browser) newTab(ctx context.Context, owner string) (*Tab, error) {
	res, err := cdproto.Call(ctx, b.root, target.CreateTarget, target.CreateTargetParams{URL: "about:blank"})
	if err != nil {
		return nil, fmt.Errorf("opening a tab: %w", err)
	}
	ch := make(chan *Tab, 1)
	b.mu.Lock()
	if t := b.byTarget[res.TargetID]; t != nil {
		if owner != "" {
			t.owner = owner
		}
		ch <- t
	} else {
		b.waiting[res.TargetID] = ch
		if owner != "" {
			b.owners[res.TargetID] = owner
		}
	}
	b.mu.Unlock()
	var tab *Tab
	select {
	case tab = <-ch:
	case <-ctx.Done():
		return nil, fmt.Errorf("the new tab did not come up: %w", ctx.Err())
	}
	select {
	case <-tab.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if owner == "" {
		b.mu.Lock()
		b.activeID = tab.ID
		b.mu.Unlock()
	}
	return tab, nil
}

// Owner is the paired client that opened the tab, "" for the local user.
func (t *Tab) Owner() string {
	t.b.mu.Lock()
	defer t.b.mu.Unlock()
	return t.owner
}

// CloseTab closes tab id (0: the active tab). The browser always keeps one
// tab: closing the last opens a blank one.
func (b *Browser) CloseTab(ctx context.Context, id int) (*Tab, error) {
	t, err := b.Tab(id)
	if err != nil {
		return nil, err
	}
	if len(b.Tabs()) == 1 {
		if _, err := b.NewTab(ctx, ""); err != nil {
			return nil, err
		}
	}
	if _, err := cdproto.Call(ctx, b.root, target.CloseTarget, target.CloseTargetParams{TargetID: t.TargetID}); err != nil {
		return nil, fmt.Errorf("closing tab %d: %w", t.ID, err)
	}
	b.removeTab(t)
	return t, nil
}

func (b *Browser) removeTab(t *Tab) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.byTarget[t.TargetID] != t {
		return
	}
	delete(b.byTarget, t.TargetID)
	for sid, ft := range b.sessions {
		if ft.tab == t {
			delete(b.sessions, sid)
		}
	}
	b.tabs = slices.DeleteFunc(b.tabs, func(x *Tab) bool { return x == t })
	b.warnTabs() // re-arms a warning once the count drops below its threshold
	needTab := len(b.tabs) == 0
	if b.activeID == t.ID {
		// The user's latest tab takes over; a paired agent's never does
		// (the user's next command would land on the agent's page).
		b.activeID = 0 // if none is left, the next page to attach becomes active
		for _, x := range slices.Backward(b.tabs) {
			if x.owner == "" {
				b.activeID = x.ID
				break
			}
		}
		needTab = b.activeID == 0
	}
	t.markClosed()
	if needTab && !b.closing {
		// The page closed the user's last tab itself (window.close), or only
		// paired agents' tabs are left: keep one for the user to drive.
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			b.NewTab(ctx, "")
		}()
	}
}

// SetDialogPolicy decides how later dialogs are answered.
func (b *Browser) SetDialogPolicy(p DialogPolicy) {
	b.mu.Lock()
	b.dialog = p
	b.mu.Unlock()
}

// onAttached sets up a new session: a page becomes a tab, an iframe joins its
// page's tab. It runs on its own goroutine because it calls the browser.
func (b *Browser) onAttached(parentSession string, ev *target.EventAttachedToTarget) {
	info := ev.TargetInfo
	s := b.conn.Session(string(ev.SessionID))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resume := func() { s.Call(ctx, "Runtime.runIfWaitingForDebugger", nil, nil) }

	switch info.Type {
	case "page":
		b.mu.Lock()
		if b.closing {
			b.mu.Unlock()
			return
		}
		b.nextTabID++
		tab := newTab(b, b.nextTabID, info, s)
		b.byTarget[info.TargetID] = tab
		b.sessions[s.ID()] = &frameTarget{tab: tab, session: s, frameID: cdproto.FrameID(info.TargetID)}
		opener := b.byTarget[info.OpenerID]
		if opener != nil && opener.scratch {
			// A page opened from a scratch tab is scratch too: never listed,
			// never active, closed with its opener.
			tab.scratch = true
		} else {
			b.tabs = append(b.tabs, tab)
			b.warnTabs()
		}
		if opener != nil {
			tab.owner = opener.owner // a paired agent's popups stay its own
		}
		owner, claimed := b.owners[info.TargetID]
		if claimed {
			tab.owner = owner
			delete(b.owners, info.TargetID)
		}
		if !tab.scratch && tab.owner == "" && (b.activeID == 0 || info.OpenerID != "") {
			// The first tab, and pages a page opened (target=_blank,
			// window.open), become the active tab, as they would for a user.
			// A paired agent's tabs never take the user's active tab.
			b.activeID = tab.ID
		}
		if ch := b.waiting[info.TargetID]; ch != nil {
			ch <- tab
			delete(b.waiting, info.TargetID)
		}
		b.mu.Unlock()
		tab.init(ctx)
		resume()
		close(tab.ready)
		b.firstOnce.Do(func() { close(b.firstTab) })
	case "iframe":
		b.mu.Lock()
		parent := b.sessions[parentSession]
		if parent != nil {
			b.sessions[s.ID()] = &frameTarget{tab: parent.tab, session: s, frameID: cdproto.FrameID(info.TargetID)}
		}
		b.mu.Unlock()
		if parent != nil {
			parent.tab.initFrameSession(ctx, s, cdproto.FrameID(info.TargetID), info.ParentFrameID)
		}
		resume()
	default:
		// Workers and the like: let them run; we do not drive them.
		resume()
	}
}

func (b *Browser) onDetached(sessionID string) {
	b.mu.Lock()
	ft := b.sessions[sessionID]
	b.mu.Unlock()
	if ft == nil {
		return
	}
	if ft.session.ID() == ft.tab.Session.ID() {
		b.removeTab(ft.tab)
		return
	}
	b.mu.Lock()
	delete(b.sessions, sessionID)
	b.mu.Unlock()
	ft.tab.dropFrameSession(sessionID)
}

func (b *Browser) sessionTab(sessionID string) *frameTarget {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sessions[sessionID]
}

// decode unmarshals an event's params into a new T.
func decode[T any](raw jsonv2.Value) (*T, bool) {
	var v T
	return &v, decodeInto(raw, &v)
}

// decodeInto unmarshals raw into v and reports whether that worked.
func decodeInto(raw jsonv2.Value, v any) bool {
	return jsonv2.Unmarshal(raw, v) == nil
}

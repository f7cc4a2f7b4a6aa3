package browser

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"

	"github.com/browsehq/browse/internal/cdp"
)

// Tab is one page target and the out-of-process iframes attached under it.
type Tab struct {
	ID       int
	TargetID target.ID
	Session  *cdp.Session // the page's own session
	b        *Browser

	// turn serializes the commands on this tab (see Acquire).
	turn chan struct{}

	ready chan struct{}
	// gone is closed when the tab closes or its renderer crashes.
	gone     chan struct{}
	goneOnce sync.Once

	mu       sync.Mutex
	url      string
	title    string
	closed   bool
	crashed  bool
	frames   map[cdproto.FrameID]*Frame
	contexts map[string]*execContext // by uniqueId
	inflight int
	// currentFrame is where CSS selectors and scripts run ("" = main frame).
	currentFrame cdproto.FrameID
	refs         *refState
	worlds       map[cdproto.FrameID]worldEntry // the snapshot walker's, by frame
	viewport     *Viewport                      // the emulated viewport, if one was set
	// scratch tabs are a command's own (diff's), kept out of the tab list;
	// guarded by the browser's mutex.
	scratch bool
	// owner is the paired client that opened the tab ("" for the local
	// user); guarded by the browser's mutex. Pages it opens inherit it.
	owner string
	// navStarts and reqStarts count main-frame loads and requests begun, so
	// an action can tell whether it started either.
	navStarts int64
	reqStarts int64
	netIdleAt time.Time

	// navSeq counts main-frame navigations; state derived from a page
	// (refs, snapshot baselines) records it and is void once it moves on.
	navSeq atomic.Int64
}

// Frame is one frame of a tab, in-process or out-of-process.
type Frame struct {
	ID       cdproto.FrameID
	ParentID cdproto.FrameID
	Name     string
	URL      string
	Session  *cdp.Session // the session that owns the frame's document
}

type execContext struct {
	id      runtime.ExecutionContextID
	session *cdp.Session
	frameID cdproto.FrameID
}

func newTab(b *Browser, id int, info *target.Info, s *cdp.Session) *Tab {
	return &Tab{
		ID:       id,
		TargetID: info.TargetID,
		Session:  s,
		b:        b,
		ready:    make(chan struct{}),
		gone:     make(chan struct{}),
		turn:     make(chan struct{}, 1),
		url:      info.URL,
		title:    info.Title,
		frames:   make(map[cdproto.FrameID]*Frame),
		contexts: make(map[string]*execContext),
	}
}

// init enables the domains every tab needs from its first moment: events
// (console, network, dialogs) are captured before the page runs any script.
func (t *Tab) init(ctx context.Context) {
	t.enableSession(ctx, t.Session)
	if v := t.b.defaultViewport(); v != nil {
		t.SetViewport(ctx, *v)
	}
}

func (t *Tab) initFrameSession(ctx context.Context, s *cdp.Session, frameID, parentID cdproto.FrameID) {
	t.mu.Lock()
	if f := t.frames[frameID]; f != nil {
		f.Session = s
		if f.ParentID == "" {
			f.ParentID = parentID
		}
	} else {
		t.frames[frameID] = &Frame{ID: frameID, ParentID: parentID, Session: s}
	}
	t.mu.Unlock()
	t.enableSession(ctx, s)
}

// enableSession sends the setup calls together and waits for all of them:
// pipelining saves a round trip per domain.
func (t *Tab) enableSession(ctx context.Context, s *cdp.Session) {
	lifecycle := page.SetLifecycleEventsEnabledParams{Enabled: true}
	calls := []struct {
		method string
		params any
	}{
		{"Page.enable", nil},
		{"Page.setLifecycleEventsEnabled", &lifecycle},
		{"Runtime.enable", nil},
		{"Network.enable", nil},
		{"Target.setAutoAttach", autoAttachParams(true)},
	}
	var wg sync.WaitGroup
	for _, c := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Call(ctx, c.method, c.params, nil)
		}()
	}
	wg.Wait()
	// Headers and a user agent set by the header and useragent commands
	// apply to every session, including ones that attach later.
	t.b.applyOverrides(ctx, s)
}

func (t *Tab) dropFrameSession(sessionID string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, c := range t.contexts {
		if c.session.ID() == sessionID {
			delete(t.contexts, id)
		}
	}
	for _, f := range t.frames {
		if f.Session != nil && f.Session.ID() == sessionID {
			f.Session = nil
		}
	}
}

func (t *Tab) setInfo(url, title string) {
	t.mu.Lock()
	t.url, t.title = url, title
	t.mu.Unlock()
}

// URL is the tab's current URL.
func (t *Tab) URL() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.url
}

// Title is the tab's current title.
func (t *Tab) Title() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.title
}

// NavSeq is the count of main-frame navigations so far.
func (t *Tab) NavSeq() int64 { return t.navSeq.Load() }

func (t *Tab) markClosed() {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	t.goneOnce.Do(func() { close(t.gone) })
}

func (t *Tab) markCrashed() {
	t.mu.Lock()
	t.crashed = true
	t.mu.Unlock()
	t.goneOnce.Do(func() { close(t.gone) })
}

// Afterward runs a clean-up step (restore a viewport, close a scratch page,
// remove an overlay) with a short deadline of its own: it must still run
// when the command's deadline is what ended the work, and must never hang
// on a wedged page, since the tab's turn is held until it returns.
func Afterward(cleanup func(ctx context.Context)) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	cleanup(ctx)
}

// Bound returns a context that also ends when the tab goes away, so a
// command waiting on a closed or crashed tab stops at once instead of at
// its deadline.
func (t *Tab) Bound(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	go func() {
		select {
		case <-t.gone:
			cancel(ErrTabGone)
		case <-ctx.Done():
		}
	}()
	return ctx, func() { cancel(nil) }
}

// ErrTabGone is returned for a tab that was closed or whose renderer crashed.
var ErrTabGone = errors.New("the tab is gone")

// Alive returns ErrTabGone (wrapped with the reason) for a closed or crashed tab.
func (t *Tab) Alive() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.closed:
		return errors.Join(ErrTabGone, errors.New("it was closed"))
	case t.crashed:
		return errors.Join(ErrTabGone, errors.New("its renderer crashed"))
	}
	return nil
}

func (t *Tab) frameNavigated(s *cdp.Session, f *cdproto.Frame) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fr := t.frames[f.ID]
	if fr == nil {
		fr = &Frame{ID: f.ID}
		t.frames[f.ID] = fr
	}
	fr.ParentID, fr.Name, fr.URL = f.ParentID, f.Name, f.URL+f.URLFragment
	if fr.Session == nil {
		// An in-process frame belongs to the session that reported it; an
		// out-of-process one was given its own session when it attached.
		fr.Session = s
	}
	if f.ParentID == "" && s == t.Session {
		t.url = f.URL + f.URLFragment
		t.navSeq.Add(1)
		t.currentFrame = "" // the old document's frames are gone
	}
}

func (t *Tab) frameDetached(id cdproto.FrameID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.frames, id)
}

// Frames returns a copy of the tab's known frames.
func (t *Tab) Frames() []Frame {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]Frame, 0, len(t.frames))
	for _, f := range t.frames {
		out = append(out, *f)
	}
	return out
}

// MainFrameID is the top frame's id (Chromium uses the target id).
func (t *Tab) MainFrameID() cdproto.FrameID { return cdproto.FrameID(t.TargetID) }

func (t *Tab) contextCreated(s *cdp.Session, d *runtime.ExecutionContextDescription) {
	var aux struct {
		IsDefault bool            `json:"isDefault"`
		FrameID   cdproto.FrameID `json:"frameId"`
	}
	if len(d.AuxData) == 0 || !decodeInto(d.AuxData, &aux) || !aux.IsDefault {
		return // isolated worlds and extensions are not the page's own context
	}
	t.mu.Lock()
	t.contexts[d.UniqueID] = &execContext{id: d.ID, session: s, frameID: aux.FrameID}
	t.mu.Unlock()
}

func (t *Tab) contextDestroyed(uniqueID string) {
	t.mu.Lock()
	delete(t.contexts, uniqueID)
	t.mu.Unlock()
}

func (t *Tab) contextsCleared(s *cdp.Session) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, c := range t.contexts {
		if c.session == s || c.session.ID() == s.ID() {
			delete(t.contexts, id)
		}
	}
}

// frameContext finds the default execution context of a frame.
func (t *Tab) frameContext(frameID cdproto.FrameID) (*execContext, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range t.contexts {
		if c.frameID == frameID {
			return c, true
		}
	}
	return nil, false
}

func (t *Tab) requestStarted() {
	t.mu.Lock()
	t.inflight++
	t.reqStarts++
	t.mu.Unlock()
}

func (t *Tab) requestEnded() {
	t.mu.Lock()
	if t.inflight > 0 {
		t.inflight--
	}
	if t.inflight == 0 {
		t.netIdleAt = time.Now()
	}
	t.mu.Unlock()
}

// WaitNetworkIdle waits until no request has been in flight for quiet.
func (t *Tab) WaitNetworkIdle(ctx context.Context, quiet time.Duration) error {
	for {
		t.mu.Lock()
		idle := t.inflight == 0
		since := time.Since(t.netIdleAt)
		t.mu.Unlock()
		if idle && since >= quiet {
			return nil
		}
		wait := 20 * time.Millisecond
		if idle {
			wait = quiet - since
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// CurrentFrame is the frame CSS selectors and scripts run in ("" = main),
// as chosen by the frame command.
func (t *Tab) CurrentFrame() cdproto.FrameID {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.currentFrame
}

// SetCurrentFrame switches the frame for CSS selectors ("" = main).
func (t *Tab) SetCurrentFrame(id cdproto.FrameID) {
	t.mu.Lock()
	t.currentFrame = id
	t.mu.Unlock()
}

// Acquire waits for this tab's turn: commands on one tab run one at a time in
// arrival order, while other tabs run in parallel. Unlike a mutex, the wait
// gives up when ctx ends.
func (t *Tab) Acquire(ctx context.Context) error {
	select {
	case t.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Release ends the turn taken by Acquire.
func (t *Tab) Release() { <-t.turn }

package browser

import (
	"context"
	"fmt"
	"time"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"

	"github.com/browsehq/browse/internal/cdp"
)

// ActionError says why an element could not be acted on.
type ActionError struct {
	Reason string // "hidden", "covered", "disabled", "readonly", "not editable"
	By     string // for "covered": the element on top, as <tag id class>
}

func (e *ActionError) Error() string {
	if e.By != "" {
		return e.Reason + " by " + e.By
	}
	return e.Reason
}

// actionableJS scrolls the element into view if needed and reports whether a
// real click at its centre would reach it, and where that centre is in its
// frame's viewport. Closed shadow roots hide their insides from
// elementFromPoint, so a hit on a shadow host that contains the element
// counts as reaching it.
const actionableJS = `function(needEnabled) {
	if (this.scrollIntoViewIfNeeded) this.scrollIntoViewIfNeeded(true); else this.scrollIntoView({block: 'center'});
	const r = this.getBoundingClientRect();
	const st = getComputedStyle(this);
	if (r.width === 0 || r.height === 0 || st.visibility === 'hidden' || st.display === 'none') return {reason: 'hidden'};
	if (needEnabled && (this.disabled || this.getAttribute('aria-disabled') === 'true' || (this.closest && this.closest('fieldset:disabled')))) return {reason: 'disabled'};
	const x = r.left + r.width / 2, y = r.top + r.height / 2;
	let hit = document.elementFromPoint(x, y);
	while (hit && hit.shadowRoot) { const inner = hit.shadowRoot.elementFromPoint(x, y); if (!inner || inner === hit) break; hit = inner; }
	const ok = {ok: true, x, y, top: window === window.top};
	if (!hit) return {reason: 'outside the viewport'};
	if (hit === this || this.contains(hit)) return ok;
	for (let n = this; n; ) { const root = n.getRootNode(); if (!root.host) break; n = root.host; if (n === hit) return ok; }
	if (this.labels && [...this.labels].some(l => l === hit || l.contains(hit))) return ok;
	if (hit.tagName === 'LABEL' && hit.control === this) return ok;
	let d = '<' + hit.tagName.toLowerCase();
	if (hit.id) d += ' id="' + hit.id + '"';
	if (typeof hit.className === 'string' && hit.className.trim()) d += ' class="' + hit.className.trim() + '"';
	return {reason: 'covered', by: d + '>'};
}`

type actionable struct {
	OK     bool    `json:"ok"`
	Reason string  `json:"reason"`
	By     string  `json:"by"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Top    bool    `json:"top"` // the element is in the top-level document
}

// prepare scrolls el into view and waits until a click would reach it, or
// until ctx ends, returning the last reason it was not actionable. It returns
// the element's centre in the top-level viewport.
func (t *Tab) prepare(ctx context.Context, el *Element, needEnabled bool) (float64, float64, error) {
	var last actionable
	for attempt := 0; ; attempt++ {
		obj, err := el.Call(ctx, actionableJS, needEnabled)
		if err != nil {
			if ctx.Err() != nil && last.Reason != "" {
				return 0, 0, &ActionError{Reason: last.Reason, By: last.By}
			}
			return 0, 0, err
		}
		last = actionable{}
		decodeInto(obj.Value, &last)
		if last.OK {
			if last.Top {
				return last.X, last.Y, nil // the page computed it: no more round trips
			}
			return t.centre(ctx, el)
		}
		// Animations, late layout and overlays that fade out settle quickly:
		// retry until the deadline, then report what stood in the way.
		select {
		case <-ctx.Done():
			return 0, 0, &ActionError{Reason: last.Reason, By: last.By}
		case <-time.After(time.Duration(min(20*(attempt+1), 100)) * time.Millisecond):
		}
	}
}

// centre returns the element's centre in the top-level viewport, where
// Input.dispatchMouseEvent expects it, adding the offsets of the
// out-of-process frames it sits in.
func (t *Tab) centre(ctx context.Context, el *Element) (float64, float64, error) {
	handle, err := el.Handle(ctx)
	if err != nil {
		return 0, 0, err
	}
	q, err := cdproto.Call(ctx, el.Session, dom.GetContentQuads, dom.GetContentQuadsParams{ObjectID: handle})
	if err != nil {
		return 0, 0, err
	}
	for _, quad := range q.Quads {
		if len(quad) < 8 {
			continue
		}
		x := (quad[0] + quad[2] + quad[4] + quad[6]) / 4
		y := (quad[1] + quad[3] + quad[5] + quad[7]) / 4
		dx, dy, err := t.localRootOffset(ctx, el.FrameID)
		if err != nil {
			return 0, 0, err
		}
		return x + dx, y + dy, nil
	}
	return 0, 0, &ActionError{Reason: "hidden"}
}

// localRootOffset is where a frame's process-local root sits in the top-level
// viewport. In-process frames share the main frame's coordinates; an
// out-of-process frame is offset by its <iframe>'s content box.
func (t *Tab) localRootOffset(ctx context.Context, frameID cdproto.FrameID) (float64, float64, error) {
	s := t.sessionFor(frameID)
	if s == nil {
		return 0, 0, fmt.Errorf("the frame is gone")
	}
	if s.ID() == t.Session.ID() {
		return 0, 0, nil
	}
	root := frameID
	for {
		p := t.frameParent(root)
		if p == "" {
			return 0, 0, nil
		}
		ps := t.sessionFor(p)
		if ps == nil {
			return 0, 0, fmt.Errorf("the frame's parent is gone")
		}
		if ps.ID() != s.ID() {
			owner, err := cdproto.Call(ctx, ps, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: root})
			if err != nil {
				return 0, 0, err
			}
			box, err := cdproto.Call(ctx, ps, dom.GetBoxModel, dom.GetBoxModelParams{BackendNodeID: owner.BackendNodeID})
			if err != nil || box.Model == nil || len(box.Model.Content) < 2 {
				return 0, 0, fmt.Errorf("the iframe has no layout box")
			}
			px, py, err := t.localRootOffset(ctx, p)
			return px + box.Model.Content[0], py + box.Model.Content[1], err
		}
		root = p
	}
}

func (t *Tab) frameParent(id cdproto.FrameID) cdproto.FrameID {
	t.mu.Lock()
	defer t.mu.Unlock()
	if f := t.frames[id]; f != nil {
		return f.ParentID
	}
	return ""
}

func mouseCall(typ input.DispatchMouseEventType, x, y float64, button input.MouseButton, clicks int64) cdp.PipelinedCall {
	p := &input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Button: button, ClickCount: clicks}
	if button == input.MouseButtonLeft && typ == input.DispatchMouseEventTypeMousePressed {
		p.Buttons = 1
	}
	return cdp.PipelinedCall{Method: "Input.dispatchMouseEvent", Params: p}
}

// Click clicks the element's centre with real mouse events (move, press,
// release, sent together), after checking that the click would land on it.
func (t *Tab) Click(ctx context.Context, el *Element) error {
	x, y, err := t.prepare(ctx, el, true)
	if err != nil {
		return err
	}
	return t.Session.Pipeline(ctx,
		mouseCall(input.DispatchMouseEventTypeMouseMoved, x, y, input.MouseButtonNone, 0),
		mouseCall(input.DispatchMouseEventTypeMousePressed, x, y, input.MouseButtonLeft, 1),
		mouseCall(input.DispatchMouseEventTypeMouseReleased, x, y, input.MouseButtonLeft, 1))
}

// Hover moves the mouse to the element's centre.
func (t *Tab) Hover(ctx context.Context, el *Element) error {
	x, y, err := t.prepare(ctx, el, false)
	if err != nil {
		return err
	}
	return t.Session.Pipeline(ctx, mouseCall(input.DispatchMouseEventTypeMouseMoved, x, y, input.MouseButtonNone, 0))
}

// Activity is a mark of the tab's navigations and requests, taken before an
// action so Settle can tell what the action started.
type Activity struct{ nav, req int64 }

// Mark records the tab's activity counters.
func (t *Tab) Mark() Activity {
	t.mu.Lock()
	defer t.mu.Unlock()
	return Activity{t.navStarts, t.reqStarts}
}

// Settle waits, briefly and on events only, for what an action started: a
// navigation until DOMContentLoaded, requests until the network is quiet. An
// action that started nothing returns at once. It reports whether the page
// navigated.
func (t *Tab) Settle(ctx context.Context, before Activity, w *NavWatch) (navigated bool) {
	// One round trip to the renderer is a barrier: events the action caused
	// have reached us once it answers.
	t.Session.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "0"}, nil)
	return t.SettleAfterBarrier(ctx, before, w)
}

// SettleAfterBarrier is Settle for an action whose last step was itself a
// call into the page's renderer (on t.Session), which already serves as the
// barrier.
func (t *Tab) SettleAfterBarrier(ctx context.Context, before Activity, w *NavWatch) (navigated bool) {
	now := t.Mark()
	if now.nav != before.nav && w != nil {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		w.w.wait(ctx, t, "")
		return true
	}
	if now.req != before.req {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		t.WaitNetworkIdle(ctx, 100*time.Millisecond)
	}
	return false
}

// NavWatch listens for a navigation an action may start; create it before
// the action and Stop it after Settle.
type NavWatch struct{ w *navWatch }

// WatchNavigation starts listening.
func (t *Tab) WatchNavigation() *NavWatch { return &NavWatch{w: t.watchNavigation()} }

// Stop ends the listening.
func (n *NavWatch) Stop() { n.w.stop() }

// InsertTextIn types text into an element's frame; the element must have
// focus. Text goes to the session owning the frame, so out-of-process
// iframes receive it directly.
func (t *Tab) InsertTextIn(ctx context.Context, el *Element, text string) error {
	_, err := cdproto.Call(ctx, el.Session, input.InsertText, input.InsertTextParams{Text: text})
	return err
}

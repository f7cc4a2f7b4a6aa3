package browser

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"

	"github.com/browsehq/browse/internal/cdp"
)

// SelectorError explains why a CSS selector did not pick one element.
type SelectorError struct {
	Selector string
	Invalid  string // the browser's complaint for a malformed selector
	Count    int    // matches found (0: none)
}

func (e *SelectorError) Error() string {
	switch {
	case e.Invalid != "":
		return fmt.Sprintf("%q is not a valid CSS selector", e.Selector)
	case e.Count == 0:
		return fmt.Sprintf("element %s not found", e.Selector)
	}
	return fmt.Sprintf("selector %s matches %d elements", e.Selector, e.Count)
}

// Element is a handle to one element in a frame's document.
type Element struct {
	Session *cdp.Session
	// ObjectID is the page-side handle. An element named by a walker ref
	// starts without one: Call finds it by key within its own round trip,
	// and Handle makes one only for the calls that need it.
	ObjectID      runtime.RemoteObjectID
	FrameID       cdproto.FrameID // "" for the main frame
	BackendNodeID int64           // 0 when found by CSS
	world         runtime.ExecutionContextID
	key           int64
}

// Call runs fn (a JS function declaration) with this bound to the element.
// A node that has left the document fails with a stale error (see IsStale)
// instead of acting on a detached copy.
func (e *Element) Call(ctx context.Context, fn string, args ...any) (*runtime.RemoteObject, error) {
	if e.ObjectID == "" && e.world != 0 {
		byKey := "function(k, ...a) { const el = globalThis.__browse && globalThis.__browse.get(k); if (!el) throw new Error('" + staleMarker + "'); return (" + fn + ").apply(el, a) }"
		obj, err := callFunction(ctx, e.Session, "", e.world, byKey, append([]any{e.key}, args...)...)
		if errors.Is(err, ErrContextGone) {
			return nil, &JSError{Text: staleMarker} // the world went with its document
		}
		return obj, err
	}
	guarded := "function(...a) { if (!this.isConnected) throw new Error('" + staleMarker + "'); return (" + fn + ").apply(this, a) }"
	return CallOn(ctx, e.Session, e.ObjectID, guarded, args...)
}

// Handle returns the element's page-side handle, making it first if the
// element is known only by its walker key.
func (e *Element) Handle(ctx context.Context) (runtime.RemoteObjectID, error) {
	if e.ObjectID != "" || e.world == 0 {
		return e.ObjectID, nil
	}
	obj, err := callWorld(ctx, e.Session, e.world, "", elementByKey, []any{e.key}, false)
	if errors.Is(err, ErrContextGone) || (err == nil && (obj == nil || obj.ObjectID == "")) {
		return "", &JSError{Text: staleMarker}
	}
	if err != nil {
		return "", err
	}
	e.ObjectID = obj.ObjectID
	return e.ObjectID, nil
}

// Release frees the page-side handle without waiting for the answer.
func (e *Element) Release() {
	if e.ObjectID == "" {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		e.Session.Call(ctx, "Runtime.releaseObject", &runtime.ReleaseObjectParams{ObjectID: e.ObjectID}, nil)
	}()
}

// QueryCSS finds the first element matching sel in a frame ("" is the main
// frame) and the number of matches. Shadow roots are not pierced: CSS
// selectors see the light DOM, as in a browser; refs reach further.
func (t *Tab) QueryCSS(ctx context.Context, frameID cdproto.FrameID, sel string) (*Element, int, error) {
	s, contextID, err := t.frameTarget(frameID)
	if err != nil {
		return nil, 0, err
	}
	// One round trip: the NodeList handle carries its length in its description.
	expr := "(() => { try { return document.querySelectorAll(" + strconv.Quote(sel) + ") } catch (e) { return 'BROWSE_BAD_SELECTOR:' + e.message } })()"
	res, err := cdproto.Call(ctx, s, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ContextID: contextID})
	obj, err := evalResult(res.Result, res.ExceptionDetails, err)
	if err != nil {
		return nil, 0, err
	}
	if obj.Type == runtime.RemoteObjectTypeString {
		var msg string
		decodeInto(obj.Value, &msg)
		return nil, 0, &SelectorError{Selector: sel, Invalid: strings.TrimPrefix(msg, "BROWSE_BAD_SELECTOR:")}
	}
	list := &Element{Session: s, ObjectID: obj.ObjectID}
	n := nodeListLength(obj.Description)
	if n == 0 {
		list.Release()
		return nil, 0, &SelectorError{Selector: sel}
	}
	// Turn the list handle into a handle on its first element.
	first, err := cdproto.Call(ctx, s, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: "function() { return this[0] }",
		ObjectID:            obj.ObjectID,
	})
	list.Release()
	el, err := evalResult(first.Result, first.ExceptionDetails, err)
	if err != nil {
		return nil, 0, err
	}
	return &Element{Session: s, ObjectID: el.ObjectID, FrameID: frameID}, n, nil
}

// nodeListLength reads n from a "NodeList(n)" description.
func nodeListLength(desc string) int {
	open, close := strings.IndexByte(desc, '('), strings.IndexByte(desc, ')')
	if open < 0 || close < open {
		return 0
	}
	n, _ := strconv.Atoi(desc[open+1 : close])
	return n
}

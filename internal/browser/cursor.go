package browser

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
)

// Clickable is an element that looks clickable (cursor:pointer, onclick,
// tabindex) but that the accessibility tree does not call interactive.
type Clickable struct {
	FrameID       cdproto.FrameID
	BackendNodeID int64
	Tag           string
	Text          string
	Why           string
}

// cursorScanJS lists the outermost such elements, through open shadow roots.
const cursorScanJS = `(() => {
	const skipTags = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'SUMMARY', 'LABEL', 'HTML', 'BODY', 'IFRAME']);
	const roles = new Set(['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'option', 'switch', 'textbox', 'combobox', 'slider']);
	const found = [];
	const walk = root => {
		for (const el of root.querySelectorAll('*')) {
			if (el.shadowRoot) walk(el.shadowRoot);
			if (skipTags.has(el.tagName) || roles.has(el.getAttribute('role')) || el.closest('a, button, [role=button], [role=link]')) continue;
			const st = getComputedStyle(el);
			const onclick = el.hasAttribute('onclick');
			const tabbable = el.hasAttribute('tabindex') && el.tabIndex >= 0;
			const pointer = st.cursor === 'pointer';
			if (!onclick && !tabbable && !pointer) continue;
			// cursor is inherited: only the outermost pointer element counts.
			if (!onclick && !tabbable && el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer') continue;
			const r = el.getBoundingClientRect();
			if (r.width === 0 || r.height === 0 || st.visibility === 'hidden') continue;
			found.push(el);
			if (found.length >= 200) return;
		}
	};
	walk(document);
	return found;
})()`

const cursorDescribeJS = `function() {
	return this.map(el => ({
		tag: el.tagName.toLowerCase(),
		text: (el.innerText || el.getAttribute('aria-label') || el.title || '').replace(/\s+/g, ' ').trim().slice(0, 80),
		why: el.hasAttribute('onclick') ? 'onclick' : (el.hasAttribute('tabindex') && el.tabIndex >= 0) ? 'tabindex' : 'cursor:pointer',
	}));
}`

// Clickables scans a frame and the frames inside it.
func (t *Tab) Clickables(ctx context.Context, frameID cdproto.FrameID) ([]Clickable, error) {
	ids := []cdproto.FrameID{frameID}
	for _, f := range t.Frames() {
		if f.ID != t.MainFrameID() && t.isInside(f.ID, frameID) {
			ids = append(ids, f.ID)
		}
	}
	var out []Clickable
	for _, id := range ids {
		found, err := t.clickablesIn(ctx, id)
		if err != nil && id == frameID {
			return nil, err
		}
		out = append(out, found...)
	}
	return out, nil
}

// isInside reports whether frame f is frame root or one of its descendants.
func (t *Tab) isInside(f, root cdproto.FrameID) bool {
	if root == "" || root == t.MainFrameID() {
		return true
	}
	for ; f != ""; f = t.frameParent(f) {
		if f == root {
			return true
		}
	}
	return false
}

func (t *Tab) clickablesIn(ctx context.Context, frameID cdproto.FrameID) ([]Clickable, error) {
	s, contextID, err := t.frameTarget(frameID)
	if err != nil {
		return nil, err
	}
	res, err := cdproto.Call(ctx, s, runtime.Evaluate, runtime.EvaluateParams{Expression: cursorScanJS, ContextID: contextID})
	list, err := evalResult(res.Result, res.ExceptionDetails, err)
	if err != nil || list.ObjectID == "" {
		return nil, err
	}
	arr := &Element{Session: s, ObjectID: list.ObjectID}
	defer arr.Release()
	desc, err := CallOn(ctx, s, list.ObjectID, cursorDescribeJS)
	if err != nil {
		return nil, err
	}
	var infos []struct{ Tag, Text, Why string }
	json.Unmarshal(desc.Value, &infos)
	own := true
	props, err := cdproto.Call(ctx, s, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: list.ObjectID, OwnProperties: &own})
	if err != nil {
		return nil, err
	}
	type indexed struct {
		i  int
		id runtime.RemoteObjectID
	}
	var els []indexed
	for _, p := range props.Result {
		i, err := strconv.Atoi(p.Name)
		if err == nil && p.Value != nil && p.Value.ObjectID != "" && i < len(infos) {
			els = append(els, indexed{i, p.Value.ObjectID})
		}
	}
	sort.Slice(els, func(a, b int) bool { return els[a].i < els[b].i })
	out := make([]Clickable, 0, len(els))
	for _, e := range els {
		d, err := cdproto.Call(ctx, s, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: e.id})
		if err != nil || d.Node == nil {
			continue
		}
		info := infos[e.i]
		out = append(out, Clickable{FrameID: frameOrMain(t, frameID), BackendNodeID: int64(d.Node.BackendNodeID), Tag: info.Tag, Text: info.Text, Why: info.Why})
	}
	return out, nil
}

func frameOrMain(t *Tab, id cdproto.FrameID) cdproto.FrameID {
	if id == "" {
		return t.MainFrameID()
	}
	return id
}

// NodeBackendID returns the backend node id of an element handle.
func (e *Element) NodeBackendID(ctx context.Context) (int64, error) {
	if e.BackendNodeID != 0 {
		return e.BackendNodeID, nil
	}
	handle, err := e.Handle(ctx)
	if err != nil {
		return 0, err
	}
	d, err := cdproto.Call(ctx, e.Session, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: handle})
	if err != nil || d.Node == nil {
		return 0, err
	}
	e.BackendNodeID = int64(d.Node.BackendNodeID)
	return e.BackendNodeID, nil
}

package browser

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"

	"github.com/browsehq/browse/internal/cdp"
	"github.com/browsehq/browse/internal/snapshot"
)

// The walker engine builds a snapshot's tree with one function call per
// frame in an isolated world (walker.js), instead of getFullAXTree: that
// call serialises every node of the page with its name sources and
// properties, ten times the walker's cost on a page of 200 links and
// twenty-five times on a long document. docs/design-notes.md lists where
// the two differ; the differential test pins it.

//go:embed walker.js
var walkerSource string

// walkerJS is the function itself, without the file's leading comment.
var walkerJS = walkerSource[strings.Index(walkerSource, "\nfunction (")+1:]

// Each world is given the walker once, when it is made; a snapshot then
// sends only walkerCall. Sending the 20 KB source with every snapshot cost
// V8 a compile each time: about 2 ms of 5 on the 200-link page.
var (
	installWalker = "function () { globalThis.__browseWalk = " + walkerJS + " }"
	walkerCall    = "function (opts, scope) { if (!globalThis.__browseWalk) throw new Error('the world has no walker'); return globalThis.__browseWalk(opts, scope) }"
)

// TreeOptions say what a snapshot needs from the tree.
type TreeOptions struct {
	Interactive bool // only interactive elements (and iframes) are needed
	Boxes       bool // measure elements' boxes, for --viewport
	// Scope (-s) is the backend node id of the element to walk from, in
	// the frame Tree is given. When the frame is taken from getFullAXTree
	// instead (its World is 0), the whole frame comes back and the renderer
	// scopes it by this id.
	Scope int64
}

// ErrNotRendered: the scope element is not rendered (display: none here or
// above), so it has no place in a snapshot.
var ErrNotRendered = errors.New("element is not rendered")

// UseAXEngine reports whether BROWSE_SNAPSHOT_ENGINE=ax asks for the
// getFullAXTree engine everywhere (to compare, or to work around a
// difference).
func UseAXEngine() bool { return os.Getenv("BROWSE_SNAPSHOT_ENGINE") == "ax" }

// Tree returns a frame's tree ("" is the main frame) with the iframes in it,
// from the walker. With Boxes it also returns the area --viewport keeps:
// the visible viewport grown by its own size on every side.
func (t *Tab) Tree(ctx context.Context, frameID cdproto.FrameID, opts TreeOptions) (*snapshot.Frame, snapshot.Box, error) {
	if err := t.Alive(); err != nil {
		return nil, snapshot.Box{}, err
	}
	if frameID == "" {
		frameID = t.MainFrameID()
	}
	f, w, h, err := t.walkFrame(ctx, frameID, opts, true)
	if errors.Is(err, errNeedsAXTree) {
		if opts.Boxes {
			return t.AXTreeNearViewport(ctx, frameID)
		}
		f, err := t.axFrame(ctx, frameID)
		return f, snapshot.Box{}, err
	}
	if err != nil {
		return nil, snapshot.Box{}, err
	}
	return f, snapshot.Box{X: -w, Y: -h, W: 3 * w, H: 3 * h}, nil
}

// worlds caches each frame's isolated world: one per document, so element
// keys (and the refs made of them) stay valid until the frame navigates.
type worldEntry struct {
	session *cdp.Session
	id      runtime.ExecutionContextID
}

func (t *Tab) world(ctx context.Context, s *cdp.Session, frameID cdproto.FrameID, fresh bool) (runtime.ExecutionContextID, error) {
	t.mu.Lock()
	if t.worlds == nil {
		t.worlds = map[cdproto.FrameID]worldEntry{}
	}
	w, ok := t.worlds[frameID]
	t.mu.Unlock()
	if ok && !fresh && w.session == s {
		return w.id, nil
	}
	var res struct {
		ID runtime.ExecutionContextID `json:"executionContextId"`
	}
	if err := s.Call(ctx, "Page.createIsolatedWorld", map[string]any{"frameId": frameID, "worldName": "browse"}, &res); err != nil {
		return 0, err
	}
	if _, err := callWorld(ctx, s, res.ID, "", installWalker, nil, true); err != nil {
		return 0, err
	}
	t.mu.Lock()
	t.worlds[frameID] = worldEntry{session: s, id: res.ID}
	t.mu.Unlock()
	return res.ID, nil
}

// callInWorld runs fn in the frame's world; a world gone with its document
// is made again once.
func (t *Tab) callInWorld(ctx context.Context, s *cdp.Session, frameID cdproto.FrameID, fn string, args []any, byValue bool) (*runtime.RemoteObject, runtime.ExecutionContextID, error) {
	for attempt := 0; ; attempt++ {
		world, err := t.world(ctx, s, frameID, attempt > 0)
		if err != nil {
			return nil, 0, err
		}
		obj, err := callWorld(ctx, s, world, "", fn, args, byValue)
		if errors.Is(err, ErrContextGone) && attempt == 0 {
			continue
		}
		return obj, world, err
	}
}

// callWorld calls fn in a world. Handles it returns belong to group ("" is
// none: the caller releases them one by one).
func callWorld(ctx context.Context, s *cdp.Session, world runtime.ExecutionContextID, group, fn string, args []any, byValue bool) (*runtime.RemoteObject, error) {
	callArgs := make([]map[string]any, len(args))
	for i, a := range args {
		if id, ok := a.(runtime.RemoteObjectID); ok {
			callArgs[i] = map[string]any{"objectId": id}
		} else {
			callArgs[i] = map[string]any{"value": a}
		}
	}
	var res struct {
		Result           *runtime.RemoteObject     `json:"result"`
		ExceptionDetails *runtime.ExceptionDetails `json:"exceptionDetails"`
	}
	params := map[string]any{
		"functionDeclaration": fn, "executionContextId": world, "arguments": callArgs, "returnByValue": byValue,
	}
	if group != "" {
		params["objectGroup"] = group
	}
	err := s.Call(ctx, "Runtime.callFunctionOn", params, &res)
	return evalResult(res.Result, res.ExceptionDetails, err)
}

// walkFrame walks one frame, then the frames inside it, in parallel.
func (t *Tab) walkFrame(ctx context.Context, frameID cdproto.FrameID, opts TreeOptions, top bool) (*snapshot.Frame, float64, float64, error) {
	s := t.sessionFor(frameID)
	if s == nil {
		return nil, 0, 0, fmt.Errorf("frame %s is gone", frameID)
	}
	arg := map[string]any{"interactive": opts.Interactive, "boxes": opts.Boxes && top}
	walk := func() (*runtime.RemoteObject, runtime.ExecutionContextID, error) {
		if top && opts.Scope != 0 {
			return t.walkScope(ctx, s, frameID, arg, opts.Scope)
		}
		return t.callInWorld(ctx, s, frameID, walkerCall, []any{arg}, true)
	}
	obj, world, err := walk()
	var jsErr *JSError
	if errors.As(err, &jsErr) {
		// The walk itself failed (a document nested deeper than the
		// script's stack, say): Chromium's own tree has no such limit.
		return nil, 0, 0, errNeedsAXTree
	}
	if err != nil {
		return nil, 0, 0, err
	}
	// Handles made while walking this frame (closed shadow roots, iframe
	// elements, the -s element) go in one group, freed at the end; a plain
	// page makes none.
	group := "browse-walk-" + string(frameID)
	text, hosts, w, h, widgets, found := walkerText(obj)
	if !found {
		return nil, 0, 0, ErrNotRendered
	}
	if hosts > 0 || strings.Contains(text, "\x1fIframe\x1f") || (top && opts.Scope != 0) {
		defer func() {
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
			defer cancel()
			s.Call(rctx, "Runtime.releaseObjectGroup", map[string]any{"objectGroup": group}, nil)
		}()
	}
	if widgets > 0 {
		return nil, 0, 0, errNeedsAXTree
	}
	if hosts > 0 {
		found, err := t.showClosedRoots(ctx, s, frameID, world, group)
		if err != nil {
			return nil, 0, 0, err
		}
		if found {
			if obj, _, err = walk(); err != nil {
				return nil, 0, 0, err
			}
			text, _, w, h, _, _ = walkerText(obj)
		}
	}
	f, iframes := parseWalk(text, opts.Boxes && top)
	f.ID, f.URL, f.World = string(frameID), t.frameURL(frameID), int64(world)
	if len(iframes) == 0 {
		return f, w, h, nil
	}
	f.Children = inParallel(iframes, func(key int64) *snapshot.Frame {
		childID, err := t.childFrameID(ctx, s, world, group, key)
		if err != nil || childID == "" {
			return nil
		}
		child, _, _, err := t.walkFrame(ctx, childID, opts, false)
		if errors.Is(err, errNeedsAXTree) {
			child, err = t.axFrame(ctx, childID)
		}
		if err != nil {
			return nil
		}
		return child
	})
	return f, w, h, nil
}

// domNode is the part of a DOM.describeNode answer showClosedRoots reads.
type domNode struct {
	BackendNodeID int64     `json:"backendNodeId"`
	Type          string    `json:"shadowRootType"`
	Children      []domNode `json:"children"`
	ShadowRoots   []domNode `json:"shadowRoots"`
}

// errNeedsAXTree: the frame is taken from getFullAXTree instead, because
// it holds controls the browser draws itself (media players), which no
// script sees, or because the walk failed.
var errNeedsAXTree = errors.New("frame needs getFullAXTree")

// walkerText splits the walker's answer into its header and its records.
func walkerText(obj *runtime.RemoteObject) (text string, hosts int, w, h float64, widgets int, found bool) {
	if obj == nil || !decodeInto(obj.Value, &text) {
		return "", 0, 0, 0, 0, true
	}
	head, rest, _ := strings.Cut(text, "\x1e")
	fields := strings.Fields(head)
	if len(fields) == 5 {
		hosts, _ = strconv.Atoi(fields[0])
		w, _ = strconv.ParseFloat(fields[1], 64)
		h, _ = strconv.ParseFloat(fields[2], 64)
		widgets, _ = strconv.Atoi(fields[3])
	}
	return rest, hosts, w, h, widgets, len(fields) != 5 || fields[4] == "1"
}

// walkScope walks from one element (by backend node id) of the frame, in
// the frame's world.
func (t *Tab) walkScope(ctx context.Context, s *cdp.Session, frameID cdproto.FrameID, arg map[string]any, backend int64) (*runtime.RemoteObject, runtime.ExecutionContextID, error) {
	for attempt := 0; ; attempt++ {
		world, err := t.world(ctx, s, frameID, attempt > 0)
		if err != nil {
			return nil, 0, err
		}
		var res struct {
			Object *runtime.RemoteObject `json:"object"`
		}
		err = s.Call(ctx, "DOM.resolveNode", map[string]any{"backendNodeId": backend, "executionContextId": world, "objectGroup": "browse-walk-" + string(frameID)}, &res)
		if err != nil && attempt == 0 {
			continue // a world gone with its document: make it again
		}
		if err != nil || res.Object == nil {
			return nil, 0, ErrNotRendered // it left the document
		}
		obj, err := callWorld(ctx, s, world, "", walkerCall, []any{arg, res.Object.ObjectID}, true)
		if errors.Is(err, ErrContextGone) && attempt == 0 {
			continue
		}
		return obj, world, err
	}
}

// parseWalk turns the walker's records into a tree, and lists the keys of
// the iframe elements in it.
func parseWalk(text string, boxes bool) (*snapshot.Frame, []int64) {
	f := &snapshot.Frame{}
	if text == "" {
		return f, nil
	}
	records := strings.Split(text, "\x1e")
	f.Nodes = make([]snapshot.Node, len(records))
	if boxes {
		f.Boxes = make(map[int64]snapshot.Box)
	}
	var iframes []int64
	for i, rec := range records {
		fields := strings.SplitN(rec, "\x1f", 8)
		for len(fields) < 8 {
			fields = append(fields, "")
		}
		n := &f.Nodes[i]
		n.ID = strconv.Itoa(i)
		n.Role, n.Name, n.Value, n.URL = fields[1], fields[2], fields[3], fields[6]
		n.Key, _ = strconv.ParseInt(fields[4], 10, 64)
		if fields[5] != "" {
			values := map[string]string{}
			for _, p := range strings.Split(fields[5], ",") {
				k, v, _ := strings.Cut(p, "=")
				values[k] = v
			}
			n.Props = snapshot.StateProps(values)
		}
		if boxes && fields[7] != "" && n.Key != 0 {
			var b [4]float64
			for j, v := range strings.SplitN(fields[7], ",", 4) {
				b[j], _ = strconv.ParseFloat(v, 64)
			}
			f.Boxes[n.Key] = snapshot.Box{X: b[0], Y: b[1], W: b[2], H: b[3]}
		}
		if n.Role == "Iframe" && n.Key != 0 {
			iframes = append(iframes, n.Key)
		}
		if parent, err := strconv.Atoi(fields[0]); err == nil && parent >= 0 && parent < i {
			f.Nodes[parent].Children = append(f.Nodes[parent].Children, n.ID)
		}
	}
	return f, iframes
}

// elementByKey is the world's function that hands back an element by key,
// or null once it has left the document.
const elementByKey = "function (k) { return globalThis.__browse ? globalThis.__browse.get(k) : null }"

// childFrameID finds the frame an iframe element (by key) holds.
func (t *Tab) childFrameID(ctx context.Context, s *cdp.Session, world runtime.ExecutionContextID, group string, key int64) (cdproto.FrameID, error) {
	obj, err := callWorld(ctx, s, world, group, elementByKey, []any{key}, false)
	if err != nil || obj == nil || obj.ObjectID == "" {
		return "", err
	}
	var d struct {
		Node struct {
			FrameID cdproto.FrameID `json:"frameId"`
		} `json:"node"`
	}
	if err := s.Call(ctx, "DOM.describeNode", map[string]any{"objectId": obj.ObjectID}, &d); err != nil {
		return "", err
	}
	return d.Node.FrameID, nil
}

// showClosedRoots finds the frame's closed shadow roots, which the walker
// cannot reach, and hands them to its world; the caller then walks again.
// The walker asks only when it met, for the first time, elements that may
// host one, so a document pays for this once. One
// DOMSnapshot.captureSnapshot tells which nodes sit in a closed root: about
// 15 ms for a page of 500 custom elements, where asking about each element
// (a handle and a DOM.describeNode apiece) took 600 ms.
func (t *Tab) showClosedRoots(ctx context.Context, s *cdp.Session, frameID cdproto.FrameID, world runtime.ExecutionContextID, group string) (bool, error) {
	var snap struct {
		Documents []struct {
			FrameID int `json:"frameId"` // index into Strings
			Nodes   struct {
				ParentIndex    []int   `json:"parentIndex"`
				BackendNodeID  []int64 `json:"backendNodeId"`
				ShadowRootType struct {
					Index []int `json:"index"`
					Value []int `json:"value"` // index into Strings
				} `json:"shadowRootType"`
			} `json:"nodes"`
		} `json:"documents"`
		Strings []string `json:"strings"`
	}
	if err := s.Call(ctx, "DOMSnapshot.captureSnapshot", map[string]any{"computedStyles": []string{}}, &snap); err != nil {
		return false, err
	}
	str := func(i int) string {
		if i >= 0 && i < len(snap.Strings) {
			return snap.Strings[i]
		}
		return ""
	}
	// Nodes inside a closed root say so; the snapshot leaves the root out,
	// so a top node of one has the host itself as its parent.
	var hosts []int64
	for _, d := range snap.Documents {
		if str(d.FrameID) != string(frameID) {
			continue
		}
		n := d.Nodes
		closed := map[int]bool{}
		for j, i := range n.ShadowRootType.Index {
			if j < len(n.ShadowRootType.Value) && str(n.ShadowRootType.Value[j]) == "closed" {
				closed[i] = true
			}
		}
		seen := map[int]bool{}
		for i := range closed {
			if i < 0 || i >= len(n.ParentIndex) {
				continue
			}
			host := n.ParentIndex[i]
			if host >= 0 && host < len(n.BackendNodeID) && !closed[host] && !seen[host] {
				seen[host] = true
				hosts = append(hosts, n.BackendNodeID[host])
			}
		}
	}
	if len(hosts) == 0 {
		return false, nil
	}
	// Each host's subtree, shadow roots included (DOM.describeNode, pierced),
	// gives its closed root and any closed roots nested inside it.
	answers := make([]struct {
		Node domNode `json:"node"`
	}, len(hosts))
	var calls []cdp.PipelinedCall
	for i, h := range hosts {
		calls = append(calls, cdp.PipelinedCall{Method: "DOM.describeNode", Params: map[string]any{"backendNodeId": h, "depth": -1, "pierce": true}, Result: &answers[i]})
	}
	if err := s.Pipeline(ctx, calls...); err != nil {
		return false, err
	}
	type resolved struct {
		Object *runtime.RemoteObject `json:"object"`
	}
	var objects []resolved
	calls = calls[:0]
	var visit func(n *domNode)
	visit = func(n *domNode) {
		for i := range n.ShadowRoots {
			r := &n.ShadowRoots[i]
			if r.Type == "closed" {
				for _, backend := range []int64{n.BackendNodeID, r.BackendNodeID} {
					calls = append(calls, cdp.PipelinedCall{Method: "DOM.resolveNode", Params: map[string]any{
						"backendNodeId": backend, "executionContextId": world, "objectGroup": group}})
				}
			}
			visit(r)
		}
		for i := range n.Children {
			visit(&n.Children[i])
		}
	}
	for i := range answers {
		visit(&answers[i].Node)
	}
	objects = make([]resolved, len(calls))
	for i := range calls {
		calls[i].Result = &objects[i]
	}
	if err := s.Pipeline(ctx, calls...); err != nil {
		return false, err
	}
	calls = calls[:0]
	for i := 0; i+1 < len(objects); i += 2 {
		host, root := objects[i].Object, objects[i+1].Object
		if host == nil || root == nil {
			continue
		}
		calls = append(calls, cdp.PipelinedCall{Method: "Runtime.callFunctionOn", Params: map[string]any{
			"functionDeclaration": "function (root) { globalThis.__browse.closed.set(this, root) }",
			"objectId":            host.ObjectID, "arguments": []map[string]any{{"objectId": root.ObjectID}},
		}})
	}
	return len(calls) > 0, s.Pipeline(ctx, calls...)
}

// worldRef is the element a walker ref names, without a round trip: its
// first Call finds it by key (see Element).
func worldRef(s *cdp.Session, entry RefEntry) *Element {
	return &Element{Session: s, FrameID: entry.FrameID, world: runtime.ExecutionContextID(entry.World), key: entry.Key}
}

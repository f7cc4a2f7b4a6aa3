package browser

import (
	"context"
	"fmt"
	"strings"
	"sync"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/dom"

	"github.com/browsehq/browse/internal/cdp"
	"github.com/browsehq/browse/internal/snapshot"
)

// axValue is an accessibility value as sent: {type, value}.
type axValue struct {
	Value jsonv2.Value `json:"value"`
}

// axNode holds only the fields the renderer uses; decoding the full cdproto
// node type (sources, related nodes…) would cost more than the tree itself.
type axNode struct {
	NodeID   string   `json:"nodeId"`
	Ignored  bool     `json:"ignored"`
	Role     *axValue `json:"role"`
	Name     *axValue `json:"name"`
	Value    *axValue `json:"value"`
	ChildIDs []string `json:"childIds"`
	Backend  int64    `json:"backendDOMNodeId"`
	Props    []struct {
		Name  string   `json:"name"`
		Value *axValue `json:"value"`
	} `json:"properties"`
}

// AXTree fetches the accessibility tree of a frame ("" is the main frame)
// and, inline, of every iframe inside it, in-process or not.
func (t *Tab) AXTree(ctx context.Context, frameID cdproto.FrameID) (*snapshot.Frame, error) {
	if err := t.Alive(); err != nil {
		return nil, err
	}
	if frameID == "" {
		frameID = t.MainFrameID()
	}
	return t.axFrame(ctx, frameID)
}

func (t *Tab) axFrame(ctx context.Context, frameID cdproto.FrameID) (*snapshot.Frame, error) {
	s := t.sessionFor(frameID)
	if s == nil {
		return nil, fmt.Errorf("frame %s is gone", frameID)
	}
	params := map[string]any{}
	if s.ID() == t.Session.ID() && frameID != t.MainFrameID() {
		params["frameId"] = frameID // an in-process child frame
	}
	var res struct {
		Nodes []axNode `json:"nodes"`
	}
	if err := s.Call(ctx, "Accessibility.getFullAXTree", params, &res); err != nil {
		return nil, err
	}
	f := &snapshot.Frame{ID: string(frameID), URL: t.frameURL(frameID), Nodes: make([]snapshot.Node, len(res.Nodes))}
	var iframes []int64
	for i, n := range res.Nodes {
		sn := snapshot.Node{ID: n.NodeID, Ignored: n.Ignored, Children: n.ChildIDs, Key: n.Backend,
			Role: valueString(n.Role), Name: valueString(n.Name), Value: valueString(n.Value)}
		var values map[string]string
		if len(n.Props) > 0 {
			values = make(map[string]string, len(n.Props))
			for _, p := range n.Props {
				values[p.Name] = valueString(p.Value)
			}
			sn.Props = snapshot.StateProps(values)
		}
		if sn.Role == "link" {
			sn.URL = values["url"] // Chromium resolves the href: no extra call
		}
		if sn.Role == "Iframe" && !n.Ignored && n.Backend != 0 {
			iframes = append(iframes, n.Backend)
		}
		f.Nodes[i] = sn
	}
	if len(iframes) == 0 {
		return f, nil
	}
	// Fetch the documents inside the iframes in parallel.
	f.Children = inParallel(iframes, func(backend int64) *snapshot.Frame {
		d, err := cdproto.Call(ctx, s, dom.DescribeNode, dom.DescribeNodeParams{BackendNodeID: cdproto.BackendNodeID(backend)})
		if err != nil || d.Node == nil || d.Node.FrameID == "" {
			return nil
		}
		child, _ := t.axFrame(ctx, d.Node.FrameID)
		return child
	})
	return f, nil
}

// inParallel fetches the documents of a frame's iframes (by key) at once.
// A frame still loading or just removed comes back nil, and renders as an
// empty iframe.
func inParallel(keys []int64, fetch func(key int64) *snapshot.Frame) map[int64]*snapshot.Frame {
	children := make(map[int64]*snapshot.Frame, len(keys))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, key := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if child := fetch(key); child != nil {
				mu.Lock()
				children[key] = child
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return children
}

func (t *Tab) frameURL(id cdproto.FrameID) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if f := t.frames[id]; f != nil {
		return f.URL
	}
	return ""
}

// sessionFor is the session that owns a frame's document.
func (t *Tab) sessionFor(frameID cdproto.FrameID) *cdp.Session {
	if frameID == "" || frameID == t.MainFrameID() {
		return t.Session
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if f := t.frames[frameID]; f != nil {
		return f.Session
	}
	return nil
}

func valueString(v *axValue) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	if v.Value[0] == '"' {
		var s string
		if jsonv2.Unmarshal(v.Value, &s) == nil {
			return s
		}
	}
	return strings.Trim(string(v.Value), `"`)
}

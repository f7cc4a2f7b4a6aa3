package browser

import (
	"context"
	"fmt"

	cdproto "github.com/chromedp/cdproto/cdp"

	"github.com/browsehq/browse/internal/snapshot"
)

// Boxes for `snapshot --viewport` come from one DOMSnapshot.captureSnapshot
// per process: it lays out every node of every in-process document with its
// backend id, about 120 ms on a page of 17k accessibility nodes, where one
// DOM.getBoxModel per element would be thousands of round trips.

// layoutSnapshot is the part of DOMSnapshot.captureSnapshot we read.
type layoutSnapshot struct {
	Documents []layoutDocument `json:"documents"`
	Strings   []string         `json:"strings"`
}

type layoutDocument struct {
	FrameID int     `json:"frameId"` // index into Strings
	ScrollX float64 `json:"scrollOffsetX"`
	ScrollY float64 `json:"scrollOffsetY"`
	Nodes   struct {
		BackendNodeID        []int64 `json:"backendNodeId"`
		ContentDocumentIndex struct {
			Index []int `json:"index"` // node indexes of iframes…
			Value []int `json:"value"` // …and the documents inside them
		} `json:"contentDocumentIndex"`
	} `json:"nodes"`
	Layout struct {
		NodeIndex []int       `json:"nodeIndex"`
		Bounds    [][]float64 `json:"bounds"` // x, y, width, height in the document's coordinates
	} `json:"layout"`
}

// AXTreeNearViewport is AXTree with each element's box in the top
// viewport's coordinates, and the area `snapshot --viewport` keeps: the
// visible viewport grown by one viewport size on every side, so what one
// scroll would reveal is listed too. Elements of out-of-process frames get
// no boxes: they go with their iframe element.
func (t *Tab) AXTreeNearViewport(ctx context.Context, frameID cdproto.FrameID) (*snapshot.Frame, snapshot.Box, error) {
	if err := t.Alive(); err != nil {
		return nil, snapshot.Box{}, err
	}
	if frameID == "" {
		frameID = t.MainFrameID()
	}
	// Chromium answers one call at a time per page, but decoding the tree
	// takes us as long as building it takes Chromium: overlap the two.
	type measured struct {
		boxes map[string]map[int64]snapshot.Box
		area  snapshot.Box
		err   error
	}
	done := make(chan measured, 1)
	go func() {
		boxes, area, err := t.layoutBoxes(ctx, frameID)
		done <- measured{boxes, area, err}
	}()
	tree, err := t.axFrame(ctx, frameID)
	m := <-done
	if err != nil {
		return nil, snapshot.Box{}, err
	}
	if m.err != nil {
		return nil, snapshot.Box{}, m.err
	}
	var attach func(f *snapshot.Frame)
	attach = func(f *snapshot.Frame) {
		f.Boxes = m.boxes[f.ID]
		for _, c := range f.Children {
			attach(c)
		}
	}
	attach(tree)
	return tree, m.area, nil
}

// layoutBoxes measures the documents in frameID's process, by frame id, in
// top-viewport coordinates.
func (t *Tab) layoutBoxes(ctx context.Context, frameID cdproto.FrameID) (map[string]map[int64]snapshot.Box, snapshot.Box, error) {
	var metrics struct {
		Viewport struct {
			Width  float64 `json:"clientWidth"`
			Height float64 `json:"clientHeight"`
		} `json:"cssLayoutViewport"`
	}
	if err := t.Session.Call(ctx, "Page.getLayoutMetrics", map[string]any{}, &metrics); err != nil {
		return nil, snapshot.Box{}, err
	}
	w, h := metrics.Viewport.Width, metrics.Viewport.Height
	area := snapshot.Box{X: -w, Y: -h, W: 3 * w, H: 3 * h}

	s := t.sessionFor(frameID)
	if s == nil {
		return nil, area, fmt.Errorf("frame %s is gone", frameID)
	}
	// An out-of-process frame's documents sit where its local root does.
	dx, dy, err := t.localRootOffset(ctx, frameID)
	if err != nil {
		return nil, area, err
	}
	var snap layoutSnapshot
	if err := s.Call(ctx, "DOMSnapshot.captureSnapshot", map[string]any{"computedStyles": []string{}}, &snap); err != nil {
		return nil, area, err
	}
	return snap.boxes(dx, dy), area, nil
}

// boxes converts every laid-out node's bounds from its own document's
// coordinates to the top viewport's: minus the document's scroll, plus where
// its iframe is, document by document from the root (at dx, dy).
func (snap *layoutSnapshot) boxes(dx, dy float64) map[string]map[int64]snapshot.Box {
	out := make(map[string]map[int64]snapshot.Box, len(snap.Documents))
	if len(snap.Documents) == 0 {
		return out
	}
	type origin struct{ x, y float64 }
	origins := map[int]origin{0: {dx, dy}}
	queue := []int{0}
	for len(queue) > 0 {
		di := queue[0]
		queue = queue[1:]
		doc := &snap.Documents[di]
		o := origins[di]
		o.x -= doc.ScrollX
		o.y -= doc.ScrollY
		boxes := make(map[int64]snapshot.Box, len(doc.Layout.NodeIndex))
		byNode := make(map[int]snapshot.Box, len(doc.Layout.NodeIndex))
		for i, ni := range doc.Layout.NodeIndex {
			if i >= len(doc.Layout.Bounds) || len(doc.Layout.Bounds[i]) < 4 || ni < 0 || ni >= len(doc.Nodes.BackendNodeID) {
				continue
			}
			r := doc.Layout.Bounds[i]
			b := snapshot.Box{X: r[0] + o.x, Y: r[1] + o.y, W: r[2], H: r[3]}
			// A node can own several layout objects (an inline element
			// broken over lines): its box spans them all.
			if prev, ok := byNode[ni]; ok {
				b = union(prev, b)
			}
			byNode[ni] = b
			boxes[doc.Nodes.BackendNodeID[ni]] = b
		}
		for k, ni := range doc.Nodes.ContentDocumentIndex.Index {
			if k >= len(doc.Nodes.ContentDocumentIndex.Value) {
				break
			}
			child := doc.Nodes.ContentDocumentIndex.Value[k]
			if _, seen := origins[child]; seen || child <= 0 || child >= len(snap.Documents) {
				continue
			}
			frame, ok := byNode[ni]
			if !ok {
				continue // an iframe without a box shows nothing: its document keeps no boxes either
			}
			origins[child] = origin{frame.X, frame.Y}
			queue = append(queue, child)
		}
		if doc.FrameID >= 0 && doc.FrameID < len(snap.Strings) {
			out[snap.Strings[doc.FrameID]] = boxes
		}
	}
	return out
}

func union(a, b snapshot.Box) snapshot.Box {
	x0, y0 := min(a.X, b.X), min(a.Y, b.Y)
	x1, y1 := max(a.X+a.W, b.X+b.W), max(a.Y+a.H, b.Y+b.H)
	return snapshot.Box{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

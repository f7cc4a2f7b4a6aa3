package browser

import (
	"context"
	"encoding/json"
	"sync"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
)

// MaxImageSide caps screenshots: vision APIs reject images over 2000 px a side.
const MaxImageSide = 2000

type labelBox struct {
	Label string  `json:"label"`
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	W     float64 `json:"w"`
	H     float64 `json:"h"`
}

// Annotate takes a viewport screenshot (PNG) with each ref's label drawn at
// its element's box. The overlay lives only for the capture.
func (t *Tab) Annotate(ctx context.Context, refs []RefEntry) ([]byte, error) {
	boxes := make([]*labelBox, len(refs))
	var wg sync.WaitGroup
	for i, r := range refs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := t.sessionFor(r.FrameID)
			if s == nil {
				return
			}
			params := dom.GetContentQuadsParams{BackendNodeID: cdproto.BackendNodeID(r.BackendNodeID)}
			if r.World != 0 {
				el := worldRef(s, r)
				id, err := el.Handle(ctx)
				if err != nil {
					return
				}
				defer el.Release()
				params = dom.GetContentQuadsParams{ObjectID: id}
			}
			q, err := cdproto.Call(ctx, s, dom.GetContentQuads, params)
			if err != nil || len(q.Quads) == 0 || len(q.Quads[0]) < 8 {
				return
			}
			dx, dy, err := t.localRootOffset(ctx, r.FrameID)
			if err != nil {
				return
			}
			quad := q.Quads[0]
			minX, minY, maxX, maxY := quad[0], quad[1], quad[0], quad[1]
			for j := 2; j < 8; j += 2 {
				minX, maxX = min(minX, quad[j]), max(maxX, quad[j])
				minY, maxY = min(minY, quad[j+1]), max(maxY, quad[j+1])
			}
			boxes[i] = &labelBox{Label: "@" + r.ID, X: minX + dx, Y: minY + dy, W: maxX - minX, H: maxY - minY}
		}()
	}
	wg.Wait()
	var drawn []*labelBox
	for _, b := range boxes {
		if b != nil && b.W > 0 && b.H > 0 {
			drawn = append(drawn, b)
		}
	}
	const overlayJS = `function(boxes) {
		const root = document.createElement('div');
		root.id = '__browse_annotations';
		root.style.cssText = 'position:fixed;inset:0;pointer-events:none;z-index:2147483647';
		for (const b of boxes) {
			const d = document.createElement('div');
			d.style.cssText = 'position:fixed;border:2px solid #e0245e;box-sizing:border-box;left:' + b.x + 'px;top:' + b.y + 'px;width:' + b.w + 'px;height:' + b.h + 'px';
			const l = document.createElement('span');
			l.textContent = b.label;
			l.style.cssText = 'position:absolute;left:-2px;top:-16px;background:#e0245e;color:#fff;font:bold 11px/14px monospace;padding:0 3px;white-space:nowrap';
			d.appendChild(l);
			root.appendChild(d);
		}
		document.documentElement.appendChild(root);
	}`
	boxesJSON, err := json.Marshal(drawn)
	if err != nil {
		return nil, err
	}
	if _, err := t.Evaluate(ctx, "("+overlayJS+")("+string(boxesJSON)+")"); err != nil {
		return nil, err
	}
	defer Afterward(func(ctx context.Context) {
		t.Evaluate(ctx, "document.getElementById('__browse_annotations')?.remove()")
	})
	shot, err := t.Capture(ctx, ShotOptions{Mode: ShotViewport, MaxSide: MaxImageSide})
	if err != nil {
		return nil, err
	}
	return shot.Data, nil
}

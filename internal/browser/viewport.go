package browser

import (
	"context"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
)

// Viewport is an emulated window: its size in CSS pixels and its device
// scale factor.
type Viewport struct {
	Width, Height int
	Scale         float64
}

// DefaultViewport is what a launched browser's tabs start with.
var DefaultViewport = Viewport{Width: 1280, Height: 720, Scale: 1}

// SetViewport emulates v on this tab. Unlike the reference, which rebuilds
// its browser context for a new scale, this is one CDP call: the document,
// its loaded HTML and the refs all survive.
func (t *Tab) SetViewport(ctx context.Context, v Viewport) error {
	if _, err := cdproto.Call(ctx, t.Session, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: int64(v.Width), Height: int64(v.Height), DeviceScaleFactor: v.Scale}); err != nil {
		return err
	}
	t.mu.Lock()
	t.viewport = &v
	t.mu.Unlock()
	return nil
}

// ClearViewport drops the emulation: the tab gets the window's own size.
func (t *Tab) ClearViewport(ctx context.Context) error {
	if _, err := cdproto.Call(ctx, t.Session, emulation.ClearDeviceMetricsOverride, cdproto.Empty{}); err != nil {
		return err
	}
	t.mu.Lock()
	t.viewport = nil
	t.mu.Unlock()
	return nil
}

// ViewportOverride is the viewport set on this tab, if any.
func (t *Tab) ViewportOverride() (Viewport, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.viewport == nil {
		return Viewport{}, false
	}
	return *t.viewport, true
}

// CurrentViewport is the viewport the page sees now.
func (t *Tab) CurrentViewport(ctx context.Context) (Viewport, error) {
	if v, ok := t.ViewportOverride(); ok {
		return v, nil
	}
	obj, err := t.Evaluate(ctx, "({w: innerWidth, h: innerHeight, s: devicePixelRatio})")
	if err != nil {
		return Viewport{}, err
	}
	var m struct {
		W int     `json:"w"`
		H int     `json:"h"`
		S float64 `json:"s"`
	}
	decodeInto(obj.Value, &m)
	return Viewport{Width: m.W, Height: m.H, Scale: m.S}, nil
}

// RestoreViewport puts back what ViewportOverride returned earlier.
func (t *Tab) RestoreViewport(ctx context.Context, v Viewport, had bool) error {
	if had {
		return t.SetViewport(ctx, v)
	}
	return t.ClearViewport(ctx)
}

// SetDefaultViewport makes tabs opened from now on start with v, as a
// viewport set in the reference applies to its later pages.
func (b *Browser) SetDefaultViewport(v Viewport) {
	b.mu.Lock()
	b.viewport = &v
	b.mu.Unlock()
}

func (b *Browser) defaultViewport() *Viewport {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.viewport
}

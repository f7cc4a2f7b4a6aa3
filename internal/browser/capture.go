package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/browsehq/browse/internal/cdp"
	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
)

// MaxFullPageHeight is where a full-page screenshot is cut, in CSS pixels.
// Taller captures make Chromium allocate one huge surface (and can fail or
// stall); past this height an agent is better served by --clip or scrolling.
const MaxFullPageHeight = 16384

// ErrOutsideViewport is a ShotRegion that does not overlap the viewport.
var ErrOutsideViewport = errors.New("the region lies outside the viewport")

// Rect is a region in CSS pixels.
type Rect struct{ X, Y, W, H float64 }

// ShotMode is what a screenshot covers.
type ShotMode int

const (
	ShotViewport ShotMode = iota // what is on screen
	ShotFullPage                 // the whole document, up to MaxFullPageHeight
	ShotRegion                   // Region, relative to the viewport's top left
	ShotElement                  // Element's border box
)

// ShotOptions say what to capture and how.
type ShotOptions struct {
	Mode    ShotMode
	Region  Rect     // for ShotRegion
	Element *Element // for ShotElement
	Format  page.CaptureScreenshotFormat
	// MaxSide scales the image down so neither side exceeds it (0: no cap).
	MaxSide int
}

// Shot is a captured image and what was done to fit it.
type Shot struct {
	Data          []byte
	Width, Height int     // pixels, read from the image itself
	Scaled        float64 // < 1 when the image was scaled down to MaxSide
	CutFrom       float64 // the page's full height when a full-page shot was cut (else 0)
}

// Capture takes a screenshot. Coordinates are resolved against the
// top-level page, so elements inside out-of-process iframes and shadow roots
// crop correctly.
func (t *Tab) Capture(ctx context.Context, o ShotOptions) (*Shot, error) {
	if o.Mode == ShotViewport && t.fitsAsIs(o.MaxSide) {
		// The common case needs no metrics: one capture of what is on screen.
		return t.captureAs(ctx, page.CaptureScreenshotParams{Format: o.Format}, &Shot{Scaled: 1})
	}
	// An element is scrolled into view first: the metrics must be read after.
	var box Rect
	if o.Mode == ShotElement {
		var err error
		if box, err = t.elementBox(ctx, o.Element); err != nil {
			return nil, err
		}
	}
	dpr, err := t.deviceScale(ctx)
	if err != nil {
		return nil, err
	}
	m, err := cdproto.Call(ctx, t.Session, page.GetLayoutMetrics, cdproto.Empty{})
	if err != nil {
		return nil, err
	}
	vv := m.CSSVisualViewport
	viewport := Rect{X: vv.PageX, Y: vv.PageY, W: vv.ClientWidth, H: vv.ClientHeight}
	shot := &Shot{Scaled: 1}
	var clip Rect
	beyond := false
	switch o.Mode {
	case ShotViewport:
		clip = viewport
	case ShotFullPage:
		size := m.CSSContentSize
		clip = Rect{W: max(size.Width, viewport.W), H: max(size.Height, 1)}
		if clip.H > MaxFullPageHeight {
			shot.CutFrom = clip.H
			clip.H = MaxFullPageHeight
		}
		beyond = clip.H > viewport.H || clip.W > viewport.W
	case ShotRegion:
		r := o.Region
		// A region is relative to the viewport and must overlap it.
		x0, y0 := max(r.X, 0), max(r.Y, 0)
		x1, y1 := min(r.X+r.W, viewport.W), min(r.Y+r.H, viewport.H)
		if x1 <= x0 || y1 <= y0 {
			return nil, fmt.Errorf("%w (%gx%g at %g,%g; the viewport is %gx%g)", ErrOutsideViewport, r.W, r.H, r.X, r.Y, viewport.W, viewport.H)
		}
		clip = Rect{X: viewport.X + x0, Y: viewport.Y + y0, W: x1 - x0, H: y1 - y0}
	case ShotElement:
		clip = Rect{X: viewport.X + box.X, Y: viewport.Y + box.Y, W: box.W, H: box.H}
		beyond = box.Y < 0 || box.X < 0 || box.Y+box.H > viewport.H || box.X+box.W > viewport.W
	}
	scale := 1.0
	if o.MaxSide > 0 {
		if w, h := clip.W*dpr, clip.H*dpr; w > float64(o.MaxSide) || h > float64(o.MaxSide) {
			scale = min(float64(o.MaxSide)/w, float64(o.MaxSide)/h)
			shot.Scaled = scale
		}
	}
	params := page.CaptureScreenshotParams{Format: o.Format}
	if o.Mode != ShotViewport || scale < 1 {
		params.Clip = &page.Viewport{X: clip.X, Y: clip.Y, Width: clip.W, Height: clip.H, Scale: scale}
	}
	if beyond {
		params.CaptureBeyondViewport = &beyond
	}
	return t.captureAs(ctx, params, shot)
}

// deviceScale is the tab's device scale factor: the emulated one when set
// (every tab of a launched browser), else the page's devicePixelRatio. The
// emulated value is preferred because a page can redefine devicePixelRatio,
// and the 2000 px cap must not depend on what a page says.
func (t *Tab) deviceScale(ctx context.Context) (float64, error) {
	if v, ok := t.ViewportOverride(); ok {
		return v.Scale, nil
	}
	obj, err := t.Evaluate(ctx, "devicePixelRatio")
	if err != nil {
		return 0, err
	}
	dpr := 1.0
	if !decodeInto(obj.Value, &dpr) || dpr <= 0 {
		dpr = 1
	}
	return dpr, nil
}

// fitsAsIs reports whether a viewport shot is known, without asking the
// page, to need no scaling: the tab's emulated viewport says its size.
func (t *Tab) fitsAsIs(maxSide int) bool {
	v, ok := t.ViewportOverride()
	if !ok {
		return false
	}
	return maxSide == 0 || float64(v.Width)*v.Scale <= float64(maxSide) && float64(v.Height)*v.Scale <= float64(maxSide)
}

// captureAs sends the capture with the encoder settings for its format and
// reads the image's size.
func (t *Tab) captureAs(ctx context.Context, params page.CaptureScreenshotParams, shot *Shot) (*Shot, error) {
	if params.Format == page.CaptureScreenshotFormatJpeg || params.Format == page.CaptureScreenshotFormatWebp {
		q := int64(80)
		params.Quality = &q
	} else {
		// Faster PNG compression: a raw capture is ~25% quicker (78 against
		// 108 ms for 1280x720, BenchmarkCapture) and the file ~40% larger.
		// An agent waits on the time; a vision model is charged by pixels,
		// not bytes.
		fast := true
		params.OptimizeForSpeed = &fast
	}
	res, err := cdproto.Call(ctx, t.Session, page.CaptureScreenshot, params)
	if err != nil {
		return nil, err
	}
	shot.Data = res.Data
	shot.Width, shot.Height = ImageSize(res.Data)
	return shot, nil
}

// elementBox is an element's border box in the top-level viewport, after
// scrolling it into view when it is off screen (as a user would look at it).
func (t *Tab) elementBox(ctx context.Context, el *Element) (Rect, error) {
	if _, err := el.Call(ctx, `function() {
		const r = this.getBoundingClientRect();
		if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) this.scrollIntoView({block: 'nearest', inline: 'nearest'});
	}`); err != nil {
		return Rect{}, err
	}
	id, err := el.Handle(ctx)
	if err != nil {
		return Rect{}, err
	}
	q, err := cdproto.Call(ctx, el.Session, dom.GetBoxModel, dom.GetBoxModelParams{ObjectID: id})
	var ce *cdp.Error
	switch {
	case errors.As(err, &ce) && strings.Contains(ce.Message, "box model"):
		return Rect{}, &ActionError{Reason: "hidden"} // Chromium: "Could not compute box model."
	case err != nil:
		return Rect{}, err
	case q.Model == nil || len(q.Model.Border) < 8:
		return Rect{}, &ActionError{Reason: "hidden"}
	}
	b := q.Model.Border
	minX, minY, maxX, maxY := b[0], b[1], b[0], b[1]
	for i := 2; i < 8; i += 2 {
		minX, maxX = min(minX, b[i]), max(maxX, b[i])
		minY, maxY = min(minY, b[i+1]), max(maxY, b[i+1])
	}
	if maxX-minX < 1 || maxY-minY < 1 {
		return Rect{}, &ActionError{Reason: "hidden"}
	}
	dx, dy, err := t.localRootOffset(ctx, el.FrameID)
	if err != nil {
		return Rect{}, err
	}
	return Rect{X: minX + dx, Y: minY + dy, W: maxX - minX, H: maxY - minY}, nil
}

// ImageSize reads the pixel size from a PNG, JPEG or WebP header; 0, 0 when
// the data is none of those.
func ImageSize(b []byte) (int, int) {
	be32 := func(p []byte) int { return int(p[0])<<24 | int(p[1])<<16 | int(p[2])<<8 | int(p[3]) }
	switch {
	case len(b) >= 24 && string(b[:8]) == "\x89PNG\r\n\x1a\n" && string(b[12:16]) == "IHDR":
		return be32(b[16:20]), be32(b[20:24])
	case len(b) >= 4 && b[0] == 0xFF && b[1] == 0xD8:
		return jpegSize(b)
	case len(b) >= 30 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return webpSize(b)
	}
	return 0, 0
}

// jpegSize walks the JPEG segments to the first start-of-frame marker.
func jpegSize(b []byte) (int, int) {
	for i := 2; i+9 < len(b); {
		if b[i] != 0xFF {
			return 0, 0
		}
		marker := b[i+1]
		if marker == 0xFF { // fill byte
			i++
			continue
		}
		if marker == 0xD8 || marker == 0x01 || marker >= 0xD0 && marker <= 0xD7 {
			i += 2 // markers without a length
			continue
		}
		length := int(b[i+2])<<8 | int(b[i+3])
		isSOF := marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
		if isSOF {
			return int(b[i+7])<<8 | int(b[i+8]), int(b[i+5])<<8 | int(b[i+6])
		}
		if length < 2 {
			return 0, 0
		}
		i += 2 + length
	}
	return 0, 0
}

// webpSize handles the three WebP flavours: lossy (VP8), lossless (VP8L) and
// extended (VP8X).
func webpSize(b []byte) (int, int) {
	le24 := func(p []byte) int { return int(p[0]) | int(p[1])<<8 | int(p[2])<<16 }
	switch string(b[12:16]) {
	case "VP8 ":
		return int(b[26]) | int(b[27]&0x3F)<<8, int(b[28]) | int(b[29]&0x3F)<<8
	case "VP8L":
		bits := uint32(b[21]) | uint32(b[22])<<8 | uint32(b[23])<<16 | uint32(b[24])<<24
		return int(bits&0x3FFF) + 1, int(bits>>14&0x3FFF) + 1
	case "VP8X":
		return le24(b[24:27]) + 1, le24(b[27:30]) + 1
	}
	return 0, 0
}

// PrintToPDF prints the page with Chromium's print settings.
func (t *Tab) PrintToPDF(ctx context.Context, p page.PrintToPDFParams) ([]byte, error) {
	res, err := cdproto.Call(ctx, t.Session, page.PrintToPDF, p)
	if err != nil {
		return nil, err
	}
	return res.Data, nil
}

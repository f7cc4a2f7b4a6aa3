package browser

import (
	"testing"

	"github.com/chromedp/cdproto/page"
)

// BenchmarkCapture separates Chromium's cost of a screenshot (one raw
// Page.captureScreenshot) from the whole Capture path (metrics, scale check,
// capture) on a page of 200 links and a form, and shows what PNG encoding costs.
func BenchmarkCapture(b *testing.B) {
	tab, ctx := benchLinksPage(b)
	fast := true
	for _, bc := range []struct {
		name   string
		params page.CaptureScreenshotParams
	}{
		{"raw-png", page.CaptureScreenshotParams{}},
		{"raw-png-fast", page.CaptureScreenshotParams{OptimizeForSpeed: &fast}},
		{"raw-jpeg", page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatJpeg}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := tab.Session.Call(ctx, "Page.captureScreenshot", &bc.params, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, mode := range []struct {
		name string
		mode ShotMode
	}{{"Capture-viewport", ShotViewport}, {"Capture-fullpage", ShotFullPage}} {
		b.Run(mode.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := tab.Capture(ctx, ShotOptions{Mode: mode.mode, Format: page.CaptureScreenshotFormatPng, MaxSide: MaxImageSide}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
)

// BenchmarkCapture separates Chromium's cost of a screenshot (one raw
// Page.captureScreenshot) from the whole Capture path (metrics, scale check,
// capture) on a page of 200 links, and shows what PNG encoding costs.
func BenchmarkCapture(b *testing.B) {
	br := startBrowser(b)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var sb strings.Builder
		sb.WriteString("<!doctype html><title>x</title><ul>")
		for i := range 200 {
			fmt.Fprintf(&sb, `<li><a href="/i/%d">Item number %d</a></li>`, i, i)
		}
		w.Write([]byte(sb.String()))
	}))
	defer srv.Close()
	tab, _ := br.Tab(0)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := tab.Navigate(ctx, srv.URL); err != nil {
		b.Fatal(err)
	}
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

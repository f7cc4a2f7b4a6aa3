package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// BenchmarkAXTree separates Chromium's cost of a snapshot (the raw
// getFullAXTree call) from ours (decoding, and fetching frames) on a page of
// 200 links and a form, and sets the walker engine beside it.
func BenchmarkAXTree(b *testing.B) {
	tab, ctx := benchLinksPage(b)
	b.Run("chromium-getFullAXTree", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			tab.Session.Call(ctx, "Accessibility.getFullAXTree", nil, nil)
		}
	})
	b.Run("AXTree-decoded", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := tab.AXTree(ctx, ""); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, interactive := range []bool{true, false} {
		b.Run(fmt.Sprintf("walker-interactive=%v", interactive), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, _, err := tab.Tree(ctx, "", TreeOptions{Interactive: interactive}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchLinksPage starts a browser on a served page of 200 links and a form,
// the benchmarks' common page, and returns its tab and a context for the run.
func benchLinksPage(b *testing.B) (*Tab, context.Context) {
	br := startBrowser(b)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var sb strings.Builder
		sb.WriteString("<!doctype html><title>x</title><ul>")
		for i := range 200 {
			fmt.Fprintf(&sb, `<li><a href="/i/%d">Item number %d</a></li>`, i, i)
		}
		sb.WriteString("</ul><form><input name=a><button>Go</button></form>")
		w.Write([]byte(sb.String()))
	}))
	b.Cleanup(srv.Close)
	tab, _ := br.Tab(0)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	b.Cleanup(cancel)
	if _, err := tab.Navigate(ctx, srv.URL); err != nil {
		b.Fatal(err)
	}
	return tab, ctx
}

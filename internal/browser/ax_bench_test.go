package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func BenchmarkAXTree(b *testing.B) {
	br, err := Start(context.Background(), Options{ProfileDir: b.TempDir()})
	if err != nil {
		b.Skip(err)
	}
	defer br.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var sb strings.Builder
		sb.WriteString("<!doctype html><title>x</title><ul>")
		for i := range 200 {
			fmt.Fprintf(&sb, `<li><a href="/i/%d">Item number %d</a></li>`, i, i)
		}
		sb.WriteString("</ul><form><input name=a><button>Go</button></form>")
		w.Write([]byte(sb.String()))
	}))
	defer srv.Close()
	tab, _ := br.Tab(0)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tab.Navigate(ctx, srv.URL)
	var raw json.RawMessage
	tab.Session.Call(ctx, "Accessibility.getFullAXTree", nil, &raw)
	fmt.Println("getFullAXTree answer bytes:", len(raw))
	b.Run("raw-getFullAXTree", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			tab.Session.Call(ctx, "Accessibility.getFullAXTree", nil, nil)
		}
	})
	b.Run("AXTree", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			tab.AXTree(ctx, "")
		}
	})
	var doc struct {
		Root struct {
			BackendNodeID int64 `json:"backendNodeId"`
		} `json:"root"`
	}
	tab.Session.Call(ctx, "DOM.getDocument", map[string]any{"depth": 0}, &doc)
	b.Run("queryAXTree-link", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var res struct{ Nodes []any }
			tab.Session.Call(ctx, "Accessibility.queryAXTree", map[string]any{"backendNodeId": doc.Root.BackendNodeID, "role": "link"}, &res)
			if i == 0 {
				b.Logf("%d link nodes", len(res.Nodes))
			}
		}
	})
	b.Run("queryAXTree-button", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			tab.Session.Call(ctx, "Accessibility.queryAXTree", map[string]any{"backendNodeId": doc.Root.BackendNodeID, "role": "button"}, nil)
		}
	})
	b.Run("getFullAXTree-depth2", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			tab.Session.Call(ctx, "Accessibility.getFullAXTree", map[string]any{"depth": 2}, nil)
		}
	})
	tab.Session.Call(ctx, "Accessibility.enable", nil, nil)
	b.Run("enabled-raw-getFullAXTree", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			tab.Session.Call(ctx, "Accessibility.getFullAXTree", nil, nil)
		}
	})
	b.Run("enabled-AXTree", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			tab.AXTree(ctx, "")
		}
	})
}

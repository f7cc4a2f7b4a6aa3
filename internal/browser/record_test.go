package browser

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var record = flag.Bool("record", false, "record accessibility trees of testdata pages into internal/snapshot/testdata")

// TestRecordAXTrees records real Chromium accessibility trees for the
// snapshot package's golden tests. Run: go test ./internal/browser -run RecordAX -record
func TestRecordAXTrees(t *testing.T) {
	if !*record {
		t.Skip("run with -record to refresh the recorded trees")
	}
	b := startBrowser(t)
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("../../testdata")))
	mux.HandleFunc("/frames.html", func(w http.ResponseWriter, r *http.Request) {
		port := r.Host[strings.LastIndexByte(r.Host, ':')+1:]
		fmt.Fprintf(w, `<!doctype html><title>Frames</title><h1>Frames page</h1>
<iframe name="same" src="/child.html"></iframe><iframe name="cross" src="http://localhost:%s/child.html"></iframe>`, port)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	tab, _ := b.Tab(0)
	for _, page := range []string{"home", "form", "interact", "shadow", "frames"} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if _, err := tab.Navigate(ctx, srv.URL+"/"+page+".html"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond) // let iframes load
		tree, err := tab.AXTree(ctx, "")
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.MarshalIndent(tree, "", " ")
		// Frame ids differ per run; names keep the goldens stable.
		if err := os.WriteFile(filepath.Join("../snapshot/testdata", page+".json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

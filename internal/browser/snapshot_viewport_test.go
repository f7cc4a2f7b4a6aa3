package browser

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/browsehq/browse/internal/snapshot"
)

// A page scrolled by 1000 px holding an iframe at (100, 1200) of its
// document, whose own document is scrolled by 50 px: boxes come out in the
// top viewport's coordinates, each document under its frame's id.
func TestLayoutBoxesOffsets(t *testing.T) {
	var snap layoutSnapshot
	snap.Strings = []string{"MAIN", "CHILD"}
	snap.Documents = make([]layoutDocument, 2)
	main, child := &snap.Documents[0], &snap.Documents[1]
	main.FrameID, main.ScrollY = 0, 1000
	main.Nodes.BackendNodeID = []int64{1, 2, 3}
	main.Nodes.ContentDocumentIndex.Index = []int{2}
	main.Nodes.ContentDocumentIndex.Value = []int{1}
	main.Layout.NodeIndex = []int{1, 1, 2}
	// Node 1 has two layout objects (an inline element over two lines).
	main.Layout.Bounds = [][]float64{{10, 1010, 50, 20}, {0, 1030, 30, 20}, {100, 1200, 400, 300}}
	child.FrameID, child.ScrollY = 1, 50
	child.Nodes.BackendNodeID = []int64{1, 7}
	child.Layout.NodeIndex = []int{1}
	child.Layout.Bounds = [][]float64{{8, 58, 80, 20}}

	got := snap.boxes(5, 0)
	want := map[string]map[int64]snapshot.Box{
		"MAIN":  {2: {X: 5, Y: 10, W: 60, H: 40}, 3: {X: 105, Y: 200, W: 400, H: 300}},
		"CHILD": {7: {X: 113, Y: 208, W: 80, H: 20}},
	}
	for frame, boxes := range want {
		for id, b := range boxes {
			if got[frame][id] != b {
				t.Errorf("%s/%d: %+v, want %+v", frame, id, got[frame][id], b)
			}
		}
		if len(got[frame]) != len(boxes) {
			t.Errorf("%s: %d boxes, want %d", frame, len(got[frame]), len(boxes))
		}
	}
}

// BenchmarkSnapshotViewport weighs what --viewport adds to a snapshot on the
// long-article fixture (17k accessibility nodes).
func BenchmarkSnapshotViewport(b *testing.B) {
	br := startBrowser(b)
	srv := httptest.NewServer(http.FileServer(http.Dir("../../testdata")))
	b.Cleanup(srv.Close)
	tab, _ := br.Tab(0)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	b.Cleanup(cancel)
	if _, err := tab.Navigate(ctx, srv.URL+"/long-article.html"); err != nil {
		b.Fatal(err)
	}
	b.Run("AXTree", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := tab.AXTree(ctx, ""); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AXTreeNearViewport", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, _, err := tab.AXTreeNearViewport(ctx, ""); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("layoutBoxes", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, _, err := tab.layoutBoxes(ctx, tab.MainFrameID()); err != nil {
				b.Fatal(err)
			}
		}
	})
}

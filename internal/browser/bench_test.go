package browser

import (
	"context"
	"testing"
	"time"
)

// BenchmarkEvaluate is one CDP round trip through our transport and router:
// the floor under every page-reading command.
func BenchmarkEvaluate(b *testing.B) {
	br := startBrowser(b)
	tab, _ := br.Tab(0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tab.Evaluate(ctx, "1+1"); err != nil {
			b.Fatal(err)
		}
	}
}

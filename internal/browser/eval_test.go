package browser

import (
	"context"
	"testing"
	"time"
)

// Arguments reach the page as given: the empty string included (cdproto's
// own params type drops it, and the page saw undefined).
func TestCallOnPassesArguments(t *testing.T) {
	br := startBrowser(t)
	tab, _ := br.Tab(0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := tab.Navigate(ctx, "about:blank"); err != nil {
		t.Fatal(err)
	}
	el, _, err := tab.QueryCSS(ctx, "", "html")
	if err != nil {
		t.Fatal(err)
	}
	obj, err := el.Call(ctx, `function(...a) { return a.map(v => typeof v + ':' + JSON.stringify(v)).join(' ') }`, "", 0, false, "x", []int{1})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := String(obj), `string:"" number:0 boolean:false string:"x" object:[1]`; got != want {
		t.Fatalf("arguments arrived as %q, want %q", got, want)
	}
}

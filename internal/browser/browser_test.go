package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// startBrowser launches a real Chromium for one test or benchmark.
func startBrowser(t testing.TB) *Browser {
	t.Helper()
	if _, err := FindChromium(); err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b, err := Start(ctx, Options{ProfileDir: t.TempDir(), Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

func fixtureServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Home</title><h1>Hello</h1><script>console.log("hi", 42); console.error("bad")</script>`)
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "nope", http.StatusNotFound)
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestNavigateStatusAndCapture(t *testing.T) {
	b := startBrowser(t)
	srv := fixtureServer(t)
	tab, err := b.Tab(0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	status, err := tab.Navigate(ctx, srv.URL+"/")
	if err != nil || status != 200 {
		t.Fatalf("Navigate = %d, %v", status, err)
	}
	if status, _ := tab.Navigate(ctx, srv.URL+"/missing"); status != 404 {
		t.Fatalf("status for /missing = %d, want 404", status)
	}
	if _, err := tab.History(ctx, -1); err != nil {
		t.Fatalf("back: %v", err)
	}
	obj, err := tab.Evaluate(ctx, "document.title")
	if err != nil || String(obj) != "Home" {
		t.Fatalf("title after back = %q, %v", String(obj), err)
	}
	var logs []string
	for _, e := range b.Console.Items() {
		logs = append(logs, e.Level+":"+e.Text)
	}
	if joined := strings.Join(logs, ","); !strings.Contains(joined, "log:hi 42") || !strings.Contains(joined, "error:bad") {
		t.Fatalf("console = %v", logs)
	}
	if b.Network.Len() < 2 {
		t.Fatalf("network entries = %d", b.Network.Len())
	}

	_, err = tab.Navigate(ctx, closedPortURL(t))
	var ne *NavError
	if !errors.As(err, &ne) || !strings.Contains(ne.Code, "CONNECTION_REFUSED") {
		t.Fatalf("unreachable host: %v", err)
	}

	short, cancel2 := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel2()
	if _, err := tab.Navigate(short, srv.URL+"/hang"); !errors.Is(err, ErrNavTimeout) {
		t.Fatalf("hanging page: %v", err)
	}
	if obj, err := tab.Evaluate(ctx, "1+1"); err != nil || String(obj) != "2" {
		t.Fatalf("tab unusable after a timed-out load: %v", err)
	}
}

func TestTabsOpenAndClose(t *testing.T) {
	b := startBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	first := b.ActiveID()
	tab, err := b.NewTab(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if b.ActiveID() != tab.ID || len(b.Tabs()) != 2 {
		t.Fatalf("active=%d tabs=%d", b.ActiveID(), len(b.Tabs()))
	}
	if _, err := b.CloseTab(ctx, tab.ID); err != nil {
		t.Fatal(err)
	}
	if b.ActiveID() != first || len(b.Tabs()) != 1 {
		t.Fatalf("after close: active=%d tabs=%d", b.ActiveID(), len(b.Tabs()))
	}
}

// closedPortURL is an http URL on a loopback port nothing listens on.
func closedPortURL(t *testing.T) string {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	return url + "/"
}

package activity

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const waitLimit = 5 * time.Second

// event is one server-sent event, or a comment line such as the heartbeat.
type event struct {
	name, data, comment string
}

// sseServer serves f over a real socket and counts stream cleanups.
type sseServer struct {
	*httptest.Server
	feed     *Feed
	cleanups atomic.Int64
	returned chan struct{} // receives once each time ServeSSE returns
}

// newSSEServer starts a server; wrap, if not nil, replaces the
// ResponseWriter ServeSSE gets (to make writes fail).
func newSSEServer(t *testing.T, f *Feed, heartbeat time.Duration, wrap func(http.ResponseWriter) http.ResponseWriter) *sseServer {
	t.Helper()
	s := &sseServer{feed: f, returned: make(chan struct{}, 100)}
	f.onClose = func() { s.cleanups.Add(1) }
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if wrap != nil {
			w = wrap(w)
		}
		f.ServeSSE(w, r, heartbeat)
		s.returned <- struct{}{}
	}))
	t.Cleanup(s.Close)
	return s
}

// connect opens a stream; cancel aborts it from the client side.
func (s *sseServer) connect(t *testing.T, query string) (events <-chan event, resp *http.Response, cancel func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+"/activity/stream"+query, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	out := make(chan event, 100)
	go readEvents(resp, out)
	return out, resp, cancel
}

// readEvents parses the stream into events until it ends.
func readEvents(resp *http.Response, out chan<- event) {
	defer close(out)
	sc := bufio.NewScanner(resp.Body)
	var ev event
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			out <- ev
			ev = event{}
		case strings.HasPrefix(line, ": "):
			ev.comment = strings.TrimPrefix(line, ": ")
		case strings.HasPrefix(line, "event: "):
			ev.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			ev.data = strings.TrimPrefix(line, "data: ")
		}
	}
}

func next(t *testing.T, events <-chan event) event {
	t.Helper()
	select {
	case ev, ok := <-events:
		if !ok {
			t.Fatal("stream ended")
		}
		return ev
	case <-time.After(waitLimit):
		t.Fatal("no event within the time limit")
	}
	return event{}
}

// nextActivity reads the next event and checks it is the entry with id.
func nextActivity(t *testing.T, events <-chan event, id int64) Entry {
	t.Helper()
	ev := next(t, events)
	var e Entry
	if ev.name != "activity" || json.Unmarshal([]byte(ev.data), &e) != nil || e.ID != id {
		t.Fatalf("got %+v, want activity %d", ev, id)
	}
	return e
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// assertCleanedUpOnce checks the stream ended with exactly one cleanup,
// and that no second one turns up a little later.
func (s *sseServer) assertCleanedUpOnce(t *testing.T) {
	t.Helper()
	select {
	case <-s.returned:
	case <-time.After(waitLimit):
		t.Fatal("ServeSSE did not return")
	}
	waitFor(t, "cleanup", func() bool { return s.cleanups.Load() >= 1 })
	time.Sleep(50 * time.Millisecond)
	if n := s.cleanups.Load(); n != 1 {
		t.Fatalf("cleaned up %d times, want 1", n)
	}
	if n := s.feed.Subscribers(); n != 0 {
		t.Fatalf("%d subscribers left", n)
	}
}

func TestLiveDelivery(t *testing.T) {
	f := NewFeed(100)
	f.Emit(Entry{Type: "command_start", Command: "before"}) // not replayed without ?after
	s := newSSEServer(t, f, time.Hour, nil)
	events, resp, _ := s.connect(t, "")

	for header, want := range map[string]string{
		"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no",
	} {
		if got := resp.Header.Get(header); got != want {
			t.Errorf("%s = %q, want %q", header, got, want)
		}
	}
	waitFor(t, "subscriber", func() bool { return f.Subscribers() == 1 })
	f.Emit(Entry{Type: "command_end", Command: "goto", Args: []string{"https://example.com"}, TabID: 2, Duration: 31, Status: "ok"})
	got := nextActivity(t, events, 2)
	if got.Command != "goto" || got.TabID != 2 || got.Duration != 31 || got.Status != "ok" || len(got.Args) != 1 {
		t.Fatalf("entry arrived changed: %+v", got)
	}
}

func TestReplayAfter(t *testing.T) {
	f := NewFeed(100)
	emitN(f, 5)
	s := newSSEServer(t, f, time.Hour, nil)
	events, _, _ := s.connect(t, "?after=2")
	for id := int64(3); id <= 5; id++ {
		nextActivity(t, events, id)
	}
	f.Emit(Entry{Type: "command_start"})
	nextActivity(t, events, 6) // live follows replay with nothing doubled or lost
}

func TestGapEventAfterEviction(t *testing.T) {
	f := NewFeed(3)
	emitN(f, 10) // holds 8..10
	s := newSSEServer(t, f, time.Hour, nil)
	events, _, _ := s.connect(t, "?after=2")

	ev := next(t, events)
	if ev.name != "gap" || ev.data != `{"gapFrom":3,"availableFrom":8}` {
		t.Fatalf("got %+v, want a gap from 3 to 8", ev)
	}
	for id := int64(8); id <= 10; id++ {
		nextActivity(t, events, id)
	}
}

func TestHeartbeat(t *testing.T) {
	s := newSSEServer(t, NewFeed(10), 20*time.Millisecond, nil)
	events, _, _ := s.connect(t, "")
	if ev := next(t, events); ev.comment != "heartbeat" {
		t.Fatalf("got %+v, want a heartbeat", ev)
	}
}

func TestCleanupOnClientAbort(t *testing.T) {
	f := NewFeed(10)
	s := newSSEServer(t, f, time.Hour, nil)
	_, _, cancel := s.connect(t, "")
	waitFor(t, "subscriber", func() bool { return f.Subscribers() == 1 })
	cancel()
	s.assertCleanedUpOnce(t)
}

// failingWriter passes writes through until budget bytes have been
// written, then fails every write.
type failingWriter struct {
	http.ResponseWriter
	budget int
}

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.budget {
		return 0, errors.New("write refused by test")
	}
	w.budget -= len(p)
	return w.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the real writer to flush.
func (w *failingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func failAfter(budget int) func(http.ResponseWriter) http.ResponseWriter {
	return func(w http.ResponseWriter) http.ResponseWriter {
		return &failingWriter{ResponseWriter: w, budget: budget}
	}
}

func TestCleanupOnFailedLiveWrite(t *testing.T) {
	f := NewFeed(10)
	s := newSSEServer(t, f, time.Hour, failAfter(0))
	s.connect(t, "")
	waitFor(t, "subscriber", func() bool { return f.Subscribers() == 1 })
	f.Emit(Entry{Type: "command_start"})
	s.assertCleanedUpOnce(t)
}

func TestCleanupOnFailedReplayWrite(t *testing.T) {
	f := NewFeed(10)
	emitN(f, 5)
	// Each replayed event is about 100 bytes: room for one, not two.
	s := newSSEServer(t, f, time.Hour, failAfter(150))
	events, _, _ := s.connect(t, "?after=0")
	nextActivity(t, events, 1)
	s.assertCleanedUpOnce(t)
}

func TestCleanupOnFailedHeartbeat(t *testing.T) {
	f := NewFeed(10)
	s := newSSEServer(t, f, 20*time.Millisecond, failAfter(0))
	s.connect(t, "") // nothing is emitted: the heartbeat is the only write
	s.assertCleanedUpOnce(t)
}

// A real client that stops reading must not hold up Emit either.
func TestEmitNeverBlocksOnStalledClient(t *testing.T) {
	f := NewFeed(1000)
	s := newSSEServer(t, f, time.Hour, nil)
	_, _, cancel := s.connect(t, "") // its events are never consumed past the channel buffer
	waitFor(t, "subscriber", func() bool { return f.Subscribers() == 1 })

	done := make(chan struct{})
	go func() {
		for i := 0; i < 10_000; i++ {
			f.Emit(Entry{Type: "command_start", Command: strings.Repeat("x", 500)})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(waitLimit):
		t.Fatal("Emit blocked on a stalled client")
	}
	cancel()
	s.assertCleanedUpOnce(t)
}

func TestConcurrentStreams(t *testing.T) {
	f := NewFeed(50)
	s := newSSEServer(t, f, 10*time.Millisecond, nil)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				f.Emit(Entry{Type: "command_start"})
				time.Sleep(100 * time.Microsecond)
			}
		}
	}()
	const clients = 8
	var readers sync.WaitGroup
	for c := 0; c < clients; c++ {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for round := 0; round < 3; round++ {
				ctx, cancel := context.WithCancel(context.Background())
				req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+"?after=1", nil)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					cancel()
					return
				}
				bufio.NewScanner(resp.Body).Scan() // read a little, then hang up
				cancel()
				resp.Body.Close()
			}
		}()
	}
	readers.Wait()
	close(stop)
	wg.Wait()
	waitFor(t, "every stream to end", func() bool { return f.Subscribers() == 0 })
	waitFor(t, "every cleanup", func() bool { return s.cleanups.Load() == clients*3 })
}

package cdp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"
)

// loopTransport is an in-memory peer for testing the router itself: it
// answers each call from a script. Browser behaviour is tested elsewhere,
// against real Chromium.
type loopTransport struct {
	in  chan []byte
	out chan []byte
}

func newLoop() *loopTransport {
	return &loopTransport{in: make(chan []byte, 16), out: make(chan []byte, 16)}
}

func (l *loopTransport) Send(m []byte) error { l.out <- m; return nil }
func (l *loopTransport) Recv() ([]byte, error) {
	m, ok := <-l.in
	if !ok {
		return nil, io.EOF
	}
	return m, nil
}
func (l *loopTransport) Close() error { return nil }

func TestRouting(t *testing.T) {
	lt := newLoop()
	var events []Event
	c := NewConn(lt, func(e Event) { events = append(events, e) })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()

	sub, stop := c.Session("S1").Subscribe("Page.loadEventFired")
	defer stop()
	go func() {
		var req struct {
			ID        int64  `json:"id"`
			SessionID string `json:"sessionId"`
			Method    string `json:"method"`
		}
		json.Unmarshal(<-lt.out, &req)
		// An event on another session must not reach S1's subscriber.
		lt.in <- []byte(`{"method":"Page.loadEventFired","sessionId":"S2","params":{"n":2}}`)
		lt.in <- []byte(`{"method":"Page.loadEventFired","sessionId":"S1","params":{"n":1}}`)
		if req.SessionID == "S1" && req.Method == "Runtime.evaluate" {
			lt.in <- []byte(`{"id":` + itoa(req.ID) + `,"sessionId":"S1","result":{"value":42}}`)
		}
		json.Unmarshal(<-lt.out, &req)
		lt.in <- []byte(`{"id":` + itoa(req.ID) + `,"error":{"code":-32000,"message":"No node"}}`)
		close(lt.in)
	}()

	var res struct {
		Value int `json:"value"`
	}
	if err := c.Session("S1").Call(ctx, "Runtime.evaluate", map[string]string{"expression": "x"}, &res); err != nil || res.Value != 42 {
		t.Fatalf("Call = %v, %v", res, err)
	}
	if got := string(<-sub); got != `{"n":1}` {
		t.Fatalf("subscriber got %s", got)
	}
	err := c.Session("").Call(ctx, "DOM.describeNode", nil, nil)
	var ce *Error
	if !errors.As(err, &ce) || ce.Message != "No node" {
		t.Fatalf("browser error = %v", err)
	}
	<-c.Done()
	if err := c.Session("").Call(ctx, "X.y", nil, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("call after close = %v", err)
	}
	if len(events) != 2 {
		t.Fatalf("event hook saw %d events", len(events))
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

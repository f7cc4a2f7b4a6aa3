package activity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"
)

const (
	defaultHeartbeat = 15 * time.Second
	// writeTimeout bounds each write, so a client that stops reading
	// without closing the connection cannot pin the handler forever.
	writeTimeout = 10 * time.Second
)

// ServeSSE streams the feed as server-sent events until the client goes
// away or a write fails. With ?after=N it first replays the entries after
// N, preceded by an "event: gap" when some of them were already evicted.
// Live entries follow as "event: activity", and a ": heartbeat" comment is
// sent every heartbeat. The caller checks authorization.
func (f *Feed) ServeSSE(w http.ResponseWriter, r *http.Request, heartbeat time.Duration) {
	if heartbeat <= 0 {
		heartbeat = defaultHeartbeat
	}
	after, err := strconv.ParseInt(r.URL.Query().Get("after"), 10, 64)
	sub, backlog := f.subscribe(after, err == nil)

	// Cleanup runs when the handler returns and also, from another
	// goroutine, as soon as the client goes away (the handler may then be
	// blocked in a write). The Once makes sure it happens exactly once.
	var once sync.Once
	cleanup := func() {
		once.Do(func() {
			f.unsubscribe(sub)
			if f.onClose != nil {
				f.onClose()
			}
		})
	}
	defer cleanup()
	stopWatching := context.AfterFunc(r.Context(), cleanup)
	defer stopWatching()

	s := newStream(w)
	defer s.clearDeadline()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // stop proxies from buffering the stream
	w.WriteHeader(http.StatusOK)
	if s.flush() != nil {
		return
	}

	if backlog.gap && s.gap(backlog.gapFrom, backlog.availableFrom) != nil {
		return
	}
	for _, e := range backlog.entries {
		if s.activity(e) != nil {
			return
		}
	}

	lastSent := sub.startAfter
	ticker := time.NewTicker(heartbeat)
	defer ticker.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-ticker.C:
			if s.write(": heartbeat\n\n") != nil {
				return
			}
		case e := <-sub.entries:
			// A jump in IDs means our buffer was full and Emit skipped us.
			if e.ID > lastSent+1 && s.gap(lastSent+1, e.ID) != nil {
				return
			}
			if s.activity(e) != nil {
				return
			}
			lastSent = e.ID
		}
	}
}

// stream writes server-sent events, flushing after each one.
type stream struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func newStream(w http.ResponseWriter) *stream {
	return &stream{w: w, rc: http.NewResponseController(w)}
}

func (s *stream) activity(e Entry) error {
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return s.write("event: activity\ndata: " + string(data) + "\n\n")
}

func (s *stream) gap(gapFrom, availableFrom int64) error {
	return s.write(fmt.Sprintf("event: gap\ndata: {\"gapFrom\":%d,\"availableFrom\":%d}\n\n", gapFrom, availableFrom))
}

func (s *stream) write(event string) error {
	s.rc.SetWriteDeadline(time.Now().Add(writeTimeout)) // unsupported by some writers: fine
	if _, err := s.w.Write([]byte(event)); err != nil {
		return err
	}
	return s.flush()
}

func (s *stream) flush() error {
	err := s.rc.Flush()
	if errors.Is(err, http.ErrNotSupported) {
		return nil // nothing to flush through, the write itself succeeded
	}
	return err
}

// clearDeadline keeps our write deadline from outliving the stream on a
// kept-alive connection.
func (s *stream) clearDeadline() {
	s.rc.SetWriteDeadline(time.Time{})
}

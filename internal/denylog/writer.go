package denylog

import (
	"encoding/json"
	"log"
	"path/filepath"
	"strings"
	"time"
)

const (
	linesPerMinute = 60
	maxPathLen     = 512 // a probe can send an arbitrarily long path
	maxFieldLen    = 128
)

// line is the JSON written for one entry. Field order is the file's order.
type line struct {
	TS      string `json:"ts"`
	Kind    string `json:"kind"`
	Reason  string `json:"reason"`
	Path    string `json:"path"`
	Method  string `json:"method"`
	Source  string `json:"source"`
	Domain  string `json:"domain,omitempty"`
	Dropped int64  `json:"dropped,omitempty"`
}

// writer holds everything the writer goroutine owns; nothing else touches it
// once the goroutine has started.
type writer struct {
	file    logFile
	salt    string
	limit   minuteLimit
	skipped int64 // entries not written since the last line
	broken  bool  // a problem was reported; drop everything from now on
}

func newWriter(dir string) *writer {
	return &writer{file: logFile{path: filepath.Join(dir, "attempts.jsonl")}}
}

// write appends one line for item unless the per-minute cap is reached.
func (w *writer) write(item queued, maxBytes int64) {
	if w.broken || !w.limit.allow(item.at) {
		w.skipped++
		return
	}
	data, err := json.Marshal(w.lineFor(item))
	if err != nil { // cannot happen with string fields; be safe anyway
		w.skipped++
		return
	}
	if err := w.file.append(append(data, '\n'), maxBytes); err != nil {
		w.fail(err)
		w.skipped++
		return
	}
	w.skipped = 0
}

func (w *writer) lineFor(item queued) line {
	e := item.entry
	return line{
		TS:      item.at.UTC().Format("2006-01-02T15:04:05.000Z07:00"),
		Kind:    clip(e.Kind, maxFieldLen),
		Reason:  clip(e.Reason, maxFieldLen),
		Path:    clip(stripQuery(e.Path), maxPathLen),
		Method:  clip(e.Method, maxFieldLen),
		Source:  hashValue(w.salt, e.Source),
		Domain:  hashValue(w.salt, strings.ToLower(e.Domain)),
		Dropped: w.skipped,
	}
}

// fail reports the first problem and turns the writer into a sink, so a
// broken disk produces one warning instead of one per probe.
func (w *writer) fail(err error) {
	if !w.broken {
		log.Printf("denylog: %v; security denials will not be recorded", err)
	}
	w.broken = true
	w.file.close()
}

func (w *writer) close() { w.file.close() }

// minuteLimit allows at most linesPerMinute lines in any 60-second window.
type minuteLimit struct {
	recent []time.Time // times of the lines allowed in the last minute, oldest first
}

func (m *minuteLimit) allow(now time.Time) bool {
	cutoff := now.Add(-time.Minute)
	expired := 0
	for expired < len(m.recent) && !m.recent[expired].After(cutoff) {
		expired++
	}
	m.recent = m.recent[:copy(m.recent, m.recent[expired:])]
	if len(m.recent) >= linesPerMinute {
		return false
	}
	m.recent = append(m.recent, now)
	return true
}

// stripQuery drops the query string and fragment: they may carry tokens.
func stripQuery(path string) string {
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		return path[:i]
	}
	return path
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// Package denylog records refused tunnel requests in
// ~/.gstack/security/attempts.jsonl so the user can see who probes the daemon.
//
// Recording is fire-and-forget: Record hands the entry to a single writer
// goroutine and returns at once, so a flood of bad requests can neither slow
// the request path nor fill the disk (lines are capped per minute and the file
// is rotated). Remote addresses and domains are only ever written as salted
// hashes.
package denylog

import (
	"log"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// Entry is one refused request.
type Entry struct {
	Kind   string // "tunnel_auth_denial", "canary_leak", …
	Reason string // "path_not_on_tunnel", "root_token_on_tunnel", "missing_scoped_token", …
	Path   string // request path; any query string is stripped before writing
	Method string
	Source string // remote address or first X-Forwarded-For hop: written only hashed
	Domain string // host the request concerned, if any: written only hashed
}

const (
	queueSize       = 256
	defaultMaxBytes = 10 << 20
	closeTimeout    = 2 * time.Second
)

// Log appends entries to attempts.jsonl in its directory. It is safe for
// concurrent use.
type Log struct {
	// Now stamps entries (tests move time with it). Change it, and MaxBytes,
	// only before the first Record.
	Now func() time.Time
	// MaxBytes is the size attempts.jsonl may reach before it is rotated.
	MaxBytes int64

	queue       chan queued
	queueDrops  atomic.Int64 // entries refused because the queue was full
	abort       atomic.Bool  // set when Close gave up waiting: skip writing
	writerDone  chan struct{}
	mu          sync.Mutex
	idle        *sync.Cond // broadcast each time the writer finishes an entry
	closed      bool
	queuedCount uint64 // entries accepted by Record
	doneCount   uint64 // entries the writer has written or discarded
}

// queued is an entry plus the time it was recorded: the timestamp is taken on
// the caller's goroutine so that queueing delay does not skew it.
type queued struct {
	entry Entry
	at    time.Time
}

// DefaultDir is $HOME/.gstack/security, or the same under the temporary
// directory when there is no home directory.
func DefaultDir() string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		home = os.TempDir()
	}
	return filepath.Join(home, ".gstack", "security")
}

// Open prepares a log in dir. It never fails: if dir cannot be created the
// problem is logged once and every entry is dropped.
func Open(dir string) *Log {
	l := &Log{
		Now:        time.Now,
		MaxBytes:   defaultMaxBytes,
		queue:      make(chan queued, queueSize),
		writerDone: make(chan struct{}),
	}
	l.idle = sync.NewCond(&l.mu)

	go l.run(newWriter(dir), dir)
	return l
}

// prepare makes the directory and reads (or makes) the salt. It runs on the
// writer goroutine before the first entry, so a daemon that never refuses
// anything never touches the user's home directory.
func prepare(w *writer, dir string) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		w.fail(err)
		return
	}
	salt, err := loadSalt(dir)
	if err != nil {
		log.Printf("denylog: %v; using a salt that lasts until restart", err)
	}
	w.salt = salt
}

// Record queues e for writing. It never blocks and never touches the disk;
// when the queue is full the entry is only counted as dropped. After Close
// it does nothing.
func (l *Log) Record(e Entry) {
	at := l.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	select {
	case l.queue <- queued{entry: e, at: at}:
		l.queuedCount++
	default:
		l.queueDrops.Add(1)
	}
}

// Flush waits until every entry recorded so far has been written or dropped.
func (l *Log) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	target := l.queuedCount
	for l.doneCount < target {
		l.idle.Wait()
	}
}

// Close writes what is still queued, waiting at most about two seconds, and
// stops the writer. Later calls to Record are ignored.
func (l *Log) Close() {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	l.closed = true
	close(l.queue) // safe: Record checks closed under the same lock
	l.mu.Unlock()

	timer := time.NewTimer(closeTimeout)
	defer timer.Stop()
	select {
	case <-l.writerDone:
	case <-timer.C:
		l.abort.Store(true) // the writer drains the rest without writing
	}
}

// run is the writer goroutine: the only place that touches the log file.
func (l *Log) run(w *writer, dir string) {
	defer close(l.writerDone)
	defer w.close()
	prepared := false
	for item := range l.queue {
		if !prepared {
			prepare(w, dir)
			prepared = true
		}
		w.skipped += l.queueDrops.Swap(0)
		if !l.abort.Load() {
			w.write(item, l.MaxBytes)
		}
		l.mu.Lock()
		l.doneCount++
		l.idle.Broadcast()
		l.mu.Unlock()
	}
}

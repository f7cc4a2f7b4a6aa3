// Package activity is the feed of commands the daemon runs. The side panel
// reads it live over server-sent events (ServeSSE) and catches up with
// History or by reconnecting with ?after=<last id seen>.
package activity

import (
	"sync"
	"sync/atomic"
	"time"
)

// Entry is one event in the feed. Args must already be redacted.
type Entry struct {
	ID        int64    `json:"id"`
	Timestamp int64    `json:"timestamp"` // unix ms
	Type      string   `json:"type"`      // "command_start", "command_end"
	Command   string   `json:"command,omitempty"`
	Args      []string `json:"args,omitempty"`
	URL       string   `json:"url,omitempty"`
	TabID     int      `json:"tabId,omitempty"`
	Duration  int64    `json:"duration,omitempty"` // ms
	Status    string   `json:"status,omitempty"`   // "ok" | "error"
	Error     string   `json:"error,omitempty"`
	ClientID  string   `json:"clientId,omitempty"`
}

const (
	subscriberBuffer    = 256
	defaultHistoryLimit = 50
	maxHistoryLimit     = 1000
)

// Feed keeps the most recent entries in a ring and fans new ones out to
// subscribers. It is safe for concurrent use.
type Feed struct {
	mu      sync.Mutex
	ring    []Entry // entry with ID n lives at ring[(n-1) % len(ring)]
	lastID  int64   // IDs are 1, 2, 3…, so this is also the number ever added
	subs    map[*subscriber]struct{}
	onClose func() // test hook: runs once each time a ServeSSE stream cleans up
}

// subscriber is one live reader. Emit never waits for it: when its buffer is
// full the entry is skipped and counted, and the reader sees a jump in IDs.
type subscriber struct {
	entries chan Entry
	missed  atomic.Int64
	// startAfter is the newest ID when the reader subscribed: anything up
	// to it comes from the replay, anything after it arrives on entries.
	startAfter int64
}

// replay is what a reconnecting reader is sent before live entries.
type replay struct {
	entries       []Entry
	gap           bool // some entries after the reader's last ID were evicted
	gapFrom       int64
	availableFrom int64
}

// NewFeed returns a feed remembering the last capacity entries.
func NewFeed(capacity int) *Feed {
	return &Feed{
		ring: make([]Entry, max(capacity, 1)),
		subs: make(map[*subscriber]struct{}),
	}
}

// Emit assigns e the next ID and the current time, stores it and offers it
// to every subscriber without blocking. It returns the stored entry.
func (f *Feed) Emit(e Entry) Entry {
	e.Args = append([]string(nil), e.Args...) // the caller may reuse its slice
	e.Timestamp = time.Now().UnixMilli()

	f.mu.Lock()
	defer f.mu.Unlock()
	f.lastID++
	e.ID = f.lastID
	f.ring[f.slot(e.ID)] = e
	for sub := range f.subs {
		select {
		case sub.entries <- e:
		default:
			sub.missed.Add(1)
		}
	}
	return e
}

// History returns the newest limit entries, oldest first, and how many
// entries were ever added. limit <= 0 means 50; it is capped at 1000.
func (f *Feed) History(limit int) (entries []Entry, totalAdded int64) {
	if limit <= 0 {
		limit = defaultHistoryLimit
	}
	limit = min(limit, maxHistoryLimit)

	f.mu.Lock()
	defer f.mu.Unlock()
	from := max(f.oldestID(), f.lastID-int64(limit)+1)
	return f.copyFrom(from), f.lastID
}

// After returns the entries with an ID above id, for a client reconnecting.
// gap is true when some of those were already evicted: the replay then
// starts at availableFrom instead of gapFrom (id+1).
func (f *Feed) After(id int64) (entries []Entry, gap bool, gapFrom, availableFrom int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.after(id)
}

// Subscribers is the number of live readers.
func (f *Feed) Subscribers() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.subs)
}

// subscribe registers a reader and, under the same lock, collects what it
// must replay first, so no entry is both replayed and delivered live, or
// neither. With wantReplay false the reader only gets new entries.
func (f *Feed) subscribe(after int64, wantReplay bool) (*subscriber, replay) {
	f.mu.Lock()
	defer f.mu.Unlock()
	sub := &subscriber{entries: make(chan Entry, subscriberBuffer), startAfter: f.lastID}
	f.subs[sub] = struct{}{}
	var r replay
	if wantReplay {
		r.entries, r.gap, r.gapFrom, r.availableFrom = f.after(after)
	}
	return sub, r
}

func (f *Feed) unsubscribe(sub *subscriber) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.subs, sub)
}

// The helpers below expect f.mu to be held.

func (f *Feed) after(id int64) (entries []Entry, gap bool, gapFrom, availableFrom int64) {
	id = max(id, 0)
	if id >= f.lastID {
		return nil, false, 0, 0
	}
	oldest := f.oldestID()
	if id+1 < oldest {
		return f.copyFrom(oldest), true, id + 1, oldest
	}
	return f.copyFrom(id + 1), false, 0, 0
}

// oldestID is the ID of the oldest entry still held (lastID+1 when empty).
func (f *Feed) oldestID() int64 {
	return max(1, f.lastID-int64(len(f.ring))+1)
}

// copyFrom returns the entries from ID from through lastID.
func (f *Feed) copyFrom(from int64) []Entry {
	out := make([]Entry, 0, max(f.lastID-from+1, 0))
	for id := from; id <= f.lastID; id++ {
		out = append(out, f.ring[f.slot(id)])
	}
	return out
}

func (f *Feed) slot(id int64) int {
	return int((id - 1) % int64(len(f.ring)))
}

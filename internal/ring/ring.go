// Package ring is a fixed-capacity ring buffer: O(1) push, oldest entries
// dropped first. The daemon keeps console, network and dialog events in them.
package ring

import "sync"

// Buffer is safe for concurrent use. Its storage grows lazily up to limit, so
// an idle daemon does not pay for 50,000 empty slots per buffer.
type Buffer[T any] struct {
	mu     sync.Mutex
	items  []T
	limit  int
	start  int // index of the oldest item once the buffer has wrapped
	pushed int // items ever pushed: a sequence number for ItemsSince
}

// New returns a buffer holding at most limit items.
func New[T any](limit int) *Buffer[T] {
	return &Buffer[T]{limit: max(limit, 1)}
}

// Push appends v, evicting the oldest item when full.
func (b *Buffer[T]) Push(v T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pushed++
	if len(b.items) < b.limit {
		b.items = append(b.items, v)
		return
	}
	b.items[b.start] = v
	b.start = (b.start + 1) % b.limit
}

// Items returns a copy of the held items, oldest first.
func (b *Buffer[T]) Items() []T {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]T, 0, len(b.items))
	out = append(out, b.items[b.start:]...)
	return append(out, b.items[:b.start]...)
}

// ItemsSince returns the held items pushed at or after sequence number seq
// (0 is the first push ever), oldest first, and the sequence number to ask
// for next time. Items evicted or cleared since are skipped.
func (b *Buffer[T]) ItemsSince(seq int) ([]T, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	first := b.pushed - len(b.items) // sequence number of the oldest held item
	skip := max(seq-first, 0)
	var out []T
	for i := skip; i < len(b.items); i++ {
		out = append(out, b.items[(b.start+i)%len(b.items)])
	}
	return out, b.pushed
}

// Len is the number of items held.
func (b *Buffer[T]) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.items)
}

// Clear drops every item.
func (b *Buffer[T]) Clear() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.items, b.start = nil, 0
}

// Cap is the most items the buffer holds before it drops the oldest.
func (b *Buffer[T]) Cap() int { return b.limit }

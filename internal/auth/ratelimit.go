package auth

import (
	"sync"
	"time"
)

const (
	rateWindow    = time.Second
	minRetryAfter = 100 * time.Millisecond
)

// Allow is called once per command of a scoped client: it enforces the
// client's per-second rate limit and counts the command. retryAfter > 0
// when the limit refused the command.
//
// Root (RootClientID) is never limited. A client with no live token is
// refused with retryAfter 0: waiting would not help it.
func (r *Registry) Allow(clientID string) (ok bool, retryAfter time.Duration) {
	if clientID == RootClientID {
		return true, 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	h, found := r.byClient[clientID]
	if !found {
		return false, 0
	}
	entry := r.tokens[h]
	if r.expired(entry.client.ExpiresAt) {
		r.removeToken(h)
		return false, 0
	}
	now := r.now()
	windowEnd := entry.windowStart.Add(rateWindow)
	if !now.Before(windowEnd) || now.Before(entry.windowStart) {
		// A new window starts; a clock that went back starts one too.
		entry.windowStart, entry.windowCount = now, 0
		windowEnd = now.Add(rateWindow)
	}
	if limit := entry.client.RateLimit; limit > 0 && entry.windowCount >= limit {
		return false, max(windowEnd.Sub(now), minRetryAfter)
	}
	entry.windowCount++
	entry.commandCount++
	entry.lastUsed = now
	return true, 0
}

// WindowLimiter is a global sliding-window limit: at most max calls are
// allowed in any span of window. It remembers only the last max allowed
// calls, in a ring, so its memory is bounded.
type WindowLimiter struct {
	// Now is the clock; tests replace it to move time without sleeping.
	Now func() time.Time

	mu     sync.Mutex
	window time.Duration
	times  []time.Time // allowed calls, oldest at next once the ring is full
	next   int         // where the next allowed call is written
}

// NewWindowLimiter allows maxCalls calls per window. Below 1 allows none.
func NewWindowLimiter(maxCalls int, window time.Duration) *WindowLimiter {
	return &WindowLimiter{
		Now:    time.Now,
		window: window,
		times:  make([]time.Time, 0, max(maxCalls, 0)),
	}
}

// Allow reports whether one more call fits in the window, and records it.
func (l *WindowLimiter) Allow() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	limit := cap(l.times)
	if limit == 0 {
		return false
	}
	if len(l.times) < limit {
		l.times = append(l.times, now)
		return true
	}
	// The ring is full: the oldest allowed call is at next. Once it has
	// left the window there is room for this one, which takes its slot.
	if now.Sub(l.times[l.next]) < l.window {
		return false
	}
	l.times[l.next] = now
	l.next = (l.next + 1) % limit
	return true
}

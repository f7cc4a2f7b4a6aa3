package auth

import (
	"sync"
	"time"
)

// fakeClock is a clock tests move by hand instead of sleeping.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

const testRootToken = "root-token-for-tests"

// newTestRegistry returns a registry on a fake clock.
func newTestRegistry() (*Registry, *fakeClock) {
	clock := newFakeClock()
	r := NewRegistry(testRootToken)
	r.Now = clock.Now
	return r, clock
}

package activity

import (
	"sync"
	"testing"
	"time"
)

func emitN(f *Feed, n int) {
	for i := 0; i < n; i++ {
		f.Emit(Entry{Type: "command_start", Command: "goto"})
	}
}

func ids(entries []Entry) []int64 {
	out := make([]int64, len(entries))
	for i, e := range entries {
		out[i] = e.ID
	}
	return out
}

// idRange reports whether entries hold exactly the IDs from..to in order.
func idRange(entries []Entry, from, to int64) bool {
	if int64(len(entries)) != to-from+1 {
		return false
	}
	for i, e := range entries {
		if e.ID != from+int64(i) {
			return false
		}
	}
	return true
}

func TestEmitAssignsIDAndTimestamp(t *testing.T) {
	f := NewFeed(10)
	args := []string{"https://example.com"}
	before := time.Now().UnixMilli()
	first := f.Emit(Entry{Type: "command_start", Command: "goto", Args: args, Timestamp: 1})
	second := f.Emit(Entry{Type: "command_end", Status: "ok"})
	if first.ID != 1 || second.ID != 2 {
		t.Fatalf("IDs %d, %d; want 1, 2", first.ID, second.ID)
	}
	if first.Timestamp < before || first.Timestamp > time.Now().UnixMilli() {
		t.Fatalf("timestamp %d not the emit time", first.Timestamp)
	}
	args[0] = "changed by the caller"
	if got, _ := f.History(2); got[0].Args[0] != "https://example.com" {
		t.Fatalf("feed shares the caller's Args slice: %v", got[0].Args)
	}
}

func TestHistoryLimits(t *testing.T) {
	f := NewFeed(1000)
	emitN(f, 1200)
	cases := []struct {
		limit    int
		from, to int64
	}{
		{0, 1151, 1200},   // default 50
		{-3, 1151, 1200},  // default 50
		{1, 1200, 1200},   // just the newest
		{5, 1196, 1200},   // newest five, oldest first
		{1000, 201, 1200}, // everything held
		{5000, 201, 1200}, // capped at 1000
	}
	for _, c := range cases {
		got, total := f.History(c.limit)
		if total != 1200 || !idRange(got, c.from, c.to) {
			t.Errorf("History(%d) = %d entries [%v…], total %d; want IDs %d..%d",
				c.limit, len(got), ids(got)[:min(len(got), 3)], total, c.from, c.to)
		}
	}

	small := NewFeed(10)
	emitN(small, 3)
	if got, total := small.History(50); !idRange(got, 1, 3) || total != 3 {
		t.Errorf("small feed: %v, total %d", ids(got), total)
	}
	if got, total := NewFeed(10).History(50); len(got) != 0 || total != 0 {
		t.Errorf("empty feed: %v, total %d", ids(got), total)
	}
}

func TestAfter(t *testing.T) {
	f := NewFeed(5)
	emitN(f, 12) // holds 8..12

	cases := []struct {
		after             int64
		from, to          int64
		gap               bool
		gapFrom, availFrm int64
	}{
		{after: 12, from: 1, to: 0},                                     // up to date
		{after: 40, from: 1, to: 0},                                     // ahead of us: nothing
		{after: 9, from: 10, to: 12},                                    // plain replay
		{after: 7, from: 8, to: 12},                                     // exactly the oldest held: no gap
		{after: 3, from: 8, to: 12, gap: true, gapFrom: 4, availFrm: 8}, // 4..7 evicted
		{after: -1, from: 8, to: 12, gap: true, gapFrom: 1, availFrm: 8},
	}
	for _, c := range cases {
		got, gap, gapFrom, availFrom := f.After(c.after)
		if !idRange(got, c.from, c.to) || gap != c.gap || gapFrom != c.gapFrom || availFrom != c.availFrm {
			t.Errorf("After(%d) = %v, %v, %d, %d", c.after, ids(got), gap, gapFrom, availFrom)
		}
	}
}

// A subscriber that never reads must not slow Emit down; it just misses
// what does not fit in its buffer.
func TestEmitNeverBlocksOnStuckSubscriber(t *testing.T) {
	f := NewFeed(1000)
	stuck, _ := f.subscribe(0, false)

	done := make(chan struct{})
	go func() {
		emitN(f, 10_000)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Emit blocked on a subscriber that does not read")
	}
	if got, want := stuck.missed.Load(), int64(10_000-subscriberBuffer); got != want {
		t.Fatalf("missed = %d, want %d", got, want)
	}
	f.unsubscribe(stuck)
	if f.Subscribers() != 0 {
		t.Fatal("subscriber still registered")
	}
}

func TestConcurrentEmitAndSubscribe(t *testing.T) {
	f := NewFeed(100)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			emitN(f, 500)
		}()
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				sub, _ := f.subscribe(int64(i), i%2 == 0)
				select {
				case <-sub.entries:
				default:
				}
				f.History(10)
				f.After(int64(i))
				f.unsubscribe(sub)
			}
		}()
	}
	wg.Wait()
	if n := f.Subscribers(); n != 0 {
		t.Fatalf("%d subscribers left", n)
	}
	if _, total := f.History(1); total != 2000 {
		t.Fatalf("total %d, want 2000", total)
	}
}

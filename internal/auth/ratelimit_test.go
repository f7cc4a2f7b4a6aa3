package auth

import (
	"testing"
	"time"
)

func TestAllowLimitsPerSecondAndResets(t *testing.T) {
	r, clock := newTestRegistry()
	if _, err := r.Mint(PairOptions{ClientID: "agent", RateLimit: 3}); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if ok, _ := r.Allow("agent"); !ok {
			t.Fatalf("call %d refused under the limit", i+1)
		}
	}
	clock.Advance(400 * time.Millisecond)
	ok, retry := r.Allow("agent")
	if ok {
		t.Fatal("4th call in one second allowed")
	}
	if retry != 600*time.Millisecond {
		t.Errorf("retryAfter = %v, want 600ms (to the end of the window)", retry)
	}

	// Near the end of the window the wait is never shorter than 100 ms.
	clock.Advance(590 * time.Millisecond)
	if ok, retry := r.Allow("agent"); ok || retry != 100*time.Millisecond {
		t.Errorf("near window end: ok=%v retryAfter=%v, want refused with 100ms", ok, retry)
	}

	clock.Advance(10 * time.Millisecond) // a full second after the first call
	for i := range 3 {
		if ok, _ := r.Allow("agent"); !ok {
			t.Fatalf("call %d refused in a new window", i+1)
		}
	}
	agents := r.Agents()
	if len(agents) != 1 || agents[0].CommandCount != 6 {
		t.Fatalf("CommandCount = %+v, want 6 (refused calls do not count)", agents)
	}
}

func TestAllowDefaultRateIsTenPerSecond(t *testing.T) {
	r, _ := newTestRegistry()
	if _, err := r.Mint(PairOptions{ClientID: "agent"}); err != nil {
		t.Fatal(err)
	}
	allowed := 0
	for range 25 {
		if ok, _ := r.Allow("agent"); ok {
			allowed++
		}
	}
	if allowed != 10 {
		t.Fatalf("allowed %d in one second, want 10", allowed)
	}
}

func TestAllowRootAndUnknownClients(t *testing.T) {
	r, clock := newTestRegistry()
	for range 1000 {
		if ok, _ := r.Allow(RootClientID); !ok {
			t.Fatal("root was rate limited")
		}
	}
	if ok, retry := r.Allow("nobody"); ok || retry != 0 {
		t.Errorf("unknown client: ok=%v retryAfter=%v, want refused with 0", ok, retry)
	}
	if _, err := r.Mint(PairOptions{ClientID: "short", TTL: time.Minute}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	if ok, _ := r.Allow("short"); ok {
		t.Error("expired client allowed")
	}
}

func TestWindowLimiter(t *testing.T) {
	clock := newFakeClock()
	l := NewWindowLimiter(300, time.Minute)
	l.Now = clock.Now

	// 300 calls spread over the first 30 seconds all pass.
	for i := range 300 {
		if !l.Allow() {
			t.Fatalf("call %d refused under the limit", i+1)
		}
		clock.Advance(100 * time.Millisecond)
	}
	if l.Allow() {
		t.Fatal("301st call within a minute allowed")
	}
	if len(l.times) > 300 {
		t.Fatalf("limiter holds %d timestamps, want at most 300", len(l.times))
	}

	// The window slides: a minute after the first call, exactly one
	// slot (the first call's) is free again.
	clock.Advance(30 * time.Second) // now = first call + 60s
	if !l.Allow() {
		t.Fatal("slot of the first call not freed after a minute")
	}
	if l.Allow() {
		t.Fatal("second slot freed too early")
	}
	clock.Advance(100 * time.Millisecond)
	if !l.Allow() {
		t.Fatal("slot of the second call not freed")
	}

	// After a quiet minute the full budget is back.
	clock.Advance(time.Minute)
	for i := range 300 {
		if !l.Allow() {
			t.Fatalf("call %d refused after a quiet minute", i+1)
		}
	}
	if l.Allow() || cap(l.times) != 300 {
		t.Fatal("limit not enforced or ring grew")
	}
}

func TestWindowLimiterWithNoBudget(t *testing.T) {
	for _, n := range []int{0, -5} {
		if NewWindowLimiter(n, time.Minute).Allow() {
			t.Errorf("limiter of %d allowed a call", n)
		}
	}
}

package auth

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

func newTestStreamSessions() (*StreamSessions, *fakeClock) {
	clock := newFakeClock()
	s := NewStreamSessions()
	s.Now = clock.Now
	return s, clock
}

func TestStreamSessionsExpireAfterThirtyMinutes(t *testing.T) {
	s, clock := newTestStreamSessions()
	token, expires := s.Mint()
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(token) {
		t.Fatal("stream token is not 32 random bytes in hex")
	}
	if want := clock.Now().Add(30 * time.Minute); !expires.Equal(want) {
		t.Errorf("expires = %v, want %v", expires, want)
	}
	if !s.Valid(token) {
		t.Fatal("fresh stream session refused")
	}
	clock.Advance(30*time.Minute - time.Nanosecond)
	if !s.Valid(token) {
		t.Fatal("stream session refused before 30 minutes")
	}
	clock.Advance(time.Nanosecond)
	if s.Valid(token) {
		t.Fatal("stream session accepted after 30 minutes")
	}
	if len(s.sessions) != 0 {
		t.Error("expired stream session not pruned")
	}
}

func TestStreamSessionsRefuseGarbage(t *testing.T) {
	s, _ := newTestStreamSessions()
	token, _ := s.Mint()
	for _, bad := range []string{"", "abc", token[:63], token + "0", strings.ToUpper(token)} {
		if s.Valid(bad) {
			t.Errorf("Valid accepted a wrong token of length %d", len(bad))
		}
	}
}

func TestStreamSessionIsNotACommandToken(t *testing.T) {
	r, _ := newTestRegistry()
	s, _ := newTestStreamSessions()
	token, _ := s.Mint()
	if _, ok := r.Lookup(token); ok {
		t.Fatal("Registry.Lookup accepted a stream session")
	}
	if r.IsRoot(token) {
		t.Fatal("a stream session passed as root")
	}
	// And the other way round: a command token is not a stream session.
	session, err := r.Mint(PairOptions{ClientID: "agent"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Valid(session.Token) || s.Valid(testRootToken) {
		t.Fatal("a command token passed as a stream session")
	}
}

func TestStreamSessionsAreCapped(t *testing.T) {
	s, clock := newTestStreamSessions()
	first, _ := s.Mint()
	clock.Advance(time.Millisecond)
	for range maxStreamSessions - 1 {
		s.Mint()
	}
	if !s.Valid(first) {
		t.Fatal("oldest session dropped before the cap was reached")
	}
	last, _ := s.Mint()
	if s.Valid(first) {
		t.Fatal("oldest session kept past the cap")
	}
	if !s.Valid(last) {
		t.Fatal("newest session refused")
	}
	if len(s.sessions) != maxStreamSessions {
		t.Fatalf("%d live sessions, want %d", len(s.sessions), maxStreamSessions)
	}
	// Once they all expire, minting prunes them.
	clock.Advance(StreamSessionTTL)
	s.Mint()
	if len(s.sessions) != 1 || len(s.order) != 1 {
		t.Fatalf("after expiry: %d sessions, %d in order; want 1, 1", len(s.sessions), len(s.order))
	}
}

func TestStreamSetCookie(t *testing.T) {
	got := StreamSetCookie("tok")
	if want := "gstack_sse=tok; Path=/; HttpOnly; SameSite=Strict; Max-Age=1800"; got != want {
		t.Fatalf("StreamSetCookie = %q, want %q", got, want)
	}
	for _, attr := range []string{"HttpOnly", "SameSite=Strict", "Max-Age=1800", "Path=/"} {
		if !strings.Contains(got, "; "+attr) {
			t.Errorf("cookie lacks %s", attr)
		}
	}
	if strings.Contains(got, "Secure") {
		t.Error("cookie has Secure, but the daemon is plain http")
	}
	if v, ok := CookieValue("a=b; "+strings.SplitN(got, ";", 2)[0], StreamCookie); !ok || v != "tok" {
		t.Errorf("cookie does not round-trip through CookieValue: %q, %v", v, ok)
	}
}

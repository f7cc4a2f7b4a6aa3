package auth

import (
	"strconv"
	"sync"
	"time"
)

// StreamCookie is the cookie that carries a stream session.
const StreamCookie = "gstack_sse"

// StreamSessionTTL is how long a stream session lives.
const StreamSessionTTL = 30 * time.Minute

// maxStreamSessions caps live stream sessions; the oldest go first.
const maxStreamSessions = 10_000

// StreamSessions holds the view-only cookies of the activity stream. They
// are a store of their own: a stream session is never a token for
// /command, and Registry.Lookup never sees them. Safe for concurrent use.
type StreamSessions struct {
	// Now is the clock; tests replace it to expire sessions without sleeping.
	Now func() time.Time

	mu       sync.Mutex
	sessions map[secretHash]streamSession
	// order lists session hashes oldest first. All sessions live equally
	// long, so the oldest is also the first to expire.
	order []secretHash
}

type streamSession struct {
	token   string // kept only to confirm a hash match in constant time
	expires time.Time
}

// NewStreamSessions returns an empty store.
func NewStreamSessions() *StreamSessions {
	return &StreamSessions{
		Now:      time.Now,
		sessions: make(map[secretHash]streamSession),
	}
}

func (s *StreamSessions) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// Mint creates a stream session of 32 random bytes, hex encoded.
func (s *StreamSessions) Mint() (token string, expires time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	s.dropOldest(now)
	token = randomHex(32)
	expires = now.Add(StreamSessionTTL)
	h := hashSecret(token)
	s.sessions[h] = streamSession{token: token, expires: expires}
	s.order = append(s.order, h)
	return token, expires
}

// dropOldest removes, from the old end, sessions that have expired or were
// already removed, then more until there is room for one new session.
// Callers hold s.mu.
func (s *StreamSessions) dropOldest(now time.Time) {
	for len(s.order) > 0 {
		h := s.order[0]
		session, live := s.sessions[h]
		if live && now.Before(session.expires) && len(s.sessions) < maxStreamSessions {
			return
		}
		delete(s.sessions, h)
		s.order = s.order[1:]
	}
}

// Valid reports whether token is a live stream session. An expired one is
// removed.
func (s *StreamSessions) Valid(token string) bool {
	if token == "" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	h := hashSecret(token)
	session, ok := s.sessions[h]
	if !ok || !sameSecret(session.token, token) {
		return false
	}
	if !s.now().Before(session.expires) {
		delete(s.sessions, h)
		return false
	}
	return true
}

// StreamSetCookie is the Set-Cookie value for a stream session. There is
// no Secure attribute: the daemon serves plain http on 127.0.0.1.
func StreamSetCookie(token string) string {
	maxAge := strconv.Itoa(int(StreamSessionTTL / time.Second))
	return StreamCookie + "=" + token + "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" + maxAge
}

package auth

import (
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	setupKeyPattern = regexp.MustCompile(`^gsk_setup_[0-9a-f]{48}$`)
	sessionPattern  = regexp.MustCompile(`^gsk_sess_[0-9a-f]{48}$`)
)

// pairAndConnect pairs opts and exchanges the key, failing the test on error.
func pairAndConnect(t *testing.T, r *Registry, opts PairOptions) *Session {
	t.Helper()
	key, err := r.Pair(opts)
	if err != nil {
		t.Fatalf("Pair: %v", err)
	}
	session, err := r.Connect(key.Key)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	return session
}

func TestLookupRoot(t *testing.T) {
	r, _ := newTestRegistry()
	client, ok := r.Lookup(testRootToken)
	if !ok {
		t.Fatal("root token refused")
	}
	if !client.Root || client.ID != RootClientID || client.TabPolicy != Shared || client.RateLimit != 0 {
		t.Errorf("root client = %+v", client)
	}
	if !client.ExpiresAt.IsZero() {
		t.Errorf("root ExpiresAt = %v, want zero", client.ExpiresAt)
	}
	if !reflect.DeepEqual(client.Scopes, AllScopes) {
		t.Errorf("root scopes = %v", client.Scopes)
	}
	if !r.IsRoot(testRootToken) {
		t.Error("IsRoot refused the root token")
	}
	for _, bad := range []string{"", "root-token-for-test", testRootToken + "x", strings.ToUpper(testRootToken)} {
		if r.IsRoot(bad) {
			t.Errorf("IsRoot accepted %q", bad)
		}
		if _, ok := r.Lookup(bad); ok {
			t.Errorf("Lookup accepted %q", bad)
		}
	}
}

func TestEmptyRootTokenIsNeverRoot(t *testing.T) {
	r := NewRegistry("")
	if r.IsRoot("") {
		t.Fatal("an empty root token matched an empty token")
	}
	if _, ok := r.Lookup(""); ok {
		t.Fatal("Lookup accepted an empty token")
	}
}

func TestPairDefaults(t *testing.T) {
	r, clock := newTestRegistry()
	key, err := r.Pair(PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !setupKeyPattern.MatchString(key.Key) {
		t.Errorf("setup key has the wrong shape")
	}
	if !regexp.MustCompile(`^remote-[0-9a-f]{8}$`).MatchString(key.ClientID) {
		t.Errorf("generated client id = %q", key.ClientID)
	}
	if !reflect.DeepEqual(key.Scopes, DefaultPairScopes) {
		t.Errorf("scopes = %v", key.Scopes)
	}
	if want := clock.Now().Add(5 * time.Minute); !key.ExpiresAt.Equal(want) {
		t.Errorf("key expires %v, want %v", key.ExpiresAt, want)
	}

	session, err := r.Connect(key.Key)
	if err != nil {
		t.Fatal(err)
	}
	if !sessionPattern.MatchString(session.Token) {
		t.Errorf("session token has the wrong shape")
	}
	c := session.Client
	if c.ID != key.ClientID || c.Root || c.TabPolicy != OwnOnly || c.RateLimit != 10 {
		t.Errorf("client = %+v", c)
	}
	if want := clock.Now().Add(24 * time.Hour); !c.ExpiresAt.Equal(want) {
		t.Errorf("token expires %v, want %v", c.ExpiresAt, want)
	}
}

func TestPairRejectsBadOptions(t *testing.T) {
	tests := []struct {
		name string
		opts PairOptions
	}{
		{"client id with space", PairOptions{ClientID: "my agent"}},
		{"client id with slash", PairOptions{ClientID: "a/b"}},
		{"client id too long", PairOptions{ClientID: strings.Repeat("a", 65)}},
		{"client id root", PairOptions{ClientID: "root"}},
		{"unknown scope", PairOptions{Scopes: []Scope{"superuser"}}},
		{"unknown tab policy", PairOptions{TabPolicy: "everything"}},
		{"negative rate limit", PairOptions{RateLimit: -1}},
		{"negative ttl", PairOptions{TTL: -time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := newTestRegistry()
			if _, err := r.Pair(tt.opts); err == nil {
				t.Error("Pair accepted bad options")
			}
			if _, err := r.Mint(tt.opts); err == nil {
				t.Error("Mint accepted bad options")
			}
		})
	}
	r, _ := newTestRegistry()
	if _, err := r.Pair(PairOptions{ClientID: strings.Repeat("a", 64)}); err != nil {
		t.Errorf("64-byte client id refused: %v", err)
	}
	if _, err := r.Pair(PairOptions{ClientID: "Agent-1.b_c"}); err != nil {
		t.Errorf("valid client id refused: %v", err)
	}
}

func TestSetupKeyIsSingleUse(t *testing.T) {
	r, _ := newTestRegistry()
	key, err := r.Pair(PairOptions{ClientID: "agent"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Connect(key.Key); err != nil {
		t.Fatalf("first Connect: %v", err)
	}
	if _, err := r.Connect(key.Key); !errors.Is(err, ErrBadSetupKey) {
		t.Fatalf("second Connect err = %v, want ErrBadSetupKey", err)
	}
}

func TestSetupKeyIsSingleUseUnderRace(t *testing.T) {
	r, _ := newTestRegistry()
	key, err := r.Pair(PairOptions{ClientID: "agent"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := r.Connect(key.Key); err == nil {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d Connects succeeded with one key, want 1", wins)
	}
}

func TestSetupKeyExpiresAfterFiveMinutes(t *testing.T) {
	tests := []struct {
		wait   time.Duration
		wantOK bool
	}{
		{0, true},
		{5*time.Minute - time.Nanosecond, true},
		{5 * time.Minute, false},
		{time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(tt.wait.String(), func(t *testing.T) {
			r, clock := newTestRegistry()
			key, err := r.Pair(PairOptions{ClientID: "agent"})
			if err != nil {
				t.Fatal(err)
			}
			clock.Advance(tt.wait)
			_, err = r.Connect(key.Key)
			if tt.wantOK && err != nil {
				t.Fatalf("Connect after %v: %v", tt.wait, err)
			}
			if !tt.wantOK && !errors.Is(err, ErrBadSetupKey) {
				t.Fatalf("Connect after %v err = %v, want ErrBadSetupKey", tt.wait, err)
			}
		})
	}
}

func TestConnectWithGarbageFails(t *testing.T) {
	r, _ := newTestRegistry()
	key, err := r.Pair(PairOptions{ClientID: "agent"})
	if err != nil {
		t.Fatal(err)
	}
	for _, garbage := range []string{
		"", "gsk_setup_", "nonsense", testRootToken,
		key.Key[:len(key.Key)-1], key.Key + "0", strings.ToUpper(key.Key),
	} {
		if _, err := r.Connect(garbage); !errors.Is(err, ErrBadSetupKey) {
			t.Errorf("Connect(garbage) err = %v, want ErrBadSetupKey", err)
		}
	}
	// None of that used up the real key.
	if _, err := r.Connect(key.Key); err != nil {
		t.Fatalf("real key refused after garbage: %v", err)
	}
}

func TestScopedTokenLookupAndExpiry(t *testing.T) {
	r, clock := newTestRegistry()
	session := pairAndConnect(t, r, PairOptions{
		ClientID: "agent", Scopes: []Scope{ScopeRead}, TabPolicy: Shared, RateLimit: 3, TTL: time.Hour,
	})
	client, ok := r.Lookup(session.Token)
	if !ok {
		t.Fatal("fresh token refused")
	}
	want := Client{
		ID: "agent", Scopes: []Scope{ScopeRead}, TabPolicy: Shared, RateLimit: 3,
		CreatedAt: clock.Now(), ExpiresAt: clock.Now().Add(time.Hour),
	}
	if !reflect.DeepEqual(*client, want) {
		t.Errorf("client = %+v, want %+v", *client, want)
	}

	// Lookup hands out a copy: changing it changes nothing inside.
	client.Scopes[0] = ScopeControl
	if again, _ := r.Lookup(session.Token); again.HasScope(ScopeControl) {
		t.Fatal("caller changed the registry's scopes through Lookup's result")
	}

	clock.Advance(time.Hour - time.Nanosecond)
	if _, ok := r.Lookup(session.Token); !ok {
		t.Fatal("token refused before its TTL")
	}
	clock.Advance(time.Nanosecond)
	if _, ok := r.Lookup(session.Token); ok {
		t.Fatal("token accepted after its TTL")
	}
	if agents := r.Agents(); len(agents) != 0 {
		t.Fatalf("expired token still listed: %+v", agents)
	}
}

func TestMint(t *testing.T) {
	r, _ := newTestRegistry()
	session, err := r.Mint(PairOptions{ClientID: "ci", Scopes: []Scope{ScopeControl}})
	if err != nil {
		t.Fatal(err)
	}
	if !sessionPattern.MatchString(session.Token) {
		t.Error("minted token has the wrong shape")
	}
	client, ok := r.Lookup(session.Token)
	if !ok || client.ID != "ci" || !client.HasScope(ScopeControl) || client.HasScope(ScopeRead) {
		t.Fatalf("minted client = %+v, %v", client, ok)
	}
}

func TestRePairReplacesEarlierToken(t *testing.T) {
	r, _ := newTestRegistry()
	first := pairAndConnect(t, r, PairOptions{ClientID: "agent"})
	second := pairAndConnect(t, r, PairOptions{ClientID: "agent", Scopes: []Scope{ScopeRead}})
	if _, ok := r.Lookup(first.Token); ok {
		t.Error("earlier token still works after re-pairing")
	}
	client, ok := r.Lookup(second.Token)
	if !ok || !reflect.DeepEqual(client.Scopes, []Scope{ScopeRead}) {
		t.Errorf("new token: %+v, %v", client, ok)
	}
	minted, err := r.Mint(PairOptions{ClientID: "agent"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Lookup(second.Token); ok {
		t.Error("Mint did not replace the client's earlier token")
	}
	if agents := r.Agents(); len(agents) != 1 || agents[0].ClientID != "agent" {
		t.Errorf("agents = %+v, want one", agents)
	}
	if _, ok := r.Lookup(minted.Token); !ok {
		t.Error("minted token refused")
	}
}

func TestGeneratedClientIDsDiffer(t *testing.T) {
	r, _ := newTestRegistry()
	seen := map[string]bool{}
	for range 50 {
		key, err := r.Pair(PairOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if seen[key.ClientID] {
			t.Fatalf("client id %q handed out twice", key.ClientID)
		}
		seen[key.ClientID] = true
	}
}

func TestRevokeKillsTokenAndPendingKey(t *testing.T) {
	r, _ := newTestRegistry()
	session := pairAndConnect(t, r, PairOptions{ClientID: "agent"})
	pending, err := r.Pair(PairOptions{ClientID: "agent"})
	if err != nil {
		t.Fatal(err)
	}
	other := pairAndConnect(t, r, PairOptions{ClientID: "other"})

	if n := r.Revoke("agent"); n != 2 {
		t.Errorf("Revoke removed %d, want 2 (a token and a key)", n)
	}
	if _, ok := r.Lookup(session.Token); ok {
		t.Error("revoked token still works")
	}
	if _, err := r.Connect(pending.Key); !errors.Is(err, ErrBadSetupKey) {
		t.Errorf("revoked setup key err = %v, want ErrBadSetupKey", err)
	}
	if _, ok := r.Lookup(other.Token); !ok {
		t.Error("Revoke touched another client")
	}
	if n := r.Revoke("agent"); n != 0 {
		t.Errorf("second Revoke removed %d, want 0", n)
	}
	if ok, _ := r.Allow("agent"); ok {
		t.Error("Allow accepted a revoked client")
	}
}

func TestAgentsNeverShowTokens(t *testing.T) {
	r, clock := newTestRegistry()
	b := pairAndConnect(t, r, PairOptions{ClientID: "bravo"})
	a, err := r.Mint(PairOptions{ClientID: "alpha", RateLimit: 5})
	if err != nil {
		t.Fatal(err)
	}
	pending, err := r.Pair(PairOptions{ClientID: "charlie"})
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	if ok, _ := r.Allow("alpha"); !ok {
		t.Fatal("Allow refused")
	}

	agents := r.Agents()
	if len(agents) != 2 || agents[0].ClientID != "alpha" || agents[1].ClientID != "bravo" {
		t.Fatalf("agents = %+v, want alpha then bravo (no pending key)", agents)
	}
	if agents[0].CommandCount != 1 || agents[0].LastUsed == nil || !agents[0].LastUsed.Equal(clock.Now()) {
		t.Errorf("alpha usage = %d, %v", agents[0].CommandCount, agents[0].LastUsed)
	}
	if agents[1].LastUsed != nil {
		t.Errorf("bravo was never used but LastUsed = %v", agents[1].LastUsed)
	}

	out, err := json.Marshal(agents)
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	for _, secret := range []string{a.Token, b.Token, pending.Key, testRootToken, "gsk_"} {
		if strings.Contains(text, secret) {
			t.Fatal("Agents JSON contains a secret")
		}
	}
	if strings.Count(text, `"lastUsed"`) != 1 {
		t.Errorf("lastUsed should appear only for the used agent: %s", text)
	}
}

func TestErrorsNeverContainSecrets(t *testing.T) {
	r, _ := newTestRegistry()
	key, err := r.Pair(PairOptions{ClientID: "agent"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Connect(key.Key); err != nil {
		t.Fatal(err)
	}
	_, err = r.Connect(key.Key)
	if err == nil || strings.Contains(err.Error(), key.Key) || strings.Contains(err.Error(), "gsk_") {
		t.Fatalf("error leaks the key: %v", err)
	}
}

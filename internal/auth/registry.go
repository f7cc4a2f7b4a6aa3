package auth

import (
	"crypto/subtle"
	"sort"
	"sync"
	"time"
)

// Registry holds the root token, the scoped tokens and the pending setup
// keys. It is safe for concurrent use.
type Registry struct {
	// Now is the clock; tests replace it to expire keys without sleeping.
	// Set it before the registry is shared between goroutines.
	Now func() time.Time
	// SetupKeyLifetime is how long a setup key stays valid: 5 minutes
	// unless set (before sharing the registry) to something shorter.
	SetupKeyLifetime time.Duration

	mu        sync.Mutex
	rootHash  secretHash
	hasRoot   bool
	createdAt time.Time
	tokens    map[secretHash]*scopedToken
	byClient  map[string]secretHash // client ID -> hash of its one live token
	setupKeys map[secretHash]*pendingKey
}

// scopedToken is a live token with its client and usage counters.
type scopedToken struct {
	token  string // kept only to confirm a hash match in constant time
	client Client

	windowStart  time.Time // start of the current one-second rate window
	windowCount  int       // commands allowed in that window
	commandCount int64
	lastUsed     time.Time
}

// NewRegistry returns a registry whose root token is rootToken. An empty
// rootToken means no token is ever root.
func NewRegistry(rootToken string) *Registry {
	return &Registry{
		Now:       time.Now,
		rootHash:  hashSecret(rootToken),
		hasRoot:   rootToken != "",
		createdAt: time.Now(),
		tokens:    make(map[secretHash]*scopedToken),
		byClient:  make(map[string]secretHash),
		setupKeys: make(map[secretHash]*pendingKey),
	}
}

func (r *Registry) now() time.Time {
	if r.Now == nil {
		return time.Now()
	}
	return r.Now()
}

// IsRoot reports whether token is the root token. Both sides are hashed
// first so the compare takes the same time whatever the token's length.
func (r *Registry) IsRoot(token string) bool {
	h := hashSecret(token)
	return r.hasRoot && subtle.ConstantTimeCompare(h[:], r.rootHash[:]) == 1
}

// rootClient describes the root token's holder.
func (r *Registry) rootClient() *Client {
	return &Client{
		ID:        RootClientID,
		Root:      true,
		Scopes:    cloneScopes(AllScopes),
		TabPolicy: Shared,
		CreatedAt: r.createdAt,
	}
}

// Lookup returns a copy of the client behind token: root, or a live scoped
// token. An expired token is removed and refused.
func (r *Registry) Lookup(token string) (*Client, bool) {
	if token == "" {
		return nil, false
	}
	if r.IsRoot(token) {
		return r.rootClient(), true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	h := hashSecret(token)
	entry, ok := r.tokens[h]
	if !ok || !sameSecret(entry.token, token) {
		return nil, false
	}
	if r.expired(entry.client.ExpiresAt) {
		r.removeToken(h)
		return nil, false
	}
	return entry.client.clone(), true
}

// expired reports whether a deadline has passed. Callers hold r.mu.
func (r *Registry) expired(deadline time.Time) bool {
	return !r.now().Before(deadline)
}

// removeToken drops a token and its client index entry. Callers hold r.mu.
func (r *Registry) removeToken(h secretHash) {
	entry, ok := r.tokens[h]
	if !ok {
		return
	}
	delete(r.tokens, h)
	if r.byClient[entry.client.ID] == h {
		delete(r.byClient, entry.client.ID)
	}
}

// pruneExpired drops expired tokens and setup keys. Callers hold r.mu.
func (r *Registry) pruneExpired() {
	for h, entry := range r.tokens {
		if r.expired(entry.client.ExpiresAt) {
			r.removeToken(h)
		}
	}
	for h, key := range r.setupKeys {
		if r.expired(key.expiresAt) {
			delete(r.setupKeys, h)
		}
	}
}

// Revoke removes every scoped token and every pending setup key of a
// client and returns how many went.
func (r *Registry) Revoke(clientID string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	removed := 0
	for h, entry := range r.tokens {
		if entry.client.ID == clientID {
			r.removeToken(h)
			removed++
		}
	}
	for h, key := range r.setupKeys {
		if key.opts.ClientID == clientID {
			delete(r.setupKeys, h)
			removed++
		}
	}
	return removed
}

// AgentInfo describes a live scoped token without the token itself.
type AgentInfo struct {
	ClientID     string     `json:"clientId"`
	Scopes       []Scope    `json:"scopes"`
	TabPolicy    TabPolicy  `json:"tabPolicy"`
	RateLimit    int        `json:"rateLimit"`
	CreatedAt    time.Time  `json:"createdAt"`
	ExpiresAt    time.Time  `json:"expiresAt"`
	CommandCount int64      `json:"commandCount"`
	LastUsed     *time.Time `json:"lastUsed,omitempty"`
}

// Agents lists the live scoped tokens sorted by client ID, pruning expired
// tokens and keys on the way.
func (r *Registry) Agents() []AgentInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pruneExpired()
	agents := make([]AgentInfo, 0, len(r.tokens))
	for _, entry := range r.tokens {
		info := AgentInfo{
			ClientID:     entry.client.ID,
			Scopes:       cloneScopes(entry.client.Scopes),
			TabPolicy:    entry.client.TabPolicy,
			RateLimit:    entry.client.RateLimit,
			CreatedAt:    entry.client.CreatedAt,
			ExpiresAt:    entry.client.ExpiresAt,
			CommandCount: entry.commandCount,
		}
		if !entry.lastUsed.IsZero() {
			lastUsed := entry.lastUsed
			info.LastUsed = &lastUsed
		}
		agents = append(agents, info)
	}
	sort.Slice(agents, func(i, j int) bool { return agents[i].ClientID < agents[j].ClientID })
	return agents
}

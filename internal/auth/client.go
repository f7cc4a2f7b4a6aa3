package auth

import "time"

// RootClientID is the Client.ID of the root token. No scoped client may use
// it, so tab ownership keyed by ID can never mix root and a remote agent.
const RootClientID = "root"

// Client is who sent a request.
type Client struct {
	ID        string // RootClientID for the root token; the client name otherwise
	Root      bool
	Scopes    []Scope
	TabPolicy TabPolicy // Shared for root
	RateLimit int       // commands per second; 0 = unlimited (root)
	CreatedAt time.Time
	ExpiresAt time.Time // zero for root
}

// HasScope reports whether the client may use scope s. Root may use all.
func (c *Client) HasScope(s Scope) bool {
	if c.Root {
		return true
	}
	for _, have := range c.Scopes {
		if have == s {
			return true
		}
	}
	return false
}

// OwnOnly reports whether the client is limited to the tabs it opened.
func (c *Client) OwnOnly() bool {
	return !c.Root && c.TabPolicy == OwnOnly
}

// clone returns a copy that shares no memory with c.
func (c Client) clone() *Client {
	c.Scopes = cloneScopes(c.Scopes)
	return &c
}

// Package auth holds the daemon's credentials: the root token, scoped
// tokens handed to remote agents through single-use setup keys, per-client
// rate limits, and the view-only cookies of the activity stream.
//
// Secrets are compared in constant time and the maps that hold them are
// keyed by a SHA-256 of the secret, so neither a map lookup nor a compare
// reveals through timing how much of a guess was right.
package auth

import (
	"fmt"
	"strings"
)

// Scope is one permission of a scoped token.
type Scope string

// The scopes a token can carry, as in the reference.
const (
	ScopeRead    Scope = "read"
	ScopeWrite   Scope = "write"
	ScopeAdmin   Scope = "admin"
	ScopeMeta    Scope = "meta"
	ScopeControl Scope = "control"
)

// AllScopes lists every scope; the root token has all of them.
var AllScopes = []Scope{ScopeRead, ScopeWrite, ScopeAdmin, ScopeMeta, ScopeControl}

// DefaultPairScopes is what a pairing grants unless told otherwise.
// Control is left out: it must be asked for explicitly.
var DefaultPairScopes = []Scope{ScopeRead, ScopeWrite, ScopeAdmin, ScopeMeta}

// isKnownScope reports whether s is one of AllScopes.
func isKnownScope(s Scope) bool {
	for _, known := range AllScopes {
		if s == known {
			return true
		}
	}
	return false
}

// unknownScopeError names the bad scope and lists the valid ones.
func unknownScopeError(name string) error {
	valid := make([]string, len(AllScopes))
	for i, s := range AllScopes {
		valid[i] = string(s)
	}
	return fmt.Errorf("unknown scope %q (valid scopes: %s)", name, strings.Join(valid, ", "))
}

// ParseScopes turns scope names into Scopes, dropping duplicates and blank
// names (so "read, ,write" split on commas works). No names gives nil.
func ParseScopes(names []string) ([]Scope, error) {
	var scopes []Scope
	for _, name := range names {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		s := Scope(name)
		if !isKnownScope(s) {
			return nil, unknownScopeError(name)
		}
		scopes = appendUnique(scopes, s)
	}
	return scopes, nil
}

// normalizeScopes validates scopes given in code (PairOptions) and returns
// a deduplicated copy, or DefaultPairScopes when none are given.
func normalizeScopes(scopes []Scope) ([]Scope, error) {
	if len(scopes) == 0 {
		return cloneScopes(DefaultPairScopes), nil
	}
	var out []Scope
	for _, s := range scopes {
		if !isKnownScope(s) {
			return nil, unknownScopeError(string(s))
		}
		out = appendUnique(out, s)
	}
	return out, nil
}

func appendUnique(scopes []Scope, s Scope) []Scope {
	for _, have := range scopes {
		if have == s {
			return scopes
		}
	}
	return append(scopes, s)
}

// cloneScopes copies a slice so callers can't change the registry's copy.
func cloneScopes(scopes []Scope) []Scope {
	if scopes == nil {
		return nil
	}
	return append([]Scope(nil), scopes...)
}

// TabPolicy says which tabs a scoped client may touch.
type TabPolicy string

const (
	// OwnOnly limits a client to the tabs it opened.
	OwnOnly TabPolicy = "own-only"
	// Shared lets a client use every tab.
	Shared TabPolicy = "shared"
)

package browser

import (
	"context"
	"errors"
	"strings"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"

	"github.com/browsehq/browse/internal/snapshot"
)

// RefEntry is what a ref (@e3, @c2) stands for: a DOM node in a frame, and
// what it was when the snapshot saw it, for error messages.
type RefEntry struct {
	ID            string          `json:"ref"`
	FrameID       cdproto.FrameID `json:"frameId"`
	BackendNodeID int64           `json:"backendNodeId,omitempty"`
	// World and Key, for a ref from the walker engine: the element is
	// __browse.get(Key) in that isolated world.
	World int64  `json:"world,omitempty"`
	Key   int64  `json:"key,omitempty"`
	Role  string `json:"role"`
	Name  string `json:"name"`
}

// RefErrorKind says why a ref did not resolve.
type RefErrorKind int

const (
	RefUnknown   RefErrorKind = iota // not in the current map
	RefStale                         // its element is no longer on the page
	RefFrameGone                     // the frame holding it was removed
)

// RefError is a ref that did not resolve to a live element.
type RefError struct {
	Ref   string
	Kind  RefErrorKind
	Entry *RefEntry // nil for RefUnknown
	Count int       // refs in the current map, for RefUnknown
}

func (e *RefError) Error() string { return "ref @" + e.Ref + " did not resolve" }

// refState is the tab's ref map. It belongs to one page: a main-frame
// navigation voids it (checked against navSeq, so nothing races to clear it).
type refState struct {
	navSeq   int64
	entries  map[string]RefEntry
	ids      *snapshot.IDs
	baseline string // the previous snapshot's text, for -D
}

// pageRefs returns the ref state of the current page, starting a fresh one
// after a navigation. Call with t.mu held.
func (t *Tab) pageRefs() *refState {
	seq := t.navSeq.Load()
	if t.refs == nil || t.refs.navSeq != seq {
		t.refs = &refState{navSeq: seq, entries: map[string]RefEntry{}, ids: &snapshot.IDs{}}
	}
	return t.refs
}

// RefIDs is the stable ref numbering for the current page.
func (t *Tab) RefIDs() *snapshot.IDs {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.pageRefs().ids
}

// SetRefs replaces the tab's ref map with a new snapshot's refs.
func (t *Tab) SetRefs(entries []RefEntry) {
	t.mu.Lock()
	defer t.mu.Unlock()
	rs := t.pageRefs()
	rs.entries = make(map[string]RefEntry, len(entries))
	for _, e := range entries {
		rs.entries[e.ID] = e
	}
}

// Refs returns the current ref map.
func (t *Tab) Refs() map[string]RefEntry {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[string]RefEntry)
	for k, v := range t.pageRefs().entries {
		out[k] = v
	}
	return out
}

// SwapBaseline stores text as the latest snapshot and returns the previous one.
func (t *Tab) SwapBaseline(text string) (prev string, had bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	rs := t.pageRefs()
	prev, had = rs.baseline, rs.baseline != ""
	rs.baseline = text
	return prev, had
}

// IsRef reports whether a selector argument is a ref (@e3, @c2, or e3).
func IsRef(sel string) bool {
	s := strings.TrimPrefix(sel, "@")
	if len(s) < 2 || (s[0] != 'e' && s[0] != 'c') {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return strings.HasPrefix(sel, "@")
}

// ResolveRef turns a ref into a live element handle, or fails at once with a
// RefError: refs never wait, a gone element is reported in milliseconds.
func (t *Tab) ResolveRef(ctx context.Context, ref string) (*Element, *RefEntry, error) {
	id := strings.TrimPrefix(ref, "@")
	t.mu.Lock()
	rs := t.pageRefs()
	entry, ok := rs.entries[id]
	count := len(rs.entries)
	t.mu.Unlock()
	if !ok {
		return nil, nil, &RefError{Ref: id, Kind: RefUnknown, Count: count}
	}
	s := t.sessionFor(entry.FrameID)
	if s == nil {
		return nil, &entry, &RefError{Ref: id, Kind: RefFrameGone, Entry: &entry}
	}
	if entry.World != 0 {
		// A walker ref: the element is looked up by key in the first call
		// made on it, which fails as stale if it has left the page.
		return worldRef(s, entry), &entry, nil
	}
	res, err := cdproto.Call(ctx, s, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: cdproto.BackendNodeID(entry.BackendNodeID)})
	if err != nil || res.Object == nil {
		if ctx.Err() != nil {
			return nil, &entry, ctx.Err()
		}
		return nil, &entry, &RefError{Ref: id, Kind: RefStale, Entry: &entry}
	}
	return &Element{Session: s, ObjectID: res.Object.ObjectID, FrameID: entry.FrameID, BackendNodeID: entry.BackendNodeID}, &entry, nil
}

// IsStale reports whether err says an element left the page.
func IsStale(err error) bool {
	var je *JSError
	return errors.As(err, &je) && strings.Contains(je.Text, staleMarker)
}

// staleMarker is thrown by element functions when their node is detached.
const staleMarker = "BROWSE_STALE"

package commands

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	cdproto "github.com/chromedp/cdproto/cdp"

	"github.com/browsehq/browse/internal/browser"
	"github.com/browsehq/browse/internal/snapshot"
)

// SnapshotOptions are the parsed snapshot flags.
type SnapshotOptions struct {
	Render   snapshot.Options
	Scope    string // -s selector
	Diff     bool   // -D
	Annotate bool   // -a
	Output   string // -o path
	Cursor   bool   // -C
}

// ParseSnapshotFlags reads snapshot's flags (already split by Parse).
func ParseSnapshotFlags(flags map[string]string) (SnapshotOptions, error) {
	var o SnapshotOptions
	_, o.Render.Interactive = flags["-i"]
	_, o.Render.Compact = flags["-c"]
	_, o.Diff = flags["-D"]
	_, o.Annotate = flags["-a"]
	_, o.Cursor = flags["-C"]
	o.Scope = flags["-s"]
	o.Output = flags["-o"]
	if d, ok := flags["-d"]; ok {
		n, err := strconv.Atoi(d)
		if err != nil || n < 1 || n > 1000 {
			return o, UsageError(mustLookup("snapshot"), "-d takes a depth from 1 to 1000, got %q.", d)
		}
		o.Render.MaxDepth = n
	}
	if _, ok := flags["-s"]; ok && strings.TrimSpace(o.Scope) == "" {
		return o, UsageError(mustLookup("snapshot"), "-s needs a selector or ref.")
	}
	if o.Output != "" && !o.Annotate {
		return o, UsageError(mustLookup("snapshot"), "-o sets the annotated screenshot's path: use it with -a.")
	}
	return o, nil
}

func runSnapshot(ctx context.Context, c *Call) (string, error) {
	opts, err := ParseSnapshotFlags(c.Flags)
	if err != nil {
		return "", err
	}
	frame := c.Tab.CurrentFrame()
	if opts.Scope != "" {
		t, err := resolve(ctx, c, opts.Scope, false)
		if err != nil {
			return "", err
		}
		id, err := t.el.NodeBackendID(ctx)
		t.el.Release()
		if err != nil {
			return "", actionError(t, err)
		}
		opts.Render.ScopeBackendID = id
	}
	tree, err := c.Tab.AXTree(ctx, frame)
	if err != nil {
		return "", pageError(err)
	}
	res := snapshot.Render(tree, opts.Render, c.Tab.RefIDs())
	if opts.Render.ScopeBackendID != 0 && !res.Found {
		return "", Errorf("Scope to a visible element, or drop -s.", "%s is not in the accessibility tree (it is hidden, or purely presentational).", opts.Scope)
	}
	entries := make([]browser.RefEntry, 0, len(res.Refs))
	for _, r := range res.Refs {
		entries = append(entries, browser.RefEntry{ID: r.ID, FrameID: cdproto.FrameID(r.FrameID), BackendNodeID: r.BackendID, Role: r.Role, Name: r.Name})
	}
	text := res.Text
	if text == "" && opts.Render.Interactive {
		text = "(no accessible elements that are interactive)"
	} else if text == "" {
		text = "(no accessible elements)"
	}
	if opts.Cursor {
		extra, cursorRefs, err := cursorSection(ctx, c, frame)
		if err != nil {
			return "", pageError(err)
		}
		text += extra
		entries = append(entries, cursorRefs...)
	}
	c.Tab.SetRefs(entries)

	prev, had := c.Tab.SwapBaseline(text)
	out := text
	if opts.Diff {
		switch {
		case !had:
			out = "(first snapshot of this page: stored as the baseline; the next 'snapshot -D' shows what changed)\n" + text
		case prev == text:
			out = "(no changes since the previous snapshot)"
		default:
			out = strings.TrimRight(snapshot.Diff("previous", "current", prev, text), "\n")
		}
	}
	if opts.Annotate {
		path, err := annotate(ctx, c, opts.Output, entries)
		if err != nil {
			return "", err
		}
		out += "\n\nAnnotated screenshot: " + path
	}
	return out, nil
}

// cursorSection lists clickable elements the accessibility tree misses, as
// @c refs after a separator line.
func cursorSection(ctx context.Context, c *Call, frame cdproto.FrameID) (string, []browser.RefEntry, error) {
	found, err := c.Tab.Clickables(ctx, frame)
	if err != nil {
		return "", nil, err
	}
	if len(found) == 0 {
		return "\n--- cursor-interactive: none found ---", nil, nil
	}
	var b strings.Builder
	b.WriteString("\n--- cursor-interactive (clickable, not in the accessibility tree) ---")
	entries := make([]browser.RefEntry, 0, len(found))
	for i, f := range found {
		id := "c" + strconv.Itoa(i+1)
		fmt.Fprintf(&b, "\n@%s [%s] %q (%s)", id, f.Tag, f.Text, f.Why)
		entries = append(entries, browser.RefEntry{ID: id, FrameID: f.FrameID, BackendNodeID: f.BackendNodeID, Role: f.Tag, Name: f.Text})
	}
	return b.String(), entries, nil
}

func annotate(ctx context.Context, c *Call, path string, refs []browser.RefEntry) (string, error) {
	checked, err := outputPath(c, path, fmt.Sprintf("browse-annotated-%d.png", time.Now().UnixMilli()))
	if err != nil {
		return "", err
	}
	png, err := c.Tab.Annotate(ctx, refs)
	if err != nil {
		return "", pageError(err)
	}
	if err := writeOutput(checked, png); err != nil {
		return "", err
	}
	return checked, nil
}

func runAccessibility(ctx context.Context, c *Call) (string, error) {
	tree, err := c.Tab.AXTree(ctx, c.Tab.CurrentFrame())
	if err != nil {
		return "", pageError(err)
	}
	res := snapshot.Render(tree, snapshot.Options{NoRefs: true}, nil)
	if res.Text == "" {
		return "(no accessible elements)", nil
	}
	return res.Text, nil
}

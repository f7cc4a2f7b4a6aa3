package commands

import (
	"context"
	"errors"
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
	Viewport bool   // --viewport
	// MaxOutput is the byte budget of the printed text (--max-output);
	// 0 means no limit.
	MaxOutput int
}

// ParseSnapshotFlags reads snapshot's flags (already split by Parse).
func ParseSnapshotFlags(flags map[string]string) (SnapshotOptions, error) {
	var o SnapshotOptions
	_, o.Render.Interactive = flags["-i"]
	_, o.Render.Compact = flags["-c"]
	_, o.Diff = flags["-D"]
	_, o.Annotate = flags["-a"]
	_, o.Cursor = flags["-C"]
	_, o.Viewport = flags["--viewport"]
	o.Scope = flags["-s"]
	o.Output = flags["-o"]
	o.MaxOutput = snapshot.DefaultMaxOutput
	if m, ok := flags["--max-output"]; ok {
		n, err := strconv.Atoi(m)
		if err != nil || n < 0 {
			return o, UsageError(mustLookup("snapshot"), "--max-output takes a number of bytes (0 for no limit), got %q.", m)
		}
		o.MaxOutput = n
	}
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
	treeFrame := frame // where the tree is rooted: -s moves it to its element's frame
	var scope int64
	if opts.Scope != "" {
		t, err := resolve(ctx, c, opts.Scope, false)
		if err != nil {
			return "", err
		}
		scope, err = t.el.NodeBackendID(ctx)
		treeFrame = t.el.FrameID // a ref may point into another frame
		t.el.Release()
		if err != nil {
			return "", actionError(t, err)
		}
	}
	var tree *snapshot.Frame
	var area snapshot.Box
	if browser.UseAXEngine() {
		if opts.Viewport {
			tree, area, err = c.Tab.AXTreeNearViewport(ctx, treeFrame)
		} else {
			tree, err = c.Tab.AXTree(ctx, treeFrame)
		}
	} else {
		tree, area, err = c.Tab.Tree(ctx, treeFrame, browser.TreeOptions{Interactive: opts.Render.Interactive, Boxes: opts.Viewport, Scope: scope})
	}
	if opts.Viewport {
		opts.Render.Area = &area
	}
	if errors.Is(err, browser.ErrNotRendered) {
		return "", scopeNotFound(opts.Scope)
	}
	if err != nil {
		return "", pageError(err)
	}
	if tree.World == 0 {
		// getFullAXTree's tree is the whole frame: the renderer scopes it.
		opts.Render.ScopeBackendID = scope
	}
	res := snapshot.Render(tree, opts.Render, c.Tab.RefIDs())
	if opts.Render.ScopeBackendID != 0 && !res.Found {
		return "", scopeNotFound(opts.Scope)
	}
	entries := make([]browser.RefEntry, 0, len(res.Refs))
	for _, r := range res.Refs {
		entries = append(entries, refEntry(r))
	}
	text := res.Text
	if text == "" && opts.Render.Interactive {
		text = "(no accessible elements that are interactive)"
	} else if text == "" {
		text = "(no accessible elements)"
	}
	// The budget cuts what is printed; the baseline for -D keeps the whole
	// tree, so a diff never reports the cut as a change. A first -D prints
	// the tree under a header, which the budget makes room for.
	budget := opts.MaxOutput
	if opts.Diff && budget > 0 {
		budget = max(1, budget-len(firstDiffHeader)-1)
	}
	printed, _ := snapshot.Cut(text, budget, snapshot.CutNote(opts.MaxOutput))
	if opts.Viewport && res.Away > 0 {
		note := "\n" + snapshot.AwayNote(res.Away)
		text += note
		printed += note
	}
	if opts.Cursor {
		extra, cursorRefs, err := cursorSection(ctx, c, frame)
		if err != nil {
			return "", pageError(err)
		}
		// -C's section is capped by its own scan (200 elements), so it
		// follows the budgeted tree whole.
		text += extra
		printed += extra
		entries = append(entries, cursorRefs...)
	}

	prev, had := c.Tab.SwapBaseline(text)
	out := printed
	seen := map[string]bool{}
	if opts.Diff {
		switch {
		case !had:
			out = firstDiffHeader + "\n" + printed
		case prev == text:
			out = "(no changes since the previous snapshot)"
		default:
			out, _ = snapshot.Cut(strings.TrimRight(snapshot.Diff("previous", "current", prev, text), "\n"),
				opts.MaxOutput, snapshot.DiffCutNote(opts.MaxOutput))
		}
		// A diff prints only changes: the refs the agent already holds
		// stay valid while their elements are still there.
		for id := range c.Tab.Refs() {
			seen[id] = true
		}
	}
	// Only refs the agent has seen go into the ref map: one cut by the
	// budget (or left out by --viewport) answers "not in the current
	// snapshot" rather than acting on an element nobody read about.
	for id := range snapshot.PrintedRefs(out) {
		seen[id] = true
	}
	kept := entries[:0]
	for _, e := range entries {
		if seen[e.ID] {
			kept = append(kept, e)
		}
	}
	entries = kept
	c.Tab.SetRefs(entries)
	if opts.Annotate {
		path, err := annotate(ctx, c, opts.Output, entries)
		if err != nil {
			return "", err
		}
		out += "\n\nAnnotated screenshot: " + path
	}
	return out, nil
}

func scopeNotFound(scope string) error {
	return Errorf("Scope to a visible element, or drop -s.", "%s is not in the accessibility tree (it is hidden, or purely presentational).", scope)
}

// refEntry is the ref map's record of a rendered ref: by backend node id
// for a tree from getFullAXTree, by world and key for the walker's.
func refEntry(r snapshot.Ref) browser.RefEntry {
	e := browser.RefEntry{ID: r.ID, FrameID: cdproto.FrameID(r.FrameID), Role: r.Role, Name: r.Name}
	if r.World != 0 {
		e.World, e.Key = r.World, r.Key
	} else {
		e.BackendNodeID = r.Key
	}
	return e
}

const firstDiffHeader = "(first snapshot of this page: stored as the baseline; the next 'snapshot -D' shows what changed)"

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

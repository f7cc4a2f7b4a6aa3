package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/browsehq/browse/internal/browser"
	"github.com/browsehq/browse/internal/ring"
)

// listLog prints a capture buffer, one entry per line, or empties it with
// --clear. keep filters entries; line renders one.
func listLog[T any](c *Call, buf *ring.Buffer[T], noun, empty string, keep func(T) bool, line func(T) string) string {
	entries := buf.Items()
	if c.Has("--clear") {
		buf.Clear()
		return fmt.Sprintf("Cleared %d %s.", len(entries), noun)
	}
	var lines []string
	for _, e := range entries {
		if keep == nil || keep(e) {
			lines = append(lines, line(e))
		}
	}
	if len(lines) == 0 {
		return empty
	}
	return strings.Join(lines, "\n")
}

func runConsole(ctx context.Context, c *Call) (string, error) {
	empty, keep := "(no console messages)", func(browser.LogEntry) bool { return true }
	if c.Has("--errors") {
		empty = "(no console errors or warnings)"
		keep = func(e browser.LogEntry) bool { return e.Level == "error" || e.Level == "warning" }
	}
	return listLog(c, c.Browser.Console, "console messages", empty, keep, browser.LogEntry.String), nil
}

func runNetwork(ctx context.Context, c *Call) (string, error) {
	return listLog(c, c.Browser.Network, "network requests", "(no network requests)", nil,
		func(e *browser.NetEntry) string { return e.Snapshot().String() }), nil
}

func runDialog(ctx context.Context, c *Call) (string, error) {
	return listLog(c, c.Browser.Dialogs, "dialog records", "(no dialogs)", nil, browser.LogEntry.String), nil
}

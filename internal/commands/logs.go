package commands

import (
	"context"
	"fmt"
	"strings"
)

func runConsole(ctx context.Context, c *Call) (string, error) {
	entries := c.Browser.Console.Items()
	if c.Has("--clear") {
		c.Browser.Console.Clear()
		return fmt.Sprintf("Cleared %d console messages.", len(entries)), nil
	}
	var lines []string
	for _, e := range entries {
		if c.Has("--errors") && e.Level != "error" && e.Level != "warning" {
			continue
		}
		lines = append(lines, e.String())
	}
	if len(lines) == 0 {
		if c.Has("--errors") {
			return "(no console errors or warnings)", nil
		}
		return "(no console messages)", nil
	}
	return strings.Join(lines, "\n"), nil
}

func runNetwork(ctx context.Context, c *Call) (string, error) {
	entries := c.Browser.Network.Items()
	if c.Has("--clear") {
		c.Browser.Network.Clear()
		return fmt.Sprintf("Cleared %d network requests.", len(entries)), nil
	}
	if len(entries) == 0 {
		return "(no network requests)", nil
	}
	lines := make([]string, len(entries))
	for i, e := range entries {
		lines[i] = e.Snapshot().String()
	}
	return strings.Join(lines, "\n"), nil
}

func runDialog(ctx context.Context, c *Call) (string, error) {
	entries := c.Browser.Dialogs.Items()
	if c.Has("--clear") {
		c.Browser.Dialogs.Clear()
		return fmt.Sprintf("Cleared %d dialog records.", len(entries)), nil
	}
	if len(entries) == 0 {
		return "(no dialogs)", nil
	}
	lines := make([]string, len(entries))
	for i, e := range entries {
		lines[i] = e.String()
	}
	return strings.Join(lines, "\n"), nil
}

package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/browsehq/browse/internal/browser"
)

func runTabs(ctx context.Context, c *Call) (string, error) {
	if err := c.Browser.RefreshInfo(ctx); err != nil {
		return "", pageError(err)
	}
	active := c.Browser.ActiveID()
	var b strings.Builder
	for _, t := range c.Browser.Tabs() {
		mark := " "
		if t.ID == active {
			mark = "→"
		}
		title := t.Title()
		if title == "" {
			title = "(untitled)"
		}
		fmt.Fprintf(&b, "%s [%d] %s — %s\n", mark, t.ID, title, t.URL())
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// runCurrentURL prints the tab's URL without taking the tab's turn (url is
// NoTab), so it answers at once even while a slow load runs on the tab.
// The URL is the one the browser last reported for the tab.
func runCurrentURL(ctx context.Context, c *Call) (string, error) {
	t := c.Tab // set when --tab-id was given
	if t == nil {
		var err error
		if t, err = c.Browser.Tab(0); err != nil {
			return "", noSuchTab(err)
		}
	}
	return t.URL(), nil
}

func tabID(cmd, arg string) (int, error) {
	id, ok := ParseTabID(arg)
	if !ok {
		return 0, UsageError(mustLookup(cmd), "Tab id %q is not a positive number.", arg)
	}
	return id, nil
}

// ParseTabID reads a tab id argument ("3" or "#3"), as tab and closetab
// do; the daemon checks ownership with it, so both read the same tab.
func ParseTabID(arg string) (int, bool) {
	id, err := strconv.Atoi(strings.TrimPrefix(arg, "#"))
	return id, err == nil && id > 0
}

func noSuchTab(err error) error {
	if errors.Is(err, browser.ErrNoTab) {
		return &Error{Status: 404, Msg: "No such tab: " + strings.TrimPrefix(err.Error(), browser.ErrNoTab.Error()+": ") + ".", Hint: "Run 'tabs' to list open tabs."}
	}
	return pageError(err)
}

func runTab(ctx context.Context, c *Call) (string, error) {
	id, err := tabID("tab", c.Args[0])
	if err != nil {
		return "", err
	}
	t, err := c.Browser.Activate(ctx, id)
	if err != nil {
		return "", noSuchTab(err)
	}
	return fmt.Sprintf("Switched to tab %d: %s", t.ID, t.URL()), nil
}

func runNewTab(ctx context.Context, c *Call) (string, error) {
	if len(c.Args) == 1 {
		// A refused URL must not leave a blank tab behind.
		if _, err := checkURL(c, c.Args[0]); err != nil {
			return "", err
		}
	}
	var t *browser.Tab
	var err error
	if c.Owner != "" {
		t, err = c.Browser.NewTabFor(ctx, c.Owner)
	} else {
		t, err = c.Browser.NewTab(ctx, "")
	}
	if err != nil {
		return "", pageError(err)
	}
	msg := fmt.Sprintf("Opened tab %d", t.ID)
	if len(c.Args) == 1 {
		sub := *c
		sub.Tab = t
		if err := t.Acquire(ctx); err != nil {
			return "", pageError(err)
		}
		nav, err := runGoto(ctx, &sub)
		t.Release()
		if err != nil {
			return "", err
		}
		msg += ": " + nav
	}
	if c.Owner != "" {
		// A paired agent gets the reference's answer: its tab, to name in
		// every later command (its tabs never become the active one).
		out, _ := json.Marshal(struct {
			TabID int    `json:"tabId"`
			Owner string `json:"owner"`
			URL   string `json:"url"`
			Hint  string `json:"hint"`
		}{t.ID, c.Owner, t.URL(), fmt.Sprintf(`Include "tabId": %d in subsequent commands to target this tab.`, t.ID)})
		return string(out), nil
	}
	if c.Has("--json") {
		out, _ := json.Marshal(struct {
			TabID int    `json:"tabId"`
			URL   string `json:"url"`
		}{t.ID, t.URL()})
		return string(out), nil
	}
	return msg, nil
}

func runCloseTab(ctx context.Context, c *Call) (string, error) {
	id := 0
	if c.Tab != nil {
		id = c.Tab.ID // --tab-id (a "tabId"): that tab, not the active one
	}
	if len(c.Args) == 1 {
		var err error
		if id, err = tabID("closetab", c.Args[0]); err != nil {
			return "", err
		}
	}
	t, err := c.Browser.CloseTab(ctx, id)
	if err != nil {
		return "", noSuchTab(err)
	}
	active, _ := c.Browser.Tab(0)
	return fmt.Sprintf("Closed tab %d. Active tab: %d (%s)", t.ID, active.ID, active.URL()), nil
}

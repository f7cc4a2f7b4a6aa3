package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/browsehq/browse/internal/browser"
	"github.com/browsehq/browse/internal/snapshot"
)

// runDiff loads two URLs one after the other in a scratch tab and diffs their
// clean text. The scratch tab never shows in the tab list and is closed on
// every path, so the agent's tabs, active tab and refs stay as they were.
func runDiff(ctx context.Context, c *Call) (string, error) {
	// Validate both before opening anything.
	url1, err := checkURL(c, c.Args[0])
	if err != nil {
		return "", err
	}
	url2, err := checkURL(c, c.Args[1])
	if err != nil {
		return "", err
	}
	tab, err := c.Browser.OpenScratchTab(ctx)
	if err != nil {
		return "", pageError(err)
	}
	defer c.Browser.CloseScratchTab(tab)

	first, err := loadText(ctx, c, tab, url1)
	if err != nil {
		return "", err
	}
	second, err := loadText(ctx, c, tab, url2)
	if err != nil {
		return "", err
	}
	return diffReport(first, second), nil
}

// loadedPage is the clean text of one page and the HTTP status it came with
// (0 when there was none: file://, about:blank).
type loadedPage struct {
	url    string
	status int64
	text   string
}

func loadText(ctx context.Context, c *Call, tab *browser.Tab, url string) (page loadedPage, err error) {
	defer func() {
		if err != nil && tab.Alive() != nil {
			// Not one of the agent's tabs: say so, rather than "run 'tabs'".
			err = &Error{Status: 502, Msg: fmt.Sprintf("The diff's own page crashed or closed while loading %s; your tabs are untouched.", url),
				Hint: "Run the diff again; if it keeps failing, open the URL with 'newtab' and look."}
		}
	}()
	status, err := tab.Navigate(ctx, url)
	if err != nil {
		return loadedPage{}, diffNavError(c, url, err)
	}
	// A page that moves on by itself (a script or meta refresh) is read
	// once it has.
	var text string
	err = retryAcrossNavigation(ctx, func() error {
		obj, err := tab.Evaluate(ctx, "("+cleanTextJS+").call(document)")
		text = browser.String(obj)
		return err
	})
	if err != nil {
		return loadedPage{}, pageError(err)
	}
	return loadedPage{url: url, status: status, text: text}, nil
}

// diffNavError is navError, except that a timeout's hint does not speak of a
// tab the agent cannot see.
func diffNavError(c *Call, url string, err error) error {
	if errors.Is(err, browser.ErrNavTimeout) {
		return &Error{Status: 504, Msg: fmt.Sprintf("Loading %s for the diff timed out after %s.", url, c.Timeout.Round(time.Millisecond)),
			Hint: "Retry with a longer --timeout MS, or check the URL; your tabs were not touched."}
	}
	return navError(c, url, err)
}

// diffReport is the unified diff of the two texts, labelled with the URLs,
// after a line for any page that answered with an HTTP error (its error
// page's text is still compared).
func diffReport(a, b loadedPage) string {
	var out strings.Builder
	for _, p := range []loadedPage{a, b} {
		if p.status >= 400 {
			fmt.Fprintf(&out, "Note: %s answered HTTP %d; its error page's text is compared.\n", p.url, p.status)
		}
	}
	d := snapshot.Diff(a.url, b.url, a.text, b.text)
	if d == "" {
		fmt.Fprintf(&out, "No differences: %s and %s have the same text (%s).", a.url, b.url, lineCount(a.text))
		return out.String()
	}
	out.WriteString(strings.TrimRight(d, "\n"))
	return out.String()
}

func lineCount(text string) string {
	n := 0
	if text != "" {
		n = strings.Count(text, "\n") + 1
	}
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}

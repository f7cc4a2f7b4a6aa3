package commands

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/browsehq/browse/internal/browser"
	"github.com/browsehq/browse/internal/safepath"
	"github.com/browsehq/browse/internal/ssrf"
)

func runGoto(ctx context.Context, c *Call) (string, error) {
	u, err := checkURL(c, c.Args[0])
	if err != nil {
		return "", err
	}
	status, err := c.Tab.Navigate(ctx, u)
	return navigated(c, u, status, err)
}

// checkURL is the one validation every URL the daemon loads or fetches goes
// through (goto, newtab, diff, download and each of its redirects, scrape,
// state load): it normalises the URL, keeps file:// URLs inside the safe
// directories, and refuses metadata services and link-local hosts, however
// spelt, and names that resolve to them.
func checkURL(c *Call, raw string) (string, error) {
	home, _ := os.UserHomeDir()
	u, err := NormalizeURL(raw, c.Daemon.Workspace(), home)
	if err != nil {
		return "", Errorf("Use an http(s):// URL, file:///abs/path, or about:blank.", "Cannot open %q: %v.", raw, err)
	}
	if c.Strict && !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") && u != "about:blank" {
		// A paired agent reads this machine's files through file:// as
		// well as through any path argument.
		return "", &Error{Status: 403, Msg: fmt.Sprintf("Refusing to open %s: paired agents may open http(s) URLs and about:blank only.", u),
			Hint: "Files on the user's machine are not for remote agents."}
	}
	if p := FilePath(u); p != "" {
		if _, err := safepath.Check(p, c.Daemon.SafeRoots()); err != nil {
			return "", Errorf("Put the file under the workspace or the temp directory.", "Refusing to open %s: %v.", u, err)
		}
	}
	if parsed, err := url.Parse(u); err == nil && (parsed.Scheme == "http" || parsed.Scheme == "https") {
		if err := ssrf.CheckName(context.Background(), ssrf.DefaultResolver, parsed.Hostname()); err != nil {
			return "", &Error{Status: 403, Msg: fmt.Sprintf("Refusing to open %s: %v.", u, err),
				Hint: "browse does not load cloud metadata services or link-local addresses; loopback and private hosts are fine."}
		}
	}
	return u, nil
}

func runBack(ctx context.Context, c *Call) (string, error) {
	status, err := c.Tab.History(ctx, -1)
	return navigated(c, "", status, err)
}

func runForward(ctx context.Context, c *Call) (string, error) {
	status, err := c.Tab.History(ctx, +1)
	return navigated(c, "", status, err)
}

func runReload(ctx context.Context, c *Call) (string, error) {
	status, err := c.Tab.Reload(ctx)
	return navigated(c, "", status, err)
}

// navigated words the outcome of a navigation: "Navigated to URL (200)".
func navigated(c *Call, target string, status int64, err error) (string, error) {
	if err != nil {
		return "", navError(c, target, err)
	}
	u := c.Tab.URL()
	if u == "" {
		u = target
	}
	if status > 0 {
		return fmt.Sprintf("Navigated to %s (%d)", u, status), nil
	}
	return "Navigated to " + u, nil
}

func navError(c *Call, target string, err error) error {
	var ne *browser.NavError
	switch {
	case errors.As(err, &ne):
		return &Error{Status: 502, Msg: fmt.Sprintf("Could not load %s: %s.", ne.URL, ne.Code), Hint: "Cause: " + browser.NetErrorHint(ne.Code) + "."}
	case errors.Is(err, browser.ErrNavTimeout):
		if target == "" {
			target = c.Tab.URL()
		}
		return &Error{Status: 504, Msg: fmt.Sprintf("Navigation to %s timed out after %s; loading was stopped.", target, c.Timeout.Round(time.Millisecond)),
			Hint: "The page may be slow or wedged: retry with --timeout MS, or check the URL. The tab is still usable."}
	}
	return pageError(err)
}

func runWait(ctx context.Context, c *Call) (string, error) {
	// An optional trailing number of milliseconds overrides the deadline.
	args := c.Args
	if n := len(args); n > 0 {
		if ms, err := strconv.Atoi(args[n-1]); err == nil && (n == 2 || c.Has("--networkidle") || c.Has("--load") || c.Has("--domcontentloaded")) {
			if ms <= 0 {
				return "", Errorf("Give a positive number of milliseconds.", "Bad wait time %q.", args[n-1])
			}
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), time.Duration(ms)*time.Millisecond)
			defer cancel()
			c.Timeout = time.Duration(ms) * time.Millisecond
			args = args[:n-1]
		}
	}
	var what string
	var err error
	switch {
	case c.Has("--networkidle"):
		what, err = "network idle", c.Tab.WaitNetworkIdle(ctx, 500*time.Millisecond)
	case c.Has("--load"):
		what, err = "load event", waitReadyState(ctx, c.Tab, "complete")
	case c.Has("--domcontentloaded"):
		what, err = "DOMContentLoaded", waitReadyState(ctx, c.Tab, "interactive")
	case len(args) == 1 && strings.HasPrefix(args[0], "@"):
		what, err = args[0], waitRefVisible(ctx, c, args[0])
	case len(args) == 1:
		what, err = args[0], waitSelector(ctx, c.Tab, args[0])
	default:
		return "", UsageError(mustLookup("wait"), "Say what to wait for: a selector, --networkidle, --load or --domcontentloaded.")
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", &Error{Status: 504, Msg: fmt.Sprintf("Timed out after %s waiting for %s.", c.Timeout.Round(time.Millisecond), what),
				Hint: "Run 'snapshot -i' to see what is on the page, or wait longer: 'wait <sel> <ms>'."}
		}
		return "", pageError(err)
	}
	return "Done waiting for " + what, nil
}

// waitReadyState resolves once document.readyState reaches state (or later).
// It retries across navigations, which replace the document mid-wait.
func waitReadyState(ctx context.Context, tab *browser.Tab, state string) error {
	expr := `new Promise(r => { const ok = () => document.readyState === 'complete' || document.readyState === '` + state + `';
		if (ok()) return r(true); document.addEventListener('readystatechange', () => ok() && r(true)); })`
	return retryAcrossNavigation(ctx, func() error {
		_, err := tab.Evaluate(ctx, expr)
		return err
	})
}

// waitSelector waits until the selector matches a visible element, watching
// DOM mutations in the page rather than polling from here.
func waitSelector(ctx context.Context, tab *browser.Tab, sel string) error {
	// Validate first, so a malformed selector fails at once instead of timing out.
	if _, _, err := tab.QueryCSS(ctx, tab.CurrentFrame(), sel); err != nil {
		var se *browser.SelectorError
		if !errors.As(err, &se) || se.Invalid != "" {
			return selectorError(err)
		}
	}
	expr := `new Promise(r => {
		const sel = ` + strconv.Quote(sel) + `;
		const visible = () => { for (const el of document.querySelectorAll(sel)) { const b = el.getBoundingClientRect(), s = getComputedStyle(el);
			if (b.width > 0 && b.height > 0 && s.visibility !== 'hidden') return true } return false };
		if (visible()) return r(true);
		const mo = new MutationObserver(() => { if (visible()) { mo.disconnect(); r(true) } });
		mo.observe(document, {subtree: true, childList: true, attributes: true});
		const tick = setInterval(() => { if (visible()) { clearInterval(tick); mo.disconnect(); r(true) } }, 100);
	})`
	return retryAcrossNavigation(ctx, func() error {
		_, err := tab.EvaluateIn(ctx, tab.CurrentFrame(), expr)
		return err
	})
}

// waitRefVisible waits until a ref's element is visible; a stale ref fails at once.
func waitRefVisible(ctx context.Context, c *Call, ref string) error {
	t, err := resolve(ctx, c, ref, false)
	if err != nil {
		return err
	}
	defer t.el.Release()
	for {
		obj, err := t.el.Call(ctx, stateChecks["visible"])
		if err != nil {
			return actionError(t, err)
		}
		if browser.String(obj) == "true" {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func retryAcrossNavigation(ctx context.Context, f func() error) error {
	for {
		err := f()
		if !errors.Is(err, browser.ErrContextGone) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

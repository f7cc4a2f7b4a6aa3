package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
)

// NavError is a navigation that the browser refused or that failed to load.
type NavError struct {
	URL  string
	Code string // net::ERR_…
}

func (e *NavError) Error() string {
	return fmt.Sprintf("could not load %s: %s", e.URL, e.Code)
}

// ErrNavTimeout is returned when the page did not reach DOMContentLoaded in time.
var ErrNavTimeout = errors.New("navigation timed out")

// navWatch subscribes to the events that tell a navigation's progress. It is
// created before the navigation starts so no event can slip past.
type navWatch struct {
	lifecycle, navigated, sameDoc, response <-chan jsonv2.Value
	cancels                                 []func()
}

func (t *Tab) watchNavigation() *navWatch {
	w := &navWatch{}
	sub := func(method string) <-chan jsonv2.Value {
		ch, cancel := t.Session.Subscribe(method)
		w.cancels = append(w.cancels, cancel)
		return ch
	}
	w.lifecycle = sub("Page.lifecycleEvent")
	w.navigated = sub("Page.frameNavigated")
	w.sameDoc = sub("Page.navigatedWithinDocument")
	w.response = sub("Network.responseReceived")
	return w
}

func (w *navWatch) stop() {
	for _, c := range w.cancels {
		c()
	}
}

// wait blocks until the main frame's document for loaderID reaches
// DOMContentLoaded. With loaderID "" it first learns the loader from the next
// main-frame navigation (back, forward, reload). It returns the document's
// HTTP status, or 0 when there was none (file://, about:blank, same-document).
func (w *navWatch) wait(ctx context.Context, t *Tab, loaderID cdproto.LoaderID) (int64, error) {
	main := t.MainFrameID()
	var status int64
	for {
		select {
		case <-ctx.Done():
			return status, ErrNavTimeout
		case raw, ok := <-w.navigated:
			if !ok {
				return 0, ErrTabGone
			}
			var e page.EventFrameNavigated
			if decodeInto(raw, &e) && e.Frame.ID == main && loaderID == "" {
				loaderID = e.Frame.LoaderID
				if e.Type == page.NavigationTypeBackForwardCacheRestore {
					return status, nil // restored whole: no load events follow
				}
			}
		case raw, ok := <-w.sameDoc:
			if !ok {
				return 0, ErrTabGone
			}
			var e page.EventNavigatedWithinDocument
			if decodeInto(raw, &e) && e.FrameID == main && loaderID == "" {
				return status, nil
			}
		case raw, ok := <-w.response:
			if !ok {
				return 0, ErrTabGone
			}
			var e network.EventResponseReceived
			if decodeInto(raw, &e) && e.Type == network.ResourceTypeDocument && e.FrameID == main &&
				(loaderID == "" || e.LoaderID == loaderID) && e.Response != nil {
				status = e.Response.Status
			}
		case raw, ok := <-w.lifecycle:
			if !ok {
				return 0, ErrTabGone
			}
			var e page.EventLifecycleEvent
			if decodeInto(raw, &e) && e.FrameID == main && e.LoaderID == loaderID && loaderID != "" &&
				(e.Name == "DOMContentLoaded" || e.Name == "load") {
				return status, nil
			}
		}
	}
}

// Navigate loads url in the tab and waits for DOMContentLoaded.
func (t *Tab) Navigate(ctx context.Context, url string) (int64, error) {
	w := t.watchNavigation()
	defer w.stop()
	res, err := cdproto.Call(ctx, t.Session, page.Navigate, page.NavigateParams{URL: url})
	if err != nil {
		return 0, t.navFailure(ctx, err)
	}
	if res.ErrorText != "" {
		return 0, &NavError{URL: url, Code: res.ErrorText}
	}
	if res.IsDownload {
		return 0, fmt.Errorf("%s is a download, not a page", url)
	}
	if res.LoaderID == "" {
		return 0, nil // same-document navigation (#fragment): already there
	}
	status, err := w.wait(ctx, t, res.LoaderID)
	return status, t.navFailure(ctx, err)
}

// History moves through the tab's history by delta (-1 back, +1 forward).
func (t *Tab) History(ctx context.Context, delta int) (int64, error) {
	h, err := cdproto.Call(ctx, t.Session, page.GetNavigationHistory, cdproto.Empty{})
	if err != nil {
		return 0, err
	}
	i := int(h.CurrentIndex) + delta
	if i < 0 || i >= len(h.Entries) {
		if delta < 0 {
			return 0, errors.New("there is no previous page in this tab's history")
		}
		return 0, errors.New("there is no next page in this tab's history")
	}
	w := t.watchNavigation()
	defer w.stop()
	if _, err := cdproto.Call(ctx, t.Session, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: h.Entries[i].ID}); err != nil {
		return 0, err
	}
	status, err := w.wait(ctx, t, "")
	return status, t.navFailure(ctx, err)
}

// Reload reloads the page and waits for DOMContentLoaded.
func (t *Tab) Reload(ctx context.Context) (int64, error) {
	w := t.watchNavigation()
	defer w.stop()
	if _, err := cdproto.Call(ctx, t.Session, page.Reload, page.ReloadParams{}); err != nil {
		return 0, err
	}
	status, err := w.wait(ctx, t, "")
	return status, t.navFailure(ctx, err)
}

// navFailure stops a load that ran out of time, so a wedged page does not keep
// loading in the background, and passes other errors through.
func (t *Tab) navFailure(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, ErrNavTimeout) || errors.Is(err, context.DeadlineExceeded) {
		stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 500*time.Millisecond)
		defer cancel()
		t.Session.Call(stopCtx, "Page.stopLoading", nil, nil)
		return ErrNavTimeout
	}
	return err
}

// NetErrorHint explains a Chromium net::ERR_ code in words an agent can act on.
func NetErrorHint(code string) string {
	switch {
	case strings.Contains(code, "NAME_NOT_RESOLVED"):
		return "the host name does not resolve: check the spelling, or that this machine can reach it"
	case strings.Contains(code, "CONNECTION_REFUSED"):
		return "nothing is listening there: is the server running, and on that port?"
	case strings.Contains(code, "CONNECTION_RESET"), strings.Contains(code, "EMPTY_RESPONSE"):
		return "the server closed the connection without an answer"
	case strings.Contains(code, "TIMED_OUT"):
		return "the server did not answer in time"
	case strings.Contains(code, "CERT"), strings.Contains(code, "SSL"):
		return "the site's TLS certificate was rejected"
	case strings.Contains(code, "FILE_NOT_FOUND"):
		return "no file at that path"
	case strings.Contains(code, "ABORTED"):
		return "the load was aborted (a download, or another navigation replaced it)"
	case strings.Contains(code, "BLOCKED"):
		return "the browser blocked the load"
	}
	return "check the URL and try again"
}

// LoadWaitJS resolves once the document's load event has fired.
const LoadWaitJS = `new Promise(r => document.readyState === 'complete' ? r() : addEventListener('load', () => r(), {once: true}))`

// SetContent replaces the tab's page with html. It first loads a fresh
// about:blank, so the markup never inherits another site's origin, cookies
// or storage, then waits up to loadWait for the markup's load event (its
// images and styles). The markup is in place either way: pending says that
// some of what it loads had not arrived.
func (t *Tab) SetContent(ctx context.Context, html string, loadWait time.Duration) (pending bool, err error) {
	if _, err := t.Navigate(ctx, "about:blank"); err != nil {
		return false, err
	}
	if _, err := cdproto.Call(ctx, t.Session, page.SetDocumentContent, page.SetDocumentContentParams{FrameID: t.MainFrameID(), HTML: html}); err != nil {
		return false, err
	}
	wctx, cancel := context.WithTimeout(ctx, loadWait)
	defer cancel()
	if _, err := t.Evaluate(wctx, LoadWaitJS); err != nil {
		if wctx.Err() != nil {
			return true, nil
		}
		return false, err
	}
	return false, nil
}

package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/chromedp/cdproto/browser"
	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"

	"github.com/browsehq/browse/internal/cdp"
)

// UserAgent is the browser's own User-Agent header, for requests the daemon
// makes on the browser's behalf.
func (b *Browser) UserAgent(ctx context.Context) (string, error) {
	v, err := cdproto.Call(ctx, b.root, browser.GetVersion, cdproto.Empty{})
	if err != nil {
		return "", err
	}
	return v.UserAgent, nil
}

// NativeDownload is a file the browser itself fetched.
type NativeDownload struct {
	URL string // where the bytes came from, after redirects
	// SuggestedName is the browser's name for the file (Content-Disposition,
	// else the URL); empty when the browser showed the URL as a page.
	SuggestedName string
	Path          string // the file, inside Dir
	Dir           string // a private temp dir the caller removes
	MIME          string // known only when the URL was shown as a page
	Size          int64
}

// ErrDownloadTooLarge is returned when a download passes its size cap.
var ErrDownloadTooLarge = errors.New("the download is larger than the size cap")

// ErrDownloadCanceled is returned when the browser gave up on a download.
var ErrDownloadCanceled = errors.New("the browser canceled the download")

// downloadTurn serialises browser-native downloads: where downloads are
// saved is one setting for the whole browser.
var downloadTurn = make(chan struct{}, 1)

// DownloadNative has the browser load url in a hidden page the agent never
// sees (not a tab: it is not listed and never active) and save what comes
// back. allow vets every request the page makes, redirect hops included; a
// refusal ends the download with allow's error. A URL the browser shows as
// a page instead of downloading is saved from the page's resource content.
// The caller removes the returned Dir.
func (b *Browser) DownloadNative(ctx context.Context, url string, maxBytes int64, allow func(url string) error) (*NativeDownload, error) {
	select {
	case downloadTurn <- struct{}{}:
		defer func() { <-downloadTurn }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	dir, err := os.MkdirTemp("", "browse-download-")
	if err != nil {
		return nil, err
	}
	d, err := b.downloadInto(ctx, dir, url, maxBytes, allow)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return d, nil
}

func (b *Browser) downloadInto(ctx context.Context, dir, url string, maxBytes int64, allow func(string) error) (*NativeDownload, error) {
	// Subscribe before anything can start, so no event slips past.
	willBegin, stopBegin := b.root.Subscribe("Browser.downloadWillBegin")
	defer stopBegin()
	progress, stopProgress := b.root.Subscribe("Browser.downloadProgress")
	defer stopProgress()

	yes := true
	if _, err := cdproto.Call(ctx, b.root, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &yes,
	}); err != nil {
		return nil, fmt.Errorf("allowing downloads: %w", err)
	}
	defer Afterward(func(ctx context.Context) {
		cdproto.Call(ctx, b.root, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorDefault})
	})

	scratch, err := b.openHiddenPage(ctx)
	if err != nil {
		return nil, err
	}
	defer Afterward(scratch.close)

	gate := newRequestGate(scratch.session, allow)
	defer gate.stop()
	if err := scratch.session.Pipeline(ctx,
		cdp.PipelinedCall{Method: "Page.enable"},
		cdp.PipelinedCall{Method: "Fetch.enable", Params: &fetch.EnableParams{}},
	); err != nil {
		return nil, fmt.Errorf("preparing the download page: %w", err)
	}
	gate.start(ctx)

	nav, err := cdproto.Call(ctx, scratch.session, page.Navigate, page.NavigateParams{URL: url})
	switch {
	case gate.refusal() != nil:
		return nil, gate.refusal()
	case err != nil:
		return nil, err
	case nav.IsDownload:
		return waitDownload(ctx, b.root, willBegin, progress, cdproto.FrameID(scratch.id), dir, maxBytes)
	case nav.ErrorText != "":
		return nil, &NavError{URL: url, Code: nav.ErrorText}
	}
	return savePageResource(ctx, scratch.session, dir, maxBytes)
}

// hiddenPage is a page target created hidden: Chromium attaches it as type
// "other", so it never becomes one of the agent's tabs.
type hiddenPage struct {
	b       *Browser
	id      target.ID
	session *cdp.Session
}

func (b *Browser) openHiddenPage(ctx context.Context) (*hiddenPage, error) {
	yes := true
	res, err := cdproto.Call(ctx, b.root, target.CreateTarget, target.CreateTargetParams{URL: "about:blank", Background: &yes, Hidden: &yes})
	if err != nil {
		return nil, fmt.Errorf("opening a hidden page: %w", err)
	}
	p := &hiddenPage{b: b, id: res.TargetID}
	attached, err := cdproto.Call(ctx, b.root, target.AttachToTarget, target.AttachToTargetParams{TargetID: res.TargetID, Flatten: &yes})
	if err != nil {
		Afterward(p.close)
		return nil, fmt.Errorf("attaching to the hidden page: %w", err)
	}
	p.session = b.conn.Session(string(attached.SessionID))
	return p, nil
}

func (p *hiddenPage) close(ctx context.Context) {
	cdproto.Call(ctx, p.b.root, target.CloseTarget, target.CloseTargetParams{TargetID: p.id})
}

// requestGate answers the hidden page's paused requests: each goes on only
// if allow accepts its URL. The first refusal of the document (the URL or
// one of its redirects) is kept for the caller.
type requestGate struct {
	s       *cdp.Session
	allow   func(string) error
	paused  <-chan jsonv2.Value
	unsub   func()
	done    chan struct{}
	mu      sync.Mutex
	refused error
}

func newRequestGate(s *cdp.Session, allow func(string) error) *requestGate {
	paused, unsub := s.Subscribe("Fetch.requestPaused")
	return &requestGate{s: s, allow: allow, paused: paused, unsub: unsub, done: make(chan struct{})}
}

func (g *requestGate) start(ctx context.Context) {
	go func() {
		for {
			select {
			case raw, ok := <-g.paused:
				if !ok {
					return
				}
				g.answer(ctx, raw)
			case <-g.done:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
}

func (g *requestGate) answer(ctx context.Context, raw jsonv2.Value) {
	var ev fetch.EventRequestPaused
	if !decodeInto(raw, &ev) || ev.Request == nil {
		return
	}
	if err := g.allow(ev.Request.URL); err != nil {
		g.mu.Lock()
		if g.refused == nil && ev.ResourceType == network.ResourceTypeDocument {
			g.refused = err // the download itself, or a hop of it
		}
		g.mu.Unlock()
		cdproto.Call(ctx, g.s, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonAccessDenied})
		return
	}
	cdproto.Call(ctx, g.s, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
}

func (g *requestGate) refusal() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.refused
}

func (g *requestGate) stop() {
	close(g.done)
	g.unsub()
}

// waitDownload follows the download the hidden page (frame) started until
// the browser reports it completed or canceled. The start is read first:
// progress events wait in their buffer meanwhile, so none is skipped.
func waitDownload(ctx context.Context, root *cdp.Session, willBegin, progress <-chan jsonv2.Value, frame cdproto.FrameID, dir string, maxBytes int64) (*NativeDownload, error) {
	var d *NativeDownload
	for d == nil {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case raw, ok := <-willBegin:
			var ev browser.EventDownloadWillBegin
			if !ok {
				return nil, ErrTabGone
			}
			if decodeInto(raw, &ev) && ev.FrameID == frame {
				d = &NativeDownload{URL: ev.URL, SuggestedName: ev.SuggestedFilename, Dir: dir, Path: filepath.Join(dir, ev.GUID)}
			}
		}
	}
	guid := filepath.Base(d.Path)
	cancel := func() {
		Afterward(func(ctx context.Context) {
			cdproto.Call(ctx, root, browser.CancelDownload, browser.CancelDownloadParams{GUID: guid})
		})
	}
	for {
		select {
		case <-ctx.Done():
			cancel()
			return nil, ctx.Err()
		case raw, ok := <-progress:
			var ev browser.EventDownloadProgress
			if !ok {
				return nil, ErrTabGone
			}
			if !decodeInto(raw, &ev) || ev.GUID != guid {
				continue // another download's
			}
			switch {
			case int64(ev.ReceivedBytes) > maxBytes || int64(ev.TotalBytes) > maxBytes:
				cancel()
				return nil, ErrDownloadTooLarge
			case ev.State == browser.DownloadProgressStateCanceled:
				return nil, ErrDownloadCanceled
			case ev.State == browser.DownloadProgressStateCompleted:
				d.Size = int64(ev.ReceivedBytes)
				return d, nil
			}
		}
	}
}

// savePageResource saves the document the hidden page shows (the URL was
// not a download: an image, a PDF viewer, a text file) once it has loaded.
func savePageResource(ctx context.Context, s *cdp.Session, dir string, maxBytes int64) (*NativeDownload, error) {
	yes := true
	if _, err := cdproto.Call(ctx, s, runtime.Evaluate, runtime.EvaluateParams{Expression: LoadWaitJS, AwaitPromise: &yes}); err != nil {
		return nil, fmt.Errorf("waiting for the page to load: %w", err)
	}
	tree, err := cdproto.Call(ctx, s, page.GetResourceTree, cdproto.Empty{})
	if err != nil {
		return nil, err
	}
	frame := tree.FrameTree.Frame
	res, err := cdproto.Call(ctx, s, page.GetResourceContent, page.GetResourceContentParams{FrameID: frame.ID, URL: frame.URL})
	if err != nil {
		return nil, fmt.Errorf("reading the page's content: %w", err)
	}
	if int64(len(res.Content)) > maxBytes {
		return nil, ErrDownloadTooLarge
	}
	p := filepath.Join(dir, "page")
	if err := os.WriteFile(p, res.Content, 0o600); err != nil {
		return nil, err
	}
	return &NativeDownload{URL: frame.URL, Path: p, Dir: dir, MIME: frame.MimeType, Size: int64(len(res.Content))}, nil
}

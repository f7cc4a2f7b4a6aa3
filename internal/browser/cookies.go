package browser

import (
	"context"
	"fmt"
	"maps"
	"strings"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/storage"

	"github.com/browsehq/browse/internal/cdp"
)

// Page state that belongs to the whole browser rather than to one tab:
// cookies, the extra request headers and the user agent override. The
// headers and the user agent are kept in the Browser and applied to every
// session as it attaches (see Tab.enableSession), so tabs opened later get
// them too, as the default viewport does.

// Cookies returns every cookie of the browser's default context.
func (b *Browser) Cookies(ctx context.Context) ([]*network.Cookie, error) {
	res, err := cdproto.Call(ctx, b.root, storage.GetCookies, storage.GetCookiesParams{})
	if err != nil {
		return nil, err
	}
	return res.Cookies, nil
}

// SetCookies sets cookies in one call: Chromium applies all of them or
// reports an error.
func (b *Browser) SetCookies(ctx context.Context, cookies []*network.CookieParam) error {
	if len(cookies) == 0 {
		return nil
	}
	_, err := cdproto.Call(ctx, b.root, storage.SetCookies, storage.SetCookiesParams{Cookies: cookies})
	return err
}

// ExtraHeaders returns a copy of the headers sent on every request.
func (b *Browser) ExtraHeaders() map[string]string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return maps.Clone(b.extraHeaders)
}

// SetExtraHeader adds, replaces (names compare case-insensitively) or, with
// an empty value, removes one header sent on every request of every tab,
// and applies the new set to every open session. It returns the headers now
// in force. If the browser refuses the new set, the old one is put back.
func (b *Browser) SetExtraHeader(ctx context.Context, name, value string) (map[string]string, error) {
	b.overrides.Lock() // one update at a time, rollback included
	defer b.overrides.Unlock()
	b.mu.Lock()
	old := maps.Clone(b.extraHeaders)
	next := maps.Clone(b.extraHeaders)
	if next == nil {
		next = map[string]string{}
	}
	for k := range next {
		if strings.EqualFold(k, name) {
			delete(next, k)
		}
	}
	if value != "" {
		next[name] = value
	}
	b.extraHeaders = next
	b.mu.Unlock()

	if err := b.applyToSessions(ctx, func(ctx context.Context, s *cdp.Session) error { return setHeaders(ctx, s, next) }); err != nil {
		b.mu.Lock()
		b.extraHeaders = old
		b.mu.Unlock()
		Afterward(func(ctx context.Context) {
			b.applyToSessions(ctx, func(ctx context.Context, s *cdp.Session) error { return setHeaders(ctx, s, old) })
		})
		return nil, err
	}
	return maps.Clone(next), nil
}

func setHeaders(ctx context.Context, s *cdp.Session, h map[string]string) error {
	headers := make(network.Headers, len(h))
	for k, v := range h {
		headers[k] = v
	}
	_, err := cdproto.Call(ctx, s, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: headers})
	return err
}

// UserAgentOverride is the user agent set by SetUserAgent ("" when none is).
func (b *Browser) UserAgentOverride() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.userAgent
}

// EffectiveUserAgent is the User-Agent the tabs send: the override if one
// is set, else the browser's own.
func (b *Browser) EffectiveUserAgent(ctx context.Context) (string, error) {
	if ua := b.UserAgentOverride(); ua != "" {
		return ua, nil
	}
	return b.UserAgent(ctx)
}

// SetUserAgent overrides the user agent of every session, open or opened
// later. It is emulation on each session: nothing is rebuilt, so pages and
// their refs stay as they are.
func (b *Browser) SetUserAgent(ctx context.Context, ua string) error {
	b.overrides.Lock() // one update at a time, rollback included
	defer b.overrides.Unlock()
	b.mu.Lock()
	old := b.userAgent
	b.userAgent = ua
	b.mu.Unlock()
	if err := b.applyToSessions(ctx, func(ctx context.Context, s *cdp.Session) error { return setUserAgent(ctx, s, ua) }); err != nil {
		b.mu.Lock()
		b.userAgent = old
		b.mu.Unlock()
		// Sessions that took the new one go back ("" is the browser's own).
		Afterward(func(ctx context.Context) {
			b.applyToSessions(ctx, func(ctx context.Context, s *cdp.Session) error { return setUserAgent(ctx, s, old) })
		})
		return err
	}
	return nil
}

func setUserAgent(ctx context.Context, s *cdp.Session, ua string) error {
	_, err := cdproto.Call(ctx, s, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua})
	return err
}

// applyToSessions runs set on every attached session (pages, scratch pages
// and out-of-process iframes) in parallel. A live page's failure is the
// error; an iframe's is ignored, since the frame may be going away.
func (b *Browser) applyToSessions(ctx context.Context, set func(context.Context, *cdp.Session) error) error {
	b.mu.Lock()
	type target struct {
		s    *cdp.Session
		page bool
		tab  *Tab
	}
	var targets []target
	for _, ft := range b.sessions {
		targets = append(targets, target{ft.session, ft.session == ft.tab.Session, ft.tab})
	}
	b.mu.Unlock()
	errs := make(chan error, len(targets))
	for _, t := range targets {
		go func() {
			err := set(ctx, t.s)
			if err != nil && t.page && t.tab.Alive() == nil {
				errs <- fmt.Errorf("tab %d: %w", t.tab.ID, err)
				return
			}
			errs <- nil // a tab that closed meanwhile needs nothing
		}()
	}
	var first error
	for range targets {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// applyOverrides gives a newly attached session the headers and user agent
// set so far. It costs nothing when neither is set.
func (b *Browser) applyOverrides(ctx context.Context, s *cdp.Session) {
	b.mu.Lock()
	headers := maps.Clone(b.extraHeaders)
	ua := b.userAgent
	b.mu.Unlock()
	if len(headers) > 0 {
		setHeaders(ctx, s, headers)
	}
	if ua != "" {
		setUserAgent(ctx, s, ua)
	}
}

package browser

import (
	"context"
	"fmt"
	"slices"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
)

// OpenScratchTab opens a private tab for a command's own use (diff loads
// pages in one). Unlike NewTab it never becomes the active tab and is kept
// out of the tab list, so the agent's tabs, its active tab and its refs are
// untouched. Its events still reach the console and network logs. The
// caller must close it with CloseScratchTab on every path.
func (b *Browser) OpenScratchTab(ctx context.Context) (*Tab, error) {
	res, err := cdproto.Call(ctx, b.root, target.CreateTarget, target.CreateTargetParams{URL: "about:blank"})
	if err != nil {
		return nil, fmt.Errorf("opening a scratch tab: %w", err)
	}
	tab, err := b.claimScratch(ctx, res.TargetID)
	if err != nil {
		Afterward(func(ctx context.Context) { b.closeTarget(ctx, res.TargetID) })
		return nil, err
	}
	select {
	case <-tab.ready:
	case <-ctx.Done():
		b.CloseScratchTab(tab)
		return nil, fmt.Errorf("the scratch tab did not come up: %w", ctx.Err())
	}
	// A page opened by a page becomes the active tab (see onAttached), so
	// pages loaded here may not open any: window.open does nothing.
	if _, err := cdproto.Call(ctx, tab.Session, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: noPopupsJS}); err != nil {
		b.CloseScratchTab(tab)
		return nil, fmt.Errorf("setting up the scratch tab: %w", err)
	}
	return tab, nil
}

const noPopupsJS = `window.open = function() { return null };`

// claimScratch waits for the new target to attach and hides it at once. The
// attach may come before or after createTarget answers, so both orders are
// handled, as in NewTab.
func (b *Browser) claimScratch(ctx context.Context, id target.ID) (*Tab, error) {
	ch := make(chan *Tab, 1)
	b.mu.Lock()
	if t := b.byTarget[id]; t != nil {
		b.hideLocked(t)
		b.mu.Unlock()
		return t, nil
	}
	b.waiting[id] = ch
	b.mu.Unlock()
	select {
	case t := <-ch:
		b.mu.Lock()
		b.hideLocked(t)
		b.mu.Unlock()
		return t, nil
	case <-ctx.Done():
		b.mu.Lock()
		delete(b.waiting, id)
		b.mu.Unlock()
		return nil, fmt.Errorf("the scratch tab did not come up: %w", ctx.Err())
	}
}

// hideLocked takes a tab out of the list the agent sees, keeping it in the
// maps that route its events. If it had become the active tab (only when no
// other tab existed at its attach), the choice goes back to what it was.
// b.mu must be held.
func (b *Browser) hideLocked(t *Tab) {
	t.scratch = true
	b.tabs = slices.DeleteFunc(b.tabs, func(x *Tab) bool { return x == t })
	if b.activeID == t.ID {
		b.activeID = 0
		if len(b.tabs) > 0 {
			b.activeID = b.tabs[len(b.tabs)-1].ID
		}
	}
}

// CloseScratchTab closes a tab from OpenScratchTab, and any page it opened.
// It runs with a short deadline of its own (see Afterward), so it still
// happens after the command timed out.
func (b *Browser) CloseScratchTab(t *Tab) error {
	var err error
	Afterward(func(ctx context.Context) {
		b.closePopupsOf(ctx, t.TargetID)
		err = b.closeTarget(ctx, t.TargetID)
	})
	// Forget it even if the close failed: the browser is then most likely
	// gone, and a hidden tab must not linger in our maps. removeTab cannot
	// change the active tab, as the scratch tab is not in the list.
	b.removeTab(t)
	if err != nil {
		return fmt.Errorf("closing the scratch tab: %w", err)
	}
	return nil
}

// closePopupsOf closes the pages opener opened anyway (a script-submitted
// form with target=_blank gets past the window.open guard), so none is left
// behind as a tab the agent never asked for.
func (b *Browser) closePopupsOf(ctx context.Context, opener target.ID) {
	res, err := cdproto.Call(ctx, b.root, target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		return
	}
	for _, info := range res.TargetInfos {
		if info.OpenerID == opener && info.Type == "page" {
			b.closeTarget(ctx, info.TargetID)
		}
	}
}

func (b *Browser) closeTarget(ctx context.Context, id target.ID) error {
	_, err := cdproto.Call(ctx, b.root, target.CloseTarget, target.CloseTargetParams{TargetID: id})
	return err
}

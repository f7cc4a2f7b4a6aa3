package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/browsehq/browse/internal/browser"
)

// target is a resolved selector argument: the element and how to name it in
// messages ("@e3 (button "Save")" or "#email").
type target struct {
	el    *browser.Element
	label string
	entry *browser.RefEntry // set for refs
}

// resolve turns a selector argument (CSS, @e or @c ref) into an element.
// Refs resolve at once or fail in milliseconds. A CSS selector is looked up
// in the tab's current frame; with strict, it must match exactly one element,
// and it is waited for (until the deadline) while it matches none.
func resolve(ctx context.Context, c *Call, sel string, strict bool) (*target, error) {
	if strings.HasPrefix(sel, "@") {
		if !browser.IsRef(sel) {
			return nil, Errorf("Refs look like @e3 or @c2; run 'snapshot -i' to get them.", "%q is not a ref.", sel)
		}
		el, entry, err := c.Tab.ResolveRef(ctx, sel)
		if err != nil {
			return nil, refError(sel, err)
		}
		return &target{el: el, label: refLabel(sel, entry), entry: entry}, nil
	}
	if strings.TrimSpace(sel) == "" {
		return nil, Errorf("Give a CSS selector or a ref from 'snapshot -i'.", "Empty selector.")
	}
	notFound := &Error{Status: 404, Msg: fmt.Sprintf("Element %s not found (waited %s).", sel, c.Timeout.Round(time.Millisecond)),
		Hint: "Run 'snapshot -i' to see what is on the page."}
	for {
		el, n, err := c.Tab.QueryCSS(ctx, c.Tab.CurrentFrame(), sel)
		var se *browser.SelectorError
		switch {
		case err != nil && strict && ctx.Err() != nil:
			// The deadline fell during a lookup rather than between two:
			// still the element that never came.
			return nil, notFound
		case err == nil && strict && n > 1:
			el.Release()
			return nil, &Error{Status: 400, Msg: fmt.Sprintf("Selector %s matches %d elements; an action needs exactly one.", sel, n),
				Hint: "Use a more specific selector, or run 'snapshot -i' and use the element's ref."}
		case err == nil:
			return &target{el: el, label: sel}, nil
		case errors.As(err, &se) && se.Count == 0 && se.Invalid == "" && strict:
			// Not there yet: wait for it, as a user would, until the deadline.
			select {
			case <-ctx.Done():
				return nil, notFound
			case <-time.After(50 * time.Millisecond):
			}
		case errors.Is(err, browser.ErrContextGone):
			if ctx.Err() != nil {
				return nil, pageError(err)
			}
			time.Sleep(20 * time.Millisecond)
		default:
			return nil, selectorError(err)
		}
	}
}

// resolveElement is resolve (strict) for commands whose own deadline is
// longer than an element action's: the element is waited for only as long
// as a click would wait for it.
func resolveElement(ctx context.Context, c *Call, sel string) (*target, error) {
	lookup := *c
	if c.ActionTimeout > 0 && c.ActionTimeout < c.Timeout {
		lookup.Timeout = c.ActionTimeout
	}
	lctx, cancel := context.WithTimeout(ctx, lookup.Timeout)
	defer cancel()
	return resolve(lctx, &lookup, sel, true)
}

func refLabel(sel string, e *browser.RefEntry) string {
	if e == nil {
		return sel
	}
	if e.Name == "" {
		return fmt.Sprintf("%s (%s)", sel, e.Role)
	}
	return fmt.Sprintf("%s (%s %q)", sel, e.Role, e.Name)
}

// refError words a ref that did not resolve.
func refError(sel string, err error) error {
	var re *browser.RefError
	if !errors.As(err, &re) {
		return pageError(err)
	}
	switch re.Kind {
	case browser.RefUnknown:
		if re.Count == 0 {
			return &Error{Status: 404, Msg: fmt.Sprintf("Ref %s is unknown: there are no refs for this page.", sel),
				Hint: "Run 'snapshot -i' first (refs are cleared when the page navigates)."}
		}
		return &Error{Status: 404, Msg: fmt.Sprintf("Ref %s is not in the current snapshot (%d refs).", sel, re.Count),
			Hint: "Run 'snapshot' for fresh refs."}
	case browser.RefFrameGone:
		return &Error{Status: 410, Msg: fmt.Sprintf("Ref %s is in a frame that is gone (detached or reloaded).", refLabel(sel, re.Entry)),
			Hint: "Run 'snapshot' for fresh refs."}
	}
	return staleError(refLabel(sel, re.Entry))
}

func staleError(label string) error {
	return &Error{Status: 410, Msg: fmt.Sprintf("Ref %s is stale — it is no longer on the page.", label),
		Hint: "Run 'snapshot' for fresh refs."}
}

// actionError words why an action on t failed.
func actionError(t *target, err error) error {
	var ae *browser.ActionError
	switch {
	case errors.As(err, &ae):
		switch ae.Reason {
		case "covered":
			return &Error{Status: 409, Msg: fmt.Sprintf("%s is covered by %s at its centre, so a click would land on that instead.", t.label, ae.By),
				Hint: "Close or dismiss what is on top (run 'snapshot -i' to find it), or scroll."}
		case "disabled":
			return &Error{Status: 409, Msg: fmt.Sprintf("%s is disabled.", t.label), Hint: "Wait for it to be enabled, or fill what it depends on first."}
		case "hidden":
			return &Error{Status: 409, Msg: fmt.Sprintf("%s is not visible (hidden, or zero size).", t.label), Hint: "Run 'snapshot -i' to see what is visible."}
		}
		return &Error{Status: 409, Msg: fmt.Sprintf("%s cannot be acted on: %s.", t.label, ae.Reason), Hint: "Run 'snapshot -i' to see what is on the page."}
	case browser.IsStale(err):
		if t.entry != nil {
			return staleError(t.label)
		}
		return &Error{Status: 410, Msg: fmt.Sprintf("%s left the page while the command ran.", t.label), Hint: "Run the command again."}
	}
	return pageError(err)
}

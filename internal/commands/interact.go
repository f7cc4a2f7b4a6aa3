package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"

	"github.com/browsehq/browse/internal/browser"
	"github.com/browsehq/browse/internal/safepath"
)

// settled runs an action, waits for what it set off (see Tab.Settle), and
// returns the action's reply with a note of it: a navigation, or a new tab.
func settled(ctx context.Context, c *Call, act func() (string, error)) (string, error) {
	return settledOn(ctx, c, nil, act)
}

// settledOn is settled for an action that ends with a call on last: when
// that element lives in the page's own renderer, the call is the barrier
// Settle would otherwise add, and one round trip is saved.
func settledOn(ctx context.Context, c *Call, last *browser.Element, act func() (string, error)) (string, error) {
	activeBefore, mark, watch := c.Browser.ActiveID(), c.Tab.Mark(), c.Tab.WatchNavigation()
	defer watch.Stop()
	msg, err := act()
	if err != nil {
		return "", err
	}
	var notes []string
	var navigated bool
	if last != nil && last.Session == c.Tab.Session {
		navigated = c.Tab.SettleAfterBarrier(ctx, mark, watch)
	} else {
		navigated = c.Tab.Settle(ctx, mark, watch)
	}
	if navigated {
		notes = append(notes, "navigated to "+c.Tab.URL())
	}
	if id := c.Browser.ActiveID(); id != activeBefore {
		if t, err := c.Browser.Tab(id); err == nil {
			notes = append(notes, fmt.Sprintf("opened tab %d (%s), now active", id, t.URL()))
		}
	}
	if len(notes) > 0 {
		msg += " → " + strings.Join(notes, "; ")
	}
	return msg, nil
}

func runClick(ctx context.Context, c *Call) (string, error) {
	t, err := resolve(ctx, c, c.Args[0], true)
	if err != nil {
		return "", err
	}
	defer t.el.Release()

	// An <option> is chosen, not clicked: its list is drawn by the browser,
	// outside the page, where no mouse event can reach it. (A ref says its
	// role; only a CSS target needs the extra look.)
	if t.entry == nil || t.entry.Role == "option" {
		obj, err := t.el.Call(ctx, `function() {
			if (this.tagName !== 'OPTION') return false;
			const sel = this.closest('select');
			if (!sel) return false;
			if (sel.disabled || this.disabled) throw new Error('disabled');
			if (sel.multiple) this.selected = !this.selected; else sel.value = this.value;
			sel.dispatchEvent(new Event('input', {bubbles: true}));
			sel.dispatchEvent(new Event('change', {bubbles: true}));
			return true;
		}`)
		if err != nil {
			return "", actionError(t, err)
		}
		if browser.String(obj) == "true" {
			return "Selected " + t.label, nil
		}
	}
	return settled(ctx, c, func() (string, error) {
		if err := c.Tab.Click(ctx, t.el); err != nil {
			return "", actionError(t, err)
		}
		return "Clicked " + t.label, nil
	})
}

func runHover(ctx context.Context, c *Call) (string, error) {
	t, err := resolve(ctx, c, c.Args[0], true)
	if err != nil {
		return "", err
	}
	defer t.el.Release()
	if err := c.Tab.Hover(ctx, t.el); err != nil {
		return "", actionError(t, err)
	}
	return "Hovered " + t.label, nil
}

// fillJS focuses the field and selects its contents, so typed text replaces
// them. It says what kind of field it is.
const fillJS = `function() {
	const tag = this.tagName;
	const textTypes = ['', 'text', 'email', 'password', 'search', 'tel', 'url', 'number'];
	if (this.disabled) return 'disabled';
	if (this.readOnly) return 'readonly';
	if (tag === 'TEXTAREA' || (tag === 'INPUT' && textTypes.includes(this.type))) {
		this.focus(); this.select(); return 'text';
	}
	if (tag === 'INPUT' && ['checkbox', 'radio', 'file', 'submit', 'button', 'reset', 'image'].includes(this.type)) return 'not fillable: <input type=' + this.type + '> (use click or upload)';
	if (tag === 'INPUT') return 'value';
	if (tag === 'SELECT') return 'not fillable: a <select> (use select)';
	if (this.isContentEditable) {
		this.focus();
		const r = document.createRange(); r.selectNodeContents(this);
		const s = getSelection(); s.removeAllRanges(); s.addRange(r);
		return 'editable';
	}
	return 'not fillable: <' + tag.toLowerCase() + '> is not a text field';
}`

func runFill(ctx context.Context, c *Call) (string, error) {
	t, err := resolve(ctx, c, c.Args[0], true)
	if err != nil {
		return "", err
	}
	defer t.el.Release()
	return settledOn(ctx, c, t.el, func() (string, error) { return fill(ctx, c, t, strings.Join(c.Args[1:], " ")) })
}

// fill clears the target's field and enters value as a user would.
func fill(ctx context.Context, c *Call, t *target, value string) (string, error) {
	obj, err := t.el.Call(ctx, fillJS)
	if err != nil {
		return "", actionError(t, err)
	}
	kind := browser.String(obj)
	switch {
	case kind == "disabled" || kind == "readonly":
		return "", &Error{Status: 409, Msg: fmt.Sprintf("%s is %s.", t.label, kind), Hint: "Only editable fields can be filled."}
	case strings.HasPrefix(kind, "not fillable"):
		return "", &Error{Status: 400, Msg: fmt.Sprintf("%s is %s.", t.label, strings.TrimPrefix(kind, "not fillable: ")), Hint: "Run 'snapshot -i' to find the text field."}
	case kind == "value" || value == "":
		// Dates, colours, ranges — and clearing — set the value directly.
		_, err = t.el.Call(ctx, `function(v) { this.value = v; this.dispatchEvent(new Event('input', {bubbles: true})); }`, value)
	default:
		err = c.Tab.InsertTextIn(ctx, t.el, value)
	}
	if err != nil {
		return "", actionError(t, err)
	}
	// change fires when a user leaves a field; validation often waits for it.
	obj, err = t.el.Call(ctx, `function() { this.dispatchEvent(new Event('change', {bubbles: true})); return this.value ?? this.textContent; }`)
	if err != nil {
		return "", actionError(t, err)
	}
	msg := fmt.Sprintf("Filled %s", t.label)
	if got := browser.String(obj); got != value && kind != "editable" {
		msg += fmt.Sprintf(" (the field now holds %q: it may limit or reformat input)", got)
	}
	return msg, nil
}

func runSelect(ctx context.Context, c *Call) (string, error) {
	t, err := resolve(ctx, c, c.Args[0], true)
	if err != nil {
		return "", err
	}
	defer t.el.Release()
	return settledOn(ctx, c, t.el, func() (string, error) { return selectOption(ctx, t, strings.Join(c.Args[1:], " ")) })
}

// selectOption chooses the option of a <select> whose value, label or text is want.
func selectOption(ctx context.Context, t *target, want string) (string, error) {
	obj, err := t.el.Call(ctx, `function(want) {
		if (this.tagName !== 'SELECT') return {error: 'not a <select>'};
		if (this.disabled) return {error: 'disabled'};
		const opts = [...this.options];
		const norm = s => s.replace(/\s+/g, ' ').trim();
		const o = opts.find(o => o.value === want) || opts.find(o => o.label === want) || opts.find(o => norm(o.text) === norm(want))
			|| opts.find(o => norm(o.text).toLowerCase() === norm(want).toLowerCase());
		if (!o) return {error: 'no option', options: opts.map(o => norm(o.text) + (o.value !== norm(o.text) ? ' (' + o.value + ')' : ''))};
		if (o.disabled) return {error: 'option disabled'};
		this.value = o.value;
		this.dispatchEvent(new Event('input', {bubbles: true}));
		this.dispatchEvent(new Event('change', {bubbles: true}));
		return {text: norm(o.text), value: o.value};
	}`, want)
	if err != nil {
		return "", actionError(t, err)
	}
	var r struct {
		Error   string   `json:"error"`
		Options []string `json:"options"`
		Text    string   `json:"text"`
		Value   string   `json:"value"`
	}
	json.Unmarshal([]byte(browser.String(obj)), &r)
	switch r.Error {
	case "":
		return fmt.Sprintf("Selected %q (value %q) in %s", r.Text, r.Value, t.label), nil
	case "no option":
		return "", &Error{Status: 404, Msg: fmt.Sprintf("No option %q in %s.", want, t.label), Hint: "Options: " + strings.Join(r.Options, ", ") + "."}
	}
	return "", &Error{Status: 409, Msg: fmt.Sprintf("Cannot select in %s: %s.", t.label, r.Error), Hint: "Run 'snapshot -i' to find the right element."}
}

func runType(ctx context.Context, c *Call) (string, error) {
	text := strings.Join(c.Args, " ")
	if err := c.Tab.Type(ctx, text); err != nil {
		return "", pageError(err)
	}
	return fmt.Sprintf("Typed %d characters", len([]rune(text))), nil
}

func runPress(ctx context.Context, c *Call) (string, error) {
	if _, _, err := browser.ParseKeyCombo(c.Args[0]); err != nil {
		return "", Errorf("Use Playwright key names: Enter, Tab, Escape, ArrowUp, Backspace, Shift+Enter, Control+A, F5, a single character…", "Cannot press %q: %v.", c.Args[0], err)
	}
	return settled(ctx, c, func() (string, error) {
		if err := c.Tab.Press(ctx, c.Args[0]); err != nil {
			return "", pageError(err)
		}
		return "Pressed " + c.Args[0], nil
	})
}

func runScroll(ctx context.Context, c *Call) (string, error) {
	if len(c.Args) == 0 {
		obj, err := c.Tab.EvaluateIn(ctx, c.Tab.CurrentFrame(), `(() => { const el = document.scrollingElement || document.documentElement; el.scrollTop = el.scrollHeight; return Math.round(el.scrollTop) })()`)
		if err != nil {
			return "", pageError(err)
		}
		return "Scrolled to the bottom (y=" + browser.String(obj) + ")", nil
	}
	t, err := resolve(ctx, c, c.Args[0], true)
	if err != nil {
		return "", err
	}
	defer t.el.Release()
	if _, err := t.el.Call(ctx, `function() { this.scrollIntoView({block: 'center', inline: 'nearest', behavior: 'instant'}) }`); err != nil {
		return "", actionError(t, err)
	}
	return "Scrolled " + t.label + " into view", nil
}

func runUpload(ctx context.Context, c *Call) (string, error) {
	t, err := resolve(ctx, c, c.Args[0], true)
	if err != nil {
		return "", err
	}
	defer t.el.Release()
	var files []string
	for _, f := range c.Args[1:] {
		p, err := safepath.Check(f, c.Daemon.SafeRoots())
		if err != nil {
			return "", Errorf("Upload files from the workspace or the temp directory.", "Refusing to upload %s: %v.", f, err)
		}
		files = append(files, p)
	}
	obj, err := t.el.Call(ctx, `function(n) {
		if (this.tagName !== 'INPUT' || this.type !== 'file') return 'not a file input (<input type=file>)';
		if (this.disabled) return 'disabled';
		if (n > 1 && !this.multiple) return 'a single-file input: it takes one file';
		return '';
	}`, len(files))
	if err != nil {
		return "", actionError(t, err)
	}
	if msg := browser.String(obj); msg != "" {
		return "", &Error{Status: 400, Msg: fmt.Sprintf("Cannot upload to %s: %s.", t.label, msg), Hint: "Run 'snapshot -i' to find the file input."}
	}
	handle, err := t.el.Handle(ctx)
	if err != nil {
		return "", actionError(t, err)
	}
	if _, err := cdproto.Call(ctx, t.el.Session, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: files, ObjectID: handle}); err != nil {
		return "", pageError(err)
	}
	return fmt.Sprintf("Uploaded %d file(s) to %s", len(files), t.label), nil
}

func runViewport(ctx context.Context, c *Call) (string, error) {
	cmd := mustLookup("viewport")
	scaleFlag, hasScale := c.Flags["--scale"]
	if len(c.Args) == 0 && !hasScale {
		v, err := c.Tab.CurrentViewport(ctx)
		if err != nil {
			return "", pageError(err)
		}
		return fmt.Sprintf("Viewport %dx%d (scale %g)", v.Width, v.Height, v.Scale), nil
	}
	// A size alone keeps the current scale; --scale alone keeps the size.
	v, err := c.Tab.CurrentViewport(ctx)
	if err != nil {
		return "", pageError(err)
	}
	if len(c.Args) == 1 {
		w, h, ok := strings.Cut(strings.ToLower(c.Args[0]), "x")
		width, err1 := strconv.Atoi(w)
		height, err2 := strconv.Atoi(h)
		if !ok || err1 != nil || err2 != nil || width < 100 || height < 100 || width > 8000 || height > 8000 {
			return "", UsageError(cmd, "Viewport %q must be WIDTHxHEIGHT, each 100–8000 (e.g. 1280x720).", c.Args[0])
		}
		v.Width, v.Height = width, height
	}
	if hasScale {
		s, err := strconv.ParseFloat(scaleFlag, 64)
		if err != nil || s < 1 || s > 3 {
			return "", UsageError(cmd, "--scale must be a number from 1 to 3, got %q.", scaleFlag)
		}
		v.Scale = s
	}
	if err := c.Tab.SetViewport(ctx, v); err != nil {
		return "", pageError(err)
	}
	// Tabs opened from now on start with it too.
	c.Browser.SetDefaultViewport(v)
	return fmt.Sprintf("Viewport %dx%d (scale %g)", v.Width, v.Height, v.Scale), nil
}

func runDialogAccept(ctx context.Context, c *Call) (string, error) {
	text := strings.Join(c.Args, " ")
	c.Browser.SetDialogPolicy(browser.DialogPolicy{PromptText: text})
	if text != "" {
		return fmt.Sprintf("Dialogs will be accepted; prompts answered with %q", text), nil
	}
	return "Dialogs will be accepted", nil
}

func runDialogDismiss(ctx context.Context, c *Call) (string, error) {
	c.Browser.SetDialogPolicy(browser.DialogPolicy{Dismiss: true})
	return "Dialogs will be dismissed", nil
}

var stateChecks = map[string]string{
	"visible":  `function() { const r = this.getBoundingClientRect(), s = getComputedStyle(this); return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' }`,
	"hidden":   `function() { const r = this.getBoundingClientRect(), s = getComputedStyle(this); return !(r.width > 0 && r.height > 0 && s.visibility !== 'hidden') }`,
	"enabled":  `function() { return !(this.disabled || this.getAttribute('aria-disabled') === 'true' || !!(this.closest && this.closest('fieldset:disabled'))) }`,
	"disabled": `function() { return !!(this.disabled || this.getAttribute('aria-disabled') === 'true' || (this.closest && this.closest('fieldset:disabled'))) }`,
	"checked":  `function() { return this.checked === true || this.getAttribute('aria-checked') === 'true' || (this.tagName === 'OPTION' && this.selected) }`,
	"editable": `function() { return !this.disabled && !this.readOnly && (this.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(this.tagName)) }`,
	"focused":  `function() { let a = document.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement; return a === this }`,
}

func runIs(ctx context.Context, c *Call) (string, error) {
	fn, ok := stateChecks[c.Args[0]]
	if !ok {
		return "", UsageError(mustLookup("is"), "Unknown state %q: use visible, hidden, enabled, disabled, checked, editable or focused.", c.Args[0])
	}
	t, err := resolve(ctx, c, c.Args[1], false)
	if err != nil {
		// A CSS selector that matches nothing is simply not visible.
		if e, ok := err.(*Error); ok && e.Status == 404 && !strings.HasPrefix(c.Args[1], "@") && (c.Args[0] == "visible" || c.Args[0] == "hidden") {
			return strconv.FormatBool(c.Args[0] == "hidden"), nil
		}
		return "", err
	}
	defer t.el.Release()
	obj, err := t.el.Call(ctx, fn)
	if err != nil {
		return "", actionError(t, err)
	}
	return browser.String(obj), nil
}

func runAttrs(ctx context.Context, c *Call) (string, error) {
	return onElement(ctx, c, c.Args[0], `function() { const o = {}; for (const a of this.attributes) o[a.name] = a.value; return JSON.stringify(o, null, 2) }`)
}

func runCSS(ctx context.Context, c *Call) (string, error) {
	return onElement(ctx, c, c.Args[0], `function(p) { return getComputedStyle(this).getPropertyValue(p) }`, c.Args[1])
}

// onElement runs a read-only function on the element sel picks (first match
// for CSS) and returns its result as text.
func onElement(ctx context.Context, c *Call, sel, fn string, args ...any) (string, error) {
	t, err := resolve(ctx, c, sel, false)
	if err != nil {
		return "", err
	}
	defer t.el.Release()
	obj, err := t.el.Call(ctx, fn, args...)
	if err != nil {
		return "", actionError(t, err)
	}
	return browser.String(obj), nil
}

func runFrame(ctx context.Context, c *Call) (string, error) {
	var frame browser.Frame
	var found bool
	frames := c.Tab.Frames()
	switch {
	case c.Has("--name"):
		for _, f := range frames {
			if f.Name == c.Flags["--name"] {
				frame, found = f, true
			}
		}
	case c.Has("--url"):
		for _, f := range frames {
			if f.ParentID != "" && strings.Contains(f.URL, c.Flags["--url"]) {
				frame, found = f, true
				break
			}
		}
	case len(c.Args) == 1 && c.Args[0] == "main":
		c.Tab.SetCurrentFrame("")
		return "Switched to the main frame", nil
	case len(c.Args) == 1:
		t, err := resolve(ctx, c, c.Args[0], false)
		if err != nil {
			return "", err
		}
		defer t.el.Release()
		handle, err := t.el.Handle(ctx)
		if err != nil {
			return "", actionError(t, err)
		}
		d, err := cdproto.Call(ctx, t.el.Session, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: handle})
		if err != nil || d.Node == nil || d.Node.FrameID == "" {
			return "", Errorf("Point at an <iframe> or <frame> element.", "%s is not a frame.", t.label)
		}
		for _, f := range frames {
			if f.ID == d.Node.FrameID {
				frame, found = f, true
			}
		}
	default:
		return "", UsageError(mustLookup("frame"), "Say which frame: a selector, a ref, --name, --url, or main.")
	}
	if !found {
		return "", &Error{Status: 404, Msg: "No such frame (it may still be loading).", Hint: "Run 'snapshot' to see the page's iframes."}
	}
	c.Tab.SetCurrentFrame(frame.ID)
	return "Switched to frame " + frame.URL + " (selectors and scripts now run there; 'frame main' to go back)", nil
}

package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/browsehq/browse/internal/browser"
)

// cleanTextJS is the page's visible text with whitespace tidied, leaving
// out text hidden by tricks or hidden text that reads as instructions (see
// browser.StripHiddenTextJS). diff compares pages with it too.
const cleanTextJS = browser.StripHiddenTextJS

// textWithWarningsJS is cleanTextJS asking for its warnings as well; the
// object comes back by value, serialised by the browser, not by the page.
// strictTextJS strips every deceptively hidden element, for paired agents.
const (
	textWithWarningsJS = `function() { return (` + cleanTextJS + `).call(this, true, false) }`
	strictTextJS       = `function() { return (` + cleanTextJS + `).call(this, true, true) }`
	// fastTextJS sends the full reader only to pages whose text may read as
	// instructions somewhere (it answers {suspicious: true} for those);
	// every other page gets its innerText, folded, from a small script.
	fastTextJS = `function() {
		if ((` + browser.SuspectJS + `).call(this, false)) return {suspicious: true};
		return (` + rawTextJS + `).call(this);
	}`
	// rawTextJS is innerText with the same whitespace folding, hiding nothing.
	rawTextJS = `function() {
		const root = this.nodeType === 9 ? (this.body || this.documentElement) : this;
		const lines = (root ? root.innerText ?? root.textContent ?? '' : '').split('\n').map(l => l.replace(/[ \t\u00a0]+/g, ' ').trim());
		const out = [];
		for (const l of lines) if (l || (out.length && out[out.length - 1])) out.push(l);
		return {text: out.join('\n').trim(), warnings: []};
	}`
)

func runText(ctx context.Context, c *Call) (string, error) {
	js := fastTextJS
	switch {
	case c.Strict:
		js = strictTextJS
	case c.Raw:
		js = rawTextJS
	}
	res, err := readText(ctx, c, js)
	if err == nil && res.Suspicious {
		res, err = readText(ctx, c, textWithWarningsJS)
	}
	if err != nil {
		return "", err
	}
	c.Warnings = append(c.Warnings, browser.HiddenWarnings(res.Warnings)...)
	return res.Text, nil
}

// textAnswer is what the text readers return.
type textAnswer struct {
	Text       string     `json:"text"`
	Warnings   [][]string `json:"warnings"`
	Suspicious bool       `json:"suspicious"` // fastTextJS: ask the full reader
}

func readText(ctx context.Context, c *Call, js string) (textAnswer, error) {
	var res textAnswer
	out, err := onTarget(ctx, c, optionalArg(c), js)
	if err != nil {
		return res, err
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		return res, &Error{Status: 500, Msg: "The page's text could not be read: the page interfered with the reader.", Hint: "Try 'html' instead."}
	}
	return res, nil
}

func runHTML(ctx context.Context, c *Call) (string, error) {
	return onTarget(ctx, c, optionalArg(c), `function() { return this.nodeType === 9 ? this.documentElement.outerHTML : this.innerHTML }`)
}

func runLinks(ctx context.Context, c *Call) (string, error) {
	return onTarget(ctx, c, "", `function() {
		const out = [];
		for (const a of this.querySelectorAll('a[href]')) {
			const text = (a.innerText || a.getAttribute('aria-label') || a.title || '').replace(/\s+/g, ' ').trim();
			out.push((text || '(no text)') + ' → ' + a.href);
		}
		return out.length ? out.join('\n') : '(no links)';
	}`)
}

func runForms(ctx context.Context, c *Call) (string, error) {
	return onTarget(ctx, c, "", `function() {
		const field = el => {
			const f = {tag: el.tagName.toLowerCase()};
			if (el.type) f.type = el.type;
			if (el.name) f.name = el.name;
			if (el.id) f.id = el.id;
			const label = el.labels && el.labels[0] ? el.labels[0].innerText.trim() : el.getAttribute('aria-label');
			if (label) f.label = label;
			if (el.placeholder) f.placeholder = el.placeholder;
			if (el.type === 'password') f.value = el.value ? '••••' : '';
			else if (el.type === 'checkbox' || el.type === 'radio') f.checked = el.checked;
			else if (el.value !== undefined && el.tagName !== 'BUTTON') f.value = el.value;
			if (el.tagName === 'SELECT') f.options = [...el.options].map(o => ({value: o.value, text: o.text.trim(), selected: o.selected}));
			if (el.required) f.required = true;
			if (el.disabled) f.disabled = true;
			return f;
		};
		const forms = [...this.forms].map((form, i) => ({
			index: i, id: form.id || undefined, name: form.getAttribute('name') || undefined,
			action: form.action, method: (form.method || 'get').toUpperCase(),
			fields: [...form.elements].filter(e => e.tagName !== 'FIELDSET' && e.tagName !== 'OBJECT').map(field),
		}));
		const loose = [...this.querySelectorAll('input, select, textarea')].filter(e => !e.form).map(field);
		if (loose.length) forms.push({index: forms.length, action: null, method: null, fields: loose, note: 'fields outside any <form>'});
		return JSON.stringify(forms, null, 2);
	}`)
}

func optionalArg(c *Call) string {
	if len(c.Args) > 0 {
		return c.Args[0]
	}
	return ""
}

// onTarget calls fn on the element sel picks (CSS, first match, or a ref),
// or on the document when sel is empty, in the tab's current frame, and
// returns the result as text.
func onTarget(ctx context.Context, c *Call, sel, fn string) (string, error) {
	if sel != "" {
		return onElement(ctx, c, sel, fn)
	}
	obj, err := c.Tab.EvaluateIn(ctx, c.Tab.CurrentFrame(), "("+fn+").call(document)")
	if err != nil {
		return "", pageError(err)
	}
	return browser.String(obj), nil
}

func runJS(ctx context.Context, c *Call) (string, error) {
	return evalJS(ctx, c, strings.Join(c.Args, " "))
}

func runEval(ctx context.Context, c *Call) (string, error) {
	src, err := readCheckedFile(c, c.Args[0], maxPayloadBytes, "Keep scripts under 10 MB.")
	if err != nil {
		return "", err
	}
	return evalJS(ctx, c, string(src))
}

func evalJS(ctx context.Context, c *Call, code string) (string, error) {
	if strings.TrimSpace(code) == "" {
		return "", UsageError(mustLookup("js"), "No JavaScript given.")
	}
	obj, err := c.Tab.EvaluateIn(ctx, c.Tab.CurrentFrame(), WrapAwait(code))
	if err != nil {
		var je *browser.JSError
		if errors.As(err, &je) {
			return "", &Error{Status: 400, Msg: "JavaScript error: " + je.Text, Hint: "Fix the script; it ran in the page's main world."}
		}
		return "", pageError(err)
	}
	return browser.String(obj), nil
}

// selectorError words a failed CSS lookup for an agent.
func selectorError(err error) error {
	var se *browser.SelectorError
	if !errors.As(err, &se) {
		return pageError(err)
	}
	switch {
	case se.Invalid != "":
		return &Error{Status: 400, Msg: fmt.Sprintf("%q is not a valid CSS selector.", se.Selector), Hint: "Check the syntax, or use a ref from 'snapshot -i'."}
	case se.Count == 0:
		return &Error{Status: 404, Msg: fmt.Sprintf("Element %s not found.", se.Selector), Hint: "Run 'snapshot -i' to see what is on the page."}
	}
	return &Error{Status: 400, Msg: fmt.Sprintf("Selector %s matches %d elements.", se.Selector, se.Count), Hint: "Use a more specific selector, or a ref from 'snapshot -i'."}
}

// pageError words errors from the page or the browser connection.
func pageError(err error) error {
	var ce *Error
	switch {
	case errors.As(err, &ce):
		return ce
	case errors.Is(err, browser.ErrTabGone):
		return &Error{Status: 410, Msg: "The tab is gone: " + err.Error() + ".", Hint: "Run 'tabs' to list open tabs, or 'newtab URL'."}
	case errors.Is(err, browser.ErrContextGone):
		return &Error{Status: 409, Msg: "The page navigated while the command ran.", Hint: "Run the command again on the new page."}
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Status: 504, Msg: "The command timed out: the page did not answer in time.", Hint: "The page may be busy (a long script or a dialog); retry, or run 'reload'."}
	}
	var je *browser.JSError
	if errors.As(err, &je) {
		return &Error{Status: 500, Msg: "The page threw an error: " + je.Text, Hint: "Run 'console --errors' for details."}
	}
	return &Error{Status: 500, Msg: "Browser error: " + err.Error(), Hint: "Run 'status'; if the browser is wedged, 'restart'."}
}

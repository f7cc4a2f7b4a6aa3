package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/browsehq/browse/internal/browser"
)

// clutterKinds are cleanup's categories, in the order they run and print.
var clutterKinds = []string{"ads", "cookies", "sticky", "social"}

// cleanupJS removes clutter of the given kinds and returns how many elements
// of each kind went. An element is counted once, under the first kind that
// matched it; a match inside an already removed element is not counted.
const cleanupJS = `function(kinds) {
	const fixedOrSticky = el => { const p = getComputedStyle(el).position; return p === 'fixed' || p === 'sticky'; };
	const big = el => { const r = el.getBoundingClientRect(); return r.width * r.height > 0.9 * innerWidth * innerHeight && !fixedOrSticky(el); };
	const isPage = el => el === document.documentElement || el === document.body || el.tagName === 'MAIN' || el.tagName === 'ARTICLE';
	const finders = {
		ads: () => document.querySelectorAll([
			'ins.adsbygoogle', '[data-ad]', '[data-ad-slot]', '[data-adunit]', '[id^="ad-"]', '[id^="ad_"]', '[id^="div-gpt-ad"]',
			'[class~="ad"]', '[class~="ads"]', '[class*="advert" i]', '[class*="ad-slot" i]', '[class*="ad-container" i]', '[class*="sponsored" i]',
			'[aria-label="advertisement" i]', 'iframe[src*="doubleclick"]', 'iframe[src*="googlesyndication"]', 'iframe[src*="adservice"]',
			'iframe[src*="amazon-adsystem"]', '[id*="taboola" i]', '[class*="taboola" i]', '[id*="outbrain" i]', '[class*="outbrain" i]',
		].join(',')),
		cookies: () => [...document.querySelectorAll([
			'#onetrust-consent-sdk', '#onetrust-banner-sdk', '#CybotCookiebotDialog', '.cc-window', '#cookie-law-info-bar', '.fc-consent-root',
			'[id*="cookie" i]', '[class*="cookie" i]', '[id*="consent" i]', '[class*="consent" i]', '[aria-label*="cookie" i]', '[aria-label*="consent" i]',
		].join(','))].filter(el => !isPage(el) && (fixedOrSticky(el) || el.matches('[role=dialog], [aria-modal=true], [id^="onetrust"], #CybotCookiebotDialog, .cc-window') || /cookie|consent|gdpr/i.test(el.id))),
		sticky: () => [...document.body.querySelectorAll('*')].filter(el => fixedOrSticky(el) && !isPage(el)),
		social: () => document.querySelectorAll([
			'a[href*="twitter.com/intent"]', 'a[href*="x.com/intent"]', 'a[href*="facebook.com/sharer"]', 'a[href*="linkedin.com/shareArticle"]',
			'a[href*="pinterest.com/pin/create"]', 'a[href*="reddit.com/submit"]', 'a[href^="whatsapp:"]', 'iframe[src*="facebook.com/plugins"]',
			'iframe[src*="platform.twitter.com"]', '[class*="social-share" i]', '[class*="share-buttons" i]', '[class*="sharing-buttons" i]',
			'[class*="addthis" i]', '[class*="sharethis" i]',
		].join(',')),
	};
	const counts = {};
	for (const kind of kinds) {
		let n = 0;
		for (const el of finders[kind]()) {
			if (!el.isConnected || isPage(el) || big(el)) continue;
			el.remove();
			n++;
		}
		counts[kind] = n;
	}
	if (kinds.includes('sticky') || kinds.includes('cookies')) {
		// Banners often lock scrolling while they are up.
		for (const el of [document.documentElement, document.body]) {
			if (el && getComputedStyle(el).overflow === 'hidden') el.style.setProperty('overflow', 'auto', 'important');
		}
	}
	return counts;
}`

// cleanupKinds reads cleanup's flags: none or --all means every kind.
func cleanupKinds(c *Call) []string {
	var kinds []string
	for _, k := range clutterKinds {
		if c.Has("--" + k) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 || c.Has("--all") {
		return clutterKinds
	}
	return kinds
}

// removeClutter runs cleanupJS and words the counts: "Removed 4 elements:
// ads 2, cookies 1, sticky 1".
func removeClutter(ctx context.Context, tab *browser.Tab, kinds []string) (string, error) {
	arg, _ := json.Marshal(kinds)
	obj, err := tab.Evaluate(ctx, "("+cleanupJS+")("+string(arg)+")")
	if err != nil {
		return "", pageError(err)
	}
	var counts map[string]int
	json.Unmarshal(obj.Value, &counts)
	total := 0
	parts := make([]string, 0, len(kinds))
	for _, k := range kinds {
		total += counts[k]
		parts = append(parts, fmt.Sprintf("%s %d", k, counts[k]))
	}
	noun := "elements"
	if total == 1 {
		noun = "element"
	}
	return fmt.Sprintf("Removed %d %s: %s", total, noun, strings.Join(parts, ", ")), nil
}

func runCleanup(ctx context.Context, c *Call) (string, error) {
	return removeClutter(ctx, c.Tab, cleanupKinds(c))
}

// scrollToTextJS scrolls the innermost visible element whose text contains
// the needle (case-insensitive) into view, and names it.
const scrollToTextJS = `function(needle) {
	const want = needle.toLowerCase();
	const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = walker.nextNode(); n; n = walker.nextNode()) {
		if (!n.textContent.toLowerCase().includes(want)) continue;
		const el = n.parentElement;
		const r = el.getBoundingClientRect();
		if (r.width === 0 && r.height === 0) continue;
		el.scrollIntoView({block: 'center', inline: 'nearest'});
		return el.tagName.toLowerCase();
	}
	// Text split across elements: fall back to the smallest element holding all of it.
	let best = null;
	for (const el of document.body.querySelectorAll('*')) {
		if ((el.innerText || '').toLowerCase().includes(want)) best = el;
	}
	if (!best) return '';
	best.scrollIntoView({block: 'center', inline: 'nearest'});
	return best.tagName.toLowerCase();
}`

const hideJS = `function(sels) {
	let n = 0;
	for (const sel of sels) for (const el of document.querySelectorAll(sel)) {
		if ('browseHidden' in el.dataset) continue; // matched by an earlier selector
		el.dataset.browseHidden = el.style.getPropertyValue('display') + '|' + el.style.getPropertyPriority('display');
		el.style.setProperty('display', 'none', 'important');
		n++;
	}
	return n;
}`

const unhideJS = `function() {
	for (const el of document.querySelectorAll('[data-browse-hidden]')) {
		const [value, priority] = el.dataset.browseHidden.split('|');
		if (value) el.style.setProperty('display', value, priority); else el.style.removeProperty('display');
		delete el.dataset.browseHidden;
	}
}`

func runPrettyScreenshot(ctx context.Context, c *Call) (string, error) {
	path, err := outputPath(c, optionalArg(c), "browse-pretty.png")
	if err != nil {
		return "", err
	}
	format, err := imageFormat(path)
	if err != nil {
		return "", UsageError(mustLookup("prettyscreenshot"), "%v.", err)
	}
	var done []string
	if c.Has("--cleanup") {
		msg, err := removeClutter(ctx, c.Tab, clutterKinds)
		if err != nil {
			return "", err
		}
		done = append(done, msg)
	}
	if v, ok := c.Flags["--hide"]; ok {
		sels := strings.Split(v, "\n")
		for _, s := range sels {
			el, _, err := c.Tab.QueryCSS(ctx, c.Tab.CurrentFrame(), s)
			if err != nil && !isNoMatch(err) {
				return "", selectorError(err)
			}
			if el != nil {
				el.Release()
			}
		}
		arg, _ := json.Marshal(sels)
		frame := c.Tab.CurrentFrame()
		obj, err := c.Tab.EvaluateIn(ctx, frame, "("+hideJS+")("+string(arg)+")")
		if err != nil {
			return "", pageError(err)
		}
		defer browser.Afterward(func(ctx context.Context) { c.Tab.EvaluateIn(ctx, frame, "("+unhideJS+")()") })
		done = append(done, "hid "+browser.String(obj)+" element(s) for the shot")
	}
	if target, ok := c.Flags["--scroll-to"]; ok {
		msg, err := scrollTo(ctx, c, target)
		if err != nil {
			return "", err
		}
		done = append(done, msg)
	}
	opts := browser.ShotOptions{Mode: browser.ShotViewport, Format: format}
	if !c.Has("--full-resolution") {
		opts.MaxSide = browser.MaxImageSide
	}
	shot, err := c.Tab.Capture(ctx, opts)
	if err != nil {
		return "", pageError(err)
	}
	if err := writeOutput(path, shot.Data); err != nil {
		return "", err
	}
	out := "Screenshot saved: " + path + " " + shotSummary(shot)
	if len(done) > 0 {
		out += "\n" + strings.Join(done, "; ")
	}
	return out, nil
}

const scrollToCentreJS = `function() { this.scrollIntoView({block: 'center', inline: 'nearest'}) }`

// scrollTo brings a ref, a CSS selector or, failing those, a piece of
// visible text into view.
func scrollTo(ctx context.Context, c *Call, target string) (string, error) {
	if strings.HasPrefix(target, "@") {
		t, err := resolve(ctx, c, target, false)
		if err != nil {
			return "", err
		}
		defer t.el.Release()
		if _, err := t.el.Call(ctx, scrollToCentreJS); err != nil {
			return "", actionError(t, err)
		}
		return "scrolled to " + t.label, nil
	}
	if el, _, err := c.Tab.QueryCSS(ctx, c.Tab.CurrentFrame(), target); err == nil {
		defer el.Release()
		if _, err := el.Call(ctx, scrollToCentreJS); err != nil {
			return "", pageError(err)
		}
		return "scrolled to " + target, nil
	}
	arg, _ := json.Marshal(target)
	obj, err := c.Tab.EvaluateIn(ctx, c.Tab.CurrentFrame(), "("+scrollToTextJS+")("+string(arg)+")")
	if err != nil {
		return "", pageError(err)
	}
	if browser.String(obj) == "" {
		return "", &Error{Status: 404, Msg: fmt.Sprintf("--scroll-to %q matches no element and no visible text.", target),
			Hint: "Give a CSS selector, a ref from 'snapshot -i', or text that is on the page."}
	}
	return fmt.Sprintf("scrolled to the text %q", target), nil
}

// isNoMatch is a valid selector that matched nothing.
func isNoMatch(err error) bool {
	se, ok := err.(*browser.SelectorError)
	return ok && se.Invalid == "" && se.Count == 0
}

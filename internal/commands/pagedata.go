package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/browsehq/browse/internal/browser"
)

// The page data commands (media, data, ux-audit, perf) each run one function
// in the page. The functions build their JSON in the page, with long strings
// cut and long lists capped, so the output stays small enough for an agent
// to read whole; Go lays it out (compactJSON) or, for perf, words it.

// withArgs binds arguments to a page function: onTarget calls its function
// with none. The arguments travel as a JSON literal, which is valid JS.
func withArgs(fn string, args ...any) string {
	js, _ := json.Marshal(args) // strings, numbers and lists of them always marshal
	return "function() { return (" + fn + ").apply(this, " + string(js) + ") }"
}

// chosen returns the names of the given flags (without their dashes), in
// the order listed; none given means all, which the page functions take as
// an empty list.
func chosen(c *Call, flags ...string) []string {
	out := []string{}
	for _, f := range flags {
		if c.Has("--" + f) {
			out = append(out, f)
		}
	}
	return out
}

// pageJSON runs a page function that returns JSON text and prints it
// compacted (see compactJSON). Should the page have broken JSON.stringify,
// its answer is printed as it came.
func pageJSON(ctx context.Context, c *Call, sel, fn string) (string, error) {
	raw, err := onTarget(ctx, c, sel, fn)
	if err != nil {
		return "", err
	}
	if out, err := compactJSON(raw); err == nil {
		return out, nil
	}
	return raw, nil
}

// maxMedia caps the media list; a gallery page can have thousands.
const maxMedia = 500

func runMedia(ctx context.Context, c *Call) (string, error) {
	kinds := chosen(c, "images", "videos", "audio")
	return pageJSON(ctx, c, optionalArg(c), withArgs(mediaJS, kinds, maxMedia))
}

// mediaJS lists img, video and audio elements in document order (the scoping
// element included), then CSS background images. Each entry says its kind,
// absolute URL (the one the browser chose, for srcset and <source>), MIME
// type (declared, or guessed from a data: URL or the file extension), the
// media's own size and the size it is drawn at. A list longer than max ends
// with {"truncated": true, "omitted": N}.
const mediaJS = `function(kinds, max) {
	const root = this;
	const doc = root.nodeType === 9 ? root : root.ownerDocument;
	const want = k => kinds.length === 0 || kinds.includes(k);
	const cap = (s, n = 500) => { s = String(s ?? ''); return s.length > n ? s.slice(0, n) + '…(' + s.length + ' chars)' : s };
	const abs = u => { if (!u) return ''; try { return new URL(u, doc.baseURI).href } catch { return u } };
	const byExt = {jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp',
		avif: 'image/avif', svg: 'image/svg+xml', ico: 'image/x-icon', bmp: 'image/bmp',
		mp4: 'video/mp4', m4v: 'video/mp4', webm: 'video/webm', ogv: 'video/ogg', mov: 'video/quicktime',
		m3u8: 'application/vnd.apple.mpegurl', mpd: 'application/dash+xml',
		mp3: 'audio/mpeg', wav: 'audio/wav', oga: 'audio/ogg', ogg: 'audio/ogg', opus: 'audio/opus',
		m4a: 'audio/mp4', aac: 'audio/aac', flac: 'audio/flac'};
	const guessMime = u => {
		const data = /^data:([^;,]+)/i.exec(u || '');
		if (data) return data[1].toLowerCase();
		let path = '';
		try { path = new URL(u).pathname } catch { return null }
		const ext = /\.([a-z0-9]+)$/i.exec(path);
		return (ext && byExt[ext[1].toLowerCase()]) || null;
	};
	const drawnSize = (item, el) => { const r = el.getBoundingClientRect(); item.renderedWidth = Math.round(r.width); item.renderedHeight = Math.round(r.height) };
	const matching = sel => {
		const out = [...root.querySelectorAll(sel)];
		if (root.nodeType === 1 && root.matches(sel)) out.unshift(root);
		return out;
	};

	const image = img => {
		const url = img.currentSrc || abs(img.getAttribute('src'));
		const item = {type: 'image', tag: 'img', url: cap(url), mime: guessMime(url),
			naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight};
		drawnSize(item, img);
		item.alt = img.getAttribute('alt');
		item.loaded = img.complete && img.naturalWidth > 0;
		if (img.title) item.title = cap(img.title, 200);
		if (img.srcset) item.srcset = cap(img.srcset);
		const picture = img.parentElement && img.parentElement.tagName === 'PICTURE' ? img.parentElement : null;
		if (picture) {
			item.sources = [...picture.querySelectorAll('source')].map(s => ({srcset: cap(s.srcset), type: s.type || null, media: s.media || null}));
			const chosen = item.sources.find(s => s.type && s.srcset.split(',').some(c => abs(c.trim().split(/\s+/)[0]) === url));
			if (chosen) item.mime = chosen.type;
		}
		return item;
	};
	const playable = (el, type) => {
		const sources = [...el.querySelectorAll('source')].map(s => ({url: cap(abs(s.getAttribute('src'))), type: s.type || null}));
		const url = el.currentSrc || abs(el.getAttribute('src')) || (sources[0] ? sources[0].url : '');
		const declared = sources.find(s => s.url === url && s.type) || sources.find(s => s.type);
		const item = {type, tag: el.tagName.toLowerCase(), url: cap(url), mime: (declared && declared.type) || guessMime(url)};
		if (type === 'video') {
			item.naturalWidth = el.videoWidth;
			item.naturalHeight = el.videoHeight;
		}
		drawnSize(item, el);
		if (type === 'video') item.poster = el.poster ? cap(el.poster) : null;
		if (isFinite(el.duration)) item.duration = Math.round(el.duration * 100) / 100;
		if (el.title) item.title = cap(el.title, 200);
		if (sources.length) item.sources = sources;
		for (const flag of ['controls', 'autoplay', 'muted', 'loop']) if (el[flag]) item[flag] = true;
		return item;
	};

	const out = [];
	for (const el of matching('img, video, audio')) {
		if (el.tagName === 'IMG' && want('images')) out.push(image(el));
		else if (el.tagName === 'VIDEO' && want('videos')) out.push(playable(el, 'video'));
		else if (el.tagName === 'AUDIO' && want('audio')) out.push(playable(el, 'audio'));
	}
	if (want('images')) {
		// Computed styles are costly: look at the first few thousand elements only.
		for (const el of matching('*').slice(0, 5000)) {
			const bg = getComputedStyle(el).backgroundImage;
			if (!bg || bg === 'none') continue;
			for (const m of bg.matchAll(/url\(\s*(["']?)(.*?)\1\s*\)/g)) {
				const url = abs(m[2]);
				const item = {type: 'image', tag: el.tagName.toLowerCase(), source: 'css-background', url: cap(url), mime: guessMime(url)};
				drawnSize(item, el);
				out.push(item);
			}
		}
	}
	if (out.length > max) {
		const omitted = out.length - max;
		out.length = max;
		out.push({truncated: true, omitted});
	}
	return JSON.stringify(out);
}`

func runData(ctx context.Context, c *Call) (string, error) {
	sections := chosen(c, "jsonld", "og", "twitter", "meta")
	return pageJSON(ctx, c, "", withArgs(dataJS, sections))
}

// dataJS gathers the page's structured data: JSON-LD blocks (parsed; one
// that does not parse becomes {"error", "source"}), og:* and twitter:* meta
// properties, and the other meta tags with the title, canonical link and
// language. A property given more than once (og:image) becomes a list.
const dataJS = `function(sections) {
	const doc = this.nodeType === 9 ? this : this.ownerDocument;
	const want = s => sections.length === 0 || sections.includes(s);
	const cap = (s, n = 1000) => { s = String(s ?? ''); return s.length > n ? s.slice(0, n) + '…(' + s.length + ' chars)' : s };
	// Cut long strings anywhere inside parsed JSON-LD, and very deep nesting.
	const capDeep = (v, depth = 0) => {
		if (typeof v === 'string') return cap(v);
		if (v === null || typeof v !== 'object') return v;
		if (depth > 20) return '…(nested too deep)';
		if (Array.isArray(v)) return v.map(x => capDeep(x, depth + 1));
		const o = {};
		for (const [k, x] of Object.entries(v)) o[k] = capDeep(x, depth + 1);
		return o;
	};
	const add = (obj, k, v) => { obj[k] = k in obj ? [].concat(obj[k], v) : v };

	const out = {};
	if (want('jsonld')) {
		out.jsonld = [...doc.querySelectorAll('script')]
			.filter(s => /^\s*application\/ld\+json\s*(;|$)/i.test(s.type))
			.map(s => {
				try { return capDeep(JSON.parse(s.textContent)) }
				catch (e) { return {error: 'unparsable JSON-LD: ' + e.message, source: cap(s.textContent.trim(), 200)} }
			});
	}
	// No prototype, so a meta tag named __proto__ is just a key.
	const og = Object.create(null), twitter = Object.create(null), tags = Object.create(null);
	for (const m of doc.querySelectorAll('meta')) {
		const key = (m.getAttribute('property') || m.getAttribute('name') || '').trim();
		const content = m.getAttribute('content');
		if (!key || content === null) continue;
		const lower = key.toLowerCase();
		if (lower.startsWith('og:')) add(og, key, cap(content));
		else if (lower.startsWith('twitter:')) add(twitter, key, cap(content));
		else add(tags, key, cap(content));
	}
	if (want('og')) out.og = og;
	if (want('twitter')) out.twitter = twitter;
	if (want('meta')) {
		const canonical = doc.querySelector('link[rel~="canonical" i]');
		out.meta = {title: cap(doc.title, 300), canonical: canonical ? canonical.href : null,
			lang: doc.documentElement.lang || null, charset: doc.characterSet, tags};
	}
	return JSON.stringify(out);
}`

// The ux-audit caps: enough to map a page, never a dump of it.
var uxLimits = map[string]int{
	"navGroups":   10,  // nav elements and landmarks
	"navLinks":    50,  // links per group
	"headings":    50,  // h1–h6
	"textBlocks":  30,  // paragraphs of the main content
	"blockChars":  300, // characters per paragraph
	"interactive": 200, // links, buttons, fields
	"minChars":    20,  // shorter paragraphs are labels or crumbs, not text
}

func runUXAudit(ctx context.Context, c *Call) (string, error) {
	return pageJSON(ctx, c, "", withArgs(uxAuditJS, uxLimits))
}

// uxAuditJS maps the page's structure: who the site is, its navigation
// groups, headings, main text and interactive elements (visible ones only),
// each capped; "counts" says how many there were and how many are shown.
const uxAuditJS = `function(limit) {
	const doc = this.nodeType === 9 ? this : this.ownerDocument;
	const loc = doc.location;
	const clean = (s, n) => { s = String(s ?? '').replace(/\s+/g, ' ').trim(); return s.length > n ? s.slice(0, n - 1) + '…' : s };
	const visible = el => el.checkVisibility ? el.checkVisibility({visibilityProperty: true}) : el.getClientRects().length > 0;
	const meta = n => { const m = doc.querySelector('meta[name="' + n + '" i], meta[property="' + n + '" i]'); return m ? clean(m.content, 300) : null };
	const counts = {};
	const capped = (name, list, n) => { counts[name] = {total: list.length, shown: Math.min(list.length, n)}; return list.slice(0, n) };

	// Site identity: the logo is the first image or element that says so.
	const logoEl = doc.querySelector('img[alt*="logo" i], img[src*="logo" i], img[class*="logo" i], img[id*="logo" i], ' +
		'[class*="logo" i] img, [id*="logo" i] img, [class*="logo" i], [id*="logo" i]');
	let logo = null;
	if (logoEl && logoEl.tagName === 'IMG') logo = {src: logoEl.currentSrc || logoEl.src, alt: logoEl.getAttribute('alt')};
	else if (logoEl) logo = {tag: logoEl.tagName.toLowerCase(), text: clean(logoEl.innerText || logoEl.getAttribute('aria-label'), 100)};
	const titleParts = doc.title.split(/\s+[|\-–—·:]\s+/).map(s => s.trim()).filter(Boolean);
	const brand = meta('og:site_name') || meta('application-name') ||
		(logo && logo.alt ? clean(logo.alt.replace(/\blogo\b/i, ''), 100) || null : null) ||
		(logo && logo.text) || (titleParts.length > 1 ? titleParts[titleParts.length - 1] : null);
	const icon = doc.querySelector('link[rel~="icon" i], link[rel~="apple-touch-icon" i]');
	const site = {title: clean(doc.title, 200), url: loc.href, origin: loc.origin, lang: doc.documentElement.lang || null,
		brand, logo, favicon: icon ? icon.href : null, description: meta('description')};

	// Navigation: each outermost nav landmark, then header and footer links
	// that sit outside any nav.
	const navSel = 'nav, [role="navigation"]';
	const link = a => ({text: clean(a.innerText || a.getAttribute('aria-label') || a.title || (a.querySelector('img') || {}).alt, 100), href: a.href});
	const group = (label, links) => {
		const g = {label, links: links.slice(0, limit.navLinks).map(link)};
		if (links.length > limit.navLinks) g.omitted = links.length - limit.navLinks;
		return g;
	};
	const navLabel = (n, i) => {
		const by = n.getAttribute('aria-labelledby');
		const labelled = by && doc.getElementById(by.split(/\s+/)[0]);
		return clean(n.getAttribute('aria-label') || (labelled && labelled.innerText), 80) || (n.id ? '#' + n.id : '') ||
			(n.closest('header, [role="banner"]') ? 'nav in header' : n.closest('footer, [role="contentinfo"]') ? 'nav in footer' : 'nav ' + (i + 1));
	};
	const groups = [...doc.querySelectorAll(navSel)]
		.filter(n => !(n.parentElement && n.parentElement.closest(navSel)))
		.map((n, i) => group(navLabel(n, i), [...n.querySelectorAll('a[href]')].filter(visible)))
		.filter(g => g.links.length);
	for (const [sel, label] of [['header, [role="banner"]', 'header'], ['footer, [role="contentinfo"]', 'footer']]) {
		const landmark = doc.querySelector(sel);
		if (!landmark) continue;
		const loose = [...landmark.querySelectorAll('a[href]')].filter(a => !a.closest(navSel) && visible(a));
		if (loose.length) groups.push(group(label + ' links', loose));
	}
	const navigation = capped('navigation', groups, limit.navGroups);

	const headingEls = [...doc.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')]
		.filter(h => visible(h) && clean(h.innerText, 1));
	const headings = capped('headings', headingEls, limit.headings).map(h => ({
		level: /^H[1-6]$/.test(h.tagName) ? +h.tagName[1] : +(h.getAttribute('aria-level') || 2),
		text: clean(h.innerText, 150)}));

	// Text blocks come from the main content when the page marks it.
	// Without one, the page's chrome (nav, header, footer, aside) is left out.
	const main = doc.querySelector('main, [role="main"]') || doc.querySelector('article');
	const inChrome = p => !main && p.closest('nav, header, footer, aside, [role="navigation"]');
	const blockEls = [...(main || doc.body || doc).querySelectorAll('p, blockquote, figcaption, dd, pre')]
		.filter(p => !inChrome(p) && visible(p) && clean(p.innerText, Infinity).length >= limit.minChars);
	const textBlocks = capped('textBlocks', blockEls, limit.textBlocks).map(p => clean(p.innerText, limit.blockChars));

	const roleOf = el => {
		const explicit = el.getAttribute('role');
		if (explicit) return explicit.split(/\s+/)[0];
		switch (el.tagName) {
			case 'A': return 'link';
			case 'BUTTON': case 'SUMMARY': return 'button';
			case 'SELECT': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
			case 'TEXTAREA': return 'textbox';
			case 'INPUT':
				if (['button', 'submit', 'reset', 'image'].includes(el.type)) return 'button';
				if (['checkbox', 'radio'].includes(el.type)) return el.type;
				if (el.type === 'range') return 'slider';
				return el.type === 'search' ? 'searchbox' : 'textbox';
		}
		return 'generic';
	};
	const labelOf = el => {
		if (el.tagName === 'INPUT' && ['button', 'submit', 'reset'].includes(el.type)) return el.value;
		if (['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) {
			return (el.labels && el.labels[0] && el.labels[0].innerText) || el.getAttribute('aria-label') || el.placeholder || el.name || el.title;
		}
		return el.innerText || el.getAttribute('aria-label') || el.title || (el.querySelector('img') || {}).alt;
	};
	const interactiveSel = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [contenteditable="true"], [contenteditable=""], ' +
		['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'option', 'combobox', 'textbox', 'searchbox', 'slider']
			.map(r => '[role="' + r + '"]').join(', ');
	const interactiveEls = [...doc.querySelectorAll(interactiveSel)].filter(visible);
	const interactive = capped('interactive', interactiveEls, limit.interactive).map(el => {
		const item = {role: roleOf(el), tag: el.tagName.toLowerCase(), text: clean(labelOf(el), 100)};
		if (el.tagName === 'A') item.href = el.href;
		if (el.tagName === 'INPUT' || el.tagName === 'BUTTON') item.type = el.type;
		if (el.disabled) item.disabled = true;
		return item;
	});

	return JSON.stringify({site, navigation, headings, textBlocks, interactive, counts});
}`

func runPerf(ctx context.Context, c *Call) (string, error) {
	raw, err := onTarget(ctx, c, "", perfJS)
	if err != nil {
		return "", err
	}
	var p perfData
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		return "", Errorf("Run 'js performance.getEntriesByType(\"navigation\")' to look at the raw entry.", "The page's timing data could not be read: %v.", err)
	}
	return formatPerf(p), nil
}

// perfJS returns the navigation entry, the paint entries, the last
// largest-contentful-paint entry (a buffered observer hands over what was
// recorded before it existed) and the resource count and bytes, as JSON.
const perfJS = `async function() {
	const nav = performance.getEntriesByType('navigation')[0];
	// about:blank has an entry too, of a load that fetched nothing.
	if (!nav || location.protocol === 'about:') return JSON.stringify({url: location.href});
	const paint = {};
	for (const p of performance.getEntriesByType('paint')) paint[p.name] = p.startTime;
	const lcp = await new Promise(resolve => {
		let last = null;
		const keep = entries => { if (entries.length) last = entries[entries.length - 1] };
		try {
			const po = new PerformanceObserver(list => keep(list.getEntries()));
			po.observe({type: 'largest-contentful-paint', buffered: true});
			setTimeout(() => { keep(po.takeRecords()); po.disconnect(); resolve(last) }, 50);
		} catch { resolve(null) }
	});
	const resources = performance.getEntriesByType('resource');
	return JSON.stringify({
		url: location.href, hasNavigation: true, type: nav.type, status: nav.responseStatus || 0, protocol: nav.nextHopProtocol,
		timing: nav.toJSON(), paint,
		lcp: lcp && {time: lcp.startTime, element: lcp.element ? lcp.element.tagName.toLowerCase() : ''},
		resources: resources.length, resourceBytes: resources.reduce((n, r) => n + (r.transferSize || 0), 0),
	});
}`

// perfData is what perfJS returns. Times are milliseconds since the
// navigation started; 0 means the moment did not happen (yet).
type perfData struct {
	URL           string
	HasNavigation bool
	Type          string
	Status        int
	Protocol      string
	Timing        struct {
		RedirectStart, RedirectEnd             float64
		DomainLookupStart, DomainLookupEnd     float64
		ConnectStart, ConnectEnd               float64
		SecureConnectionStart                  float64
		RequestStart, ResponseStart            float64
		ResponseEnd, DomInteractive            float64
		DomContentLoadedEventEnd, LoadEventEnd float64
		TransferSize, DecodedBodySize          float64
	}
	Paint map[string]float64
	LCP   *struct {
		Time    float64
		Element string
	}
	Resources     int
	ResourceBytes float64
}

// formatPerf renders the timings as aligned "name  value" lines.
func formatPerf(p perfData) string {
	if !p.HasNavigation {
		return fmt.Sprintf("No navigation timing for %s: the document was not loaded from a URL (about:blank, or written by a script). Run 'goto <url>' first.", p.URL)
	}
	t := p.Timing
	var lines [][2]string
	add := func(name, value string) { lines = append(lines, [2]string{name, value}) }
	if t.RedirectEnd > 0 {
		add("redirect", ms(t.RedirectEnd-t.RedirectStart))
	}
	add("DNS", ms(t.DomainLookupEnd-t.DomainLookupStart))
	add("TCP", ms(t.ConnectEnd-t.ConnectStart))
	if t.SecureConnectionStart > 0 {
		add("TLS", ms(t.ConnectEnd-t.SecureConnectionStart))
	}
	add("request → first byte", ms(t.ResponseStart-t.RequestStart))
	add("TTFB", ms(t.ResponseStart))
	add("response download", ms(t.ResponseEnd-t.ResponseStart))
	add("DOM interactive", moment(t.DomInteractive))
	add("DOMContentLoaded", moment(t.DomContentLoadedEventEnd))
	add("load", moment(t.LoadEventEnd))
	for _, name := range []string{"first-paint", "first-contentful-paint"} {
		if v, ok := p.Paint[name]; ok {
			add(name, ms(v))
		} else {
			add(name, "none recorded")
		}
	}
	if p.LCP != nil {
		add("largest-contentful-paint", ms(p.LCP.Time)+elementNote(p.LCP.Element))
	}
	add("transfer size", documentSize(t.TransferSize, t.DecodedBodySize))
	add("resources", fmt.Sprintf("%d (%s transferred)", p.Resources, sizeText(p.ResourceBytes)))

	var b strings.Builder
	fmt.Fprintf(&b, "Timings of %s (%s", p.URL, p.Type)
	if p.Status > 0 {
		fmt.Fprintf(&b, ", HTTP %d", p.Status)
	}
	if p.Protocol != "" {
		fmt.Fprintf(&b, ", %s", p.Protocol)
	}
	b.WriteString("), in ms since the navigation started:\n")
	for _, l := range lines {
		fmt.Fprintf(&b, "%-26s %s\n", l[0], l[1])
	}
	return strings.TrimRight(b.String(), "\n")
}

func ms(v float64) string { return fmt.Sprintf("%d ms", int64(math.Round(math.Max(v, 0)))) }

// moment is a point in time, which 0 means has not come yet.
func moment(v float64) string {
	if v <= 0 {
		return "not yet"
	}
	return ms(v)
}

func elementNote(tag string) string {
	if tag == "" {
		return ""
	}
	return " (<" + tag + ">)"
}

func sizeText(n float64) string { return browser.HumanBytes(int64(n)) }

// documentSize words the document's bytes. Nothing transferred for a body
// that has bytes means the cache or the file system served it.
func documentSize(transferred, decoded float64) string {
	if transferred == 0 && decoded > 0 {
		return "0B (document from the cache or a file; " + sizeText(decoded) + " decoded)"
	}
	return sizeText(transferred) + " (document; " + sizeText(decoded) + " decoded)"
}

// Page data as JSON reads best with one record a line: a list of 200 links
// is then 200 lines, not 1,200. compactJSON re-indents JSON that way: a
// record (an object of at most maxRecordKeys scalars) goes on one line, as
// does a short list of scalars; everything else is indented two spaces a
// level. Key order and number spelling are kept as the page wrote them.
const (
	maxRecordKeys = 12
	maxListLine   = 120 // longer lists of scalars get a line per item
)

// jsonValue is one decoded JSON value in source order: a scalar (its JSON
// text), an object (keys and values) or an array (values).
type jsonValue struct {
	scalar string
	object bool
	array  bool
	keys   []string
	values []*jsonValue
}

func compactJSON(raw string) (string, error) {
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	v, err := decodeJSONValue(dec, 0)
	if err != nil {
		return "", err
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", fmt.Errorf("unexpected data after the JSON value")
	}
	var b strings.Builder
	writeJSONValue(&b, v, "")
	return b.String(), nil
}

// maxDepthJSON bounds nesting: indentation makes the output grow with the
// square of the depth. The page functions never nest half as deep.
const maxDepthJSON = 64

func decodeJSONValue(dec *json.Decoder, depth int) (*jsonValue, error) {
	if depth > maxDepthJSON {
		return nil, fmt.Errorf("JSON nested deeper than %d levels", maxDepthJSON)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok := tok.(type) {
	case json.Delim:
		v := &jsonValue{object: tok == '{', array: tok == '['}
		for dec.More() {
			if v.object {
				key, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v.keys = append(v.keys, key.(string)) // the decoder only allows string keys
			}
			item, err := decodeJSONValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			v.values = append(v.values, item)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return v, nil
	case json.Number:
		return &jsonValue{scalar: tok.String()}, nil
	case nil:
		return &jsonValue{scalar: "null"}, nil
	default: // string or bool
		return &jsonValue{scalar: jsonText(tok)}, nil
	}
}

// jsonText is v as JSON, with <, > and & left as they are.
func jsonText(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v) // strings and bools always encode
	return strings.TrimSuffix(b.String(), "\n")
}

func writeJSONValue(b *strings.Builder, v *jsonValue, indent string) {
	if !v.object && !v.array {
		b.WriteString(v.scalar)
		return
	}
	open, end := "[", "]"
	if v.object {
		open, end = "{", "}"
	}
	if len(v.values) == 0 {
		b.WriteString(open + end)
		return
	}
	if line, ok := oneLine(v); ok {
		b.WriteString(line)
		return
	}
	b.WriteString(open)
	inner := indent + "  "
	for i, item := range v.values {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n" + inner)
		if v.object {
			b.WriteString(jsonText(v.keys[i]) + ": ")
		}
		writeJSONValue(b, item, inner)
	}
	b.WriteString("\n" + indent + end)
}

// oneLine renders a record or a short list of scalars (empty objects and
// arrays count as scalars) on one line; ok is false for anything else.
func oneLine(v *jsonValue) (line string, ok bool) {
	if v.object && len(v.values) > maxRecordKeys {
		return "", false
	}
	parts := make([]string, len(v.values))
	for i, item := range v.values {
		switch {
		case (item.object || item.array) && len(item.values) > 0:
			return "", false
		case item.object:
			parts[i] = "{}"
		case item.array:
			parts[i] = "[]"
		default:
			parts[i] = item.scalar
		}
		if v.object {
			parts[i] = jsonText(v.keys[i]) + ": " + parts[i]
		}
	}
	if v.object {
		return "{" + strings.Join(parts, ", ") + "}", true
	}
	line = "[" + strings.Join(parts, ", ") + "]"
	return line, len(line) <= maxListLine
}

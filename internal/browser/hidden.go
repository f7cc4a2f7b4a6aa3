package browser

import (
	"context"
	"fmt"
	"strings"

	cdproto "github.com/chromedp/cdproto/cdp"
)

// HiddenContent scans one frame's document (frame "" is the tab's main
// frame) for text a sighted reader would not see but a model reading the
// DOM would, and that reads as instructions to an AI; and for ARIA labels
// that read as instructions. It returns at most 8 short descriptions, then
// "+N more hidden elements"; nil when the page is clean.
func (t *Tab) HiddenContent(ctx context.Context, frame cdproto.FrameID) ([]string, error) {
	suspect, err := t.EvaluateIn(ctx, frame, "("+SuspectJS+").call(document, true)")
	if err != nil || String(suspect) != "true" {
		return nil, err
	}
	obj, err := t.EvaluateIn(ctx, frame, hiddenContentJS)
	if err != nil {
		return nil, err
	}
	var found [][]string
	if obj == nil || !decodeInto(obj.Value, &found) {
		return nil, fmt.Errorf("the hidden-content scan returned no list")
	}
	return HiddenWarnings(found), nil
}

// maxHiddenWarnings is how many hidden elements are described; the rest
// are counted.
const maxHiddenWarnings = 8

// HiddenWarnings words the scan's reports ([kind, tag, why] each). The scan
// runs in the page's own world, so what it returns is page data: only a
// tag name's safe characters and reasons from the scan's own list get
// through, and the page's text never does, since the warnings are printed
// outside the envelope.
func HiddenWarnings(reports [][]string) []string {
	var out []string
	for i, r := range reports {
		if i == maxHiddenWarnings {
			more := len(reports) - maxHiddenWarnings
			out = append(out, fmt.Sprintf("+%d more hidden element%s", more, map[bool]string{true: "", false: "s"}[more == 1]))
			break
		}
		if len(r) != 3 {
			continue
		}
		kind, tag, why := r[0], safeTag(r[1]), r[2]
		switch kind {
		case "hidden":
			if !hiddenReasons[why] {
				why = "hidden"
			}
			out = append(out, fmt.Sprintf("hidden <%s> (%s) reads as instructions to an AI", tag, why))
		case "aria-label", "aria-description", "aria-labelledby":
			out = append(out, fmt.Sprintf("%s on <%s> reads as instructions to an AI", kind, tag))
		}
	}
	return out
}

// hiddenReasons are the reasons hiddenScanJS gives.
var hiddenReasons = map[string]bool{
	"display:none": true, "in a closed <details>": true, "opacity 0": true, "clipped": true, "zero size": true,
	"off-screen": true, "aria-hidden": true, "font-size 0": true, "visibility:hidden": true,
	"transparent text": true, "text colour matches background": true,
}

// safeTag keeps a tag name to letters, digits and '-', at most 24 of them.
func safeTag(tag string) string {
	var b strings.Builder
	for _, c := range tag {
		if b.Len() == 24 {
			break
		}
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' {
			b.WriteRune(c)
		}
	}
	if b.Len() == 0 {
		return "element"
	}
	return b.String()
}

// hiddenContentJS runs the scan over the whole document, ARIA included.
const hiddenContentJS = `(() => {
	` + hiddenScanJS + `
	const root = document.body || document.documentElement;
	if (!root) return [];
	return hiddenScan(root, false, true).reports;
})()`

// StripHiddenTextJS is the text command's function: called with this bound
// to a document or an element, it returns the visible text with runs of
// blank lines folded, leaving out text hidden by tricks a page has no
// honest need for (opacity 0, font-size 0, clipped or zero-size boxes,
// far off-screen, text the colour of its background) and any hidden or
// aria-hidden text that reads as instructions. innerText already leaves out
// display:none and visibility:hidden. Called with withWarnings, it returns
// {text, warnings}, the warnings describing the instruction-like text left
// out.
//
// Without strict, a page whose text reads as instructions nowhere (almost
// every page) costs one walk and the patterns: its innerText comes back as
// it is. Reading every element's style costs some 40 times innerText on a
// big page, so only paired agents (strict) pay it on every page.
//
// To read innerText without the stripped elements, it marks them with a
// temporary attribute that an adopted style sheet hides, all in one
// synchronous call, so no frame ever renders the change.
const StripHiddenTextJS = `function(withWarnings, strict) {
	` + hiddenScanJS + `
	const isDoc = this.nodeType === 9;
	const doc = isDoc ? this : this.ownerDocument;
	const root = isDoc ? (this.body || this.documentElement) : this;
	let text = '', warnings = [];
	if (root && !strict && !hiddenScan(root, false, false).reports.length) {
		text = root.innerText ?? root.textContent ?? '';
	} else if (root) {
		const scan = hiddenScan(root, true, false);
		warnings = scan.reports;
		if (!scan.rootStripped) text = innerTextWithout(root, doc, scan.strip);
	}
	const lines = text.split('\n').map(l => l.replace(/[ \t\u00a0]+/g, ' ').trim());
	const out = [];
	for (const l of lines) if (l || (out.length && out[out.length - 1])) out.push(l);
	text = out.join('\n').trim();
	return withWarnings ? {text, warnings} : text;

	function innerTextWithout(root, doc, strip) {
		const read = () => root.innerText ?? root.textContent ?? '';
		if (!strip.length) return read();
		const attr = 'data-browse-strip-' + Math.random().toString(36).slice(2, 10);
		const sheet = new doc.defaultView.CSSStyleSheet();
		sheet.replaceSync('[' + attr + ']{display:none!important}');
		const adopted = new Map();
		const inline = [];
		try {
			for (const el of strip) {
				el.setAttribute(attr, '');
				const scope = el.getRootNode();
				if (!adopted.has(scope) && scope.adoptedStyleSheets) {
					adopted.set(scope, [...scope.adoptedStyleSheets]);
					scope.adoptedStyleSheets = [...scope.adoptedStyleSheets, sheet];
				}
				// An inline display:…!important outranks any sheet.
				if (el.style && el.style.getPropertyPriority('display') === 'important') {
					inline.push([el, el.style.getPropertyValue('display')]);
					el.style.setProperty('display', 'none', 'important');
				}
			}
			return read();
		} finally {
			for (const [scope, sheets] of adopted) scope.adoptedStyleSheets = sheets;
			for (const el of strip) el.removeAttribute(attr);
			for (const [el, display] of inline) el.style.setProperty('display', display, 'important');
		}
	}
}`

// hiddenScanJS declares hiddenScan(root, strip, withAria), which looks at
// the text under root and returns {strip, reports, rootStripped}: with
// strip, the elements whose text the text command leaves out and whether
// root itself lies in such a region; descriptions of the hidden text (and,
// withAria, the ARIA labels) that reads as instructions.
//
// Cost on big pages: the text nodes are walked once (at most 20,000) and
// searched for instructions as one string. Only without strip does a clean
// page end there; otherwise, and for each hit, computed styles are read for
// the element holding the text and its ancestors, each element once, and
// layout boxes only for positioned, overflow-clipped or transformed ones.
const hiddenScanJS = `function hiddenScan(root, strip, withAria) {
	const TEXT_BUDGET = 20000, MATCH_BUDGET = 200, ARIA_BUDGET = 5000, MAX_REPORTS = 100;
	const doc = root.ownerDocument || root;
	const view = doc.defaultView;
	const SKIP = new Set(['script', 'style', 'noscript', 'template']);

	const INSTRUCTIONS = ` + instructionPatternsJS + `;
	// instructionHits lists where text reads as instructions, in order.
	const instructionHits = (text, limit) => {
		const hits = [];
		for (const re of INSTRUCTIONS) {
			re.lastIndex = 0;
			for (let m; hits.length < limit && (m = re.exec(text)); ) {
				hits.push([m.index, m.index + m[0].length]);
				if (!m[0].length) re.lastIndex++;
			}
		}
		return hits.sort((a, b) => a[0] - b[0]);
	};
	const instructionAt = text => { const h = instructionHits(text, 1); return h.length ? h[0][0] : -1; };
	` + mayInstructJS + `
	const collapse = s => s.slice(0, 20000).replace(/\s+/g, ' ').trim();

	const styles = new Map();
	const style = el => {
		let s = styles.get(el);
		if (!s) { s = view.getComputedStyle(el); styles.set(el, s); }
		return s;
	};
	const parentOf = el => el.parentElement || (el.parentNode && el.parentNode.host) || null;

	let docLimits;
	const limits = () => {
		if (!docLimits) {
			const de = doc.documentElement, body = doc.body;
			const clipped = axis => [de, body].some(e => e && /hidden|clip/.test(style(e)['overflow' + axis]));
			docLimits = {
				x: (clipped('X') ? view.innerWidth : Math.max(de.scrollWidth, view.innerWidth)) + 1000,
				y: (clipped('Y') ? view.innerHeight : Math.max(de.scrollHeight, view.innerHeight)) + 1000,
			};
		}
		return docLimits;
	};

	// boxHiding is why el's box hides its whole subtree, whatever the
	// descendants say: {why, gone} for what innerText already skips,
	// {why, deceptive} for tricks, {why} for honest hiding (ARIA, a fade-in
	// that has not run yet); null when it hides nothing.
	const boxHiding = el => {
		const s = style(el);
		if (s.display === 'none') return {why: 'display:none', gone: true};
		const p = el.parentElement;
		if (p && p.localName === 'details' && !p.open && !(el.localName === 'summary' && p.querySelector(':scope > summary') === el))
			return {why: 'in a closed <details>', gone: true};
		let honest = null;
		if (parseFloat(s.opacity) < 0.1) {
			// Fade-in-on-scroll sections wait at opacity 0 with a transition
			// or an animation: honest, unless they carry instructions.
			const fading = s.animationName !== 'none' || (/opacity|all/.test(s.transitionProperty) && /[1-9]/.test(s.transitionDuration));
			if (!fading) return {why: 'opacity 0', deceptive: true};
			honest = {why: 'opacity 0'};
		}
		const position = s.position;
		const overflow = s.overflow;
		const transform = s.transform;
		if ((position === 'absolute' || position === 'fixed') && s.clip.startsWith('rect(')) {
			const [top, right, bottom, left] = s.clip.slice(5, -1).split(/[\s,]+/).map(parseFloat);
			if (bottom - top <= 1 || right - left <= 1) return {why: 'clipped', deceptive: true};
		}
		const clipPath = s.clipPath;
		if (clipPath !== 'none' && clippedAway(clipPath)) return {why: 'clipped', deceptive: true};
		if (position !== 'static' || overflow !== 'visible' || transform !== 'none') {
			const r = el.getBoundingClientRect();
			if (overflow !== 'visible' && s.display !== 'inline' && s.display !== 'contents' &&
				((r.width <= 1 && s.overflowX !== 'visible') || (r.height <= 1 && s.overflowY !== 'visible')))
				return {why: 'zero size', deceptive: true};
			if (transform !== 'none' && r.width === 0 && r.height === 0) return {why: 'zero size', deceptive: true};
			if (position !== 'static') {
				const fixed = position === 'fixed';
				const x = fixed ? 0 : view.scrollX, y = fixed ? 0 : view.scrollY;
				const lim = limits();
				if (r.right + x < -1000 || r.bottom + y < -1000 || r.left + x > lim.x || r.top + y > lim.y)
					return {why: 'off-screen', deceptive: true};
			}
		}
		if (!honest && el.getAttribute('aria-hidden') === 'true') honest = {why: 'aria-hidden'};
		return honest;
	};
	const clippedAway = cp => {
		const m = /^inset\(([^)]*)\)/.exec(cp);
		if (m) {
			const v = m[1].split(' round ')[0].trim().split(/\s+/).map(t => t.endsWith('%') ? parseFloat(t) : NaN);
			const [t, r = t, b = t, l = r] = v;
			return t + b >= 100 || l + r >= 100;
		}
		return /^(?:circle|ellipse)\(\s*0(?:px|%)?[\s)]/.test(cp);
	};

	// boxOf(el) is the outermost box hiding el, as a record {el, why, ...}.
	// A deceptive or gone box wins over an honest one further out.
	const boxes = new Map();
	const boxOf = el => {
		const chain = [];
		for (let e = el; e && !boxes.has(e); e = parentOf(e)) chain.push(e);
		for (let i = chain.length - 1; i >= 0; i--) {
			const e = chain[i], p = parentOf(e);
			let rec = p ? boxes.get(p) : null;
			if (!rec || !(rec.gone || rec.deceptive)) {
				const own = boxHiding(e);
				if (own && (own.gone || own.deceptive || !rec)) rec = Object.assign({el: e}, own);
			}
			boxes.set(e, rec);
		}
		return boxes.get(el);
	};

	// Backdrops: the solid colour behind an element's text, found up the
	// ancestors; null when unknown (an image, a translucent layer, or an
	// absolutely placed box that may sit over anything).
	const backdrops = new Map();
	const CANVAS = {rgb: [255, 255, 255, 1]};
	const parseColour = c => {
		const m = /^rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)$/.exec(c);
		return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null;
	};
	const backdrop = el => {
		const chain = [];
		let found;
		for (let e = el; ; e = parentOf(e)) {
			if (!e) { found = CANVAS; break; }
			if (backdrops.has(e)) { found = backdrops.get(e); break; }
			const s = style(e);
			const bg = parseColour(s.backgroundColor);
			const image = s.backgroundImage !== 'none';
			if (!image && bg && bg[3] >= 0.9) { found = {rgb: bg}; backdrops.set(e, found); break; }
			if (image || !bg || bg[3] > 0 || s.position === 'absolute' || s.position === 'fixed') {
				found = null; backdrops.set(e, null); break;
			}
			chain.push(e);
		}
		for (const e of chain) backdrops.set(e, found);
		return found;
	};

	// Inherited hiding: properties a descendant may undo (visibility, font
	// size, text-indent, colour), so they are judged on the element that
	// holds the text, then traced out to the outermost element that hides
	// the same way.
	const inheritedKinds = [
		['font-size 0', true, s => parseFloat(s.fontSize) < 1],
		['off-screen', true, s => parseFloat(s.textIndent) <= -999],
		['colour', true, (s, el) => colourHiding(s, el)],
		['visibility:hidden', false, s => s.visibility !== 'visible'],
	];
	const colourHiding = (s, el) => {
		const fill = parseColour(s.webkitTextFillColor);
		if (!fill) return false;
		const bg = backdrop(el);
		if (!bg) return false;
		if (fill[3] < 0.1) return 'transparent text';
		const [r, g, b] = bg.rgb;
		return Math.max(Math.abs(fill[0] - r), Math.abs(fill[1] - g), Math.abs(fill[2] - b)) <= 10 && 'text colour matches background';
	};
	const inheritedOf = el => {
		const s = style(el);
		for (const [kind, deceptive, test] of inheritedKinds) {
			let why = test(s, el);
			if (!why) continue;
			let top = el;
			for (let p = parentOf(top); p && test(style(p), p); p = parentOf(p)) top = p;
			if (kind === 'colour' && (top.textContent || '').trim().length <= 10) continue;
			return {el: top, why: kind === 'colour' ? why : kind, deceptive, inherited: true};
		}
		return null;
	};

	// recordOf(el) is why the text el holds is hidden, or null.
	const records = new Map();
	const recordOf = el => {
		if (records.has(el)) return records.get(el);
		const box = boxOf(el);
		let rec = box;
		if (!box || !(box.gone || box.deceptive)) {
			const inh = inheritedOf(el);
			if (inh && (inh.deceptive || !box)) rec = inh;
		}
		records.set(el, rec);
		return rec;
	};
	// One record per hiding element and reason, so a subtree counts once.
	const unique = new Map();
	const canonical = rec => {
		if (!rec) return null;
		let byWhy = unique.get(rec.el);
		if (!byWhy) unique.set(rec.el, byWhy = new Map());
		if (!byWhy.has(rec.why)) byWhy.set(rec.why, rec);
		return byWhy.get(rec.why);
	};
	const hiddenRecord = el => canonical(recordOf(el));

	// Walk the text, shadow roots included, into one string with offsets:
	// unless stripping, only when the text (one native read, far cheaper
	// than the walk) reads as instructions somewhere, or shadow roots may
	// hide text textContent does not see.
	const nodes = [], starts = [], parts = [];
	let length = 0, budget = TEXT_BUDGET;
	if (!strip && !mayInstruct(root.textContent || '')) budget = 0;
	const scopes = [root];
	if (root.shadowRoot) scopes.push(root.shadowRoot);
	while (scopes.length && budget > 0) {
		const w = doc.createTreeWalker(scopes.shift(), NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
		for (let n = w.nextNode(); n && budget > 0; n = w.nextNode()) {
			if (n.nodeType === 1) {
				if (n.shadowRoot) scopes.push(n.shadowRoot);
				continue;
			}
			budget--;
			const p = n.parentElement || (n.parentNode && n.parentNode.host);
			if (!p || SKIP.has(p.localName) || !/\S/.test(n.data)) continue;
			nodes.push(n); starts.push(length); parts.push(n.data);
			length += n.data.length + 1;
		}
	}
	const parentText = n => n.parentElement || n.parentNode.host;
	const nodeAt = offset => {
		let lo = 0, hi = starts.length - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if (starts[mid] <= offset) lo = mid; else hi = mid - 1;
		}
		return lo;
	};

	// Instructions in hidden text: each hit is pinned on the hidden element
	// holding (part of) it.
	const text = parts.join('\n');
	const flagged = [];
	for (const [from, to] of instructionHits(text, MATCH_BUDGET)) {
		for (let i = nodeAt(from); i < nodes.length && starts[i] < to; i++) {
			const rec = hiddenRecord(parentText(nodes[i]));
			if (!rec) continue;
			if (rec.hit === undefined) { rec.hit = from; flagged.push(rec); }
			break;
		}
	}
	const reported = [];
	for (const rec of flagged) {
		if (reported.some(r => r.el.contains(rec.el))) continue;
		for (let i = reported.length - 1; i >= 0; i--) if (rec.el.contains(reported[i].el)) reported.splice(i, 1);
		reported.push(rec);
	}
	reported.sort((a, b) => a.el.compareDocumentPosition(b.el) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);
	// Reports carry no page text: [kind, tag name, why], worded in Go.
	const reports = reported.map(rec => ['hidden', rec.el.localName, rec.why]);

	// What the text command leaves out: every deceptive region (one hidden
	// by an inherited property only if none of its text shows after all),
	// and every hidden region with instructions.
	const stripped = [];
	let rootStripped = false;
	if (strip) {
		const allHidden = rec => {
			const w = doc.createTreeWalker(rec.el, NodeFilter.SHOW_TEXT);
			for (let n = w.nextNode(), i = 0; n && i < 2000; n = w.nextNode(), i++) {
				const p = n.parentElement;
				if (p && !SKIP.has(p.localName) && /\S/.test(n.data) && !recordOf(p)) return false;
			}
			return true;
		};
		const drop = new Set(flagged);
		for (const n of nodes) {
			const rec = hiddenRecord(parentText(n));
			if (rec && rec.deceptive && !drop.has(rec) && (!rec.inherited || allHidden(rec))) drop.add(rec);
		}
		for (const rec of drop) {
			if (rec.el === root || rec.el.contains(root)) rootStripped = true;
			else stripped.push(rec.el);
		}
	}

	if (withAria) {
		let seen = 0;
		for (const el of root.querySelectorAll('[aria-label],[aria-description],[aria-labelledby]')) {
			if (++seen > ARIA_BUDGET) break;
			for (const attr of ['aria-label', 'aria-description', 'aria-labelledby']) {
				let value = el.getAttribute(attr);
				if (!value) continue;
				if (attr === 'aria-labelledby') {
					const scope = el.getRootNode();
					value = value.split(/\s+/).map(id => {
						const ref = scope.getElementById ? scope.getElementById(id) : null;
						return ref ? ref.textContent : '';
					}).join(' ');
				}
				if (instructionAt(collapse(value)) >= 0) {
					reports.push([attr, el.localName, '']);
					break;
				}
			}
		}
	}
	if (reports.length > MAX_REPORTS) reports.length = MAX_REPORTS;
	return {strip: stripped, reports, rootStripped};
}`

// instructionPatternsJS are the phrases that address an AI rather than a
// reader, as a JavaScript array of regular expressions. Quiet on purpose:
// "You are now logged in" or "never reveal your password" are not hits.
const instructionPatternsJS = `[
	/\b(?:ignore|disregard|forget|override)\s+(?:(?:all|any|the|of|your|my|these|those|every)\s+){0,3}(?:previous|prior|above|earlier|preceding|former|system)\s+(?:instructions?|prompts?|messages?|directions?|rules?|context|guidelines)\b/gi,
	/\byou\s+are\s+now\s+(?:in\s+)?(?:an?\s+|the\s+)?(?:unrestricted|unfiltered|jailbroken|uncensored|evil|admin(?:istrator)?|developer|god|debug|root|sudo|dan|ai|assistant|chatbot|agent|model)\b/gi,
	/\bnew\s+(?:system\s+)?instructions?\s*[:\uff1a\-\u2013\u2014]/gi,
	/\b(?:follow|obey)\s+(?:these|the|my|your)\s+new\s+instructions\b/gi,
	/\bsystem\s+prompt\s*:/gi,
	/\b(?:reveal|print|show|repeat|output|leak|dump|disclose)\s+(?:your|the)\s+(?:system\s+prompt|(?:initial|original|hidden|secret)\s+(?:prompt|instructions))/gi,
	/(?:^|[.!?;]\s|[\[<(|])\s*(?:system|assistant)\s*[\]>)|]*\s*:\s*\S/gim,
	/\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|alert|notify|warn)\s+the\s+user\b/gi,
	/(?<!\b(?:never|not|n't)\s+)\breveal\s+(?:your|the)\s+(?:\w+\s+)?(?:tokens?|keys?|passwords?|prompts?|instructions|secrets?|credentials)\b/gi,
	/<\|(?:im_start|im_end|system|endoftext)\|>|\[\/?INST\]|<<\/?SYS>>/gi,
	/\b(?:execute|run)\s+the\s+following\s+(?:instructions?|directives?|commands?\s+(?:immediately|silently|now|without))\b/gi,
	/\bif\s+you\s+are\s+an?\s+(?:ai|llm|language\s+model|assistant|chatbot|bot|agent)\b/gi,
	/\b(?:note|message|attention)\s+(?:to\s+)?(?:all\s+)?(?:ai|llm|language\s+model|assistant|agent)s?\s*[:,]/gi,
	]`

// mayInstructJS declares mayInstruct(text), a looser test of INSTRUCTIONS
// for text read as one native string: textContent runs adjacent nodes
// together, so word boundaries and look-behinds cannot be trusted there,
// and the test must find a superset of what the patterns find.
const mayInstructJS = `const LOOSE = INSTRUCTIONS.map(re => new RegExp(re.source.replace("(?<!\\b(?:never|not|n't)\\s+)", '').replaceAll('\\b', ''), 'i' + (re.multiline ? 'm' : '')));
	const mayInstruct = text => LOOSE.some(re => re.test(text));`

// SuspectJS, called with this bound to a document or an element, says
// whether its text (or, with true, its ARIA labels) may read as
// instructions anywhere. Nearly every page answers false: one native read
// and the patterns, and the full scan (twenty times the script) is not
// sent at all. Text inside shadow roots is not in textContent; paired
// agents' strict text walks those too.
const SuspectJS = `function(withAria) {
	const INSTRUCTIONS = ` + instructionPatternsJS + `;
	` + mayInstructJS + `
	const root = this.nodeType === 9 ? (this.body || this.documentElement) : this;
	if (!root) return false;
	if (mayInstruct(root.textContent || '')) return true;
	if (withAria) {
		let seen = 0;
		for (const el of root.querySelectorAll('[aria-label],[aria-description]')) {
			if (++seen > 5000) break;
			if (mayInstruct((el.getAttribute('aria-label') || '') + ' ' + (el.getAttribute('aria-description') || ''))) return true;
		}
	}
	return false;
}`

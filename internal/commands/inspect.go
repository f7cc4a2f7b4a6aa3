package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"

	"github.com/browsehq/browse/internal/browser"
)

// ---- style and its history ----

// styleHistoryCap bounds each tab's list of style changes.
const styleHistoryCap = 200

// styleChange is one 'style' call, with what it needs to be undone.
type styleChange struct {
	Label       string // the selector or ref as given, for messages
	Prop        string
	Old         string // the inline value before ("" when there was none)
	OldPriority string // "important" or ""
	New         string
	NewPriority string
	HadAttr     bool // whether the element had a style attribute before
	el          *browser.Element
}

// styleHistory is one tab's style changes on its current page, oldest first.
type styleHistory struct {
	changes []styleChange
	evicted int   // changes dropped by the cap since the page loaded
	navSeq  int64 // the page they belong to
}

// push records a change, dropping the oldest past the cap.
func (h *styleHistory) push(ch styleChange) {
	h.changes = append(h.changes, ch)
	if over := len(h.changes) - styleHistoryCap; over > 0 {
		for _, old := range h.changes[:over] {
			if old.el != nil {
				old.el.Release()
			}
		}
		h.changes = append([]styleChange(nil), h.changes[over:]...)
		h.evicted += over
	}
}

// pop takes up to n of the newest changes, newest first, and says how many
// of the rest asked for were evicted and how many never existed.
func (h *styleHistory) pop(n int) (taken []styleChange, evicted, missing int) {
	k := min(n, len(h.changes))
	for i := len(h.changes) - 1; i >= len(h.changes)-k; i-- {
		taken = append(taken, h.changes[i])
	}
	h.changes = h.changes[:len(h.changes)-k]
	rest := n - k
	evicted = min(rest, h.evicted)
	h.evicted -= evicted
	return taken, evicted, rest - evicted
}

// styleHistories holds every tab's history. Entries for closed tabs are
// dropped whenever it is used; a history whose page navigated away starts
// over, since the elements it changed are gone.
var styleHistories = struct {
	sync.Mutex
	byTab map[*browser.Tab]*styleHistory
}{byTab: map[*browser.Tab]*styleHistory{}}

// withHistory runs fn on tab's history, under the lock.
func withHistory(tab *browser.Tab, fn func(h *styleHistory)) {
	styleHistories.Lock()
	defer styleHistories.Unlock()
	for t := range styleHistories.byTab {
		if t.Alive() != nil {
			delete(styleHistories.byTab, t)
		}
	}
	h := styleHistories.byTab[tab]
	if h == nil || h.navSeq != tab.NavSeq() {
		h = &styleHistory{navSeq: tab.NavSeq()}
		styleHistories.byTab[tab] = h
	}
	fn(h)
}

// setStyleJS sets one inline property and reports what was there before.
// CSS.supports rejects unknown properties and invalid values, which
// setProperty would ignore without a word.
const setStyleJS = `function(prop, value, prio) {
	if (!this.style) return {error: 'it has no style attribute to set (not an HTML or SVG element)'};
	if (!prop.startsWith('--') && !CSS.supports(prop, value)) return {error: 'invalid'};
	prio = prio || '';
	const hadAttr = this.hasAttribute('style');
	const old = this.style.getPropertyValue(prop), oldPrio = this.style.getPropertyPriority(prop);
	this.style.setProperty(prop, value, prio);
	return {old, oldPrio, hadAttr, now: this.style.getPropertyValue(prop)};
}`

// undoStyleJS puts one inline property back as it was, removing it (and an
// emptied style attribute that was not there before) when it was unset.
const undoStyleJS = `function(prop, old, prio, hadAttr) {
	if (old === '') this.style.removeProperty(prop); else this.style.setProperty(prop, old, prio);
	if (!hadAttr && this.getAttribute('style') === '') this.removeAttribute('style');
}`

func runStyle(ctx context.Context, c *Call) (string, error) {
	if c.Has("--undo") {
		return undoStyle(ctx, c)
	}
	if len(c.Args) < 3 {
		return "", UsageError(mustLookup("style"), "'style' needs a selector, a property and a value (or --undo).")
	}
	prop := strings.TrimSpace(c.Args[1])
	if !strings.HasPrefix(prop, "--") {
		prop = strings.ToLower(prop)
	}
	value, prio := splitImportant(strings.Join(c.Args[2:], " "))
	if value == "" {
		return "", Errorf("To remove an inline property, undo the change with 'style --undo'.", "No value given for %s.", prop)
	}
	if prop == "" || strings.ContainsAny(prop, ":; ") {
		return "", Errorf("Give one property name, such as 'color' or 'margin-top'.", "%q is not a CSS property name.", c.Args[1])
	}
	t, err := resolve(ctx, c, c.Args[0], true)
	if err != nil {
		return "", err
	}
	obj, err := t.el.Call(ctx, setStyleJS, prop, value, prio)
	if err != nil {
		t.el.Release()
		return "", actionError(t, err)
	}
	var res struct {
		Error   string `json:"error"`
		Old     string `json:"old"`
		OldPrio string `json:"oldPrio"`
		HadAttr bool   `json:"hadAttr"`
	}
	if err := json.Unmarshal(obj.Value, &res); err != nil {
		t.el.Release()
		return "", pageError(err)
	}
	switch {
	case res.Error == "invalid":
		t.el.Release()
		return "", Errorf("Check the spelling of the property and the value ('browse inspect "+c.Args[0]+"' shows what applies now).",
			"Chromium does not accept %s: %s (unknown property or invalid value); nothing changed.", prop, value)
	case res.Error != "":
		t.el.Release()
		return "", Errorf("Pick an HTML or SVG element.", "Cannot style %s: %s.", t.label, res.Error)
	}
	// The element handle is kept for --undo and released when the change
	// leaves the history (evicted or undone); a navigation frees it anyway.
	withHistory(c.Tab, func(h *styleHistory) {
		h.push(styleChange{Label: t.label, Prop: prop, Old: res.Old, OldPriority: res.OldPrio,
			New: value, NewPriority: prio, HadAttr: res.HadAttr, el: t.el})
	})
	return fmt.Sprintf("Set %s: %s on %s (was: %s)", prop, withPriority(value, prio), t.label, oldValue(res.Old, res.OldPrio)), nil
}

// splitImportant separates a trailing "!important" from a value.
func splitImportant(v string) (value, priority string) {
	v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), ";"))
	if i := strings.LastIndex(v, "!"); i >= 0 && strings.EqualFold(strings.TrimSpace(v[i+1:]), "important") {
		return strings.TrimSpace(v[:i]), "important"
	}
	return v, ""
}

func withPriority(value, prio string) string {
	if prio != "" {
		return value + " !" + prio
	}
	return value
}

func oldValue(value, prio string) string {
	if value == "" {
		return "unset"
	}
	return withPriority(value, prio)
}

func undoStyle(ctx context.Context, c *Call) (string, error) {
	if len(c.Args) > 1 {
		return "", UsageError(mustLookup("style"), "'style --undo' takes at most a count.")
	}
	n := 1
	if len(c.Args) == 1 {
		v, err := strconv.Atoi(c.Args[0])
		if err != nil || v < 1 {
			return "", UsageError(mustLookup("style"), "The undo count must be a positive number, not %q.", c.Args[0])
		}
		n = v
	}
	var taken []styleChange
	var evicted, missing int
	withHistory(c.Tab, func(h *styleHistory) { taken, evicted, missing = h.pop(n) })
	if len(taken) == 0 {
		if evicted > 0 {
			return "", Errorf("Only the last 200 changes can be undone; reload the page to drop every inline change.",
				"The style changes left to undo were evicted from the history (it keeps the last %d).", styleHistoryCap)
		}
		return "", Errorf("'style --undo' undoes changes made with 'style' since the page loaded.", "There are no style changes to undo on this page.")
	}
	var lines, failed []string
	undone := 0
	for _, ch := range taken {
		_, err := ch.el.Call(ctx, undoStyleJS, ch.Prop, ch.Old, ch.OldPriority, ch.HadAttr)
		ch.el.Release()
		if err != nil {
			if ctx.Err() != nil {
				return "", pageError(ctx.Err())
			}
			failed = append(failed, fmt.Sprintf("  %s on %s: the element left the page", ch.Prop, ch.Label))
			continue
		}
		undone++
		lines = append(lines, fmt.Sprintf("  %s on %s → %s", ch.Prop, ch.Label, oldValue(ch.Old, ch.OldPriority)))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Undid %d style %s", undone, oneOrMany(undone, "change", "changes"))
	if note := undoShortfall(n, evicted, missing); note != "" {
		b.WriteString(" (" + note + ")")
	}
	b.WriteString("\n" + strings.Join(lines, "\n"))
	if len(failed) > 0 {
		b.WriteString("\nNot undone:\n" + strings.Join(failed, "\n"))
	}
	return b.String(), nil
}

// undoShortfall explains why fewer changes than asked for were undone.
func undoShortfall(asked, evicted, missing int) string {
	var parts []string
	if evicted > 0 {
		parts = append(parts, fmt.Sprintf("%d older %s evicted from the history, which keeps the last %d",
			evicted, oneOrMany(evicted, "change was", "changes were"), styleHistoryCap))
	}
	if missing > 0 {
		parts = append(parts, fmt.Sprintf("%d more than the history held", missing))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("asked for %d: ", asked) + strings.Join(parts, "; ")
}

func oneOrMany(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// ---- inspect ----

// curatedComputed are the computed properties 'inspect' shows without
// --all; margin and padding are put together from their four sides.
var curatedComputed = []string{
	"display", "position", "box-sizing", "width", "height", "margin", "padding",
	"color", "background-color", "font-size", "font-family", "font-weight", "line-height",
	"z-index", "opacity", "visibility",
}

func runInspect(ctx context.Context, c *Call) (string, error) {
	sel := "body"
	if len(c.Args) > 0 {
		sel = c.Args[0]
	}
	t, err := resolve(ctx, c, sel, false)
	if err != nil {
		return "", err
	}
	defer t.el.Release()
	in, err := c.Tab.InspectCSS(ctx, t.el)
	if err != nil {
		return "", actionError(t, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Element: %s (%s)\n", describeElement(in.Node), t.label)
	writeRules(&b, in, c.Has("--all"))
	writeComputed(&b, in.Computed, c.Has("--all"))
	writeBox(&b, in.Box)
	if c.Has("--history") {
		writeHistory(&b, c.Tab)
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// describeElement renders a node as a short start tag: <h1 id="t" class="a b">.
func describeElement(n *cdproto.Node) string {
	if n == nil {
		return "(unknown)"
	}
	s := "<" + n.LocalName
	for i := 0; i+1 < len(n.Attributes); i += 2 {
		if name := n.Attributes[i]; name == "id" || name == "class" {
			s += fmt.Sprintf(" %s=%q", name, n.Attributes[i+1])
		}
	}
	return s + ">"
}

func writeRules(b *strings.Builder, in *browser.CSSInspection, all bool) {
	if in.Inline != nil && len(declarations(in.Inline)) > 0 {
		b.WriteString("\nInline style (style attribute):\n")
		for _, d := range declarations(in.Inline) {
			b.WriteString("    " + d + "\n")
		}
	}
	b.WriteString("\nMatched rules (highest priority first):\n")
	shown, hidden := 0, 0
	for i := len(in.Matched) - 1; i >= 0; i-- {
		m := in.Matched[i]
		r := m.Rule
		if r == nil || r.SelectorList == nil {
			continue
		}
		if r.Origin == css.StyleSheetOriginUserAgent && !all {
			hidden++
			continue
		}
		shown++
		fmt.Fprintf(b, "  %s  specificity %s  %s\n", matchedSelectors(m), matchedSpecificity(m), ruleSource(r, in.Sheets))
		for _, media := range r.Media {
			fmt.Fprintf(b, "    (inside @media %s)\n", media.Text)
		}
		for _, d := range declarations(r.Style) {
			b.WriteString("    " + d + "\n")
		}
	}
	if shown == 0 {
		b.WriteString("  (none from the page's stylesheets)\n")
	}
	if hidden > 0 {
		fmt.Fprintf(b, "  (%d user-agent %s not shown; --all shows them)\n", hidden, oneOrMany(hidden, "rule", "rules"))
	}
}

// matchedSelectors is a rule's selector text, or for a list of several
// selectors, the ones that matched the element and the size of the list.
func matchedSelectors(m *css.RuleMatch) string {
	sels := m.Rule.SelectorList.Selectors
	if len(sels) <= 1 {
		return m.Rule.SelectorList.Text
	}
	var parts []string
	for _, idx := range m.MatchingSelectors {
		if idx >= 0 && int(idx) < len(sels) {
			parts = append(parts, sels[idx].Text)
		}
	}
	if len(parts) == 0 {
		return m.Rule.SelectorList.Text
	}
	return fmt.Sprintf("%s (matched, of %d selectors in the rule)", strings.Join(parts, ", "), len(sels))
}

// matchedSpecificity is the specificity of the selectors of a rule that
// matched the element: "(1,1,0)", several when more than one matched.
func matchedSpecificity(m *css.RuleMatch) string {
	var parts []string
	for _, idx := range m.MatchingSelectors {
		if idx >= 0 && int(idx) < len(m.Rule.SelectorList.Selectors) {
			parts = append(parts, formatSpecificity(m.Rule.SelectorList.Selectors[idx].Specificity))
		}
	}
	if len(parts) == 0 {
		return formatSpecificity(nil)
	}
	return strings.Join(parts, " ")
}

// formatSpecificity writes a specificity as (ids,classes,types).
func formatSpecificity(s *css.Specificity) string {
	if s == nil {
		return "(?)"
	}
	return fmt.Sprintf("(%d,%d,%d)", s.A, s.B, s.C)
}

// ruleSource says where a rule was written: "URL:line", "<style> in
// URL:line", "user-agent", or another origin.
func ruleSource(r *css.Rule, sheets map[cdproto.StyleSheetID]*css.StyleSheetHeader) string {
	switch r.Origin {
	case css.StyleSheetOriginUserAgent:
		return "user-agent"
	case css.StyleSheetOriginInjected:
		return "injected (an extension)"
	case css.StyleSheetOriginInspector:
		return "inspector stylesheet"
	}
	h := sheets[r.StyleSheetID]
	if h == nil {
		return "stylesheet " + string(r.StyleSheetID)
	}
	line := -1
	if sl := r.SelectorList; len(sl.Selectors) > 0 && sl.Selectors[0].Range != nil {
		line = int(sl.Selectors[0].Range.StartLine)
	} else if r.Style != nil && r.Style.Range != nil {
		line = int(r.Style.Range.StartLine)
	}
	return sheetLocation(h.SourceURL, h.IsInline, int(h.StartLine), line)
}

// sheetLocation formats a rule's place. line is zero-based within the
// sheet (-1: unknown); an inline <style> sheet starts at sheetStart in its
// document. Lines are printed one-based, as editors count them.
func sheetLocation(url string, inline bool, sheetStart, line int) string {
	where := url
	switch {
	case url == "":
		where = "a constructed stylesheet"
	case inline:
		where = "<style> in " + url
	}
	if line < 0 || url == "" {
		return where
	}
	if inline {
		line += sheetStart
	}
	return where + ":" + strconv.Itoa(line+1)
}

// declarations lists a style's declarations as written. Chromium also lists
// the longhands a shorthand expands to; those have no source range, so when
// any declaration has one, only those are the author's.
func declarations(s *css.Style) []string {
	if s == nil {
		return nil
	}
	sourced := false
	for _, p := range s.CSSProperties {
		if p.Range != nil {
			sourced = true
			break
		}
	}
	var out []string
	for _, p := range s.CSSProperties {
		if (sourced && p.Range == nil) || p.Implicit || p.Value == "" {
			continue
		}
		// Chromium writes "!important" into some values itself.
		d := p.Name + ": " + p.Value
		if p.Important && !strings.HasSuffix(p.Value, "important") {
			d += " !important"
		}
		d += ";"
		if p.Disabled {
			d = "/* " + d + " */"
		}
		out = append(out, d)
	}
	return out
}

func writeComputed(b *strings.Builder, props []*css.ComputedStyleProperty, all bool) {
	values := make(map[string]string, len(props))
	for _, p := range props {
		values[p.Name] = p.Value
	}
	if all {
		fmt.Fprintf(b, "\nComputed style (all %d properties):\n", len(props))
		names := make([]string, 0, len(values))
		for n := range values {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(b, "  %s: %s\n", n, values[n])
		}
		return
	}
	b.WriteString("\nComputed style (a selection; --all lists every property):\n")
	for _, name := range curatedComputed {
		v, ok := values[name]
		if name == "margin" || name == "padding" {
			v, ok = fourSides(values, name)
		}
		if ok {
			fmt.Fprintf(b, "  %s: %s\n", name, v)
		}
	}
}

// fourSides puts margin or padding together from its longhands, as short
// as CSS would write it when all four are equal.
func fourSides(values map[string]string, prop string) (string, bool) {
	var sides []string
	for _, side := range []string{"top", "right", "bottom", "left"} {
		v, ok := values[prop+"-"+side]
		if !ok {
			return "", false
		}
		sides = append(sides, v)
	}
	if sides[0] == sides[1] && sides[1] == sides[2] && sides[2] == sides[3] {
		return sides[0], true
	}
	return strings.Join(sides, " "), true
}

func writeBox(b *strings.Builder, box *dom.BoxModel) {
	if box == nil {
		b.WriteString("\nBox model: none (the element is not rendered)\n")
		return
	}
	b.WriteString("\nBox model (sides: top right bottom left):\n")
	fmt.Fprintf(b, "  content  %s\n", quadSize(box.Content))
	fmt.Fprintf(b, "  padding  %s  (%s)\n", quadSize(box.Padding), quadSides(box.Padding, box.Content))
	fmt.Fprintf(b, "  border   %s  (%s)\n", quadSize(box.Border), quadSides(box.Border, box.Padding))
	fmt.Fprintf(b, "  margin   %s  (%s)\n", quadSize(box.Margin), quadSides(box.Margin, box.Border))
}

// quadSize is a box's width x height. Quads list four corners clockwise from
// the top left: x1,y1, x2,y2, x3,y3, x4,y4.
func quadSize(q dom.Quad) string {
	if len(q) < 8 {
		return "?"
	}
	return num(q[2]-q[0]) + " x " + num(q[5]-q[3])
}

// quadSides is how far outer extends beyond inner on each side.
func quadSides(outer, inner dom.Quad) string {
	if len(outer) < 8 || len(inner) < 8 {
		return "?"
	}
	return strings.Join([]string{num(inner[1] - outer[1]), num(outer[2] - inner[2]), num(outer[5] - inner[5]), num(inner[0] - outer[0])}, " ")
}

// num prints a CSS pixel length with at most two decimals.
func num(v float64) string {
	v = math.Round(v*100) / 100
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func writeHistory(b *strings.Builder, tab *browser.Tab) {
	var changes []styleChange
	var evicted int
	withHistory(tab, func(h *styleHistory) { changes, evicted = append(changes, h.changes...), h.evicted })
	fmt.Fprintf(b, "\nStyle changes on this page (%d, oldest first):\n", len(changes))
	if len(changes) == 0 {
		b.WriteString("  (none; 'style' makes them)\n")
	}
	if evicted > 0 {
		fmt.Fprintf(b, "  (%d older %s evicted; the history keeps the last %d)\n", evicted, oneOrMany(evicted, "change", "changes"), styleHistoryCap)
	}
	for i, ch := range changes {
		fmt.Fprintf(b, "  %d. %s  %s: %s (was: %s)\n", i+1, ch.Label, ch.Prop, withPriority(ch.New, ch.NewPriority), oldValue(ch.Old, ch.OldPriority))
	}
}

// ---- cdp ----

func runCDP(ctx context.Context, c *Call) (string, error) {
	if c.Has("--list") {
		return strings.TrimRight(cdpList(), "\n"), nil
	}
	cmd := mustLookup("cdp")
	if len(c.Args) == 0 {
		return "", UsageError(cmd, "'cdp' needs a method, such as Performance.getMetrics.")
	}
	name := c.Args[0]
	m, ok := lookupCDP(name)
	if !ok {
		return "", &Error{Status: 403, Msg: fmt.Sprintf("CDP method %s is not on the allowlist (raw CDP is denied by default).", name),
			Hint: "Run 'browse cdp --list' to see the allowed methods; most have a command of their own."}
	}
	raw := ""
	if len(c.Args) > 1 {
		raw = c.Args[1]
	}
	if v, ok := c.Flags["--json"]; ok {
		if raw != "" {
			return "", UsageError(cmd, "Give the params once: as the second argument or with --json, not both.")
		}
		raw = v
	}
	var params any
	if strings.TrimSpace(raw) != "" {
		p, err := cdpParams(raw)
		if err != nil {
			return "", Errorf(`Pass one JSON object in single quotes, e.g. '{"rate": 4}'.`, "The params for %s are not a JSON object: %v.", name, err)
		}
		params = p
	}
	var res jsonv2.Value
	var err error
	if m.Scope == scopeBrowser {
		err = c.Browser.CallBrowser(ctx, name, params, &res)
	} else {
		err = c.Tab.Session.Call(ctx, name, params, &res)
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", pageError(ctx.Err())
		}
		return "", Errorf("Check the params against https://chromedevtools.github.io/devtools-protocol/tot/"+strings.Split(name, ".")[0]+"/.",
			"Chromium refused %s: %v.", name, err)
	}
	if len(res) == 0 {
		return "{}", nil
	}
	var out bytes.Buffer
	if err := json.Indent(&out, res, "", "  "); err != nil {
		return string(res), nil
	}
	return out.String(), nil
}

// cdpParams checks that raw is one JSON object and returns it as is.
func cdpParams(raw string) (jsonv2.Value, error) {
	var obj map[string]json.RawMessage
	dec := json.NewDecoder(strings.NewReader(raw))
	if err := dec.Decode(&obj); err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, fmt.Errorf("null is not an object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("more than one value")
	}
	return jsonv2.Value(strings.TrimSpace(raw)), nil
}

// ---- memory ----

// MemorySnapshot is the browser's memory snapshot plus the bounded buffers
// commands keep (the style histories). GET /memory serves it as JSON.
func MemorySnapshot(ctx context.Context, b *browser.Browser) *browser.Memory {
	m := b.Memory(ctx)
	styleHistories.Lock()
	var ids []int
	lens := map[int]int{}
	for t, h := range styleHistories.byTab {
		if t.Alive() == nil && len(h.changes) > 0 {
			ids = append(ids, t.ID)
			lens[t.ID] = len(h.changes)
		}
	}
	styleHistories.Unlock()
	sort.Ints(ids)
	for _, id := range ids {
		m.Buffers = append(m.Buffers, browser.BufferStat{Name: fmt.Sprintf("style history (tab %d)", id), Len: lens[id], Capacity: styleHistoryCap})
	}
	return m
}

func runMemory(ctx context.Context, c *Call) (string, error) {
	m := MemorySnapshot(ctx, c.Browser)
	if c.Has("--json") {
		out, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return "", err
		}
		return string(out), nil
	}
	return formatMemory(m, c.Browser.ActiveID()), nil
}

// memoryListMax is how many tabs and processes the text report lists.
const memoryListMax = 10

// formatMemory renders a snapshot for reading: biggest first, ten of each.
func formatMemory(m *browser.Memory, activeID int) string {
	var b strings.Builder
	d := m.Daemon
	fmt.Fprintf(&b, "Daemon (pid %d): RSS %s; Go heap %s in use, %s from the OS; %d goroutines\n",
		d.PID, mib(d.RSSBytes), mib(int64(d.HeapAllocBytes)), mib(int64(d.HeapSysBytes)), d.Goroutines)

	fmt.Fprintf(&b, "\nChromium: %d %s, RSS %s in all (pages they share are counted in each)\n", len(m.Processes), oneOrMany(len(m.Processes), "process", "processes"), mib(m.ChromiumRSSBytes))
	for i, p := range m.Processes {
		if i == memoryListMax {
			fmt.Fprintf(&b, "  and %d more\n", len(m.Processes)-memoryListMax)
			break
		}
		fmt.Fprintf(&b, "  %-8d %-22s %s\n", p.PID, p.Type, mib(p.RSSBytes))
	}

	fmt.Fprintf(&b, "\nTabs: %d, by JS heap in use\n", len(m.Tabs))
	for i, t := range m.Tabs {
		if i == memoryListMax {
			fmt.Fprintf(&b, "  and %d more\n", len(m.Tabs)-memoryListMax)
			break
		}
		mark := " "
		if t.ID == activeID {
			mark = "→"
		}
		if t.Error != "" {
			fmt.Fprintf(&b, " %s[%d] %s — no numbers: %s\n", mark, t.ID, t.URL, t.Error)
			continue
		}
		fmt.Fprintf(&b, " %s[%d] JS heap %s of %s, %d DOM nodes  %s\n", mark, t.ID, mib(t.JSHeapUsedBytes), mib(t.JSHeapTotalBytes), t.DOMNodes, t.URL)
	}

	b.WriteString("\nBounded buffers (held / capacity):\n")
	for _, buf := range m.Buffers {
		fmt.Fprintf(&b, "  %-24s %d / %d\n", buf.Name, buf.Len, buf.Capacity)
	}
	for _, n := range m.Notes {
		b.WriteString("\nNote: " + n + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// mib prints a byte count in MB with one decimal.
func mib(n int64) string {
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MB"
}

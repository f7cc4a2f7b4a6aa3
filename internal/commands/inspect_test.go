package commands

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
)

func TestFormatSpecificity(t *testing.T) {
	if got := formatSpecificity(&css.Specificity{A: 1, B: 2, C: 3}); got != "(1,2,3)" {
		t.Fatalf("got %q", got)
	}
	if got := formatSpecificity(nil); got != "(?)" {
		t.Fatalf("nil: got %q", got)
	}
	m := &css.RuleMatch{
		Rule: &css.Rule{SelectorList: &css.SelectorList{Text: "h1, .a #b", Selectors: []*css.Value{
			{Text: "h1", Specificity: &css.Specificity{C: 1}},
			{Text: ".a #b", Specificity: &css.Specificity{A: 1, B: 1}},
		}}},
		MatchingSelectors: []int64{1},
	}
	if got := matchedSpecificity(m); got != "(1,1,0)" {
		t.Fatalf("matched: got %q", got)
	}
	if got := matchedSelectors(m); got != ".a #b (matched, of 2 selectors in the rule)" {
		t.Fatalf("selectors: got %q", got)
	}
}

func TestSheetLocation(t *testing.T) {
	cases := []struct {
		url         string
		inline      bool
		start, line int
		want        string
	}{
		{"http://x/a.css", false, 0, 3, "http://x/a.css:4"},
		{"http://x/page.html", true, 10, 2, "<style> in http://x/page.html:13"},
		{"", false, 0, 1, "a constructed stylesheet"},
		{"http://x/a.css", false, 0, -1, "http://x/a.css"},
	}
	for _, c := range cases {
		if got := sheetLocation(c.url, c.inline, c.start, c.line); got != c.want {
			t.Errorf("sheetLocation(%q, %v, %d, %d) = %q, want %q", c.url, c.inline, c.start, c.line, got, c.want)
		}
	}
}

func TestStyleHistoryCapAndUndo(t *testing.T) {
	h := &styleHistory{}
	for i := range styleHistoryCap + 5 {
		h.push(styleChange{Prop: "p", New: strings.Repeat("x", i)})
	}
	if len(h.changes) != styleHistoryCap || h.evicted != 5 {
		t.Fatalf("len %d evicted %d", len(h.changes), h.evicted)
	}
	if h.changes[0].New != strings.Repeat("x", 5) {
		t.Fatalf("the oldest were not the ones dropped")
	}
	taken, evicted, missing := h.pop(3)
	if len(taken) != 3 || evicted != 0 || missing != 0 || len(taken[0].New) != styleHistoryCap+4 {
		t.Fatalf("pop(3): %d taken (first %d), %d evicted, %d missing", len(taken), len(taken[0].New), evicted, missing)
	}
	// Asking for everything and more: what is held, then the evicted, then nothing.
	taken, evicted, missing = h.pop(styleHistoryCap + 10)
	if len(taken) != styleHistoryCap-3 || evicted != 5 || missing != 8 {
		t.Fatalf("pop(all): %d taken, %d evicted, %d missing", len(taken), evicted, missing)
	}
	if got := undoShortfall(styleHistoryCap+10, evicted, missing); got != "asked for 210: 5 older changes were evicted from the history, which keeps the last 200; 8 more than the history held" {
		t.Fatalf("shortfall: %q", got)
	}
	if _, evicted, _ := h.pop(1); evicted != 0 {
		t.Fatalf("evicted changes counted twice")
	}
	if got := undoShortfall(2, 0, 0); got != "" {
		t.Fatalf("no shortfall: %q", got)
	}
}

func TestSplitImportant(t *testing.T) {
	cases := map[string][2]string{
		"red":                   {"red", ""},
		"red !important":        {"red", "important"},
		"red!IMPORTANT;":        {"red", "important"},
		"1px solid red":         {"1px solid red", ""},
		"url(a!b.png)":          {"url(a!b.png)", ""},
		"  blue ! important  ;": {"blue", "important"},
	}
	for in, want := range cases {
		v, p := splitImportant(in)
		if v != want[0] || p != want[1] {
			t.Errorf("splitImportant(%q) = %q, %q; want %q, %q", in, v, p, want[0], want[1])
		}
	}
}

func TestBoxAndSides(t *testing.T) {
	content := dom.Quad{10, 20, 110, 20, 110, 60, 10, 60}
	padding := dom.Quad{0, 15, 120, 15, 120, 65, 0, 65}
	if got := quadSize(content); got != "100 x 40" {
		t.Fatalf("size %q", got)
	}
	if got := quadSides(padding, content); got != "5 10 5 10" {
		t.Fatalf("sides %q", got)
	}
	if got := num(21.4399999); got != "21.44" {
		t.Fatalf("num %q", got)
	}
	vals := map[string]string{"margin-top": "1px", "margin-right": "1px", "margin-bottom": "1px", "margin-left": "1px",
		"padding-top": "1px", "padding-right": "2px", "padding-bottom": "3px", "padding-left": "4px"}
	if got, _ := fourSides(vals, "margin"); got != "1px" {
		t.Fatalf("margin %q", got)
	}
	if got, _ := fourSides(vals, "padding"); got != "1px 2px 3px 4px" {
		t.Fatalf("padding %q", got)
	}
}

func TestDeclarationsSkipExpandedLonghands(t *testing.T) {
	r := &css.SourceRange{}
	s := &css.Style{CSSProperties: []*css.Property{
		{Name: "padding", Value: "4px 6px", Range: r},
		{Name: "color", Value: "red !important", Important: true, Range: r},
		{Name: "padding-top", Value: "4px"}, // the expansion, no range
	}}
	got := strings.Join(declarations(s), " ")
	if got != "padding: 4px 6px; color: red !important;" {
		t.Fatalf("got %q", got)
	}
}

func TestCDPParams(t *testing.T) {
	for _, ok := range []string{`{}`, `{"rate": 4}`, ` {"a": {"b": [1]}} `} {
		if _, err := cdpParams(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{`{rate: 4}`, `[1]`, `null`, `4`, `{"a":1} {"b":2}`, `{"a":`} {
		if _, err := cdpParams(bad); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

func TestCDPAllowlist(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range cdpAllowlist {
		if seen[m.Method] {
			t.Errorf("%s listed twice", m.Method)
		}
		seen[m.Method] = true
		if m.Scope != scopeTab && m.Scope != scopeBrowser {
			t.Errorf("%s: scope %q", m.Method, m.Scope)
		}
		if domain, method, ok := strings.Cut(m.Method, "."); !ok || domain == "" || method == "" {
			t.Errorf("%q is not Domain.method", m.Method)
		}
	}
	// Methods that run script, navigate, send input, read secrets or close
	// things must never be reachable.
	for _, denied := range []string{"Runtime.evaluate", "Runtime.callFunctionOn", "Page.navigate", "Network.getCookies",
		"Network.getAllCookies", "Storage.getCookies", "Input.dispatchKeyEvent", "Target.createTarget", "Target.closeTarget",
		"Browser.close", "Fetch.enable", "Page.setDownloadBehavior", "Network.getResponseBody"} {
		if _, ok := lookupCDP(denied); ok {
			t.Errorf("%s is allowed", denied)
		}
	}
	if _, ok := lookupCDP("performance.getmetrics"); ok {
		t.Errorf("lookup is not exact")
	}
}

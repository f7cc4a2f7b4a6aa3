package commands

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestCompactJSON(t *testing.T) {
	cases := []struct{ in, want string }{
		{`[]`, `[]`},
		{`{}`, `{}`},
		{`"a<b>&c"`, `"a<b>&c"`},
		{`[{"a":1,"b":"x"},{"a":2.50,"c":null,"d":[],"e":{}}]`, "[\n  {\"a\": 1, \"b\": \"x\"},\n  {\"a\": 2.50, \"c\": null, \"d\": [], \"e\": {}}\n]"},
		// A record holding a record is spread out; key order is kept.
		{`{"z":{"y":true},"a":[1,2]}`, "{\n  \"z\": {\"y\": true},\n  \"a\": [1, 2]\n}"},
		// A long list of strings gets a line per item.
		{`["` + strings.Repeat("x", 70) + `","` + strings.Repeat("y", 70) + `"]`,
			"[\n  \"" + strings.Repeat("x", 70) + "\",\n  \"" + strings.Repeat("y", 70) + "\"\n]"},
		// A record with too many keys is spread out too.
		{`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13}`,
			"{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3,\n  \"d\": 4,\n  \"e\": 5,\n  \"f\": 6,\n  \"g\": 7,\n  \"h\": 8,\n  \"i\": 9,\n  \"j\": 10,\n  \"k\": 11,\n  \"l\": 12,\n  \"m\": 13\n}"},
	}
	for _, c := range cases {
		got, err := compactJSON(c.in)
		if err != nil || got != c.want {
			t.Errorf("compactJSON(%s) =\n%s (%v)\nwant\n%s", c.in, got, err, c.want)
		}
	}
	deep := strings.Repeat("[", maxDepthJSON+2) + strings.Repeat("]", maxDepthJSON+2)
	for _, bad := range []string{``, `{`, `[1,]`, `{"a":1} x`, `{1:2}`, deep} {
		if got, err := compactJSON(bad); err == nil {
			t.Errorf("compactJSON(%q) = %q, want an error", bad, got)
		}
	}
}

// FuzzCompactJSON checks that compactJSON only ever re-lays out valid JSON:
// what it prints parses to the same value as what it was given.
func FuzzCompactJSON(f *testing.F) {
	for _, s := range []string{`[]`, `{"a":[1,{"b":"c"}],"d":null}`, `[{"x":"<&>"},[[]],{}]`, `"\u2028"`, `1e400`, `{"a":1,"a":2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := compactJSON(in)
		if err != nil {
			return
		}
		var want, got any
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			// Only numbers too large for a float64 parse as tokens but not as values.
			return
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("compactJSON(%q) = %q, which is not JSON: %v", in, out, err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("compactJSON(%q) = %q changed the value", in, out)
		}
	})
}

func TestWithArgs(t *testing.T) {
	got := withArgs("function(a, b) { return a }", []string{"x</script>"}, 3)
	want := `function() { return (function(a, b) { return a }).apply(this, [["x\u003c/script\u003e"],3]) }`
	if got != want {
		t.Fatalf("withArgs = %s", got)
	}
}

func TestFormatPerf(t *testing.T) {
	if got := formatPerf(perfData{URL: "about:blank"}); !strings.HasPrefix(got, "No navigation timing for about:blank") {
		t.Fatalf("no navigation: %q", got)
	}
	p := perfData{URL: "https://example.test/", HasNavigation: true, Type: "navigate", Status: 200, Protocol: "h2",
		Paint: map[string]float64{"first-contentful-paint": 120.4}, Resources: 3, ResourceBytes: 3072}
	p.Timing.DomainLookupStart, p.Timing.DomainLookupEnd = 1, 5.6
	p.Timing.ConnectStart, p.Timing.SecureConnectionStart, p.Timing.ConnectEnd = 6, 10, 30
	p.Timing.RequestStart, p.Timing.ResponseStart, p.Timing.ResponseEnd = 31, 80, 90
	p.Timing.DomInteractive, p.Timing.DomContentLoadedEventEnd = 100, 101
	p.Timing.TransferSize, p.Timing.DecodedBodySize = 2048, 512
	want := `Timings of https://example.test/ (navigate, HTTP 200, h2), in ms since the navigation started:
DNS                        5 ms
TCP                        24 ms
TLS                        20 ms
request → first byte       49 ms
TTFB                       80 ms
response download          10 ms
DOM interactive            100 ms
DOMContentLoaded           101 ms
load                       not yet
first-paint                none recorded
first-contentful-paint     120 ms
transfer size              2.0KB (document; 512B decoded)
resources                  3 (3.0KB transferred)`
	if got := formatPerf(p); got != want {
		t.Fatalf("formatPerf =\n%s\nwant\n%s", got, want)
	}
	p.Timing.TransferSize = 0
	if got := formatPerf(p); !strings.Contains(got, "0B (document from the cache or a file; 512B decoded)") {
		t.Fatalf("a cached document:\n%s", got)
	}
}

func TestDiffReport(t *testing.T) {
	a := loadedPage{url: "http://a/", status: 200, text: "one\ntwo"}
	if got := diffReport(a, a); got != "No differences: http://a/ and http://a/ have the same text (2 lines)." {
		t.Fatalf("same text: %q", got)
	}
	b := loadedPage{url: "http://b/", status: 404, text: "one\nthree"}
	want := "Note: http://b/ answered HTTP 404; its error page's text is compared.\n--- http://a/\n+++ http://b/\n@@ -1,2 +1,2 @@\n one\n-two\n+three"
	if got := diffReport(a, b); got != want {
		t.Fatalf("diffReport =\n%s\nwant\n%s", got, want)
	}
}

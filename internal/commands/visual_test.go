package commands

import (
	"math"
	"strings"
	"testing"

	"github.com/browsehq/browse/internal/browser"
)

func TestScreenshotArguments(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		flags map[string]string
		sel   string
		path  string
		err   string
	}{
		{args: nil, path: ""},
		{args: []string{"/tmp/a.png"}, path: "/tmp/a.png"},
		{args: []string{"#main", "/tmp/a.png"}, sel: "#main", path: "/tmp/a.png"},
		{args: []string{"/tmp/a.png", ".card"}, sel: ".card", path: "/tmp/a.png"},
		{args: []string{"[data-x]"}, sel: "[data-x]"},
		{args: []string{"@e3"}, sel: "@e3"},
		{args: []string{"@c12", "out.jpg"}, sel: "@c12", path: "out.jpg"},
		{args: []string{"./shot.png"}, path: "./shot.png"},
		{args: []string{"button"}, path: "button"}, // a tag is a path: use --selector
		{flags: map[string]string{"--selector": "button"}, sel: "button"},
		{args: []string{"#a", "#b"}, err: "one element"},
		{args: []string{"a.png", "b.png"}, err: "one output path"},
		{args: []string{"#a"}, flags: map[string]string{"--selector": "#b"}, err: "Give the element once"},
		{args: []string{"#a"}, flags: map[string]string{"--clip": "0,0,1,1"}, err: "exclude each other"},
		{flags: map[string]string{"--clip": "0,0,1,1", "--viewport": ""}, err: "drop --viewport"},
		{args: []string{"a.png"}, flags: map[string]string{"--base64": ""}, err: "drop one of them"},
		{args: []string{"a.bmp"}, err: "use a .png"},
		{flags: map[string]string{"--selector": " "}, err: "needs a CSS selector"},
	} {
		if tc.flags == nil {
			tc.flags = map[string]string{}
		}
		r, err := parseScreenshot(tc.args, tc.flags)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v %v: error %v, want %q", tc.args, tc.flags, err, tc.err)
			}
			continue
		}
		if err != nil || r.selector != tc.sel || r.path != tc.path {
			t.Errorf("%v %v: got selector %q path %q err %v", tc.args, tc.flags, r.selector, r.path, err)
		}
	}
}

func TestParseClip(t *testing.T) {
	r, err := ParseClip("10, 20.5,300,40")
	if err != nil || r != (browser.Rect{X: 10, Y: 20.5, W: 300, H: 40}) {
		t.Fatalf("got %v %v", r, err)
	}
	for _, bad := range []string{"", "1,2,3", "1,2,3,4,5", "a,b,c,d", "-1,0,10,10", "0,0,0,10", "0,0,NaN,10", "0,0,Inf,5", "0,0,1e9,5"} {
		if _, err := ParseClip(bad); err == nil {
			t.Errorf("ParseClip(%q) accepted", bad)
		}
	}
}

func TestParseDimension(t *testing.T) {
	for in, want := range map[string]float64{"8.5in": 8.5, "25.4mm": 1, "2.54cm": 1, "96px": 1, "192": 2, " 1IN ": 1, "0": 0} {
		got, err := ParseDimension(in)
		if err != nil || got != want {
			t.Errorf("ParseDimension(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "in", "wide", "-1in", "300in", "NaNin", "1e400mm", "1 inch"} {
		if _, err := ParseDimension(bad); err == nil {
			t.Errorf("ParseDimension(%q) accepted", bad)
		}
	}
}

func TestPrintParams(t *testing.T) {
	o := pdfOptions{Format: "A4", Margins: "1in", MarginTop: "2cm", PageNumbers: true, Landscape: true}
	p, err := o.printParams()
	if err != nil {
		t.Fatal(err)
	}
	if p.PaperWidth != 8.27 || p.PaperHeight != 11.69 || *p.MarginLeft != 1 || math.Abs(*p.MarginTop-2/2.54) > 1e-9 || !*p.Landscape {
		t.Fatalf("params %+v", p)
	}
	if !*p.DisplayHeaderFooter || !strings.Contains(p.FooterTemplate, "pageNumber") || p.HeaderTemplate != "<span></span>" {
		t.Fatalf("page numbers: %+v", p)
	}
	// A footer without margins gets room for it.
	p, _ = (&pdfOptions{FooterTemplate: "<b>f</b>"}).printParams()
	if p.MarginBottom == nil || *p.MarginBottom < 0.5 {
		t.Fatalf("a footer without margins has no room: %+v", p)
	}
	if _, err := (&pdfOptions{Width: "0.5in"}).printParams(); err == nil {
		t.Fatal("a half-inch page was accepted")
	}
}

func TestParsePDFPayload(t *testing.T) {
	o, err := ParsePDFPayload([]byte(`{"format":"legal","pageNumbers":true,"headerTemplate":"<i>h</i>"}`))
	if err != nil || o.Format != "legal" || !o.PageNumbers || o.HeaderTemplate != "<i>h</i>" {
		t.Fatalf("got %+v %v", o, err)
	}
	for _, bad := range []string{``, `[]`, `{"fromat":"a4"}`, `{"format":1}`, `{} {}`} {
		if _, err := ParsePDFPayload([]byte(bad)); err == nil {
			t.Errorf("payload %q accepted", bad)
		}
	}
}

func TestCheckHTML(t *testing.T) {
	for _, ok := range []string{"<!doctype html><p>x", "<svg xmlns='http://www.w3.org/2000/svg'></svg>", "plain text", "\xef\xbb\xbf<html>"} {
		if err := CheckHTML([]byte(ok)); err != nil {
			t.Errorf("CheckHTML(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"\x89PNG\r\n\x1a\n0000", "%PDF-1.7\n", "PK\x03\x04zip", "\x7fELF\x02\x01", "\x00\x01\x02binary"} {
		if err := CheckHTML([]byte(bad)); err == nil {
			t.Errorf("CheckHTML(%q) accepted a binary", bad)
		}
	}
}

func FuzzScreenshotArgs(f *testing.F) {
	f.Add("#a", "/tmp/x.png", "0,0,10,10", true)
	f.Add("@e1", "", "", false)
	f.Fuzz(func(t *testing.T, a, b, clip string, viewport bool) {
		flags := map[string]string{}
		if clip != "" {
			flags["--clip"] = clip
		}
		if viewport {
			flags["--viewport"] = ""
		}
		r, err := parseScreenshot([]string{a, b}, flags)
		if err != nil {
			return
		}
		// Whatever is accepted obeys the exclusions.
		if r.clip != nil && (r.selector != "" || r.viewport) {
			t.Fatalf("accepted clip with %q / viewport %v", r.selector, r.viewport)
		}
		if r.path != "" && !IsScreenshotPath(r.path) {
			t.Fatalf("selector-looking %q taken as the path", r.path)
		}
	})
}

func FuzzParseClip(f *testing.F) {
	f.Add("0,0,100,100")
	f.Add("1e3, 2 ,3,4")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseClip(s)
		if err == nil && (r.W < 1 || r.H < 1 || r.X < 0 || r.Y < 0 || r.X > 100000 || r.W > 100000) {
			t.Fatalf("ParseClip(%q) = %+v", s, r)
		}
	})
}

func FuzzParseDimension(f *testing.F) {
	f.Add("8.5in")
	f.Add("210mm")
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseDimension(s)
		if err == nil && (v < 0 || v > 200 || v != v) {
			t.Fatalf("ParseDimension(%q) = %v", s, v)
		}
	})
}

func FuzzParsePDFPayload(f *testing.F) {
	f.Add([]byte(`{"format":"a4","margins":"1cm","pageNumbers":true}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := ParsePDFPayload(data)
		if err != nil {
			return
		}
		o.printParams() // must not panic, whatever the payload held
	})
}

package browser

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/runtime"
)

func walkerAnswer(t testing.TB, s string) *runtime.RemoteObject {
	v, err := jsonv2.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return &runtime.RemoteObject{Type: runtime.RemoteObjectTypeString, Value: v}
}

func TestParseWalk(t *testing.T) {
	rec := func(fields ...string) string { return strings.Join(fields, "\x1f") }
	answer := "2 1280 720 0 1\x1e" + strings.Join([]string{
		rec("-1", "RootWebArea", "Page", "", "0", "", "", ""),
		rec("0", "list", "", "", "3", "", "", "0,10,100,20"),
		rec("1", "link", "One", "", "4", "focused=true", "https://example.com/1", "0,10,50,20"),
		rec("0", "checkbox", "Agree", "", "5", "checked=true,disabled=true", "", ""),
		rec("0", "Iframe", "", "", "6", "", "", ""),
		rec("9", "button", "orphan", "", "7", "", "", ""), // a parent out of range is dropped, not a crash
	}, "\x1e")
	text, hosts, w, h, widgets, found := walkerText(walkerAnswer(t, answer))
	if hosts != 2 || w != 1280 || h != 720 || widgets != 0 || !found {
		t.Fatalf("header: hosts %d, %vx%v, widgets %d", hosts, w, h, widgets)
	}
	f, iframes := parseWalk(text, true)
	if len(f.Nodes) != 6 || strings.Join(f.Nodes[0].Children, ",") != "1,3,4" || strings.Join(f.Nodes[1].Children, ",") != "2" {
		t.Fatalf("tree: %+v", f.Nodes)
	}
	link := f.Nodes[2]
	if link.Role != "link" || link.Name != "One" || link.Key != 4 || link.URL != "https://example.com/1" || len(link.Props) != 1 || link.Props[0].Name != "focused" {
		t.Fatalf("link: %+v", link)
	}
	box := f.Boxes[4]
	if box.Y != 10 || box.W != 50 || box.H != 20 {
		t.Fatalf("box: %+v", f.Boxes)
	}
	props := f.Nodes[3].Props
	if len(props) != 2 || props[0].Name != "checked" || props[1].Name != "disabled" {
		t.Fatalf("props in the renderer's order: %+v", props)
	}
	if len(iframes) != 1 || iframes[0] != 6 {
		t.Fatalf("iframes: %v", iframes)
	}
}

// FuzzParseWalk: the walker's answer carries page text; no answer may crash
// the parser or make a node its own ancestor.
func FuzzParseWalk(f *testing.F) {
	f.Add("1 800 600 0\x1e-1\x1fRootWebArea\x1fT\x1f\x1f0\x1f\x1f\x1f\x1e0\x1flink\x1fA\x1f\x1f1\x1fchecked=true\x1fu\x1f1,2,3,4")
	f.Add("")
	f.Add("x\x1e\x1e\x1f\x1f\x1f")
	f.Add("0 0 0 0\x1e0\x1fbutton\x1e1\x1f\x1f\x1f\x1f" + strconv.Itoa(1<<62) + "\x1f=,=\x1f\x1fa,b")
	f.Fuzz(func(t *testing.T, answer string) {
		if !utf8.ValidString(answer) {
			return // the protocol carries JSON strings: valid UTF-8 only
		}
		text, _, _, _, _, _ := walkerText(walkerAnswer(t, answer))
		fr, _ := parseWalk(text, true)
		for i, n := range fr.Nodes {
			for _, c := range n.Children {
				j, err := strconv.Atoi(c)
				if err != nil || j <= i || j >= len(fr.Nodes) {
					t.Fatalf("node %d has child %q", i, c)
				}
			}
		}
	})
}

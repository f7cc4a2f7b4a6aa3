package snapshot

import (
	"fmt"
	"strings"
	"testing"
)

// tenLines is ten 9-byte lines: 99 bytes with the newlines between them.
const tenLines = "@e1 line1\n@e2 line2\n@e3 line3\n@e4 line4\n@e5 line5\n@e6 line6\n@e7 line7\n@e8 line8\n@e9 line9\n@e0 line0"

func shortNote(n int) string { return fmt.Sprintf("(%d cut)", n) }

func TestCutFitsUntouched(t *testing.T) {
	for _, max := range []int{0, -1, len(tenLines), len(tenLines) + 1} {
		if got, n := Cut(tenLines, max, shortNote); got != tenLines || n != 0 {
			t.Errorf("max %d: cut %d lines of a text that fits", max, n)
		}
	}
}

func TestCutAtLineBoundaryWithExactBytes(t *testing.T) {
	// Three lines (29 bytes) + "\n" + "(7 cut)" (7) = 37 bytes exactly.
	got, n := Cut(tenLines, 37, shortNote)
	want := "@e1 line1\n@e2 line2\n@e3 line3\n(7 cut)"
	if got != want || n != 7 || len(got) != 37 {
		t.Fatalf("max 37: %q (%d cut, %d bytes), want %q", got, n, len(got), want)
	}
	// One byte less and the third line no longer fits beside the note.
	got, n = Cut(tenLines, 36, shortNote)
	if got != "@e1 line1\n@e2 line2\n(8 cut)" || n != 8 {
		t.Fatalf("max 36: %q (%d cut)", got, n)
	}
	// Every length: never over the limit, never a partial line, and the
	// count matches the lines dropped.
	lines := strings.Split(tenLines, "\n")
	for max := 1; max < len(tenLines); max++ {
		got, n := Cut(tenLines, max, shortNote)
		out := strings.Split(got, "\n")
		if note := out[len(out)-1]; note != shortNote(n) {
			t.Fatalf("max %d: last line %q, want the note for %d", max, note, n)
		}
		kept := out[:len(out)-1]
		if len(kept)+n != len(lines) {
			t.Fatalf("max %d: %d kept + %d cut != %d lines", max, len(kept), n, len(lines))
		}
		for i, l := range kept {
			if l != lines[i] {
				t.Fatalf("max %d: line %d is %q, want %q", max, i, l, lines[i])
			}
		}
		if len(kept) > 0 && len(got) > max {
			t.Fatalf("max %d: %d bytes", max, len(got))
		}
		// Nothing more would have fitted.
		if len(kept) < len(lines) {
			bigger := strings.Join(lines[:len(kept)+1], "\n") + "\n" + shortNote(n-1)
			if len(bigger) <= max {
				t.Fatalf("max %d: stopped at %d lines though %d fit", max, len(kept), len(kept)+1)
			}
		}
	}
}

func TestCutNoteAloneWhenNothingFits(t *testing.T) {
	got, n := Cut(tenLines, 5, shortNote)
	if got != "(10 cut)" || n != 10 {
		t.Fatalf("%q, %d", got, n)
	}
}

func TestCutNoteDigitsCounted(t *testing.T) {
	// 120 one-byte lines: the note's count shrinks from three digits to two
	// as lines are kept, and the budget still holds to the byte.
	text := strings.TrimSuffix(strings.Repeat("x\n", 120), "\n")
	for max := 10; max < 250; max++ {
		got, n := Cut(text, max, shortNote)
		if len(got) > max {
			t.Fatalf("max %d: %d bytes: %q", max, len(got), got)
		}
		if strings.Count(got, "x")+n != 120 {
			t.Fatalf("max %d: counts do not add up", max)
		}
	}
}

func TestCutNotesWording(t *testing.T) {
	note := CutNote(40000)(412)
	for _, want := range []string{"412 more elements", "40000-byte", "-s <selector>", "--viewport", "--max-output 0"} {
		if !strings.Contains(note, want) {
			t.Errorf("cut note %q lacks %q", note, want)
		}
	}
	if got := CutNote(100)(1); !strings.Contains(got, "1 more element cut") {
		t.Errorf("singular: %q", got)
	}
	if got := AwayNote(3); got != "(… 3 more elements outside the viewport; scroll, or use -s <selector>)" {
		t.Errorf("away note %q", got)
	}
	if got := DiffCutNote(10)(2); !strings.Contains(got, "2 more diff lines") {
		t.Errorf("diff note %q", got)
	}
}

func TestPrintedRefs(t *testing.T) {
	text := "@e1 [button] \"Go\"\n  @e2 [link] \"@e9 x\"\n[text] \"@e8 y\"\n@c1 [div] \"card\"\n--- previous\n+++ current\n@@ -1,2 +1,2 @@\n-@e3 [button] \"old\"\n+  @e4 [button] \"new\"\n @e5 [link] \"same\""
	got := PrintedRefs(text)
	for _, id := range []string{"e1", "e2", "c1", "e3", "e4", "e5"} {
		if !got[id] {
			t.Errorf("%s not found", id)
		}
	}
	for _, id := range []string{"e8", "e9"} {
		if got[id] {
			t.Errorf("%s, quoted in a name, taken for a ref", id)
		}
	}
}

func TestShortHref(t *testing.T) {
	base := "https://example.com/guide/start?x=1"
	for _, c := range []struct{ href, want string }{
		{"https://example.com/docs/intro", "/docs/intro"},
		{"https://example.com/", "/"},
		{"https://example.com", "/"},
		{"https://example.com/a?b=c#d", "/a?b=c#d"},
		{"https://example.com/guide/start?x=1#install", "#install"},
		{"https://www.other.org/path/page.html", "other.org/path/page.html"},
		{"http://other.org:8080/x", "other.org:8080/x"},
		{"ftp://files.example.com/pub/x.tgz", "ftp://files.example.com/pub/x.tgz"},
		{"mailto:someone@example.com", "mailto:someone@example.com"},
		{"javascript:void(0)", "javascript:void(0)"},
		// Too long: the query goes first…
		{"https://cdn.example.com/assets/2024/index.html?utm_source=feed&utm_medium=rss&utm_campaign=x", "cdn.example.com/assets/2024/index.html?…"},
		// …then the middle of the path.
		{"https://cdn.example.com/assets/releases/2024/very/long/path/to/some/deeply/nested/resource/index.html?utm_source=feed#section",
			"cdn.example.com/assets/releases/2024/ve…esource/index.html?…"},
	} {
		got := ShortHref(c.href, base)
		if got != c.want {
			t.Errorf("ShortHref(%q) = %q, want %q", c.href, got, c.want)
		}
		if n := len([]rune(got)); n > maxHref {
			t.Errorf("ShortHref(%q) is %d characters", c.href, n)
		}
	}
}

// page is a small tree: a list of five links, the third with no name, and
// an iframe whose document holds a button.
func page() *Frame {
	child := &Frame{ID: "F2", URL: "https://example.com/frame", Nodes: []Node{
		{ID: "1", Role: "RootWebArea", Children: []string{"2"}, Key: 1},
		{ID: "2", Role: "button", Name: "Inside frame", Key: 2},
	}}
	root := &Frame{ID: "F1", URL: "https://example.com/page", Children: map[int64]*Frame{20: child}, Nodes: []Node{
		{ID: "1", Role: "RootWebArea", Name: "Page", Children: []string{"2", "9"}, Key: 1},
		{ID: "2", Role: "list", Children: []string{"3", "4", "5", "6", "7"}, Key: 2},
		{ID: "3", Role: "link", Name: "One", Key: 3, URL: "https://example.com/1"},
		{ID: "4", Role: "link", Name: "Two", Key: 4, URL: "https://example.com/2"},
		{ID: "5", Role: "link", Key: 5, URL: "https://example.com/docs/intro"},
		{ID: "6", Role: "link", Name: "Four", Key: 6, URL: "https://example.com/4"},
		{ID: "7", Role: "link", Name: "Five", Key: 7, URL: "https://example.com/5"},
		{ID: "9", Role: "Iframe", Key: 20},
	}}
	return root
}

func TestUnnamedLinkShowsHref(t *testing.T) {
	res := Render(page(), Options{Interactive: true}, nil)
	if !strings.Contains(res.Text, "@e3 [link] → /docs/intro\n") {
		t.Fatalf("unnamed link without its target:\n%s", res.Text)
	}
	if strings.Contains(res.Text, "→ /1") {
		t.Fatalf("a named link shows its target:\n%s", res.Text)
	}
}

func TestViewportArea(t *testing.T) {
	f := page()
	// The list spans 0–500; links sit 100 px apart; the iframe is far below.
	f.Boxes = map[int64]Box{2: {0, 0, 800, 500}, 3: {0, 0, 50, 20}, 4: {0, 100, 50, 20}, 6: {0, 300, 50, 20}, 7: {0, 400, 50, 20}, 20: {0, 5000, 300, 150}}
	area := &Box{0, 0, 800, 250}
	res := Render(f, Options{Interactive: true, Area: area}, nil)
	// Link 5 has no box of its own: it goes with its list, which is in.
	// Out: Four, Five, and the iframe's line with the button under it.
	want := "@e1 [link] \"One\"\n@e2 [link] \"Two\"\n@e3 [link] → /docs/intro"
	if res.Text != want || res.Away != 4 {
		t.Fatalf("got (%d away):\n%s\nwant:\n%s", res.Away, res.Text, want)
	}
	if len(res.Refs) != 3 {
		t.Fatalf("%d refs for 3 lines", len(res.Refs))
	}

	// Tree mode: an element outside the area still heads those inside it.
	f.Boxes[2] = Box{0, 1000, 800, 500}
	res = Render(f, Options{Area: area}, nil)
	if res.Text != "[text] \"Page\"\n@e1 [list]\n  @e2 [link] \"One\"\n  @e3 [link] \"Two\"" && res.Text != "@e1 [list]\n  @e2 [link] \"One\"\n  @e3 [link] \"Two\"" {
		t.Fatalf("ancestor of in-area links missing:\n%s", res.Text)
	}
	// Out: the unnamed link (no box: it goes with its list), Four, Five,
	// the iframe and the frame's button.
	if res.Away != 5 {
		t.Fatalf("%d away:\n%s", res.Away, res.Text)
	}

	// A frame's document without boxes goes with its iframe element.
	// Out: the unnamed link, Four, Five.
	f.Boxes[20] = Box{0, 100, 300, 150}
	res = Render(f, Options{Interactive: true, Area: area}, nil)
	if !strings.Contains(res.Text, `[button] "Inside frame"`) || res.Away != 3 {
		t.Fatalf("in-area iframe's contents (%d away):\n%s", res.Away, res.Text)
	}

	// The count respects -d: lines -d hides anyway are not counted, and an
	// element outside the area does not stay to head ones -d hides.
	res = Render(f, Options{Area: area, MaxDepth: 1}, nil)
	if res.Away != 1 || res.Text != "@e1 [iframe] (https://example.com/frame)" {
		t.Fatalf("-d 1 (%d away):\n%s", res.Away, res.Text)
	}
}

func TestViewportWithoutAreaUnchanged(t *testing.T) {
	f := page()
	plain := Render(f, Options{}, nil)
	f.Boxes = map[int64]Box{3: {0, 9999, 1, 1}}
	if res := Render(f, Options{}, nil); res.Text != plain.Text || res.Away != 0 {
		t.Fatal("boxes changed a snapshot taken without --viewport")
	}
}

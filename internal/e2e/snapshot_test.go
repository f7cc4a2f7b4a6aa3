package e2e

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// refFor finds the ref of the first snapshot line containing want.
func refFor(t *testing.T, snapshot, want string) string {
	t.Helper()
	for _, line := range strings.Split(snapshot, "\n") {
		if strings.Contains(line, want) {
			if m := regexp.MustCompile(`@[ec]\d+`).FindString(line); m != "" {
				return m
			}
		}
	}
	t.Fatalf("no ref for %q in:\n%s", want, snapshot)
	return ""
}

func TestSnapshotShapesAndFlags(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/interact.html"))
	full := w.page("snapshot")
	contains(t, full, `[heading] "Interaction fixture" [level=1]`)
	contains(t, full, `[checkbox] "I agree"`)
	contains(t, full, `[radio] "Plan A" [checked]`)
	contains(t, full, `[textbox] "Disabled" [disabled]`)
	contains(t, full, `[textbox] "Readonly" = "fixed" [readonly]`)
	contains(t, full, "\n  @") // nesting: two spaces per level
	if strings.Contains(full, "Invisible") {
		t.Fatal("snapshot shows a display:none button")
	}

	inter := w.page("snapshot", "-i")
	for _, line := range strings.Split(strings.TrimSpace(inter), "\n") {
		if !regexp.MustCompile(`^@e\d+ \[`).MatchString(line) {
			t.Fatalf("-i line is not a flat ref line: %q", line)
		}
	}
	contains(t, inter, `[button] "Submit"`)
	if strings.Contains(inter, "[heading]") {
		t.Fatal("-i lists headings")
	}
	// Ambiguous duplicates get distinct refs.
	if n := strings.Count(inter, `[button] "Save"`); n != 2 {
		t.Fatalf("%d Save buttons in -i", n)
	}

	compact := w.page("snapshot", "-c")
	if strings.Contains(compact, "[label]\n") || len(compact) >= len(full) {
		t.Fatal("-c did not drop unnamed structure")
	}
	shallow := w.page("snapshot", "-d", "1")
	if strings.Contains(shallow, "\n  ") {
		t.Fatalf("-d 1 has nested lines:\n%s", shallow)
	}
	scoped := w.page("snapshot", "-s", "#f")
	contains(t, scoped, `"Email"`)
	if strings.Contains(scoped, "Open card") || strings.Contains(scoped, "Interaction fixture") {
		t.Fatal("-s did not scope")
	}
	w.fails("not in the accessibility tree", "snapshot", "-s", "#menu")
	w.fails("Unknown flag", "snapshot", "-x")
	w.fails("-d takes a depth", "snapshot", "-d", "zero")
	w.fails("use it with -a", "snapshot", "-o", "/tmp/x.png")

	// Refs stay the same across snapshots of one page.
	again := w.page("snapshot", "-i")
	if refFor(t, inter, `"Submit"`) != refFor(t, again, `"Submit"`) {
		t.Fatal("refs changed between two snapshots of an unchanged page")
	}
}

func TestSnapshotDiffAndCursorAndAnnotate(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/interact.html"))
	contains(t, w.page("snapshot", "-D"), "stored as the baseline")
	contains(t, w.page("snapshot", "-D"), "no changes")
	w.ok("js", "document.querySelector('h1').textContent = 'Changed title'")
	diff := w.page("snapshot", "-D")
	contains(t, diff, `-@e`)
	contains(t, diff, `+@e`)
	contains(t, diff, "Changed title")

	cur := w.page("snapshot", "-i", "-C")
	contains(t, cur, "--- cursor-interactive")
	card := refFor(t, cur, `"Open card"`)
	if !strings.HasPrefix(card, "@c") {
		t.Fatalf("card ref %s", card)
	}
	contains(t, cur, `[span] "Tabbable span" (tabindex)`)
	contains(t, w.ok("click", card), "Clicked "+card)
	if got := w.page("text", "#out"); got != "card clicked\n" {
		t.Fatalf("after clicking the card: %q", got)
	}

	out := filepath.Join(t.TempDir(), "shot.png")
	res := w.page("snapshot", "-i", "-a", "-o", out)
	contains(t, res, "Annotated screenshot: "+out)
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() > 2000 || b.Dy() > 2000 || b.Dx() < 100 {
		t.Fatalf("annotated image %v", b)
	}
	// The overlay is gone after the capture.
	if got := w.ok("js", "!!document.getElementById('__browse_annotations')"); got != "false\n" {
		t.Fatal("annotation overlay left in the page")
	}
	// Retina viewport: still at most 2000 px a side.
	w.ok("viewport", "1600x1000", "--scale", "3")
	w.page("snapshot", "-i", "-a", "-o", out)
	f, _ = os.Open(out)
	cfg, err := png.DecodeConfig(f)
	f.Close()
	if err != nil || cfg.Width > 2000 || cfg.Height > 2000 {
		t.Fatalf("scaled annotated image %dx%d (%v)", cfg.Width, cfg.Height, err)
	}
	w.fails("outside the allowed directories", "snapshot", "-a", "-o", "/etc/x.png")
}

func TestRefsEndpoint(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/interact.html"))
	snap := w.page("snapshot", "-i")
	st := w.state()
	_, body := w.call("GET", "/refs", st.Token, "")
	var v struct {
		Refs []struct {
			Ref, Role, Name string
		}
	}
	if err := json.Unmarshal(body, &v); err != nil || len(v.Refs) != strings.Count(strings.TrimSpace(snap), "\n")+1 {
		t.Fatalf("/refs: %v, %d refs for %d lines", err, len(v.Refs), strings.Count(strings.TrimSpace(snap), "\n")+1)
	}
	if v.Refs[0].Ref != "e1" || v.Refs[0].Role == "" {
		t.Fatalf("first ref %+v", v.Refs[0])
	}
}

func TestInteraction(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/interact.html"))
	snap := w.page("snapshot", "-i")

	contains(t, w.ok("fill", refFor(t, snap, `"Email"`), "me@example.com"), "Filled")
	contains(t, w.ok("fill", "[name=bio]", "line one"), "Filled")
	w.ok("fill", "[name=age]", "42")
	w.ok("fill", "[name=bday]", "2024-02-29")
	w.ok("fill", "[name=vol]", "7")
	w.ok("fill", "[name=color]", "#ff0000")
	vals := w.ok("js", "JSON.stringify(['email','bio','age','bday','vol','color'].map(n => document.querySelector('[name='+n+']').value))")
	contains(t, vals, `["me@example.com","line one","42","2024-02-29","7","#ff0000"]`)
	// Fill replaces what was there.
	w.ok("fill", "[name=email]", "other@example.com")
	if got := w.ok("js", "document.querySelector('[name=email]').value"); got != "other@example.com\n" {
		t.Fatalf("refill = %q", got)
	}
	// An input that validates only on change sees the change event.
	w.ok("fill", "#zip", "123")
	if got := w.page("text", "#ziperr"); got != "zip invalid\n" {
		t.Fatalf("change validation: %q", got)
	}
	w.ok("fill", "#zip", "75001")
	contains(t, w.page("text", "#ziperr"), "zip ok")

	w.fails("is disabled", "fill", refFor(t, snap, `"Disabled" [disabled]`), "x")
	w.fails("is readonly", "fill", refFor(t, snap, `"Readonly"`), "x")
	w.fails("use click or upload", "fill", refFor(t, snap, `"I agree"`), "x")

	contains(t, w.ok("click", refFor(t, snap, `"I agree"`)), "Clicked")
	if got := w.ok("is", "checked", "[name=terms]"); got != "true\n" {
		t.Fatalf("checkbox after click: %q", got)
	}
	w.ok("click", refFor(t, snap, `"Plan B"`))
	contains(t, w.page("snapshot", "-i"), `[radio] "Plan B" [checked]`)

	contains(t, w.ok("select", "[name=country]", "Germany"), `Selected "Germany" (value "de")`)
	w.ok("select", "[name=country]", "fr")
	if got := w.ok("js", "document.querySelector('[name=country]').value"); got != "fr\n" {
		t.Fatalf("select by value: %q", got)
	}
	r := w.fails("No option \"Spain\"", "select", "[name=country]", "Spain")
	contains(t, r.stderr, "France (fr)")
	// Under -i a drop-down shows its option count; the full snapshot lists
	// the options, and a ref to one selects it.
	contains(t, w.page("snapshot", "-i"), `[combobox] "Country" = "France" (3 options)`)
	snap = w.page("snapshot")
	contains(t, w.ok("click", refFor(t, snap, `[option] "Germany"`)), "Selected")
	if got := w.ok("js", "document.querySelector('[name=country]').value"); got != "de\n" {
		t.Fatalf("option ref click: %q", got)
	}

	// Duplicates: CSS is ambiguous, refs are not.
	r = w.fails("matches 2 elements", "click", "button.dup")
	contains(t, r.stderr, "snapshot -i")
	saves := regexp.MustCompile(`(@e\d+) \[button\] "Save"`).FindAllStringSubmatch(snap, -1)
	w.ok("click", saves[1][1])
	if got := w.page("text", "#out"); got != "second save\n" {
		t.Fatalf("second Save: %q", got)
	}

	// A floating dropdown: open it, then click the item that appears.
	w.ok("click", "#menubtn")
	snap = w.page("snapshot", "-i")
	w.ok("click", refFor(t, snap, `[link] "Item one"`))
	if got := w.page("text", "#out"); got != "item one\n" {
		t.Fatalf("dropdown item: %q", got)
	}

	// Keys: type into the focused field, press named keys and combos.
	w.ok("click", "#keys")
	contains(t, w.ok("type", "Hi there"), "Typed 8 characters")
	w.ok("press", "Shift+A")
	w.ok("press", "Backspace")
	w.ok("press", "Control+A")
	w.ok("press", "Backspace")
	if got := w.ok("js", "document.getElementById('keys').value.length"); got != "0\n" {
		t.Fatalf("after Control+A, Backspace: %q", got)
	}
	contains(t, w.page("text", "#keylog"), "H,i, ,t,h,e,r,e,Shift,A,Backspace,Control,A,Backspace,")
	w.fails("unknown key", "press", "Bogus")
	w.fails("not a modifier", "press", "Foo+A")

	// Submitting with Enter.
	w.ok("fill", "[name=email]", "enter@example.com")
	w.ok("press", "Enter")
	contains(t, w.page("text", "#out"), "submitted enter@example.com")

	contains(t, w.ok("hover", "#menubtn"), "Hovered")
	contains(t, w.ok("scroll", "#bottom"), "into view")
	contains(t, w.ok("scroll"), "Scrolled to the bottom")
	if got := w.ok("is", "visible", "#bottom"); got != "true\n" {
		t.Fatalf("is visible: %q", got)
	}
	if got := w.ok("is", "visible", "#nothing-here"); got != "false\n" {
		t.Fatalf("is visible on a missing element: %q", got)
	}
	if got := w.ok("is", "disabled", "[name=dis]"); got != "true\n" {
		t.Fatalf("is disabled: %q", got)
	}
	if got := w.ok("is", "editable", "[name=ro]"); got != "false\n" {
		t.Fatalf("is editable on readonly: %q", got)
	}
	w.fails("Unknown state", "is", "shiny", "#x")
	contains(t, w.ok("attrs", "[name=ro]"), `"readonly": ""`)
	if got := w.ok("css", "#menu", "position"); got != "absolute\n" {
		t.Fatalf("css = %q", got)
	}
	contains(t, w.ok("accessibility"), `[heading] "Interaction fixture"`)
	contains(t, w.ok("viewport", "375x812"), "375x812")
	contains(t, w.ok("viewport"), "375x812")
	w.fails("WIDTHxHEIGHT", "viewport", "big")
}

func TestActionErrors(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/interact.html"))
	snap := w.page("snapshot", "-i")

	r := w.fails("is disabled", "click", refFor(t, snap, `"Disabled button"`))
	contains(t, r.stderr, `(button "Disabled button")`)

	// A missing element fails within its timeout, with a next step.
	start := time.Now()
	r = w.fails("Element #nope not found", "--timeout", "800", "click", "#nope")
	contains(t, r.stderr, "snapshot -i")
	if took := time.Since(start); took > 4*time.Second {
		t.Fatalf("missing element took %s", took)
	}
	// A covered element: the modal is on top.
	w.ok("click", "#modalbtn")
	start = time.Now()
	r = w.fails("is covered by <div id=\"modal\">", "--timeout", "800", "click", refFor(t, snap, `"Submit"`))
	contains(t, r.stderr, "Close or dismiss")
	if took := time.Since(start); took > 4*time.Second {
		t.Fatalf("covered element took %s", took)
	}
	w.fails("not a valid CSS selector", "click", "##")
	r = w.fails("Ref @e999 is not in the current snapshot", "click", "@e999")
	contains(t, r.stderr, "Run 'snapshot'")
	w.fails("not a ref", "click", "@x1")

	// Navigation clears refs; the error says what to do.
	w.ok("goto", url("/other.html"))
	r = w.fails("there are no refs for this page", "click", "@e1")
	contains(t, r.stderr, "snapshot -i")
}

func TestStaleRefsAfterRerender(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/spa.html"))
	snap := w.page("snapshot", "-i")
	btn := refFor(t, snap, `"Go to details"`)
	w.ok("click", btn)
	start := time.Now()
	r := w.fails("is stale", "click", btn)
	contains(t, r.stderr, `Ref `+btn+` (button "Go to details") is stale — it is no longer on the page.`)
	contains(t, r.stderr, "Run 'snapshot' for fresh refs.")
	if took := time.Since(start); took > time.Second {
		t.Fatalf("stale ref took %s to fail", took)
	}
	contains(t, w.page("snapshot"), `[heading] "Details view"`)
}

func TestFramesAndShadowRoots(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/frames.html"))
	w.ok("wait", "--load")
	var snap string
	// Frames load on their own schedule: wait until both documents show.
	for i := 0; i < 50; i++ {
		snap = w.page("snapshot")
		if strings.Count(snap, `"Pay"`) == 2 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if strings.Count(snap, `[button] "Pay"`) != 2 {
		t.Fatalf("both iframes' buttons should be inline:\n%s", snap)
	}
	contains(t, snap, "[iframe] ("+url("/child.html")+")")
	contains(t, snap, "/child.html)") // the cross-site one names its localhost URL too
	// The iframe's contents are nested under the iframe line.
	lines := strings.Split(snap, "\n")
	for i, l := range lines {
		if strings.Contains(l, "[iframe]") && i+1 < len(lines) {
			if indent(lines[i+1]) <= indent(l) {
				t.Fatalf("iframe content not nested:\n%s", snap)
			}
		}
	}
	inter := w.page("snapshot", "-i")
	pays := regexp.MustCompile(`(@e\d+) \[button\] "Pay"`).FindAllStringSubmatch(inter, -1)
	cards := regexp.MustCompile(`(@e\d+) \[textbox\] "Card number"`).FindAllStringSubmatch(inter, -1)
	if len(pays) != 2 || len(cards) != 2 {
		t.Fatalf("refs in frames:\n%s", inter)
	}
	// Same-site frame, then the out-of-process (cross-site) frame.
	for i, name := range []string{"same", "cross"} {
		w.ok("fill", cards[i][1], "4242 "+name)
		contains(t, w.ok("click", pays[i][1]), "Clicked")
		w.ok("frame", "--name", name)
		if got := w.page("text", "#paid"); got != "paid 4242 "+name+"\n" {
			t.Fatalf("%s frame after pay: %q", name, got)
		}
		if got := w.ok("js", "location.host.startsWith('localhost')"); got != strconv.FormatBool(name == "cross")+"\n" {
			t.Fatalf("frame %s: js ran in the wrong frame: %q", name, got)
		}
		w.ok("frame", "main")
	}
	contains(t, w.ok("frame", "iframe[name=cross]"), "localhost")
	contains(t, w.page("text"), "Inside the frame")
	w.ok("frame", "main")
	w.fails("is not a frame", "frame", "h1")
	w.fails("No such frame", "frame", "--name", "nope")

	// Shadow roots, open and closed, come through like any other element.
	w.ok("goto", url("/shadow.html"))
	snap = w.page("snapshot", "-i")
	contains(t, snap, `[button] "Open shadow button"`)
	contains(t, snap, `[button] "Closed shadow button"`)
	contains(t, snap, `[button] "Nested closed button"`)
	contains(t, snap, `[link] "Custom element link"`)
	w.ok("click", refFor(t, snap, `"Open shadow button"`))
	contains(t, w.page("text", "#log"), "open clicked")
	w.ok("fill", refFor(t, snap, `"Closed shadow input"`), "secret")
	w.ok("click", refFor(t, snap, `"Closed shadow button"`))
	contains(t, w.page("text", "#log"), "closed clicked: secret")
}

func indent(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

func TestUploadAndDialogs(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/interact.html"))
	file := filepath.Join(t.TempDir(), "doc.txt")
	os.WriteFile(file, []byte("hello"), 0o600)
	contains(t, w.ok("upload", "[name=doc]", file), "Uploaded 1 file(s)")
	if got := w.ok("js", "document.querySelector('[name=doc]').files[0].name"); got != "doc.txt\n" {
		t.Fatalf("uploaded file: %q", got)
	}
	w.fails("single-file input", "upload", "[name=doc]", file, file)
	w.fails("outside the allowed directories", "upload", "[name=doc]", "/etc/hostname")
	w.fails("not a file input", "upload", "[name=email]", file)

	w.ok("goto", url("/dialogs.html"))
	contains(t, w.ok("dialog-dismiss"), "dismissed")
	contains(t, w.ok("js", "JSON.stringify(runDialogs())"), `"confirm":false,"prompt":null`)
	contains(t, w.ok("dialog-accept", "Ada"), `"Ada"`)
	contains(t, w.ok("js", "JSON.stringify(runDialogs())"), `"confirm":true,"prompt":"Ada"`)
	contains(t, w.ok("dialog"), `[prompt] "name?" → accepted with "Ada"`)
}

func TestClickNavigatesAndSettles(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/home.html"))
	snap := w.page("snapshot", "-i")
	contains(t, w.ok("click", refFor(t, snap, `"Other page"`)), "navigated to "+url("/other.html"))
	// Settled: the new page is readable at once.
	contains(t, w.page("text"), "Other page")
}

func TestWaitForRef(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/interact.html"))
	snap := w.page("snapshot", "-i")
	contains(t, w.ok("wait", refFor(t, snap, `"Submit"`)), "Done waiting")
	w.ok("goto", url("/spa.html"))
	snap = w.page("snapshot", "-i")
	btn := refFor(t, snap, `"Go to details"`)
	w.ok("click", btn)
	w.fails("is stale", "wait", btn)
}

func TestNewTabFromPageAndSelfClose(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/popup.html"))
	snap := w.page("snapshot", "-i")
	out := w.ok("click", refFor(t, snap, `"Open in new tab"`))
	contains(t, out, "opened tab 2")
	// The new tab is active and has loaded.
	w.ok("wait", "--load")
	contains(t, w.ok("url"), "/other.html")

	// A page that closes the last tab itself leaves a blank one to drive.
	// (Chromium lets script close only a tab with one history entry: the popup.)
	w.ok("closetab", "1")
	w.run("js", "window.close()")
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if tabs := w.ok("tabs"); !strings.Contains(tabs, "other.html") && strings.Contains(tabs, "about:blank") {
			w.ok("goto", url("/home.html")) // and it is usable
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("after window.close: %s", w.ok("tabs"))
}

func TestRefInRemovedFrame(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/frames.html"))
	var snap string
	for i := 0; i < 50 && strings.Count(snap, `"Pay"`) < 2; i++ {
		snap = w.page("snapshot", "-i")
		time.Sleep(50 * time.Millisecond)
	}
	pays := regexp.MustCompile(`(@e\d+) \[button\] "Pay"`).FindAllStringSubmatch(snap, -1)
	if len(pays) != 2 {
		t.Fatalf("refs:\n%s", snap)
	}
	w.ok("js", "document.querySelectorAll('iframe').forEach(f => f.remove())")
	for _, p := range pays {
		start := time.Now()
		r := w.fails("in a frame that is gone", "click", p[1])
		contains(t, r.stderr, "Run 'snapshot' for fresh refs.")
		if time.Since(start) > time.Second {
			t.Fatalf("a ref in a removed frame took %s to fail", time.Since(start))
		}
	}
}

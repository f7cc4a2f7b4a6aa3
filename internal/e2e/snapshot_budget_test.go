package e2e

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// long-article.html: a header with links (two of them unnamed icons), a
// button and an iframe at the top, 300 sections of text, links, a "Share"
// button and an unnamed permalink icon, and a last iframe at the bottom.
// `snapshot -i` of it is about 100 KB.

var (
	cutNote  = regexp.MustCompile(`^\(… (\d+) more elements cut at the 40000-byte output limit; narrow with -s <selector> or --viewport, or see all with --max-output 0\)$`)
	awayNote = regexp.MustCompile(`^\(… (\d+) more elements outside the viewport; scroll, or use -s <selector>\)$`)
)

func lastLine(s string) (rest []string, last string) {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	return lines[:len(lines)-1], lines[len(lines)-1]
}

func TestSnapshotBudgetLongPage(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/long-article.html"))
	w.ok("wait", "--load")

	start := time.Now()
	all := w.page("snapshot", "-i", "--max-output", "0")
	fullTook := time.Since(start)
	if len(all) < 80000 || !strings.Contains(all, `[button] "Share section 300"`) || !strings.Contains(all, `[button] "Bottom frame button"`) {
		t.Fatalf("--max-output 0 should list the whole page (%d bytes); its end:\n%s", len(all), all[max(0, len(all)-500):])
	}
	if strings.Contains(all, "output limit") {
		t.Fatal("--max-output 0 still cut")
	}
	allLines := strings.Count(strings.TrimSuffix(all, "\n"), "\n") + 1
	lateRef := refFor(t, all, `"Share section 300"`)

	// The default budget: at most 40000 bytes, note included, cut between
	// lines, and the note counts what it left out.
	start = time.Now()
	cut := w.page("snapshot", "-i")
	cutTook := time.Since(start)
	body := strings.TrimSuffix(cut, "\n")
	if len(body) > 40000 || len(body) < 39000 {
		t.Fatalf("default snapshot is %d bytes, want just under 40000", len(body))
	}
	kept, note := lastLine(cut)
	m := cutNote.FindStringSubmatch(note)
	if m == nil {
		t.Fatalf("last line %q is not the cut note", note)
	}
	for _, l := range kept {
		if !regexp.MustCompile(`^(  )?@e\d+ \[[a-z]+\]( "| →| \(about:srcdoc\)$)`).MatchString(l) {
			t.Fatalf("a kept line is not a whole element line: %q", l)
		}
	}
	if n, _ := strconv.Atoi(m[1]); len(kept)+n != allLines {
		t.Fatalf("%d kept + %d cut != %d elements in the full listing", len(kept), n, allLines)
	}
	if !strings.HasPrefix(all, strings.Join(kept, "\n")+"\n") {
		t.Fatal("the cut listing is not the start of the full one")
	}

	// Unnamed links say where they go, in short.
	contains(t, cut, "[link] → /docs/intro\n")
	contains(t, cut, "[link] → /sections/1/permalink\n")
	contains(t, cut, "[link] → cdn.example.com/assets/releases/")

	// A ref from the printed part acts; one cut from it is not valid.
	contains(t, w.ok("click", refFor(t, cut, `[button] "Top action"`)), "Clicked")
	if got := w.page("text", "#out"); got != "top action clicked\n" {
		t.Fatalf("after clicking Top action: %q", got)
	}
	r := w.fails("is not in the current snapshot", "click", lateRef)
	contains(t, r.stderr, "Run 'snapshot'")

	// --viewport: the top of the page, through the top iframe, and a count
	// of the rest that adds up with the full listing.
	start = time.Now()
	near := w.page("snapshot", "-i", "--viewport")
	nearTook := time.Since(start)
	shown, note := lastLine(near)
	m = awayNote.FindStringSubmatch(note)
	if m == nil {
		t.Fatalf("last line %q is not the viewport note:\n%s", note, near)
	}
	for _, want := range []string{`[button] "Top action"`, `[button] "Top frame button"`, `[button] "Share section 1"`, "[link] → /docs/intro"} {
		contains(t, near, want)
	}
	for _, gone := range []string{`"Share section 20"`, `"Bottom frame button"`, `"Back to top"`} {
		if strings.Contains(near, gone) {
			t.Fatalf("--viewport at the top lists %s:\n%s", gone, near)
		}
	}
	if n, _ := strconv.Atoi(m[1]); len(shown)+n != allLines {
		t.Fatalf("%d shown + %d outside != %d elements in the full listing", len(shown), n, allLines)
	}
	contains(t, w.ok("click", refFor(t, near, `[button] "Share section 1"`)), "Clicked")
	t.Logf("snapshot -i on %d elements: whole %s, budgeted %s, --viewport %s", allLines, fullTook, cutTook, nearTook)

	// Scrolled down, the window moves with the page, iframes included.
	w.ok("scroll", "#bottom-frame")
	near = w.page("snapshot", "-i", "--viewport")
	contains(t, near, `[button] "Bottom frame button"`)
	contains(t, near, `[button] "Share section 300"`)
	contains(t, near, `[link] "Back to top"`)
	for _, gone := range []string{`"Share section 1"`, `"Top frame button"`, "→ /docs/intro"} {
		if strings.Contains(near, gone) {
			t.Fatalf("--viewport at the bottom lists %s:\n%s", gone, near)
		}
	}
	contains(t, w.ok("click", refFor(t, near, `"Bottom frame button"`)), "Clicked")

	w.fails("--max-output takes a number of bytes", "snapshot", "--max-output", "lots")
	w.fails("--max-output takes a number of bytes", "snapshot", "--max-output", "-5")
}

// The budget cuts only what is printed: -D diffs the whole trees, so a
// change past the cut shows, and its ref works.
func TestSnapshotBudgetDiffAndAnnotate(t *testing.T) {
	w := newWorkspace(t)
	w.ok("goto", url("/long-article.html"))
	w.ok("wait", "--load")
	first := w.page("snapshot", "-i", "-D")
	contains(t, first, "stored as the baseline")
	if _, note := lastLine(first); !cutNote.MatchString(note) {
		t.Fatalf("first -D not cut: %q", note)
	}
	if body := strings.TrimSuffix(first, "\n"); len(body) > 40000 {
		t.Fatalf("first -D is %d bytes, header included: over the budget", len(body))
	}
	contains(t, w.page("snapshot", "-i", "-D"), "no changes")

	w.ok("js", "document.querySelector('#s300 button').textContent = 'Renamed share'")
	diff := w.page("snapshot", "-i", "-D")
	contains(t, diff, `-@e`)
	ref := refFor(t, diff, `+@e`)
	contains(t, diff, ref+` [button] "Renamed share"`)
	contains(t, w.ok("click", ref), "Clicked")
	// A ref printed by the earlier (cut) snapshot still works after a diff.
	contains(t, w.ok("click", refFor(t, first, `[button] "Top action"`)), "Clicked")

	// A diff too long for its budget is cut between lines too.
	w.ok("js", "document.querySelectorAll('section button').forEach((b, i) => b.textContent = 'Changed ' + i)")
	diff = w.page("snapshot", "-i", "-D", "--max-output", "2000")
	if body := strings.TrimSuffix(diff, "\n"); len(body) > 2000 {
		t.Fatalf("diff of %d bytes over a 2000-byte budget", len(body))
	}
	_, note := lastLine(diff)
	if !regexp.MustCompile(`^\(… \d+ more diff lines cut at the 2000-byte output limit; see all with --max-output 0\)$`).MatchString(note) {
		t.Fatalf("diff cut note %q", note)
	}

	// -a labels the refs that were printed.
	out := fmt.Sprintf("%s/near.png", t.TempDir())
	contains(t, w.page("snapshot", "-i", "--viewport", "-a", "-o", out), "Annotated screenshot: "+out)
}

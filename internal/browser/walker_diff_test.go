package browser

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/browsehq/browse/internal/snapshot"
)

// The differential test: the walker engine's snapshots against the
// getFullAXTree engine's, rendered the same way (-i and full, without
// refs), on every fixture page and on the large pages of the corpus.
// docs/design-notes.md lists the differences this allows, and why.

// renderBoth renders a page's tree from both engines.
func renderBoth(t *testing.T, ctx context.Context, tab *Tab, interactive bool) (ax, walker string) {
	t.Helper()
	axTree, err := tab.AXTree(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	wTree, _, err := tab.Tree(ctx, "", TreeOptions{Interactive: interactive})
	if err != nil {
		t.Fatal(err)
	}
	opts := snapshot.Options{Interactive: interactive, NoRefs: true}
	return snapshot.Render(axTree, opts, nil).Text, snapshot.Render(wTree, opts, nil).Text
}

// unmatched counts the lines of a that b lacks, as multisets of trimmed
// lines (an LCS over 17,000-line pages would cost more than it tells),
// and returns a few of them for the log.
func unmatched(a, b string) (int, []string) {
	have := map[string]int{}
	for _, l := range strings.Split(b, "\n") {
		have[strings.TrimSpace(l)]++
	}
	n := 0
	var some []string
	for _, l := range strings.Split(a, "\n") {
		l = strings.TrimSpace(l)
		if have[l] > 0 {
			have[l]--
			continue
		}
		n++
		if len(some) < 8 {
			some = append(some, l)
		}
	}
	return n, some
}

// documentedDifference reports whether a line differing between the engines
// is one docs/design-notes.md explains: a media element without the
// browser's controls, which Chromium names from its own error overlay.
func documentedDifference(line string) bool {
	return strings.HasPrefix(line, "[Video]") || strings.HasPrefix(line, "[Audio]")
}

func TestWalkerMatchesAXTreeOnFixtures(t *testing.T) {
	pages, _ := filepath.Glob("../../testdata/*.html")
	if len(pages) < 10 {
		t.Fatalf("fixture pages not found: %v", pages)
	}
	br := startBrowser(t)
	srv := httptest.NewServer(http.FileServer(http.Dir("../../testdata")))
	defer srv.Close()
	tab, _ := br.Tab(0)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for _, page := range pages {
		name := filepath.Base(page)
		if name == "wedge.html" || name == "late.html" {
			continue // pages that never settle or change as they load
		}
		if _, err := tab.Navigate(ctx, srv.URL+"/"+name); err != nil {
			t.Fatal(err)
		}
		for _, interactive := range []bool{true, false} {
			ax, walker := renderBoth(t, ctx, tab, interactive)
			for try := 0; ax != walker && try < 3; try++ {
				// A page still changing (media failing to load) gets a
				// moment to settle, then both engines read it again.
				time.Sleep(300 * time.Millisecond)
				ax, walker = renderBoth(t, ctx, tab, interactive)
			}
			if ax == walker {
				continue
			}
			for _, pair := range [][2]string{{ax, walker}, {walker, ax}} {
				_, lines := unmatched(pair[0], pair[1])
				for _, l := range lines {
					if !documentedDifference(l) {
						t.Errorf("%s (-i=%v): engines differ on %q\nAX:\n%s\nwalker:\n%s", name, interactive, l, ax, walker)
					}
				}
			}
		}
	}
}

// TestWalkerMatchesAXTreeOnCorpus runs over the largest pages of the
// Python documentation (scripts/install-corpus.sh; CI installs it): -i must
// be identical, and full snapshots may differ only where documented.
func TestWalkerMatchesAXTreeOnCorpus(t *testing.T) {
	dir := os.Getenv("BROWSE_CORPUS_DIR")
	if dir == "" {
		dir = "/usr/share/doc/python3.11/html"
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "library", "*.html"))
	if len(pages) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatalf("no corpus in %s: run scripts/install-corpus.sh", dir)
		}
		t.Skipf("no corpus in %s (scripts/install-corpus.sh installs it)", dir)
	}
	n := 12
	if v, err := strconv.Atoi(os.Getenv("BROWSE_CORPUS_PAGES")); err == nil && v > 0 {
		n = v
	}
	sort.Slice(pages, func(i, j int) bool { return fileSize(pages[i]) > fileSize(pages[j]) })
	pages = pages[:min(n, len(pages))]
	br := startBrowser(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	tab, _ := br.Tab(0)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	for _, page := range pages {
		rel, _ := filepath.Rel(dir, page)
		if _, err := tab.Navigate(ctx, srv.URL+"/"+filepath.ToSlash(rel)); err != nil {
			t.Fatal(err)
		}
		ax, walker := renderBoth(t, ctx, tab, true)
		if ax != walker {
			missing, lines := unmatched(ax, walker)
			extra, more := unmatched(walker, ax)
			t.Errorf("%s -i: %d lines missing, %d extra: %q %q", rel, missing, extra, lines, more)
		}
		ax, walker = renderBoth(t, ctx, tab, false)
		missing, lines := unmatched(ax, walker)
		extra, more := unmatched(walker, ax)
		t.Logf("%s full: %d lines, %d missing, %d extra %q %q", rel, strings.Count(ax, "\n")+1, missing, extra, lines, more)
		for _, l := range append(lines, more...) {
			if !documentedDifference(l) {
				t.Errorf("%s full: engines differ on %q", rel, l)
			}
		}
	}
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// fixtureTab opens a page of the repository's testdata in a new browser.
func fixtureTab(t *testing.T, page string) (*Tab, context.Context) {
	br := startBrowser(t)
	srv := httptest.NewServer(http.FileServer(http.Dir("../../testdata")))
	t.Cleanup(srv.Close)
	tab, _ := br.Tab(0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	if _, err := tab.Navigate(ctx, srv.URL+"/"+page); err != nil {
		t.Fatal(err)
	}
	return tab, ctx
}

// A document deeper than the walker's stack is taken from getFullAXTree
// whole, rather than failing the snapshot.
func TestWalkerFallsBackOnDeepDocuments(t *testing.T) {
	tab, ctx := fixtureTab(t, "deep.html")
	f, _, err := tab.Tree(ctx, "", TreeOptions{Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	text := snapshot.Render(f, snapshot.Options{Interactive: true, NoRefs: true}, nil).Text
	if f.World != 0 || text != `[button] "Deep button"` {
		t.Fatalf("world %d, snapshot %q", f.World, text)
	}
}

// -s: the walk from one element against getFullAXTree's tree scoped to it.
func TestWalkerScopeMatchesAXTree(t *testing.T) {
	tab, ctx := fixtureTab(t, "names-and-roles.html")
	axTree, err := tab.AXTree(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, sel := range []string{"header", "fieldset", "form", "table", "#slot-host", "details", "main > ul", "h1"} {
		el, _, err := tab.QueryCSS(ctx, "", sel)
		if err != nil {
			t.Fatal(sel, err)
		}
		backend, err := el.NodeBackendID(ctx)
		el.Release()
		if err != nil {
			t.Fatal(sel, err)
		}
		for _, interactive := range []bool{true, false} {
			want := snapshot.Render(axTree, snapshot.Options{Interactive: interactive, NoRefs: true, ScopeBackendID: backend}, nil)
			tree, _, err := tab.Tree(ctx, "", TreeOptions{Interactive: interactive, Scope: backend})
			if err != nil {
				t.Fatal(sel, err)
			}
			got := snapshot.Render(tree, snapshot.Options{Interactive: interactive, NoRefs: true}, nil)
			if !want.Found || got.Text != want.Text {
				t.Errorf("-s %s -i=%v:\nAX:\n%s\nwalker:\n%s", sel, interactive, want.Text, got.Text)
			}
		}
	}
	// A hidden element has no place in a snapshot.
	el, _, err := tab.QueryCSS(ctx, "", "[hidden] button")
	if err != nil {
		t.Fatal(err)
	}
	backend, _ := el.NodeBackendID(ctx)
	if _, _, err := tab.Tree(ctx, "", TreeOptions{Scope: backend}); !errors.Is(err, ErrNotRendered) {
		t.Fatalf("hidden scope: %v", err)
	}
}

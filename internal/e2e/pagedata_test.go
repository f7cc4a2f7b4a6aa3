package e2e

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// /pagedata/img/WxH.png is a generated PNG of that size, so tests know the
// natural size of every image they serve.
func init() {
	extraFixtures = append(extraFixtures, func(mux *http.ServeMux) {
		mux.HandleFunc("/pagedata/img/", func(w http.ResponseWriter, r *http.Request) {
			var width, height int
			name := strings.TrimPrefix(r.URL.Path, "/pagedata/img/")
			if _, err := fmt.Sscanf(name, "%dx%d.png", &width, &height); err != nil || width < 1 || height < 1 || width > 2000 || height > 2000 {
				http.NotFound(w, r)
				return
			}
			img := image.NewRGBA(image.Rect(0, 0, width, height))
			for i := range img.Pix {
				img.Pix[i] = 0x80
			}
			img.Set(0, 0, color.Black)
			w.Header().Set("Content-Type", "image/png")
			png.Encode(w, img)
		})
	})
}

// mediaItem is the part of a media entry the tests look at.
type mediaItem struct {
	Type, Tag, URL, Mime, Source  string
	NaturalWidth, NaturalHeight   int
	RenderedWidth, RenderedHeight int
	Alt                           *string
	Loaded                        bool
	Poster                        *string
	Sources                       []struct{ URL, Srcset, Type string }
	Controls, Muted               bool
	Truncated                     bool
}

func mediaList(t *testing.T, out string) []mediaItem {
	t.Helper()
	var items []mediaItem
	if err := json.Unmarshal([]byte(out), &items); err != nil {
		t.Fatalf("media output is not a JSON array: %v\n%s", err, out)
	}
	return items
}

func TestMedia(t *testing.T) {
	w := shared(t)
	tab := strconv.Itoa(newTab(t, w))
	run := func(args ...string) string { return w.ok(append([]string{"--tab-id", tab}, args...)...) }
	pg := func(args ...string) string { return unwrap(t, run(args...)) }
	run("goto", url("/pagedata-media.html"))
	run("wait", "--load")

	items := mediaList(t, pg("media"))
	if len(items) != 6 {
		t.Fatalf("media found %d items, want 6 (3 img, video, audio, background):\n%+v", len(items), items)
	}
	plain := items[0]
	if plain.Type != "image" || plain.URL != url("/pagedata/img/120x80.png") || plain.Mime != "image/png" ||
		plain.NaturalWidth != 120 || plain.NaturalHeight != 80 || plain.RenderedWidth != 60 || plain.RenderedHeight != 40 || plain.Alt == nil || *plain.Alt != "A plain image" || !plain.Loaded {
		t.Fatalf("plain image: %+v", plain)
	}
	// <picture>: the browser picked the <source>, whose type is declared.
	pic := items[1]
	if pic.URL != url("/pagedata/img/200x100.png") || pic.NaturalWidth != 200 || pic.NaturalHeight != 100 ||
		len(pic.Sources) != 1 || pic.Sources[0].Type != "image/png" || pic.Alt == nil || *pic.Alt != "" {
		t.Fatalf("picture image: %+v", pic)
	}
	if items[2].Alt != nil || items[2].NaturalWidth != 50 {
		t.Fatalf("image without alt: %+v", items[2])
	}
	video := items[3]
	if video.Type != "video" || video.Poster == nil || *video.Poster != url("/pagedata/img/64x48.png") || len(video.Sources) != 2 ||
		video.Sources[0].URL != url("/pagedata/clip.webm") || video.Sources[1].Type != "video/mp4" ||
		video.RenderedWidth != 320 || video.RenderedHeight != 240 || !video.Controls || !video.Muted {
		t.Fatalf("video: %+v", video)
	}
	if video.URL != video.Sources[0].URL && video.URL != video.Sources[1].URL {
		t.Fatalf("video URL %q is none of its sources", video.URL)
	}
	audio := items[4]
	if audio.Type != "audio" || audio.URL != url("/pagedata/song.mp3") || audio.Mime != "audio/mpeg" {
		t.Fatalf("audio: %+v", audio)
	}
	bg := items[5]
	if bg.Type != "image" || bg.Source != "css-background" || bg.Tag != "div" || bg.URL != url("/pagedata/img/40x30.png") ||
		bg.RenderedWidth != 80 || bg.RenderedHeight != 60 || bg.NaturalWidth != 0 {
		t.Fatalf("background image: %+v", bg)
	}

	// Filters and scope.
	if got := mediaList(t, pg("media", "--images")); len(got) != 4 {
		t.Fatalf("media --images: %d items, want 4", len(got))
	}
	if got := mediaList(t, pg("media", "--videos")); len(got) != 1 || got[0].Type != "video" {
		t.Fatalf("media --videos: %+v", got)
	}
	if got := mediaList(t, pg("media", "--audio", "--videos")); len(got) != 2 || got[0].Type != "video" || got[1].Type != "audio" {
		t.Fatalf("media --audio --videos: %+v", got)
	}
	if got := mediaList(t, pg("media", "#gallery")); len(got) != 1 || got[0].URL != url("/pagedata/img/50x50.png") {
		t.Fatalf("media #gallery: %+v", got)
	}
	// A ref to the image itself scopes to that one element.
	ref := regexp.MustCompile(`(@e\d+) \[image\] "A plain image"`).FindStringSubmatch(run("snapshot"))
	if ref == nil {
		t.Fatal("no ref for the plain image in the snapshot")
	}
	if got := mediaList(t, pg("media", ref[1])); len(got) != 1 || got[0].URL != plain.URL {
		t.Fatalf("media %s: %+v", ref[1], got)
	}
	w.fails("not found", "--tab-id", tab, "media", "#nope")

	// A page with no media says so in JSON.
	run("goto", url("/pagedata-data.html"))
	if got := pg("media"); got != "[]\n" {
		t.Fatalf("media on a page without any = %q", got)
	}
}

func TestData(t *testing.T) {
	w := shared(t)
	tab := strconv.Itoa(newTab(t, w))
	run := func(args ...string) string { return w.ok(append([]string{"--tab-id", tab}, args...)...) }
	pg := func(args ...string) string { return unwrap(t, run(args...)) }
	run("goto", url("/pagedata-data.html"))

	var all struct {
		JSONLD  []map[string]any `json:"jsonld"`
		OG      map[string]any
		Twitter map[string]any
		Meta    struct {
			Title, Canonical, Lang, Charset string
			Tags                            map[string]any
		}
	}
	out := pg("data")
	if err := json.Unmarshal([]byte(out), &all); err != nil {
		t.Fatalf("data is not JSON: %v\n%s", err, out)
	}
	if len(all.JSONLD) != 2 || all.JSONLD[0]["name"] != "Widget" || all.JSONLD[0]["@type"] != "Product" ||
		all.JSONLD[0]["offers"].(map[string]any)["price"] != "9.99" {
		t.Fatalf("jsonld: %+v", all.JSONLD)
	}
	if e, _ := all.JSONLD[1]["error"].(string); !strings.Contains(e, "unparsable JSON-LD") {
		t.Fatalf("the broken JSON-LD block is not reported as an error: %+v", all.JSONLD[1])
	}
	if all.OG["og:title"] != "OG Title Here" || all.OG["og:type"] != "article" {
		t.Fatalf("og: %+v", all.OG)
	}
	if imgs, _ := all.OG["og:image"].([]any); len(imgs) != 2 || imgs[1] != "https://example.invalid/b.png" {
		t.Fatalf("og:image given twice should be a list: %+v", all.OG["og:image"])
	}
	if all.Twitter["twitter:card"] != "summary_large_image" || all.Twitter["twitter:site"] != "@fixture" {
		t.Fatalf("twitter: %+v", all.Twitter)
	}
	m := all.Meta
	if m.Title != "Data fixture" || m.Lang != "en-GB" || m.Canonical != url("/pagedata-data.html?canonical=1") || m.Charset != "UTF-8" ||
		m.Tags["description"] != "A page with structured data" || m.Tags["robots"] != "noindex" || m.Tags["og:title"] != nil {
		t.Fatalf("meta: %+v", m)
	}

	// Flags choose sections.
	keys := func(args ...string) []string {
		var v map[string]json.RawMessage
		if err := json.Unmarshal([]byte(pg(append([]string{"data"}, args...)...)), &v); err != nil {
			t.Fatal(err)
		}
		var k []string
		for _, name := range []string{"jsonld", "og", "twitter", "meta"} {
			if v[name] != nil {
				k = append(k, name)
			}
		}
		return k
	}
	if got := strings.Join(keys("--og"), ","); got != "og" {
		t.Fatalf("data --og has sections %s", got)
	}
	if got := strings.Join(keys("--jsonld", "--twitter"), ","); got != "jsonld,twitter" {
		t.Fatalf("data --jsonld --twitter has sections %s", got)
	}

	// A page without any structured data still answers with every section.
	run("goto", "about:blank")
	contains(t, pg("data"), `"jsonld": []`)
	w.fails("at most 0 arguments", "--tab-id", tab, "data", "extra")
}

type uxAudit struct {
	Site struct {
		Title, URL, Origin, Lang, Brand, Favicon, Description string
		Logo                                                  struct{ Src, Alt string }
	}
	Navigation []struct {
		Label string
		Links []struct{ Text, Href string }
	}
	Headings []struct {
		Level int
		Text  string
	}
	TextBlocks  []string
	Interactive []struct{ Role, Tag, Text, Href, Type string }
	Counts      map[string]struct{ Total, Shown int }
}

func audit(t *testing.T, out string) uxAudit {
	t.Helper()
	var a uxAudit
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("ux-audit is not JSON: %v\n%s", err, out)
	}
	return a
}

func TestUXAudit(t *testing.T) {
	w := shared(t)
	tab := strconv.Itoa(newTab(t, w))
	run := func(args ...string) string { return w.ok(append([]string{"--tab-id", tab}, args...)...) }
	pg := func(args ...string) string { return unwrap(t, run(args...)) }
	run("goto", url("/pagedata-ux.html"))

	a := audit(t, pg("ux-audit"))
	s := a.Site
	if s.Title != "Home — Acme Widgets" || s.URL != url("/pagedata-ux.html") || s.Origin != fixture.URL || s.Lang != "en" ||
		s.Brand != "Acme" || s.Logo.Alt != "Acme logo" || s.Logo.Src != url("/pagedata/img/100x40.png") ||
		s.Favicon != url("/pagedata/img/16x16.png") || s.Description != "Acme makes widgets." {
		t.Fatalf("site: %+v", s)
	}
	var groups []string
	for _, g := range a.Navigation {
		var links []string
		for _, l := range g.Links {
			links = append(links, l.Text+"="+strings.TrimPrefix(l.Href, fixture.URL))
		}
		groups = append(groups, g.Label+": "+strings.Join(links, ", "))
	}
	want := "Main: Products=/products, About us=/about | nav in footer: Privacy=/privacy | header links: Acme logo=/, Log in=/login"
	if got := strings.Join(groups, " | "); got != want {
		t.Fatalf("navigation:\n got %s\nwant %s", got, want)
	}
	if len(a.Headings) != 2 || a.Headings[0].Level != 1 || a.Headings[0].Text != "Widgets for everyone" ||
		a.Headings[1].Level != 2 || a.Headings[1].Text != "Why widgets" {
		t.Fatalf("headings: %+v", a.Headings)
	}
	if len(a.TextBlocks) != 2 || !strings.HasPrefix(a.TextBlocks[0], "Our widgets are the finest") {
		t.Fatalf("text blocks (short and hidden ones left out): %q", a.TextBlocks)
	}
	var email, submit bool
	for _, el := range a.Interactive {
		email = email || (el.Tag == "input" && el.Type == "email" && el.Text == "Email" && el.Role == "textbox")
		submit = submit || (el.Role == "button" && el.Text == "Subscribe" && el.Type == "submit")
		if el.Type == "hidden" {
			t.Fatal("a hidden input is listed as interactive")
		}
	}
	if !email || !submit || a.Counts["interactive"].Total != len(a.Interactive) {
		t.Fatalf("interactive: %+v", a.Interactive)
	}

	// Caps: 80 headings and 300 links, of which 50 and 200 are shown.
	run("goto", url("/pagedata-many.html"))
	a = audit(t, pg("ux-audit"))
	if len(a.Headings) != 50 || a.Headings[49].Text != "Section 50" || a.Counts["headings"] != (struct{ Total, Shown int }{80, 50}) {
		t.Fatalf("headings: %d shown, counts %+v", len(a.Headings), a.Counts["headings"])
	}
	if len(a.Interactive) != 200 || a.Interactive[199].Text != "Link 200" || a.Counts["interactive"] != (struct{ Total, Shown int }{300, 200}) {
		t.Fatalf("interactive: %d shown, counts %+v", len(a.Interactive), a.Counts["interactive"])
	}
}

func TestPerf(t *testing.T) {
	w := shared(t)
	tab := strconv.Itoa(newTab(t, w))
	run := func(args ...string) string { return w.ok(append([]string{"--tab-id", tab}, args...)...) }

	contains(t, run("perf"), "No navigation timing for about:blank")

	// A fresh query string, so the document comes over the network rather
	// than from the cache.
	page := url("/pagedata-ux.html?perf=" + strconv.FormatInt(time.Now().UnixNano(), 10))
	run("goto", page)
	run("wait", "--load")
	out := run("perf")
	contains(t, out, "Timings of "+page+" (navigate, HTTP 200, http/1.1)")
	for _, name := range []string{"DNS", "TCP", "TTFB", "DOMContentLoaded", "load", "first-paint", "first-contentful-paint", "transfer size", "resources"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` +\S`).MatchString(out) {
			t.Fatalf("perf has no %q line:\n%s", name, out)
		}
	}
	if regexp.MustCompile(`(?m)^(load|DOMContentLoaded) +not yet`).MatchString(out) {
		t.Fatalf("the page loaded, but perf says it has not:\n%s", out)
	}
	// The document came over the wire; the logo is a resource (and so is the
	// favicon, the first time the browser fetches it).
	if !regexp.MustCompile(`(?m)^transfer size +\d+(\.\d)?(B|KB) \(document; `).MatchString(out) ||
		!regexp.MustCompile(`(?m)^resources +[12] \(\d+(\.\d)?(B|KB) transferred\)`).MatchString(out) {
		t.Fatalf("perf sizes:\n%s", out)
	}
}

// tabState is what diff must leave as it found: the tab list (with the
// active mark) and the active tab's refs.
func tabState(t *testing.T, w *workspace) string {
	t.Helper()
	_, refs := w.call("GET", "/refs", w.state().Token, "")
	return w.ok("tabs") + "\nrefs: " + string(refs)
}

func TestDiff(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/interact.html"))
	w.ok("snapshot", "-i")
	before := tabState(t, w)

	a, b := url("/pagedata-diff-a.html"), url("/pagedata-diff-b.html")
	out := w.ok("diff", a, b)
	for _, line := range []string{"--- " + a, "+++ " + b, "-The basic plan costs 10 dollars a month.",
		"+The basic plan costs 12 dollars a month.", " Every plan includes support.", "+A new enterprise plan is coming."} {
		if !strings.Contains("\n"+out, "\n"+line+"\n") {
			t.Fatalf("diff has no line %q:\n%s", line, out)
		}
	}
	if strings.Contains(out, "-Pricing") || strings.Contains(out, "+Pricing") {
		t.Fatalf("diff marks unchanged text as changed:\n%s", out)
	}
	if after := tabState(t, w); after != before {
		t.Fatalf("diff changed the tabs or refs:\nbefore: %s\nafter:  %s", before, after)
	}

	contains(t, w.ok("diff", a, a), "No differences: "+a+" and "+a+" have the same text (")

	// An HTTP error page is still compared, and said to be one.
	out = w.ok("diff", a, url("/status/404"))
	contains(t, out, "Note: "+url("/status/404")+" answered HTTP 404")
	contains(t, out, "+status page 404")

	// Failures leave nothing behind.
	w.fails("scheme is not allowed", "diff", "javascript:alert(1)", a)
	w.fails("scheme is not allowed", "diff", a, "javascript:alert(1)")
	w.fails("CONNECTION_REFUSED", "diff", a, "http://127.0.0.1:"+freePort(t)+"/")
	w.fails("Usage: browse diff <url1> <url2>", "diff", a)
	start := time.Now()
	w.fails("timed out", "--timeout", "1500", "diff", url("/hang"), a)
	if took := time.Since(start); took > 6*time.Second {
		t.Fatalf("a diff of a page that never loads took %s to fail", took)
	}
	if after := tabState(t, w); after != before {
		t.Fatalf("a failed diff changed the tabs or refs:\nbefore: %s\nafter:  %s", before, after)
	}
}

// TestDiffScratchTabIsHidden lists the tabs while a diff is loading a page:
// its scratch tab is not among them, and the tab ids go on as before.
func TestDiffScratchTabIsHidden(t *testing.T) {
	w := shared(t)
	before := w.ok("tabs")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		w.run("--timeout", "2500", "diff", url("/hang"), url("/pagedata-diff-a.html"))
	}()
	time.Sleep(1200 * time.Millisecond)
	during := w.ok("tabs")
	wg.Wait()
	if during != before {
		t.Fatalf("the scratch tab shows in the tab list:\nbefore: %s\nduring: %s", before, during)
	}
	if after := w.ok("tabs"); after != before {
		t.Fatalf("tabs after the diff:\n%s\nbefore:\n%s", after, before)
	}
}

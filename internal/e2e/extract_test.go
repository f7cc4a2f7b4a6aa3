package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// The extract fixture page sets dl_token=letmein from JavaScript; the
// protected routes answer 403 without it.
const extractCookie = "letmein"

var (
	protectedBytes = []byte("\x00\x01binary\xffpayload\x00")
	reportCSV      = []byte("name,count\nzebra,3\n")
	countedHits    atomic.Int64
)

func init() {
	extraFixtures = append(extraFixtures, func(mux *http.ServeMux) {
		mux.HandleFunc("/extract/img/", func(w http.ResponseWriter, r *http.Request) {
			name := strings.TrimPrefix(r.URL.Path, "/extract/img/")
			if name == "missing.png" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "image/png")
			w.Write(fixturePNG(name))
		})
		mux.HandleFunc("/extract/protected.bin", func(w http.ResponseWriter, r *http.Request) {
			if !hasCookie(r) {
				http.Error(w, "no cookie, no file", http.StatusForbidden)
				return
			}
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write(protectedBytes)
		})
		mux.HandleFunc("/extract/report", func(w http.ResponseWriter, r *http.Request) {
			if !hasCookie(r) {
				http.Error(w, "no cookie, no report", http.StatusForbidden)
				return
			}
			w.Header().Set("Content-Type", "text/csv")
			w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
			w.Write(reportCSV)
		})
		mux.HandleFunc("/extract/redirect", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/extract/protected.bin", http.StatusFound)
		})
		mux.HandleFunc("/extract/counted", func(w http.ResponseWriter, r *http.Request) {
			countedHits.Add(1)
			w.Write([]byte("counted"))
		})
		mux.HandleFunc("/extract/clip.webm", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "video/webm")
			w.Write([]byte("not really a webm clip"))
		})
		mux.HandleFunc("/extract/sound.ogg", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "audio/ogg")
			w.Write([]byte("not really an ogg sound"))
		})
	})
}

func hasCookie(r *http.Request) bool {
	c, err := r.Cookie("dl_token")
	return err == nil && c.Value == extractCookie
}

// fixturePNG is a small real PNG whose colour depends on name, so every
// image's bytes differ.
func fixturePNG(name string) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	var sum uint8
	for _, b := range []byte(name) {
		sum += b
	}
	for i := range 16 {
		img.Set(i%4, i/4, color.RGBA{sum, uint8(i * 16), 200, 255})
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	return buf.Bytes()
}

// savedPath is the file a "Downloaded X → PATH (…)" line names.
func savedPath(t *testing.T, out string) string {
	t.Helper()
	_, rest, ok := strings.Cut(out, "→ ")
	end := strings.Index(rest, " (")
	if !ok || end < 0 {
		t.Fatalf("no saved path in %q", out)
	}
	return rest[:end]
}

func sameFile(t *testing.T, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s holds %q, want %q", path, got, want)
	}
}

func TestDownloadWithPageCookie(t *testing.T) {
	w := shared(t)
	// The route really needs the cookie: a plain fetch is refused.
	resp, err := http.Get(url("/extract/protected.bin"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("fixture without cookie answered %d", resp.StatusCode)
	}

	w.ok("goto", url("/extract-page.html"))
	dest := filepath.Join(t.TempDir(), "protected.bin")
	out := w.ok("download", url("/extract/protected.bin"), dest)
	contains(t, out, fmt.Sprintf("Downloaded %s → %s (%dB, application/octet-stream)", url("/extract/protected.bin"), dest, len(protectedBytes)))
	sameFile(t, dest, protectedBytes)

	// Each redirect hop gets the browser's cookies too; a relative URL
	// resolves against the page.
	dest2 := filepath.Join(t.TempDir(), "via-redirect.bin")
	w.ok("download", "/extract/redirect", dest2)
	sameFile(t, dest2, protectedBytes)
}

func TestDownloadHTTPErrorWritesNothing(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/extract-page.html"))
	dir := t.TempDir()
	dest := filepath.Join(dir, "missing.bin")
	r := w.fails("HTTP 404 Not Found", "download", url("/extract/missing.bin"), dest)
	contains(t, r.stderr, "Download of "+url("/extract/missing.bin")+" failed")
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("a failed download left files behind: %v", entries)
	}
	local := filepath.Join(dir, "local.txt")
	os.WriteFile(local, []byte("x"), 0o644)
	w.fails("only http and https", "download", "file://"+local)
	w.fails("outside the allowed directories", "download", "file:///etc/hostname")
}

func TestDownloadNavigateContentDisposition(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/extract-page.html")) // sets the cookie the report needs
	before := w.ok("tabs")

	out := w.ok("download", url("/extract/report"), "--navigate")
	contains(t, out, `suggested name "report.csv"`)
	saved := savedPath(t, out)
	t.Cleanup(func() { os.Remove(saved) })
	if filepath.Dir(saved) != filepath.Clean(os.TempDir()) || !strings.HasPrefix(filepath.Base(saved), "report") || filepath.Ext(saved) != ".csv" {
		t.Fatalf("saved to %s, want report*.csv in the temp dir", saved)
	}
	sameFile(t, saved, reportCSV)

	dest := filepath.Join(t.TempDir(), "mine.csv")
	contains(t, w.ok("download", url("/extract/report"), dest, "--navigate"), "→ "+dest+" (19B, text/csv)")
	sameFile(t, dest, reportCSV)

	// A URL the browser shows rather than downloads is saved from the page.
	img := filepath.Join(t.TempDir(), "shown.png")
	contains(t, w.ok("download", url("/extract/img/2.png"), img, "--navigate"), "image/png")
	sameFile(t, img, fixturePNG("2.png"))

	// The hidden page never shows up among the agent's tabs.
	if after := w.ok("tabs"); after != before {
		t.Fatalf("tabs changed:\n%s\nto\n%s", before, after)
	}
	if got := w.ok("url"); got != url("/extract-page.html")+"\n" {
		t.Fatalf("the active tab moved to %q", got)
	}
	// Every hop is still vetted.
	local := filepath.Join(t.TempDir(), "local.txt")
	os.WriteFile(local, []byte("x"), 0o644)
	w.fails("only http and https", "download", "file://"+local, "--navigate")
}

func TestDownloadRefImageAndBase64(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/extract-page.html"))
	ref := refFor(t, w.ok("snapshot"), `"Zebra logo"`)
	dest := filepath.Join(t.TempDir(), "logo.png")
	contains(t, w.ok("download", ref, dest), "image/png")
	sameFile(t, dest, fixturePNG("1.png"))

	want := "data:image/png;base64," + base64.StdEncoding.EncodeToString(fixturePNG("2.png")) + "\n"
	if got := w.ok("download", "/extract/img/2.png", "--base64"); got != want {
		t.Fatalf("--base64 = %q, want %q", got, want)
	}
	// A CSS selector works too, and a data: URL is decoded in place.
	gif := w.ok("download", `img[alt="Inline"]`, "--base64")
	if gif != "data:image/gif;base64,R0lGODlhAQABAAAAACw=\n" {
		t.Fatalf("inline image = %q", gif)
	}
	w.fails("takes no path", "download", ref, dest, "--base64")
	w.fails("no URL to download", "download", "h1")
}

func TestDownloadRefusesPathsOutsideSafeDirs(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/extract-page.html"))
	before := countedHits.Load()
	w.fails("Refusing to write /etc/x", "download", url("/extract/counted"), "/etc/x")
	if home, err := os.UserHomeDir(); err == nil && !strings.HasPrefix(home, os.TempDir()) && !strings.HasPrefix(home, w.dir) {
		w.fails("outside the allowed directories", "download", url("/extract/counted"), filepath.Join(home, "browse-x"))
	}
	w.fails("Refusing to write", "scrape", "images", "--dir", "/etc/browse-scrape")
	w.fails("Refusing to write", "archive", "/etc/x.mhtml")
	if n := countedHits.Load() - before; n != 0 {
		t.Fatalf("the server was hit %d times before the path was refused", n)
	}
	if _, err := os.Stat("/etc/x"); err == nil {
		t.Fatal("/etc/x was written")
	}
}

type manifestEntry struct {
	URL    string `json:"url"`
	File   string `json:"file"`
	Bytes  int64  `json:"bytes"`
	Type   string `json:"type"`
	Status int    `json:"status"`
	Error  string `json:"error"`
}

func TestScrapeImagesWithManifest(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/extract-page.html"))
	dir := filepath.Join(t.TempDir(), "shots")
	out := w.ok("scrape", "images", "--dir", dir)
	contains(t, out, "Scraped 5 of 6 files to "+dir+" (manifest.json)")
	contains(t, out, "HTTP 404")

	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var entries []manifestEntry
	if err := json.Unmarshal(data, &entries); err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{
		url("/extract/img/1.png"):      fixturePNG("1.png"),
		url("/extract/img/2.png"):      fixturePNG("2.png"),
		url("/extract/img/4.png"):      fixturePNG("4.png"), // the largest srcset candidate
		url("/extract/img/poster.png"): fixturePNG("poster.png"),
	}
	if len(entries) != 6 {
		t.Fatalf("manifest has %d entries:\n%s", len(entries), data)
	}
	for _, e := range entries {
		switch {
		case e.URL == url("/extract/img/missing.png"):
			if e.Error == "" || e.File != "" {
				t.Errorf("missing image: %+v", e)
			}
		case strings.HasPrefix(e.URL, "data:image/gif"):
			if e.Bytes != 14 || e.Type != "image/gif" {
				t.Errorf("inline image: %+v", e)
			}
		default:
			body, ok := want[e.URL]
			if !ok || e.Error != "" || e.Status != 200 || e.Type != "image/png" || e.Bytes != int64(len(body)) {
				t.Errorf("unexpected entry %+v", e)
				continue
			}
			sameFile(t, filepath.Join(dir, e.File), body)
			delete(want, e.URL)
		}
	}
	if len(want) != 0 {
		t.Errorf("not scraped: %v", want)
	}

	// media adds the video's source and the audio; --limit caps the count.
	clips := t.TempDir()
	out = w.ok("scrape", "media", "--selector", "#clips", "--limit", "2", "--dir", clips)
	contains(t, out, "Scraped 2 of 2 files to "+clips)
	contains(t, out, "3 found, --limit 2")
	// Without --dir, a fresh directory in the temp dir.
	out = w.ok("scrape", "videos")
	_, rest, _ := strings.Cut(out, " files to ")
	def, _, _ := strings.Cut(rest, " (manifest.json)")
	t.Cleanup(func() { os.RemoveAll(def) })
	if !strings.HasPrefix(def, filepath.Join(os.TempDir(), "browse-scrape-")) {
		t.Fatalf("default scrape directory %q", def)
	}
	if _, err := os.Stat(filepath.Join(def, "manifest.json")); err != nil {
		t.Fatal(err)
	}
	w.fails("HTTP 404", "scrape", "images", "--selector", `img[alt="Broken"]`, "--dir", t.TempDir())
	w.fails("--limit takes a number", "scrape", "images", "--limit", "0")
	w.fails("Scrape images, videos or media", "scrape", "pictures")
}

func TestArchiveMHTML(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/extract-page.html"))
	dest := filepath.Join(t.TempDir(), "page.mhtml")
	out := w.ok("archive", dest)
	contains(t, out, "Archived "+url("/extract-page.html")+" → "+dest)
	data, err := os.ReadFile(dest)
	if err != nil {
		t.Fatal(err)
	}
	// Quoted-printable may wrap lines with a soft break ("=" CRLF).
	text := strings.ReplaceAll(string(data), "=\r\n", "")
	if !strings.Contains(text, "MIME-Version") || !strings.Contains(text, "Zebracorn archive marker") {
		t.Fatalf("the archive lacks the page's text:\n%.2000s", text)
	}

	def := w.ok("archive")
	saved := savedPath(t, def)
	t.Cleanup(func() { os.Remove(saved) })
	if !strings.HasPrefix(filepath.Base(saved), "browse-archive-") || !strings.HasSuffix(saved, ".mhtml") {
		t.Fatalf("default archive path %s", saved)
	}
}

func TestFileRoute(t *testing.T) {
	w := shared(t)
	w.ok("url") // the daemon is up
	st := w.state()
	get := func(path, token string) (*http.Response, []byte) {
		t.Helper()
		return w.call("GET", "/file?path="+path, token, "")
	}

	file := filepath.Join(t.TempDir(), "served.png")
	os.WriteFile(file, fixturePNG("served"), 0o644)
	resp, body := get(file, st.Token)
	if resp.StatusCode != 200 || !bytes.Equal(body, fixturePNG("served")) {
		t.Fatalf("GET /file: %d %q", resp.StatusCode, body)
	}
	if ct, cl := resp.Header.Get("Content-Type"), resp.Header.Get("Content-Length"); ct != "image/png" || cl != fmt.Sprint(len(body)) {
		t.Fatalf("Content-Type %q, Content-Length %q", ct, cl)
	}

	// Another workspace's state file (its token) is never served.
	otherState := filepath.Join(t.TempDir(), ".gstack", "browse.json")
	os.MkdirAll(filepath.Dir(otherState), 0o700)
	os.WriteFile(otherState, []byte(`{"token":"secret"}`), 0o600)

	for _, c := range []struct {
		path, token string
		status      int
		want        string
	}{
		{"/etc/hostname", st.Token, 403, "outside the allowed directories"},
		{file, "", 401, "Unauthorized"},
		{file, "wrong", 401, "Unauthorized"},
		{filepath.Join(filepath.Dir(file), "nope.png"), st.Token, 404, "Cannot open"},
		{filepath.Dir(file), st.Token, 400, "not a regular file"},
		{w.statePath(), st.Token, 403, "inside a .gstack state directory"},
		{"", st.Token, 400, "Missing ?path="},
		{otherState, st.Token, 403, "inside a .gstack state directory"},
	} {
		resp, body := get(c.path, c.token)
		var e struct{ Error, Hint string }
		json.Unmarshal(body, &e)
		if resp.StatusCode != c.status || !strings.Contains(e.Error, c.want) || e.Hint == "" {
			t.Errorf("GET /file?path=%s (token %q): %d %s; want %d mentioning %q", c.path, c.token, resp.StatusCode, body, c.status, c.want)
		}
	}
}

package e2e

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	_ "image/jpeg"
	"image/png"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func init() {
	extraFixtures = append(extraFixtures, func(mux *http.ServeMux) {
		// Coloured boxes at known places: red near the top, blue far down.
		mux.HandleFunc("/visual.html", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>Visual</title>
<style>body{margin:0} button{border:0;padding:0;margin:0;position:absolute}</style>
<button id="red" aria-label="Red box" style="left:100px;top:50px;width:200px;height:100px;background:#f00"></button>
<button id="blue" aria-label="Blue box" style="left:0;top:2500px;width:300px;height:150px;background:#00f"></button>
<div style="height:3200px"></div>`)
		})
		mux.HandleFunc("/tall.html", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>Tall</title><body style="margin:0"><div style="height:40000px;background:linear-gradient(#fff,#000)"></div>`)
		})
		// A cross-site (out-of-process) iframe and a closed shadow root, each
		// holding a coloured button.
		mux.HandleFunc("/visual-frames.html", func(w http.ResponseWriter, r *http.Request) {
			port := r.Host[strings.LastIndexByte(r.Host, ':')+1:]
			fmt.Fprintf(w, `<!doctype html><title>Visual frames</title><body style="margin:0">
<div style="height:300px"></div>
<iframe src="http://localhost:%s/visual-child.html" style="border:0;margin-left:40px" width="400" height="200"></iframe>
<iframe srcdoc="<body style='margin:0'><div style='height:20px'></div><button aria-label='Orange box' style='border:0;margin-left:15px;width:90px;height:45px;background:#ff8000'></button>" style="border:0" width="300" height="100"></iframe>
<div id="host"></div>
<script>
const root = document.getElementById('host').attachShadow({mode: 'closed'});
root.innerHTML = '<button aria-label="Purple box" style="border:0;width:120px;height:60px;background:#800080"></button>';
</script>`, port)
		})
		mux.HandleFunc("/visual-child.html", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><body style="margin:0"><div style="height:50px"></div><button aria-label="Green box" style="border:0;margin-left:30px;width:160px;height:80px;background:#008000"></button>`)
		})
		mux.HandleFunc("/clutter.html", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>Clutter</title><body>
<header style="position:sticky;top:0;background:#eee">Site header</header>
<div class="ad" id="ad-top">Buy things</div>
<div id="cookie-banner" style="position:fixed;bottom:0;left:0;right:0;background:#333;color:#fff">We use cookies <button>OK</button></div>
<article><h1>Story</h1><p>The real content.</p>
<a href="https://twitter.com/intent/tweet?url=x">Tweet</a> <a href="https://www.facebook.com/sharer/sharer.php?u=x">Share</a>
<div id="promo">Promo block</div>`+strings.Repeat("<p>filler paragraph</p>", 80)+`<h2 id="five">Section Five</h2><p>end</p></article>`)
		})
		mux.HandleFunc("/long.html", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>Long</title><h1>Long document</h1>`)
			for i := range 200 {
				fmt.Fprintf(w, "<h2>Part %d</h2><p>Paragraph %d of a long document that spans several printed pages.</p>", i, i)
			}
		})
	})
}

// decodeImage reads a PNG or JPEG file.
func decodeImage(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not an image: %v", err)
	}
	return img
}

func readImage(t *testing.T, path string) image.Image {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return decodeImage(t, data)
}

// allColour checks the centre and near the corners of img are c.
func allColour(t *testing.T, img image.Image, want color.RGBA, what string) {
	t.Helper()
	b := img.Bounds()
	for _, p := range []image.Point{{b.Dx() / 2, b.Dy() / 2}, {2, 2}, {b.Dx() - 3, b.Dy() - 3}} {
		r, g, bl, _ := img.At(b.Min.X+p.X, b.Min.Y+p.Y).RGBA()
		got := color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 255}
		if diff(got.R, want.R) > 8 || diff(got.G, want.G) > 8 || diff(got.B, want.B) > 8 {
			t.Fatalf("%s: pixel %v is %v, want %v", what, p, got, want)
		}
	}
}

func diff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

func size(img image.Image) string { return fmt.Sprintf("%dx%d", img.Bounds().Dx(), img.Bounds().Dy()) }

var (
	red    = color.RGBA{255, 0, 0, 255}
	blue   = color.RGBA{0, 0, 255, 255}
	green  = color.RGBA{0, 128, 0, 255}
	purple = color.RGBA{128, 0, 128, 255}
	orange = color.RGBA{255, 128, 0, 255}
)

func TestScreenshotModes(t *testing.T) {
	w := shared(t)
	dir := t.TempDir()
	w.ok("goto", url("/visual.html"))

	// Full page (the default): 1280x3200 is scaled to fit 2000 px.
	out := w.ok("screenshot", filepath.Join(dir, "full.png"))
	contains(t, out, "Screenshot saved: "+filepath.Join(dir, "full.png")+" (800x2000 px")
	contains(t, out, "scaled to 62%")
	if s := size(readImage(t, filepath.Join(dir, "full.png"))); s != "800x2000" {
		t.Fatalf("full page is %s", s)
	}
	// With --full-resolution every pixel stays.
	w.ok("screenshot", "--full-resolution", filepath.Join(dir, "fullres.png"))
	if s := size(readImage(t, filepath.Join(dir, "fullres.png"))); s != "1280x3200" {
		t.Fatalf("full-resolution page is %s", s)
	}

	out = w.ok("screenshot", "--viewport", filepath.Join(dir, "vp.png"))
	contains(t, out, "(1280x720 px")
	if strings.Contains(out, "scaled") {
		t.Fatalf("a 1280x720 shot needs no scaling: %s", out)
	}

	// Element crops: positional CSS, --selector, a ref.
	w.ok("screenshot", "#red", filepath.Join(dir, "red.png"))
	img := readImage(t, filepath.Join(dir, "red.png"))
	if size(img) != "200x100" {
		t.Fatalf("red crop is %s", size(img))
	}
	allColour(t, img, red, "positional #red")
	w.ok("screenshot", "--selector", "#blue", filepath.Join(dir, "blue.png"))
	img = readImage(t, filepath.Join(dir, "blue.png"))
	if size(img) != "300x150" {
		t.Fatalf("blue crop is %s", size(img))
	}
	allColour(t, img, blue, "--selector #blue (far below the fold)")
	ref := refFor(t, w.ok("snapshot", "-i"), `"Red box"`)
	w.ok("screenshot", ref, filepath.Join(dir, "ref.png"))
	allColour(t, readImage(t, filepath.Join(dir, "ref.png")), red, "ref crop")

	// A region of the viewport, after scrolling back to the top.
	w.ok("js", "scrollTo(0, 0)")
	w.ok("screenshot", "--clip", "100,50,200,100", filepath.Join(dir, "clip.png"))
	img = readImage(t, filepath.Join(dir, "clip.png"))
	if size(img) != "200x100" {
		t.Fatalf("clip is %s", size(img))
	}
	allColour(t, img, red, "--clip over the red box")

	// --base64 composes with a crop and prints a data URL only.
	out = w.ok("screenshot", "--base64", "#red")
	if !strings.HasPrefix(out, "data:image/png;base64,") {
		t.Fatalf("--base64 printed %.80q", out)
	}
	data, err := base64.StdEncoding.DecodeString(strings.TrimSpace(strings.TrimPrefix(out, "data:image/png;base64,")))
	if err != nil {
		t.Fatal(err)
	}
	allColour(t, decodeImage(t, data), red, "--base64 crop")

	// The extension picks the format.
	w.ok("screenshot", "--viewport", filepath.Join(dir, "vp.jpg"))
	jpg, _ := os.ReadFile(filepath.Join(dir, "vp.jpg"))
	if !bytes.HasPrefix(jpg, []byte{0xFF, 0xD8}) {
		t.Fatal(".jpg did not write a JPEG")
	}
	out = w.ok("screenshot", "--viewport", filepath.Join(dir, "vp.webp"))
	contains(t, out, "(1280x720 px")
	webp, _ := os.ReadFile(filepath.Join(dir, "vp.webp"))
	if !bytes.HasPrefix(webp, []byte("RIFF")) || string(webp[8:12]) != "WEBP" {
		t.Fatal(".webp did not write a WebP")
	}

	// No path: the temp directory.
	out = w.ok("screenshot", "--viewport")
	contains(t, out, filepath.Join(os.TempDir(), "browse-screenshot.png"))
}

func TestScreenshotBadInput(t *testing.T) {
	w := shared(t)
	dir := t.TempDir()
	w.ok("goto", url("/visual.html"))
	w.fails("exclude each other", "screenshot", "--clip", "0,0,10,10", "#red")
	w.fails("exclude each other", "screenshot", "--clip", "0,0,10,10", "--selector", "#red")
	w.fails("drop --viewport", "screenshot", "--viewport", "--clip", "0,0,10,10")
	w.fails("Give the element once", "screenshot", "--selector", "#red", "#blue")
	w.fails("Unknown flag", "screenshot", "--bogus")
	w.fails("one output path", "screenshot", filepath.Join(dir, "a.png"), filepath.Join(dir, "b.png"))
	w.fails("x,y,width,height", "screenshot", "--clip", "1,2,3")
	w.fails("use a .png", "screenshot", filepath.Join(dir, "a.gif"))
	w.fails("outside the allowed directories", "screenshot", "/etc/browse-shot.png")
	w.fails("lies outside the viewport (10x10 at 5000,5000; the viewport is 1280x720)", "screenshot", "--clip", "5000,5000,10,10")
	start := time.Now()
	w.fails("not found", "screenshot", "#missing")
	if took := time.Since(start); took > 8*time.Second {
		t.Fatalf("a missing element took %s to fail", took)
	}
	w.fails("is unknown", "screenshot", "@e999")
	// The daemon is fine afterwards.
	contains(t, w.ok("screenshot", "--viewport", filepath.Join(dir, "ok.png")), "1280x720")
}

func TestScreenshotSizeCapAndScale(t *testing.T) {
	w := newWorkspace(t)
	dir := t.TempDir()
	w.ok("goto", url("/visual.html"))
	contains(t, w.ok("viewport", "1280x720", "--scale", "3"), "Viewport 1280x720 (scale 3)")
	out := w.ok("screenshot", "--viewport", filepath.Join(dir, "cap.png"))
	contains(t, out, "(2000x1125 px")
	contains(t, out, "--full-resolution")
	if s := size(readImage(t, filepath.Join(dir, "cap.png"))); s != "2000x1125" {
		t.Fatalf("capped viewport shot is %s", s)
	}
	w.ok("screenshot", "--viewport", "--full-resolution", filepath.Join(dir, "big.png"))
	if s := size(readImage(t, filepath.Join(dir, "big.png"))); s != "3840x2160" {
		t.Fatalf("full-resolution viewport shot is %s", s)
	}
	// An element at scale 3 has three times the pixels.
	w.ok("screenshot", "#red", filepath.Join(dir, "red3.png"))
	img := readImage(t, filepath.Join(dir, "red3.png"))
	if size(img) != "600x300" {
		t.Fatalf("red at scale 3 is %s", size(img))
	}
	allColour(t, img, red, "red at scale 3")

	// --scale alone keeps the size; a new tab starts with the same viewport.
	contains(t, w.ok("viewport", "--scale", "2"), "Viewport 1280x720 (scale 2)")
	contains(t, w.ok("viewport", "800x600"), "Viewport 800x600 (scale 2)")
	w.ok("newtab", url("/visual.html"))
	contains(t, w.ok("js", "innerWidth + 'x' + innerHeight + '@' + devicePixelRatio"), "800x600@2")

	// A very tall page is cut at a documented height, with a note.
	w.ok("viewport", "1280x720", "--scale", "1")
	w.ok("goto", url("/tall.html"))
	start := time.Now()
	out = w.ok("screenshot", filepath.Join(dir, "tall.png"))
	contains(t, out, "the page is 40000 px tall; this shows the top 16384 px")
	if s := size(readImage(t, filepath.Join(dir, "tall.png"))); s != "156x2000" {
		t.Fatalf("tall page shot is %s", s)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Fatalf("the tall page took %s", took)
	}
}

func TestScreenshotInsideFramesAndShadowRoots(t *testing.T) {
	w := shared(t)
	dir := t.TempDir()
	w.ok("goto", url("/visual-frames.html"))
	w.ok("wait", "--load")
	snap := w.ok("snapshot", "-i")
	greenRef := refFor(t, snap, `"Green box"`)
	purpleRef := refFor(t, snap, `"Purple box"`)
	orangeRef := refFor(t, snap, `"Orange box"`)
	w.ok("screenshot", greenRef, filepath.Join(dir, "green.png"))
	img := readImage(t, filepath.Join(dir, "green.png"))
	if size(img) != "160x80" {
		t.Fatalf("green crop inside the cross-site iframe is %s", size(img))
	}
	allColour(t, img, green, "element inside an out-of-process iframe")
	w.ok("screenshot", purpleRef, filepath.Join(dir, "purple.png"))
	img = readImage(t, filepath.Join(dir, "purple.png"))
	if size(img) != "120x60" {
		t.Fatalf("purple crop inside the closed shadow root is %s", size(img))
	}
	allColour(t, img, purple, "element inside a closed shadow root")
	w.ok("screenshot", orangeRef, filepath.Join(dir, "orange.png"))
	img = readImage(t, filepath.Join(dir, "orange.png"))
	if size(img) != "90x45" {
		t.Fatalf("orange crop inside the same-site iframe is %s", size(img))
	}
	allColour(t, img, orange, "element inside a same-site iframe")
}

func TestScreenshotOverHTTP(t *testing.T) {
	w := shared(t)
	w.ok("goto", url("/visual.html"))
	res, out := w.call("POST", "/command", w.state().Token, `{"command":"screenshot","args":["--base64","--clip","100,50,200,100"]}`)
	if res.StatusCode != 200 || !bytes.HasPrefix(out, []byte("data:image/png;base64,")) {
		t.Fatalf("POST /command screenshot: %d %.100s", res.StatusCode, out)
	}
}

// pdfInfo runs poppler's pdfinfo (installed by .ci/run) on a file.
func pdfInfo(t *testing.T, path string) map[string]string {
	t.Helper()
	out, err := exec.Command("pdfinfo", path).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo %s: %v\n%s", path, err, out)
	}
	info := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			info[k] = strings.TrimSpace(v)
		}
	}
	return info
}

func TestPDF(t *testing.T) {
	w := shared(t)
	dir := t.TempDir()
	w.ok("goto", url("/long.html"))
	path := filepath.Join(dir, "doc.pdf")
	out := w.ok("pdf", path, "--format", "a4", "--page-numbers", "--outline", "--tagged")
	contains(t, out, "PDF saved: "+path)
	info := pdfInfo(t, path)
	pages := atoi(info["Pages"])
	if pages < 3 {
		t.Fatalf("a 200-section document printed on %d pages", pages)
	}
	if m := regexp.MustCompile(`\d+ pages`).FindString(out); m != fmt.Sprintf("%d pages", pages) {
		t.Fatalf("output says %q, pdfinfo says %d pages", m, pages)
	}
	contains(t, info["Page size"], "595") // A4 is 595 x 842 points
	contains(t, info["Tagged"], "yes")

	// Options from a payload file; the command line wins over it.
	payload := filepath.Join(dir, "payload.json")
	os.WriteFile(payload, []byte(`{"format": "legal", "landscape": true, "footerTemplate": "<div style='font-size:8px'>browse footer</div>", "output": "`+filepath.Join(dir, "legal.pdf")+`"}`), 0o600)
	out = w.ok("pdf", "--from-file", payload)
	contains(t, out, filepath.Join(dir, "legal.pdf"))
	contains(t, pdfInfo(t, filepath.Join(dir, "legal.pdf"))["Page size"], "1008 x 612")
	w.ok("pdf", "--from-file", payload, "--format", "letter", filepath.Join(dir, "letter.pdf"))
	contains(t, pdfInfo(t, filepath.Join(dir, "letter.pdf"))["Page size"], "792 x 612")

	w.ok("pdf", "--width", "5in", "--height", "200mm", "--margins", "1cm", filepath.Join(dir, "custom.pdf"))
	contains(t, pdfInfo(t, filepath.Join(dir, "custom.pdf"))["Page size"], "360 x 567")
	contains(t, w.ok("pdf", "--toc", filepath.Join(dir, "toc.pdf")), "does not load it")

	// Bad input.
	w.fails("letter, a4 or legal", "pdf", "--format", "tabloid")
	w.fails("not a length", "pdf", "--margins", "wide")
	w.fails("outside the allowed directories", "pdf", "/etc/browse.pdf")
	os.WriteFile(payload, []byte(`{"fromat": "a4"}`), 0o600)
	w.fails("Bad --from-file payload", "pdf", "--from-file", payload)
	w.fails("outside the allowed directories", "pdf", "--from-file", "/etc/hostname")
}

func TestResponsive(t *testing.T) {
	w := shared(t)
	dir := t.TempDir()
	w.ok("goto", url("/visual.html"))
	before := w.ok("viewport")
	out := w.ok("responsive", filepath.Join(dir, "shot"))
	for _, s := range []struct{ name, size string }{{"mobile", "375x812"}, {"tablet", "768x1024"}, {"desktop", "1280x720"}} {
		p := filepath.Join(dir, "shot-"+s.name+".png")
		contains(t, out, p)
		if got := size(readImage(t, p)); got != s.size {
			t.Fatalf("%s shot is %s, want %s", s.name, got, s.size)
		}
	}
	if after := w.ok("viewport"); after != before {
		t.Fatalf("viewport was %q before responsive, %q after", before, after)
	}
}

func TestCleanupAndPrettyScreenshot(t *testing.T) {
	w := shared(t)
	dir := t.TempDir()
	w.ok("goto", url("/clutter.html"))
	contains(t, w.ok("cleanup", "--ads"), "Removed 1 element: ads 1")
	if got := w.ok("js", "!!document.getElementById('cookie-banner')"); got != "true\n" {
		t.Fatal("cleanup --ads removed the cookie banner too")
	}
	w.ok("goto", url("/clutter.html"))
	contains(t, w.ok("cleanup"), "Removed 5 elements: ads 1, cookies 1, sticky 1, social 2")
	text := w.ok("text")
	contains(t, text, "The real content.")
	for _, gone := range []string{"Buy things", "We use cookies", "Site header", "Tweet"} {
		if strings.Contains(text, gone) {
			t.Fatalf("%q is still on the page after cleanup", gone)
		}
	}

	w.ok("goto", url("/clutter.html"))
	path := filepath.Join(dir, "pretty.png")
	// #promo matches both --hide selectors: hidden once, restored once.
	out := w.ok("prettyscreenshot", "--cleanup", "--hide", "#promo", "--hide", "h1, #promo", "--scroll-to", "Section Five", path)
	contains(t, out, "Screenshot saved: "+path+" (1280x720 px")
	contains(t, out, "Removed 5 elements")
	contains(t, out, "hid 2 element(s)")
	contains(t, out, `scrolled to the text "Section Five"`)
	if y := atoi(strings.TrimSpace(w.ok("js", "Math.round(scrollY)"))); y == 0 {
		t.Fatal("--scroll-to did not scroll")
	}
	// Hidden elements come back after the shot.
	if got := w.ok("js", "getComputedStyle(document.getElementById('promo')).display"); got != "block\n" {
		t.Fatalf("#promo is %q after the shot", got)
	}
	w.fails("matches no element and no visible text", "prettyscreenshot", "--scroll-to", "no such words anywhere", path)
	w.fails("not a valid CSS selector", "prettyscreenshot", "--hide", "[[", path)
}

func TestOutputAndPayloadFilesAreChecked(t *testing.T) {
	w := shared(t)
	dir := t.TempDir()
	w.ok("goto", url("/visual.html"))
	// A dangling symlink in a safe directory must not carry a write out of it.
	outside := filepath.Join("/etc", fmt.Sprintf("browse-escape-%d.png", time.Now().UnixNano()))
	link := filepath.Join(dir, "link.png")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	w.ok("screenshot", "--viewport", link)
	if _, err := os.Lstat(outside); err == nil {
		os.Remove(outside)
		t.Fatal("the screenshot followed a symlink out of the safe directories")
	}
	if info, err := os.Lstat(link); err != nil || !info.Mode().IsRegular() {
		t.Fatalf("the link was not replaced by the image: %v %v", info, err)
	}
	// A FIFO as a payload would block the read: refused at once.
	fifo := filepath.Join(dir, "payload.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	w.fails("not a regular file", "pdf", "--from-file", fifo)
	w.fails("not a regular file", "load-html", "--from-file", fifo)
}

func TestLoadHTML(t *testing.T) {
	w := newWorkspace(t, "GSTACK_BROWSE_MAX_HTML_BYTES=4096")
	dir := t.TempDir()
	page := filepath.Join(dir, "card.html")
	os.WriteFile(page, []byte(`<!doctype html><title>Card</title><div class="card" style="width:400px;height:200px;background:#f00">Loaded card</div>`), 0o600)
	w.ok("goto", url("/home.html"))
	out := w.ok("load-html", page)
	contains(t, out, "Loaded "+page)
	if got := w.ok("url"); got != "about:blank\n" {
		t.Fatalf("url after load-html is %q", got)
	}
	contains(t, w.ok("text"), "Loaded card")
	// The loaded content never inherits the previous page's origin.
	if got := w.ok("js", "location.origin"); got != "null\n" {
		t.Fatalf("origin after load-html is %q", got)
	}
	// It survives a scale change, and the crop has the scale's pixels.
	w.ok("viewport", "480x600", "--scale", "2")
	contains(t, w.ok("text"), "Loaded card")
	w.ok("screenshot", ".card", filepath.Join(dir, "card.png"))
	if s := size(readImage(t, filepath.Join(dir, "card.png"))); s != "800x400" {
		t.Fatalf("card at scale 2 is %s", s)
	}

	// The aliases are the same command.
	os.WriteFile(page, []byte(`<p>via alias</p>`), 0o600)
	for _, alias := range []string{"setcontent", "set-content", "setContent"} {
		w.ok("goto", "about:blank")
		w.ok(alias, page)
		contains(t, w.ok("text"), "via alias")
	}
	contains(t, w.ok("help", "setContent"), "Usage: browse load-html")

	payload := filepath.Join(dir, "payload.json")
	os.WriteFile(payload, []byte(`{"html": "<p>from a payload</p>"}`), 0o600)
	w.ok("load-html", "--from-file", payload)
	contains(t, w.ok("text"), "from a payload")

	// Bad input, each refused with the page left alone.
	renamed := filepath.Join(dir, "image.html")
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(renamed, buf.Bytes(), 0o600)
	w.fails("not HTML", "load-html", renamed)
	txt := filepath.Join(dir, "notes.txt")
	os.WriteFile(txt, []byte("<p>hi</p>"), 0o600)
	w.fails("load-html takes .html", "load-html", txt)
	w.fails("outside the allowed directories", "load-html", "/etc/page.html")
	big := filepath.Join(dir, "big.html")
	os.WriteFile(big, []byte("<p>"+strings.Repeat("x", 5000)+"</p>"), 0o600)
	w.fails("over the 4.0KB limit", "load-html", big)
	w.fails("outside the allowed directories", "load-html", "--from-file", "/etc/hostname")
	w.fails("needs a JSON object", "setContent", "--from-file", page)
	contains(t, w.ok("text"), "from a payload")
}

func TestTabClosedMidCommand(t *testing.T) {
	w := newWorkspace(t)
	w.ok("newtab", url("/visual.html"))
	done := make(chan result, 1)
	go func() { done <- w.run("--tab-id", "2", "js", "await new Promise(r => setTimeout(r, 4000))") }()
	time.Sleep(1500 * time.Millisecond)
	w.ok("closetab", "2")
	closed := time.Now()
	r := <-done
	// It stops when the tab goes, not at its 15 s deadline.
	if waited := time.Since(closed); waited > 8*time.Second {
		t.Fatalf("the command waited %s after its tab closed", waited)
	}
	if r.code != 1 || !strings.Contains(r.stderr, "Tab 2 went away while 'js' ran") {
		t.Fatalf("command on a tab closed under it: exit %d, %s", r.code, r.stderr)
	}
	// The daemon and the other tab carry on.
	contains(t, w.ok("screenshot", "--viewport", filepath.Join(t.TempDir(), "after.png")), "1280x720")
}
